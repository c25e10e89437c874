// The command table: every syncpod command as one typed entry (name, definition, options type,
// loader). This is the ONLY place where the project's own modules are loaded lazily.
//
// To add a command:
//   1. Write the definition below (`const fooDef = (c: Cmd) => c.description(...).argument(...)
//      .option(...)`) and export its options type: `export type FooOptions = OptionsOf<typeof fooDef>`.
//      The type is inferred from the flags (@commander-js/extra-typings), so renaming a flag
//      breaks the compile of every handler that reads the old name.
//   2. Write the handler in a command module under src/cli/ with plain static imports:
//      `export async function foo(ctx: Context, args: string[], opts: FooOptions): Promise<number>`.
//      It only wires flags to src/workflows/ (flows) and src/render/ (views).
//   3. Add `entry('foo', fooDef, () => import('./foo-module').then((m) => m.foo))` to COMMANDS.
//   4. `npm run man` (man pages and completions come from this table; a test fails on stale pages).
import { Command, InvalidArgumentError } from '@commander-js/extra-typings';
import type { Context } from './context';

/** A fresh subcommand, as each definition receives it. */
export type Cmd = Command<[], {}, {}>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyCommand = Command<any[], any, any>;
/** The options type a definition produces (what commander hands the action). */
export type OptionsOf<D extends (c: Cmd) => AnyCommand> = ReturnType<ReturnType<D>['opts']>;

export type Handler<O> = (ctx: Context, args: string[], opts: O) => Promise<number | void>;

export interface CommandEntry {
  name: string;
  hidden: boolean;
  define: (c: Cmd) => AnyCommand;
  load: () => Promise<Handler<never>>;
}

/** One table row; the handler's options type must be the definition's. */
function entry<O>(name: string, define: (c: Cmd) => Command<any[], O & {}, any>, load: () => Promise<Handler<O>>, hidden = false): CommandEntry {
  return { name, hidden, define, load: load as () => Promise<Handler<never>> };
}

// ---------------------------------------------------------------------------------------------
// shared option sets and parsers

const OUTPUT_LIST = 'output format: table, json or yaml';
const OUTPUT_INSPECT = 'output format: json, yaml, go-template or table';
const TEMPLATE = 'Go template for -o go-template, run on the JSON output (see README for what is supported)';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
function int(name: string) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError(`${name} must be a whole number`);
    return Number(value);
  };
}

/**
 * What kubelet knows about the node and its own configuration, for generating CRI configs. Left
 * unset, each comes from the node profile (the running kubelet, see `syncpod node`), else the
 * default named in its help; so none has a commander default.
 */
function nodeOptions<A extends unknown[], O extends {}>(cmd: Command<A, O, {}>) {
  return cmd
    .option('--pod-logs-root <dir>', "kubelet's podLogsDir (default: the kubelet's, else /var/log/pods)")
    .option('--pod-dir-root <dir>', "kubelet's root directory; pod dirs are <root>/pods/<uid> (default: the kubelet's --root-dir, else /var/lib/kubelet)")
    .option('--cluster-dns <ips>', "kubelet's clusterDNS, comma-separated (default: the kubelet's, else none: ClusterFirst falls back to Default)")
    .option('--cluster-domain <domain>', "kubelet's clusterDomain (default: the kubelet's, else cluster.local)")
    .option('--resolv-conf <file>', "kubelet's resolvConf, the node's resolver config (default: the kubelet's, else /etc/resolv.conf)")
    .option('--cgroup-driver <driver>', "cgroupfs or systemd, how the pod cgroup parent is spelled (default: the runtime's or the kubelet's, else cgroupfs)")
    .option('--cgroup-parent <path>', "use this cgroup parent instead of kubelet's QoS rule")
    .option('--runtime-handler <handler>', 'runtime handler for the sandbox (default: from runtimeClassName via --runtime-class)')
    .option('--runtime-class <name=handler>', 'RuntimeClass name to handler mapping (repeatable)', collect, [] as string[])
    .option('--node-name <name>', "node name for spec.nodeName and fieldRefs (default: the kubelet's --hostname-override, else this host's name)")
    .option('--env-file <file>', 'values for secretKeyRef/configMapKeyRef env entries: lines NAMESPACE/NAME/KEY=VALUE or KEY=VALUE')
    .option('--kubelet-version <version>', "kubelet version whose behaviour to mirror, 1.29 to 1.37 (e.g. 1.36 or v1.36.2; the patch matters for 1.29-1.31); default: the running kubelet's, else 1.37, the newest")
    .option('--ordinal <n>', 'which StatefulSet pod (ordinal) or Indexed Job completion index to plan (default: the first)');
}

