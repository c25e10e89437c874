// `syncpod info`: the handler (flags in ./command.ts, man page text in ./man.ts).
import type { Context } from '../../context';
import { protoJSON, statusOutput } from '../../output';
import { formatInfo } from '../../../render/inspect-view';
import type { InfoOptions } from './command';

export async function info(ctx: Context, _args: string[], opts: InfoOptions): Promise<number> {
  const output = statusOutput(opts.output, opts.template, ['json', 'yaml', 'go-template']);
  const { runtime } = ctx.cri();
  const res = await runtime.call('Status', { verbose: !opts.quiet });
  ctx.io.stdout.write(formatInfo(res, { output, template: opts.template, toJSON: protoJSON(ctx) }));
  return 0;
}
