// -a/--all of the removal commands (stop, rm, rmp, rmi): every object of the kind, previewed on
// stderr before anything goes. stop/rm/rmp know kubelet: with --node the sandboxes and containers
// of the pods this node should run are kept (src/workflows/node-owners.ts); without it, a running
// kubelet is named in a warning when objects it made are about to go (it would start them again).
import type { Context } from './context';
import { SyncpodError } from '../errors';
import { ownersOnNode, podUidOf } from '../workflows/node-owners';
import { nodeDeps } from '../workflows/invocation-deps';

export interface BulkTarget {
  id: string;
  label: string;
  /** The kubelet pod uid label ('' when the object carries none). */
  podUid?: string;
}

/** What the bulk removal knows about kubelet. */
export interface KubeletAwareness {
  /** --node: pod uid -> why it stays. */
  owners?: Map<string, string>;
  /** The pid of a kubelet running on this node (without --node: it is warned about). */
  kubeletPid?: number;
}

/** The flags of the removals that know kubelet. */
export interface DesiredPodFlags {
  all?: boolean;
  node?: boolean;
  staticPodPath?: string;
  pods: string[];
  nodeName?: string;
}

function plural(what: string, n: number): string {
  if (n === 1) return what;
  return what.endsWith('x') ? `${what}es` : `${what}s`;
}

const short = (id: string): string => id.replace(/^sha256:/, '').slice(0, 13);

/**
 * -a/--all: every object of the kind, after a preview on stderr of what is about to go (one line
 * per object; with --dry-run the requests are printed instead and nothing is sent). With `aware`,
 * objects of the node's desired pods are kept (listed as kept, also under --dry-run).
 */
export async function allOrGiven(
  ctx: Context,
  args: string[],
  all: boolean | undefined,
  list: () => Promise<BulkTarget[]>,
  resolve: (given: string[]) => Promise<string[]>,
  what: string,
  dryRun: boolean,
  aware?: (items: BulkTarget[]) => Promise<KubeletAwareness>,
): Promise<string[]> {
  if (!all) {
    if (args.length === 0) throw new SyncpodError(`ID cannot be empty (name ${plural(what, 2)}, or -a for all)`);
    return resolve(args);
  }
  if (args.length > 0) throw new SyncpodError(`-a takes no IDs (got ${args.join(', ')})`);
  const items = await list();
  const k = aware ? await aware(items) : {};
  const kept = k.owners ? items.filter((i) => i.podUid && k.owners!.has(i.podUid)) : [];
  const going = items.filter((i) => !kept.includes(i));
  const kubeletMade = going.filter((i) => i.podUid);
  if (!k.owners && k.kubeletPid !== undefined && kubeletMade.length > 0) {
    ctx.warn(
      `a kubelet is running (pid ${k.kubeletPid}): it starts the pods it should run again, so ${kubeletMade.length} of these ${plural(what, kubeletMade.length)} ` +
        `(made by it) may come back at once; --node keeps those of the node's desired pods`,
    );
  }
  if (!dryRun || k.owners) {
    ctx.io.stderr.write(`${going.length} ${plural(what, going.length)} to go${going.length ? ':' : ''}\n`);
    for (const i of going) ctx.io.stderr.write(`  ${short(i.id)}  ${i.label}\n`);
    if (kept.length) {
      ctx.io.stderr.write(`${kept.length} ${plural(what, kept.length)} kept for the pods this node should run:\n`);
      for (const i of kept) ctx.io.stderr.write(`  ${short(i.id)}  ${i.label}  ${k.owners!.get(i.podUid!)}\n`);
    }
  }
  return going.map((i) => i.id);
}

export async function allContainers(ctx: Context, state?: 'CONTAINER_RUNNING'): Promise<BulkTarget[]> {
  const { containers } = await ctx.cri().runtime.call('ListContainers', state ? { filter: { state: { state } } } : {});
  return containers
    .map((c) => ({
      id: c.id,
      label: `${c.metadata?.name ?? ''} (pod ${c.labels['io.kubernetes.pod.namespace'] ?? ''}/${c.labels['io.kubernetes.pod.name'] ?? c.podSandboxId.slice(0, 13)}, ${c.state.replace('CONTAINER_', '').toLowerCase()})`,
      podUid: podUidOf(c.labels),
    }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

export async function allSandboxes(ctx: Context): Promise<BulkTarget[]> {
  const { items } = await ctx.cri().runtime.call('ListPodSandbox', {});
  return items
    .map((p) => ({
      id: p.id,
      label: `${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''} (${p.state === 'SANDBOX_READY' ? 'ready' : 'not ready'})`,
      podUid: podUidOf(p.labels),
    }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** Refuses --node and its inputs where they mean nothing. */
export function checkDesiredPodFlags(opts: DesiredPodFlags, needs: '-a' | '--prune', given: boolean): void {
  if (!opts.node && (opts.staticPodPath !== undefined || opts.pods.length > 0 || opts.nodeName !== undefined)) {
    throw new SyncpodError('--static-pod-path, --pods and --node-name need --node');
  }
  if (opts.node && !given)
    throw new SyncpodError(
      `--node needs ${needs}: it keeps what the node's desired pods need out of ${needs === '-a' ? 'everything -a removes' : 'the prune'}`,
    );
}

/** The node inputs of --node: flags first, then the running kubelet's staticPodPath and node name. */
export function desiredPodInputs(
  ctx: Context,
  opts: DesiredPodFlags,
): { nodeName: string; staticPodPath?: string; files: string[] } {
  const profile = ctx.nodeProfile({ nodeName: opts.nodeName });
  const fromKubelet = profile.staticPodPath.value === '' ? undefined : profile.staticPodPath.value;
  return { nodeName: profile.nodeName.value, staticPodPath: opts.staticPodPath ?? fromKubelet, files: opts.pods };
}

/** The kubelet awareness of stop/rm/rmp -a: the desired pods' owners (--node), else a running kubelet's pid. */
export function kubeletAwareness(
  ctx: Context,
  opts: DesiredPodFlags,
): (items: BulkTarget[]) => Promise<KubeletAwareness> {
  return async () => {
    if (!opts.node) {
      try {
        const pid = ctx.nodeProfile({}).kubelet?.pid;
        return pid === undefined ? {} : { kubeletPid: pid };
      } catch {
        return {}; // a kubelet whose configuration is broken still runs; nothing to name it by here
      }
    }
    const r = await ownersOnNode(desiredPodInputs(ctx, opts), ctx.nodeProfile({}).rootDir.value, nodeDeps(ctx));
    if (r.problems.length > 0) {
      for (const p of r.problems) ctx.io.stderr.write(`syncpod: ${p}\n`);
      throw new SyncpodError(
        `--node: ${r.problems.length === 1 ? 'a desired pod input' : `${r.problems.length} desired pod inputs`} could not be read, so a pod the node should run could go; nothing was done`,
      );
    }
    return { owners: r.owners };
  };
}