const nodeOnlyDef = (c: Cmd) => nodeOptions(c);
/** The node/kubelet flags shared by plan, sync, runp and create. */
export type NodeOptions = OptionsOf<typeof nodeOnlyDef>;

function netOptions(cmd: Cmd) {
  return cmd
    .argument('<pod-id>', 'pod sandbox ID or unique prefix')
    .option('--cni-conf-dir <dir>', 'CNI network configurations', '/etc/cni/net.d')
    .option('--cni-bin-dir <dirs>', 'CNI plugin directories, colon-separated', '/opt/cni/bin:/usr/lib/cni')
    .option('--cni-cache-dir <dir>', 'CNI result cache (libcni layout)', '/var/lib/cni')
    .option('--network <name>', 'use the network with this name (default: the first valid config)')
    .option('--ifname <name>', 'interface name inside the sandbox', 'eth0')
    .option('--timeout <duration>', 'deadline for each plugin', '60s')
    .option('--dry-run', 'print, per plugin, the environment and stdin it would get; run nothing')
    .option('-o, --output <format>', 'output format: table or json', 'table');
}

// ---------------------------------------------------------------------------------------------
// runtime

const versionDef = (c: Cmd) =>
  c
    .description('Display runtime version information (and the CRI API version in use)')
    .option('-o, --output <format>', 'output format: text, json or yaml', 'text');
export type VersionOptions = OptionsOf<typeof versionDef>;

const infoDef = (c: Cmd) =>
  c
    .description('Display information of the container runtime: status conditions and verbose info')
    .option('-o, --output <format>', 'output format: json, yaml or go-template', 'json')
    .option('--template <template>', TEMPLATE)
    .option('-q, --quiet', 'do not show verbose information');
export type InfoOptions = OptionsOf<typeof infoDef>;

// ---------------------------------------------------------------------------------------------
// look commands

const podsDef = (c: Cmd) =>
  c
    .description('List pod sandboxes')
    .option('--id <id>', 'filter by pod id (prefix)')
    .option('--name <regex>', 'filter by pod name regular expression')
    .option('--namespace <regex>', 'filter by pod namespace regular expression')
    .option('-s, --state <state>', 'filter by pod state: ready or notready')
    .option('--label <key=value>', 'filter by label (repeatable)', collect, [] as string[])
    .option('-v, --verbose', 'show verbose info for pods')
    .option('-q, --quiet', 'list only pod IDs')
    .option('-o, --output <format>', OUTPUT_LIST, 'table')
    .option('-l, --latest', 'show the most recently created pod')
    .option('-n, --last <n>', 'show the last n recently created pods (0 for unlimited)', int('--last'), 0)
    .option('--no-trunc', 'show output without truncating the ID');
export type PodsOptions = OptionsOf<typeof podsDef>;

const inspectpDef = (c: Cmd) =>
  c
    .description('Display the status of one or more pod sandboxes')
    .argument('<pod-id...>', 'pod sandbox IDs or unique prefixes')
    .option('-o, --output <format>', OUTPUT_INSPECT, 'json')
    .option('--template <template>', TEMPLATE)
    .option('-q, --quiet', 'do not show verbose information');
export type InspectpOptions = OptionsOf<typeof inspectpDef>;

