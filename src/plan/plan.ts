// The plan: what kubelet's SyncPod would do for one pod, as data (the JSON contract scripts read).
// Built from computePodActions plus the steps SyncPod takes in order. Pure: `now` is an input.
// Contract: keys are only ever added, never renamed or dropped; schemaVersion changes when meaning does.

import type { Container, Pod } from '../kubelet/api-types';
import { estimateCrashLoopBackOff, type BackOffEstimate } from '../kubelet/backoff';
import {
  computePodActions,
  containerChanged,
  describeHashCheck,
  type ComputePodActionsOptions,
  type HashCheck,
  type PodActions,
  type StartDecision,
} from '../kubelet/compute-pod-actions';
import { resolveKubeletRules, type KubeletRules } from '../kubelet/kubelet-version';
import type { PodStatus } from '../kubelet/types';
import { summarizePlan, type PlanSummary } from './summary';

export const PLAN_SCHEMA_VERSION = 1;

/** The closed vocabulary of step actions, in SyncPod order. */
export const STEP_ACTIONS = [
  'kill-pod',
  'kill-container',
  'remove-init-container',
  'create-sandbox',
  'start-ephemeral-container',
  'start-init-container',
  'start-container',
] as const;
export type StepAction = (typeof STEP_ACTIONS)[number];

export interface PlanBackOff {
  container: string;
  /** Always true: kubelet keeps the real table in memory. */
  estimate: true;
  restartCount: number;
  delaySeconds: number;
  heldBack: boolean;
  remainingSeconds: number;
  /** Why the estimate is what it is, in words. */
  note: string;
}

export interface PlanStep {
  step: number;
  action: StepAction;
  target: string;
  reason: string;
  /** Container or sandbox ids the step acts on, when known. */
  containerId?: string;
  containerIds?: string[];
  sandboxIds?: string[];
  attempt?: number;
  backOff?: PlanBackOff;
}

export interface Plan {
  schemaVersion: number;
  kubeletVersion: string;
  initPath: 'classic' | 'sidecar';
  featureGates: Record<string, boolean>;
  pod: { namespace: string; name: string; uid: string };
  match: { by: 'uid-label' | 'namespace-name'; uid: string };
  actions: {
    killPod: boolean;
    killPodReason: string | null;
    createSandbox: boolean;
    sandboxChange: { code: string; reason: string } | null;
    sandboxId: string;
    attempt: number;
    nextInitContainerToStart: string | null;
    initContainersToStart: string[];
    containersToStart: Array<{ name: string; reason: string; code: string }>;
    containersToKill: Array<{ name: string; containerId: string; reason: string; message: string; kubeletReason: string }>;
    ephemeralContainersToStart: string[];
  };
  steps: PlanStep[];
  waiting: string[];
  backOff: PlanBackOff[];
  hashNotes: string[];
  assumptions: string[];
  changes: boolean;
  summary: PlanSummary;
}

export interface PlanInput {
  /** The pod as kubelet would hold it (API defaults applied). */
  pod: Pod;
  podStatus: PodStatus;
  /** Milliseconds since the epoch, for back-off estimates. */
  now: number;
  options?: ComputePodActionsOptions;
  /** How the CRI state was matched to the pod; default by uid label. */
  matchedBy?: 'uid-label' | 'namespace-name';
  /** Where the pod came from; default 'manifest' (no admission mutations). */
  podSource?: 'manifest' | 'api-server';
}

const KILL_POD_REASONS: Record<string, string> = {
  'sandbox-changed': 'the sandbox must be recreated',
  'init-container-failed': 'an init container failed and restartPolicy is Never',
  'no-running-containers': 'no container is running and none will be started',
};

