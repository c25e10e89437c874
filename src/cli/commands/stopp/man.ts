// The man page text of `syncpod stopp` (man/syncpod-stopp.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { CRI_ENV, CRI_FILES, OK_OR_ERROR, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    'Stops pod sandboxes (StopPodSandbox): the runtime stops their containers and tears down their network (CNI DEL). The sandboxes stay, NotReady, until rmp. --dry-run prints the requests and sends nothing.',
  ],
  exitStatus: OK_OR_ERROR,
  environment: CRI_ENV,
  files: CRI_FILES,
  examples: [
    { what: 'Stop the sandboxes of a namespace:', command: 'syncpod stopp $(syncpod pods --namespace demo -q)' },
  ],
  seeAlso: ['rmp', 'runp', 'crictl(1)'],
};
