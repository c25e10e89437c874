// `syncpod events`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { TEMPLATE, type Cmd, type OptionsOf } from '../../command-flags';

export const eventsDef = (c: Cmd) =>
  c
    .description('Stream container events (GetContainerEvents) until Ctrl-C')
    .option(
      '-o, --output <format>',
      'json (each event indented, as crictl 1.37), yaml (each event, then an empty line) or go-template (one line per event)',
      'json',
    )
    .option('--template <template>', TEMPLATE);

export type EventsOptions = OptionsOf<typeof eventsDef>;
