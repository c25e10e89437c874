// The man page text of `syncpod report` (man/syncpod-report.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import type { CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    "Merges the node plans (`plan --node -o json`) and doctor reports (`doctor -o json`) that the syncpod DaemonSet logs into one view, one row per node: pods planned, pods with pending changes, blocked pods, orphans, errors, the doctor's worst status and findings, runs seen and when. Its input is `kubectl logs --prefix` output (`[pod/NAME/CONTAINER]` prefixes, optional timestamps, several pods interleaved) or plain JSON; the newest plan and report of each node count.",
    'It reads only the files given (or stdin): no runtime, no node files, no API server. It changes nothing.',
  ],
  exitStatus: [
    ['0', 'The view was printed (with --detailed-exitcode: no node has pending changes or doctor findings).'],
    ['1', 'An error reading the input; with --detailed-exitcode also: a node reported errors.'],
    ['2', 'With --detailed-exitcode: a node has pending changes or doctor findings.'],
  ],
  environment: ['NO_COLOR'],
  files: [],
  examples: [
    {
      what: 'The fleet view of the DaemonSet in deploy/:',
      command: 'kubectl logs -n kube-system -l app=syncpod --all-containers --prefix --tail=-1 | syncpod report -',
    },
    { what: 'Saved logs, as JSON:', command: 'syncpod report -o json node-a.log node-b.log' },
  ],
  seeAlso: ['plan', 'doctor'],
};
