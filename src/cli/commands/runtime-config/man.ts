// The man page text of `syncpod runtime-config` (man/syncpod-runtime-config.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { CRI_ENV, CRI_FILES, OK_OR_ERROR, LOOK_NEVER, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    "Prints the runtime's own configuration as it reports it to the kubelet (RuntimeConfig): the cgroup driver (systemd or cgroupfs). Kubelet 1.31 and newer take this over their own cgroupDriver; `syncpod node` and `syncpod doctor` compare the two.",
    LOOK_NEVER,
  ],
  exitStatus: OK_OR_ERROR,
  environment: CRI_ENV,
  files: CRI_FILES,
  examples: [{ what: "The runtime's cgroup driver:", command: 'syncpod runtime-config -o yaml' }],
  seeAlso: ['node', 'info', 'crictl(1)'],
};
