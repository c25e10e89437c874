// The plan: what kubelet's SyncPod would do for one pod, as data (the JSON contract scripts read).
// Built from computePodActions plus the steps SyncPod takes in order. Pure: `now` is an input.
// Contract: keys are only ever added, never renamed or dropped; schemaVersion changes when meaning does.

import { howToGiveInParens } from '../errors';
import type { Container, Pod } from '../kubelet/api-types';
import { estimateCrashLoopBackOff, type BackOffEstimate } from '../kubelet/backoff';
import {
  computePodActions,
  containerChanged,
  rulesOf,
  type ComputePodActionsOptions,
  type StartDecision,
} from '../kubelet/compute-pod-actions';
import type { GateOrigin } from '../kubelet/features';
import type { KubeletRules, VersionOrigin } from '../kubelet/kubelet-version';
import {
  describeHashCheck,
  killPodText,
  killText,
  resetText,
  podResizeText,
  resizeText,
  sandboxChangeText,
  startReasonText,
  waitingText,
  type ContainerKind,
} from './reasons';
import type { PodStatus } from '../kubelet/types';
import { summarizePlan, type PlanSummary } from './summary';
import type { StaticPodUIDSource } from '../kubelet/static-pods';
import type { ControllerShape } from '../manifest/types';
import type { Orphan } from '../kubelet/orphans';
import { admitPodSysctls, type PodAdmitRejection } from '../kubelet/sysctl-allowlist';
import {
  classifyVolumes,
  NO_VOLUME_DATA,
  volumesBlocked,
  type VolumeData,
  type VolumeVerdict,
} from '../kubelet/volumes';
import { containerDifferences, type ContainerDifference } from './container-differences';
import { hostPathSteps, type PreflightFacts } from './preflight';

export const PLAN_SCHEMA_VERSION = 1;

/** The closed vocabulary of step actions, in SyncPod order. */
export const STEP_ACTIONS = [
  'kill-pod',
  'kill-container',
  'remove-init-container',
  'reset-container',
  'create-sandbox',
  'start-ephemeral-container',
  'start-init-container',
  'update-pod-sandbox-resources',
  'update-container-resources',
  'start-container',
] as const;
export type StepAction = (typeof STEP_ACTIONS)[number];

/** Steps that stop or remove something running or kept: sync asks before them. */
export function killsSomething(step: { action: StepAction; alreadyStopped?: true }): boolean {
  if (step.alreadyStopped) return false;
  return step.action === 'kill-pod' || step.action === 'kill-container' || step.action === 'reset-container';
}

/** Whether a step changes something on the node (a re-stop of stopped sandboxes does not). */
export function changesSomething(step: { alreadyStopped?: true }): boolean {
  return !step.alreadyStopped;
}

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
  /** reset-container: stop it first (it is running), without grace period or preStop. */
  kill?: boolean;
  /**
   * update-container-resources: the CRI values to write (UpdateContainerResources);
   * update-pod-sandbox-resources: the pod's resources without overhead (UpdatePodSandboxResources).
   */
  resources?: { cpuShares: number; cpuQuota: number; cpuPeriod: number; memoryLimitInBytes: number };
  /** update-pod-sandbox-resources: the pod overhead sent beside the resources. */
  overhead?: { cpuShares: number; cpuQuota: number; cpuPeriod: number; memoryLimitInBytes: number };
  /** update-container-resources / update-pod-sandbox-resources: the resource this call changes. */
  resource?: 'memory' | 'cpu';
  containerIds?: string[];
  sandboxIds?: string[];
  /**
   * kill-pod: nothing runs and every sandbox is already stopped (NOTREADY). kubelet still sends
   * StopPodSandbox for each on every sync; it changes nothing, so the step is not a change.
   */
  alreadyStopped?: true;
  attempt?: number;
  backOff?: PlanBackOff;
}

/** One feature gate as the plan used it. */
export interface PlanGate {
  enabled: boolean;
  /** flag (--feature-gates), detected (the node's kubelet configuration) or default (the version's). */
  origin: GateOrigin;
  stage: string;
  locked: boolean;
}

