// logs: a container's log file read as crictl does (the runtime names the file).
import type { Context } from '../../context';
import { nowNs } from '../../output';
import { resolveIdPrefix } from '../../../state/filters';
import { SyncpodError } from '../../../errors';
import { readLogs } from '../../../logs/reader';
import { onHost } from '../../../config/host-root';
import { parseSince } from '../../../logs/since';
import { previousInstance, previousLogPath } from '../../../logs/previous';
import type { LogsOptions } from './command';

export async function logs(ctx: Context, args: string[], opts: LogsOptions): Promise<number> {
  const { runtime } = ctx.cri();
  // One list serves both the id prefix and, with --previous, the search for the earlier instance.
  const { containers } = await runtime.call('ListContainers', {});
  const id = resolveIdPrefix(
    args[0],
    containers.map((c) => c.id),
    'container',
  );
  let target = id;
  let previousAttempt: number | undefined;
  if (opts.previous) {
    const p = previousInstance(containers, id);
    target = p.containerId;
    if ('attempt' in p) previousAttempt = p.attempt; // removed: crictl's <attempt-1> log file
  }
  if (opts.stream !== undefined && opts.stream !== 'stdout' && opts.stream !== 'stderr')
    throw new SyncpodError(`--stream: must be stdout or stderr, got "${opts.stream}"`);
  if (opts.reopen) await runtime.call('ReopenContainerLog', { containerId: target });
  const st = await runtime.call('ContainerStatus', { containerId: target, verbose: false });
  const logPath = st.status?.logPath ?? '';
  if (!logPath) throw new SyncpodError(`container ${target.slice(0, 13)} has no log path (the runtime reported none)`);
  const path = previousAttempt === undefined ? logPath : previousLogPath(logPath, previousAttempt);
  const tail = typeof opts.tail === 'number' && opts.tail >= 0 ? opts.tail : undefined;
  const sinceNs = opts.since ? parseSince(String(opts.since), nowNs(ctx), -new Date().getTimezoneOffset()) : undefined;
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
          const s = await runtime.call('ContainerStatus', { containerId: target, verbose: false });
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
