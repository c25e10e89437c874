// `syncpod rmp`: the handler (flags in ./command.ts, man page text in ./man.ts).
import { releaseRemovedSandboxVolumes } from '../../../workflows/pod-volumes';
import type { Context } from '../../context';
import { SyncpodError, errorLine } from '../../../errors';
import { resolveSandboxIds } from '../../ids';
import { stepTimeoutMs } from '../../../workflows/invocation-deps';
import { allOrGiven, allSandboxes, checkDesiredPodFlags, kubeletAwareness } from '../../all-targets';
import type { RmpOptions } from './command';
import { eachId } from '../../each-id';

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