/** The kubelet the plan mirrors and where each fact came from. */
export interface PlanKubelet {
  version: string;
  origin: VersionOrigin;
  /** The minor whose rules were applied (the newest mirrored for a newer kubelet). */
  rulesVersion: string;
  gates: Record<string, PlanGate>;
}

/** A probe result the plan used, and where it came from. */
export interface PlanProbeInput {
  container: string;
  containerId: string;
  probe: 'liveness' | 'startup';
  result: 'Success' | 'Failure';
  /** flag (--liveness-failed, --startup-failed, --startup-succeeded) or pod-status (the dump's status). */
  from: 'flag' | 'pod-status';
}

/** How the live CRI state was found for the pod (one vocabulary for observation and plans). */
export type MatchBy = 'uid-label' | 'namespace-name' | 'controller-labels' | 'none';

/** Where the planned pod came from (one type for `plan` and `plan --node`). */
export interface PlanSource {
  kind: 'manifest' | 'static-pod' | 'pods-api';
  /** The file (manifest or static pod manifest), `<stdin>`, or the Pods API socket. */
  file: string;
  /** 1-based YAML document (given files only). */
  document?: number;
  /** What the pod was taken from (`Pod/web`, `Deployment/web: pod template`, `List item 3: Pod/web`). */
  from?: string;
  /** Facts about the selection an operator should know (manifests only). */
  notes?: string[];
  /** Static pods: where the uid came from. */
  uidSource?: StaticPodUIDSource;
  /** A workload's template: the controller shape assumed (null for a bare Pod; manifests only). */
  controller?: ControllerShape | null;
  /** `Kind/name` of the documents of other kinds in the same file, which were skipped (manifests only). */
  skipped?: string[];
}

export interface Plan {
  schemaVersion: number;
  kubeletVersion: string;
  kubelet: PlanKubelet;
  initPath: 'classic' | 'sidecar';
  featureGates: Record<string, boolean>;
  pod: { namespace: string; name: string; uid: string };
  match: { by: MatchBy; uid: string };
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
    containersToKill: Array<{
      name: string;
      containerId: string;
      reason: string;
      message: string;
      kubeletReason: string;
    }>;
    ephemeralContainersToStart: string[];
    /** RestartAllContainers (1.35+): containers removed so the pod starts again from its first init container. */
    restartAllContainers: boolean;
    containersToReset: Array<{ name: string; containerId: string; kill: boolean; reason: string }>;
    /** In-place resize (1.33+): running containers whose CPU/memory is updated without a restart. */
    containersToUpdate: Array<{ name: string; containerId: string; resources: string[]; reason: string }>;
  };
  probeInputs: PlanProbeInput[];
  steps: PlanStep[];
  waiting: string[];
  backOff: PlanBackOff[];
  hashNotes: string[];
  /** Running containers whose spec differs from what the runtime recorded and that kubelet acts on, field by field. */
  differences: ContainerDifference[];
  /** Differences kubelet does not act on (the container keeps running with its old spec); not changes. */
  ignoredDifferences: ContainerDifference[];
  /** Every assumption in full (its short sentence, then the detail), as `assumptionNotes` holds them. */
  assumptions: string[];
  /** The same assumptions, in the same order, each with an id, one short sentence and the detail. */
  assumptionNotes: PlanAssumption[];
  /** What decided which assumptions affect this plan's outcome. */
  outcome: OutcomeContext;
  changes: boolean;
  summary: PlanSummary;
  /** Where the pod came from; absent when the plan was built without a manifest. */
  source?: PlanSource;
  /** Every uid seen on the node for this namespace/name, newest first (more than one: duplicates kubelet would clean up). */
  matchCandidates: string[];
  /**
   * The other uids of this namespace/name on the node, with what kubelet does with them (kill, then
   * remove; or remove): `sync` of this pod does the same first. Single-pod plans (plan/sync FILE);
   * a node plan lists them among its orphans and leaves this empty.
   */
  duplicates: Orphan[];
  /** Every volume of the pod and how syncpod provides it (or why it cannot), in spec order. */
  volumes: VolumeVerdict[];
  /**
   * Why syncpod will not sync this pod (a volume it cannot provide), or null. A blocked pod's steps
   * are what would happen once the cause is gone; `sync` refuses it before any side effect and
   * `plan` exits 1.
   */
  blocked: string | null;
  /**
   * Kubelet's admission refuses the pod (the pod is Failed with this reason and message; nothing
   * runs): today the sysctl admit handler. Present only when the pod is rejected.
   */
  rejected?: { by: 'kubelet'; reason: string; message: string };
}