const psDef = (c: Cmd) =>
  c
    .description('List containers')
    .option('-a, --all', 'show all containers (default: running only)')
    .option('--id <id>', 'filter by container id (prefix)')
    .option('--name <regex>', 'filter by container name regular expression')
    .option('--namespace <regex>', 'filter by pod namespace regular expression')
    .option('-p, --pod <pod-id>', 'filter by pod id (prefix)')
    .option('--image <image>', 'filter by container image')
    .option('-s, --state <state>', 'filter by container state: created, running, exited or unknown')
    .option('--label <key=value>', 'filter by label (repeatable)', collect, [] as string[])
    .option('-v, --verbose', 'show verbose information for containers')
    .option('-q, --quiet', 'only display container IDs')
    .option('-o, --output <format>', OUTPUT_LIST, 'table')
    .option('-l, --latest', 'show the most recently created container (includes all states)')
    .option('-n, --last <n>', 'show the last n recently created containers, all states (0 for unlimited)', int('--last'), 0)
    .option('--no-trunc', 'show output without truncating the ID');
export type PsOptions = OptionsOf<typeof psDef>;

const inspectDef = (c: Cmd) =>
  c
    .description('Display the status of one or more containers')
    .argument('<container-id...>', 'container IDs or unique prefixes')
    .option('-o, --output <format>', OUTPUT_INSPECT, 'json')
    .option('--template <template>', TEMPLATE)
    .option('-q, --quiet', 'do not show verbose information');
export type InspectOptions = OptionsOf<typeof inspectDef>;

const logsDef = (c: Cmd) =>
  c
    .description('Fetch the logs of a container from its CRI log file')
    .argument('<container-id>', 'container ID or unique prefix')
    .option('-f, --follow', 'follow the log until the container exits')
    .option('--tail <n>', 'number of lines to show from the end (-1 for all)', int('--tail'), -1)
    .option('--since <time>', 'show logs since a timestamp (RFC3339) or a relative time like 42m')
    .option('-t, --timestamps', 'show timestamps')
    .option('-p, --previous', "print the logs of the container's previous instance (same pod, same name)")
    .option('--limit-bytes <n>', 'stop after this many bytes of log output (0: no limit)', int('--limit-bytes'), 0)
    .option('--stream <stream>', 'only this stream: stdout or stderr (not with --tail)')
    .option('-r, --reopen', 'ask the runtime to reopen the log file first (ReopenContainerLog, after a rotation)');
export type LogsOptions = OptionsOf<typeof logsDef>;

const imagesDef = (c: Cmd) =>
  c
    .aliases(['image', 'img'])
    .description('List images')
    .argument('[repository[:tag]]', 'only images matching this reference')
    .option('-q, --quiet', 'only show image IDs')
    .option('-v, --verbose', 'show verbose info for images')
    .option('--digests', 'show digests')
    .option('--pinned', 'show whether the image is pinned (PINNED column)')
    .option('--no-trunc', 'show output without truncating the ID')
    .option('-f, --filter <condition>', 'dangling=true|false, reference=REGEX, before=IMAGE, since=IMAGE (repeatable)', collect, [] as string[])
    .option('-o, --output <format>', OUTPUT_LIST, 'table');
export type ImagesOptions = OptionsOf<typeof imagesDef>;

const inspectiDef = (c: Cmd) =>
  c
    .description('Return the status of one or more images')
    .argument('<image...>', 'image IDs, references or unique ID prefixes')
    .option('-o, --output <format>', OUTPUT_INSPECT, 'json')
    .option('--template <template>', TEMPLATE)
    .option('-q, --quiet', 'do not show verbose information');
export type InspectiOptions = OptionsOf<typeof inspectiDef>;

// ---------------------------------------------------------------------------------------------
// streaming

/** Names instead of an ID: kubectl's habit (`--pod NAME -n NS --container NAME`). */
function targetOptions<A extends unknown[], O extends {}>(cmd: Command<A, O, {}>) {
  return cmd
    .option('--pod <name>', 'the newest ready pod sandbox with this name (instead of an ID)')
    .option('-n, --namespace <namespace>', 'namespace of --pod (default "default")')
    .option('--container <name>', 'container name in --pod (default: the only one)');
}

