// `syncpod info`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { TEMPLATE, type Cmd, type OptionsOf } from '../../command-flags';

export const infoDef = (c: Cmd) =>
  c
    .description('Display information of the container runtime: status conditions and verbose info')
    .option('-o, --output <format>', 'output format: json, yaml or go-template', 'json')
    .option('--template <template>', TEMPLATE)
    .option('-q, --quiet', 'do not show verbose information');

export type InfoOptions = OptionsOf<typeof infoDef>;
