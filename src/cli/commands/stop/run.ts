// `syncpod stop`: the handler (flags in ./command.ts, man page text in ./man.ts).
import type { Context } from '../../context';
import { SyncpodError, errorLine } from '../../../errors';
import { resolveContainerIds } from '../../ids';
import { stepTimeoutMs } from '../../../workflows/invocation-deps';
import { allContainers, allOrGiven, checkDesiredPodFlags, kubeletAwareness } from '../../all-targets';
import type { StopOptions } from './command';
import { eachId } from '../../each-id';

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