const execDef = (c: Cmd) =>
  targetOptions(
    c
      .description("Run a command in a running container (streaming; -s runs it with ExecSync). The exit code is the command's")
      .argument('[container-id]', 'container ID or unique prefix (leave out with --pod)')
      .argument('[command...]', 'the command and its arguments')
      .option('-i, --interactive', 'keep stdin open and send it to the command')
      .option('-t, --tty', 'allocate a terminal (local terminal in raw mode, size changes forwarded)')
      .option('-s, --sync', 'run with ExecSync: output after the command ended')
      .option('--timeout <duration>', 'with -s: seconds (or a duration like 30s) before the runtime stops the command'),
  ).passThroughOptions();
export type ExecOptions = OptionsOf<typeof execDef>;

const attachDef = (c: Cmd) =>
  targetOptions(
    c
      .description('Attach to the output (and with -i the input) of a running container')
      .argument('[container-id]', 'container ID or unique prefix (leave out with --pod)')
      .option('-i, --interactive', 'send stdin to the container')
      .option('-t, --tty', 'the container has a terminal: local terminal in raw mode'),
  );
export type AttachOptions = OptionsOf<typeof attachDef>;

const portForwardDef = (c: Cmd) =>
  c
    .description('Forward local ports to a pod sandbox: [LOCAL:]REMOTE, :REMOTE for any free local port; Ctrl-C ends')
    .argument('<pod-id-and-ports...>', 'pod sandbox ID or unique prefix (leave out with --pod), then the ports')
    .option('--address <addresses>', 'local addresses to listen on, comma-separated', '127.0.0.1')
    .option('--pod <name>', 'the newest ready pod sandbox with this name (instead of an ID)')
    .option('-n, --namespace <namespace>', 'namespace of --pod (default "default")');
export type PortForwardOptions = OptionsOf<typeof portForwardDef>;

// ---------------------------------------------------------------------------------------------
// resource usage

function statsOptions<A extends unknown[], O extends {}>(cmd: Command<A, O, {}>) {
  return cmd
    .option('--label <key=value>', 'filter by label (repeatable)', collect, [] as string[])
    .option('-o, --output <format>', OUTPUT_LIST, 'table')
    .option('-s, --seconds <n>', 'sample duration for CPU usage, in seconds', int('--seconds'), 1)
    .option('-w, --watch', 'redraw every 500 ms until Ctrl-C');
}

const statsDef = (c: Cmd) =>
  statsOptions(
    c
      .description('List container resource usage: CPU % over a sample, memory working set, writable layer')
      .argument('[container-id]', 'container ID or prefix (same as --id)')
      .option('-a, --all', 'show all containers (default: those using CPU or memory)')
      .option('--id <id>', 'filter by container ID')
      .option('-p, --pod <pod-id>', 'filter by pod ID'),
  );
export type StatsOptions = OptionsOf<typeof statsDef>;

const statspDef = (c: Cmd) =>
  statsOptions(
    c
      .description('List pod resource usage: CPU % over a sample and memory working set')
      .argument('[pod-id]', 'pod sandbox ID or prefix (same as --id)')
      .option('--id <id>', 'filter by pod ID'),
  );
export type StatspOptions = OptionsOf<typeof statspDef>;

const imagefsinfoDef = (c: Cmd) =>
  c
    .description("Return the image filesystem info: the runtime's image store mountpoint, bytes and inodes used")
    .option('-o, --output <format>', OUTPUT_INSPECT, 'json')
    .option('--template <template>', TEMPLATE);
export type ImagefsinfoOptions = OptionsOf<typeof imagefsinfoDef>;

// ---------------------------------------------------------------------------------------------
// runtime and container operations

const updateDef = (c: Cmd) =>
  c
    .description('Update the resources of one or more running containers (zero leaves a value unchanged)')
    .argument('<container-id...>', 'container IDs or unique prefixes')
    .option('--cpu-period <usecs>', 'CPU CFS period (hard cap period), in microseconds', int('--cpu-period'))
    .option('--cpu-quota <usecs>', 'CPU CFS quota: CPU time allowed per period, in microseconds', int('--cpu-quota'))
    .option('--cpu-share <shares>', 'CPU shares (relative weight)', int('--cpu-share'))
    .option('--cpuset-cpus <cpus>', 'CPUs to use, e.g. 0-2,4')
    .option('--cpuset-mems <nodes>', 'memory nodes to use, e.g. 0,1')
    .option('--memory <bytes>', 'memory limit in bytes', int('--memory'));