/** What kubelet's sysctl admission reads on the node (see kubelet/sysctl-allowlist.ts). */
export interface SysctlNode {
  allowedUnsafeSysctls: string[];
  /** False: no kubelet was found and none was given, so kubelet's default (none) is assumed. */
  allowedUnsafeSysctlsKnown: boolean;
  /** uname -r; null when unknown (kubelet then drops the kernel-dependent safe sysctls). */
  kernelRelease: string | null;
}

/** The sysctl admit handler's verdict for a pod on this node (no sysctl node facts: none allowed, kernel unknown). */
export function podSysctlRejection(pod: Pod, minor: number, node: SysctlNode | undefined): PodAdmitRejection | null {
  return admitPodSysctls(pod, {
    minor,
    kernelRelease: node?.kernelRelease ?? null,
    allowedUnsafeSysctls: node?.allowedUnsafeSysctls ?? [],
  });
}

/**
 * Something the plan rests on that syncpod cannot see: `short` is one sentence (the human view's
 * line), `detail` the rest (shown with -v; '' when the sentence says it all). The same `id` names
 * the same fact in every pod's plan of a run.
 */
export interface PlanAssumption {
  id: string;
  short: string;
  detail: string;
  /**
   * Whether this pod's plan could come out differently if the assumption were wrong (a probe the pod
   * has, a version rule its containers meet): the table shows these; the others only with -v.
   */
  affectsOutcome: boolean;
}

/** The facts about a pod and its plan that decide which assumptions could change its outcome. */
export interface OutcomeContext {
  /** A container or sidecar has a liveness or startup probe. */
  probes: boolean;
  initContainers: boolean;
  /** A container has a RestartAllContainers rule. */
  restartAllRules: boolean;
  /** A container runs (its hash is compared). */
  running: boolean;
  /** An in-place resize is planned. */
  resize: boolean;
  /** Something would change. */
  changes: boolean;
}

/** Whether an assumption of this id could change a plan with this context (unknown ids: yes). */
export function assumptionAffects(id: string, ctx: OutcomeContext, hashScheme?: string): boolean {
  switch (id) {
    case 'probe-results-none':
      return ctx.probes;
    case 'patch-init-fixes':
    case 'init-path-rules':
    case 'patch-startup-seed':
      return ctx.initContainers;
    case 'restart-all-containers':
      return ctx.restartAllRules;
    case 'manifest-not-api-object':
      return ctx.running && hashScheme === 'whole-spec';
    case 'in-place-resize':
      return ctx.resize;
    case 'mirror-source':
    case 'match-uid-label':
    case 'match-namespace-name':
      return false;
    case 'static-uid-computed':
      return ctx.changes;
    default:
      return !id.startsWith('mirror-');
  }
}

/** The outcome context of a pod and its plan. */
export function outcomeContext(pod: Pod, plan: Pick<Plan, 'steps' | 'changes'>, st: PodStatus): OutcomeContext {
  const all = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  return {
    probes: all.some((c) => c.livenessProbe || c.startupProbe),
    initContainers: (pod.spec?.initContainers ?? []).length > 0,
    restartAllRules: all.some((c) => (c.restartPolicyRules ?? []).some((r) => r.action === 'RestartAllContainers')),
    running: st.containerStatuses.some((c) => c.state === 'running'),
    resize: plan.steps.some((x) => x.action === 'update-container-resources'),
    changes: plan.changes,
  };
}

/** An assumption as one text: its short sentence, then its detail. */
export function assumptionText(a: Pick<PlanAssumption, 'short' | 'detail'>): string {
  return a.detail ? `${a.short} ${a.detail}` : a.short;
}

/** Adds an assumption a workflow knows of (a computed static pod uid, a workload's pod) to a built plan. */
export function addAssumption(
  plan: Pick<Plan, 'assumptions' | 'assumptionNotes' | 'outcome' | 'kubelet'>,
  a: Omit<PlanAssumption, 'affectsOutcome'>,
): void {
  const hashScheme = plan.kubelet.rulesVersion >= '1.31' ? 'name+image' : 'whole-spec';
  plan.assumptionNotes.push({ ...a, affectsOutcome: assumptionAffects(a.id, plan.outcome, hashScheme) });
  plan.assumptions.push(assumptionText(a));
}

