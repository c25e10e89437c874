// The man page text of `syncpod stats` (man/syncpod-stats.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { CRI_ENV, CRI_FILES, OK_OR_ERROR, LOOK_NEVER, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    "Lists container resource usage (ListContainerStats): CPU % over a sample of -s seconds (two samples), the memory working set, the writable layer's size and inodes, swap in use. Without -a, containers using neither CPU nor memory are left out, as crictl does. -w draws a frame at each tick of a 500 ms ticker until Ctrl-C (the first after 500 ms; a frame longer than a tick, as a table's sample is, is followed at once), each table frame after the clear-screen sequence; -o json|yaml prints the response, sorted by ID (with -w one document per frame).",
    LOOK_NEVER,
  ],
  exitStatus: OK_OR_ERROR,
  environment: CRI_ENV,
  files: CRI_FILES,
  examples: [
    { what: 'What uses CPU now, over a 2-second sample:', command: 'syncpod stats -s 2' },
    { what: 'The containers of one pod, redrawn until Ctrl-C:', command: 'syncpod stats -a -p 4dff5610bdd4f -w' },
  ],
  seeAlso: ['statsp', 'update', 'crictl(1)'],
};
