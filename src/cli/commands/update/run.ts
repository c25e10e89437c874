// `syncpod update`: the handler (flags in ./command.ts, man page text in ./man.ts).
import type { Context } from '../../context';
import type { UpdateOptions } from './command';
import { resolveContainerIds } from '../../ids';
import { stepTimeoutMs } from '../../../workflows/invocation-deps';
import { SyncpodError, errorLine } from '../../../errors';

export async function update(ctx: Context, args: string[], opts: UpdateOptions): Promise<number> {
  const ids = await resolveContainerIds(ctx, args);
  // crictl sends every field; containerd and CRI-O leave a zero value unchanged.
  const linux = {
    cpuPeriod: String(opts.cpuPeriod ?? 0),
    cpuQuota: String(opts.cpuQuota ?? 0),
    cpuShares: String(opts.cpuShare ?? 0),
    cpusetCpus: opts.cpusetCpus ?? '',
    cpusetMems: opts.cpusetMems ?? '',
    memoryLimitInBytes: String(opts.memory ?? 0),
  };
  const t = stepTimeoutMs(ctx);
  for (const containerId of ids) {
    await ctx
      .cri()
      .runtime.call('UpdateContainerResources', { containerId, linux }, { timeoutMs: t })
      .catch((err) => {
        throw new SyncpodError(`updating container resources for "${containerId}": ${errorLine(err)}`);
      });
    ctx.out(containerId);
  }
  return 0;
}
