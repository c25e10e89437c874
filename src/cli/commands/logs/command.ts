// `syncpod logs`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { int, targetOptions, type Cmd, type OptionsOf } from '../../command-flags';

export const logsDef = (c: Cmd) =>
  targetOptions(
    c
      .description('Fetch the logs of a container from its CRI log file')
      .argument('[container-id]', 'container ID or unique prefix (or --pod NAME --container NAME)'),
  )
    .option('-f, --follow', 'follow the log until the container exits')
    .option('--tail <n>', 'number of lines to show from the end (-1 for all)', int('--tail'), -1)
    .option('--since <time>', 'show logs since a timestamp (RFC3339) or a relative time like 42m')
    .option('-t, --timestamps', 'show timestamps')
    .option('-p, --previous', "print the logs of the container's previous instance (same pod, same name)")
    .option(
      '--limit-bytes <n>',
      "stop after this many bytes of log output (0 or negative: no limit, as crictl's -1)",
      int('--limit-bytes'),
      -1,
    )
    .option('--stream <stream>', 'only this stream: stdout or stderr (not with --tail)')
    .option('-r, --reopen', 'ask the runtime to reopen the log file first (ReopenContainerLog, after a rotation)');

export type LogsOptions = OptionsOf<typeof logsDef>;
