// Kubelet's computePodActions as a pure function: desired pod + observed PodStatus + explicit
// kubelet-memory inputs (probe results, gates, mirrored version) in, the actions SyncPod would take out,
// with the reason for every decision so a plan can explain itself.
// Mirrors kubelet 1.28 and 1.33 (pkg/kubelet/kuberuntime); the differences live in kubelet-version.ts.

import type { Container, Pod } from './api-types';
import { SyncpodError } from '../errors';
import { formatHash, hashContainer, hashContainerLegacy } from './hash';
import {
  HASH_SCHEME_LABEL,
  effectiveGates,
  resolveKubeletRules,
  type FeatureGates,
  type HashScheme,
  type KubeletRules,
} from './kubelet-version';
import type { ContainerStatus, PodStatus } from './types';

export type ProbeResult = 'Success' | 'Failure' | 'Unknown';

/** Probe results as kubelet's prober managers hold them, keyed by CRI container id. */
export interface ProbeResults {
  liveness?: Record<string, ProbeResult>;
  startup?: Record<string, ProbeResult>;
}

export interface ComputePodActionsOptions {
  /** Kubelet minor version to mirror, e.g. '1.33'; default DEFAULT_KUBELET_VERSION. */
  kubeletVersion?: string;
  featureGates?: FeatureGates;
  /** Default: no result for any container (kubelet kills only on an existing Failure). */
  probeResults?: ProbeResults;
}

/** Kubelet's containerKillReason values ('' when kubelet sets none). */
export type KillReason = 'StartupProbe' | 'LivenessProbe' | 'FailedPostStartHook' | 'Unknown' | '';

export type SandboxChangeCode =
  | 'no-sandbox'
  | 'multiple-ready'
  | 'not-ready'
  | 'network-namespace-changed'
  | 'no-ip';

export interface SandboxChange {
  code: SandboxChangeCode;
  /** Kubelet's log message for this case. */
  message: string;
  /** Plain explanation for operators. */
  detail: string;
}

export type HashVerdict = 'match' | 'changed' | 'other-scheme' | 'missing' | 'unparsable';

/** The comparison of a running container's hash annotation with the spec. */
export interface HashCheck {
  name: string;
  containerId: string;
  scheme: HashScheme;
  expected: string;
  observed: string;
  verdict: HashVerdict;
  /** Set when verdict is other-scheme: the scheme the observed hash matches. */
  matchedScheme?: HashScheme;
}

export type StartReasonCode =
  | 'never-started'
  | 'exited'
  | 'created-not-started'
  | 'unknown-state'
  | 'definition-changed'
  | 'liveness-probe-failed'
  | 'startup-probe-failed'
  | 'sandbox-recreated'
  | 'first-init-container'
  | 'previous-init-completed'
  | 'sidecar-started';

export interface StartReason {
  code: StartReasonCode;
  /** One sentence for operators. */
  text: string;
  exitCode?: number;
  restartPolicy?: string;
  hash?: HashCheck;
}

export type KillWhy = 'definition-changed' | 'liveness-probe-failed' | 'startup-probe-failed' | 'unknown-state';

export interface ContainerToKill {
  containerId: string;
  name: string;
  kind: 'init' | 'regular';
  /** Kubelet's message (the Killing event text). */
  message: string;
  reason: KillReason;
  why: KillWhy;
  hash?: HashCheck;
}

export type KillPodCause =
  | 'sandbox-changed'
  | 'init-container-failed'
  | 'no-running-containers'
  | null;

export interface StartDecision {
  index: number;
  name: string;
  reason: StartReason;
}

export interface PodActions {
  kubeletVersion: string;
  initPath: 'classic' | 'sidecar';
  killPod: boolean;
  /** Why killPod is true (null when false). */
  killPodCause: KillPodCause;
  createSandbox: boolean;
  sandboxId: string;
  attempt: number;
  sandboxChange: SandboxChange | null;
  /** Classic path only; null whenever the sidecar path (initContainersToStart) is used. */
  nextInitContainerToStart: string | null;
  nextInitContainerReason: StartReason | null;
  initContainersToStart: number[];
  containersToStart: number[];
  ephemeralContainersToStart: number[];
  /** Sorted by kind (init first), then name, then container id. */
  containersToKill: ContainerToKill[];
  /** Start reasons aligned with the index lists above. */
  initContainerStarts: StartDecision[];
  containerStarts: StartDecision[];
  ephemeralContainerStarts: StartDecision[];
  /** Things kubelet waits for in this sync (not actions): running init containers, missing probe results. */
  waiting: string[];
  /** Every hash comparison kubelet made for a running container. */
  hashChecks: HashCheck[];
  /** Effective feature gates. */
  featureGates: Record<string, boolean>;
}

