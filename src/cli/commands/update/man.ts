// The man page text of `syncpod update` (man/syncpod-update.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { CRI_ENV, CRI_FILES, OK_OR_ERROR, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    'Changes the resources of running containers (UpdateContainerResources): CFS period and quota, CPU shares, cpuset CPUs and memory nodes, the memory limit. A value of zero, or one not given, leaves that field unchanged, as crictl does.',
    "It changes only the runtime's resource settings of the named containers: not the pod's manifest, not the kubelet's idea of them. The kubelet compares a running container's CPU and memory with its spec (in-place resize; `syncpod plan` does the same) and may set them back.",
  ],
  exitStatus: OK_OR_ERROR,
  environment: CRI_ENV,
  files: CRI_FILES,
  examples: [
    {
      what: 'Give a container half a CPU and 256 MiB:',
      command: 'syncpod update --cpu-period 100000 --cpu-quota 50000 --memory 268435456 4f1c2d9a0b7e3',
    },
    { what: 'Pin a container to CPUs 0 and 1:', command: 'syncpod update --cpuset-cpus 0-1 4f1c2d9a0b7e3' },
  ],
  seeAlso: ['stats', 'inspect', 'crictl(1)'],
};
