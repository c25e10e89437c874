// What every command definition (src/cli/commands/NAME/command.ts) is built from: the subcommand
// type, the options type a definition produces, and the flag groups and parsers several commands
// share (output formats, node/kubelet flags, volumes, desired pods, CNI, stream targets, stats).
// See src/cli/command-table.ts.
import { InvalidArgumentError, Option, type Command } from '@commander-js/extra-typings';
import { SyncpodError } from '../errors';

/** A fresh subcommand, as each definition receives it. */
export type Cmd = Command<[], {}, {}>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCommand = Command<any[], any, any>;
/** The options type a definition produces (what commander hands the action). */
export type OptionsOf<D extends (c: Cmd) => AnyCommand> = ReturnType<ReturnType<D>['opts']>;

// ---------------------------------------------------------------------------------------------
// shared option sets and parsers

export const OUTPUT_LIST = 'output format: table, json or yaml';
export const OUTPUT_INSPECT = 'output format: json, yaml, go-template or table';
export const TEMPLATE = 'Go template for -o go-template, run on the JSON output (see README for what is supported)';

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** crictl's string-slice flags (urfave/cli v2): repeatable, and each value split on "," and trimmed. */
export function stringSlice(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').map((v) => v.trim())];
}
export function int(name: string) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError(`${name} must be a whole number`);
    // Beyond 2^53 the number is no longer the one given (and no int64 field takes 1e20).
    if (!Number.isSafeInteger(Number(value)))
      throw new InvalidArgumentError(`${name} must be a whole number of at most ${Number.MAX_SAFE_INTEGER} in size`);
    return Number(value);
  };
}

// The node flags, one Option each (a fresh object per command), so that a command takes the ones it reads.
const NODE_FLAGS = {
  podLogsRoot: () =>
    new Option('--pod-logs-root <dir>', "kubelet's podLogsDir (default: the kubelet's, else /var/log/pods)"),
  podDirRoot: () =>
    new Option(
      '--pod-dir-root <dir>',
      "kubelet's root directory; pod dirs are <root>/pods/<uid> (default: the kubelet's --root-dir, else /var/lib/kubelet)",
    ),
  clusterDns: () =>
    new Option(
      '--cluster-dns <ips>',
      "kubelet's clusterDNS, comma-separated (default: the kubelet's, else none: ClusterFirst falls back to Default)",
    ),
  allowedUnsafeSysctls: () =>
    new Option(
      '--allowed-unsafe-sysctls <patterns>',
      "kubelet's allowedUnsafeSysctls for its sysctl admission, comma-separated names or prefix* patterns (default: the kubelet's, else none)",
    ),
  clusterDomain: () =>
    new Option('--cluster-domain <domain>', "kubelet's clusterDomain (default: the kubelet's, else cluster.local)"),
  resolvConf: () =>
    new Option(
      '--resolv-conf <file>',
      "kubelet's resolvConf, the node's resolver config (default: the kubelet's, else /etc/resolv.conf)",
    ),
  cgroupDriver: () =>
    new Option(
      '--cgroup-driver <driver>',
      "cgroupfs or systemd, how the pod cgroup parent is spelled (default: the runtime's or the kubelet's, else cgroupfs)",
    ),
  cgroupRoot: () =>
    new Option(
      '--cgroup-root <path>',
      "kubelet's cgroupRoot, cgroupfs form: pod cgroups go under <root>/kubepods (default: the kubelet's, else /)",
    ),
  cgroupsPerQos: () =>
    new Option(
      '--cgroups-per-qos [bool]',
      "kubelet's cgroupsPerQOS; false: no pod cgroup and an empty cgroup parent, the runtime places the pod (default: the kubelet's, else true)",
    ),
  nodeName: () =>
    new Option(
      '--node-name <name>',
      "node name for spec.nodeName and fieldRefs (default: the kubelet's --hostname-override, else this host's name)",
    ),
  kubeletVersion: () =>
    new Option(
      '--kubelet-version <version>',
      "kubelet version whose behaviour to mirror, 1.29 to 1.37 (e.g. 1.36 or v1.36.2; the patch matters for 1.29-1.31); default: the running kubelet's, else 1.37, the newest",
    ),
};

/**
 * What kubelet knows about the node and its own configuration, for generating CRI configs. Left
 * unset, each comes from the node profile (the running kubelet, see `syncpod node`), else the
 * default named in its help; so none has a commander default. With the flags only pod
 * configs need (cgroup parent, runtime handler and classes, env file, ordinal).
 */
export function nodeOptions<A extends unknown[], O extends {}>(cmd: Command<A, O, {}>) {
  return cmd
    .addOption(NODE_FLAGS.podLogsRoot())
    .addOption(NODE_FLAGS.podDirRoot())
    .addOption(NODE_FLAGS.clusterDns())
    .addOption(NODE_FLAGS.allowedUnsafeSysctls())
    .addOption(NODE_FLAGS.clusterDomain())
    .addOption(NODE_FLAGS.resolvConf())
    .addOption(NODE_FLAGS.cgroupDriver())
    .addOption(NODE_FLAGS.cgroupRoot())
    .addOption(NODE_FLAGS.cgroupsPerQos())
    .option('--cgroup-parent <path>', "use this cgroup parent instead of kubelet's QoS rule")
    .option(
      '--runtime-handler <handler>',
      'runtime handler for the sandbox (default: from runtimeClassName via --runtime-class)',
    )
    .option(
      '--runtime-class <name=handler>',
      'RuntimeClass name to handler mapping (repeatable)',
      collect,
      [] as string[],
    )
    .addOption(NODE_FLAGS.nodeName())
    .option(
      '--env-file <file>',
      'values for secretKeyRef/configMapKeyRef env entries: lines NAMESPACE/NAME/KEY=VALUE or KEY=VALUE',
    )
    .addOption(NODE_FLAGS.kubeletVersion())
    .option(
      '--ordinal <n>',
      'which StatefulSet pod (ordinal) or Indexed Job completion index to plan (default: the first)',
    );
}