interface Ctx {
  pod: Pod;
  status: PodStatus;
  rules: KubeletRules;
  probes: ProbeResults;
  restartPolicy: string;
}

interface Work {
  killPod: boolean;
  killPodCause: KillPodCause;
  createSandbox: boolean;
  nextInit: StartDecision | null;
  init: StartDecision[];
  regular: StartDecision[];
  ephemeral: StartDecision[];
  kill: Map<string, ContainerToKill>;
  waiting: string[];
  hashChecks: HashCheck[];
}

/** Mirrors kubelet 1.33 computePodActions (and 1.28 where KubeletRules say so). */
export function computePodActions(pod: Pod, podStatus: PodStatus, options: ComputePodActionsOptions = {}): PodActions {
  const rules = resolveKubeletRules(options.kubeletVersion, options.featureGates);
  const spec = pod.spec;
  if (!spec || !Array.isArray(spec.containers) || spec.containers.length === 0) {
    throw new SyncpodError(`pod ${podName(pod)} has no spec.containers`);
  }
  const ctx: Ctx = {
    pod,
    status: podStatus,
    rules,
    probes: options.probeResults ?? {},
    restartPolicy: spec.restartPolicy ?? 'Always',
  };
  const sidecarPath = usesSidecarPath(pod, rules);
  const sandbox = podSandboxChanged(pod, podStatus);
  const w: Work = {
    killPod: sandbox.createSandbox,
    killPodCause: sandbox.createSandbox ? 'sandbox-changed' : null,
    createSandbox: sandbox.createSandbox,
    nextInit: null,
    init: [],
    regular: [],
    ephemeral: [],
    kill: new Map(),
    waiting: [],
    hashChecks: [],
  };
  const finish = (): PodActions => ({
    kubeletVersion: rules.version,
    initPath: sidecarPath ? 'sidecar' : 'classic',
    killPod: w.killPod,
    killPodCause: w.killPod ? w.killPodCause : null,
    createSandbox: w.createSandbox,
    sandboxId: sandbox.sandboxId,
    attempt: sandbox.attempt,
    sandboxChange: sandbox.change,
    nextInitContainerToStart: w.nextInit ? w.nextInit.name : null,
    nextInitContainerReason: w.nextInit ? w.nextInit.reason : null,
    initContainersToStart: w.init.map((d) => d.index),
    containersToStart: w.regular.map((d) => d.index),
    ephemeralContainersToStart: w.ephemeral.map((d) => d.index),
    containersToKill: [...w.kill.values()].sort(compareKills),
    initContainerStarts: w.init,
    containerStarts: w.regular,
    ephemeralContainerStarts: w.ephemeral,
    waiting: w.waiting,
    hashChecks: w.hashChecks,
    featureGates: effectiveGates(rules),
  });

  const containers = spec.containers;
  const initContainers = spec.initContainers ?? [];

  if (sandbox.createSandbox) {
    if (ctx.restartPolicy === 'Never' && sandbox.attempt !== 0 && podStatus.containerStatuses.length !== 0) {
      // The pod ran once and must not restart: only clean it up.
      w.createSandbox = false;
      return finish();
    }
    const toStart: StartDecision[] = [];
    containers.forEach((c, idx) => {
      if (ctx.restartPolicy === 'OnFailure' && containerSucceeded(c, ctx)) return;
      toStart.push({ index: idx, name: c.name, reason: sandboxRecreatedReason(sandbox.change) });
    });
    if (toStart.length === 0) {
      const initialized = sidecarPath
        ? hasAnyRegularContainerCreated(pod, podStatus)
        : findNextInitContainerToRun(pod, podStatus).done;
      if (initialized) {
        w.createSandbox = false;
        return finish();
      }
    }
    if (initContainers.length > 0) {
      const first: StartDecision = {
        index: 0,
        name: initContainers[0].name,
        reason: {
          code: 'sandbox-recreated',
          text: `${sandboxRecreatedReason(sandbox.change).text}; initialization starts again with the first init container`,
        },
      };
      if (sidecarPath) w.init = [first];
      else w.nextInit = first;
      return finish();
    }
    w.regular = toStart;
    return finish();
  }

  (spec.ephemeralContainers ?? []).forEach((c, i) => {
    if (!findContainerStatusByName(podStatus, c.name)) {
      w.ephemeral.push({ index: i, name: c.name, reason: { code: 'never-started', text: 'ephemeral container never started' } });
    }
  });

  if (!sidecarPath) {
    const { lastStatus, next, done } = findNextInitContainerToRun(pod, podStatus);
    if (!done) {
      if (next) {
        const failed = lastStatus !== null && isInitContainerFailed(lastStatus);
        if (failed && ctx.restartPolicy === 'Never') {
          w.killPod = true;
          w.killPodCause = 'init-container-failed';
        } else {
          if (lastStatus && lastStatus.state === 'unknown') {
            addKill(w, {
              containerId: lastStatus.id,
              name: next.container.name,
              kind: 'init',
              message: 'Init container is in "unknown" state, try killing it before restart',
              reason: 'Unknown',
              why: 'unknown-state',
            });
          }
          w.nextInit = { index: next.index, name: next.container.name, reason: next.reason };
        }
      } else {
        for (const ic of initContainers) {
          const s = findContainerStatusByName(podStatus, ic.name);
          if (s && s.state === 'running') w.waiting.push(`init container ${ic.name} is running; waiting for it to finish`);
        }
      }
      return finish();
    }
  } else {
    const initialized = computeInitContainerActions(ctx, w);
    if (w.killPod || !initialized) return finish();
  }

  let keepCount = 0;
  containers.forEach((c, idx) => {
    const s = findContainerStatusByName(podStatus, c.name);
    if (!s || s.state !== 'running') {
      if (shouldContainerBeRestarted(c, pod, podStatus)) {
        w.regular.push({ index: idx, name: c.name, reason: notRunningReason(s, ctx.restartPolicy) });
        if (s && s.state === 'unknown') {
          addKill(w, {
            containerId: s.id,
            name: s.name,
            kind: 'regular',
            message: 'Container is in "unknown" state, try killing it before restart',
            reason: 'Unknown',
            why: 'unknown-state',
          });
        }
      }
      return;
    }
    let restart = ctx.restartPolicy !== 'Never';
    let message: string;
    let reason: KillReason = '';
    let why: KillWhy;
    let hash: HashCheck | undefined;
    const changed = containerChanged(c, s, rules);
    w.hashChecks.push(changed.check);
    if (changed.changed) {
      message = `Container ${c.name} definition changed`;
      why = 'definition-changed';
      hash = changed.check;
      restart = true;
    } else if (ctx.probes.liveness?.[s.id] === 'Failure') {
      message = `Container ${c.name} failed liveness probe`;
      reason = 'LivenessProbe';
      why = 'liveness-probe-failed';
    } else if (ctx.probes.startup?.[s.id] === 'Failure') {
      message = `Container ${c.name} failed startup probe`;
      reason = 'StartupProbe';
      why = 'startup-probe-failed';
    } else {
      keepCount++;
      return;
    }
    if (restart) {
      message = `${message}, will be restarted`;
      w.regular.push({ index: idx, name: c.name, reason: killedReason(why, hash) });
    }
    addKill(w, { containerId: s.id, name: s.name, kind: 'regular', message, reason, why, ...(hash ? { hash } : {}) });
  });

  if (keepCount === 0 && w.regular.length === 0) {
    w.killPod = true;
    w.killPodCause = 'no-running-containers';
    if (sidecarPath) w.init = [];
  }
  return finish();
}

