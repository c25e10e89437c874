// The man page text of `syncpod info` (man/syncpod-info.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { CRI_ENV, CRI_FILES, OK_OR_ERROR, LOOK_NEVER, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    "Prints the runtime's status (the CRI Status call): the RuntimeReady and NetworkReady conditions with their reasons, and the runtime's verbose info (for containerd its CRI plugin config: CNI directories, sandbox image, cgroup settings) unless -q. JSON by default; -o yaml or -o go-template --template T.",
    'A NetworkReady condition that is false (e.g. "cni plugin not initialized") is why pods stay in ContainerCreating; `syncpod doctor` reads the same answer and says what would fix it.',
    LOOK_NEVER,
  ],
  exitStatus: OK_OR_ERROR,
  environment: CRI_ENV,
  files: CRI_FILES,
  examples: [
    {
      what: 'The two conditions only:',
      command:
        "syncpod info -q -o go-template --template '{{range .status.conditions}}{{.type}}={{.status}} {{.reason}}; {{end}}'",
    },
    { what: 'Where containerd looks for CNI configs:', command: "syncpod info | jq '.config.cni'" },
  ],
  seeAlso: ['version', 'runtime-config', 'doctor', 'crictl(1)'],
};
