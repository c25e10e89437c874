// `syncpod metricsp`: the handler (flags in ./command.ts, man page text in ./man.ts).
import type { Context } from '../../context';
import type { MetricspOptions } from './command';
import { INSPECT_OUTPUTS, parseOutput } from '../../output';
import { podMetrics } from '../../../workflows/stats';
import { withInterrupt } from '../../signals';
import { deps } from '../../stats-deps';

export async function metricsp(ctx: Context, _args: string[], opts: MetricspOptions): Promise<number> {
  const output = parseOutput(opts.output, INSPECT_OUTPUTS);
  return withInterrupt((signal) => podMetrics(deps(ctx), { output, watch: !!opts.watch, signal }));
}
