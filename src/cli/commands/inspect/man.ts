// The man page text of `syncpod inspect` (man/syncpod-inspect.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { inspectDoc, type CommandDoc } from '../../man-text';

export const man: CommandDoc = inspectDoc(
  'one or more containers',
  'ContainerStatus',
  [
    { what: "A container's status, exit code and log path:", command: 'syncpod inspect 4f1c2d9a0b7e3' },
    {
      what: 'Why the containers of a namespace last exited:',
      command:
        "syncpod inspect -a --namespace demo -s exited -o go-template --template '{{.status.metadata.name}} {{.status.exitCode}} {{.status.reason}}'",
    },
  ],
  'ps',
);