export type UpdateOptions = OptionsOf<typeof updateDef>;

const checkpointDef = (c: Cmd) =>
  c
    .description('Checkpoint one or more running containers (CheckpointContainer; CRIU on the runtime side)')
    .argument('<container-id...>', 'container IDs or unique prefixes')
    .option('-e, --export <archive>', 'the archive the runtime exports the checkpoint to');
export type CheckpointOptions = OptionsOf<typeof checkpointDef>;

const runtimeConfigDef = (c: Cmd) =>
  c
    .description("Display the runtime's configuration as it reports it to kubelet (RuntimeConfig: the cgroup driver)")
    .option('-o, --output <format>', 'output format: json or yaml', 'json');
export type RuntimeConfigOptions = OptionsOf<typeof runtimeConfigDef>;

const eventsDef = (c: Cmd) =>
  c
    .description('Stream container events (GetContainerEvents) until Ctrl-C')
    .option('-o, --output <format>', 'json (one event per line) or yaml (one document per event)', 'json');
export type EventsOptions = OptionsOf<typeof eventsDef>;

const configDef = (c: Cmd) =>
  c
    .description("Get and set options in crictl's client config file (-c, CRI_CONFIG_FILE or /etc/crictl.yaml)")
    .argument('[key]', 'old form: config KEY VALUE sets KEY')
    .argument('[value]', 'the value for KEY')
    .option('--get <key>', 'print the value of an option')
    .option('--set <key=value>', 'set options: key=value[,key=value...] (repeatable)', collect, [] as string[])
    .option('--list', 'print every option and its value');
export type ConfigOptions = OptionsOf<typeof configDef>;

// ---------------------------------------------------------------------------------------------
// plan and sync

const planDef = (c: Cmd) =>
  nodeOptions(
    c
      .description("Compute, changing nothing, what kubelet's SyncPod would do for each pod in the manifests")
      .argument('[file...]', "pod manifests (YAML or JSON; Pod, a workload's pod template, List; '-' for stdin); with --node, more desired pods (e.g. kubectl get pods -o yaml)")
      .option('-o, --output <format>', 'output format: table, json or yaml; with --node also npd (node-problem-detector plugin: one line, exit 0 OK, 1 NonOK, 2 Unknown)', 'table')
      .option('--detailed-exitcode', 'exit 0 when nothing would change, 2 when changes are pending, 1 on error')
      .option('--node', 'plan every pod this node should run (static pods, given files, the Pods API) and report orphans')
      .option('--static-pod-path <dir>', "kubelet's staticPodPath (with --node)")
      .option('--pods-api-socket <path>', "kubelet's Pods API socket (with --node; default <root>/pods-api/pods-api.sock, read when present; none: skip)")
      .option('--feature-gates <gates>', 'kubelet feature gates NAME=true|false,..., as kubelet takes them (every gate syncpod consults; see syncpod-plan(1))')
      .option('--liveness-failed <container>', "assume kubelet's prober holds a liveness Failure for this container (repeatable)", collect, [] as string[])
      .option('--startup-failed <container>', "assume kubelet's prober holds a startup Failure for this container (repeatable)", collect, [] as string[])
      .option('--startup-succeeded <container>', "assume kubelet's prober holds a startup Success for this container (repeatable; a pod status dump's started: true says the same)", collect, [] as string[])
      .option('--upgrade-to <version>', "preview an in-place kubelet upgrade: which running containers the target kubelet's first sync would restart, and why")
      .option('-l, --selector <selector>', "only the pods whose labels match (kubectl's syntax: k=v, k!=v, k in (a,b), k, !k)"),
  );
export type PlanOptions = OptionsOf<typeof planDef>;

