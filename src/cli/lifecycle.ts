// Lifecycle steps on ids, crictl-compatible: start, stop, rm, stopp, rmp. Ids or unique prefixes;
// --dry-run prints the exact requests.
import * as fs from 'node:fs';
import { releaseRemovedSandboxVolumes } from '../workflows/pod-volumes';
import type { Context } from './context';
import { SyncpodError, errorLine } from '../errors';
import { resolveContainerIds, resolveSandboxIds } from './ids';
import { printRequest } from './output';
import { stepTimeoutMs } from '../workflows/invocation-deps';
import { allContainers, allOrGiven, allSandboxes, checkDesiredPodFlags, kubeletAwareness } from './all-targets';
import type { RmOptions, RmpOptions, StartOptions, StopOptions, StoppOptions } from './pod-defs';

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
  const t = stepTimeoutMs(ctx);
  return eachId(
    ctx,
    ids,
    'StartContainerRequest',
    (containerId) => ({ containerId }),
    async (containerId) => {
      await ctx
        .cri()
        .runtime.call('StartContainer', { containerId }, { timeoutMs: t })
        .catch((err) => {
          throw new SyncpodError(`starting the container "${containerId}": ${errorLine(err)}`);
        });
      return containerId;
    },
    !!opts.dryRun,
  );
}

export async function stop(ctx: Context, args: string[], opts: StopOptions): Promise<number> {
  checkDesiredPodFlags(opts, '-a', !!opts.all);
  const ids = await allOrGiven(
    ctx,
    args,
    opts.all,
    () => allContainers(ctx, 'CONTAINER_RUNNING'),
    (g) => resolveContainerIds(ctx, g),
    'running container',
    !!opts.dryRun,
    kubeletAwareness(ctx, opts),
  );
  const timeout = Number(opts.timeout ?? 0);
  if (timeout < 0) throw new SyncpodError('--timeout must not be negative');
  const t = stepTimeoutMs(ctx) + timeout * 1000;
  return eachId(
    ctx,
    ids,
    'StopContainerRequest',
    (containerId) => ({ containerId, timeout: String(timeout) }),
    async (containerId) => {
      await ctx
        .cri()
        .runtime.call('StopContainer', { containerId, timeout: String(timeout) }, { timeoutMs: t })
        .catch((err) => {
          throw new SyncpodError(`stopping the container "${containerId}": ${errorLine(err)}`);
        });
      return containerId;
    },
    !!opts.dryRun,
  );
}

export async function rm(ctx: Context, args: string[], opts: RmOptions): Promise<number> {
  checkDesiredPodFlags(opts, '-a', !!opts.all);
  const ids = await allOrGiven(
    ctx,
    args,
    opts.all,
    () => allContainers(ctx),
    (g) => resolveContainerIds(ctx, g),
    'container',
    !!opts.dryRun,
    kubeletAwareness(ctx, opts),
  );
  const { runtime } = ctx.cri();
  const t = stepTimeoutMs(ctx);
  return eachId(
    ctx,
    ids,
    'RemoveContainerRequest',
    (containerId) => ({ containerId }),
    async (containerId) => {
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
    },
    !!opts.dryRun,
  );
}

export async function stopp(ctx: Context, args: string[], opts: StoppOptions): Promise<number> {
  const ids = await resolveSandboxIds(ctx, args);
  const t = stepTimeoutMs(ctx);
  return eachId(
    ctx,
    ids,
    'StopPodSandboxRequest',
    (podSandboxId) => ({ podSandboxId }),
    async (podSandboxId) => {
      await ctx
        .cri()
        .runtime.call('StopPodSandbox', { podSandboxId }, { timeoutMs: t })
        .catch((err) => {
          throw new SyncpodError(`stopping the pod sandbox "${podSandboxId}": ${errorLine(err)}`);
        });
      return `Stopped sandbox ${podSandboxId}`;
    },
    !!opts.dryRun,
  );
}

export async function rmp(ctx: Context, args: string[], opts: RmpOptions): Promise<number> {
  checkDesiredPodFlags(opts, '-a', !!opts.all);
  const ids = await allOrGiven(
    ctx,
    args,
    opts.all,
    () => allSandboxes(ctx),
    (g) => resolveSandboxIds(ctx, g),
    'pod sandbox',
    !!opts.dryRun,
    kubeletAwareness(ctx, opts),
  );
  const { runtime } = ctx.cri();
  const t = stepTimeoutMs(ctx);
  return eachId(
    ctx,
    ids,
    'RemovePodSandboxRequest',
    (podSandboxId) => ({ podSandboxId }),
    async (podSandboxId) => {
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
      const unmounted = await releaseRemovedSandboxVolumes(runtime, st?.labels);
      if (unmounted.length > 0)
        ctx.warn(`unmounted ${unmounted.length} volume mount(s) of the pod: ${unmounted.join(', ')}`);
      return `Removed sandbox ${podSandboxId}`;
    },
    !!opts.dryRun,
  );
}
