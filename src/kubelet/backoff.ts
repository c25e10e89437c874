// Crash-loop back-off estimate, mirroring kubelet 1.28 and 1.33 defaults (client-go flowcontrol.Backoff:
// 10 s initial, doubling, 300 s cap, entry reset when the last start is more than 2 × cap old).
// Kubelet keeps the table in memory, so this is an estimate from what CRI shows: the restart count and
// the start/finish times of the newest exited instance. Pure: `now` is an input.

export const BACKOFF_INITIAL_SECONDS = 10;
export const BACKOFF_MAX_SECONDS = 300;

export interface BackOffInput {
  /** restartCount annotation of the newest exited instance. */
  restartCount: number;
  /** Milliseconds since the epoch; 0 when unknown. */
  startedAt: number;
  finishedAt: number;
  now: number;
  initialSeconds?: number;
  maxSeconds?: number;
}

export interface BackOffEstimate {
  /** Delay kubelet would apply after this exit, in seconds (0: restart at once). */
  delaySeconds: number;
  /** Whether a restart would currently be refused with CrashLoopBackOff. */
  heldBack: boolean;
  /** Seconds until the delay has passed (0 when not held back). */
  remainingSeconds: number;
  /** Seconds since the instance finished. */
  sinceFinishedSeconds: number;
  /** True when the instance ran longer than 2 × cap, so kubelet would have reset its entry. */
  reset: boolean;
}

/**
 * Delay after the (restartCount+1)-th exit in a row: 0 for the first exit, then initial × 2^(n-1),
 * capped. An instance that ran for more than 2 × cap resets the sequence (delay 0).
 */
export function estimateCrashLoopBackOff(input: BackOffInput): BackOffEstimate {
  const initial = input.initialSeconds ?? BACKOFF_INITIAL_SECONDS;
  const max = input.maxSeconds ?? BACKOFF_MAX_SECONDS;
  const ranSeconds = input.startedAt > 0 && input.finishedAt > 0 ? (input.finishedAt - input.startedAt) / 1000 : 0;
  const reset = ranSeconds > 2 * max;
  let delay = 0;
  if (!reset && input.restartCount > 0) {
    delay = Math.min(initial, max);
    for (let i = 1; i < input.restartCount && delay < max; i++) delay = Math.min(delay * 2, max);
  }
  const since = input.finishedAt > 0 ? Math.max(0, (input.now - input.finishedAt) / 1000) : Number.POSITIVE_INFINITY;
  const heldBack = delay > 0 && since < delay;
  return {
    delaySeconds: delay,
    heldBack,
    remainingSeconds: heldBack ? Math.ceil(delay - since) : 0,
    sinceFinishedSeconds: Number.isFinite(since) ? Math.floor(since) : 0,
    reset,
  };
}
