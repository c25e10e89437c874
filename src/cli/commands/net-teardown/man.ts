// The man page text of `syncpod net-teardown` (man/syncpod-net-teardown.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { CRI_ENV, CRI_FILES, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    'Runs the CNI DEL of a pod sandbox, as the runtime does when it stops a sandbox: the plugins in reverse order, each given the cached result of the ADD as prevResult (cniVersion 0.4.0 and newer), then the cache entry is removed. Safe to repeat: a DEL of what is gone succeeds, and with neither a cache entry nor a network config there is nothing to tear down.',
    'It changes the network (the interface, host-side state and IPAM leases the plugins release) and the result cache; not the sandbox itself. --dry-run prints what each plugin would get and runs nothing.',
  ],
  exitStatus: [
    ['0', 'Every plugin succeeded (or --dry-run).'],
    [
      '1',
      "An error: a plugin's CNI error (with the plugin named), a plugin killed at --timeout, a missing plugin binary.",
    ],
  ],
  environment: [...CRI_ENV, 'NO_COLOR'],
  files: [...CRI_FILES, 'cniConf', 'cniBin', 'cniCache'],
  examples: [
    {
      what: 'Remove the interface net-setup added:',
      command: 'syncpod net-teardown 4dff5610bdd4f --ifname eth1 --cni-conf-dir /etc/cni/extra.d',
    },
  ],
  seeAlso: ['net-setup', 'net-check'],
};
