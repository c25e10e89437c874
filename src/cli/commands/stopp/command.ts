// `syncpod stopp`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import type { Cmd, OptionsOf } from '../../command-flags';

export const stoppDef = (c: Cmd) =>
  c
    .description('Stop one or more pod sandboxes (their containers and network)')
    .argument('<pod-id...>', 'pod sandbox IDs or unique prefixes')
    .option('--dry-run', 'print the StopPodSandbox requests as JSON, send nothing');

export type StoppOptions = OptionsOf<typeof stoppDef>;
