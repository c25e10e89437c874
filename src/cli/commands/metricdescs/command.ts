// `syncpod metricdescs`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import type { Cmd, OptionsOf } from '../../command-flags';

export const metricdescsDef = (c: Cmd) =>
  c
    .description(
      'List the metric descriptors the runtime offers through CRI (ListMetricDescriptors): name, help, label keys',
    )
    .option('-o, --output <format>', 'output format: json or yaml', 'json');

export type MetricdescsOptions = OptionsOf<typeof metricdescsDef>;
