// computePodResizeAction of pkg/kubelet/kuberuntime/kuberuntime_manager.go (kubelet 1.33–1.37 with
// InPlacePodVerticalScaling; read in natasha41575/kubernetes@1a51be50 pkg/kubelet/kuberuntime/kuberuntime_manager.go).
// Kubelet compares the allocated resources with its own actuated checkpoint (actuated_pods_state),
// which syncpod cannot read: syncpod compares with what the runtime reports, so a change of the
// memory request alone (not in CRI's resources) is not seen. A running container whose CPU or memory differs from what the runtime
// reports is resized in place (containersToUpdate) or, when its resizePolicy for a changed
// resource says RestartContainer, killed and started again. The desired values are the spec's
// (kubelet's allocated resources, assumed admitted); the current ones are the runtime's report
// (CRI ContainerStatus.resources). Pure.

import type { Container } from './api-types';
import type { Changes, ContainerToUpdate } from './pod-actions';
import { containerAmounts, milliCPUToQuota, milliCPUToShares, QUOTA_PERIOD_US } from './resources';
import { toBytes, toMilliCPU } from './quantity';
import type { ContainerResources, ContainerStatus } from './types';

/** The CRI values kubelet would write for the container's spec, at the runtime's CFS period. */
export function desiredResources(c: Container, periodUs: number): ContainerResources {
  const { requests, limits } = containerAmounts(c);
  const cpuReq = requests.get('cpu');
  const cpuLim = limits.get('cpu');
  const memLim = limits.get('memory');
  const limitMilli = cpuLim ? toMilliCPU(cpuLim) : 0;
  return {
    cpuShares: milliCPUToShares(cpuReq ? toMilliCPU(cpuReq) : limitMilli),
    cpuQuota: milliCPUToQuota(limitMilli, periodUs),
    cpuPeriod: periodUs,
    memoryLimitInBytes: memLim ? toBytes(memLim) : 0,
  };
}

/**
 * Returns whether the container is kept (kubelet's keepContainer). Without a runtime report there
 * is nothing to compare, and the container is kept.
 */
export function computePodResizeAction(c: Container, idx: number, kind: 'regular' | 'init', s: ContainerStatus, changes: Changes): boolean {
  const current = s.resources;
  if (!current) return true;
  const desired = desiredResources(c, current.cpuPeriod > 0 ? current.cpuPeriod : QUOTA_PERIOD_US);
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
  const update: ContainerToUpdate = { index: idx, name: c.name, kind, containerId: s.id, resources: changed, current, desired };
  changes.containersToUpdate.push(update);
  return true;
}
