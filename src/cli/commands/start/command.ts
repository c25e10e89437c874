// `syncpod start`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import type { Cmd, OptionsOf } from '../../command-flags';

export const startDef = (c: Cmd) =>
  c
    .description('Start one or more created containers')
    .argument('<container-id...>', 'container IDs or unique prefixes')
    .option('--dry-run', 'print the StartContainer requests as JSON, send nothing');

export type StartOptions = OptionsOf<typeof startDef>;
