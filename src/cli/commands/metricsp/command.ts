// `syncpod metricsp`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import type { Cmd, OptionsOf } from '../../command-flags';

export const metricspDef = (c: Cmd) =>
  c
    .description(
      "List pod metrics (ListPodSandboxMetrics): the runtime's key/value samples per pod and container, in place of cAdvisor's",
    )
    .option('-o, --output <format>', 'output format: json or yaml', 'json')
    .option('-w, --watch', "print again on crictl's 500 ms ticker until Ctrl-C");

export type MetricspOptions = OptionsOf<typeof metricspDef>;
