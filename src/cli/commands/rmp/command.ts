// `syncpod rmp`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { desiredPodOptions, type Cmd, type OptionsOf } from '../../command-flags';

export const rmpDef = (c: Cmd) =>
  desiredPodOptions(
    c
      .description('Remove one or more pod sandboxes')
      .argument('[pod-id...]', 'pod sandbox IDs or unique prefixes')
      .option('-a, --all', 'remove all pod sandboxes (a preview of them goes to stderr first)')
      .option('-f, --force', 'stop the sandbox first if it is ready')
      .option('--dry-run', 'print the RemovePodSandbox requests as JSON, send nothing'),
    'with -a: keep the sandboxes of the pods this node should run (kubelet would start them again)',
  );

export type RmpOptions = OptionsOf<typeof rmpDef>;