const syncDef = (c: Cmd) =>
  nodeOptions(
    c
      .description("Converge a pod: compute the plan and execute it in SyncPod's order (kill, sandbox, init, containers)")
      .argument('[file...]', "a pod manifest ('-' for stdin); with --node, more desired pods")
      .option('-y, --yes', 'do not ask before killing containers or pods')
      .option('--node', 'converge every pod this node should run (static pods, given files), one pass')
      .option('--static-pod-path <dir>', "kubelet's staticPodPath (with --node)")
      .option('--pods-api-socket <path>', "kubelet's Pods API socket (with --node; default <root>/pods-api/pods-api.sock; none: skip)")
      .option('--remove-orphans', "with --node: kill and remove pods with kubelet's labels that no desired pod owns")
      .option('--parallel <n>', 'with --node: pods synced at once', int('--parallel'), 4)
      .option('--wait', "wait for each init container to finish and go on, as kubelet's repeated syncs would")
      .option('--wait-timeout <duration>', 'how long --wait waits for one init container', '5m')
      .option('--timings', 'report time spent in runtime calls and in syncpod itself')
      .option('--dry-run', 'print the plan and the CRI requests it would send, send nothing')
      .option('--show-secrets', 'with --dry-run, print values that came from Secrets (redacted by default)')
      .option('-o, --output <format>', 'result format: table or json', 'table')
      .option('-l, --selector <selector>', "only the pods whose labels match (kubectl's syntax: k=v, k!=v, k in (a,b), k, !k)"),
  );
export type SyncOptions = OptionsOf<typeof syncDef>;

const reportDef = (c: Cmd) =>
  c
    .description("Merge node plans (plan --node -o json, as `kubectl logs -l app=syncpod --prefix` prints the DaemonSet's) into one fleet view per node")
    .argument('<file...>', "log files or node plan JSON ('-' for stdin)")
    .option('-o, --output <format>', OUTPUT_LIST, 'table')
    .option('--detailed-exitcode', 'exit 0 when no node has pending changes, 2 when one has, 1 when a node reported errors');
export type ReportOptions = OptionsOf<typeof reportDef>;

// ---------------------------------------------------------------------------------------------
// step commands

const runpDef = (c: Cmd) =>
  nodeOptions(
    c
      .description("Run a new pod sandbox from a pod manifest (kubelet's config) or a crictl PodSandboxConfig file")
      .argument('<config>', "pod manifest or PodSandboxConfig (JSON/YAML; '-' for stdin)")
      .option('-r, --runtime <handler>', 'runtime handler (same as --runtime-handler)')
      .option('--attempt <n>', 'sandbox attempt for a manifest (default: next after the newest sandbox of the pod)', int('--attempt'))
      .option('--dry-run', 'print the RunPodSandbox request as JSON, send nothing'),
  );
export type RunpOptions = OptionsOf<typeof runpDef>;

const createDef = (c: Cmd) =>
  nodeOptions(
    c
      .description('Create a container in a pod sandbox: from a pod manifest with --container, or crictl-style from CONTAINER.json SANDBOX.json')
      .argument('<pod-id>', 'pod sandbox ID or unique prefix')
      .argument('<config>', 'pod manifest (with --container) or a ContainerConfig file')
      .argument('[sandbox-config]', 'PodSandboxConfig file (crictl form)')
      .option('--container <name>', 'the container of the manifest to create (regular, init or ephemeral)')
      .option('--no-pull', 'never pull the image (default: imagePullPolicy, as kubelet)')
      .option('--dry-run', 'print the CreateContainer request (and the pull decision) as JSON, send nothing')
      .option('--show-secrets', 'with --dry-run, print values that came from Secrets (redacted by default)'),
  );
export type CreateOptions = OptionsOf<typeof createDef>;

const startDef = (c: Cmd) =>
  c
    .description('Start one or more created containers')
    .argument('<container-id...>', 'container IDs or unique prefixes')
    .option('--dry-run', 'print the StartContainer requests as JSON, send nothing');
export type StartOptions = OptionsOf<typeof startDef>;

const stopDef = (c: Cmd) =>
  c
    .description('Stop one or more running containers')
    .argument('[container-id...]', 'container IDs or unique prefixes')
    .option('-t, --timeout <seconds>', 'seconds to wait before killing the container', int('--timeout'), 0)
    .option('-a, --all', 'stop all running containers (a preview of them goes to stderr first)')
    .option('--dry-run', 'print the StopContainer requests as JSON, send nothing');
