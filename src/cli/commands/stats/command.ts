// `syncpod stats`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { statsOptions, type Cmd, type OptionsOf } from '../../command-flags';

export const statsDef = (c: Cmd) =>
  statsOptions(
    c
      .description('List container resource usage: CPU % over a sample, memory working set, writable layer')
      .argument('[container-id]', 'container ID or prefix (same as --id)')
      .option('-a, --all', 'show all containers (default: those using CPU or memory)')
      .option('--id <id>', 'filter by container ID')
      .option('-p, --pod <pod-id>', 'filter by pod ID'),
  );

export type StatsOptions = OptionsOf<typeof statsDef>;
