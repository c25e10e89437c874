// The man page text of `syncpod statsp` (man/syncpod-statsp.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { CRI_ENV, CRI_FILES, OK_OR_ERROR, LOOK_NEVER, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    'Lists pod resource usage (ListPodSandboxStats): CPU % over a sample of -s seconds and the memory working set per pod sandbox. -w draws a frame at each tick of a 500 ms ticker until Ctrl-C (as stats -w), each table frame after the clear-screen sequence; -o json|yaml prints the response (with -w one document per frame).',
    LOOK_NEVER,
  ],
  exitStatus: OK_OR_ERROR,
  environment: CRI_ENV,
  files: CRI_FILES,
  examples: [{ what: 'The pods of one app:', command: 'syncpod statsp --label app=web' }],
  seeAlso: ['stats', 'crictl(1)'],
};
