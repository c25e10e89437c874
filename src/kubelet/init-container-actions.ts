// Init-container decisions of pkg/kubelet/kuberuntime/kuberuntime_container.go, kubelet 1.29–1.37
// (1.36+: a running non-sidecar init container is resized in place);
// pinned to the releases in MIRROR_SOURCES (1.37: k8s.io/kubernetes v1.37.2, checked by the kubelet oracle):
// computeInitContainerActions (the sidecar-aware path, with in-place resize of sidecars from 1.33), the legacy findNextInitContainerToRun
// (1.29–1.33 only), isInitContainerFailed and hasAnyRegularContainerCreated. Differences between
// versions come from KubeletRules. Pure.

import type { Container, Pod } from './api-types';
import { containerChanged } from './container-changed';
import { findContainerStatusByName, shouldContainerBeRestarted } from './container-helpers';
import type { KubeletRules } from './kubelet-version';
import type {
  Changes,
  ContainerToKill,
  ProbeResults,
  RestartDecisionSource,
  StartDecision,
  StartReason,
} from './pod-actions';
import { isRestartableInitContainer } from './pod-util';
import { computePodResizeAction, resizeContextOf, startingResizedContainer } from './pod-resize';
import type { ContainerStatus, PodStatus } from './types';

/** What computePodActions and its helpers read besides the pod and its status. */
export interface PlannerContext {
  pod: Pod;
  status: PodStatus;
  rules: KubeletRules;
  probes: ProbeResults;
  /** spec.restartPolicy with the API default (Always). */
  restartPolicy: string;
}

/** isInitContainerFailed: OOMKilled, exited non-zero, or unknown. */
export function isInitContainerFailed(s: ContainerStatus): boolean {
  if (s.reason === 'OOMKilled') return true;
  if (s.state === 'exited' && s.exitCode !== 0) return true;
  return s.state === 'unknown';
}

/**
 * The statuses of PodStatus.ActiveContainerStatuses (kuberuntime_manager.go GetPodStatus): the
 * containers of the newest sandbox when it is ready, none otherwise; newest first.
 */
export function activeContainerStatuses(podStatus: PodStatus): ContainerStatus[] {
  const newest = podStatus.sandboxStatuses[0];
  if (newest?.state !== 'ready') return [];
  return podStatus.containerStatuses.filter((s) => s.podSandboxId === newest.id);
}

/** HasAnyActiveRegularContainerStarted (container/helpers.go): a regular container has any status in the active sandbox. */
export function hasAnyActiveRegularContainerStarted(pod: Pod, podStatus: PodStatus): boolean {
  const names = new Set((pod.spec?.containers ?? []).map((c) => c.name));
  return activeContainerStatuses(podStatus).some((s) => names.has(s.name));
}

/** hasAnyRegularContainerCreated: some regular container has an instance (created, running or exited). */
export function hasAnyRegularContainerCreated(pod: Pod, podStatus: PodStatus): boolean {
  return (pod.spec?.containers ?? []).some((c) => {
    const s = findContainerStatusByName(podStatus, c.name);
    return s !== null && (s.state === 'created' || s.state === 'running' || s.state === 'exited');
  });
}

export interface NextInit {
  lastStatus: ContainerStatus | null;
  next: StartDecision | null;
  done: boolean;
}

/** findNextInitContainerToRun (legacy init path, kubelet 1.29–1.33 for pods sent down it). */
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
        next: { index: i, name: inits[i].name, reason: failedInitReason(s, pod.spec?.restartPolicy ?? 'Always') },
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
          name: inits[i + 1].name,
          reason: { code: 'previous-init-completed', previous: inits[i].name },
        },
        done: false,
      };
    }
  }
  return {
    lastStatus: null,
    next: { index: 0, name: inits[0].name, reason: { code: 'first-init-container' } },
    done: false,
  };
}

/**
 * Whether a failed (non-restartable) init container is retried. With ContainerRestartRules on:
 * ShouldContainerBeRestarted (its own policy and rules, else the pod's policy on the exit code, so
 * an OOMKilled exit 0 in an OnFailure pod is not retried; never once the pod is being deleted).
 * Otherwise the pod's restartPolicy is not Never.
 */
