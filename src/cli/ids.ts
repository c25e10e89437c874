// Id arguments shared by the commands that take sandbox or container ids: unique prefixes resolved
// with one List, and crictl >= 1.31's selection by filter flags when no id is given.
import type { Context } from './context';
import { SyncpodError } from '../errors';
import { resolveIdPrefix, type ContainerListFlags } from '../state/filters';
import type { InspectOptions } from './commands/inspect/command';
import type { PsOptions } from './commands/ps/command';

/** The filter flags ps and inspect share, as the list workflow takes them. */
export function containerListFlags(opts: PsOptions | InspectOptions): ContainerListFlags {
  const { all, pod, name, namespace, state, image, label, latest, last } = opts;
  return { all, pod, name, namespace, state, image, labels: label, latest, last };
}

/**
 * inspectp/inspect/inspecti without ids (crictl >= 1.31): the ids the filter flags keep. Without
 * any filter flag it stays crictl 1.26's error rather than inspecting everything; when the filters
 * keep nothing it is an error too (crictl logs it and exits 0 with help).
 */
export async function filteredIds(flags: object, list: () => Promise<string[]>): Promise<string[]> {
  const given = Object.values(flags).some((v) =>
    Array.isArray(v) ? v.length > 0 : v !== undefined && v !== false && v !== 0,
  );
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

/** Full container ids for user-given ids or unique prefixes (one List for all of them). */
export async function resolveContainerIds(ctx: Context, given: string[]): Promise<string[]> {
  const { containers } = await ctx.cri().runtime.call('ListContainers', {});
  const ids = containers.map((c) => c.id);
  return given.map((g) => resolveIdPrefix(g, ids, 'container'));
}
