// `syncpod statsp`: the handler (flags in ./command.ts, man page text in ./man.ts).
import type { Context } from '../../context';
import type { StatspOptions } from './command';
import { LIST_OUTPUTS, parseOutput } from '../../output';
import { podStats } from '../../../workflows/stats';
import { parseLabelSelector } from '../../../state/filters';
import { SyncpodError } from '../../../errors';
import { withInterrupt } from '../../signals';
import { sampleMs, deps } from '../../stats-deps';

export async function statsp(ctx: Context, args: string[], opts: StatspOptions): Promise<number> {
  if (args[0] !== undefined && opts.id !== undefined)
    throw new SyncpodError('give the pod ID as an argument or as --id, not both');
  const filter = { id: opts.id ?? args[0] ?? '', labelSelector: parseLabelSelector(opts.label) };
  const output = parseOutput(opts.output, LIST_OUTPUTS);
  return withInterrupt((signal) =>
    podStats(deps(ctx), filter, { output, sampleMs: sampleMs(opts.seconds), watch: !!opts.watch, signal }),
  );
}
