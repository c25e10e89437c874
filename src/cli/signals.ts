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
