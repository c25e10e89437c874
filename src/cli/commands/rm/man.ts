// The man page text of `syncpod rm` (man/syncpod-rm.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { CRI_ENV, PROFILE_FILES, OK_OR_ERROR, KUBELET_AWARE_ALL, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    'Removes containers (RemoveContainer), by ID or unique prefix, or every container with -a; -f stops a running one first. The sandbox stays. --dry-run prints the requests and sends nothing.',
    KUBELET_AWARE_ALL,
  ],
  exitStatus: OK_OR_ERROR,
  environment: CRI_ENV,
  files: [...PROFILE_FILES, 'staticPods', 'podsApi'],
  examples: [
    { what: 'Remove a container, stopping it first:', command: 'syncpod rm -f 4f1c2d9a0b7e3' },
    {
      what: 'Remove every exited container of a sandbox:',
      command: 'syncpod rm $(syncpod ps -a -s exited -p 4dff5610bdd4f -q)',
    },
  ],
  seeAlso: ['stop', 'rmp', 'crictl(1)'],
};
