// `syncpod checkpoint`: the handler (flags in ./command.ts, man page text in ./man.ts).
import type { Context } from '../../context';
import type { CheckpointOptions } from './command';
import { resolveContainerIds } from '../../ids';
import { stepTimeoutMs } from '../../../workflows/invocation-deps';
import { SyncpodError, errorLine } from '../../../errors';

export async function checkpoint(ctx: Context, args: string[], opts: CheckpointOptions): Promise<number> {
  const ids = await resolveContainerIds(ctx, args);
  const t = stepTimeoutMs(ctx);
  for (const containerId of ids) {
    await ctx
      .cri()
      .runtime.call('CheckpointContainer', { containerId, location: opts.export ?? '' }, { timeoutMs: t })
      .catch((err) => {
        throw new SyncpodError(`checkpointing the container "${containerId}" failed: ${errorLine(err)}`);
      });
    ctx.out(containerId);
  }
  return 0;
}
