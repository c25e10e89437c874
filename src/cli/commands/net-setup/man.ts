// The man page text of `syncpod net-setup` (man/syncpod-net-setup.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { CRI_ENV, CRI_FILES, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    "Runs the CNI ADD of a pod sandbox's network namespace as the runtime does inside RunPodSandbox: the network config from --cni-conf-dir (the first valid one, or --network), each plugin in list order with prevResult, CNI_ARGS with the pod's namespace, name, sandbox ID and uid, and the capabilities each plugin declares (port mappings, bandwidth, DNS, cgroup path) read back from the runtime's PodSandboxStatus. The result is cached in libcni's layout so a later DEL by syncpod, the runtime or cnitool finds it.",
    "It changes the network: an interface in the sandbox's namespace (usually --ifname eth1, since the runtime already made eth0), whatever the plugins do on the host (bridges, veths, IPAM leases, iptables), and the result cache. It refuses a host-network sandbox, an interface the sandbox already has, and a missing plugin binary before anything runs. A failure part-way runs DEL for the chain. --dry-run prints each plugin's CNI_* environment and stdin and runs nothing.",
  ],
  exitStatus: [
    ['0', 'Every plugin succeeded (or --dry-run).'],
    [
      '1',
      "An error: a plugin's CNI error (code, msg, details, with the plugin named), a plugin killed at --timeout, a refused sandbox or interface, no usable network config.",
    ],
  ],
  environment: [...CRI_ENV, 'NO_COLOR'],
  files: [...CRI_FILES, 'cniConf', 'cniBin', 'cniCache'],
  examples: [
    {
      what: 'Attach a second interface from another config directory:',
      command: 'syncpod net-setup 4dff5610bdd4f --ifname eth1 --cni-conf-dir /etc/cni/extra.d',
    },
    {
      what: 'What each plugin would get, running nothing:',
      command: 'syncpod net-setup 4dff5610bdd4f --ifname eth1 --dry-run',
    },
  ],
  seeAlso: ['net-check', 'net-teardown', 'inspectp'],
};
