// `syncpod net-check`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { netOptions, type Cmd } from '../../command-flags';

export const netCheckDef = (c: Cmd) => netOptions(c.description('Run CNI CHECK for a sandbox (cniVersion >= 0.4.0)'));