/** Which init-container algorithm the mirrored kubelet runs for this pod. */
function usesSidecarPath(pod: Pod, rules: KubeletRules): boolean {
  if (rules.minor === 28) return rules.gates.SidecarContainers;
  return hasRestartableInitContainer(pod) || !rules.gates.LegacySidecarContainers;
}

interface SandboxDecision {
  createSandbox: boolean;
  attempt: number;
  sandboxId: string;
  change: SandboxChange | null;
}

/** Mirrors kubelet 1.28/1.33 PodSandboxChanged (kuberuntime/util): whether to (re)create the sandbox. */
export function podSandboxChanged(pod: Pod, podStatus: PodStatus): SandboxDecision {
  const sandboxes = podStatus.sandboxStatuses;
  if (sandboxes.length === 0) {
    return {
      createSandbox: true,
      attempt: 0,
      sandboxId: '',
      change: {
        code: 'no-sandbox',
        message: 'No sandbox for pod can be found. Need to start a new one',
        detail: 'the pod has no sandbox',
      },
    };
  }
  const newest = sandboxes[0];
  const next = newest.attempt + 1;
  const ready = sandboxes.filter((s) => s.state === 'ready').length;
  if (ready > 1) {
    return {
      createSandbox: true,
      attempt: next,
      sandboxId: newest.id,
      change: {
        code: 'multiple-ready',
        message: 'Multiple sandboxes are ready for Pod. Need to reconcile them',
        detail: `${ready} sandboxes of the pod are ready; kubelet keeps exactly one`,
      },
    };
  }
  if (newest.state !== 'ready') {
    return {
      createSandbox: true,
      attempt: next,
      sandboxId: newest.id,
      change: {
        code: 'not-ready',
        message: 'No ready sandbox for pod can be found. Need to start a new one',
        detail: `the newest sandbox ${short(newest.id)} is not ready`,
      },
    };
  }
  const hostNetwork = pod.spec?.hostNetwork === true;
  const mode = newest.networkNamespaceMode ?? 'POD';
  const wanted = hostNetwork ? 'NODE' : 'POD';
  if (mode !== wanted) {
    return {
      createSandbox: true,
      attempt: next,
      sandboxId: '',
      change: {
        code: 'network-namespace-changed',
        message: 'Sandbox for pod has changed. Need to start a new one',
        detail: `the sandbox network namespace is ${mode} but the pod wants ${wanted} (hostNetwork: ${hostNetwork})`,
      },
    };
  }
  if (!hostNetwork && newest.hasNetwork && newest.ip === '') {
    return {
      createSandbox: true,
      attempt: next,
      sandboxId: newest.id,
      change: {
        code: 'no-ip',
        message: 'Sandbox for pod has no IP address. Need to start a new one',
        detail: `the sandbox ${short(newest.id)} has no IP address`,
      },
    };
  }
  return { createSandbox: false, attempt: newest.attempt, sandboxId: newest.id, change: null };
}

