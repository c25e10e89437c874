// `syncpod report`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { OUTPUT_LIST, type Cmd, type OptionsOf } from '../../command-flags';

export const reportDef = (c: Cmd) =>
  c
    .description(
      "Merge node plans (plan --node -o json) and doctor reports (doctor -o json), as `kubectl logs -l app=syncpod --prefix` prints the DaemonSet's, into one fleet view per node",
    )
    .argument('<file...>', "log files or node plan JSON ('-' for stdin)")
    .option('-o, --output <format>', OUTPUT_LIST, 'table')
    .option(
      '--detailed-exitcode',
      'exit 0 when no node has pending changes or doctor findings, 2 when one has, 1 when a node reported errors',
    );

export type ReportOptions = OptionsOf<typeof reportDef>;
