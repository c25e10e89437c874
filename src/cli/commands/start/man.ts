// The man page text of `syncpod start` (man/syncpod-start.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { CRI_ENV, CRI_FILES, OK_OR_ERROR, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    'Starts created containers (StartContainer), by ID or unique prefix, and prints each ID. It runs no postStart hook (sync does). --dry-run prints the requests and sends nothing.',
  ],
  exitStatus: OK_OR_ERROR,
  environment: CRI_ENV,
  files: CRI_FILES,
  examples: [{ what: 'Start a container made with create:', command: 'syncpod start 4f1c2d9a0b7e3' }],
  seeAlso: ['create', 'stop', 'crictl(1)'],
};
