// `syncpod rm`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { desiredPodOptions, type Cmd, type OptionsOf } from '../../command-flags';

export const rmDef = (c: Cmd) =>
  desiredPodOptions(
    c
      .description('Remove one or more containers')
      .argument('[container-id...]', 'container IDs or unique prefixes')
      .option('-a, --all', 'remove all containers (a preview of them goes to stderr first)')
      .option('-f, --force', 'stop the container first if it is running')
      .option('--dry-run', 'print the RemoveContainer requests as JSON, send nothing'),
    'with -a: keep the containers of the pods this node should run (kubelet would start them again)',
  );

export type RmOptions = OptionsOf<typeof rmDef>;
