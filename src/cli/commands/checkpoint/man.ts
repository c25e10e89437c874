// The man page text of `syncpod checkpoint` (man/syncpod-checkpoint.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { CRI_ENV, CRI_FILES, OK_OR_ERROR, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    "Asks the runtime to checkpoint running containers (CheckpointContainer; the runtime uses CRIU) and, with -e, to export the checkpoint to an archive. The archive path is the runtime's: it is written on the node by the runtime, not by syncpod.",
    'The container keeps running. A runtime that does not implement the call (containerd 1.6) is one line naming it.',
  ],
  exitStatus: OK_OR_ERROR,
  environment: CRI_ENV,
  files: CRI_FILES,
  examples: [
    {
      what: 'Checkpoint a container to an archive on the node:',
      command: 'syncpod checkpoint -e /var/lib/checkpoints/web.tar 4f1c2d9a0b7e3',
    },
  ],
  seeAlso: ['ps', 'crictl(1)'],
};