export interface PlanInput {
  /** The pod as kubelet would hold it (API defaults applied). */
  pod: Pod;
  podStatus: PodStatus;
  /** Milliseconds since the epoch, for back-off estimates. */
  now: number;
  options?: ComputePodActionsOptions;
  /** How the CRI state was matched to the pod; default by uid label. */
  matchedBy?: MatchBy;
  /** Every uid seen for the pod's namespace/name, newest first. */
  matchCandidates?: string[];
  /** Other uids of the pod's namespace/name (findDuplicates). */
  duplicates?: Orphan[];
  source?: PlanSource;
  /** Where the pod came from; default 'manifest' (no admission mutations). */
  podSource?: 'manifest' | 'api-server';
  /** The probe results in options.probeResults, with where each came from. */
  probeInputs?: PlanProbeInput[];
  /** ConfigMap/Secret/token data and skipped volumes the operator gave (default: none). */
  volumeData?: VolumeData;
  /**
   * What is at each hostPath volume's path now; absent: not checked. A pod with nothing in the
   * runtime whose hostPath fails its type check is blocked (kubelet mounts volumes before the
   * first sandbox and never creates it).
   */
  hostPaths?: PreflightFacts['hostPaths'];
  /** The node facts kubelet's sysctl admission reads; absent: none allowed, kernel unknown. */
  sysctlNode?: SysctlNode;
}

