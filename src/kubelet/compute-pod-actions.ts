// computePodActions of pkg/kubelet/kuberuntime/kuberuntime_manager.go as a pure function, kubelet
// 1.29–1.37 (differences from KubeletRules), pinned to the releases in MIRROR_SOURCES (1.37: k8s.io/kubernetes
// v1.37.2, checked call for call by the kubelet oracle, npm run oracle).
// Desired pod + observed PodStatus + kubelet's memory
// (probe results, the AllContainersRestarting condition) in, podActions out. Helpers live in the
// files kubelet keeps them in: pod-sandbox-changed.ts (util.go), init-container-actions.ts
// (kuberuntime_container.go), container-helpers.ts (container/helpers.go), pod-util.ts (api/v1/pod).

import { SyncpodError } from '../errors';
import type { Container, Pod, PodStatus as ApiPodStatus } from './api-types';
import { containerChanged } from './container-changed';
import { findContainerStatusByName, shouldAllContainersRestart, shouldContainerBeRestarted } from './container-helpers';
import {
  computeInitContainerActions,
  findNextInitContainerToRun,
  hasAnyRegularContainerCreated,
  isInitContainerFailed,
  type PlannerContext,
} from './init-container-actions';
import {
  effectiveGates,
  resolveKubeletRules,
  usesSidecarInitPath,
  type FeatureGates,
  type KubeletRules,
} from './kubelet-version';
import type {
  Changes,
  ContainerToKill,
  ContainerToReset,
  KillReason,
  KillWhy,
  PodActions,
  ProbeResults,
  StartReason,
} from './pod-actions';
import { podSandboxChanged } from './pod-sandbox-changed';
import { computePodResizeAction, podResizeCalls, resizeContextOf, startingResizedContainer } from './pod-resize';
import type { ResizeCall } from './pod-actions';
import { isRestartableInitContainer, matchesRestartAllContainers } from './pod-util';
import type { PodStatus } from './types';

export type * from './pod-actions';
export { containerChanged } from './container-changed';
export { findContainerStatusByName, shouldContainerBeRestarted } from './container-helpers';
export { findNextInitContainerToRun, isInitContainerFailed } from './init-container-actions';
export { podSandboxChanged } from './pod-sandbox-changed';
export { isRestartableInitContainer } from './pod-util';

export interface ComputePodActionsOptions {
  /** The rules resolved once per invocation; when absent, resolved from kubeletVersion/featureGates. */
  rules?: KubeletRules;
  /** Kubelet version to mirror, e.g. '1.36' or 'v1.29.4'; default the newest mirrored. */
  kubeletVersion?: string;
  featureGates?: FeatureGates;
  /** Default: no result for any container (kubelet kills only on an existing Failure). */
  probeResults?: ProbeResults;
  /**
   * The API status of the pod when known (a `kubectl get pod -o yaml` dump): its conditions and
   * container statuses. Absent: the pod's own `status`, as kubelet reads it from the pod object.
   */
  apiStatus?: ApiPodStatus;
}

/** The rules of the options: given, or resolved from version and gates. */
export function rulesOf(options: ComputePodActionsOptions = {}): KubeletRules {
  return options.rules ?? resolveKubeletRules(options.kubeletVersion, options.featureGates);
}

/** shouldRestartOnFailure: the pod's restartPolicy is not Never. */
function shouldRestartOnFailure(pod: Pod): boolean {
  return (pod.spec?.restartPolicy ?? 'Always') !== 'Never';
}

/** containerSucceeded (1.29.0-era patches and 1.28: any non-running status with exit code 0). */
function containerSucceeded(c: Container, ctx: PlannerContext): boolean {
  const s = findContainerStatusByName(ctx.status, c.name);
  if (!s) return false;
  if (ctx.rules.succeededRequiresExited) return s.state === 'exited' && s.exitCode === 0;
  return s.state !== 'running' && s.exitCode === 0;
}

/**
 * getContainersToReset (RestartAllContainers, 1.35+), for one list of containers (init or regular):
 * every runtime instance of each, in spec order; an exited instance whose matching rule has action
 * RestartAllContainers is a source (it triggered the restart), every other one a target; running
 * (not exited) targets are killed before removal.
 */
