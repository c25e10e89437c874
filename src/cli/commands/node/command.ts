// `syncpod node`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { OUTPUT_LIST, nodeOptions, type Cmd, type OptionsOf } from '../../command-flags';

export const nodeDef = (c: Cmd) =>
  nodeOptions(
    c
      .description(
        "Show the node settings syncpod uses and where each comes from: its flags, the running kubelet's flags, config file and drop-ins, its version, the runtime, defaults",
      )
      .option('-o, --output <format>', OUTPUT_LIST, 'table')
      .option('--feature-gates <gates>', 'kubelet feature gates NAME=true|false,..., as kubelet takes them'),
  );

export type NodeCommandOptions = OptionsOf<typeof nodeDef>;
