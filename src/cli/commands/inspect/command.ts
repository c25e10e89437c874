// `syncpod inspect`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { OUTPUT_INSPECT, TEMPLATE, int, stringSlice, type Cmd, type OptionsOf } from '../../command-flags';

export const inspectDef = (c: Cmd) =>
  c
    .description('Display the status of one or more containers (without IDs: of every container the filters keep)')
    .argument('[container-id...]', 'container IDs or unique prefixes')
    .option('-o, --output <format>', OUTPUT_INSPECT, 'json')
    .option('--template <template>', TEMPLATE)
    .option('-q, --quiet', 'do not show verbose information')
    .option('-a, --all', 'without IDs: containers in every state (default: running only)')
    .option('--name <regex>', 'without IDs: filter by container name regular expression')
    .option('--namespace <regex>', 'without IDs: filter by pod namespace regular expression')
    .option('-p, --pod <pod-id>', 'without IDs: filter by pod id (prefix)')
    .option('--image <image>', 'without IDs: filter by container image')
    .option('-s, --state <state>', 'without IDs: filter by container state: created, running, exited or unknown')
    .option(
      '--label <key=value>',
      'without IDs: filter by label (repeatable, or comma-separated)',
      stringSlice,
      [] as string[],
    )
    .option('-l, --latest', 'without IDs: the most recently created container (all states)')
    .option(
      '-n, --last <n>',
      'without IDs: the last n recently created containers, all states (0 for unlimited)',
      int('--last'),
      0,
    );

export type InspectOptions = OptionsOf<typeof inspectDef>;
