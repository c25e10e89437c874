// Container list command: ps.
import type { Context } from '../../context';
import { LIST_OUTPUTS, nowNs, parseOutput, protoJSON } from '../../output';
import { formatContainersVerbose } from '../../../render/verbose-list';
import { listContainers, repoTagsOf } from '../../../workflows/look-lists';
import { containerListFlags } from '../../ids';
import { formatContainers, shortImage } from '../../../render/containers-view';
import type { PsOptions } from './command';

export async function ps(ctx: Context, _args: string[], opts: PsOptions): Promise<number> {
  const output = parseOutput(opts.output, LIST_OUTPUTS);
  const { runtime, image } = ctx.cri();
  const containers = await listContainers(runtime, image, { ...containerListFlags(opts), id: opts.id });
  if (opts.verbose && output === 'table' && !opts.quiet) {
    ctx.io.stdout.write(formatContainersVerbose(containers, nowNs(ctx)));
    return 0;
  }
  let repoImageOf: ((shown: string) => string) | undefined;
  if (opts.resolveImagePath && output === 'table' && !opts.quiet) {
    const tags = await repoTagsOf(image, containers);
    const byShown = new Map<string, string>();
    for (const [ref, tag] of tags) if (tag) byShown.set(opts.trunc === false ? ref : shortImage(ref), tag);
    repoImageOf = (shown) => byShown.get(shown) ?? shown;
  }
  ctx.io.stdout.write(
    formatContainers(containers, {
      output,
      quiet: opts.quiet,
      noTrunc: opts.trunc === false,
      nowNs: nowNs(ctx),
      colours: ctx.colours,
      toJSON: protoJSON(ctx),
      repoImageOf,
    }),
  );
  return 0;
}
