// `syncpod doctor`: its flags and options type. The command table (src/cli/command-table.ts) reads this
// at start-up; the handler is ./run.ts (loaded only when the command runs), the man page text ./man.ts.
import { collect, nodeProfileOptions, stringSlice, type Cmd, type OptionsOf } from '../../command-flags';

export const doctorDef = (c: Cmd) =>
  nodeProfileOptions(
    c
      .description(
        "Check this node against kubelet's own rules and the runtime's own answers: what is wrong, and what would fix it",
      )
      .option(
        '--check <ids>',
        'run only these checks (ids or groups, comma-separated, repeatable; e.g. runtime,pods.crashloop)',
        stringSlice,
        [] as string[],
      )
      .option(
        '--skip <ids>',
        'leave out these checks (ids or groups, comma-separated, repeatable)',
        stringSlice,
        [] as string[],
      )
      .option(
        '-o, --output <format>',
        'output format: table, json, yaml, npd (node-problem-detector plugin: one line, exit 0 OK, 1 NonOK, 2 Unknown) or prometheus (node-exporter textfile collector)',
        'table',
      )
      .option(
        '--detailed-exitcode',
        'exit 0 when every check is ok or skipped, 2 when one warns or fails, 1 when syncpod could not run',
      )
      .option('--list', 'list the checks (id, group, title) and run nothing')
      .option(
        '--upgrade-to <version>',
        'add the upgrade group: would kubelet VERSION start on this node (removed flags, locked gates, cgroup v1, runtime, swap, config validation)',
      )
      .option(
        '--every <duration>',
        "check again every DURATION (e.g. 10m) until terminated, one JSON document per line with -o json (the DaemonSet's doctor container)",
      )
      .option('--static-pod-path <dir>', "kubelet's staticPodPath (default: the running kubelet's)")
      .option(
        '--pods-api-socket <path>',
        "kubelet's Pods API socket (default <root>/pods-api/pods-api.sock, read when present; none: skip)",
      )
      .option(
        '--pods <file>',
        "more desired pods, e.g. kubectl get pods -o yaml (repeatable; '-' for stdin): pods.orphans counts what none of them owns",
        collect,
        [] as string[],
      )
      .option(
        '--check-timeout <duration>',
        "deadline of each check; one that does not answer in time is skip: timed out (default 10s; 3s with -o npd, within node-problem-detector's 5 s plugin timeout)",
      )
      .option(
        '--stuck-after <duration>',
        "a container in Created or Unknown longer than this is stuck (default: kubelet's runtime request timeout)",
        '2m',
      ),
  );

export type DoctorOptions = OptionsOf<typeof doctorDef>;
