// `syncpod statsp`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { statsOptions, type Cmd, type OptionsOf } from '../../command-flags';

export const statspDef = (c: Cmd) =>
  statsOptions(
    c
      .description('List pod resource usage: CPU % over a sample and memory working set')
      .argument('[pod-id]', 'pod sandbox ID or prefix (same as --id)')
      .option('--id <id>', 'filter by pod ID'),
  );

export type StatspOptions = OptionsOf<typeof statspDef>;
