// `syncpod pods`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { OUTPUT_LIST, int, stringSlice, type Cmd, type OptionsOf } from '../../command-flags';

export const podsDef = (c: Cmd) =>
  c
    .description('List pod sandboxes')
    .option('--id <id>', 'filter by pod id (prefix)')
    .option('--name <regex>', 'filter by pod name regular expression')
    .option('--namespace <regex>', 'filter by pod namespace regular expression')
    .option('-s, --state <state>', 'filter by pod state: ready or notready')
    .option('--label <key=value>', 'filter by label (repeatable, or comma-separated)', stringSlice, [] as string[])
    .option('-v, --verbose', 'show verbose info for pods')
    .option('-q, --quiet', 'list only pod IDs')
    .option('-o, --output <format>', OUTPUT_LIST, 'table')
    .option('-l, --latest', 'show the most recently created pod')
    .option('-n, --last <n>', 'show the last n recently created pods (0 for unlimited)', int('--last'), 0)
    .option('--no-trunc', 'show output without truncating the ID');

export type PodsOptions = OptionsOf<typeof podsDef>;