export type StopOptions = OptionsOf<typeof stopDef>;

const rmDef = (c: Cmd) =>
  c
    .description('Remove one or more containers')
    .argument('[container-id...]', 'container IDs or unique prefixes')
    .option('-f, --force', 'stop the container first if it is running')
    .option('-a, --all', 'remove all containers (a preview of them goes to stderr first)')
    .option('--dry-run', 'print the RemoveContainer requests as JSON, send nothing');
export type RmOptions = OptionsOf<typeof rmDef>;

const stoppDef = (c: Cmd) =>
  c
    .description('Stop one or more pod sandboxes (their containers and network)')
    .argument('<pod-id...>', 'pod sandbox IDs or unique prefixes')
    .option('--dry-run', 'print the StopPodSandbox requests as JSON, send nothing');
export type StoppOptions = OptionsOf<typeof stoppDef>;

const rmpDef = (c: Cmd) =>
  c
    .description('Remove one or more pod sandboxes')
    .argument('[pod-id...]', 'pod sandbox IDs or unique prefixes')
    .option('-f, --force', 'stop the sandbox first if it is ready')
    .option('-a, --all', 'remove all pod sandboxes (a preview of them goes to stderr first)')
    .option('--dry-run', 'print the RemovePodSandbox requests as JSON, send nothing');
export type RmpOptions = OptionsOf<typeof rmpDef>;

const pullDef = (c: Cmd) =>
  c
    .description('Pull an image')
    .argument('<image>', 'NAME[:TAG|@DIGEST]')
    .option('--creds <user[:pass]>', 'registry credentials (env CRICTL_CREDS)')
    .option('--auth <base64>', "base64 of 'user[:pass]' (env CRICTL_AUTH)")
    .option('-u, --username <user>', 'registry user; the password is asked for (no echo), or read from the first line of stdin')
    .option('--pod-config <file>', 'PodSandboxConfig (or pod manifest) sent with the pull')
    .option('--dry-run', 'print the PullImage request as JSON, send nothing');
export type PullOptions = OptionsOf<typeof pullDef>;

const rmiDef = (c: Cmd) =>
  c
    .description('Remove one or more images')
    .argument('[image...]', 'image IDs, references or unique ID prefixes')
    .option('-a, --all', 'remove all images (a preview of them goes to stderr first)')
    .option('--dry-run', 'print the RemoveImage requests as JSON, send nothing (with --prune: what would go and why the rest stays)')
    .option('--prune', "remove every image kubelet would not miss: not pinned, used by no container, not the runtime's sandbox image, not needed by a desired pod (--node)")
    .option('--node', 'with --prune: keep the images the node\'s desired pods name (static pods, --pods files)')
    .option('--static-pod-path <dir>', "with --node: kubelet's staticPodPath")
    .option('--pods <file>', "with --node: more desired pods, e.g. kubectl get pods -o yaml (repeatable; '-' for stdin)", collect, [] as string[])
    .option('--node-name <name>', "with --node: the node's name (default: this host's name)");
export type RmiOptions = OptionsOf<typeof rmiDef>;

// ---------------------------------------------------------------------------------------------
// network

const netSetupDef = (c: Cmd) => netOptions(c.description("Run CNI ADD for a sandbox's network namespace, as kubelet's CNI step did"));
const netTeardownDef = (c: Cmd) => netOptions(c.description('Run CNI DEL for a sandbox (reverse order, idempotent)'));
const netCheckDef = (c: Cmd) => netOptions(c.description('Run CNI CHECK for a sandbox (cniVersion >= 0.4.0)'));
export type NetOptions = OptionsOf<typeof netSetupDef>;

// ---------------------------------------------------------------------------------------------
// node

const nodeDef = (c: Cmd) =>
  nodeOptions(
    c
      .description("Show the node settings syncpod uses and where each comes from: its flags, the running kubelet's flags, config file and drop-ins, its version, the runtime, defaults")
      .option('-o, --output <format>', OUTPUT_LIST, 'table')
      .option('--feature-gates <gates>', 'kubelet feature gates NAME=true|false,..., as kubelet takes them'),
  );
