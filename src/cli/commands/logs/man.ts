// The man page text of `syncpod logs` (man/syncpod-logs.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { CRI_ENV, CRI_FILES, OK_OR_ERROR, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    "Prints a container's log from its CRI log file: the path the runtime reports in ContainerStatus (under the kubelet's pod log directory), read directly and under --host-root, with the CRI log format (timestamp, stream, tag) taken apart. -f follows the file until the container exits; --tail, --since, --limit-bytes and --stream stdout|stderr select; -t keeps the timestamps.",
    "-p/--previous prints the previous instance of the container (same pod, same name; crictl's <attempt-1>.log when it was removed).",
    'It changes nothing, except with -r/--reopen: then the runtime is first asked to reopen the log file (ReopenContainerLog), as the kubelet does after rotating it.',
  ],
  exitStatus: OK_OR_ERROR,
  environment: CRI_ENV,
  files: [...CRI_FILES, 'podLogs'],
  examples: [
    { what: 'The last 50 lines of a container, then follow it:', command: 'syncpod logs --tail 50 -f 4f1c2d9a0b7e3' },
    { what: 'Why did it crash last time? The previous instance:', command: 'syncpod logs -p 4f1c2d9a0b7e3' },
    {
      what: 'Only stderr of the last ten minutes, with timestamps:',
      command: 'syncpod logs --since 10m --stream stderr -t 4f1c2d9a0b7e3',
    },
  ],
  seeAlso: ['ps', 'inspect', 'crictl(1)'],
};
