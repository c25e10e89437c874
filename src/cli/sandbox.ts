// Pod sandbox read commands: pods, inspectp.
import type { Context } from './context';
import { LIST_OUTPUTS, STATUS_OUTPUTS, nowNs, parseOutput, protoJSON, statusOutput } from './output';
import { resolveIdPrefix } from '../state/filters';
import { listPods } from '../workflows/look-lists';
import { SyncpodError } from '../errors';
import { formatPods } from '../render/pods-view';
import { formatInspectPods } from '../render/inspect-view';
import { formatPodStatusTable } from '../render/inspect-table';
import { formatPodsVerbose } from '../render/verbose-list';
import { systemZone } from '../render/text';
import type { InspectpOptions, PodsOptions } from './commands';

export async function pods(ctx: Context, _args: string[], opts: PodsOptions): Promise<number> {
  const output = parseOutput(opts.output, LIST_OUTPUTS);
  const flags = { id: opts.id, name: opts.name, namespace: opts.namespace, state: opts.state, labels: opts.label, latest: opts.latest, last: opts.last };
  const items = await listPods(ctx.cri().runtime, flags);
  if (opts.verbose && output === 'table' && !opts.quiet) {
    ctx.io.stdout.write(formatPodsVerbose(items, systemZone));
    return 0;
  }
  ctx.io.stdout.write(
    formatPods(items, { output, quiet: opts.quiet, noTrunc: opts.trunc === false, nowNs: nowNs(ctx), colours: ctx.colours, toJSON: protoJSON(ctx) }),
  );
  return 0;
}

/**
 * inspectp/inspect/inspecti without ids (crictl >= 1.31): the ids the filter flags keep. Without
 * any filter flag it stays crictl 1.26's error rather than inspecting everything; when the filters
 * keep nothing it is an error too (crictl logs it and exits 0 with help).
 */
export async function filteredIds(flags: object, list: () => Promise<string[]>): Promise<string[]> {
  const given = Object.values(flags).some((v) => (Array.isArray(v) ? v.length > 0 : v !== undefined && v !== false && v !== 0));
  if (!given) throw new SyncpodError('ID cannot be empty (or select with the filter flags, see --help)');
  const ids = await list();
  if (ids.length === 0) throw new SyncpodError('No IDs provided or nothing found per filter');
  return ids;
}

/** Full sandbox ids for user-given ids or unique prefixes (one List for all of them). */
export async function resolveSandboxIds(ctx: Context, given: string[]): Promise<string[]> {
  const { items } = await ctx.cri().runtime.call('ListPodSandbox', {});
  const ids = items.map((p) => p.id);
  return given.map((g) => resolveIdPrefix(g, ids, 'pod sandbox'));
}

export async function inspectp(ctx: Context, args: string[], opts: InspectpOptions): Promise<number> {
  const output = statusOutput(opts.output, opts.template, STATUS_OUTPUTS);
  const { runtime } = ctx.cri();
  const flags = { name: opts.name, namespace: opts.namespace, state: opts.state, labels: opts.label, latest: opts.latest, last: opts.last };
  const ids = args.length ? await resolveSandboxIds(ctx, args) : await filteredIds(flags, async () => (await listPods(runtime, flags)).map((p) => p.id));
  const responses = [];
  for (const id of ids) responses.push(await runtime.call('PodSandboxStatus', { podSandboxId: id, verbose: !opts.quiet }));
  if (output === 'table') ctx.io.stdout.write(formatPodStatusTable(responses, { zone: systemZone, verbose: !opts.quiet }));
  else ctx.io.stdout.write(formatInspectPods(responses, { output, template: opts.template, toJSON: protoJSON(ctx), zone: systemZone }));
  return 0;
}
