// The sentences a plan says for the planner's decisions: start reasons, kills, sandbox changes,
// waits and hash comparisons, made from the codes and facts computePodActions records. The
// planner itself holds no operator wording. Pure.

import { HASH_SCHEME_LABEL } from '../kubelet/kubelet-version';
import { bytesQuantityText } from '../kubelet/quantity';
import type {
  ContainerToReset,
  ContainerToUpdate,
  HashCheck,
  KillPodCause,
  KillWhy,
  RestartDecisionSource,
  SandboxChange,
  StartReason,
  Waiting,
} from '../kubelet/pod-actions';

export type ContainerKind = 'regular' | 'init' | 'ephemeral';

const short = (id: string): string => id.slice(0, 13);

/** Words for a hash comparison. */
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

/** Why PodSandboxChanged wants a new sandbox, for operators. */
export function sandboxChangeText(c: SandboxChange): string {
  switch (c.code) {
    case 'no-sandbox':
      return 'the pod has no sandbox';
    case 'multiple-ready':
      return `${c.readyCount} sandboxes of the pod are ready; kubelet keeps exactly one`;
    case 'not-ready':
      return `the newest sandbox ${short(c.sandboxId)} is not ready`;
    case 'network-namespace-changed':
      return `the sandbox network namespace is ${c.mode} but the pod wants ${c.wanted} (hostNetwork: ${c.hostNetwork})`;
    case 'no-ip':
      return `the sandbox ${short(c.sandboxId)} has no IP address`;
  }
}

/** Which policy decided a restart (ContainerRestartRules), e.g. "restartPolicyRules[0] (exit code In [42]): Restart". */
export function decidedByText(d: RestartDecisionSource): string {
  switch (d.level) {
    case 'rule':
      return `restartPolicyRules[${d.rule!.index}] (exit code ${d.rule!.operator} [${d.rule!.values.join(', ')}]): ${d.policy}`;
    case 'container':
      return `container restartPolicy ${d.policy}`;
    case 'pod':
      return `restartPolicy ${d.policy}`;
  }
}

function exitText(r: StartReason): string {
  const how = `exited with code ${r.exitCode}${r.exitReason ? ` (${r.exitReason})` : ''}`;
  return r.decidedBy && r.decidedBy.level !== 'pod'
    ? `${how}; ${decidedByText(r.decidedBy)}`
    : `${how} and restartPolicy ${r.restartPolicy}`;
}

/** One sentence for a start decision of a container of `kind`. */
export function startReasonText(r: StartReason, kind: ContainerKind = 'regular'): string {
  switch (r.code) {
    case 'never-started':
      if (kind === 'ephemeral') return 'ephemeral container never started';
      if (kind === 'init')
        return 'sidecar has no container (never started, or removed); restartable init containers are kept running';
      return 'no container of this name exists (never started, or removed)';
    case 'exited':
      return exitText(r);
    case 'sidecar-exited':
      return `sidecar exited with code ${r.exitCode}; restartable init containers always restart`;
    case 'init-container-failed':
      return `init container failed: ${exitText(r)}`;
    case 'created-not-started':
      return kind === 'init'
        ? 'container was created but never started (the start failed); kubelet starts it again'
        : 'container was created but never started';
    case 'unknown-state':
      return 'container state is unknown; kubelet kills it, then starts it again';
    case 'definition-changed':
      return `definition changed: ${r.hash ? describeHashCheck(r.hash) : 'hash differs'}`;
    case 'liveness-probe-failed':
      return 'liveness probe failed (given as input)';
    case 'startup-probe-failed':
      return 'startup probe failed (given as input)';
    case 'sandbox-recreated': {
      const base = `new sandbox: ${r.sandboxChange ? sandboxChangeText(r.sandboxChange) : 'sandbox recreated'}`;
      return kind === 'init' ? `${base}; initialization starts again with the first init container` : base;
    }
    case 'first-init-container':
      return 'no init container has run yet';
    case 'previous-init-completed':
      return `init container ${r.previous} completed`;
    case 'sidecar-started':
      return `sidecar ${r.previous} has started`;
    case 'resize-restart':
      return resizeRestartText(r.resized ?? []);
  }
}

