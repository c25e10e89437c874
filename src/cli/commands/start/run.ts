// `syncpod start`: the handler (flags in ./command.ts, man page text in ./man.ts).
import type { Context } from '../../context';
import { SyncpodError, errorLine } from '../../../errors';
import { resolveContainerIds } from '../../ids';
import { stepTimeoutMs } from '../../../workflows/invocation-deps';
import type { StartOptions } from './command';
import { eachId } from '../../each-id';

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
