// The man page text of `syncpod metricsp` (man/syncpod-metricsp.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { CRI_ENV, CRI_FILES, OK_OR_ERROR, LOOK_NEVER, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    "Lists pod metrics (ListPodSandboxMetrics): per pod sandbox and per container, the runtime's samples of the metrics `syncpod metricdescs` describes (CPU, memory, network, filesystem, processes), each with its labels, type and value. This is what the kubelet's /metrics/cadvisor serves with the PodAndContainerStatsFromCRI feature gate. Printed as crictl 1.37 prints it: the response's indented JSON, or YAML with -o yaml, in the runtime's order. -w prints it again at each tick of a 500 ms ticker (the first after 500 ms) until Ctrl-C, one document after another. containerd 1.6 does not implement it: one line naming the method, exit 1.",
    LOOK_NEVER,
  ],
  exitStatus: OK_OR_ERROR,
  environment: CRI_ENV,
  files: CRI_FILES,
  examples: [
    {
      what: 'Each pod and the number of metrics the runtime has for it:',
      command: 'syncpod metricsp | jq -r \'.podMetrics[] | "\\(.podSandboxId[:13]) \\(.metrics | length)"\'',
    },
  ],
  seeAlso: ['metricdescs', 'statsp', 'crictl(1)'],
};
