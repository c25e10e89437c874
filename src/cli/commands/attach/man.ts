// The man page text of `syncpod attach` (man/syncpod-attach.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { CRI_ENV, CRI_FILES, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    "Attaches to the output of a running container's main process (Attach through the runtime's streaming server), and with -i sends it stdin; -t when the container has a terminal. --pod NAME [-n NAMESPACE] [--container NAME] instead of an ID picks the newest ready sandbox of that name.",
    'There is no detach key sequence with -t (Ctrl-P Ctrl-Q is sent to the container). syncpod changes nothing itself; input sent with -i goes to the process.',
  ],
  exitStatus: [
    ['0', 'The stream ended.'],
    ['N', "The process's exit code when it ends while attached, as the streaming server reports it."],
    ['1', 'An error: the container is not running, the streaming server refused, -t without a terminal.'],
    ['130', 'Interrupted with Ctrl-C.'],
  ],
  environment: [...CRI_ENV, 'NODE_EXTRA_CA_CERTS'],
  files: CRI_FILES,
  examples: [{ what: "Follow a container's output live:", command: 'syncpod attach 4f1c2d9a0b7e3' }],
  seeAlso: ['exec', 'logs', 'crictl(1)'],
};
