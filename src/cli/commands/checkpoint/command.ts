// `syncpod checkpoint`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import type { Cmd, OptionsOf } from '../../command-flags';

export const checkpointDef = (c: Cmd) =>
  c
    .description('Checkpoint one or more running containers (CheckpointContainer; CRIU on the runtime side)')
    .argument('<container-id...>', 'container IDs or unique prefixes')
    .option('-e, --export <archive>', 'the archive the runtime exports the checkpoint to');

export type CheckpointOptions = OptionsOf<typeof checkpointDef>;
