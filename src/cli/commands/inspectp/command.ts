// `syncpod inspectp`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { OUTPUT_INSPECT, TEMPLATE, int, stringSlice, type Cmd, type OptionsOf } from '../../command-flags';

export const inspectpDef = (c: Cmd) =>
  c
    .description('Display the status of one or more pod sandboxes (without IDs: of every pod the filters keep)')
    .argument('[pod-id...]', 'pod sandbox IDs or unique prefixes')
    .option('-o, --output <format>', OUTPUT_INSPECT, 'json')
    .option('--template <template>', TEMPLATE)
    .option('-q, --quiet', 'do not show verbose information')
    .option('--name <regex>', 'without IDs: filter by pod name regular expression')
    .option('--namespace <regex>', 'without IDs: filter by pod namespace regular expression')
    .option('-s, --state <state>', 'without IDs: filter by pod state: ready or notready')
    .option(
      '--label <key=value>',
      'without IDs: filter by label (repeatable, or comma-separated)',
      stringSlice,
      [] as string[],
    )
    .option('-l, --latest', 'without IDs: the most recently created pod')
    .option('-n, --last <n>', 'without IDs: the last n recently created pods (0 for unlimited)', int('--last'), 0);

export type InspectpOptions = OptionsOf<typeof inspectpDef>;
