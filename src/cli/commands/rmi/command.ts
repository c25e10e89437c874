// `syncpod rmi`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { desiredPodOptions, type Cmd, type OptionsOf } from '../../command-flags';

export const rmiDef = (c: Cmd) =>
  desiredPodOptions(
    c
      .description('Remove one or more images')
      .argument('[image...]', 'image IDs, references or unique ID prefixes')
      .option('-a, --all', 'remove all images (a preview of them goes to stderr first)')
      .option(
        '--dry-run',
        'print the RemoveImage requests as JSON, send nothing (with --prune: what would go and why the rest stays)',
      )
      .option(
        '-q, --prune',
        "remove every image kubelet would not miss: not pinned, used by no container, not the runtime's sandbox image, not needed by a desired pod (--node)",
      ),
    "with --prune: keep the images the node's desired pods name (static pods, --pods files)",
  );

export type RmiOptions = OptionsOf<typeof rmiDef>;
