// The command tree: names, arguments, flags and help text, with crictl's vocabulary. Actions are
// loaded lazily (only the module of the command that runs is evaluated). man pages and shell
// completions are generated from this same definition (src/cli/docs.ts).
import { Command, Option } from 'commander';
import type { Context } from './context';
import { VERSION } from '../version';

export type CommandHandler = (ctx: Context, args: string[], opts: Record<string, any>) => Promise<number | void>;
type Loader = () => Record<string, unknown>;

/** Set by main.ts: turns the invoked command into a Context and runs the handler. */
export interface ActionRunner {
  run(cmd: Command, load: Loader, handler: string, args: unknown[]): Promise<void>;
}

const OUTPUT_LIST = 'output format: table, json or yaml';
const OUTPUT_INSPECT = 'output format: json, yaml or table';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
function int(name: string) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value)) throw new (require('commander').InvalidArgumentError)(`${name} must be a whole number`);
    return Number(value);
  };
}

export function buildProgram(runner: ActionRunner): Command {
  const program = new Command('syncpod');
  program
    .description(
      "Look at, plan and execute kubelet's SyncPod on a node, over any CRI runtime socket (containerd, CRI-O, cri-dockerd).\nRead commands use crictl's names, flags and JSON shapes.",
    )
    .version(VERSION, '--version', 'print syncpod\'s own version')
    .enablePositionalOptions()
    .option('-r, --runtime-endpoint <endpoint>', 'CRI runtime endpoint (unix:///path or a socket path); env CONTAINER_RUNTIME_ENDPOINT')
    .option('-i, --image-endpoint <endpoint>', 'CRI image endpoint (default: the runtime endpoint); env IMAGE_SERVICE_ENDPOINT')
    .option('-t, --timeout <duration>', 'deadline of each CRI call, e.g. 2s, 500ms (default: 2s, or timeout in the config file)')
    .option('-c, --config <file>', 'client config file (default /etc/crictl.yaml); env CRI_CONFIG_FILE')
    .option('-D, --debug', 'print debug lines and stack traces to stderr')
    .option('--api <version>', 'force the CRI API version: v1 or v1alpha2 (default: negotiate)')
    .option('--no-color', 'never colour the output (also NO_COLOR)')
    .showHelpAfterError(false);

  const action = (load: Loader, handler: string) =>
    async function (this: Command, ...args: unknown[]) {
      await runner.run(this, load, handler, args);
    };
  const runtimeCmds: Loader = () => require('./runtime');
  const sandboxCmds: Loader = () => require('./sandbox');
  const containerCmds: Loader = () => require('./container');
  const imageCmds: Loader = () => require('./image');
  const docsCmds: Loader = () => require('./docs');

  program
    .command('version')
    .description('Display runtime version information (and the CRI API version in use)')
    .option('-o, --output <format>', 'output format: text, json or yaml', 'text')
    .action(action(runtimeCmds, 'version'));

  program
    .command('info')
    .description('Display information of the container runtime: status conditions and verbose info')
    .option('-o, --output <format>', 'output format: json or yaml', 'json')
    .option('-q, --quiet', 'do not show verbose information')
    .action(action(runtimeCmds, 'info'));

  program
    .command('pods')
    .description('List pod sandboxes')
    .option('--id <id>', 'filter by pod id (prefix)')
    .option('--name <regex>', 'filter by pod name regular expression')
    .option('--namespace <regex>', 'filter by pod namespace regular expression')
    .option('-s, --state <state>', 'filter by pod state: ready or notready')
    .option('--label <key=value>', 'filter by label (repeatable)', collect, [])
    .option('-v, --verbose', 'show verbose info for pods')
    .option('-q, --quiet', 'list only pod IDs')
    .option('-o, --output <format>', OUTPUT_LIST, 'table')
    .option('-l, --latest', 'show the most recently created pod')
    .option('-n, --last <n>', 'show the last n recently created pods (0 for unlimited)', int('--last'), 0)
    .option('--no-trunc', 'show output without truncating the ID')
    .action(action(sandboxCmds, 'pods'));

  program
    .command('inspectp')
    .description('Display the status of one or more pod sandboxes')
    .argument('<pod-id...>', 'pod sandbox IDs or unique prefixes')
    .option('-o, --output <format>', OUTPUT_INSPECT, 'json')
    .option('-q, --quiet', 'do not show verbose information')
    .action(action(sandboxCmds, 'inspectp'));

  program
    .command('ps')
    .description('List containers')
    .option('-a, --all', 'show all containers (default: running only)')
    .option('--id <id>', 'filter by container id (prefix)')
    .option('--name <regex>', 'filter by container name regular expression')
    .option('--namespace <regex>', 'filter by pod namespace regular expression')
    .option('-p, --pod <pod-id>', 'filter by pod id (prefix)')
    .option('--image <image>', 'filter by container image')
    .option('-s, --state <state>', 'filter by container state: created, running, exited or unknown')
    .option('--label <key=value>', 'filter by label (repeatable)', collect, [])
    .option('-v, --verbose', 'show verbose information for containers')
    .option('-q, --quiet', 'only display container IDs')
    .option('-o, --output <format>', OUTPUT_LIST, 'table')
    .option('-l, --latest', 'show the most recently created container (includes all states)')
    .option('-n, --last <n>', 'show the last n recently created containers, all states (0 for unlimited)', int('--last'), 0)
    .option('--no-trunc', 'show output without truncating the ID')
    .action(action(containerCmds, 'ps'));

  program
    .command('inspect')
    .description('Display the status of one or more containers')
    .argument('<container-id...>', 'container IDs or unique prefixes')
    .option('-o, --output <format>', OUTPUT_INSPECT, 'json')
    .option('-q, --quiet', 'do not show verbose information')
    .action(action(containerCmds, 'inspect'));

  program
    .command('logs')
    .description("Fetch the logs of a container from its CRI log file")
    .argument('<container-id>', 'container ID or unique prefix')
    .option('-f, --follow', 'follow the log until the container exits')
    .option('--tail <n>', 'number of lines to show from the end (-1 for all)', int('--tail'), -1)
    .option('--since <time>', 'show logs since a timestamp (RFC3339) or a relative time like 42m')
    .option('-t, --timestamps', 'show timestamps')
    .option('-p, --previous', "print the logs of the container's previous instance (same pod, same name)")
    .action(action(containerCmds, 'logs'));

  program
    .command('images')
    .aliases(['image', 'img'])
    .description('List images')
    .argument('[repository[:tag]]', 'only images matching this reference')
    .option('-q, --quiet', 'only show image IDs')
    .option('-v, --verbose', 'show verbose info for images')
    .option('--digests', 'show digests')
    .option('--no-trunc', 'show output without truncating the ID')
    .option('-f, --filter <condition>', 'dangling=true|false, reference=REGEX, before=IMAGE, since=IMAGE (repeatable)', collect, [])
    .option('-o, --output <format>', OUTPUT_LIST, 'table')
    .action(action(imageCmds, 'images'));

  program
    .command('inspecti')
    .description('Return the status of one or more images')
    .argument('<image...>', 'image IDs, references or unique ID prefixes')
    .option('-o, --output <format>', OUTPUT_INSPECT, 'json')
    .option('-q, --quiet', 'do not show verbose information')
    .action(action(imageCmds, 'inspecti'));

  const planCmds: Loader = () => require('./plan');
  const stepCmds: Loader = () => require('./steps');
  const syncCmds: Loader = () => require('./sync');
  const netCmds: Loader = () => require('./network');

  /** What kubelet knows about the node and its own configuration, for generating CRI configs. */
  const nodeOptions = (cmd: Command): Command =>
    cmd
      .option('--pod-logs-root <dir>', "kubelet's podLogsDirectory", '/var/log/pods')
      .option('--pod-dir-root <dir>', "kubelet's root directory (pod dirs are <root>/pods/<uid>)", '/var/lib/kubelet')
      .option('--cluster-dns <ips>', "kubelet's clusterDNS, comma-separated (none: ClusterFirst falls back to Default)")
      .option('--cluster-domain <domain>', "kubelet's clusterDomain", 'cluster.local')
      .option('--resolv-conf <file>', "kubelet's resolvConf (the node's resolver config)", '/etc/resolv.conf')
      .option('--cgroup-driver <driver>', 'cgroupfs or systemd (how the pod cgroup parent is spelled)', 'cgroupfs')
      .option('--cgroup-parent <path>', 'use this cgroup parent instead of kubelet\'s QoS rule')
      .option('--runtime-handler <handler>', 'runtime handler for the sandbox (default: from runtimeClassName via --runtime-class)')
      .option('--runtime-class <name=handler>', 'RuntimeClass name to handler mapping (repeatable)', collect, [])
      .option('--node-name <name>', 'node name for spec.nodeName and fieldRefs (default: this host\'s name)')
      .option('--env-file <file>', 'values for secretKeyRef/configMapKeyRef env entries: lines NAMESPACE/NAME/KEY=VALUE or KEY=VALUE')
      .option('--kubelet-version <version>', 'kubelet minor version whose behaviour to mirror (1.28 or 1.33)', '1.33');

  nodeOptions(
    program
      .command('plan')
      .description("Compute, changing nothing, what kubelet's SyncPod would do for each pod in the manifests")
      .argument('<file...>', "pod manifests (YAML or JSON; Pod, a workload's pod template, List; '-' for stdin)")
      .option('-o, --output <format>', OUTPUT_LIST, 'table')
      .option('--detailed-exitcode', 'exit 0 when nothing would change, 2 when changes are pending, 1 on error')
      .option('--feature-gates <k=v,...>', 'kubelet feature gates, as kubelet takes them (every gate syncpod consults; see syncpod-plan(1))')
      .option('--liveness-failed <container>', "assume kubelet's prober holds a liveness Failure for this container (repeatable)", collect, [])
      .option('--startup-failed <container>', "assume kubelet's prober holds a startup Failure for this container (repeatable)", collect, [])
      .option('--upgrade-to <version>', 'preview an in-place kubelet upgrade: which running containers the target kubelet\'s first sync would restart, and why'),
  ).action(action(planCmds, 'plan'));

  nodeOptions(
    program
      .command('sync')
      .description("Converge a pod: compute the plan and execute it in SyncPod's order (kill, sandbox, init, containers)")
      .argument('<file>', "a pod manifest ('-' for stdin)")
      .option('-y, --yes', 'do not ask before killing containers or pods')
      .option('--wait', 'wait for each init container to finish and go on, as kubelet\'s repeated syncs would')
      .option('--wait-timeout <duration>', 'how long --wait waits for one init container', '5m')
      .option('--timings', 'report time spent in runtime calls and in syncpod itself')
      .option('--dry-run', 'print the plan and the CRI requests it would send, send nothing')
      .option('-o, --output <format>', 'result format: table or json', 'table'),
  ).action(action(syncCmds, 'sync'));

  nodeOptions(
    program
      .command('runp')
      .description('Run a new pod sandbox from a pod manifest (kubelet\'s config) or a crictl PodSandboxConfig file')
      .argument('<config>', "pod manifest or PodSandboxConfig (JSON/YAML; '-' for stdin)")
      .option('-r, --runtime <handler>', 'runtime handler (same as --runtime-handler)')
      .option('--attempt <n>', 'sandbox attempt for a manifest (default: next after the newest sandbox of the pod)', int('--attempt'))
      .option('--dry-run', 'print the RunPodSandbox request as JSON, send nothing'),
  ).action(action(stepCmds, 'runp'));

  nodeOptions(
    program
      .command('create')
      .description('Create a container in a pod sandbox: from a pod manifest with --container, or crictl-style from CONTAINER.json SANDBOX.json')
      .argument('<pod-id>', 'pod sandbox ID or unique prefix')
      .argument('<config>', 'pod manifest (with --container) or a ContainerConfig file')
      .argument('[sandbox-config]', 'PodSandboxConfig file (crictl form)')
      .option('--container <name>', 'the container of the manifest to create (regular, init or ephemeral)')
      .option('--no-pull', 'never pull the image (default: imagePullPolicy, as kubelet)')
      .option('--dry-run', 'print the CreateContainer request (and the pull decision) as JSON, send nothing'),
  ).action(action(stepCmds, 'create'));

  program
    .command('start')
    .description('Start one or more created containers')
    .argument('<container-id...>', 'container IDs or unique prefixes')
    .option('--dry-run', 'print the StartContainer requests as JSON, send nothing')
    .action(action(stepCmds, 'start'));

  program
    .command('stop')
    .description('Stop one or more running containers')
    .argument('<container-id...>', 'container IDs or unique prefixes')
    .option('-t, --timeout <seconds>', 'seconds to wait before killing the container', int('--timeout'), 0)
    .option('--dry-run', 'print the StopContainer requests as JSON, send nothing')
    .action(action(stepCmds, 'stop'));

  program
    .command('rm')
    .description('Remove one or more containers')
    .argument('<container-id...>', 'container IDs or unique prefixes')
    .option('-f, --force', 'stop the container first if it is running')
    .option('--dry-run', 'print the RemoveContainer requests as JSON, send nothing')
    .action(action(stepCmds, 'rm'));

  program
    .command('stopp')
    .description('Stop one or more pod sandboxes (their containers and network)')
    .argument('<pod-id...>', 'pod sandbox IDs or unique prefixes')
    .option('--dry-run', 'print the StopPodSandbox requests as JSON, send nothing')
    .action(action(stepCmds, 'stopp'));

  program
    .command('rmp')
    .description('Remove one or more pod sandboxes')
    .argument('<pod-id...>', 'pod sandbox IDs or unique prefixes')
    .option('-f, --force', 'stop the sandbox first if it is ready')
    .option('--dry-run', 'print the RemovePodSandbox requests as JSON, send nothing')
    .action(action(stepCmds, 'rmp'));

  program
    .command('pull')
    .description('Pull an image')
    .argument('<image>', 'NAME[:TAG|@DIGEST]')
    .option('--creds <user:pass>', 'registry credentials')
    .option('--auth <base64>', 'base64 of user:pass')
    .option('--pod-config <file>', 'PodSandboxConfig (or pod manifest) sent with the pull')
    .option('--dry-run', 'print the PullImage request as JSON, send nothing')
    .action(action(stepCmds, 'pull'));

  program
    .command('rmi')
    .description('Remove one or more images')
    .argument('<image...>', 'image IDs, references or unique ID prefixes')
    .option('--dry-run', 'print the RemoveImage requests as JSON, send nothing')
    .action(action(stepCmds, 'rmi'));

  const netOptions = (cmd: Command): Command =>
    cmd
      .argument('<pod-id>', 'pod sandbox ID or unique prefix')
      .option('--cni-conf-dir <dir>', 'CNI network configurations', '/etc/cni/net.d')
      .option('--cni-bin-dir <dirs>', 'CNI plugin directories, colon-separated', '/opt/cni/bin:/usr/lib/cni')
      .option('--cni-cache-dir <dir>', 'CNI result cache (libcni layout)', '/var/lib/cni')
      .option('--network <name>', 'use the network with this name (default: the first valid config)')
      .option('--ifname <name>', 'interface name inside the sandbox', 'eth0')
      .option('--timeout <duration>', 'deadline for each plugin', '60s')
      .option('--dry-run', 'print, per plugin, the environment and stdin it would get; run nothing')
      .option('-o, --output <format>', 'output format: table or json', 'table');
  netOptions(program.command('net-setup').description("Run CNI ADD for a sandbox's network namespace, as kubelet's CNI step did")).action(action(netCmds, 'netSetup'));
  netOptions(program.command('net-teardown').description('Run CNI DEL for a sandbox (reverse order, idempotent)')).action(action(netCmds, 'netTeardown'));
  netOptions(program.command('net-check').description('Run CNI CHECK for a sandbox (cniVersion >= 0.4.0)')).action(action(netCmds, 'netCheck'));

  program
    .command('completion')
    .description('Print a shell completion script')
    .argument('<shell>', 'bash, zsh or fish')
    .action(action(docsCmds, 'completion'));

  program.command('__warm', { hidden: true }).action(action(() => require('./warm'), 'warm'));

  return program;
}

export { Option };
