// `syncpod net-setup`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { netOptions, type Cmd } from '../../command-flags';

export const netSetupDef = (c: Cmd) =>
  netOptions(c.description("Run CNI ADD for a sandbox's network namespace, as kubelet's CNI step did"));
