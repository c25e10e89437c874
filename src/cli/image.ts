// Image read commands: images, inspecti.
import type { Context } from './context';
import { LIST_OUTPUTS, STATUS_OUTPUTS, nowNs, parseOutput, protoJSON, statusOutput } from './output';
import { resolveIdPrefix } from '../state/filters';
import { listImages } from '../workflows/look-lists';
import { filteredIds } from './ids';
import { formatImages } from '../render/images-view';
import { formatInspectImages } from '../render/inspect-view';
import { formatImageStatusTable } from '../render/inspect-table';
import { formatImagesVerbose } from '../render/verbose-list';
import type { ImagesOptions, InspectiOptions } from './look-defs';

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

export async function inspecti(ctx: Context, args: string[], opts: InspectiOptions): Promise<number> {
  const output = statusOutput(opts.output, opts.template, STATUS_OUTPUTS);
  const { image } = ctx.cri();
  const flags = { name: opts.name, filter: opts.filter };
  const refs = args.length
    ? args
    : await filteredIds(flags, async () => (await listImages(image, opts.name, opts.filter ?? [])).map((i) => i.id));
  const responses = [];
  let known: string[] | undefined;
  for (const ref of refs) {
    let res = await image.call('ImageStatus', { image: { image: ref }, verbose: !opts.quiet });
    if (!res.image && /^[0-9a-f]{1,64}$/.test(ref)) {
      // Not a reference the runtime knows: try it as a unique prefix of an image ID.
      known ??= (await image.call('ListImages', {})).images.map((i) => i.id);
      const ids = known.map((id) => id.replace(/^sha256:/, ''));
      const full = resolveIdPrefix(ref, ids, 'image');
      res = await image.call('ImageStatus', { image: { image: `sha256:${full}` }, verbose: !opts.quiet });
    }
    responses.push(res);
  }
  if (output === 'table') ctx.io.stdout.write(formatImageStatusTable(responses, refs, { verbose: !opts.quiet }));
  else
    ctx.io.stdout.write(
      formatInspectImages(responses, refs, { output, template: opts.template, toJSON: protoJSON(ctx) }),
    );
  return 0;
}
