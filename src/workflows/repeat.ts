// `plan --node --every DURATION`: run the same node plan again and again (a DaemonSet's container
// must keep running; kubelet restarts one that exits). A run that fails is reported and the loop
// goes on (the runtime may be restarting); SIGTERM or SIGINT ends it between or during waits.

export interface RepeatDeps {
  /** Resolves after `ms`, or early when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  signal: AbortSignal;
  onError(err: unknown): void;
}

/** Runs `once` now and every `intervalMs` after each run started, until the signal aborts. */
export async function repeatEvery(
  intervalMs: number,
  once: () => Promise<void>,
  deps: RepeatDeps,
  now: () => number,
): Promise<number> {
  let runs = 0;
  while (!deps.signal.aborted) {
    const started = now();
    try {
      await once();
    } catch (err) {
      deps.onError(err);
    }
    runs++;
    const wait = Math.max(0, intervalMs - (now() - started));
    if (!deps.signal.aborted) await deps.sleep(wait, deps.signal);
  }
  return runs;
}
