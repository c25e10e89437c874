// `syncpod node`: the node profile (what syncpod reads from the running kubelet and the runtime,
// with where each value came from).
import type { NodeCommandOptions } from './command';
import type { Context } from '../../context';
import { LIST_OUTPUTS, outputWidth, parseOutput } from '../../output';
import { renderNodeProfile } from '../../../render/node-view';
import { yamlText } from '../../../render/yaml';
import { profileWithRuntimeConfigFile, profileWithRuntime } from '../../../workflows/node-profile';

export async function node(ctx: Context, _args: string[], opts: NodeCommandOptions): Promise<number> {
  const output = parseOutput(opts.output, LIST_OUTPUTS);
  const profile = profileWithRuntimeConfigFile(
    await profileWithRuntime(
      (rt) => ctx.nodeProfile(opts, rt),
      () => ctx.cri().runtime,
    ),
    ctx.settings().hostRoot,
    (w) => ctx.warn(w),
  );
  if (output === 'table') ctx.out(renderNodeProfile(profile, outputWidth(ctx)));
  else if (output === 'json') ctx.out(JSON.stringify(profile, null, 2));
  else ctx.out(yamlText(JSON.parse(JSON.stringify(profile))));
  return 0;
}
