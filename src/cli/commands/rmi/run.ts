// `syncpod rmi`: RemoveImage for images named by reference, id or unique id prefix (crictl's
// rmi), or with --prune every image kubelet would not miss (./prune.ts).
import type { Context } from '../../context';
import type { RmiOptions } from './command';
import { stepTimeoutMs } from '../../../workflows/invocation-deps';
import { printRequest } from '../../output';
import { pruneCommand } from './prune';
import { allOrGiven, checkDesiredPodFlags } from '../../all-targets';
import type * as T from '../../../cri/types';
import { SyncpodError, errorLine } from '../../../errors';

export async function rmi(ctx: Context, args: string[], opts: RmiOptions): Promise<number> {
  if (opts.prune) return pruneCommand(ctx, args, opts);
  checkDesiredPodFlags(opts, '--prune', false);
  const { image } = ctx.cri();
  if (opts.all) {
    const ids = await allOrGiven(
      ctx,
      args,
      true,
      async () =>
        (await image.call('ListImages', {})).images
          .map((i) => ({ id: i.id, label: i.repoTags.join(', ') || '<none>' }))
          .sort((a, b) => (a.id < b.id ? -1 : 1)),
      async (g) => g,
      'image',
      !!opts.dryRun,
    );
    args = ids;
  }
  if (args.length === 0)
    throw new SyncpodError('no image given (name images, -a for all, or --prune to remove every unused one)');
  const resolved: Array<{ given: string; img: T.Image }> = [];
  let list: T.Image[] | undefined;
  for (const given of args) {
    if (!given) throw new SyncpodError('image name cannot be empty');
    let img = (await image.call('ImageStatus', { image: { image: given }, verbose: false })).image;
    if (!img?.id) {
      // An ID prefix, as crictl accepts.
      list ??= (await image.call('ListImages', {})).images;
      const hits = list.filter((i) => i.id.startsWith(given) || i.id.replace(/^sha256:/, '').startsWith(given));
      if (hits.length > 1) throw new SyncpodError(`image ID prefix "${given}" is ambiguous (${hits.length} images)`);
      img = hits[0];
    }
    if (!img?.id) throw new SyncpodError(`no such image ${given}`);
    resolved.push({ given, img });
  }
  const t = stepTimeoutMs(ctx);
  if (opts.dryRun) {
    for (const r of resolved) printRequest(ctx, 'RemoveImageRequest', { image: { image: r.img.id } });
    return 0;
  }
  for (const r of resolved) {
    if (r.img.repoTags.length > 1 && !r.given.startsWith('sha256:') && /[:/]/.test(r.given)) {
      ctx.warn(
        `Image "${r.given}" has multiple tags. Removing this image will delete all of the following tags: ${r.img.repoTags.join(', ')}`,
      );
    }
    await image.call('RemoveImage', { image: { image: r.img.id } }, { timeoutMs: t }).catch((err) => {
      throw new SyncpodError(`error of removing image "${r.given}": ${errorLine(err)}`);
    });
    for (const tag of r.img.repoTags.length ? r.img.repoTags : r.img.repoDigests) ctx.out(`Deleted: ${tag}`);
  }
  return 0;
}
