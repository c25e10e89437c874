// `syncpod rm`: the handler (flags in ./command.ts, man page text in ./man.ts).
import * as fs from 'node:fs';
import type { Context } from '../../context';
import { SyncpodError, errorLine } from '../../../errors';
import { resolveContainerIds } from '../../ids';
import { stepTimeoutMs } from '../../../workflows/invocation-deps';
import { allContainers, allOrGiven, checkDesiredPodFlags, kubeletAwareness } from '../../all-targets';
import type { RmOptions } from './command';
import { eachId } from '../../each-id';

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