function resizeRestartText(resized: string[]): string {
  return `resize of ${resized.join(' and ')} requires a restart (resizePolicy RestartContainer)`;
}

/** A container memory limit the runtime reports or kubelet writes (bytes; 0: none), as the manifest writes it. */
const memoryLimitText = (bytes: number): string => (bytes > 0 ? bytesQuantityText(bytes) : 'none');

/**
 * An in-place resize, e.g. "in-place resize (runtime's report → spec): cpu shares 102 → 204, quota
 * 20000 → 40000; memory limit 128Mi → 256Mi".
 */
export function resizeText(u: ContainerToUpdate, only?: 'cpu' | 'memory'): string {
  const parts: string[] = [];
  if (u.resources.includes('cpu') && only !== 'memory') {
    parts.push(
      `cpu shares ${u.current.cpuShares} → ${u.desired.cpuShares}, quota ${u.current.cpuQuota} → ${u.desired.cpuQuota}`,
    );
  }
  if (u.resources.includes('memory') && only !== 'cpu')
    parts.push(
      `memory limit ${memoryLimitText(u.current.memoryLimitInBytes)} → ${memoryLimitText(u.desired.memoryLimitInBytes)}`,
    );
  return `in-place resize (runtime's report → spec): ${parts.join('; ')}`;
}

/** Why the pod cgroup is changed in a resize, e.g. "pod memory limit raised before the containers (UpdatePodSandboxResources)". */
export function podResizeText(resource: 'memory' | 'cpu', value: 'limit' | 'request', before: boolean): string {
  const what =
    resource === 'memory' ? 'memory limit' : value === 'limit' ? 'CPU limit (quota)' : 'CPU request (shares)';
  return before
    ? `in-place resize: pod ${what} raised before the containers'`
    : `in-place resize: pod ${what} lowered after the containers'`;
}

/** Why a running container is killed. */
export function killText(why: KillWhy, hash?: HashCheck): string {
  switch (why) {
    case 'definition-changed':
      return `definition changed: ${hash ? describeHashCheck(hash) : 'hash differs'}`;
    case 'liveness-probe-failed':
      return 'liveness probe failed (given as input)';
    case 'startup-probe-failed':
      return 'startup probe failed (given as input)';
    case 'unknown-state':
      return 'state is unknown; killed before it is started again';
    case 'resize-restart':
      return 'in-place resize with resizePolicy RestartContainer';
  }
}

/** Why kubelet kills the whole pod. */
export function killPodText(cause: KillPodCause): string {
  switch (cause) {
    case 'sandbox-changed':
      return 'the sandbox must be recreated';
    case 'init-container-failed':
      return 'an init container failed and will not be retried';
    case 'no-running-containers':
      return 'no container is running and none will be started';
    default:
      return 'kubelet kills the pod';
  }
}

/** What kubelet waits for. */
export function waitingText(w: Waiting, kubeletVersion: string): string {
  switch (w.code) {
    case 'init-running':
      return `init container ${w.container} is running; waiting for it to finish`;
    case 'init-created-waits':
      return `init container ${w.container} is CREATED; kubelet ${kubeletVersion} waits (it does not start it again)`;
    case 'startup-result-missing':
      return `sidecar ${w.container} has a startupProbe with no result given; kubelet waits for it before starting the next init container`;
    case 'startup-result-unknown':
      return `sidecar ${w.container} startup probe result is Unknown; kubelet waits`;
  }
}

/** Why a container is removed by RestartAllContainers. */
export function resetText(r: ContainerToReset): string {
  if (r.source) return `exited with code ${r.exitCode} matching a RestartAllContainers rule: the pod restarts in place`;
  return r.kill
    ? 'the pod restarts in place (RestartAllContainers): stopped without grace period or preStop, then removed'
    : 'the pod restarts in place (RestartAllContainers): removed';
}
