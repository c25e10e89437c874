// `syncpod inspecti`: the handler (flags in ./command.ts, man page text in ./man.ts).
import type { Context } from '../../context';
import { STATUS_OUTPUTS, protoJSON, statusOutput } from '../../output';
import { resolveIdPrefix } from '../../../state/filters';
import { listImages } from '../../../workflows/look-lists';
import { filteredIds } from '../../ids';
import { formatInspectImages } from '../../../render/inspect-view';
import { formatImageStatusTable } from '../../../render/inspect-table';
import type { InspectiOptions } from './command';

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
