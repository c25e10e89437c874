// The man page text of `syncpod logs` (man/syncpod-logs.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { CRI_ENV, CRI_FILES, OK_OR_ERROR, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    "Prints a container's log from its CRI log file: the path the runtime reports in ContainerStatus (under the kubelet's pod log directory), read directly and under --host-root, with the CRI log format (timestamp, stream, tag) taken apart. -f follows the file until the container exits; --tail, --since, --limit-bytes and --stream stdout|stderr select; -t keeps the timestamps.",
    'The container is an ID (or unique prefix), as crictl takes it, or names, as kubectl takes them: --pod NAME [-n NAMESPACE] [--container NAME] (the namespace defaults to "default"; --container may be left out when the pod has one container). Names are matched as exec matches them: the newest ready sandbox of that pod (or the newest sandbox when none is ready, so a finished pod shows its logs), and in it the running instance of the container, else the newest. No such pod, no such container, or a pod of several containers without --container is a one-line error.',
    "-p/--previous prints the previous instance of the container (same pod, same name; crictl's <attempt-1>.log when it was removed), by ID or by names.",
    'It changes nothing, except with -r/--reopen: then the runtime is first asked to reopen the log file (ReopenContainerLog), as the kubelet does after rotating it.',
  ],
  exitStatus: OK_OR_ERROR,
  environment: CRI_ENV,
  files: [...CRI_FILES, 'podLogs'],
  examples: [
    { what: 'The last 50 lines of a container, then follow it:', command: 'syncpod logs --tail 50 -f 4f1c2d9a0b7e3' },
    { what: 'Why did it crash last time? The previous instance:', command: 'syncpod logs -p 4f1c2d9a0b7e3' },
    {
      what: 'The same by names, as kubectl logs takes them:',
      command: 'syncpod logs --pod web -n shop --container api --previous',
    },
    {
      what: 'Only stderr of the last ten minutes, with timestamps:',
      command: 'syncpod logs --since 10m --stream stderr -t 4f1c2d9a0b7e3',
    },
  ],
  seeAlso: ['ps', 'inspect', 'crictl(1)'],
};
