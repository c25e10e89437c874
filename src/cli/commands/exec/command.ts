// `syncpod exec`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { targetOptions, type Cmd, type OptionsOf } from '../../command-flags';

export const execDef = (c: Cmd) =>
  targetOptions(
    c
      .description(
        "Run a command in a running container (streaming; -s runs it with ExecSync). The exit code is the command's",
      )
      .argument('[container-id]', 'container ID or unique prefix (leave out with --pod)')
      .argument('[command...]', 'the command and its arguments')
      .option('-i, --interactive', 'keep stdin open and send it to the command')
      .option('-t, --tty', 'allocate a terminal (local terminal in raw mode, size changes forwarded)')
      .option('-s, --sync', 'run with ExecSync: output after the command ended')
      .option('--timeout <duration>', 'with -s: seconds (or a duration like 30s) before the runtime stops the command'),
  ).passThroughOptions();

export type ExecOptions = OptionsOf<typeof execDef>;
