// `syncpod completion`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import type { Cmd, OptionsOf } from '../../command-flags';

export const completionDef = (c: Cmd) =>
  c.description('Print a shell completion script').argument('[shell]', 'bash, zsh or fish (default bash, as crictl)');

export type CompletionOptions = OptionsOf<typeof completionDef>;
