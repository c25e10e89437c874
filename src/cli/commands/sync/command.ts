// `syncpod sync`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { collect, int, nodeOptions, volumeOptions, type Cmd, type OptionsOf } from '../../command-flags';

export const syncDef = (c: Cmd) =>
  volumeOptions(
    nodeOptions(
      c
        .description(
          "Converge a pod: compute the plan and execute it in SyncPod's order (kill, sandbox, init, containers)",
        )
        .argument('[file...]', "a pod manifest ('-' for stdin); with --node, more desired pods")
        .option('-y, --yes', 'do not ask before killing containers or pods')
        .option(
          '--node',
          'converge every pod this node should run (static pods, given files), one pass; init containers are waited for as with --wait',
        )
        .option('--static-pod-path <dir>', "kubelet's staticPodPath (with --node)")
        .option(
          '--pods-api-socket <path>',
          "kubelet's Pods API socket (with --node; default <root>/pods-api/pods-api.sock; none: skip)",
        )
        .option('--remove-orphans', "with --node: kill and remove pods with kubelet's labels that no desired pod owns")
        .option('--parallel <n>', 'with --node: pods synced at once', int('--parallel'), 4)
        .option(
          '--wait',
          "wait for each init container to finish and go on, as kubelet's repeated syncs would (always so with --node)",
        )
        .option('--wait-timeout <duration>', 'how long --wait (or --node) waits for one init container', '5m')
        .option('--timings', 'report time spent in runtime calls and in syncpod itself')
        .option('--dry-run', 'print the plan and the CRI requests it would send, send nothing')
        .option(
          '--liveness-failed <container>',
          "assume kubelet's prober holds a liveness Failure for this container (repeatable; as with plan)",
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
          "assume kubelet's prober holds a startup Success for this container (repeatable)",
          collect,
          [] as string[],
        )
        .option('--show-secrets', 'with --dry-run, print values that came from Secrets (redacted by default)')
        .option(
          '--feature-gates <gates>',
          "kubelet feature gates NAME=true|false,..., as kubelet takes them (over the running kubelet's; see syncpod-plan(1))",
        )
        .option('-o, --output <format>', 'result format: table or json', 'table')
        .option(
          '-l, --selector <selector>',
          "only the pods whose labels match (kubectl's syntax: k=v, k!=v, k in (a,b), k, !k)",
        ),
    ),
  );

export type SyncOptions = OptionsOf<typeof syncDef>;