interface NextInit {
  lastStatus: ContainerStatus | null;
  next: { index: number; container: Container; reason: StartReason } | null;
  done: boolean;
}

/** Mirrors kubelet 1.33 findNextInitContainerToRun (classic init path, same rules in 1.28). */
export function findNextInitContainerToRun(pod: Pod, podStatus: PodStatus): NextInit {
  const inits = pod.spec?.initContainers ?? [];
  if (inits.length === 0) return { lastStatus: null, next: null, done: true };
  for (const c of pod.spec?.containers ?? []) {
    const s = findContainerStatusByName(podStatus, c.name);
    if (s && s.state === 'running') return { lastStatus: null, next: null, done: true };
  }
  for (let i = inits.length - 1; i >= 0; i--) {
    const s = findContainerStatusByName(podStatus, inits[i].name);
    if (s && isInitContainerFailed(s)) {
      return {
        lastStatus: s,
        next: { index: i, container: inits[i], reason: failedInitReason(s, pod.spec?.restartPolicy ?? 'Always') },
        done: false,
      };
    }
  }
  for (let i = inits.length - 1; i >= 0; i--) {
    const s = findContainerStatusByName(podStatus, inits[i].name);
    if (!s) continue;
    if (s.state === 'running') return { lastStatus: null, next: null, done: false };
    if (s.state === 'exited') {
      if (i === inits.length - 1) return { lastStatus: null, next: null, done: true };
      return {
        lastStatus: null,
        next: {
          index: i + 1,
          container: inits[i + 1],
          reason: { code: 'previous-init-completed', text: `init container ${inits[i].name} completed` },
        },
        done: false,
      };
    }
  }
  return {
    lastStatus: null,
    next: { index: 0, container: inits[0], reason: { code: 'first-init-container', text: 'no init container has run yet' } },
    done: false,
  };
}

