// `syncpod runp`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { int, nodeOptions, type Cmd, type OptionsOf } from '../../command-flags';

export const runpDef = (c: Cmd) =>
  nodeOptions(
    c
      .description("Run a new pod sandbox from a pod manifest (kubelet's config) or a crictl PodSandboxConfig file")
      .argument('<config>', "pod manifest or PodSandboxConfig (JSON/YAML; '-' for stdin)")
      .option('-r, --runtime <handler>', 'runtime handler (same as --runtime-handler)')
      .option(
        '--attempt <n>',
        'sandbox attempt for a manifest (default: next after the newest sandbox of the pod)',
        int('--attempt'),
      )
      .option('--dry-run', 'print the RunPodSandbox request as JSON, send nothing'),
  );

export type RunpOptions = OptionsOf<typeof runpDef>;
