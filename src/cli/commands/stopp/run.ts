// `syncpod stopp`: the handler (flags in ./command.ts, man page text in ./man.ts).
import type { Context } from '../../context';
import { SyncpodError, errorLine } from '../../../errors';
import { resolveSandboxIds } from '../../ids';
import { stepTimeoutMs } from '../../../workflows/invocation-deps';
import type { StoppOptions } from './command';
import { eachId } from '../../each-id';

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
