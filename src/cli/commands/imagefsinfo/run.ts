// `syncpod imagefsinfo`: the handler (flags in ./command.ts, man page text in ./man.ts).
import type { Context } from '../../context';
import type { ImagefsinfoOptions } from './command';
import { STATUS_OUTPUTS, protoJSON, statusOutput } from '../../output';
import { formatImageFsInfo } from '../../../render/imagefs-view';

export async function imagefsinfo(ctx: Context, _args: string[], opts: ImagefsinfoOptions): Promise<number> {
  const output = statusOutput(opts.output, opts.template, STATUS_OUTPUTS);
  const res = await ctx.cri().image.call('ImageFsInfo', {});
  ctx.io.stdout.write(formatImageFsInfo(res, { output, template: opts.template, toJSON: protoJSON(ctx) }));
  return 0;
}