/** Mirrors kubelet 1.33 computeInitContainerActions (sidecar-aware path; 1.28 differences via KubeletRules). */
function computeInitContainerActions(ctx: Ctx, w: Work): boolean {
  const { pod, status, rules } = ctx;
  const inits = pod.spec?.initContainers ?? [];
  if (inits.length === 0) return true;

  let podHasInitialized = false;
  for (const c of pod.spec?.containers ?? []) {
    const s = findContainerStatusByName(status, c.name);
    if (!s) continue;
    if (s.state === 'created' || s.state === 'running' || (rules.exitedCountsAsInitialized && s.state === 'exited')) {
      podHasInitialized = true;
      break;
    }
  }
  let previouslyInitialized = podHasInitialized;
  const restartOnFailure = ctx.restartPolicy !== 'Never';
  // Built from the back, reversed at the end (kubelet appends while walking n-1 .. 0).
  const starts: StartDecision[] = [];
  const start = (i: number, reason: StartReason): void => {
    starts.push({ index: i, name: inits[i].name, reason });
  };

  for (let i = inits.length - 1; i >= 0; i--) {
    const c = inits[i];
    const restartable = isRestartableInitContainer(c);
    const s = findContainerStatusByName(status, c.name);
    if (!s) {
      if (previouslyInitialized && restartable) {
        start(i, { code: 'never-started', text: 'sidecar has no container (never started, or removed); restartable init containers are kept running' });
      }
      continue;
    }
    if (previouslyInitialized && !restartable) continue;

    switch (s.state) {
      case 'created':
        if (rules.restartCreatedInitContainers) {
          start(i, { code: 'created-not-started', text: 'container was created but never started (the start failed); kubelet starts it again' });
        } else {
          w.waiting.push(`init container ${c.name} is CREATED; kubelet ${rules.version} waits (it does not start it again)`);
        }
        break;
      case 'running': {
        if (!restartable) {
          w.waiting.push(`init container ${c.name} is running; waiting for it to finish`);
          break;
        }
        if (c.startupProbe) {
          const startup = ctx.probes.startup?.[s.id];
          if (startup === undefined) {
            w.waiting.push(`sidecar ${c.name} has a startupProbe with no result given; kubelet waits for it before starting the next init container`);
            break;
          }
          if (startup !== 'Success') {
            if (startup === 'Failure') {
              addKill(w, {
                containerId: s.id,
                name: c.name,
                kind: 'init',
                message: `Init container ${c.name} failed startup probe`,
                reason: 'StartupProbe',
                why: 'startup-probe-failed',
              });
              start(i, killedReason('startup-probe-failed'));
            } else {
              w.waiting.push(`sidecar ${c.name} startup probe result is Unknown; kubelet waits`);
            }
            break;
          }
        }
        if (i === inits.length - 1) {
          podHasInitialized = true;
        } else if (!previouslyInitialized) {
          start(i + 1, { code: 'sidecar-started', text: `sidecar ${c.name} has started` });
        }
        if (rules.restartChangedSidecars) {
          const changed = containerChanged(c, s, rules);
          w.hashChecks.push(changed.check);
          if (changed.changed) {
            addKill(w, {
              containerId: s.id,
              name: c.name,
              kind: 'init',
              message: `Init container ${c.name} definition changed`,
              reason: '',
              why: 'definition-changed',
              hash: changed.check,
            });
            start(i, killedReason('definition-changed', changed.check));
            break;
          }
        }
        if (c.livenessProbe) {
          const liveness = ctx.probes.liveness?.[s.id];
          if (liveness === undefined) break;
          if (liveness === 'Failure') {
            addKill(w, {
              containerId: s.id,
              name: c.name,
              kind: 'init',
              message: `Init container ${c.name} failed liveness probe`,
              reason: 'LivenessProbe',
              why: 'liveness-probe-failed',
            });
            start(i, killedReason('liveness-probe-failed'));
            break;
          }
        }
        break;
      }
      case 'exited':
        if (restartable) {
          start(i, { code: 'exited', text: `sidecar exited with code ${s.exitCode}; restartable init containers always restart`, exitCode: s.exitCode, restartPolicy: 'Always' });
        } else if (isInitContainerFailed(s)) {
          if (!restartOnFailure) {
            w.killPod = true;
            w.killPodCause = 'init-container-failed';
            w.init = [];
            return false;
          }
          start(i, failedInitReason(s, ctx.restartPolicy));
        } else if (i === inits.length - 1) {
          podHasInitialized = true;
        } else {
          start(i + 1, { code: 'previous-init-completed', text: `init container ${c.name} completed` });
        }
        break;
      default:
        if (!restartable && !restartOnFailure) {
          w.killPod = true;
          w.killPodCause = 'init-container-failed';
          w.init = [];
          return false;
        }
        addKill(w, {
          containerId: s.id,
          name: c.name,
          kind: 'init',
          message: 'Init container is in "unknown" state, try killing it before restart',
          reason: 'Unknown',
          why: 'unknown-state',
        });
        start(i, { code: 'unknown-state', text: 'container state is unknown; kubelet kills it, then starts it again' });
        break;
    }
    previouslyInitialized = true;
  }
  if (!previouslyInitialized) {
    start(0, { code: 'first-init-container', text: 'no init container has run yet' });
  }
  w.init = starts.reverse();
  return podHasInitialized;
}

