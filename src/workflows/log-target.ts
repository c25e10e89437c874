// Which log file `logs` reads: the container named by an ID prefix or by `--pod NAME [-n NS]
// --container NAME` (the resolution exec and attach use, src/state/targets.ts; a pod whose sandbox
// is no longer ready still shows its logs), and with --previous the instance before it
// (src/logs/previous.ts: a listed earlier container, else the removed one's <attempt-1> log file).
import type { RuntimeService } from '../cri/grpc-runtime-service';
import { previousInstance } from '../logs/previous';
import { checkContainerTarget, resolveContainerTarget, type TargetFlags } from '../state/targets';
import { runtimeLister } from '../stream/lister';

export interface LogTarget {
  /** The container whose status names the log file. */
  containerId: string;
  /** Set when the previous instance is gone: read the current log path with this attempt. */
  previousAttempt?: number;
}

/** Refuses a target without a container before the runtime is asked (the checks exec's resolution makes). */
export function checkLogTarget(flags: TargetFlags): void {
  checkContainerTarget(flags);
}

export async function logTarget(runtime: RuntimeService, flags: TargetFlags, previous: boolean): Promise<LogTarget> {
  const lister = runtimeLister(runtime);
  const c = await resolveContainerTarget(lister, flags, { notReady: true });
  if (!previous) return { containerId: c.id };
  const p = previousInstance(await lister.listContainers(c.podSandboxId), c.id);
  return 'attempt' in p ? { containerId: p.containerId, previousAttempt: p.attempt } : { containerId: p.containerId };
}
