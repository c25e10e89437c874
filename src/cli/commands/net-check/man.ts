// The man page text of `syncpod net-check` (man/syncpod-net-check.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { CRI_ENV, CRI_FILES, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    'Runs the CNI CHECK of a pod sandbox against the cached ADD result (network configs with cniVersion 0.4.0 or newer): each plugin says whether what it set up is still there. It changes nothing; --dry-run prints what each plugin would get and runs nothing.',
  ],
  exitStatus: [
    ['0', 'Every plugin found its setup intact (or --dry-run).'],
    [
      '1',
      "A plugin's CNI error (what is missing), no cached result, a cniVersion below 0.4.0, a plugin killed at --timeout.",
    ],
  ],
  environment: [...CRI_ENV, 'NO_COLOR'],
  files: [...CRI_FILES, 'cniConf', 'cniBin', 'cniCache'],
  examples: [
    {
      what: 'Is the second interface still as it was set up?',
      command: 'syncpod net-check 4dff5610bdd4f --ifname eth1 --cni-conf-dir /etc/cni/extra.d',
    },
  ],
  seeAlso: ['net-setup', 'net-teardown'],
};