export type NodeCommandOptions = OptionsOf<typeof nodeDef>;

// ---------------------------------------------------------------------------------------------
// other

const completionDef = (c: Cmd) => c.description('Print a shell completion script').argument('<shell>', 'bash, zsh or fish');
export type CompletionOptions = OptionsOf<typeof completionDef>;

const warmDef = (c: Cmd) => c;
export type WarmOptions = OptionsOf<typeof warmDef>;

// ---------------------------------------------------------------------------------------------
// the table, in the order `syncpod --help` lists the commands

export const COMMANDS: readonly CommandEntry[] = [
  entry('version', versionDef, () => import('./runtime').then((m) => m.version)),
  entry('info', infoDef, () => import('./runtime').then((m) => m.info)),
  entry('pods', podsDef, () => import('./sandbox').then((m) => m.pods)),
  entry('inspectp', inspectpDef, () => import('./sandbox').then((m) => m.inspectp)),
  entry('ps', psDef, () => import('./container').then((m) => m.ps)),
  entry('inspect', inspectDef, () => import('./container').then((m) => m.inspect)),
  entry('logs', logsDef, () => import('./container').then((m) => m.logs)),
  entry('images', imagesDef, () => import('./image').then((m) => m.images)),
  entry('inspecti', inspectiDef, () => import('./image').then((m) => m.inspecti)),
  entry('update', updateDef, () => import('./container-ops').then((m) => m.update)),
  entry('checkpoint', checkpointDef, () => import('./container-ops').then((m) => m.checkpoint)),
  entry('runtime-config', runtimeConfigDef, () => import('./runtime-ops').then((m) => m.runtimeConfig)),
  entry('events', eventsDef, () => import('./runtime-ops').then((m) => m.events)),
  entry('config', configDef, () => import('./client-config').then((m) => m.config)),
  entry('stats', statsDef, () => import('./stats').then((m) => m.stats)),
  entry('statsp', statspDef, () => import('./stats').then((m) => m.statsp)),
  entry('imagefsinfo', imagefsinfoDef, () => import('./stats').then((m) => m.imagefsinfo)),
  entry('exec', execDef, () => import('./stream').then((m) => m.exec)),
  entry('attach', attachDef, () => import('./stream').then((m) => m.attach)),
  entry('port-forward', portForwardDef, () => import('./stream').then((m) => m.portForward)),
  entry('plan', planDef, () => import('./plan').then((m) => m.plan)),
  entry('sync', syncDef, () => import('./sync').then((m) => m.sync)),
  entry('report', reportDef, () => import('./report').then((m) => m.report)),
  entry('runp', runpDef, () => import('./steps').then((m) => m.runp)),
  entry('create', createDef, () => import('./steps').then((m) => m.create)),
  entry('start', startDef, () => import('./lifecycle').then((m) => m.start)),
  entry('stop', stopDef, () => import('./lifecycle').then((m) => m.stop)),
  entry('rm', rmDef, () => import('./lifecycle').then((m) => m.rm)),
  entry('stopp', stoppDef, () => import('./lifecycle').then((m) => m.stopp)),
  entry('rmp', rmpDef, () => import('./lifecycle').then((m) => m.rmp)),
  entry('pull', pullDef, () => import('./steps').then((m) => m.pull)),
  entry('rmi', rmiDef, () => import('./lifecycle').then((m) => m.rmi)),
  entry('net-setup', netSetupDef, () => import('./network').then((m) => m.netSetup)),
  entry('net-teardown', netTeardownDef, () => import('./network').then((m) => m.netTeardown)),
  entry('net-check', netCheckDef, () => import('./network').then((m) => m.netCheck)),
  entry('node', nodeDef, () => import('./node-profile').then((m) => m.node)),
  entry('completion', completionDef, () => import('./docs').then((m) => m.completion)),
  entry('__warm', warmDef, () => import('./warm').then((m) => m.warm), true),
];
