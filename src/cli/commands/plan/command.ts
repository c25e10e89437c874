// `syncpod plan`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { collect, nodeOptions, volumeOptions, type Cmd, type OptionsOf } from '../../command-flags';

export const planDef = (c: Cmd) =>
  volumeOptions(
    nodeOptions(
      c
        .description("Compute, changing nothing, what kubelet's SyncPod would do for each pod in the manifests")
        .argument(
          '[file...]',
          "pod manifests (YAML or JSON; Pod, a workload's pod template, List; '-' for stdin); with --node, more desired pods (e.g. kubectl get pods -o yaml)",
        )
        .option(
          '-o, --output <format>',
          'output format: table, json or yaml; with --node also npd (node-problem-detector plugin: one line, exit 0 OK, 1 NonOK, 2 Unknown)',
          'table',
        )
        .option('--detailed-exitcode', 'exit 0 when nothing would change, 2 when changes are pending, 1 on error')
        .option(
          '-v, --verbose',
          'with the table: each assumption with its detail (-o json|yaml always have it), every pod without changes on its own line',
        )
        .option(
          '--node',
          'plan every pod this node should run (static pods, given files, the Pods API) and report orphans',
        )
        .option('--static-pod-path <dir>', "kubelet's staticPodPath (with --node)")
        .option(
          '--pods-api-socket <path>',
          "kubelet's Pods API socket (with --node; default <root>/pods-api/pods-api.sock, read when present; none: skip)",
        )
        .option(
          '--every <duration>',
          'with --node: plan again every DURATION (e.g. 10m) until terminated, one JSON document per line with -o json (for DaemonSets)',
        )
        .option(
          '--feature-gates <gates>',
          'kubelet feature gates NAME=true|false,..., as kubelet takes them (every gate syncpod consults; see syncpod-plan(1))',
        )
        .option(
          '--liveness-failed <container>',
          "assume kubelet's prober holds a liveness Failure for this container (repeatable)",
          collect,
          [] as string[],
        )
        .option(
          '--startup-failed <container>',
          "assume kubelet's prober holds a startup Failure for this container (repeatable)",
          collect,
          [] as string[],
        )
        .option(
          '--startup-succeeded <container>',
          "assume kubelet's prober holds a startup Success for this container (repeatable; a pod status dump's started: true says the same)",
          collect,
          [] as string[],
        )
        .option(
          '--upgrade-to <version>',
          "preview an in-place kubelet upgrade: which running containers the target kubelet's first sync would restart, and why",
        )
        .option(
          '-l, --selector <selector>',
          "only the pods whose labels match (kubectl's syntax: k=v, k!=v, k in (a,b), k, !k)",
        ),
    ),
  );

export type PlanOptions = OptionsOf<typeof planDef>;
