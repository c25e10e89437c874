// `syncpod exec`: the handler (flags in ./command.ts, man page text in ./man.ts).
import type { Context } from '../../context';
import type { ExecOptions } from './command';
import { execInContainer } from '../../../stream/exec';
import { parseGoDuration } from '../../../config/duration';
import { MAX_TIMEOUT_MS } from '../../../config/settings';
import { SyncpodError } from '../../../errors';
import { withInterrupt } from '../../signals';
import { EOF_LINGER_MS, deps, target } from '../../stream-target';

/** --timeout for exec -s: whole seconds as crictl (10), or a duration (1m30s). */
function execTimeoutSeconds(value: string | undefined): number {
  if (value === undefined) return 0;
  const ns = /^\d+$/.test(value) ? Number(value) * 1e9 : parseGoDuration(value);
  if (ns === undefined || ns < 0)
    throw new SyncpodError(`--timeout: expected seconds or a duration like 30s, got ${JSON.stringify(value)}`);
  // ExecSync's timeout is int64 seconds, and syncpod waits for it: at most what a timer holds.
  if (ns / 1e6 > MAX_TIMEOUT_MS)
    throw new SyncpodError(`--timeout: at most ${Math.floor(MAX_TIMEOUT_MS / 3.6e6)}h, got ${JSON.stringify(value)}`);
  return Math.ceil(ns / 1e9);
}

export async function exec(ctx: Context, args: string[], opts: ExecOptions): Promise<number> {
  const { target: t, rest } = target(args, opts);
  if (rest[0] === '--') rest.shift(); // kubectl's `exec ID -- CMD`
  const timeoutSeconds = execTimeoutSeconds(opts.timeout);
  if (opts.timeout !== undefined && !opts.sync) throw new SyncpodError('--timeout applies to exec -s (ExecSync) only');
  return withInterrupt((signal) =>
    execInContainer(deps(ctx, signal), {
      target: t,
      cmd: rest,
      stdin: !!opts.interactive,
      tty: !!opts.tty,
      sync: !!opts.sync,
      timeoutSeconds,
      eofLingerMs: EOF_LINGER_MS,
    }),
  );
}
