// The man page text of `syncpod inspectp` (man/syncpod-inspectp.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { inspectDoc, type CommandDoc } from '../../man-text';

export const man: CommandDoc = inspectDoc(
  'one or more pod sandboxes',
  'PodSandboxStatus',
  [
    { what: "A sandbox's status and the runtime's verbose info:", command: 'syncpod inspectp 4dff5610bdd4f' },
    {
      what: 'The IP of every ready pod of a namespace:',
      command:
        "syncpod inspectp --namespace demo -s ready -o go-template --template '{{.status.metadata.name}} {{.status.network.ip}}'",
    },
  ],
  'pods',
);
