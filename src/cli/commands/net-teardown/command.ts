// `syncpod net-teardown`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { netOptions, type Cmd } from '../../command-flags';

export const netTeardownDef = (c: Cmd) =>
  netOptions(c.description('Run CNI DEL for a sandbox (reverse order, idempotent)'));