/**
 * The node flags the node profile reads (doctor): nodeOptions without the ones only a pod's
 * configs need (--cgroup-parent, --runtime-handler, --runtime-class, --env-file, --ordinal).
 */
export function nodeProfileOptions<A extends unknown[], O extends {}>(cmd: Command<A, O, {}>) {
  return cmd
    .addOption(NODE_FLAGS.podLogsRoot())
    .addOption(NODE_FLAGS.podDirRoot())
    .addOption(NODE_FLAGS.clusterDns())
    .addOption(NODE_FLAGS.allowedUnsafeSysctls())
    .addOption(NODE_FLAGS.clusterDomain())
    .addOption(NODE_FLAGS.resolvConf())
    .addOption(NODE_FLAGS.cgroupDriver())
    .addOption(NODE_FLAGS.cgroupRoot())
    .addOption(NODE_FLAGS.cgroupsPerQos())
    .addOption(NODE_FLAGS.nodeName())
    .addOption(NODE_FLAGS.kubeletVersion());
}

/**
 * The data of configMap, secret and projected volumes, which syncpod cannot read from an API
 * server, and the volumes not to provide: for the commands that set up a pod's volumes (plan,
 * sync, create --container).
 */
export function volumeOptions<A extends unknown[], O extends {}>(cmd: Command<A, O, {}>) {
  return cmd
    .option(
      '--configmap <[ns/]name=dir>',
      'data of a ConfigMap for configMap and projected volumes (and configMapKeyRef/envFrom): one file per key, as kubectl create configmap --from-file=DIR reads it (repeatable)',
      collect,
      [] as string[],
    )
    .option(
      '--secret <[ns/]name=dir>',
      'data of a Secret for secret and projected volumes (and secretKeyRef/envFrom): one file per key (repeatable; never printed)',
      collect,
      [] as string[],
    )
    .option(
      '--service-account-token <[ns/]name=file>',
      "a token for the service account's projected serviceAccountToken source (syncpod cannot request one; repeatable; never printed)",
      collect,
      [] as string[],
    )
    .option(
      '--skip-volume <name>',
      'do not set up or mount this volume (a * matches any run of characters, e.g. kube-api-access-*; repeatable; the plan lists it)',
      collect,
      [] as string[],
    );
}

/**
 * --node and where the node's desired pods come from, for the removals that know kubelet (rmi
 * --prune; stop, rm and rmp with -a): what a desired pod needs or owns stays.
 */
export function desiredPodOptions<A extends unknown[], O extends {}>(cmd: Command<A, O, {}>, node: string) {
  return cmd
    .option('--node', node)
    .option('--static-pod-path <dir>', "with --node: kubelet's staticPodPath (default: the running kubelet's)")
    .option(
      '--pods <file>',
      "with --node: more desired pods, e.g. kubectl get pods -o yaml (repeatable; '-' for stdin)",
      collect,
      [] as string[],
    )
    .option(
      '--node-name <name>',
      "with --node: the node's name (default: the kubelet's --hostname-override, else this host's name)",
    );
}

const nodeOnlyDef = (c: Cmd) => nodeOptions(c);
/** The node/kubelet flags shared by plan, sync, runp and create. */
export type NodeOptions = OptionsOf<typeof nodeOnlyDef>;

export function netOptions(cmd: Cmd) {
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

/** Refuses flags that only mean something with --node when --node is not given (they were ignored). */
export function requireNodeFor(opts: { node?: boolean }, given: Record<string, unknown>): void {
  if (opts.node) return;
  const flag = Object.entries(given).find(([, v]) => v !== undefined && v !== false)?.[0];
  if (flag)
    throw new SyncpodError(
      `${flag} applies with --node (it plans or syncs the whole node); add --node or leave it out`,
    );
}

/**
 * Refuses flags that name one pod's container when --node plans or syncs the whole node: a container
 * name does not say which pod it belongs to there, and the node-wide flow would ignore them.
 */
export function refuseWithNode(opts: { node?: boolean }, given: Record<string, string[] | undefined>): void {
  if (!opts.node) return;
  const flag = Object.entries(given).find(([, v]) => v !== undefined && v.length > 0)?.[0];
  if (flag)
    throw new SyncpodError(
      `${flag} names a container of one pod and does not apply with --node; plan or sync that pod's manifest without --node`,
    );
}

/** Names instead of an ID: kubectl's habit (`--pod NAME -n NS --container NAME`). */
export function targetOptions<A extends unknown[], O extends {}>(cmd: Command<A, O, {}>) {
  return cmd
    .option('--pod <name>', 'the newest ready pod sandbox with this name (instead of an ID)')
    .option('-n, --namespace <namespace>', 'namespace of --pod (default "default")')
    .option('--container <name>', 'container name in --pod (default: the only one)');
}

export function statsOptions<A extends unknown[], O extends {}>(cmd: Command<A, O, {}>) {
  return cmd
    .option('--label <key=value>', 'filter by label (repeatable, or comma-separated)', stringSlice, [] as string[])
    .option('-o, --output <format>', OUTPUT_LIST, 'table')
    .option('-s, --seconds <n>', 'sample duration for CPU usage, in seconds', int('--seconds'), 1)
    .option('-w, --watch', "redraw on crictl's 500 ms ticker until Ctrl-C");
}

const netOnlyDef = (c: Cmd) => netOptions(c);
/** The flags of net-setup, net-teardown and net-check. */
export type NetOptions = OptionsOf<typeof netOnlyDef>;
