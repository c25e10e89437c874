// `syncpod version`: the handler (flags in ./command.ts, man page text in ./man.ts).
import type { Context } from '../../context';
import { parseOutput, protoJSON } from '../../output';
import { formatVersion } from '../../../render/inspect-view';
import { yamlText } from '../../../render/yaml';
import type { VersionOptions } from './command';

export async function version(ctx: Context, _args: string[], opts: VersionOptions): Promise<number> {
  const output = parseOutput(opts.output, ['text', 'json', 'yaml']);
  const { runtime } = ctx.cri();
  const v = await runtime.call('Version', { version: '0.1.0' });
  const api = runtime.apiVersion ?? 'v1';
  if (output === 'text') {
    // crictl's four lines on stdout; the API actually spoken is a note when it is not v1.
    ctx.io.stdout.write(formatVersion(v));
    if (api !== 'v1') ctx.io.stderr.write(`CRI API in use:  ${api}\n`);
  } else {
    const json = { ...protoJSON(ctx)('VersionResponse', v), criApiInUse: api };
    ctx.out(output === 'json' ? JSON.stringify(json, null, 2) : yamlText(json, { sortKeys: false }));
  }
  return 0;
}
