// Pod sandbox list command: pods.
import type { Context } from '../../context';
import { LIST_OUTPUTS, nowNs, parseOutput, protoJSON } from '../../output';
import { listPods } from '../../../workflows/look-lists';
import { formatPods } from '../../../render/pods-view';
import { formatPodsVerbose } from '../../../render/verbose-list';
import { systemZone } from '../../../render/text';
import type { PodsOptions } from './command';

export async function pods(ctx: Context, _args: string[], opts: PodsOptions): Promise<number> {
  const output = parseOutput(opts.output, LIST_OUTPUTS);
  const flags = {
    id: opts.id,
    name: opts.name,
    namespace: opts.namespace,
    state: opts.state,
    labels: opts.label,
    latest: opts.latest,
    last: opts.last,
  };
  const items = await listPods(ctx.cri().runtime, flags);
  if (opts.verbose && output === 'table' && !opts.quiet) {
    ctx.io.stdout.write(formatPodsVerbose(items, systemZone));
    return 0;
  }
  ctx.io.stdout.write(
    formatPods(items, {
      output,
      quiet: opts.quiet,
      noTrunc: opts.trunc === false,
      nowNs: nowNs(ctx),
      colours: ctx.colours,
      toJSON: protoJSON(ctx),
    }),
  );
  return 0;
}