export function buildPlan(input: PlanInput): Plan {
  const { pod, podStatus: st } = input;
  const rules = rulesOf(input.options);
  const a = computePodActions(pod, st, { ...input.options, rules });
  const ns = pod.metadata?.namespace ?? 'default';
  const name = pod.metadata?.name ?? '';
  const uid = pod.metadata?.uid || st.uid;
  const podRef = `${ns}/${name}`;
  const spec = pod.spec!;
  const inits = spec.initContainers ?? [];
  const eph = spec.ephemeralContainers ?? [];

  const backOffs: PlanBackOff[] = [];
  const backOffFor = (cname: string): PlanBackOff | undefined => {
    const b = estimateBackOff(input, cname, rules);
    if (b) backOffs.push(b);
    return b;
  };

  const diffs = containerDifferences(pod, st.containerStatuses, a, rules);
  /** "definition changed: image busybox:1.36 → 1.37 (name+image hash)" when the runtime recorded the old spec. */
  const changedText = (cname: string, fallback: string): string => {
    const d = diffs.find((x) => x.container === cname && x.applied);
    if (!d) return fallback;
    const scheme = rules.hashScheme === 'name+image' ? 'name+image hash' : 'whole-container hash';
    return `definition changed: ${d.differences.map((x) => x.text).join('; ')} (${scheme})`;
  };

  const steps: Omit<PlanStep, 'step'>[] = [];
  const killPodReason = a.killPod ? killPodText(a.killPodCause) : null;
  let purged = false;
  if (a.killPod) {
    const running = st.containerStatuses.filter((s) => s.state === 'running');
    // kubelet's KillPod stops every running container and then every sandbox of the pod, in any
    // state (killPodWithSyncResult over ConvertPodStatusToRunningPod, k8s.io/kubernetes v1.37.2).
    // A pod with neither (a new pod) gets no call. A pod whose sandboxes are all stopped already
    // (NOTREADY) and with nothing running gets StopPodSandbox again on every sync (e.g. a finished
    // Never/OnFailure pod): the step is listed, marked alreadyStopped, and is not a change.
    if (running.length > 0 || st.sandboxStatuses.length > 0) {
      const alreadyStopped = running.length === 0 && st.sandboxStatuses.every((s) => s.state !== 'ready');
      const why = a.sandboxChange ? `${killPodReason}: ${sandboxChangeText(a.sandboxChange)}` : killPodReason!;
      steps.push({
        action: 'kill-pod',
        target: podRef,
        reason: alreadyStopped
          ? `${why} (nothing runs and every sandbox is already stopped: kubelet sends StopPodSandbox again, which changes nothing)`
          : why,
        containerIds: running.map((s) => s.id),
        sandboxIds: st.sandboxStatuses.map((s) => s.id),
        ...(alreadyStopped ? { alreadyStopped: true as const } : {}),
      });
    }
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
      steps.push({
        action: 'kill-container',
        target: k.name,
        reason: k.why === 'definition-changed' ? changedText(k.name, killText(k.why, k.hash)) : killText(k.why, k.hash),
        containerId: k.containerId,
      });
    }
    for (const r of a.containersToReset) {
      steps.push({
        action: 'reset-container',
        target: r.name,
        reason: resetText(r),
        containerId: r.containerId,
        kill: r.kill,
      });
    }
    if (a.containersToReset.length > 0) purged = true;
  }
  if (!purged) {
    for (const ic of inits) {
      const done = st.containerStatuses.filter(
        (s) => s.name === ic.name && (s.state === 'exited' || s.state === 'unknown'),
      );
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
      reason: a.sandboxChange ? sandboxChangeText(a.sandboxChange) : 'the sandbox must be recreated',
      attempt: a.attempt,
    });
  }
  // SyncPod's resize (doPodResizeAction): 1.37 before the ephemeral and init containers start,
  // earlier releases after the init containers.
  const resizeSteps: Omit<PlanStep, 'step'>[] = a.resizeCalls.map((c) =>
    c.call === 'UpdatePodSandboxResources'
      ? {
          action: 'update-pod-sandbox-resources' as const,
          target: podRef,
          reason: podResizeText(c.resource, c.value, c.raise),
          resource: c.resource,
          containerId: a.sandboxId,
          resources: c.resources,
          overhead: c.overhead,
        }
      : {
          action: 'update-container-resources' as const,
          target: c.name,
          reason: resizeText(a.containersToUpdate.find((u) => u.containerId === c.containerId)!, c.resource),
          resource: c.resource,
          containerId: c.containerId,
          resources: c.resources,
        },
  );
  if (rules.resizeBeforeStarts) steps.push(...resizeSteps);
  for (const d of a.ephemeralContainerStarts) {
    steps.push(
      startStep('start-ephemeral-container', eph[d.index].name, d, 'ephemeral', backOffFor(eph[d.index].name)),
    );
  }
  if (a.nextInitContainerToStart !== null && a.nextInitContainerReason) {
    const d: StartDecision = {
      index: inits.findIndex((c) => c.name === a.nextInitContainerToStart),
      name: a.nextInitContainerToStart,
      reason: a.nextInitContainerReason,
    };
    steps.push(startStep('start-init-container', d.name, d, 'init', backOffFor(d.name)));
  }
  for (const d of a.initContainerStarts) {
    steps.push(startStep('start-init-container', d.name, d, 'init', backOffFor(d.name)));
  }
  if (!rules.resizeBeforeStarts) steps.push(...resizeSteps);
  for (const d of a.containerStarts) {
    const step = startStep('start-container', d.name, d, 'regular', backOffFor(d.name));
    if (d.reason.code === 'definition-changed' && diffs.some((x) => x.container === d.name && x.applied))
      step.reason = `started again with the new spec (${rules.hashScheme === 'name+image' ? 'name+image hash' : 'whole-container hash'} changed)`;
    steps.push(step);
  }
  const numbered: PlanStep[] = steps.map((s, i) => ({ step: i + 1, ...s }));

  const volumes = classifyVolumes(pod, input.volumeData ?? NO_VOLUME_DATA, { imageVolume: rules.gates.ImageVolume });
  const newPod = st.sandboxStatuses.length === 0 && st.containerStatuses.length === 0;
  const hostPathRefusals =
    newPod && input.hostPaths
      ? hostPathSteps(pod, { network: null, podDirs: [], hostPaths: input.hostPaths, images: [] }).filter(
          (s) => s.blocking === 'pod',
        )
      : [];
  const rejection = podSysctlRejection(pod, rules.minor, input.sysctlNode);
  const blocked =
    (rejection ? `rejected by kubelet: ${rejection.reason}: ${rejection.message}` : null) ??
    volumesBlocked(volumes) ??
    (hostPathRefusals.length > 0 ? hostPathRefusals.map((s) => `${s.target}: ${s.reason}`).join('; ') : null);
  const changes = numbered.some(changesSomething) || (input.duplicates ?? []).length > 0;
  const outcome = outcomeContext(pod, { steps: numbered, changes }, st);
  const skipped = volumes.filter((v) => v.provision === 'skipped').map((v) => `${v.name} (${v.type})`);
  const volumeNotes: Omit<PlanAssumption, 'affectsOutcome'>[] =
    skipped.length > 0
      ? [
          {
            id: 'volumes-skipped',
            short: `Skipped volumes${howToGiveInParens('skip-volume')}: ${skipped.join(', ')}.`,
            detail:
              'They are not set up and no container mounts them; a container that reads them finds nothing there.',
          },
        ]
      : [];
  const notes = [...assumptions(input, rules, backOffs.length > 0), ...volumeNotes].map((n) => ({
    ...n,
    affectsOutcome: assumptionAffects(n.id, outcome, rules.hashScheme),
  }));
  const hashNotes = a.hashChecks.filter((h) => h.verdict !== 'match').map((h) => `${h.name}: ${describeHashCheck(h)}`);

  const planBody = {
    schemaVersion: PLAN_SCHEMA_VERSION,
    kubeletVersion: a.kubeletVersion,
    kubelet: planKubelet(rules),
    initPath: a.initPath,
    featureGates: { ...a.featureGates },
    pod: { namespace: ns, name, uid },
    match: { by: input.matchedBy ?? 'uid-label', uid: st.uid || uid },
    actions: {
      killPod: a.killPod,
      killPodReason,
      createSandbox: a.createSandbox,
      sandboxChange: a.sandboxChange
        ? { code: a.sandboxChange.code, reason: sandboxChangeText(a.sandboxChange) }
        : null,
      sandboxId: a.sandboxId,
      attempt: a.attempt,
      nextInitContainerToStart: a.nextInitContainerToStart,
      initContainersToStart: a.initContainerStarts.map((d) => d.name),
      containersToStart: a.containerStarts.map((d) => ({
        name: d.name,
        reason: startReasonText(d.reason),
        code: d.reason.code,
      })),
      containersToKill: a.containersToKill.map((k) => ({
        name: k.name,
        containerId: k.containerId,
        reason: killText(k.why, k.hash),
        message: k.message,
        kubeletReason: k.reason,
      })),
      ephemeralContainersToStart: a.ephemeralContainerStarts.map((d) => d.name),
      restartAllContainers: a.restartAllContainers,
      containersToReset: a.containersToReset.map((r) => ({
        name: r.name,
        containerId: r.containerId,
        kill: r.kill,
        reason: resetText(r),
      })),
      containersToUpdate: a.containersToUpdate.map((u) => ({
        name: u.name,
        containerId: u.containerId,
        resources: u.resources,
        reason: resizeText(u),
      })),
    },
    probeInputs: input.probeInputs ?? [],
    steps: numbered,
    waiting: a.waiting.map((w) => waitingText(w, a.kubeletVersion)),
    backOff: backOffs,
    hashNotes,
    differences: diffs.filter((d) => d.applied),
    ignoredDifferences: diffs.filter((d) => !d.applied),
    assumptions: notes.map(assumptionText),
    assumptionNotes: notes,
    outcome,
    duplicates: [...(input.duplicates ?? [])],
    changes,
  };
  const { duplicates, ...body } = planBody;
  const summary = summarizePlan(planBody);
  return {
    ...body,
    summary: blocked ? { ...summary, text: `Blocked: ${blocked}. Nothing will be done for this pod.` } : summary,
    ...(input.source ? { source: { ...input.source } } : {}),
    matchCandidates: [...(input.matchCandidates ?? [])],
    duplicates,
    volumes,
    blocked,
    ...(rejection
      ? { rejected: { by: 'kubelet' as const, reason: rejection.reason, message: rejection.message } }
      : {}),
  };
}

