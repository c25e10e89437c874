// Lifecycle steps on ids, crictl-compatible: start, stop, rm, stopp, rmp and rmi. Ids, references
// or unique prefixes; --dry-run prints the exact requests.
import * as fs from 'node:fs';
import type { Context } from './context';
import { SyncpodError, errorLine } from '../errors';
import { resolveContainerIds } from './container';
import { resolveSandboxIds } from './sandbox';
import { RUNTIME_REQUEST_TIMEOUT_MS, printRequest } from './output';
import type * as T from '../cri/types';
import type { RmiOptions, RmOptions, RmpOptions, StartOptions, StopOptions, StoppOptions } from './commands';

/**
 * -a/--all: every object of the kind, after a preview on stderr of what is about to go (one line
 * per object; with --dry-run the requests are printed instead and nothing is sent).
 */
async function allOrGiven(ctx: Context, args: string[], all: boolean | undefined, list: () => Promise<Array<{ id: string; label: string }>>, resolve: (given: string[]) => Promise<string[]>, what: string, dryRun: boolean): Promise<string[]> {
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

async function allContainers(ctx: Context, state?: 'CONTAINER_RUNNING'): Promise<Array<{ id: string; label: string }>> {
  const { containers } = await ctx.cri().runtime.call('ListContainers', state ? { filter: { state: { state } } } : {});
  return containers
    .map((c) => ({ id: c.id, label: `${c.metadata?.name ?? ''} (pod ${c.labels['io.kubernetes.pod.namespace'] ?? ''}/${c.labels['io.kubernetes.pod.name'] ?? c.podSandboxId.slice(0, 13)}, ${c.state.replace('CONTAINER_', '').toLowerCase()})`, c }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

async function allSandboxes(ctx: Context): Promise<Array<{ id: string; label: string }>> {
  const { items } = await ctx.cri().runtime.call('ListPodSandbox', {});
  return items
    .map((p) => ({ id: p.id, label: `${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''} (${p.state === 'SANDBOX_READY' ? 'ready' : 'not ready'})` }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

async function eachId(
  ctx: Context,
  ids: string[],
  typeName: string,
  requestOf: (id: string) => unknown,
  send: (id: string) => Promise<string | void>,
  dryRun: boolean,
): Promise<number> {
  if (dryRun) {
    for (const id of ids) printRequest(ctx, typeName, requestOf(id));
    return 0;
  }
  for (const id of ids) {
    const line = await send(id);
    if (line) ctx.out(line);
  }
  return 0;
}

export async function start(ctx: Context, args: string[], opts: StartOptions): Promise<number> {
  const ids = await resolveContainerIds(ctx, args);
  const t = Math.max(ctx.settings().timeoutMs, RUNTIME_REQUEST_TIMEOUT_MS);
  return eachId(ctx, ids, 'StartContainerRequest', (containerId) => ({ containerId }), async (containerId) => {
    await ctx.cri().runtime.call('StartContainer', { containerId }, { timeoutMs: t }).catch((err) => {
      throw new SyncpodError(`starting the container "${containerId}": ${errorLine(err)}`);
    });
    return containerId;
  }, !!opts.dryRun);
}

export async function stop(ctx: Context, args: string[], opts: StopOptions): Promise<number> {
  const ids = await allOrGiven(ctx, args, opts.all, () => allContainers(ctx, 'CONTAINER_RUNNING'), (g) => resolveContainerIds(ctx, g), 'running container', !!opts.dryRun);
  const timeout = Number(opts.timeout ?? 0);
  if (timeout < 0) throw new SyncpodError('--timeout must not be negative');
  const t = Math.max(ctx.settings().timeoutMs, RUNTIME_REQUEST_TIMEOUT_MS) + timeout * 1000;
  return eachId(ctx, ids, 'StopContainerRequest', (containerId) => ({ containerId, timeout: String(timeout) }), async (containerId) => {
    await ctx.cri().runtime.call('StopContainer', { containerId, timeout: String(timeout) }, { timeoutMs: t }).catch((err) => {
      throw new SyncpodError(`stopping the container "${containerId}": ${errorLine(err)}`);
    });
    return containerId;
  }, !!opts.dryRun);
}

export async function rm(ctx: Context, args: string[], opts: RmOptions): Promise<number> {
  const ids = await allOrGiven(ctx, args, opts.all, () => allContainers(ctx), (g) => resolveContainerIds(ctx, g), 'container', !!opts.dryRun);
  const { runtime } = ctx.cri();
  const t = Math.max(ctx.settings().timeoutMs, RUNTIME_REQUEST_TIMEOUT_MS);
  return eachId(ctx, ids, 'RemoveContainerRequest', (containerId) => ({ containerId }), async (containerId) => {
    const st = (await runtime.call('ContainerStatus', { containerId, verbose: false })).status;
    if (st?.state === 'CONTAINER_RUNNING') {
      if (!opts.force) throw new SyncpodError(`container "${containerId}" is running, please stop it first`);
      await runtime.call('StopContainer', { containerId, timeout: '0' }, { timeoutMs: t }).catch((err) => {
        throw new SyncpodError(`stopping the container "${containerId}": ${errorLine(err)}`);
      });
    }
    await runtime.call('RemoveContainer', { containerId }, { timeoutMs: t }).catch((err) => {
      throw new SyncpodError(`removing container "${containerId}": ${errorLine(err)}`);
    });
    // crictl removes the log file and its rotations unless --keep-logs.
    const logPath = st?.logPath ?? '';
    if (logPath) {
      const dir = logPath.slice(0, logPath.lastIndexOf('/'));
      const base = logPath.slice(logPath.lastIndexOf('/') + 1);
      let entries: string[] = [];
      try {
        entries = fs.readdirSync(dir);
      } catch {
        /* no directory */
      }
      for (const f of entries.filter((e) => e === base || e.startsWith(base + '.'))) {
        try {
          fs.unlinkSync(`${dir}/${f}`);
        } catch (err) {
          ctx.warn(`removing log file ${dir}/${f} for container "${containerId}" failed: ${errorLine(err)}`);
        }
      }
    }
    return containerId;
  }, !!opts.dryRun);
}

export async function stopp(ctx: Context, args: string[], opts: StoppOptions): Promise<number> {
  const ids = await resolveSandboxIds(ctx, args);
  const t = Math.max(ctx.settings().timeoutMs, RUNTIME_REQUEST_TIMEOUT_MS);
  return eachId(ctx, ids, 'StopPodSandboxRequest', (podSandboxId) => ({ podSandboxId }), async (podSandboxId) => {
    await ctx.cri().runtime.call('StopPodSandbox', { podSandboxId }, { timeoutMs: t }).catch((err) => {
      throw new SyncpodError(`stopping the pod sandbox "${podSandboxId}": ${errorLine(err)}`);
    });
    return `Stopped sandbox ${podSandboxId}`;
  }, !!opts.dryRun);
}

export async function rmp(ctx: Context, args: string[], opts: RmpOptions): Promise<number> {
  const ids = await allOrGiven(ctx, args, opts.all, () => allSandboxes(ctx), (g) => resolveSandboxIds(ctx, g), 'pod sandbox', !!opts.dryRun);
  const { runtime } = ctx.cri();
  const t = Math.max(ctx.settings().timeoutMs, RUNTIME_REQUEST_TIMEOUT_MS);
  return eachId(ctx, ids, 'RemovePodSandboxRequest', (podSandboxId) => ({ podSandboxId }), async (podSandboxId) => {
    const st = (await runtime.call('PodSandboxStatus', { podSandboxId, verbose: false })).status;
    if (st?.state === 'SANDBOX_READY') {
      if (!opts.force) throw new SyncpodError(`pod sandbox "${podSandboxId}" is running, please stop it first`);
      await runtime.call('StopPodSandbox', { podSandboxId }, { timeoutMs: t }).catch((err) => {
        throw new SyncpodError(`stopping the pod sandbox "${podSandboxId}" failed: ${errorLine(err)}`);
      });
    }
    await runtime.call('RemovePodSandbox', { podSandboxId }, { timeoutMs: t }).catch((err) => {
      throw new SyncpodError(`removing the pod sandbox "${podSandboxId}": ${errorLine(err)}`);
    });
    return `Removed sandbox ${podSandboxId}`;
  }, !!opts.dryRun);
}

export async function rmi(ctx: Context, args: string[], opts: RmiOptions): Promise<number> {
  // --prune reads the node's desired pods (YAML): loaded only when asked for, so plain rmi stays light.
  if (opts.prune) return (await import('./prune')).pruneCommand(ctx, args, opts);
  const { image } = ctx.cri();
  if (opts.all) {
    const ids = await allOrGiven(ctx, args, true, async () => (await image.call('ListImages', {})).images.map((i) => ({ id: i.id, label: i.repoTags.join(', ') || '<none>' })).sort((a, b) => (a.id < b.id ? -1 : 1)), async (g) => g, 'image', !!opts.dryRun);
    args = ids;
  }
  if (args.length === 0) throw new SyncpodError('no image given (name images, -a for all, or --prune to remove every unused one)');
  const resolved: Array<{ given: string; img: T.Image }> = [];
  let list: T.Image[] | undefined;
  for (const given of args) {
    if (!given) throw new SyncpodError('image name cannot be empty');
    let img = (await image.call('ImageStatus', { image: { image: given }, verbose: false })).image;
    if (!img?.id) {
      // An ID prefix, as crictl accepts.
      list ??= (await image.call('ListImages', {})).images;
      const hits = list.filter((i) => i.id.startsWith(given) || i.id.replace(/^sha256:/, '').startsWith(given));
      if (hits.length > 1) throw new SyncpodError(`image ID prefix "${given}" is ambiguous (${hits.length} images)`);
      img = hits[0];
    }
    if (!img?.id) throw new SyncpodError(`no such image ${given}`);
    resolved.push({ given, img });
  }
  const t = Math.max(ctx.settings().timeoutMs, RUNTIME_REQUEST_TIMEOUT_MS);
  if (opts.dryRun) {
    for (const r of resolved) printRequest(ctx, 'RemoveImageRequest', { image: { image: r.img.id } });
    return 0;
  }
  for (const r of resolved) {
    if (r.img.repoTags.length > 1 && !r.given.startsWith('sha256:') && /[:/]/.test(r.given)) {
      ctx.warn(`Image "${r.given}" has multiple tags. Removing this image will delete all of the following tags: ${r.img.repoTags.join(', ')}`);
    }
    await image.call('RemoveImage', { image: { image: r.img.id } }, { timeoutMs: t }).catch((err) => {
      throw new SyncpodError(`error of removing image "${r.given}": ${errorLine(err)}`);
    });
    for (const tag of r.img.repoTags.length ? r.img.repoTags : r.img.repoDigests) ctx.out(`Deleted: ${tag}`);
  }
  return 0;
}
