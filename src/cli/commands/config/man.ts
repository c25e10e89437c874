// The man page text of `syncpod config` (man/syncpod-config.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { OK_OR_ERROR, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    "Reads and edits crictl's client config file: the file of -c, else CRI_CONFIG_FILE, else /etc/crictl.yaml. --get KEY prints a value, --list every option, --set KEY=VALUE[,KEY=VALUE] (or the old form KEY VALUE) writes the file, with the same keys and value rules as crictl (runtime-endpoint, image-endpoint, timeout, debug, pull-image-on-create, disable-pull-on-run, max-retries; syncpod keeps max-retries for crictl and does not retry).",
    'A write keeps the comments and the order of what is in the file and replaces it in one rename. The default path is taken as it is, not under --host-root (other commands read the default under --host-root). It never talks to the runtime.',
  ],
  exitStatus: OK_OR_ERROR,
  environment: ['CRI_CONFIG_FILE'],
  files: ['crictl'],
  examples: [
    {
      what: 'Point syncpod and crictl at CRI-O:',
      command: 'syncpod config --set runtime-endpoint=unix:///run/crio/crio.sock',
    },
    { what: 'Every option and its value:', command: 'syncpod config --list' },
  ],
  seeAlso: ['crictl(1)'],
};
