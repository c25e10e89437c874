// `images`: crictl's table (IMAGE, TAG, [DIGEST,] IMAGE ID, SIZE, [PINNED]), -q and -o json|yaml.

import type { Image } from '../cri/types';
import { formatEnvelope, formatQuiet, type ListViewOptions } from './list-output';
import { crictlTable } from './table';
import { humanSize, truncateId } from './text';

export interface ImageViewOptions extends ListViewOptions {
  /** --digests: add the DIGEST column. */
  digests?: boolean;
  /** --pinned: add the PINNED column. */
  pinned?: boolean;
}

function firstRepoDigest(repoDigests: readonly string[]): [string, string] {
  if (repoDigests.length === 0) return ['<none>', '<none>'];
  const parts = repoDigests[0].split('@');
  return parts.length === 2 ? [parts[0], parts[1]] : ['errorName', 'errorRepoDigest'];
}

function tagRows(repoTags: readonly string[], name: string): Array<[string, string]> {
  if (repoTags.length === 0) return [[name, '<none>']];
  return repoTags.map((t): [string, string] => {
    const i = t.lastIndexOf(':');
    if (i === -1) return ['errorRepoTag', 'errorRepoTag'];
    const repo = t.slice(0, i);
    return [repo === '<none>' ? name : repo, t.slice(i + 1)];
  });
}

/** Renders images (already sorted and filtered) as crictl prints them: one row per repo tag. */
export function formatImages(images: readonly Image[], opts: ImageViewOptions): string {
  if (opts.output !== 'table') return formatEnvelope(opts.output, 'ListImagesResponse', { images }, opts.toJSON);
  if (opts.quiet) return formatQuiet(images.map((i) => i.id));
  const header = ['IMAGE', 'TAG'];
  if (opts.digests) header.push('DIGEST');
  header.push('IMAGE ID', 'SIZE');
  if (opts.pinned) header.push('PINNED');
  const rows: string[][] = [header.map((name) => opts.colours.header(name))];
  for (const image of images) {
    const [name, digest] = firstRepoDigest(image.repoDigests);
    const size = humanSize(Number(image.size || '0'));
    const id = opts.noTrunc ? image.id : truncateId(image.id, 'sha256:');
    const shownDigest = opts.noTrunc ? digest : truncateId(digest, 'sha256:');
    for (const [repo, tag] of tagRows(image.repoTags, name)) {
      const row = [repo, tag];
      if (opts.digests) row.push(shownDigest);
      row.push(id, size);
      if (opts.pinned) row.push(String(image.pinned));
      rows.push(row);
    }
  }
  return crictlTable(rows);
}
