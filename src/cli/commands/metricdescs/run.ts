// `syncpod metricdescs`: the handler (flags in ./command.ts, man page text in ./man.ts).
import type { Context } from '../../context';
import type { MetricdescsOptions } from './command';
import { INSPECT_OUTPUTS, parseOutput, protoJSON } from '../../output';
import { formatEnvelope } from '../../../render/list-output';

/** The ListMetricDescriptors response as crictl 1.37 prints it (indented protobuf JSON, or YAML). */
export async function metricdescs(ctx: Context, _args: string[], opts: MetricdescsOptions): Promise<number> {
  const output = parseOutput(opts.output, INSPECT_OUTPUTS);
  const res = await ctx.cri().runtime.call('ListMetricDescriptors', {});
  ctx.io.stdout.write(formatEnvelope(output, 'ListMetricDescriptorsResponse', res, protoJSON(ctx)));
  return 0;
}
