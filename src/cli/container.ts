// Container read commands: ps, inspect, logs.
import type { Context } from './context';
import { LIST_OUTPUTS, STATUS_OUTPUTS, nowNs, parseOutput, protoJSON, statusOutput } from './output';
import { formatContainerStatusTable } from '../render/inspect-table';
import { formatContainersVerbose } from '../render/verbose-list';
import { resolveIdPrefix, type ContainerListFlags } from '../state/filters';
import { listContainers, repoTagsOf } from '../workflows/look-lists';
import { filteredIds } from './sandbox';
import { formatContainers, shortImage } from '../render/containers-view';
import { formatInspectContainers } from '../render/inspect-view';
import { systemZone } from '../render/text';
import { SyncpodError } from '../errors';
import { readLogs } from '../logs/reader';
import { onHost } from '../config/host-root';
import { parseSince } from '../logs/since';
import { previousLogPath } from '../logs/previous';
import type { InspectOptions, LogsOptions, PsOptions } from './commands';

/** The filter flags ps and inspect share, as the list workflow takes them. */
function containerListFlags(opts: PsOptions | InspectOptions): ContainerListFlags {
  const { all, pod, name, namespace, state, image, label, latest, last } = opts;
  return { all, pod, name, namespace, state, image, labels: label, latest, last };
}

export async function ps(ctx: Context, _args: string[], opts: PsOptions): Promise<number> {
  const output = parseOutput(opts.output, LIST_OUTPUTS);
  const { runtime, image } = ctx.cri();
  const containers = await listContainers(runtime, image, { ...containerListFlags(opts), id: opts.id });
  if (opts.verbose && output === 'table' && !opts.quiet) {
    ctx.io.stdout.write(formatContainersVerbose(containers, nowNs(ctx)));
    return 0;
  }
  let repoImageOf: ((shown: string) => string) | undefined;
  if (opts.resolveImagePath && output === 'table' && !opts.quiet) {
    const tags = await repoTagsOf(image, containers);
    const byShown = new Map<string, string>();
    for (const [ref, tag] of tags) if (tag) byShown.set(opts.trunc === false ? ref : shortImage(ref), tag);
    repoImageOf = (shown) => byShown.get(shown) ?? shown;
  }
  ctx.io.stdout.write(
    formatContainers(containers, {
      output,
      quiet: opts.quiet,
      noTrunc: opts.trunc === false,
      nowNs: nowNs(ctx),
      colours: ctx.colours,
      toJSON: protoJSON(ctx),
      repoImageOf,
    }),
  );
  return 0;
}

/** Full container ids for user-given ids or unique prefixes (one List for all of them). */
export async function resolveContainerIds(ctx: Context, given: string[]): Promise<string[]> {
  const { containers } = await ctx.cri().runtime.call('ListContainers', {});
  const ids = containers.map((c) => c.id);
  return given.map((g) => resolveIdPrefix(g, ids, 'container'));
}

export async function inspect(ctx: Context, args: string[], opts: InspectOptions): Promise<number> {
  const output = statusOutput(opts.output, opts.template, STATUS_OUTPUTS);
  const { runtime, image } = ctx.cri();
  const flags = containerListFlags(opts);
  const ids = args.length ? await resolveContainerIds(ctx, args) : await filteredIds(flags, async () => (await listContainers(runtime, image, flags)).map((c) => c.id));
  const responses = [];
  for (const id of ids) responses.push(await runtime.call('ContainerStatus', { containerId: id, verbose: !opts.quiet }));
  if (output === 'table') ctx.io.stdout.write(formatContainerStatusTable(responses, { nowNs: nowNs(ctx), verbose: !opts.quiet }));
  else ctx.io.stdout.write(formatInspectContainers(responses, { output, template: opts.template, toJSON: protoJSON(ctx), zone: systemZone }));
  return 0;
}

export async function logs(ctx: Context, args: string[], opts: LogsOptions): Promise<number> {
  const { runtime } = ctx.cri();
  // One list serves both the id prefix and, with --previous, the search for the earlier instance.
  const { containers } = await runtime.call('ListContainers', {});
  const id = resolveIdPrefix(args[0], containers.map((c) => c.id), 'container');
  let target = id;
  let previousAttempt: number | undefined;
  if (opts.previous) {
    // The previous instance: same pod, same container name, the newest one created before this.
    const current = containers.find((c) => c.id === id)!;
    const previous = containers
      .filter((c) => c.podSandboxId === current.podSandboxId && c.metadata?.name === current.metadata?.name && BigInt(c.createdAt) < BigInt(current.createdAt))
      .sort((a, b) => (BigInt(b.createdAt) > BigInt(a.createdAt) ? 1 : -1))[0];
    if (previous) target = previous.id;
    else if ((current.metadata?.attempt ?? 0) > 0) previousAttempt = current.metadata!.attempt - 1; // removed: crictl's <attempt-1> log file
    else throw new SyncpodError(`container ${id.slice(0, 13)} has no previous instance in its pod (previous terminated container ${current.metadata?.name ?? ''} not found)`);
  }
  if (opts.stream !== undefined && opts.stream !== 'stdout' && opts.stream !== 'stderr') throw new SyncpodError(`--stream: must be stdout or stderr, got "${opts.stream}"`);
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
