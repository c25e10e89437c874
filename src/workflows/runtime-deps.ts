// The executor's dependencies on a real node: the CRI services the invocation opened, the node
// filesystem, the system clock, kubelet's deadlines. Flows take ExecuteDeps; this builds them.
import { randomBytes } from 'node:crypto';
import type { ImageService, RuntimeService } from '../cri/grpc-runtime-service';
import type { ExecuteDeps } from '../sync/execute';
import { nodeFs } from '../sync/node-fs';
import type { SyncFs } from '../sync/types';
import type { Clock } from '../sync/types';

/** kubelet's runtimeRequestTimeout default: the deadline of mutating runtime calls. */
export const RUNTIME_REQUEST_TIMEOUT_MS = 2 * 60 * 1000;
/** The deadline of PullImage. */
export const PULL_TIMEOUT_MS = 30 * 60 * 1000;

export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  sleep: sleepMs,
};

/** setTimeout fires at once past 2^31-1 ms (about 24.8 days); a longer sleep (a hook's) waits in pieces. */
async function sleepMs(ms: number): Promise<void> {
  const MAX_TIMER_MS = 2 ** 31 - 1;
  for (let left = ms; left > 0; left -= MAX_TIMER_MS)
    await new Promise((r) => setTimeout(r, Math.min(left, MAX_TIMER_MS)));
}

/** Mutating calls get kubelet's 2 minutes, or the CRI deadline when that is longer. */
export function requestTimeoutMs(callTimeoutMs: number): number {
  return Math.max(callTimeoutMs, RUNTIME_REQUEST_TIMEOUT_MS);
}

/** `fs`: the node's filesystem (nodeFsUnder(--host-root) in a DaemonSet). */
export function executeDeps(
  cri: { runtime: RuntimeService; image: ImageService },
  callTimeoutMs: number,
  clock: Clock = systemClock,
  fs: SyncFs = nodeFs,
): ExecuteDeps {
  return {
    runtime: cri.runtime,
    image: cri.image,
    fs,
    clock,
    randomHex: () => randomBytes(4).toString('hex'),
    requestTimeoutMs: requestTimeoutMs(callTimeoutMs),
    pullTimeoutMs: PULL_TIMEOUT_MS,
  };
}
