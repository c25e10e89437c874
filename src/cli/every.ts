// `--every DURATION` of `plan --node` and `doctor` (the DaemonSet's containers): the interval, and
// the loop that runs one report per interval until SIGTERM or SIGINT.
import type { Context } from './context';
import { SyncpodError, errorLine } from '../errors';
import { parseGoDuration } from '../config/duration';
import { MAX_TIMEOUT_MS } from '../config/settings';
import { repeatEvery } from '../workflows/repeat';
import { sleep } from './signals';

/**
 * --every as milliseconds: a Go duration from 1s to the longest timer Node keeps (a longer one
 * fires at once: runs in a tight loop); not with -o npd.
 */
export function everyMs(every: unknown, output: string): number {
  const ns = parseGoDuration(String(every));
  if (ns === undefined || ns < 1e9 || ns / 1e6 > MAX_TIMEOUT_MS) {
    throw new SyncpodError(
      `--every: "${every}" is not a duration between 1s and ${Math.floor(MAX_TIMEOUT_MS / 3.6e6)}h (e.g. 10m)`,
    );
  }
  if (output === 'npd')
    throw new SyncpodError('--every cannot be used with -o npd (node-problem-detector runs the plugin itself)');
  return ns / 1e6;
}

/**
 * Runs `once` every `ms` until SIGTERM or SIGINT, then returns 0; a run that fails is said on
 * stderr in one line and the next one comes as planned.
 */
export async function everyUntilSignalled(
  ctx: Pick<Context, 'io' | 'now'>,
  ms: number,
  once: () => Promise<void>,
): Promise<number> {
  const abort = new AbortController();
  const stop = (): void => abort.abort();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    await repeatEvery(
      ms,
      once,
      { signal: abort.signal, sleep, onError: (err) => ctx.io.stderr.write(`syncpod: ${errorLine(err)}\n`) },
      () => ctx.now(),
    );
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
  }
  return 0;
}
