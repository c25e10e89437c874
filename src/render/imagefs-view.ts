// `imagefsinfo` as crictl 1.26 prints it: each image filesystem as {"status": FilesystemUsage}
// (json, yaml or go-template), or three lines for -o table.
import type { ImageFsInfoResponse } from '../cri/types';
import type { ProtoJSON } from './list-output';
import { formatStatusEntries, type StatusOutput } from './inspect-view';

export function formatImageFsInfo(
  res: ImageFsInfoResponse,
  opts: { output: StatusOutput | 'table'; template?: string; toJSON: ProtoJSON },
): string {
  let out = '';
  for (const fs of res.imageFilesystems) {
    if (opts.output === 'table') {
      // crictl prints the UsedBytes wrapper with Go's %s of the generated message.
      out += `TimeStamp: ${fs.timestamp}\nUsedBytes: &UInt64Value{Value:${fs.usedBytes?.value ?? '0'},}\nMountpoint: ${fs.fsId?.mountpoint ?? ''}\n`;
    } else {
      out += formatStatusEntries(
        [{ status: opts.toJSON('FilesystemUsage', fs), info: {} }],
        opts.output,
        opts.template,
      );
    }
  }
  return out;
}
