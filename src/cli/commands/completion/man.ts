// The man page text of `syncpod completion` (man/syncpod-completion.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import type { CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    "Prints a completion script for bash (the default, as crictl), zsh or fish: the command names and aliases, and each command's flags. It reads and changes nothing.",
  ],
  exitStatus: [
    ['0', 'The script was printed.'],
    ['1', 'An unknown shell.'],
  ],
  environment: [],
  files: [],
  examples: [
    { what: 'Completion in the current bash:', command: 'source <(syncpod completion bash)' },
    { what: 'For every zsh session:', command: 'syncpod completion zsh > "${fpath[1]}/_syncpod"' },
  ],
  seeAlso: [],
};
