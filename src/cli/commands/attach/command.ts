// `syncpod attach`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { targetOptions, type Cmd, type OptionsOf } from '../../command-flags';

export const attachDef = (c: Cmd) =>
  targetOptions(
    c
      .description('Attach to the output (and with -i the input) of a running container')
      .argument('[container-id]', 'container ID or unique prefix (leave out with --pod)')
      .option('-i, --interactive', 'send stdin to the container')
      .option('--stdin', "same as -i (crictl's long name)")
      .option('-t, --tty', 'the container has a terminal: local terminal in raw mode'),
  );

export type AttachOptions = OptionsOf<typeof attachDef>;
