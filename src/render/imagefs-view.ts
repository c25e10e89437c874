// `imagefsinfo` as crictl 1.37 prints it: the whole response as {"status": {"containerFilesystems":
// […], "imageFilesystems": […]}} (json, yaml or go-template), or for -o table a block per kind,
// containers first (crictl 1.26 printed each image filesystem on its own).
import type { FilesystemUsage, ImageFsInfoResponse } from '../cri/types';
import type { ProtoJSON } from './list-output';
import { formatStatusEntries, type StatusOutput } from './inspect-view';
import { humanSize } from './text';

function tableBlock(label: string, filesystems: readonly FilesystemUsage[]): string {
  // crictl's label line ends in a space ("%s Filesystem \n").
  let out = `${label} Filesystem \n`;
  filesystems.forEach((fs, i) => {
    out += `TimeStamp[${i}]: ${fs.timestamp}\n`;
    out += `Disk[${i}]: ${humanSize(Number(fs.usedBytes?.value ?? '0'), 4)}\n`;
    out += `Inodes[${i}]: ${fs.inodesUsed?.value ?? '0'}\n`;
    out += `Mountpoint[${i}]: ${fs.fsId?.mountpoint ?? ''}\n`;
  });
  return out;
}

export function formatImageFsInfo(
  res: ImageFsInfoResponse,
  opts: { output: StatusOutput | 'table'; template?: string; toJSON: ProtoJSON },
): string {
  if (opts.output === 'table')
    return tableBlock('Container', res.containerFilesystems) + tableBlock('Image', res.imageFilesystems);
  return formatStatusEntries(
    [{ status: opts.toJSON('ImageFsInfoResponse', res), info: {} }],
    opts.output,
    opts.template,
  );
}
