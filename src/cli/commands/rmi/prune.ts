// `rmi --prune [--node ...]`: wiring to src/workflows/image-prune.ts; --dry-run shows the verdicts.
import type { Context } from '../../context';
import type { RmiOptions } from './command';
import { SyncpodError } from '../../../errors';
import { pruneImages } from '../../../workflows/image-prune';
import { tableLines } from '../../../render/table';
import { stepTimeoutMs } from '../../../workflows/invocation-deps';
import { nodeDeps } from '../../../workflows/invocation-deps';
import { checkDesiredPodFlags, desiredPodInputs } from '../../all-targets';

const KEEP_TEXT: Record<string, string> = {
  pinned: 'keep: pinned by the runtime',
  'in-use': 'keep: used by container',
  desired: 'keep: needed by desired pod',
  'sandbox-image': "keep: the runtime's sandbox image",
};

export async function pruneCommand(ctx: Context, args: string[], opts: RmiOptions): Promise<number> {
  if (args.length > 0)
    throw new SyncpodError(`--prune removes every unused image; do not name images (got ${args.join(', ')})`);
  checkDesiredPodFlags(opts, '--prune', true);
  const r = await pruneImages(
    {
      node: opts.node ? desiredPodInputs(ctx, opts) : undefined,
      dryRun: !!opts.dryRun,
      requestTimeoutMs: stepTimeoutMs(ctx),
    },
    { ...ctx.cri(), inputs: nodeDeps(ctx).inputs },
  );
  for (const p of r.problems) ctx.io.stderr.write(`syncpod: ${p}\n`);
  if (r.problems.length) {
    ctx.io.stderr.write(
      'syncpod: not pruning: the desired pods could not all be read, so an image they need could go\n',
    );
    return 1;
  }
  if (opts.dryRun) {
    const rows = r.verdicts.map((v) => [
      v.id.replace(/^sha256:/, '').slice(0, 13),
      v.repoTags.join(',') || '<none>',
      v.keep
        ? `${KEEP_TEXT[v.keep]}${v.keep === 'in-use' || v.keep === 'desired' ? ` ${v.by!.join(', ')}` : ''}`
        : 'remove',
    ]);
    ctx.out(tableLines([['IMAGE ID', 'TAGS', 'PRUNE'], ...rows]).join('\n'));
    const n = r.verdicts.filter((v) => !v.keep).length;
    ctx.io.stderr.write(`${n} image${n === 1 ? '' : 's'} would be removed; none was (--dry-run)\n`);
    return 0;
  }
  for (const x of r.removed) for (const t of x.tags.length ? x.tags : [x.id]) ctx.out(`Deleted: ${t}`);
  for (const f of r.failures) ctx.io.stderr.write(`syncpod: ${f}\n`);
  return r.failures.length ? 1 : 0;
}
