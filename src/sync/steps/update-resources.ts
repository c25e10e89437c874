// SyncPod step 8, in-place resize (kuberuntime_manager.go doPodResizeAction, kubelet 1.37):
// UpdateContainerResources with the Linux values kubelet writes for the spec.
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
  const want = u.resources;
  const linux = {
    ...emptyLinuxResources(),
    cpuShares: String(want.cpuShares),
    cpuQuota: String(want.cpuQuota),
    cpuPeriod: String(want.cpuPeriod),
    memoryLimitInBytes: String(want.memoryLimitInBytes),
  };
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
