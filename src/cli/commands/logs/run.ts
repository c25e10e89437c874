// logs: a container's log file read as crictl does (the runtime names the file); the container by ID
// or, as kubectl, by --pod NAME [-n NS] --container NAME (src/workflows/log-target.ts).
import type { Context } from '../../context';
import { nowNs } from '../../output';
import { SyncpodError } from '../../../errors';
import { readLogs } from '../../../logs/reader';
import { onHost } from '../../../config/host-root';
import { parseSince } from '../../../logs/since';
import { previousLogPath } from '../../../logs/previous';
import { checkLogTarget, logTarget } from '../../../workflows/log-target';
import { target as targetOf } from '../../stream-target';
import type { LogsOptions } from './command';

export async function logs(ctx: Context, args: string[], opts: LogsOptions): Promise<number> {
  // Bad flags are refused before the runtime is asked.
  if (opts.pod !== undefined && args[0] !== undefined)
    throw new SyncpodError(
      `give a container ID or --pod NAME --container NAME, not both (got ${args[0]} and --pod ${opts.pod})`,
    );
  const { target } = targetOf(args, opts);
  checkLogTarget(target);
  if (opts.stream !== undefined && opts.stream !== 'stdout' && opts.stream !== 'stderr')
    throw new SyncpodError(`--stream: must be stdout or stderr, got "${opts.stream}"`);
  const tail = typeof opts.tail === 'number' && opts.tail >= 0 ? opts.tail : undefined;
  const sinceNs = opts.since ? parseSince(String(opts.since), nowNs(ctx), -new Date().getTimezoneOffset()) : undefined;
  const { runtime } = ctx.cri();
  const { containerId, previousAttempt } = await logTarget(runtime, target, !!opts.previous);
  if (opts.reopen) await runtime.call('ReopenContainerLog', { containerId });
  const st = await runtime.call('ContainerStatus', { containerId, verbose: false });
  const logPath = st.status?.logPath ?? '';
  if (!logPath)
    throw new SyncpodError(`container ${containerId.slice(0, 13)} has no log path (the runtime reported none)`);
  const path = previousAttempt === undefined ? logPath : previousLogPath(logPath, previousAttempt);
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.once('SIGINT', onSigint);
  try {
    await readLogs({
      path: onHost(ctx.settings().hostRoot, path),
      tail,
      sinceNs,
      timestamps: !!opts.timestamps,
      limitBytes: opts.limitBytes > 0 ? opts.limitBytes : undefined,
      stream: opts.stream as 'stdout' | 'stderr' | undefined,
      follow: !!opts.follow,
      isRunning: async () => {
        try {
          const s = await runtime.call('ContainerStatus', { containerId, verbose: false });
          return s.status?.state === 'CONTAINER_RUNNING';
        } catch {
          return false;
        }
      },
      stdout: { write: (chunk) => void ctx.io.stdout.write(chunk) },
      stderr: { write: (chunk) => void ctx.io.stderr.write(chunk) },
      warn: (m) => ctx.debug(m),
      signal: abort.signal,
    } as Parameters<typeof readLogs>[0]);
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
  return 0;
}