/** Mirrors kubelet 1.33 ShouldContainerBeRestarted (pkg/kubelet/container/helpers.go; same in 1.28). */
export function shouldContainerBeRestarted(container: Container, pod: Pod, podStatus: PodStatus): boolean {
  if (pod.metadata?.deletionTimestamp) return false;
  const s = findContainerStatusByName(podStatus, container.name);
  if (!s) return true;
  if (s.state === 'running') return false;
  if (s.state === 'unknown' || s.state === 'created') return true;
  const policy = pod.spec?.restartPolicy ?? 'Always';
  if (policy === 'Never') return false;
  if (policy === 'OnFailure' && s.exitCode === 0) return false;
  return true;
}

/** Mirrors kubelet 1.33 isInitContainerFailed (same in 1.28): OOMKilled, exited non-zero, or unknown. */
export function isInitContainerFailed(s: ContainerStatus): boolean {
  if (s.reason === 'OOMKilled') return true;
  if (s.state === 'exited' && s.exitCode !== 0) return true;
  return s.state === 'unknown';
}

/**
 * Mirrors kubelet 1.33 containerChanged (1.28: whole-spec hash). Kubelet compares the parsed
 * annotation with the expected hash; anything else counts as changed. The check says whether the
 * observed value is another scheme's hash of the same container, missing, or not hex at all.
 */
export function containerChanged(
  container: Container,
  s: ContainerStatus,
  rules: Pick<KubeletRules, 'hashScheme'>,
): { changed: boolean; check: HashCheck } {
  const scheme = rules.hashScheme;
  const expected = schemeHash(container, scheme);
  const observed = s.hash;
  const base = { name: container.name, containerId: s.id, scheme, expected: formatHash(expected), observed };
  if (observed === '') return { changed: true, check: { ...base, verdict: 'missing' } };
  if (!/^[0-9a-fA-F]{1,16}$/.test(observed)) return { changed: true, check: { ...base, verdict: 'unparsable' } };
  const value = BigInt(`0x${observed}`);
  if (value === BigInt(expected)) return { changed: false, check: { ...base, verdict: 'match' } };
  const other: HashScheme = scheme === 'name+image' ? 'whole-spec' : 'name+image';
  let otherHash: number | null = null;
  try {
    otherHash = schemeHash(container, other);
  } catch {
    otherHash = null;
  }
  if (otherHash !== null && value === BigInt(otherHash)) {
    return { changed: true, check: { ...base, verdict: 'other-scheme', matchedScheme: other } };
  }
  return { changed: true, check: { ...base, verdict: 'changed' } };
}

function schemeHash(c: Container, scheme: HashScheme): number {
  return scheme === 'name+image' ? hashContainer({ name: c.name, image: c.image }) : hashContainerLegacy(c);
}

/** Words for a hash check that is not a match, for plan reasons. */
export function describeHashCheck(h: HashCheck): string {
  switch (h.verdict) {
    case 'match':
      return `hash ${h.observed} matches`;
    case 'changed':
      return `hash ${h.observed} differs from ${h.expected} (${HASH_SCHEME_LABEL[h.scheme]})`;
    case 'other-scheme':
      return (
        `hash ${h.observed} is the ${HASH_SCHEME_LABEL[h.matchedScheme ?? h.scheme]} of this same container, ` +
        `not the ${HASH_SCHEME_LABEL[h.scheme]} (${h.expected}): it was created by another kubelet version; ` +
        'kubelet sees it as changed'
      );
    case 'missing':
      return `no hash annotation; kubelet compares 0 with ${h.expected} and sees it as changed`;
    case 'unparsable':
      return `hash annotation "${h.observed}" is not hex; kubelet reads it as 0 and sees it as changed`;
  }
}

