// `syncpod create`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { nodeOptions, volumeOptions, type Cmd, type OptionsOf } from '../../command-flags';

export const createDef = (c: Cmd) =>
  volumeOptions(
    nodeOptions(
      c
        .description(
          'Create a container in a pod sandbox: from a pod manifest with --container, or crictl-style from CONTAINER.json SANDBOX.json',
        )
        .argument('<pod-id>', 'pod sandbox ID or unique prefix')
        .argument('<config>', 'pod manifest (with --container) or a ContainerConfig file')
        .argument('[sandbox-config]', 'PodSandboxConfig file (crictl form)')
        .option('--container <name>', 'the container of the manifest to create (regular, init or ephemeral)')
        .option('--no-pull', 'never pull the image (default: imagePullPolicy, as kubelet)')
        .option('--dry-run', 'print the CreateContainer request (and the pull decision) as JSON, send nothing')
        .option('--show-secrets', 'with --dry-run, print values that came from Secrets (redacted by default)'),
    ),
  );

export type CreateOptions = OptionsOf<typeof createDef>;
