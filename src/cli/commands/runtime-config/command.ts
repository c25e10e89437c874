// `syncpod runtime-config`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import type { Cmd, OptionsOf } from '../../command-flags';

export const runtimeConfigDef = (c: Cmd) =>
  c
    .description("Display the runtime's configuration as it reports it to kubelet (RuntimeConfig: the cgroup driver)")
    .option('-o, --output <format>', 'output format: table (crictl\'s "cgroup driver:" line), json or yaml', 'table');

export type RuntimeConfigOptions = OptionsOf<typeof runtimeConfigDef>;
