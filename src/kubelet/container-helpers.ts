// Decisions of pkg/kubelet/container/helpers.go (kubelet 1.29–1.37; 1.37 as in
// k8s.io/kubernetes v1.37.2): whether a container is
// restarted (ShouldContainerBeRestarted), whether the whole pod restarts in place
// (ShouldAllContainersRestart, 1.35+), and the status look-ups kubelet uses. Pure.

import type { Container, Pod, PodStatus as ApiPodStatus } from './api-types';
import type { KubeletRules } from './kubelet-version';
import type { RestartDecisionSource } from './pod-actions';
import { containerShouldRestart, matchesRestartAllContainers } from './pod-util';
import type { ContainerStatus, PodStatus } from './types';

/** FindContainerStatusByName: the newest instance of that name (statuses are newest first). */
export function findContainerStatusByName(podStatus: PodStatus, name: string): ContainerStatus | null {
  return podStatus.containerStatuses.find((s) => s.name === name) ?? null;
}

/**
 * ShouldContainerBeRestarted for a container that is not running. With ContainerRestartRules on
 * (1.34 alpha, 1.35+ beta) an exited container follows ContainerShouldRestart (its own policy and
 * rules first); otherwise the pod's restartPolicy as through 1.33.
 */
export function shouldContainerBeRestarted(
  container: Container,
  pod: Pod,
  podStatus: PodStatus,
  rules: KubeletRules,
): { restart: boolean; decidedBy?: RestartDecisionSource } {
  if (pod.metadata?.deletionTimestamp) return { restart: false };
  const s = findContainerStatusByName(podStatus, container.name);
  if (!s) return { restart: true };
  if (s.state === 'running') return { restart: false };
  if (s.state === 'unknown' || s.state === 'created') return { restart: true };
  if (rules.gates.ContainerRestartRules) return containerShouldRestart(container, pod.spec, s.exitCode);
  const policy = pod.spec?.restartPolicy ?? 'Always';
  if (policy === 'Never') return { restart: false };
  if (policy === 'OnFailure' && s.exitCode === 0) return { restart: false };
  return { restart: true };
}

/**
 * ShouldAllContainersRestart (1.35+, RestartAllContainersOnContainerExits with ContainerRestartRules):
 * the API status says AllContainersRestarting=True, or an init or regular container exited with a
 * code whose matching rule has action RestartAllContainers: its newest runtime instance, or its
 * terminated state in the API status.
 */
export function shouldAllContainersRestart(
  pod: Pod,
  podStatus: PodStatus,
  apiStatus: ApiPodStatus | undefined,
  rules: KubeletRules,
): boolean {
  if (!rules.gates.RestartAllContainersOnContainerExits || !rules.gates.ContainerRestartRules) return false;
  if ((apiStatus?.conditions ?? []).some((c) => c.type === 'AllContainersRestarting' && c.status === 'True'))
    return true;
  const reported = new Map(
    [...(apiStatus?.initContainerStatuses ?? []), ...(apiStatus?.containerStatuses ?? [])].map((s) => [s.name, s]),
  );
  for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) {
    const s = findContainerStatusByName(podStatus, c.name);
    if (s && s.state === 'exited' && matchesRestartAllContainers(c, s.exitCode)) return true;
    const terminated = reported.get(c.name)?.state?.terminated;
    if (terminated && matchesRestartAllContainers(c, terminated.exitCode)) return true;
  }
  return false;
}

/** AllContainersRestartCleanedUp: no init or regular container of the pod has an instance left. */
export function allContainersRestartCleanedUp(pod: Pod, podStatus: PodStatus): boolean {
  return [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].every(
    (c) => !findContainerStatusByName(podStatus, c.name),
  );
}
