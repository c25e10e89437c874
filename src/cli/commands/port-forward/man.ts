// The man page text of `syncpod port-forward` (man/syncpod-port-forward.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { CRI_ENV, CRI_FILES, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    "Forwards local TCP ports to ports inside a pod sandbox's network namespace, through the runtime's streaming server (PortForward; one WebSocket per connection). Each port is [LOCAL:]REMOTE; :REMOTE picks a free local port. It listens on --address (127.0.0.1 by default) until Ctrl-C.",
    'stdout gets one "Forwarding from ADDRESS:PORT -> REMOTE" line per listener (scripts read the chosen port from it), stderr "Handling connection for PORT" per connection. It opens local listening sockets and changes nothing in the pod.',
  ],
  exitStatus: [
    ['0', `Ended with Ctrl-C.`],
    [
      '1',
      'An error: a local port in use, no listener on the pod port (the forward ends), the streaming server refused.',
    ],
  ],
  environment: [...CRI_ENV, 'NODE_EXTRA_CA_CERTS'],
  files: CRI_FILES,
  examples: [
    {
      what: "Reach a pod's port 8080 on local port 18080:",
      command: 'syncpod port-forward 4dff5610bdd4f 18080:8080',
    },
    {
      what: 'By pod name, any free local port, on IPv4 and IPv6 loopback:',
      command: 'syncpod port-forward --pod web -n demo --address 127.0.0.1,::1 :8080',
    },
  ],
  seeAlso: ['exec', 'pods', 'crictl(1)'],
};