function killedReason(why: KillWhy, hash?: HashCheck): StartReason {
  switch (why) {
    case 'definition-changed':
      return {
        code: 'definition-changed',
        text: `definition changed: ${hash ? describeHashCheck(hash) : 'hash differs'}`,
        ...(hash ? { hash } : {}),
      };
    case 'liveness-probe-failed':
      return { code: 'liveness-probe-failed', text: 'liveness probe failed (given as input)' };
    case 'startup-probe-failed':
      return { code: 'startup-probe-failed', text: 'startup probe failed (given as input)' };
    case 'unknown-state':
      return { code: 'unknown-state', text: 'container state is unknown; kubelet kills it, then starts it again' };
  }
}

function notRunningReason(s: ContainerStatus | null, restartPolicy: string): StartReason {
  if (!s) return { code: 'never-started', text: 'no container of this name exists (never started, or removed)' };
  switch (s.state) {
    case 'created':
      return { code: 'created-not-started', text: 'container was created but never started' };
    case 'unknown':
      return { code: 'unknown-state', text: 'container state is unknown; kubelet kills it, then starts it again' };
    default:
      return {
        code: 'exited',
        text: `exited with code ${s.exitCode}${s.reason ? ` (${s.reason})` : ''} and restartPolicy ${restartPolicy}`,
        exitCode: s.exitCode,
        restartPolicy,
      };
  }
}

function failedInitReason(s: ContainerStatus, restartPolicy: string): StartReason {
  if (s.state === 'unknown') {
    return { code: 'unknown-state', text: 'init container state is unknown; kubelet kills it, then starts it again' };
  }
  return {
    code: 'exited',
    text: `init container failed: exited with code ${s.exitCode}${s.reason ? ` (${s.reason})` : ''} and restartPolicy ${restartPolicy}`,
    exitCode: s.exitCode,
    restartPolicy,
  };
}

function sandboxRecreatedReason(change: SandboxChange | null): StartReason {
  return { code: 'sandbox-recreated', text: `new sandbox: ${change ? change.detail : 'sandbox recreated'}` };
}

/** Mirrors kubelet 1.33 containerSucceeded (1.28: any non-running status with exit code 0). */
function containerSucceeded(c: Container, ctx: Ctx): boolean {
  const s = findContainerStatusByName(ctx.status, c.name);
  if (!s) return false;
  if (ctx.rules.succeededRequiresExited) return s.state === 'exited' && s.exitCode === 0;
  return s.state !== 'running' && s.exitCode === 0;
}

/** Mirrors kubelet 1.33 hasAnyRegularContainerCreated (same in 1.28). */
function hasAnyRegularContainerCreated(pod: Pod, podStatus: PodStatus): boolean {
  return (pod.spec?.containers ?? []).some((c) => {
    const s = findContainerStatusByName(podStatus, c.name);
    return s !== null && (s.state === 'created' || s.state === 'running' || s.state === 'exited');
  });
}

/** Kubelet's FindContainerStatusByName: the newest instance of that name (statuses are newest first). */
export function findContainerStatusByName(podStatus: PodStatus, name: string): ContainerStatus | null {
  return podStatus.containerStatuses.find((s) => s.name === name) ?? null;
}

export function isRestartableInitContainer(c: Container): boolean {
  return c.restartPolicy === 'Always';
}

export function hasRestartableInitContainer(pod: Pod): boolean {
  return (pod.spec?.initContainers ?? []).some(isRestartableInitContainer);
}

function addKill(w: Work, k: ContainerToKill): void {
  w.kill.set(k.containerId, k);
}

function compareKills(a: ContainerToKill, b: ContainerToKill): number {
  if (a.kind !== b.kind) return a.kind === 'init' ? -1 : 1;
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.containerId < b.containerId ? -1 : a.containerId > b.containerId ? 1 : 0;
}

function podName(pod: Pod): string {
  return `${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name ?? '?'}`;
}

function short(id: string): string {
  return id.slice(0, 13);
}