export function buildPlan(input: PlanInput): Plan {
  const { pod, podStatus: st } = input;
  const a = computePodActions(pod, st, input.options);
  const rules = resolveKubeletRules(input.options?.kubeletVersion, input.options?.featureGates);
  const ns = pod.metadata?.namespace ?? 'default';
  const name = pod.metadata?.name ?? '';
  const uid = pod.metadata?.uid || st.uid;
  const podRef = `${ns}/${name}`;
  const spec = pod.spec!;
  const inits = spec.initContainers ?? [];
  const eph = spec.ephemeralContainers ?? [];

  const backOffs: PlanBackOff[] = [];
  const backOffFor = (cname: string): PlanBackOff | undefined => {
    const b = estimateBackOff(input, cname, rules.hashScheme);
    if (b) backOffs.push(b);
    return b;
  };

  const steps: Omit<PlanStep, 'step'>[] = [];
  const killPodReason = a.killPod ? (KILL_POD_REASONS[a.killPodCause ?? ''] ?? 'kubelet kills the pod') : null;
  let purged = false;
  if (a.killPod) {
    const running = st.containerStatuses.filter((s) => s.state === 'running');
    // kubelet's KillPod stops every running container and every sandbox; when nothing runs and no
    // sandbox is ready (a new pod, or one already stopped) that changes nothing, so no step is listed.
    const somethingToKill = running.length > 0 || st.sandboxStatuses.some((s) => s.state === 'ready');
    if (somethingToKill) steps.push({
      action: 'kill-pod',
      target: podRef,
      reason: a.sandboxChange ? `${killPodReason}: ${a.sandboxChange.detail}` : killPodReason!,
      containerIds: running.map((s) => s.id),
      sandboxIds: st.sandboxStatuses.map((s) => s.id),
    });
    if (a.createSandbox) {
      purged = true;
      for (const ic of inits) {
        for (const s of st.containerStatuses.filter((x) => x.name === ic.name)) {
          steps.push({
            action: 'remove-init-container',
            target: s.name,
            reason: 'every init container is removed before the sandbox is recreated',
            containerId: s.id,
          });
        }
      }
    }
  } else {
    for (const k of a.containersToKill) {
      steps.push({ action: 'kill-container', target: k.name, reason: killText(k.why, k.hash), containerId: k.containerId });
    }
  }
  if (!purged) {
    for (const ic of inits) {
      const done = st.containerStatuses.filter((s) => s.name === ic.name && (s.state === 'exited' || s.state === 'unknown'));
      for (const s of done.slice(1)) {
        steps.push({
          action: 'remove-init-container',
          target: ic.name,
          reason: 'an older exited instance; kubelet keeps only the newest one of each init container',
          containerId: s.id,
        });
      }
    }
  }
  if (a.createSandbox) {
    steps.push({
      action: 'create-sandbox',
      target: `${podRef} attempt ${a.attempt}`,
      reason: a.sandboxChange ? a.sandboxChange.detail : 'the sandbox must be recreated',
      attempt: a.attempt,
    });
  }
  for (const d of a.ephemeralContainerStarts) {
    steps.push(startStep('start-ephemeral-container', eph[d.index].name, d, backOffFor(eph[d.index].name)));
  }
  if (a.nextInitContainerToStart !== null && a.nextInitContainerReason) {
    const d: StartDecision = {
      index: inits.findIndex((c) => c.name === a.nextInitContainerToStart),
      name: a.nextInitContainerToStart,
      reason: a.nextInitContainerReason,
    };
    steps.push(startStep('start-init-container', d.name, d, backOffFor(d.name)));
  }
  for (const d of a.initContainerStarts) {
    steps.push(startStep('start-init-container', d.name, d, backOffFor(d.name)));
  }
  for (const d of a.containerStarts) {
    steps.push(startStep('start-container', d.name, d, backOffFor(d.name)));
  }
  const numbered: PlanStep[] = steps.map((s, i) => ({ step: i + 1, ...s }));

  const hashNotes = a.hashChecks.filter((h) => h.verdict !== 'match').map((h) => `${h.name}: ${describeHashCheck(h)}`);

  const planBody = {
    schemaVersion: PLAN_SCHEMA_VERSION,
    kubeletVersion: a.kubeletVersion,
    initPath: a.initPath,
    featureGates: { ...a.featureGates },
    pod: { namespace: ns, name, uid },
    match: { by: input.matchedBy ?? 'uid-label', uid: st.uid || uid },
    actions: {
      killPod: a.killPod,
      killPodReason,
      createSandbox: a.createSandbox,
      sandboxChange: a.sandboxChange ? { code: a.sandboxChange.code, reason: a.sandboxChange.detail } : null,
      sandboxId: a.sandboxId,
      attempt: a.attempt,
      nextInitContainerToStart: a.nextInitContainerToStart,
      initContainersToStart: a.initContainerStarts.map((d) => d.name),
      containersToStart: a.containerStarts.map((d) => ({ name: d.name, reason: d.reason.text, code: d.reason.code })),
      containersToKill: a.containersToKill.map((k) => ({
        name: k.name,
        containerId: k.containerId,
        reason: killText(k.why, k.hash),
        message: k.message,
        kubeletReason: k.reason,
      })),
      ephemeralContainersToStart: a.ephemeralContainerStarts.map((d) => d.name),
    },
    steps: numbered,
    waiting: a.waiting,
    backOff: backOffs,
    hashNotes,
    assumptions: assumptions(input, rules, backOffs.length > 0),
    changes: numbered.length > 0,
  };
  return { ...planBody, summary: summarizePlan(planBody) };
}

