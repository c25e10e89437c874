// The man page text of `syncpod node` (man/syncpod-node.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { CRI_ENV, PROFILE_FILES, OK_OR_ERROR, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    "Shows the node settings plan, sync, runp, create and doctor use, and where each came from: a syncpod flag, the runtime (RuntimeConfig, for the cgroup driver), the running kubelet's flags, its config file and --config-dir drop-ins (merged as the kubelet merges them), its binary's --version, the CRI endpoint settings, or the defaults. The settings: kubelet version and feature gates, cgroup driver, cgroupRoot and cgroupsPerQOS, cluster DNS and domain, resolv.conf, pod logs and root directories, staticPodPath, node name, the runtime and image endpoints.",
    "It reads /proc, the kubelet's files and the runtime's RuntimeConfig answer, and changes nothing but syncpod's own cache in /run/syncpod. A kubelet configuration that is broken is one line naming the file.",
  ],
  exitStatus: OK_OR_ERROR,
  environment: [...CRI_ENV, 'IMAGE_SERVICE_ENDPOINT', 'NO_COLOR'],
  files: PROFILE_FILES,
  examples: [
    { what: 'What syncpod takes from this node, and from where:', command: 'syncpod node' },
    {
      what: 'The detected kubelet version, for a script:',
      command: "syncpod node -o json | jq -r '.kubeletVersion.value'",
    },
    { what: 'What a plan would use with another cgroup driver:', command: 'syncpod node --cgroup-driver systemd' },
  ],
  seeAlso: ['plan', 'doctor', 'runtime-config'],
};
