// The man page text of `syncpod imagefsinfo` (man/syncpod-imagefsinfo.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { IMAGE_ENV, CRI_FILES, OK_OR_ERROR, LOOK_NEVER, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    "Prints the runtime's image filesystem (ImageFsInfo): the image store's mountpoint, bytes and inodes used, per filesystem (the image and the container filesystems), as crictl 1.37 prints it. The kubelet's image GC and imagefs eviction thresholds work on this filesystem; `syncpod doctor` checks it against them.",
    LOOK_NEVER,
  ],
  exitStatus: OK_OR_ERROR,
  environment: IMAGE_ENV,
  files: CRI_FILES,
  examples: [
    {
      what: 'Bytes used by the image store:',
      command:
        "syncpod imagefsinfo -o go-template --template '{{.status.fsId.mountpoint}} {{.status.usedBytes.value}}'",
    },
  ],
  seeAlso: ['images', 'doctor', 'crictl(1)'],
};
