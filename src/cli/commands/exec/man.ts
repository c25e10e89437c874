// The man page text of `syncpod exec` (man/syncpod-exec.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { CRI_ENV, CRI_FILES, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    "Runs a command in a running container through the runtime's streaming server (Exec, then WebSocket with the v4.channel.k8s.io protocol), or with -s through ExecSync (output after the command ended; --timeout bounds it). -i sends stdin, -t gives a terminal (raw mode, size changes forwarded). Instead of an ID, --pod NAME [-n NAMESPACE] [--container NAME] picks the newest ready sandbox of that name.",
    "syncpod exits with the command's exit code (crictl exits 1). Put exec's own flags before the ID: everything after the ID belongs to the command. syncpod changes nothing itself; the command may change anything inside the container.",
    'When local stdin ends (-i without -t), syncpod keeps receiving until the command has been silent for 0.5 s or ended, then closes the connection: the v4 protocol cannot close stdin alone.',
  ],
  exitStatus: [
    ['0', 'The command succeeded, or the session ended because local stdin ended (-i without -t).'],
    ['N', "The command's own exit code, whatever it is: syncpod exits with it (crictl exits 1)."],
    [
      '1',
      "Also an error of syncpod's, with one line on stderr: the container is not running, the streaming server refused, -t without a terminal, no command given.",
    ],
    ['130', 'Interrupted with Ctrl-C.'],
  ],
  environment: [...CRI_ENV, 'NODE_EXTRA_CA_CERTS'],
  files: CRI_FILES,
  examples: [
    { what: 'A shell in a container:', command: 'syncpod exec -it 4f1c2d9a0b7e3 sh' },
    {
      what: 'By pod and container name instead of an ID:',
      command: 'syncpod exec --pod web -n demo --container app cat /etc/resolv.conf',
    },
    {
      what: 'Copy a directory into a container:',
      command: 'tar c -C ./conf . | syncpod exec -i 4f1c2d9a0b7e3 tar x -C /etc/app',
    },
    {
      what: 'A health check with a deadline, as a probe would run it:',
      command: 'syncpod exec -s --timeout 5s 4f1c2d9a0b7e3 /bin/check',
    },
  ],
  seeAlso: ['attach', 'port-forward', 'crictl(1)'],
};
