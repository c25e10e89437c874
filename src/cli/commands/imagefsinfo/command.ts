// `syncpod imagefsinfo`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { OUTPUT_INSPECT, TEMPLATE, type Cmd, type OptionsOf } from '../../command-flags';

export const imagefsinfoDef = (c: Cmd) =>
  c
    .description("Return the image filesystem info: the runtime's image store mountpoint, bytes and inodes used")
    .option('-o, --output <format>', OUTPUT_INSPECT, 'json')
    .option('--template <template>', TEMPLATE);

export type ImagefsinfoOptions = OptionsOf<typeof imagefsinfoDef>;
