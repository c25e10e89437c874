// `syncpod stop`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { desiredPodOptions, int, type Cmd, type OptionsOf } from '../../command-flags';

export const stopDef = (c: Cmd) =>
  desiredPodOptions(
    c
      .description('Stop one or more running containers')
      .argument('[container-id...]', 'container IDs or unique prefixes')
      .option('-a, --all', 'stop all running containers (a preview of them goes to stderr first)')
      .option('-t, --timeout <seconds>', 'seconds to wait before killing the container', int('--timeout'), 0)
      .option('--dry-run', 'print the StopContainer requests as JSON, send nothing'),
    'with -a: keep the containers of the pods this node should run (kubelet would start them again)',
  );

export type StopOptions = OptionsOf<typeof stopDef>;
