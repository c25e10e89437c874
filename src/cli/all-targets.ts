// -a/--all of the removal commands (stop, rm, rmp, rmi): every object of the kind, previewed on
// stderr before anything goes.
import type { Context } from './context';
import { SyncpodError } from '../errors';

/**
 * -a/--all: every object of the kind, after a preview on stderr of what is about to go (one line
 * per object; with --dry-run the requests are printed instead and nothing is sent).
 */
export async function allOrGiven(ctx: Context, args: string[], all: boolean | undefined, list: () => Promise<Array<{ id: string; label: string }>>, resolve: (given: string[]) => Promise<string[]>, what: string, dryRun: boolean): Promise<string[]> {
  if (!all) {
    if (args.length === 0) throw new SyncpodError(`ID cannot be empty (name ${what}s, or -a for all)`);
    return resolve(args);
  }
  if (args.length > 0) throw new SyncpodError(`-a takes no IDs (got ${args.join(', ')})`);
  const items = await list();
  if (!dryRun) {
    ctx.io.stderr.write(`${items.length} ${what}${items.length === 1 ? '' : 's'} to go${items.length ? ':' : ''}\n`);
    for (const i of items) ctx.io.stderr.write(`  ${i.id.replace(/^sha256:/, '').slice(0, 13)}  ${i.label}\n`);
  }
  return items.map((i) => i.id);
}

export async function allContainers(ctx: Context, state?: 'CONTAINER_RUNNING'): Promise<Array<{ id: string; label: string }>> {
  const { containers } = await ctx.cri().runtime.call('ListContainers', state ? { filter: { state: { state } } } : {});
  return containers
    .map((c) => ({ id: c.id, label: `${c.metadata?.name ?? ''} (pod ${c.labels['io.kubernetes.pod.namespace'] ?? ''}/${c.labels['io.kubernetes.pod.name'] ?? c.podSandboxId.slice(0, 13)}, ${c.state.replace('CONTAINER_', '').toLowerCase()})`, c }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

export async function allSandboxes(ctx: Context): Promise<Array<{ id: string; label: string }>> {
  const { items } = await ctx.cri().runtime.call('ListPodSandbox', {});
  return items
    .map((p) => ({ id: p.id, label: `${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''} (${p.state === 'SANDBOX_READY' ? 'ready' : 'not ready'})` }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}
