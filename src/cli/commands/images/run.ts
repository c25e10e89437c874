// `syncpod images`: the handler (flags in ./command.ts, man page text in ./man.ts).
import type { Context } from '../../context';
import { LIST_OUTPUTS, nowNs, parseOutput, protoJSON } from '../../output';
import { listImages } from '../../../workflows/look-lists';
import { formatImages } from '../../../render/images-view';
import { formatImagesVerbose } from '../../../render/verbose-list';
import type { ImagesOptions } from './command';

export async function images(ctx: Context, args: string[], opts: ImagesOptions): Promise<number> {
  const output = parseOutput(opts.output, LIST_OUTPUTS);
  const { image } = ctx.cri();
  const list = await listImages(image, args[0], opts.filter ?? []);
  if (opts.verbose && output === 'table' && !opts.quiet) {
    ctx.io.stdout.write(formatImagesVerbose(list));
    return 0;
  }
  ctx.io.stdout.write(
    formatImages(list, {
      output,
      quiet: opts.quiet,
      noTrunc: opts.trunc === false,
      digests: opts.digests,
      pinned: opts.pinned,
      nowNs: nowNs(ctx),
      colours: ctx.colours,
      toJSON: protoJSON(ctx),
    }),
  );
  return 0;
}
