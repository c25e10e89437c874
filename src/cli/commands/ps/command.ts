// `syncpod ps`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { OUTPUT_LIST, int, stringSlice, type Cmd, type OptionsOf } from '../../command-flags';

export const psDef = (c: Cmd) =>
  c
    .description('List containers')
    .option('-a, --all', 'show all containers (default: running only)')
    .option('--id <id>', 'filter by container id (prefix)')
    .option('--name <regex>', 'filter by container name regular expression')
    .option('--namespace <regex>', 'filter by pod namespace regular expression')
    .option('-p, --pod <pod-id>', 'filter by pod id (prefix)')
    .option('--image <image>', 'filter by container image')
    .option('-s, --state <state>', 'filter by container state: created, running, exited or unknown')
    .option('--label <key=value>', 'filter by label (repeatable, or comma-separated)', stringSlice, [] as string[])
    .option('-v, --verbose', 'show verbose information for containers')
    .option('-q, --quiet', 'only display container IDs')
    .option('-o, --output <format>', OUTPUT_LIST, 'table')
    .option('-l, --latest', 'show the most recently created container (includes all states)')
    .option(
      '-n, --last <n>',
      'show the last n recently created containers, all states (0 for unlimited)',
      int('--last'),
      0,
    )
    .option('--no-trunc', 'show output without truncating the ID')
    .option('-r, --resolve-image-path', "show the image's first repo tag instead of its ID");

export type PsOptions = OptionsOf<typeof psDef>;
