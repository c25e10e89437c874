// computePodResizeAction of pkg/kubelet/kuberuntime/kuberuntime_manager.go (kubelet 1.33–1.37 with
// InPlacePodVerticalScaling; read in natasha41575/kubernetes@1a51be50 pkg/kubelet/kuberuntime/kuberuntime_manager.go,
// containerResourcesFromRequirements included).
// Kubelet compares the allocated resources with its own actuated checkpoint (actuated_pods_state),
// which syncpod cannot read: syncpod compares with what the runtime reports, so a change of the
// memory request alone (not in CRI's resources) is not seen. A running container whose CPU or memory differs from what the runtime
// reports is resized in place (containersToUpdate) or, when its resizePolicy for a changed
// resource says RestartContainer, killed and started again. The desired values are the spec's
// (kubelet's allocated resources, assumed admitted) as kubelet writes them to CRI, a container
// without a limit taking the pod-level one when PodLevelResources is on (kubelet's resize decision
// defaults them the same way, containerResourcesFromRequirements); the current ones are the
// runtime's report (CRI ContainerStatus.resources). Pure.

import type { Container, Pod } from './api-types';
import type { Changes, ContainerToUpdate } from './pod-actions';
import { containerCpuMemory, milliCPUToQuota, milliCPUToShares, QUOTA_PERIOD_US } from './resources';
import type { ContainerResources, ContainerStatus } from './types';

/** What the resize decision needs of the pod: the pod itself and whether pod-level limits apply. */
export interface ResizeContext {
  pod: Pod;
  /** The PodLevelResources gate: a container without limits was created with the pod's. */
  podLevelResources: boolean;
}

/** The resize context of a plan: its pod and the PodLevelResources gate of its rules. */
export function resizeContextOf(ctx: { pod: Pod; rules: { gates: { PodLevelResources: boolean } } }): ResizeContext {
  return { pod: ctx.pod, podLevelResources: ctx.rules.gates.PodLevelResources };
}

/** The CRI values kubelet would write for the container's spec, at the runtime's CFS period. */
export function desiredResources(c: Container, periodUs: number, ctx: ResizeContext): ContainerResources {
  const v = containerCpuMemory(ctx.pod, c, ctx.podLevelResources);
  return {
    cpuShares: milliCPUToShares(v.cpuRequest ?? v.cpuLimit),
    cpuQuota: milliCPUToQuota(v.cpuLimit, periodUs),
    cpuPeriod: periodUs,
    memoryLimitInBytes: v.memoryLimit,
  };
}

/**
 * Returns whether the container is kept (kubelet's keepContainer). Without a runtime report there
 * is nothing to compare, and the container is kept.
 */
export function computePodResizeAction(
  c: Container,
  idx: number,
  kind: 'regular' | 'init',
  s: ContainerStatus,
  changes: Changes,
  ctx: ResizeContext,
): boolean {
  const current = s.resources;
  if (!current) return true;
  const desired = desiredResources(c, current.cpuPeriod > 0 ? current.cpuPeriod : QUOTA_PERIOD_US, ctx);
  const changed: Array<'cpu' | 'memory'> = [];
  if (desired.cpuShares !== current.cpuShares || desired.cpuQuota !== current.cpuQuota) changed.push('cpu');
  if (desired.memoryLimitInBytes !== current.memoryLimitInBytes) changed.push('memory');
  if (changed.length === 0) return true;
  const policy = (r: string) => c.resizePolicy?.find((p) => p.resourceName === r)?.restartPolicy ?? 'NotRequired';
  if (changed.some((r) => policy(r) === 'RestartContainer')) {
    changes.containersToKill.set(s.id, {
      containerId: s.id,
      name: c.name,
      kind,
      message: `Container ${c.name} resize requires restart`,
      reason: '',
      why: 'resize-restart',
    });
    const decision = { index: idx, name: c.name, reason: { code: 'resize-restart' as const, resized: changed } };
    if (kind === 'init') changes.initContainersToStart.push(decision);
    else changes.containersToStart.push(decision);
    return false;
  }
  const update: ContainerToUpdate = {
    index: idx,
    name: c.name,
    kind,
    containerId: s.id,
    resources: changed,
    current,
    desired,
  };
  changes.containersToUpdate.push(update);
  return true;
}
