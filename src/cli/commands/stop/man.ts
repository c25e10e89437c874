// The man page text of `syncpod stop` (man/syncpod-stop.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { CRI_ENV, PROFILE_FILES, OK_OR_ERROR, KUBELET_AWARE_ALL, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    'Stops running containers (StopContainer with -t seconds of grace before the kill), by ID or unique prefix, or every running container with -a. The containers stay, exited; their sandboxes are not touched. --dry-run prints the requests and sends nothing.',
    KUBELET_AWARE_ALL,
  ],
  exitStatus: OK_OR_ERROR,
  environment: CRI_ENV,
  files: [...PROFILE_FILES, 'staticPods', 'podsApi'],
  examples: [
    { what: 'Stop a container with 10 seconds of grace:', command: 'syncpod stop -t 10 4f1c2d9a0b7e3' },
    {
      what: 'Stop every container the kubelet would not start again:',
      command: 'syncpod stop -a --node --dry-run\nsyncpod stop -a --node',
    },
  ],
  seeAlso: ['start', 'rm', 'stopp', 'crictl(1)'],
};