function initContainerRetried(
  ctx: PlannerContext,
  c: Container,
): { retry: boolean; decidedBy?: RestartDecisionSource } {
  if (ctx.rules.gates.ContainerRestartRules) {
    const d = shouldContainerBeRestarted(c, ctx.pod, ctx.status, ctx.rules);
    return { retry: d.restart, decidedBy: d.decidedBy };
  }
  return { retry: ctx.restartPolicy !== 'Never' };
}

/**
 * The same question for an init container in unknown state: it may not have exited, so there is
 * no exit code for its rules; with ContainerRestartRules only its own restartPolicy (else the
 * pod's) decides.
 */
function unknownInitContainerRetried(ctx: PlannerContext, c: Container): boolean {
  if (ctx.rules.gates.ContainerRestartRules && c.restartPolicy !== undefined) return c.restartPolicy !== 'Never';
  return ctx.restartPolicy !== 'Never';
}

function addKill(changes: Changes, k: ContainerToKill): void {
  changes.containersToKill.set(k.containerId, k);
}

/**
 * computeInitContainerActions: fills changes.initContainersToStart (and kills) walking the init
 * containers from the last to the first; returns whether the pod has initialized.
 */
export function computeInitContainerActions(ctx: PlannerContext, changes: Changes): boolean {
  const { pod, status, rules } = ctx;
  const inits = pod.spec?.initContainers ?? [];
  if (inits.length === 0) return true;

  let podHasInitialized = false;
  // 1.37: only the active sandbox's containers are read (a regular container left from an older
  // sandbox no longer means "initialized").
  const active = rules.initStatusFromActiveSandbox ? activeContainerStatuses(status) : null;
  const statusOf = (name: string): ContainerStatus | null =>
    active ? (active.find((s) => s.name === name) ?? null) : findContainerStatusByName(status, name);
  if (active) {
    podHasInitialized = hasAnyActiveRegularContainerStarted(pod, status);
  } else {
    for (const c of pod.spec?.containers ?? []) {
      const s = findContainerStatusByName(status, c.name);
      if (!s) continue;
      // An exited one does not count (kubelet 1.29+: after a node reboot every container has exited and
      // a new sandbox must run its init containers again).
      if (s.state === 'created' || s.state === 'running') {
        podHasInitialized = true;
        break;
      }
    }
  }
  let isPreviouslyInitialized = podHasInitialized;
  // kubelet appends while walking n-1 .. 0 and reverses at the end.
  const starts: StartDecision[] = [];
  const start = (i: number, reason: StartReason): void => void starts.push({ index: i, name: inits[i].name, reason });

  for (let i = inits.length - 1; i >= 0; i--) {
    const c = inits[i];
    const restartable = isRestartableInitContainer(c);
    const s = statusOf(c.name);
    if (!s) {
      if (isPreviouslyInitialized && restartable) start(i, { code: 'never-started' });
      continue;
    }
    if (isPreviouslyInitialized && !restartable) continue;

    switch (s.state) {
      case 'created':
        if (rules.restartCreatedInitContainers) start(i, { code: 'created-not-started' });
        else changes.waiting.push({ code: 'init-created-waits', container: c.name });
        break;
      case 'running': {
        if (!restartable) {
          changes.waiting.push({ code: 'init-running', container: c.name });
          // 1.36+: resized in place while it runs (validation keeps RestartContainer off it).
          if (rules.resizeRunningInitContainers) {
            const before = changes.initContainersToStart.length;
            computePodResizeAction(c, i, 'init', s, changes, resizeContextOf(ctx));
            starts.push(...changes.initContainersToStart.splice(before));
          }
          break;
        }
        if (c.startupProbe) {
          const startup = ctx.probes.startup?.[s.id];
          if (startup === undefined) {
            changes.waiting.push({ code: 'startup-result-missing', container: c.name });
            break;
          }
          if (startup !== 'Success') {
            if (startup === 'Failure') {
              addKill(changes, {
                containerId: s.id,
                name: c.name,
                kind: 'init',
                message: `Init container ${c.name} failed startup probe`,
                reason: 'StartupProbe',
                why: 'startup-probe-failed',
              });
              start(i, { code: 'startup-probe-failed' });
            } else {
              changes.waiting.push({ code: 'startup-result-unknown', container: c.name });
            }
            break;
          }
        }
        if (i === inits.length - 1) podHasInitialized = true;
        else if (!isPreviouslyInitialized) start(i + 1, { code: 'sidecar-started', previous: c.name });
        if (rules.restartChangedSidecars) {
          const changed = containerChanged(c, s, rules);
          changes.hashChecks.push(changed.check);
          if (changed.changed) {
            addKill(changes, {
              containerId: s.id,
              name: c.name,
              kind: 'init',
              message: `Init container ${c.name} definition changed`,
              reason: '',
              why: 'definition-changed',
              hash: changed.check,
            });
            start(i, { code: 'definition-changed', hash: changed.check });
            break;
          }
        }
        if (c.livenessProbe) {
          const liveness = ctx.probes.liveness?.[s.id];
          // No result yet: wait for it (the next init container was already started above).
          if (liveness === undefined) break;
          if (liveness === 'Failure') {
            addKill(changes, {
              containerId: s.id,
              name: c.name,
              kind: 'init',
              message: `Init container ${c.name} failed liveness probe`,
              reason: 'LivenessProbe',
              why: 'liveness-probe-failed',
            });
            start(i, { code: 'liveness-probe-failed' });
            break;
          }
        }
        // In-place resize (1.33+): a sidecar is resized like a regular container; a RestartContainer
        // policy restarts it as an init container.
        if (rules.gates.InPlacePodVerticalScaling && rules.rulesMinor >= 33) {
          const before = changes.initContainersToStart.length;
          computePodResizeAction(c, i, 'init', s, changes, resizeContextOf(ctx));
          starts.push(...changes.initContainersToStart.splice(before));
        }
        break;
      }
      case 'exited':
        if (restartable) {
          start(i, { code: 'sidecar-exited', exitCode: s.exitCode, exitReason: s.reason, restartPolicy: 'Always' });
        } else if (isInitContainerFailed(s)) {
          const d = initContainerRetried(ctx, c);
          if (!d.retry) {
            changes.killPod = true;
            changes.killPodCause = 'init-container-failed';
            changes.initContainersToStart = [];
            return false;
          }
          start(i, { ...failedInitReason(s, ctx.restartPolicy), ...(d.decidedBy ? { decidedBy: d.decidedBy } : {}) });
        } else if (i === inits.length - 1) {
          podHasInitialized = true;
        } else {
          start(i + 1, { code: 'previous-init-completed', previous: c.name });
        }
        break;
      default:
        if (!restartable && !unknownInitContainerRetried(ctx, c)) {
          changes.killPod = true;
          changes.killPodCause = 'init-container-failed';
          changes.initContainersToStart = [];
          return false;
        }
        addKill(changes, {
          containerId: s.id,
          name: c.name,
          kind: 'init',
          message: 'Init container is in "unknown" state, try killing it before restart',
          reason: 'Unknown',
          why: 'unknown-state',
        });
        start(i, { code: 'unknown-state' });
        break;
    }
    isPreviouslyInitialized = true;
  }
  if (!isPreviouslyInitialized) start(0, { code: 'first-init-container' });
  changes.initContainersToStart = starts.reverse();
  // 1.37: an init container about to start whose resources changed resizes the pod cgroup first.
  if (rules.startingResizedContainers && !changes.updatePodResources)
    changes.updatePodResources = startingResizedContainer(
      inits,
      changes.initContainersToStart.map((d) => d.index),
      ctx.status,
      resizeContextOf(ctx),
    );
  return podHasInitialized;
}

/** The reason for retrying a failed init container. */
export function failedInitReason(s: ContainerStatus, restartPolicy: string): StartReason {
  if (s.state === 'unknown') return { code: 'unknown-state' };
  return { code: 'init-container-failed', exitCode: s.exitCode, exitReason: s.reason, restartPolicy };
}
