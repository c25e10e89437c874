// Resource usage: stats, statsp, imagefsinfo.
import type { Context } from './context';
import type { ImagefsinfoOptions, StatsOptions, StatspOptions } from './usage-defs';
import { LIST_OUTPUTS, STATUS_OUTPUTS, parseOutput, protoJSON, statusOutput } from './output';
import { containerStats, podStats, type StatsDeps } from '../workflows/stats';
import { parseLabelSelector } from '../state/filters';
import { formatImageFsInfo } from '../render/imagefs-view';
import { SyncpodError } from '../errors';
import { MAX_TIMEOUT_MS } from '../config/settings';
import { sleep, withInterrupt } from './signals';

function deps(ctx: Context): StatsDeps {
  return {
    runtime: ctx.cri().runtime,
    write: (t) => void ctx.io.stdout.write(t),
    sleep,
    toJSON: protoJSON(ctx),
    redraw: !!ctx.io.stdout.isTTY,
  };
}

function sampleMs(seconds: number): number {
  if (seconds < 0) throw new SyncpodError('--seconds must not be negative');
  if (seconds * 1000 > MAX_TIMEOUT_MS)
    throw new SyncpodError(`--seconds must be at most ${Math.floor(MAX_TIMEOUT_MS / 1000)}`);
  return seconds * 1000;
}

export async function stats(ctx: Context, args: string[], opts: StatsOptions): Promise<number> {
  if (args[0] !== undefined && opts.id !== undefined)
    throw new SyncpodError('give the container ID as an argument or as --id, not both');
  const filter = {
    id: opts.id ?? args[0] ?? '',
    podSandboxId: opts.pod ?? '',
    labelSelector: parseLabelSelector(opts.label),
  };
  const output = parseOutput(opts.output, LIST_OUTPUTS);
  return withInterrupt((signal) =>
    containerStats(deps(ctx), filter, {
      output,
      sampleMs: sampleMs(opts.seconds),
      watch: !!opts.watch,
      all: !!opts.all,
      signal,
    }),
  );
}

export async function statsp(ctx: Context, args: string[], opts: StatspOptions): Promise<number> {
  if (args[0] !== undefined && opts.id !== undefined)
    throw new SyncpodError('give the pod ID as an argument or as --id, not both');
  const filter = { id: opts.id ?? args[0] ?? '', labelSelector: parseLabelSelector(opts.label) };
  const output = parseOutput(opts.output, LIST_OUTPUTS);
  return withInterrupt((signal) =>
    podStats(deps(ctx), filter, { output, sampleMs: sampleMs(opts.seconds), watch: !!opts.watch, signal }),
  );
}

export async function imagefsinfo(ctx: Context, _args: string[], opts: ImagefsinfoOptions): Promise<number> {
  const output = statusOutput(opts.output, opts.template, STATUS_OUTPUTS);
  const res = await ctx.cri().image.call('ImageFsInfo', {});
  ctx.io.stdout.write(formatImageFsInfo(res, { output, template: opts.template, toJSON: protoJSON(ctx) }));
  return 0;
}