function startStep(action: StepAction, target: string, d: StartDecision, backOff?: PlanBackOff): Omit<PlanStep, 'step'> {
  return { action, target, reason: d.reason.text, ...(backOff ? { backOff } : {}) };
}

function killText(why: string, hash?: HashCheck): string {
  switch (why) {
    case 'definition-changed':
      return `definition changed: ${hash ? describeHashCheck(hash) : 'hash differs'}`;
    case 'liveness-probe-failed':
      return 'liveness probe failed (given as input)';
    case 'startup-probe-failed':
      return 'startup probe failed (given as input)';
    default:
      return 'state is unknown; killed before it is started again';
  }
}

/** Back-off kubelet would apply to this start, estimated from the newest exited instance. */
function estimateBackOff(
  input: PlanInput,
  name: string,
  scheme: 'name+image' | 'whole-spec',
): PlanBackOff | undefined {
  const last = input.podStatus.containerStatuses.find((s) => s.name === name && s.state === 'exited');
  if (!last) return undefined;
  const spec = [
    ...(input.pod.spec?.containers ?? []),
    ...(input.pod.spec?.initContainers ?? []),
    ...((input.pod.spec?.ephemeralContainers ?? []) as Container[]),
  ].find((c) => c.name === name);
  const base = { container: name, estimate: true as const, restartCount: last.restartCount };
  if (spec && containerChanged(spec, last, { hashScheme: scheme }).changed) {
    return {
      ...base,
      delaySeconds: 0,
      heldBack: false,
      remainingSeconds: 0,
      note: 'the container definition (hash) changed since the last exit, so kubelet keys a fresh back-off entry',
    };
  }
  const e: BackOffEstimate = estimateCrashLoopBackOff({
    restartCount: last.restartCount,
    startedAt: last.startedAt,
    finishedAt: last.finishedAt,
    now: input.now,
  });
  const note = e.reset
    ? 'the last instance ran for more than 10 minutes, so kubelet resets its back-off'
    : e.delaySeconds === 0
      ? 'first exit: no back-off yet'
      : e.heldBack
        ? `restart ${last.restartCount + 1} waits ${e.delaySeconds}s after the last exit; ${e.remainingSeconds}s left (CrashLoopBackOff)`
        : `restart ${last.restartCount + 1} waits ${e.delaySeconds}s after the last exit, which has passed`;
  return { ...base, delaySeconds: e.delaySeconds, heldBack: e.heldBack, remainingSeconds: e.remainingSeconds, note };
}

function assumptions(input: PlanInput, rules: KubeletRules, hasBackOff: boolean): string[] {
  const out: string[] = [];
  const probes = input.options?.probeResults;
  const given = Object.keys(probes?.liveness ?? {}).length + Object.keys(probes?.startup ?? {}).length;
  out.push(
    given === 0
      ? 'Probe results are kept in kubelet memory and none were given: no liveness or startup failure is assumed (kubelet kills only on an existing Failure).'
      : `Probe results were given for ${given} container probe(s); all others are assumed to have no result.`,
  );
  if (hasBackOff) {
    out.push(
      'Crash-loop back-off lives in kubelet memory: delays are estimated from restart counts and exit times, assuming earlier restarts followed crashes within 10 minutes of their start; a restarted kubelet starts with no back-off.',
    );
  }
  if ((input.podSource ?? 'manifest') === 'manifest') {
    out.push(
      rules.hashScheme === 'whole-spec'
        ? `The pod is the manifest with API defaults, not the object stored by the API server: admission mutations (e.g. the service-account token volume mount) are missing, and kubelet ${rules.version} hashes the whole container, so such differences show as "definition changed".`
        : 'The pod is the manifest with API defaults, not the object stored by the API server: admission mutations (e.g. the service-account token volume mount) are not applied.',
    );
  }
  if (rules.gates.InPlacePodVerticalScaling) {
    out.push(
      'In-place resize (InPlacePodVerticalScaling) is not evaluated: the resources kubelet actuated are assumed to equal the spec.',
    );
  }
  out.push(
    input.matchedBy === 'namespace-name'
      ? 'CRI state was matched to the pod by namespace and name, not by the pod uid label.'
      : 'CRI state was matched to the pod by the io.kubernetes.pod.uid label.',
  );
  return out;
}
