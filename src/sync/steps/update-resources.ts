// SyncPod's in-place resize (kuberuntime_manager.go doPodResizeAction, k8s.io/kubernetes v1.37.2):
// UpdateContainerResources with the Linux values kubelet writes, and (1.34+) UpdatePodSandboxResources.
import { Status } from '../../cri/grpc-client';
import { CriCallError } from '../../cri/grpc-runtime-service';
import { errorLine } from '../../errors';
import { emptyLinuxResources } from '../../kubelet/resources';
import type { PlanStep } from '../../plan/plan';
import { StepError } from '../types';
import type { StepContext } from './step-context';

export interface UpdateResourcesInput {
  containerId: string;
  name: string;
  resources: NonNullable<PlanStep['resources']>;
}

/** Throws UpdateContainerResourcesError. */
export async function updateContainerResources(c: StepContext, u: UpdateResourcesInput): Promise<void> {
  const linux = linuxOf(u.resources);
  try {
    await c.rt.call(
      'UpdateContainerResources',
      { containerId: u.containerId, linux },
      { timeoutMs: c.requestTimeoutMs },
    );
  } catch (err) {
    throw new StepError(
      'UpdateContainerResourcesError',
      `failed to resize container ${u.name} (${u.containerId.slice(0, 13)}): ${errorLine(err)}`,
    );
  }
  c.notes.push(`resized ${u.name} ${u.containerId.slice(0, 13)}`);
}

export interface UpdatePodResourcesInput {
  sandboxId: string;
  resources: NonNullable<PlanStep['resources']>;
  overhead: NonNullable<PlanStep['overhead']>;
  resource: 'memory' | 'cpu';
  /** 1.36+: a failure other than "not implemented" rejects the resize; 1.34/1.35 ignore every failure. */
  rejects: boolean;
}

const linuxOf = (r: NonNullable<PlanStep['resources']>) => ({
  ...emptyLinuxResources(),
  cpuShares: String(r.cpuShares),
  cpuQuota: String(r.cpuQuota),
  cpuPeriod: String(r.cpuPeriod),
  memoryLimitInBytes: String(r.memoryLimitInBytes),
});

/**
 * UpdatePodSandboxResources (kuberuntime_container.go updatePodSandboxResources): a runtime that
 * answers Unimplemented (or containerd 2.2's Unknown "not implemented") is skipped, as kubelet does.
 * Throws UpdatePodSandboxResourcesError when kubelet would reject the resize.
 */
export async function updatePodSandboxResources(c: StepContext, u: UpdatePodResourcesInput): Promise<void> {
  try {
    await c.rt.call(
      'UpdatePodSandboxResources',
      { podSandboxId: u.sandboxId, overhead: linuxOf(u.overhead), resources: linuxOf(u.resources) },
      { timeoutMs: c.requestTimeoutMs },
    );
  } catch (err) {
    const unimplemented =
      err instanceof CriCallError &&
      (err.code === Status.UNIMPLEMENTED || (err.code === Status.UNKNOWN && err.details.includes('not implemented')));
    if (unimplemented || !u.rejects) {
      c.notes.push(
        `UpdatePodSandboxResources (${u.resource}) ${unimplemented ? 'not implemented by the runtime' : `failed (${errorLine(err)})`}: skipped, as kubelet does`,
      );
      return;
    }
    throw new StepError(
      'UpdatePodSandboxResourcesError',
      `the runtime rejected the pod's ${u.resource} resize (UpdatePodSandboxResources): ${errorLine(err)}`,
    );
  }
  c.notes.push(`pod ${u.resource} resources updated (sandbox ${u.sandboxId.slice(0, 13)})`);
}