function getContainersToReset(
  containers: Container[],
  kind: ContainerToReset['kind'],
  podStatus: PodStatus,
): { sources: ContainerToReset[]; targets: ContainerToReset[] } {
  const sources: ContainerToReset[] = [];
  const targets: ContainerToReset[] = [];
  for (const c of containers) {
    for (const s of podStatus.containerStatuses) {
      if (s.name !== c.name) continue;
      const base = { containerId: s.id, name: c.name, kind };
      if (s.state === 'exited') {
        if (matchesRestartAllContainers(c, s.exitCode))
          sources.push({ ...base, kill: false, source: true, exitCode: s.exitCode });
        else targets.push({ ...base, kill: false, source: false, exitCode: s.exitCode });
      } else {
        targets.push({ ...base, kill: true, source: false });
      }
    }
  }
  return { sources, targets };
}

/**
 * containersToReset in kubelet's order (computePodActions' restart-all branch): regular targets,
 * init targets, then the sources, regular before init, so the containers that triggered the
 * restart are removed last.
 */
function containersToResetOf(pod: Pod, podStatus: PodStatus): ContainerToReset[] {
  const init = getContainersToReset(pod.spec?.initContainers ?? [], 'init', podStatus);
  const regular = getContainersToReset(pod.spec?.containers ?? [], 'regular', podStatus);
  return [...regular.targets, ...init.targets, ...regular.sources, ...init.sources];
}

