// The man page text of `syncpod metricdescs` (man/syncpod-metricdescs.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { CRI_ENV, CRI_FILES, OK_OR_ERROR, LOOK_NEVER, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    "Lists the metric descriptors the runtime offers through CRI (ListMetricDescriptors): each metric's name, help text and label keys, the metrics `syncpod metricsp` returns (the kubelet's /metrics/cadvisor from the runtime, with the PodAndContainerStatsFromCRI feature gate). Printed as crictl 1.37 prints it: the response's indented JSON, or YAML with -o yaml, in the runtime's order (containerd 2.x varies it from call to call). containerd 1.6 does not implement it: one line naming the method, exit 1.",
    LOOK_NEVER,
  ],
  exitStatus: OK_OR_ERROR,
  environment: CRI_ENV,
  files: CRI_FILES,
  examples: [
    {
      what: 'The names of the metrics, sorted:',
      command: "syncpod metricdescs | jq -r '.descriptors[].name' | sort",
    },
  ],
  seeAlso: ['metricsp', 'statsp', 'crictl(1)'],
};