function startStep(
  action: StepAction,
  target: string,
  d: StartDecision,
  kind: ContainerKind,
  backOff?: PlanBackOff,
): Omit<PlanStep, 'step'> {
  return { action, target, reason: startReasonText(d.reason, kind), ...(backOff ? { backOff } : {}) };
}

/** The kubelet version and every gate it has, with where each came from. */
function planKubelet(rules: KubeletRules): PlanKubelet {
  const gates: Record<string, PlanGate> = {};
  for (const [name, g] of Object.entries(rules.gateOrigins)) {
    if (g) gates[name] = { enabled: g.enabled, origin: g.origin, stage: g.stage, locked: g.locked };
  }
  return { version: rules.version, origin: rules.versionOrigin, rulesVersion: `1.${rules.rulesMinor}`, gates };
}

/** Back-off kubelet would apply to this start, estimated from the newest exited instance. */
function estimateBackOff(input: PlanInput, name: string, rules: KubeletRules): PlanBackOff | undefined {
  const last = input.podStatus.containerStatuses.find((s) => s.name === name && s.state === 'exited');
  if (!last) return undefined;
  const spec = [
    ...(input.pod.spec?.containers ?? []),
    ...(input.pod.spec?.initContainers ?? []),
    ...((input.pod.spec?.ephemeralContainers ?? []) as Container[]),
  ].find((c) => c.name === name);
  const base = { container: name, estimate: true as const, restartCount: last.restartCount };
  if (spec && containerChanged(spec, last, rules).changed) {
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

/** Splits "what: the rest" into its first part as the short sentence and the rest as the detail. */
export function splitNote(id: string, text: string): Omit<PlanAssumption, 'affectsOutcome'> {
  const at = text.indexOf(': ');
  if (at < 0) return { id, short: text, detail: '' };
  const rest = text.slice(at + 2).replace(/\.?$/, '.');
  return { id, short: `${text.slice(0, at)}.`, detail: rest.charAt(0).toUpperCase() + rest.slice(1) };
}

function assumptions(
  input: PlanInput,
  rules: KubeletRules,
  hasBackOff: boolean,
): Omit<PlanAssumption, 'affectsOutcome'>[] {
  const out: Omit<PlanAssumption, 'affectsOutcome'>[] = rules.warnings.map((w) => {
    const n = splitNote('kubelet-warning', w);
    return { ...n, short: `WARNING: ${n.short}` };
  });
  const sysctls = input.pod.spec?.securityContext?.sysctls ?? [];
  if (sysctls.length > 0 && input.sysctlNode?.allowedUnsafeSysctlsKnown !== true) {
    out.push({
      id: 'allowed-unsafe-sysctls',
      short: `The kubelet's allowedUnsafeSysctls is not known: none is assumed (kubelet's default)${howToGiveInParens('allowed-unsafe-sysctls')}.`,
      detail: `kubelet admits only its safe sysctls and those patterns; the pod sets ${sysctls.map((s) => s.name).join(', ')}.`,
    });
  }
  const inputs = input.probeInputs ?? [];
  const probes = input.options?.probeResults;
  const given = Object.keys(probes?.liveness ?? {}).length + Object.keys(probes?.startup ?? {}).length;
  if (given === 0) {
    out.push({
      id: 'probe-results-none',
      short: 'No probe results were given: no liveness or startup failure is assumed.',
      detail: 'Probe results are kept in kubelet memory, and kubelet kills only on an existing Failure.',
    });
  } else {
    const from = (f: PlanProbeInput['from']) =>
      inputs.filter((p) => p.from === f).map((p) => `${p.probe} ${p.result} for ${p.container}`);
    const flags = from('flag');
    const status = from('pod-status');
    const parts = [
      ...(flags.length ? [`from flags: ${flags.join(', ')}`] : []),
      ...(status.length ? [`from the pod's status (containerStatuses[].started): ${status.join(', ')}`] : []),
    ];
    out.push({
      id: 'probe-results-given',
      short: `Probe results were given for ${given} container probe(s); all others are assumed to have no result.`,
      detail: parts.length ? `Given ${parts.join('; ')}.` : '',
    });
    if (rules.startupResultLostOnKubeletRestart && status.some((p) => p.startsWith('startup'))) {
      out.push({
        id: 'startup-result-lost',
        short: `Kubelet ${rules.version} does not carry a startup result over its own restart.`,
        detail:
          "With ChangeContainerStatusOnKubeletRestart off, if kubelet restarted since a sidecar started, it waits for that sidecar's startup probe to succeed again.",
      });
    }
  }
  if (rules.versionOrigin === 'default') {
    out.push({
      id: 'kubelet-version-default',
      short: `No kubelet version was given or detected: planned as kubelet ${rules.version}, the newest mirrored.`,
      detail: '',
    });
  }
  out.push(...rules.unpinned.map((u) => ({ ...u })));
  if (rules.gates.RestartAllContainersOnContainerExits && rules.gates.ContainerRestartRules) {
    out.push({
      id: 'restart-all-containers',
      short: "RestartAllContainers is decided from the runtime state; kubelet's memory of it is not seen.",
      detail:
        'It is read from an exited container whose rule has that action and, for a pod status dump, its AllContainersRestarting condition; kubelet also remembers the condition across syncs, which syncpod cannot see.',
    });
  }
  if (hasBackOff) {
    out.push({
      id: 'back-off-estimate',
      short: 'Crash-loop back-off lives in kubelet memory: delays are estimated.',
      detail:
        'They are estimated from restart counts and exit times, assuming earlier restarts followed crashes within 10 minutes of their start; a restarted kubelet starts with no back-off.',
    });
  }
  if ((input.podSource ?? 'manifest') === 'manifest') {
    out.push({
      id: 'manifest-not-api-object',
      short:
        'The pod is the manifest with API defaults, not the object stored by the API server: admission mutations are missing.',
      detail:
        rules.hashScheme === 'whole-spec'
          ? `For example the service-account token volume mount; kubelet ${rules.version} hashes the whole container, so such differences show as "definition changed".`
          : 'For example the service-account token volume mount is not applied.',
    });
  }
  if (rules.gates.InPlacePodVerticalScaling) {
    out.push(
      rules.rulesMinor >= 33
        ? {
            id: 'in-place-resize',
            short:
              "In-place resize (InPlacePodVerticalScaling): kubelet's actuated resources are taken from what the runtime reports for each container, and the pod cgroup from those.",
            detail:
              "The spec is assumed to be what kubelet allocated (admitted: a resize kubelet finds infeasible, such as a Guaranteed pod's CPU under the static CPU manager policy or a swap-enabled container's memory, is not detected); memory requests and pod-level resources (which the runtime does not report) are assumed unchanged; the pod cgroup is assumed to hold what kubelet set for the reported resources (it is not read); a memory limit is assumed to be lowered only above the current usage, which kubelet checks and syncpod does not read; CPU CFS quota is assumed on, at kubelet's 100 ms period, and MemoryQoS off.",
          }
        : {
            id: 'in-place-resize',
            short: `In-place resize (InPlacePodVerticalScaling) on kubelet ${rules.version} is not evaluated.`,
            detail: 'The resources kubelet actuated are assumed to equal the spec.',
          },
    );
  }
  const by = input.matchedBy ?? 'uid-label';
  out.push(
    by === 'uid-label'
      ? {
          id: 'match-uid-label',
          short: 'CRI state was matched to the pod by the io.kubernetes.pod.uid label.',
          detail: '',
        }
      : by === 'controller-labels'
        ? {
            id: 'match-controller-labels',
            short:
              "CRI state was matched to the pod by its controller's pod labels and name pattern, then by that pod's uid.",
            detail: 'The source notes say which pod was taken.',
          }
        : {
            id: 'match-namespace-name',
            short: 'CRI state was matched to the pod by namespace and name, not by the pod uid label.',
            detail: '',
          },
  );
  const candidates = input.matchCandidates ?? [];
  const podRef = `${input.pod.metadata?.namespace}/${input.pod.metadata?.name}`;
  if (by === 'namespace-name' && candidates.length > 1) {
    out.push({
      id: 'match-newest-uid',
      short: `The manifest has no uid and ${candidates.length} uids were found for ${podRef}: the newest was taken.`,
      detail: `It is ${candidates[0]}; the others are duplicates kubelet would clean up.`,
    });
  }
  if (by === 'none') {
    out.push({
      id: 'match-none',
      short:
        'The manifest has no uid and no pod of that namespace/name exists: sync would give the new pod a fresh uid.',
      detail: '',
    });
  }
  return out;
}