/** computePodActions: what SyncPod must do to bring the pod to its spec. */
export function computePodActions(pod: Pod, podStatus: PodStatus, options: ComputePodActionsOptions = {}): PodActions {
  const rules = rulesOf(options);
  const spec = pod.spec;
  if (!spec || !Array.isArray(spec.containers) || spec.containers.length === 0) {
    throw new SyncpodError(
      `pod ${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name ?? '?'} has no spec.containers`,
    );
  }
  const ctx: PlannerContext = {
    pod,
    status: podStatus,
    rules,
    probes: options.probeResults ?? {},
    restartPolicy: spec.restartPolicy ?? 'Always',
  };
  const sidecarPath = usesSidecarInitPath(rules, (spec.initContainers ?? []).some(isRestartableInitContainer));
  const sandbox = podSandboxChanged(pod, podStatus);
  const restartAllContainers = shouldAllContainersRestart(pod, podStatus, options.apiStatus ?? pod.status, rules);
  const changes: Changes = {
    killPod: sandbox.createSandbox,
    killPodCause: sandbox.createSandbox ? 'sandbox-changed' : null,
    createSandbox: sandbox.createSandbox,
    nextInitContainerToStart: null,
    initContainersToStart: [],
    containersToStart: [],
    ephemeralContainersToStart: [],
    containersToKill: new Map(),
    containersToReset: [],
    containersToUpdate: [],
    resize: { memory: [], cpu: [] },
    updatePodResources: false,
    waiting: [],
    hashChecks: [],
  };
  const finish = (): PodActions =>
    toPodActions(
      changes,
      rules,
      sidecarPath,
      sandbox,
      restartAllContainers,
      resizeCallsOf(pod, podStatus, changes, rules),
    );
  const containers = spec.containers;
  const initContainers = spec.initContainers ?? [];

  // RestartAllContainers: remove every container and let the next sync start from the first init container.
  if (restartAllContainers) {
    changes.containersToReset = containersToResetOf(pod, podStatus);
    return finish();
  }

  if (sandbox.createSandbox) {
    if (!shouldRestartOnFailure(pod) && sandbox.attempt !== 0 && podStatus.containerStatuses.length !== 0) {
      // The pod ran once and must not restart: only clean it up.
      changes.createSandbox = false;
      return finish();
    }
    const sandboxReason: StartReason = {
      code: 'sandbox-recreated',
      ...(sandbox.change ? { sandboxChange: sandbox.change } : {}),
    };
    const containersToStart: Changes['containersToStart'] = [];
    containers.forEach((c, idx) => {
      // A container that runs once (OnFailure, the pod's or with ContainerRestartRules its own) and succeeded stays done.
      let runOnce = ctx.restartPolicy === 'OnFailure';
      if (rules.gates.ContainerRestartRules && c.restartPolicy !== undefined) runOnce = c.restartPolicy === 'OnFailure';
      if (runOnce && containerSucceeded(c, ctx)) return;
      containersToStart.push({ index: idx, name: c.name, reason: sandboxReason });
    });
    if (containersToStart.length === 0) {
      const hasInitialized = sidecarPath
        ? hasAnyRegularContainerCreated(pod, podStatus)
        : findNextInitContainerToRun(pod, podStatus).done;
      if (hasInitialized) {
        changes.createSandbox = false;
        return finish();
      }
    }
    if (initContainers.length > 0) {
      const first = { index: 0, name: initContainers[0].name, reason: sandboxReason };
      if (sidecarPath) changes.initContainersToStart = [first];
      else changes.nextInitContainerToStart = first;
      return finish();
    }
    changes.containersToStart = containersToStart;
    return finish();
  }

  (spec.ephemeralContainers ?? []).forEach((c, i) => {
    if (!findContainerStatusByName(podStatus, c.name)) {
      changes.ephemeralContainersToStart.push({ index: i, name: c.name, reason: { code: 'never-started' } });
    }
  });

  if (!sidecarPath) {
    const { lastStatus, next, done } = findNextInitContainerToRun(pod, podStatus);
    if (!done) {
      if (next) {
        const initFailed = lastStatus !== null && isInitContainerFailed(lastStatus);
        if (initFailed && !shouldRestartOnFailure(pod)) {
          changes.killPod = true;
          changes.killPodCause = 'init-container-failed';
        } else {
          if (lastStatus && lastStatus.state === 'unknown') {
            addKill(changes, {
              containerId: lastStatus.id,
              name: next.name,
              kind: 'init',
              message: 'Init container is in "unknown" state, try killing it before restart',
              reason: 'Unknown',
              why: 'unknown-state',
            });
          }
          changes.nextInitContainerToStart = next;
        }
      } else {
        for (const ic of initContainers) {
          const s = findContainerStatusByName(podStatus, ic.name);
          if (s && s.state === 'running') changes.waiting.push({ code: 'init-running', container: ic.name });
        }
      }
      return finish();
    }
  } else {
    const hasInitialized = computeInitContainerActions(ctx, changes);
    if (changes.killPod || !hasInitialized) return finish();
  }

  let keepCount = 0;
  containers.forEach((c, idx) => {
    const s = findContainerStatusByName(podStatus, c.name);
    if (s?.state !== 'running') {
      const d = shouldContainerBeRestarted(c, pod, podStatus, rules);
      if (d.restart) {
        changes.containersToStart.push({
          index: idx,
          name: c.name,
          reason: notRunningReason(s, ctx.restartPolicy, d.decidedBy),
        });
        if (s && s.state === 'unknown') {
          addKill(changes, {
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
    // The container is running: kill it when its definition changed or a probe failed.
    let restart = shouldRestartOnFailure(pod);
    if (rules.gates.ContainerRestartRules && c.restartPolicy !== undefined) restart = c.restartPolicy !== 'Never';
    let message: string;
    let reason: KillReason = '';
    let why: KillWhy;
    const changed = containerChanged(c, s, rules);
    changes.hashChecks.push(changed.check);
    if (changed.changed) {
      message = `Container ${c.name} definition changed`;
      why = 'definition-changed';
      restart = true;
    } else if (ctx.probes.liveness?.[s.id] === 'Failure') {
      message = `Container ${c.name} failed liveness probe`;
      reason = 'LivenessProbe';
      why = 'liveness-probe-failed';
    } else if (ctx.probes.startup?.[s.id] === 'Failure') {
      message = `Container ${c.name} failed startup probe`;
      reason = 'StartupProbe';
      why = 'startup-probe-failed';
    } else if (
      rules.gates.InPlacePodVerticalScaling &&
      rules.rulesMinor >= 33 &&
      !computePodResizeAction(c, idx, 'regular', s, changes, resizeContextOf(ctx))
    ) {
      // The resize policy restarts it: computePodResizeAction put it in containersToKill and containersToStart.
      return;
    } else {
      keepCount++;
      return;
    }
    const hash = why === 'definition-changed' ? changed.check : undefined;
    if (restart) {
      message = `${message}, will be restarted`;
      changes.containersToStart.push({ index: idx, name: c.name, reason: { code: why, ...(hash ? { hash } : {}) } });
    }
    addKill(changes, {
      containerId: s.id,
      name: s.name,
      kind: 'regular',
      message,
      reason,
      why,
      ...(hash ? { hash } : {}),
    });
  });

  if (keepCount === 0 && changes.containersToStart.length === 0) {
    changes.killPod = true;
    changes.killPodCause = 'no-running-containers';
    // A pod whose regular containers are all done also stops its sidecars.
    if (sidecarPath) changes.initContainersToStart = [];
  }
  // 1.37: a container about to start whose resources changed resizes the pod cgroup first.
  if (rules.startingResizedContainers && !changes.updatePodResources)
    changes.updatePodResources = startingResizedContainer(
      containers,
      changes.containersToStart.map((d) => d.index),
      podStatus,
      resizeContextOf(ctx),
    );
  return finish();
}

/** doPodResizeAction's calls when SyncPod resizes (InPlacePodVerticalScaling on, something to resize). */
function resizeCallsOf(pod: Pod, status: PodStatus, changes: Changes, rules: KubeletRules): ResizeCall[] {
  if (!rules.gates.InPlacePodVerticalScaling) return [];
  const { memory, cpu } = changes.resize;
  if (memory.length === 0 && cpu.length === 0 && !changes.updatePodResources) return [];
  const ctx = resizeContextOf({ pod, rules });
  return podResizeCalls(pod, status, changes.resize, changes.updatePodResources, {
    ...ctx,
    podSandboxResourceUpdates: rules.podSandboxResourceUpdates,
    initLimitsWithSidecars: rules.podLimitsCountSidecarsBeforeInit,
  });
}

function notRunningReason(
  s: ReturnType<typeof findContainerStatusByName>,
  restartPolicy: string,
  decidedBy: StartReason['decidedBy'],
): StartReason {
  if (!s) return { code: 'never-started' };
  if (s.state === 'created') return { code: 'created-not-started' };
  if (s.state === 'unknown') return { code: 'unknown-state' };
  return {
    code: 'exited',
    exitCode: s.exitCode,
    exitReason: s.reason,
    restartPolicy,
    ...(decidedBy ? { decidedBy } : {}),
  };
}

function addKill(changes: Changes, k: ContainerToKill): void {
  changes.containersToKill.set(k.containerId, k);
}

function compareKills(a: ContainerToKill, b: ContainerToKill): number {
  if (a.kind !== b.kind) return a.kind === 'init' ? -1 : 1;
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.containerId < b.containerId ? -1 : a.containerId > b.containerId ? 1 : 0;
}

function toPodActions(
  changes: Changes,
  rules: KubeletRules,
  sidecarPath: boolean,
  sandbox: ReturnType<typeof podSandboxChanged>,
  restartAllContainers: boolean,
  resizeCalls: ResizeCall[],
): PodActions {
  return {
    kubeletVersion: rules.version,
    initPath: sidecarPath ? 'sidecar' : 'classic',
    killPod: changes.killPod,
    killPodCause: changes.killPod ? changes.killPodCause : null,
    createSandbox: changes.createSandbox,
    sandboxId: sandbox.sandboxId,
    attempt: sandbox.attempt,
    sandboxChange: sandbox.change,
    nextInitContainerToStart: changes.nextInitContainerToStart?.name ?? null,
    nextInitContainerReason: changes.nextInitContainerToStart?.reason ?? null,
    initContainersToStart: changes.initContainersToStart.map((d) => d.index),
    containersToStart: changes.containersToStart.map((d) => d.index),
    ephemeralContainersToStart: changes.ephemeralContainersToStart.map((d) => d.index),
    containersToKill: [...changes.containersToKill.values()].sort(compareKills),
    containersToReset: changes.containersToReset,
    containersToUpdate: changes.containersToUpdate,
    resizeCalls,
    restartAllContainers,
    initContainerStarts: changes.initContainersToStart,
    containerStarts: changes.containersToStart,
    ephemeralContainerStarts: changes.ephemeralContainersToStart,
    waiting: changes.waiting,
    hashChecks: changes.hashChecks,
    featureGates: effectiveGates(rules),
  };
}
