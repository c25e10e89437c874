// `syncpod runtime-config`: the handler (flags in ./command.ts, man page text in ./man.ts).
import type { Context } from '../../context';
import type { RuntimeConfigOptions } from './command';
import { parseOutput, protoJSON } from '../../output';
import { formatEnvelope } from '../../../render/list-output';
import { formatRuntimeConfig } from '../../../render/runtime-config-view';

const RUNTIME_CONFIG_OUTPUTS = ['table', 'json', 'yaml'] as const;

export async function runtimeConfig(ctx: Context, _args: string[], opts: RuntimeConfigOptions): Promise<number> {
  const output = parseOutput(opts.output, RUNTIME_CONFIG_OUTPUTS);
  const res = await ctx.cri().runtime.call('RuntimeConfig', {});
  if (output === 'table') ctx.io.stdout.write(formatRuntimeConfig(res));
  else ctx.io.stdout.write(formatEnvelope(output, 'RuntimeConfigResponse', res, protoJSON(ctx)));
  return 0;
}
