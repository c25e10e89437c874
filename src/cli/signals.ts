// Ctrl-C for long-running commands (exec, attach, port-forward, stats -w): an AbortSignal instead
// of the default exit, so terminals are restored and connections closed before syncpod ends.

/** Runs `body` with a signal that fires on SIGINT; the handler is removed afterwards. */
export async function withInterrupt<T>(body: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const abort = new AbortController();
  const handler = () => abort.abort();
  process.on('SIGINT', handler);
  try {
    return await body(abort.signal);
  } finally {
    process.removeListener('SIGINT', handler);
  }
}

/** Resolves after `ms`, or as soon as `signal` fires (the one abortable sleep, from logs -f). */
export { defaultSleep as sleep } from '../logs/reader';

export interface SyncInterruption {
  /** Why the operator stopped it ('interrupted by SIGINT'), once they did. */
  why(): string | undefined;
  /** 128 + the signal's number (130 for SIGINT, 143 for SIGTERM), once interrupted. */
  exitCode(): number | undefined;
  dispose(): void;
}

const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

/**
 * SIGINT or SIGTERM during a sync: the first one lets the step under way finish, begins no other, and
 * the sync ends with its report and its lock released; a second one ends the process as the signal would.
 */
export function interruptSync(note: (line: string) => void): SyncInterruption {
  let got: NodeJS.Signals | undefined;
  const onSignal = (sig: NodeJS.Signals) => {
    if (got) {
      dispose();
      process.kill(process.pid, sig);
      return;
    }
    got = sig;
    note(`syncpod: ${sig}: finishing the step under way, then stopping (${sig} again stops at once)`);
  };
  const dispose = () => {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    why: () => (got ? `interrupted by ${got}` : undefined),
    exitCode: () => (got ? SIGNAL_EXIT[got] : undefined),
    dispose,
  };
}
