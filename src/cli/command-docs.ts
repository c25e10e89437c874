// What each command's man page says beyond its flags: keyed by the command's name (the table in
// commands.ts), rendered by man-pages.ts (npm run man). Flags and arguments come from the command
// definitions; this holds what a definition cannot: what the command reads, what it changes and what
// it never touches, its exit codes, the environment variables and node files it uses, and examples.
// Plain text; the renderer escapes it for roff. test/unit/docs.test.ts checks that every command has
// an entry, that every variable named here is read by src/, and that the pages are current.
// Loaded only by man-pages.ts (npm run man, tests), never by a command at run time.

/** Every environment variable syncpod reads (src/config, src/cli, src/main.ts), and what it does. */
export const ENVIRONMENT = {
  CONTAINER_RUNTIME_ENDPOINT:
    "The CRI runtime endpoint (unix:///path or a socket path) when -r/--runtime-endpoint is not given; it wins over runtime-endpoint in the config file and over the running kubelet's containerRuntimeEndpoint.",
  IMAGE_SERVICE_ENDPOINT:
    'The CRI image endpoint when -i/--image-endpoint is not given; it wins over image-endpoint in the config file. Unset everywhere, images are asked of the runtime endpoint.',
  CRI_CONFIG_FILE:
    "The client config file (crictl's format) when -c/--config is not given. A file named here or with -c must exist; the default, /etc/crictl.yaml under --host-root, is read only when it exists.",
  SYNCPOD_HOST_ROOT:
    "Where the node's root filesystem is mounted (as --host-root; the flag wins), e.g. /host in the DaemonSet. Node paths (sockets, /etc/crictl.yaml, the kubelet's files, /proc, /sys, CNI directories, log files, the lock directory) are read and written under it; what is sent to the runtime stays a node path. Must be absolute.",
  NO_COLOR:
    'Set to any non-empty value: no colour in the output, as --no-color. Colour is used only when the stream is a terminal.',
  COLUMNS:
    "The width syncpod's own tables (plan, sync results, report, node, doctor) wrap their reason and message columns to when the output is not a terminal (a terminal's own width wins; default 100). crictl-compatible lists are never wrapped.",
  SYNCPOD_DEBUG:
    "Set to 1: an error prints its stack trace instead of the one-line message (as -D does, without -D's request and response lines).",
  CRICTL_CREDS: 'Registry credentials USER[:PASSWORD] for pull when --creds is not given.',
  CRICTL_AUTH: "Base64 of 'USER[:PASSWORD]' for pull when --auth is not given.",
} as const satisfies Record<string, string>;
export type EnvName = keyof typeof ENVIRONMENT;

export interface NodeFile {
  /** The path as the page shows it (placeholders in <>). */
  path: string;
  text: string;
  /** Strings of src/ this entry rests on (the test finds each); default: the path up to its first placeholder. */
  inSource?: readonly string[];
}

/** The node files and directories syncpod reads or writes; every path is taken under --host-root unless said. */
export const FILES = {
  crictl: {
    path: '/etc/crictl.yaml',
    text: "crictl's client config: runtime-endpoint, image-endpoint, timeout (seconds), debug, pull-image-on-create, disable-pull-on-run (max-retries is accepted and ignored; any other key is an error). Read when -c and CRI_CONFIG_FILE name no other file.",
  },
  sockets: {
    path: '/run/containerd/containerd.sock, /run/crio/crio.sock, /var/run/cri-dockerd.sock',
    text: 'The runtime sockets tried in this order when no flag, variable, config file or running kubelet names an endpoint.',
    inSource: ['/run/containerd/containerd.sock', '/run/crio/crio.sock', '/var/run/cri-dockerd.sock'],
  },
  kubeletProc: {
    path: '/proc/<pid>/cmdline, /proc/<pid>/cwd, /proc/<pid>/exe, /proc/<pid>/root',
    text: "The running kubelet (a process named kubelet in syncpod's PID namespace; systemd's kubelet.service cgroup is looked at first): its flags, working directory and binary. The binary is run with --version to learn the kubelet version. Not read with --no-node-profile.",
    inSource: ['/proc', 'kubelet.service/cgroup.procs'],
  },
  kubeletConfig: {
    path: '<kubelet --config>, <kubelet --config-dir>/**/*.conf',
    text: "The kubelet's KubeletConfiguration file (e.g. /var/lib/kubelet/config.yaml) and its drop-ins, merged as the kubelet merges them; relative paths start at the kubelet's working directory and are read through its /proc/<pid>/root. `syncpod node` shows every value and where it came from.",
    inSource: ['config-dir', '.conf'],
  },
  profileCache: {
    path: '/run/syncpod/kubelet-versions.json, /run/syncpod/kubelet-configs.json',
    text: "syncpod's cache of the kubelet binary's --version answer and of the parsed config files, keyed by path, inode, size and times; safe to delete. syncpod's own directory: not under --host-root.",
    inSource: ['/run/syncpod', 'kubelet-versions.json', 'kubelet-configs.json'],
  },
  lock: {
    path: '/run/syncpod/locks/<namespace>%2F<name>.lock',
    text: "The per-pod lock of sync, holding the owner's pid and start time: two syncs of one pod never run their steps at once. A lock held by a live process is waited for; a symlink or directory in its place is refused. The lock is per pid, so sync from a pod needs hostPID.",
    inSource: ['/run/syncpod/locks', '.lock'],
  },
  staticPods: {
    path: '<staticPodPath>',
    text: "The kubelet's static pod directory (its staticPodPath or --pod-manifest-path, or --static-pod-path): one Pod per file, dot files skipped, no recursion, as the kubelet's file source reads it.",
    inSource: ['staticPodPath'],
  },
  podsApi: {
    path: '/var/lib/kubelet/pods-api/pods-api.sock',
    text: "The kubelet's Pods API socket (under its root directory; 1.36+): read when it exists, so the pods the kubelet knows are never orphans (and never removed by stop, rm or rmp -a --node). --pods-api-socket names another path, or none to skip it, where the command has that flag.",
    inSource: ['/var/lib/kubelet', 'pods-api', 'pods-api.sock'],
  },
  podDirs: {
    path: '/var/lib/kubelet/pods/<uid>',
    text: "The pod's directory under the kubelet's root directory (--pod-dir-root), with volumes/ and plugins/, as the kubelet makes it.",
    inSource: ['/var/lib/kubelet', 'pods'],
  },
  podLogs: {
    path: '/var/log/pods/<namespace>_<name>_<uid>/<container>/<restart count>.log',
    text: "The pod's log directory (the kubelet's podLogsDir, --pod-logs-root) and each container's CRI log file, which the runtime writes.",
  },
  containerLogs: {
    path: '/var/log/containers',
    text: "The kubelet's legacy links to the container log files, beside the pod logs directory.",
  },
  resolvConf: {
    path: '/etc/resolv.conf',
    text: "The node's resolver configuration (the kubelet's resolvConf, --resolv-conf): the DNS config of pods with dnsPolicy Default, and of ClusterFirst pods when no cluster DNS is set.",
  },
  hosts: {
    path: '/etc/hosts',
    text: "The node's hosts file, copied for host-network pods as the kubelet's managed /etc/hosts.",
  },
  cgroups: {
    path: '/sys/fs/cgroup, /sys/kernel/mm/hugepages',
    text: 'The cgroup version (v1 or v2) for the pod cgroup spelling, and the huge page sizes the host has (every size gets a limit).',
    inSource: ['/sys/fs/cgroup', '/sys/kernel/mm/hugepages'],
  },
  cniConf: {
    path: '/etc/cni/net.d',
    text: 'CNI network configurations (*.conf, *.conflist, *.json in lexical order; the first valid one, or --network). --cni-conf-dir for another.',
  },
  cniBin: {
    path: '/opt/cni/bin, /usr/lib/cni',
    text: 'Where CNI plugin binaries are looked for, in this order (--cni-bin-dir).',
    inSource: ['/opt/cni/bin', '/usr/lib/cni'],
  },
  cniCache: {
    path: '/var/lib/cni/results/<network>-<sandbox id>-<ifname>',
    text: "libcni's result cache (--cni-cache-dir): ADD writes the result there, DEL and CHECK read it, so a later DEL by syncpod, the runtime or cnitool finds it.",
    inSource: ['/var/lib/cni', 'results'],
  },
  cniLeases: {
    path: '/var/lib/cni/networks/<network>',
    text: "host-local IPAM's lease files (or the network's ipam.dataDir), read by the network.ipam-leases check.",
    inSource: ['/var/lib/cni/networks'],
  },
  doctorHost: {
    path: '/proc/swaps, /proc/self/mounts, /sys/fs/cgroup/cgroup.controllers, /proc/sys/net/ipv4/ip_forward, /proc/sys/net/bridge/bridge-nf-call-iptables',
    text: "What the resources and network checks read of the node: swap, the cgroup controllers (v1 mounts, v2 list), IPv4 forwarding (the runtime's network namespace first) and the bridge netfilter setting.",
    inSource: [
      '/proc/swaps',
      '/proc/self/mounts',
      '/sys/fs/cgroup/cgroup.controllers',
      '/proc/sys/net/ipv4/ip_forward',
      '/proc/sys/net/bridge/bridge-nf-call-iptables',
    ],
  },
} as const satisfies Record<string, NodeFile>;
export type FileKey = keyof typeof FILES;

export interface Example {
  /** What the example does, one sentence. */
  what: string;
  /** The command line(s), as typed. */
  command: string;
}

export interface CommandDoc {
  /** Paragraphs: what the command reads, what it changes, what it never touches. */
  description: readonly string[];
  /** [code, meaning], in the order of the codes. */
  exitStatus: ReadonlyArray<readonly [string, string]>;
  environment: readonly EnvName[];
  files: readonly FileKey[];
  examples: readonly Example[];
  /** Other syncpod commands and outside pages, e.g. 'crictl(1)'. */
  seeAlso: readonly string[];
}

// ---------------------------------------------------------------------------------------------
// pieces many pages share

/** Connecting to the runtime: every command that makes a CRI call. */
const CRI_ENV: readonly EnvName[] = ['CONTAINER_RUNTIME_ENDPOINT', 'CRI_CONFIG_FILE', 'SYNCPOD_HOST_ROOT'];
const IMAGE_ENV: readonly EnvName[] = [
  'CONTAINER_RUNTIME_ENDPOINT',
  'IMAGE_SERVICE_ENDPOINT',
  'CRI_CONFIG_FILE',
  'SYNCPOD_HOST_ROOT',
];
/** The endpoint files: crictl.yaml, the default sockets, and the kubelet's endpoint when nothing else names one. */
const CRI_FILES: readonly FileKey[] = ['crictl', 'sockets', 'kubeletProc', 'kubeletConfig'];
/** What the node profile reads (plan, sync, runp, create, node, doctor, the --node removals). */
const PROFILE_FILES: readonly FileKey[] = ['crictl', 'sockets', 'kubeletProc', 'kubeletConfig', 'profileCache'];

const OK_OR_ERROR = [
  ['0', 'Success.'],
  [
    '1',
    'An error: one line on stderr naming the endpoint, ID, file or flag and the cause (a usage error, an unreachable runtime, an ID that matches nothing or more than one object, a CRI call the runtime refused).',
  ],
] as const;
const STREAM_ENDS = 'Ctrl-C ends it (exit 0).';

const LOOK_NEVER = 'It only reads: no CRI call that changes state, no file written.';

/** A list command in crictl's shape. */
function listDoc(what: string, call: string, examples: Example[], extra: string[] = [], env = CRI_ENV): CommandDoc {
  return {
    description: [
      `Lists ${what} the runtime reports (${call}), as crictl does: a table by default, -o json|yaml for the protobuf JSON mapping inside crictl's envelope, -q for IDs only. Filters narrow the list; IDs in the table are cut to 13 characters unless --no-trunc.`,
      ...extra,
      LOOK_NEVER,
    ],
    exitStatus: OK_OR_ERROR,
    environment: [...env, 'NO_COLOR'],
    files: CRI_FILES,
    examples,
    seeAlso: ['crictl(1)'],
  };
}

/** An inspect command in crictl's shape. */
function inspectDoc(what: string, call: string, examples: Example[], related: string): CommandDoc {
  return {
    description: [
      `Prints the status of ${what} (${call}, with the runtime's verbose info unless -q) as JSON by default, in crictl's {"status": ..., "info": ...} shape; several print an array. -o yaml, -o table (crictl's Key: value lines) and -o go-template --template T are the other forms.`,
      `Without IDs it takes every object the filter flags keep, as crictl 1.31 does; with neither IDs nor filters it is an error. IDs may be unique prefixes.`,
      LOOK_NEVER,
    ],
    exitStatus: OK_OR_ERROR,
    environment: related === 'images' ? IMAGE_ENV : CRI_ENV,
    files: CRI_FILES,
    examples,
    seeAlso: [related, 'crictl(1)'],
  };
}

/** The removals that know the kubelet (stop -a, rm -a, rmp -a). */
const KUBELET_AWARE_ALL =
  "With -a on a node whose kubelet runs, removing everything only makes the kubelet start its pods again: add --node (and --static-pod-path, --pods FILE, --node-name when the defaults are not right) and the objects of the pods this node should run (static pods, given pods, the pods of the kubelet's Pods API) are kept and listed as kept; if a desired pod cannot be read, or none were given, nothing is done. Without --node, a warning names a running kubelet whose objects are about to go. A preview of what -a takes goes to stderr first.";

// ---------------------------------------------------------------------------------------------
// the pages

export const COMMAND_DOCS: Readonly<Record<string, CommandDoc>> = {
  version: {
    description: [
      "Asks the runtime for its name and version (the CRI Version call) and prints crictl's four lines: Version, RuntimeName, RuntimeVersion, RuntimeApiVersion. The CRI API version syncpod negotiated (runtime.v1, or runtime.v1alpha2 when the runtime answers Unimplemented to v1; --api forces one) goes to stderr when it is not v1, and is criApiInUse in -o json|yaml.",
      "It is the quickest test that the endpoint answers. syncpod's own version is `syncpod --version`, which asks nothing.",
      LOOK_NEVER,
    ],
    exitStatus: OK_OR_ERROR,
    environment: CRI_ENV,
    files: CRI_FILES,
    examples: [
      {
        what: 'Is containerd answering on its usual socket?',
        command: 'syncpod -r unix:///run/containerd/containerd.sock version',
      },
      { what: 'The runtime version as JSON, for a script:', command: 'syncpod version -o json' },
    ],
    seeAlso: ['info', 'crictl(1)'],
  },
  info: {
    description: [
      "Prints the runtime's status (the CRI Status call): the RuntimeReady and NetworkReady conditions with their reasons, and the runtime's verbose info (for containerd its CRI plugin config: CNI directories, sandbox image, cgroup settings) unless -q. JSON by default; -o yaml or -o go-template --template T.",
      'A NetworkReady condition that is false (e.g. "cni plugin not initialized") is why pods stay in ContainerCreating; `syncpod doctor` reads the same answer and says what would fix it.',
      LOOK_NEVER,
    ],
    exitStatus: OK_OR_ERROR,
    environment: CRI_ENV,
    files: CRI_FILES,
    examples: [
      {
        what: 'The two conditions only:',
        command:
          "syncpod info -q -o go-template --template '{{range .status.conditions}}{{.type}}={{.status}} {{.reason}}; {{end}}'",
      },
      { what: 'Where containerd looks for CNI configs:', command: "syncpod info | jq '.config.cni'" },
    ],
    seeAlso: ['version', 'runtime-config', 'doctor', 'crictl(1)'],
  },
  pods: listDoc(
    'the pod sandboxes',
    'ListPodSandbox',
    [
      { what: 'Every sandbox, newest first:', command: 'syncpod pods' },
      {
        what: 'The ready sandboxes of the kube-system namespace:',
        command: 'syncpod pods --namespace kube-system -s ready',
      },
      {
        what: 'The IDs of the sandboxes of one pod, for a script:',
        command: 'syncpod pods --name "^web$" --label io.kubernetes.pod.namespace=demo -q',
      },
    ],
    [
      "--name and --namespace are regular expressions, --id a prefix, --label key=value repeatable; -l/--latest and -n/--last N keep the newest. -v prints crictl's verbose block per pod.",
    ],
  ),
  inspectp: inspectDoc(
    'one or more pod sandboxes',
    'PodSandboxStatus',
    [
      { what: "A sandbox's status and the runtime's verbose info:", command: 'syncpod inspectp 4dff5610bdd4f' },
      {
        what: 'The IP of every ready pod of a namespace:',
        command:
          "syncpod inspectp --namespace demo -s ready -o go-template --template '{{.status.metadata.name}} {{.status.network.ip}}'",
      },
    ],
    'pods',
  ),
  ps: listDoc(
    'the containers',
    'ListContainers',
    [
      { what: 'The running containers:', command: 'syncpod ps' },
      { what: 'Every container of one pod sandbox, in every state:', command: 'syncpod ps -a -p 4dff5610bdd4f' },
      { what: 'The exited containers, with full IDs:', command: 'syncpod ps -a -s exited --no-trunc' },
    ],
    [
      'Without -a only running containers are listed. -p/--pod takes a sandbox ID prefix, --name and --namespace regular expressions; -r shows each image by its first tag (an ImageStatus call per image) instead of its ID.',
    ],
    IMAGE_ENV,
  ),
  inspect: inspectDoc(
    'one or more containers',
    'ContainerStatus',
    [
      { what: "A container's status, exit code and log path:", command: 'syncpod inspect 4f1c2d9a0b7e3' },
      {
        what: 'Why the containers of a namespace last exited:',
        command:
          "syncpod inspect -a --namespace demo -s exited -o go-template --template '{{.status.metadata.name}} {{.status.exitCode}} {{.status.reason}}'",
      },
    ],
    'ps',
  ),
  logs: {
    description: [
      "Prints a container's log from its CRI log file: the path the runtime reports in ContainerStatus (under the kubelet's pod log directory), read directly and under --host-root, with the CRI log format (timestamp, stream, tag) taken apart. -f follows the file until the container exits; --tail, --since, --limit-bytes and --stream stdout|stderr select; -t keeps the timestamps.",
      "-p/--previous prints the previous instance of the container (same pod, same name; crictl's <attempt-1>.log when it was removed).",
      'It changes nothing, except with -r/--reopen: then the runtime is first asked to reopen the log file (ReopenContainerLog), as the kubelet does after rotating it.',
    ],
    exitStatus: OK_OR_ERROR,
    environment: CRI_ENV,
    files: [...CRI_FILES, 'podLogs'],
    examples: [
      { what: 'The last 50 lines of a container, then follow it:', command: 'syncpod logs --tail 50 -f 4f1c2d9a0b7e3' },
      { what: 'Why did it crash last time? The previous instance:', command: 'syncpod logs -p 4f1c2d9a0b7e3' },
      {
        what: 'Only stderr of the last ten minutes, with timestamps:',
        command: 'syncpod logs --since 10m --stream stderr -t 4f1c2d9a0b7e3',
      },
    ],
    seeAlso: ['ps', 'inspect', 'crictl(1)'],
  },
  images: listDoc(
    'the images',
    'ListImages on the image endpoint',
    [
      { what: 'Every image, with digests:', command: 'syncpod images --digests' },
      { what: 'Images no tag names:', command: 'syncpod images -f dangling=true' },
      { what: "Which images are pinned (kept by the kubelet's image GC):", command: 'syncpod images --pinned' },
    ],
    [
      "A REPOSITORY[:TAG] argument keeps the images of that reference; -f/--filter takes dangling=, reference=, before= and since=. -v prints crictl's verbose block per image.",
    ],
    IMAGE_ENV,
  ),
  inspecti: inspectDoc(
    'one or more images',
    'ImageStatus on the image endpoint',
    [
      { what: "An image's size, tags and config:", command: 'syncpod inspecti docker.io/library/busybox:1.36' },
      {
        what: 'The pinned flag of every image:',
        command: "syncpod inspecti -f reference=. -o go-template --template '{{.status.repoTags}} {{.status.pinned}}'",
      },
    ],
    'images',
  ),
  update: {
    description: [
      'Changes the resources of running containers (UpdateContainerResources): CFS period and quota, CPU shares, cpuset CPUs and memory nodes, the memory limit. A value of zero, or one not given, leaves that field unchanged, as crictl does.',
      "It changes only the runtime's resource settings of the named containers: not the pod's manifest, not the kubelet's idea of them. The kubelet compares a running container's CPU and memory with its spec (in-place resize; `syncpod plan` does the same) and may set them back.",
    ],
    exitStatus: OK_OR_ERROR,
    environment: CRI_ENV,
    files: CRI_FILES,
    examples: [
      {
        what: 'Give a container half a CPU and 256 MiB:',
        command: 'syncpod update --cpu-period 100000 --cpu-quota 50000 --memory 268435456 4f1c2d9a0b7e3',
      },
      { what: 'Pin a container to CPUs 0 and 1:', command: 'syncpod update --cpuset-cpus 0-1 4f1c2d9a0b7e3' },
    ],
    seeAlso: ['stats', 'inspect', 'crictl(1)'],
  },
  checkpoint: {
    description: [
      "Asks the runtime to checkpoint running containers (CheckpointContainer; the runtime uses CRIU) and, with -e, to export the checkpoint to an archive. The archive path is the runtime's: it is written on the node by the runtime, not by syncpod.",
      'The container keeps running. A runtime that does not implement the call (containerd 1.6) is one line naming it.',
    ],
    exitStatus: OK_OR_ERROR,
    environment: CRI_ENV,
    files: CRI_FILES,
    examples: [
      {
        what: 'Checkpoint a container to an archive on the node:',
        command: 'syncpod checkpoint -e /var/lib/checkpoints/web.tar 4f1c2d9a0b7e3',
      },
    ],
    seeAlso: ['ps', 'crictl(1)'],
  },
  'runtime-config': {
    description: [
      "Prints the runtime's own configuration as it reports it to the kubelet (RuntimeConfig): the cgroup driver (systemd or cgroupfs). Kubelet 1.31 and newer take this over their own cgroupDriver; `syncpod node` and `syncpod doctor` compare the two.",
      LOOK_NEVER,
    ],
    exitStatus: OK_OR_ERROR,
    environment: CRI_ENV,
    files: CRI_FILES,
    examples: [{ what: "The runtime's cgroup driver:", command: 'syncpod runtime-config -o yaml' }],
    seeAlso: ['node', 'info', 'crictl(1)'],
  },
  events: {
    description: [
      "Streams the runtime's container events (GetContainerEvents, what the kubelet's evented PLEG reads): created, started, stopped, deleted, with the container and pod status. One JSON object per line, or one YAML document per event with -o yaml, until Ctrl-C.",
      LOOK_NEVER,
    ],
    exitStatus: [
      ['0', `The stream ended. ${STREAM_ENDS}`],
      ['1', 'An error: the runtime does not implement GetContainerEvents, or the stream failed.'],
    ],
    environment: CRI_ENV,
    files: CRI_FILES,
    examples: [
      {
        what: 'Watch containers start and stop while a pod is synced elsewhere:',
        command: "syncpod events | jq -c '{type: .containerEventType, id: .containerId}'",
      },
    ],
    seeAlso: ['ps', 'crictl(1)'],
  },
  config: {
    description: [
      "Reads and edits crictl's client config file: the file of -c, else CRI_CONFIG_FILE, else /etc/crictl.yaml. --get KEY prints a value, --list every option, --set KEY=VALUE[,KEY=VALUE] (or the old form KEY VALUE) writes the file, with the same keys and value rules as crictl (runtime-endpoint, image-endpoint, timeout, debug, pull-image-on-create, disable-pull-on-run).",
      'A write keeps the comments and the order of what is in the file and replaces it in one rename. The default path is taken as it is, not under --host-root (other commands read the default under --host-root). It never talks to the runtime.',
    ],
    exitStatus: OK_OR_ERROR,
    environment: ['CRI_CONFIG_FILE'],
    files: ['crictl'],
    examples: [
      {
        what: 'Point syncpod and crictl at CRI-O:',
        command: 'syncpod config --set runtime-endpoint=unix:///run/crio/crio.sock',
      },
      { what: 'Every option and its value:', command: 'syncpod config --list' },
    ],
    seeAlso: ['crictl(1)'],
  },
  stats: {
    description: [
      "Lists container resource usage (ListContainerStats): CPU % over a sample of -s seconds (two samples), the memory working set, the writable layer's size and inodes. Without -a, containers using neither CPU nor memory are left out, as crictl does. -w redraws every 500 ms until Ctrl-C; -o json|yaml prints the response, sorted by ID.",
      LOOK_NEVER,
    ],
    exitStatus: OK_OR_ERROR,
    environment: CRI_ENV,
    files: CRI_FILES,
    examples: [
      { what: 'What uses CPU now, over a 2-second sample:', command: 'syncpod stats -s 2' },
      { what: 'The containers of one pod, redrawn until Ctrl-C:', command: 'syncpod stats -a -p 4dff5610bdd4f -w' },
    ],
    seeAlso: ['statsp', 'update', 'crictl(1)'],
  },
  statsp: {
    description: [
      'Lists pod resource usage (ListPodSandboxStats): CPU % over a sample of -s seconds and the memory working set per pod sandbox. -w redraws every 500 ms until Ctrl-C; -o json|yaml prints the response.',
      LOOK_NEVER,
    ],
    exitStatus: OK_OR_ERROR,
    environment: CRI_ENV,
    files: CRI_FILES,
    examples: [{ what: 'The pods of one app:', command: 'syncpod statsp --label app=web' }],
    seeAlso: ['stats', 'crictl(1)'],
  },
  imagefsinfo: {
    description: [
      "Prints the runtime's image filesystem (ImageFsInfo): the image store's mountpoint, bytes and inodes used, per filesystem, as crictl 1.26 prints it. The kubelet's image GC and imagefs eviction thresholds work on this filesystem; `syncpod doctor` checks it against them.",
      LOOK_NEVER,
    ],
    exitStatus: OK_OR_ERROR,
    environment: IMAGE_ENV,
    files: CRI_FILES,
    examples: [
      {
        what: 'Bytes used by the image store:',
        command:
          "syncpod imagefsinfo -o go-template --template '{{.status.fsId.mountpoint}} {{.status.usedBytes.value}}'",
      },
    ],
    seeAlso: ['images', 'doctor', 'crictl(1)'],
  },
  exec: {
    description: [
      "Runs a command in a running container through the runtime's streaming server (Exec, then WebSocket with the v4.channel.k8s.io protocol), or with -s through ExecSync (output after the command ended; --timeout bounds it). -i sends stdin, -t gives a terminal (raw mode, size changes forwarded). Instead of an ID, --pod NAME [-n NAMESPACE] [--container NAME] picks the newest ready sandbox of that name.",
      "syncpod exits with the command's exit code (crictl exits 1). Put exec's own flags before the ID: everything after the ID belongs to the command. syncpod changes nothing itself; the command may change anything inside the container.",
      'When local stdin ends (-i without -t), syncpod keeps receiving until the command has been silent for 0.5 s or ended, then closes the connection: the v4 protocol cannot close stdin alone.',
    ],
    exitStatus: [
      ['0', 'The command succeeded, or the session ended because local stdin ended (-i without -t).'],
      ['N', "The command's own exit code, whatever it is: syncpod exits with it (crictl exits 1)."],
      [
        '1',
        "Also an error of syncpod's, with one line on stderr: the container is not running, the streaming server refused, -t without a terminal, no command given.",
      ],
      ['130', 'Interrupted with Ctrl-C.'],
    ],
    environment: CRI_ENV,
    files: CRI_FILES,
    examples: [
      { what: 'A shell in a container:', command: 'syncpod exec -it 4f1c2d9a0b7e3 sh' },
      {
        what: 'By pod and container name instead of an ID:',
        command: 'syncpod exec --pod web -n demo --container app cat /etc/resolv.conf',
      },
      {
        what: 'Copy a directory into a container:',
        command: 'tar c -C ./conf . | syncpod exec -i 4f1c2d9a0b7e3 tar x -C /etc/app',
      },
      {
        what: 'A health check with a deadline, as a probe would run it:',
        command: 'syncpod exec -s --timeout 5s 4f1c2d9a0b7e3 /bin/check',
      },
    ],
    seeAlso: ['attach', 'port-forward', 'crictl(1)'],
  },
  attach: {
    description: [
      "Attaches to the output of a running container's main process (Attach through the runtime's streaming server), and with -i sends it stdin; -t when the container has a terminal. --pod NAME [-n NAMESPACE] [--container NAME] instead of an ID picks the newest ready sandbox of that name.",
      'There is no detach key sequence with -t (Ctrl-P Ctrl-Q is sent to the container). syncpod changes nothing itself; input sent with -i goes to the process.',
    ],
    exitStatus: [
      ['0', 'The stream ended.'],
      ['N', "The process's exit code when it ends while attached, as the streaming server reports it."],
      ['1', 'An error: the container is not running, the streaming server refused, -t without a terminal.'],
      ['130', 'Interrupted with Ctrl-C.'],
    ],
    environment: CRI_ENV,
    files: CRI_FILES,
    examples: [{ what: "Follow a container's output live:", command: 'syncpod attach 4f1c2d9a0b7e3' }],
    seeAlso: ['exec', 'logs', 'crictl(1)'],
  },
  'port-forward': {
    description: [
      "Forwards local TCP ports to ports inside a pod sandbox's network namespace, through the runtime's streaming server (PortForward; one WebSocket per connection). Each port is [LOCAL:]REMOTE; :REMOTE picks a free local port. It listens on --address (127.0.0.1 by default) until Ctrl-C.",
      'stdout gets one "Forwarding from ADDRESS:PORT -> REMOTE" line per listener (scripts read the chosen port from it), stderr "Handling connection for PORT" per connection. It opens local listening sockets and changes nothing in the pod.',
    ],
    exitStatus: [
      ['0', `Ended with Ctrl-C.`],
      [
        '1',
        'An error: a local port in use, no listener on the pod port (the forward ends), the streaming server refused.',
      ],
    ],
    environment: CRI_ENV,
    files: CRI_FILES,
    examples: [
      {
        what: "Reach a pod's port 8080 on local port 18080:",
        command: 'syncpod port-forward 4dff5610bdd4f 18080:8080',
      },
      {
        what: 'By pod name, any free local port, on IPv4 and IPv6 loopback:',
        command: 'syncpod port-forward --pod web -n demo --address 127.0.0.1,::1 :8080',
      },
    ],
    seeAlso: ['exec', 'pods', 'crictl(1)'],
  },
  plan: {
    description: [
      "Computes what the kubelet's SyncPod would do for each pod in the manifests, and why, without changing anything. It reads the manifests (a Pod, a workload's pod template, a List, `kubectl get pod -o yaml`; '-' for stdin), applies the API server's defaults and validation, reads the pods' sandboxes and containers from the runtime (ListPodSandbox, ListContainers and their statuses, as the kubelet's GetPodStatus), and runs a mirror of the kubelet's computePodActions for the kubelet version in use: kill the pod or containers, create a sandbox, start init, ephemeral and regular containers, each step with its reason, then a summary line.",
      "The kubelet version, feature gates, cgroup driver, DNS and directories come from the running kubelet (the node profile, see syncpod-node(1)) unless given as flags, else syncpod's defaults. What the plan cannot know (probe results, back-off timers, how live state was matched) is listed as assumptions; --liveness-failed, --startup-failed and --startup-succeeded give probe results.",
      "With --node it plans every pod this node should run: the static pods of the kubelet's staticPodPath, pods given as files (e.g. `kubectl get pods -A --field-selector spec.nodeName=NODE -o yaml`) and, where its socket exists, the kubelet's Pods API; sandboxes and containers with the kubelet's labels that no desired pod owns are reported as orphans, with what the kubelet would do to them. --upgrade-to previews a newer kubelet: first whether it would start on this node at all (the start-up preconditions of that release the node fails: a flag it removed, a gate it locks or no longer knows, cgroup v1 with failCgroupV1, swap, a runtime without RuntimeConfig or runtime.v1, configuration it validates anew; each with its evidence and what to change), then which running containers its first sync would restart. --every repeats for a DaemonSet.",
      'It never calls a CRI method that changes state, writes no file, and never talks to an API server. -o json|yaml is a contract: fields are only ever added.',
    ],
    exitStatus: [
      ['0', 'The plan was made (with --detailed-exitcode: nothing would change).'],
      [
        '1',
        'An error: a manifest that does not parse or validate (one line naming the file, document and field), an unreachable runtime, a kubelet configuration that cannot be read; with --node also any input problem (listed on stderr; the rest is still planned). With --upgrade-to and --detailed-exitcode: the target kubelet would not start on this node. Without --node: a pod is blocked, with or without --detailed-exitcode (a volume syncpod cannot provide: a persistentVolumeClaim, csi, nfs, … volume, or a configMap, secret or projected volume whose data was not given; the plan says which).',
      ],
      ['2', 'With --detailed-exitcode: changes are pending (with --node, orphans count as changes).'],
      [
        '0, 1, 2',
        'With --node -o npd (a node-problem-detector plugin): 0 OK, 1 NonOK (a pod would change or is blocked, or an orphan), 2 Unknown (an input or the runtime could not be read).',
      ],
    ],
    environment: [...IMAGE_ENV, 'NO_COLOR'],
    files: [...PROFILE_FILES, 'staticPods', 'podsApi', 'podDirs', 'podLogs', 'resolvConf', 'cgroups'],
    examples: [
      { what: 'What would the kubelet do for this manifest?', command: 'syncpod plan web.yaml' },
      {
        what: 'In a script or CI: exit 2 when something would change:',
        command: 'syncpod plan --detailed-exitcode -o json deploy/*.yaml > plan.json',
      },
      {
        what: 'The pod as the API server holds it, with a liveness probe assumed failing:',
        command: 'kubectl get pod -n demo web -o yaml | syncpod plan --liveness-failed app -',
      },
      {
        what: 'The whole node, with the pods the API server binds to it:',
        command: 'kubectl get pods -A --field-selector spec.nodeName=$(hostname) -o yaml | syncpod plan --node -',
      },
      {
        what: 'Which containers would a kubelet 1.37 restart after an in-place upgrade?',
        command: 'syncpod plan --node --upgrade-to 1.37',
      },
      { what: 'As a node-problem-detector custom plugin:', command: 'syncpod plan --node -o npd' },
    ],
    seeAlso: ['sync', 'node', 'doctor', 'report'],
  },
  sync: {
    description: [
      "Converges a pod as the kubelet's SyncPod would: plans as `syncpod plan` does (same inputs, same node profile), asks before killing anything, then executes the steps in the kubelet's order: kill the pod or unwanted containers, create the sandbox (pod log directory, RunPodSandbox, its IP), pull images by imagePullPolicy, and create and start ephemeral, init and regular containers with the configs the kubelet generates, running postStart exec hooks. It stops where the kubelet stops and leaves what the kubelet leaves; running it again after success plans nothing.",
      "It changes the runtime (sandboxes, containers, images pulled) and the node files the kubelet would make for the pod: its log directory and the /var/log/containers links; with --node also what the kubelet's preflight makes (the pod cgroup, the pod directories under the kubelet's root, hostPath directories). A per-pod lock keeps two syncs of one pod apart. Other uids of the same namespace/name (duplicates) are killed and removed first. It touches nothing without the kubelet's labels and never talks to an API server: Secret and ConfigMap values come from --env-file (environment) and from --configmap, --secret and --service-account-token (volumes and environment; never printed). configMap, secret, downwardAPI and projected volumes are written as the kubelet's atomic writer lays them out (secret, downwardAPI and projected on a tmpfs), an emptyDir of medium Memory is a tmpfs sized as the kubelet sizes it; a pod with a volume syncpod cannot provide is refused before anything is done (--skip-volume leaves a volume out).",
      "--wait waits for each init container and plans again, as the kubelet's next syncs would. --dry-run prints the plan and the exact CRI requests and sends nothing (Secret values redacted unless --show-secrets). With --node every pod this node should run is converged in one pass, --parallel at once; --remove-orphans also stops and removes pods with the kubelet's labels that no desired pod owns (and their logs).",
      'Progress goes to stderr, the result table (or -o json) to stdout. Without a terminal on stdin it refuses to kill without --yes.',
    ],
    exitStatus: [
      ['0', 'Every step succeeded (or, with --dry-run, every request could be made).'],
      [
        '1',
        'A step failed (the result table says which and what had been done), the kill was not confirmed, or an error before the first step (a bad manifest, a pod blocked by a volume syncpod cannot provide, an unreachable runtime, a lock held too long).',
      ],
    ],
    environment: [...IMAGE_ENV, 'NO_COLOR'],
    files: [
      ...PROFILE_FILES,
      'lock',
      'staticPods',
      'podsApi',
      'podDirs',
      'podLogs',
      'containerLogs',
      'resolvConf',
      'hosts',
      'cgroups',
    ],
    examples: [
      {
        what: 'Run a pod, waiting for its init containers, without questions:',
        command: 'syncpod sync --yes --wait web.yaml',
      },
      { what: 'See the exact CRI requests first, send nothing:', command: 'syncpod sync --dry-run -o json web.yaml' },
      {
        what: 'A `kubectl get pod -o yaml` dump, with the data of its ConfigMap and service-account token volumes:',
        command:
          'syncpod sync -y web.yaml --configmap kube-root-ca.crt=ca/ --configmap web-config=cfg/ --service-account-token default=sa.token',
      },
      {
        what: 'Converge every static pod and given pod of the node, removing orphans:',
        command: 'syncpod sync --node --remove-orphans --yes',
      },
      { what: 'Where did the time go?', command: 'syncpod sync --yes --timings web.yaml' },
    ],
    seeAlso: ['plan', 'runp', 'create', 'start'],
  },
  doctor: {
    description: [
      "Checks this node against the kubelet's own rules and the runtime's own answers, and says for each check ok, warn, fail or skip, with the evidence (what was read, and where) and a remedy. Groups: runtime (reachable, API version, conditions, version, cgroup driver), kubelet (found, version, config, cgroup driver, sandbox image, static pods), pods (crash loops, OOM kills, stuck containers, dead sandboxes, orphans), network (CNI config and plugins, host-local IPAM leases, IP forwarding, bridge netfilter), resources (cgroup controllers, swap, image and log filesystem against the kubelet's eviction thresholds) and dns (the kubelet's resolv.conf).",
      '--upgrade-to VERSION adds the upgrade group: would kubelet VERSION start on this node (upgrade.cgroup, upgrade.runtime, upgrade.swap, upgrade.flags, upgrade.feature-gates, upgrade.config; fail where that kubelet would exit, warn where it starts with a warning), the same verdict as plan --upgrade-to.',
      "It reads the runtime over CRI, the kubelet's process, flags and config files, /proc, /sys and the CNI directories; never an API server. It changes nothing. Each check has a deadline (--check-timeout); one that does not answer in time is skipped. --list shows the checks, --check and --skip choose them. -o json|yaml is a report contract, -o npd a node-problem-detector plugin, -o prometheus node-exporter's textfile format; --every repeats for a DaemonSet.",
    ],
    exitStatus: [
      ['0', 'The checks ran (with --detailed-exitcode: every check ok or skipped).'],
      ['1', 'syncpod could not run: a bad flag, an unknown check id.'],
      ['2', 'With --detailed-exitcode: a check warns or fails.'],
      [
        '0, 1, 2',
        'With -o npd: 0 OK, 1 NonOK (a check fails or warns; the line names the first), 2 Unknown (nothing could be checked, or syncpod could not run).',
      ],
    ],
    environment: [...IMAGE_ENV, 'NO_COLOR'],
    files: [
      ...PROFILE_FILES,
      'staticPods',
      'podsApi',
      'podLogs',
      'resolvConf',
      'cniConf',
      'cniBin',
      'cniLeases',
      'doctorHost',
    ],
    examples: [
      { what: 'What is wrong with this node?', command: 'syncpod doctor' },
      {
        what: 'Only the runtime group and the crash-loop check:',
        command: 'syncpod doctor --check runtime,pods.crashloop',
      },
      {
        what: 'The findings only, as JSON:',
        command: 'syncpod doctor -o json | jq \'.checks[] | select(.status != "ok")\'',
      },
      {
        what: "For node-exporter's textfile collector:",
        command:
          'syncpod doctor -o prometheus > /var/lib/node-exporter/syncpod.prom.tmp && mv /var/lib/node-exporter/syncpod.prom.tmp /var/lib/node-exporter/syncpod.prom',
      },
      {
        what: 'In a script: exit 2 when something warns or fails:',
        command: 'syncpod doctor --detailed-exitcode > /dev/null',
      },
      {
        what: 'Would kubelet 1.37 start on this node?',
        command: 'syncpod doctor --upgrade-to 1.37 --check upgrade',
      },
    ],
    seeAlso: ['node', 'plan', 'report', 'info'],
  },
  report: {
    description: [
      "Merges the node plans (`plan --node -o json`) and doctor reports (`doctor -o json`) that the syncpod DaemonSet logs into one view, one row per node: pods planned, pods with pending changes, blocked pods, orphans, errors, the doctor's worst status and findings, runs seen and when. Its input is `kubectl logs --prefix` output (`[pod/NAME/CONTAINER]` prefixes, optional timestamps, several pods interleaved) or plain JSON; the newest plan and report of each node count.",
      'It reads only the files given (or stdin): no runtime, no node files, no API server. It changes nothing.',
    ],
    exitStatus: [
      ['0', 'The view was printed (with --detailed-exitcode: no node has pending changes or doctor findings).'],
      ['1', 'An error reading the input; with --detailed-exitcode also: a node reported errors.'],
      ['2', 'With --detailed-exitcode: a node has pending changes or doctor findings.'],
    ],
    environment: ['NO_COLOR'],
    files: [],
    examples: [
      {
        what: 'The fleet view of the DaemonSet in deploy/:',
        command: 'kubectl logs -n kube-system -l app=syncpod --all-containers --prefix --tail=-1 | syncpod report -',
      },
      { what: 'Saved logs, as JSON:', command: 'syncpod report -o json node-a.log node-b.log' },
    ],
    seeAlso: ['plan', 'doctor'],
  },
  runp: {
    description: [
      "Runs a new pod sandbox (RunPodSandbox) and prints its ID. From a pod manifest, the request is the sandbox config the kubelet would generate (labels, annotations, hostname, DNS, ports, log directory, cgroup parent, security context, the next attempt after the pod's newest sandbox), with the node's settings from the node profile; a crictl PodSandboxConfig file is sent as it is. -r/--runtime picks the runtime handler.",
      "It creates the pod's log directory and the sandbox; it starts no container (see create, start) and pulls no image itself. --dry-run prints the request as JSON and changes nothing.",
    ],
    exitStatus: OK_OR_ERROR,
    environment: CRI_ENV,
    files: [...PROFILE_FILES, 'podLogs', 'resolvConf', 'cgroups'],
    examples: [
      { what: "A sandbox with the kubelet's config for this manifest:", command: 'syncpod runp web.yaml' },
      { what: 'A crictl sandbox config with the runc handler:', command: 'syncpod runp -r runc sandbox.json' },
      { what: 'The RunPodSandbox request only:', command: 'syncpod runp --dry-run web.yaml' },
    ],
    seeAlso: ['create', 'sync', 'stopp', 'rmp', 'crictl(1)'],
  },
  create: {
    description: [
      "Creates a container in a pod sandbox (CreateContainer) and prints its ID. With --container NAME and a pod manifest, the request is the container config the kubelet would generate for that container (regular, init or ephemeral): labels, annotations, hash, restart count, log path, mounts, environment (with --env-file values), resources and security context; the image is pulled first as imagePullPolicy says (--no-pull never). Crictl's form takes CONTAINER.json and SANDBOX.json and sends them as they are.",
      "It pulls the image (manifest form) and creates the container's log directory and the container; it does not start it (see start). --dry-run prints the request and the pull decision as JSON, Secret values redacted unless --show-secrets, and changes nothing.",
    ],
    exitStatus: OK_OR_ERROR,
    environment: IMAGE_ENV,
    files: [...PROFILE_FILES, 'podLogs', 'podDirs', 'resolvConf', 'hosts', 'cgroups'],
    examples: [
      {
        what: 'The app container of a manifest, as the kubelet would create it:',
        command: 'syncpod create 4dff5610bdd4f web.yaml --container app',
      },
      { what: 'The crictl form:', command: 'syncpod create 4dff5610bdd4f container.json sandbox.json' },
      {
        what: 'A run by hand: sandbox, container, start:',
        command: 'POD=$(syncpod runp web.yaml)\nsyncpod start $(syncpod create $POD web.yaml --container app)',
      },
    ],
    seeAlso: ['runp', 'start', 'sync', 'crictl(1)'],
  },
  start: {
    description: [
      'Starts created containers (StartContainer), by ID or unique prefix, and prints each ID. It runs no postStart hook (sync does). --dry-run prints the requests and sends nothing.',
    ],
    exitStatus: OK_OR_ERROR,
    environment: CRI_ENV,
    files: CRI_FILES,
    examples: [{ what: 'Start a container made with create:', command: 'syncpod start 4f1c2d9a0b7e3' }],
    seeAlso: ['create', 'stop', 'crictl(1)'],
  },
  stop: {
    description: [
      'Stops running containers (StopContainer with -t seconds of grace before the kill), by ID or unique prefix, or every running container with -a. The containers stay, exited; their sandboxes are not touched. --dry-run prints the requests and sends nothing.',
      KUBELET_AWARE_ALL,
    ],
    exitStatus: OK_OR_ERROR,
    environment: CRI_ENV,
    files: [...PROFILE_FILES, 'staticPods', 'podsApi'],
    examples: [
      { what: 'Stop a container with 10 seconds of grace:', command: 'syncpod stop -t 10 4f1c2d9a0b7e3' },
      {
        what: 'Stop every container the kubelet would not start again:',
        command: 'syncpod stop -a --node --dry-run\nsyncpod stop -a --node',
      },
    ],
    seeAlso: ['start', 'rm', 'stopp', 'crictl(1)'],
  },
  rm: {
    description: [
      'Removes containers (RemoveContainer), by ID or unique prefix, or every container with -a; -f stops a running one first. The sandbox stays. --dry-run prints the requests and sends nothing.',
      KUBELET_AWARE_ALL,
    ],
    exitStatus: OK_OR_ERROR,
    environment: CRI_ENV,
    files: [...PROFILE_FILES, 'staticPods', 'podsApi'],
    examples: [
      { what: 'Remove a container, stopping it first:', command: 'syncpod rm -f 4f1c2d9a0b7e3' },
      {
        what: 'Remove every exited container of a sandbox:',
        command: 'syncpod rm $(syncpod ps -a -s exited -p 4dff5610bdd4f -q)',
      },
    ],
    seeAlso: ['stop', 'rmp', 'crictl(1)'],
  },
  stopp: {
    description: [
      'Stops pod sandboxes (StopPodSandbox): the runtime stops their containers and tears down their network (CNI DEL). The sandboxes stay, NotReady, until rmp. --dry-run prints the requests and sends nothing.',
    ],
    exitStatus: OK_OR_ERROR,
    environment: CRI_ENV,
    files: CRI_FILES,
    examples: [
      { what: 'Stop the sandboxes of a namespace:', command: 'syncpod stopp $(syncpod pods --namespace demo -q)' },
    ],
    seeAlso: ['rmp', 'runp', 'crictl(1)'],
  },
  rmp: {
    description: [
      'Removes pod sandboxes (RemovePodSandbox) with their containers, by ID or unique prefix, or every sandbox with -a; -f stops a ready one first. --dry-run prints the requests and sends nothing.',
      KUBELET_AWARE_ALL,
    ],
    exitStatus: OK_OR_ERROR,
    environment: CRI_ENV,
    files: [...PROFILE_FILES, 'staticPods', 'podsApi'],
    examples: [
      { what: 'Remove a sandbox, stopping it first:', command: 'syncpod rmp -f 4dff5610bdd4f' },
      {
        what: 'Remove the pods no desired pod owns (orphans and pods made by hand):',
        command:
          'kubectl get pods -A --field-selector spec.nodeName=$(hostname) -o yaml > pods.yaml\nsyncpod rmp -a --node --pods pods.yaml',
      },
    ],
    seeAlso: ['stopp', 'rm', 'sync', 'crictl(1)'],
  },
  pull: {
    description: [
      'Pulls an image (PullImage on the image endpoint) and prints "Image is up to date for" and the reference the runtime stored. Credentials as crictl takes them: --creds USER[:PASS] (or CRICTL_CREDS), --auth BASE64 (or CRICTL_AUTH), -u USER with the password asked for without echo (or read from the first line of stdin when it is not a terminal). --pod-config sends a sandbox config (or one made from a pod manifest) with the pull, for runtimes that pull per runtime handler; -a sets annotations on the image.',
      'The runtime stores the image; nothing else changes. --dry-run prints the request and sends nothing; its password, auth and tokens are redacted unless --show-secrets. --debug logs every request but never the registry credentials.',
    ],
    exitStatus: OK_OR_ERROR,
    environment: [...IMAGE_ENV, 'CRICTL_CREDS', 'CRICTL_AUTH'],
    files: CRI_FILES,
    examples: [
      { what: 'Pull a public image:', command: 'syncpod pull docker.io/library/busybox:1.36' },
      {
        what: 'From a private registry, the password asked for:',
        command: 'syncpod pull -u robot registry.example.com/team/app:2.1',
      },
    ],
    seeAlso: ['images', 'rmi', 'crictl(1)'],
  },
  rmi: {
    description: [
      'Removes images (RemoveImage on the image endpoint) by reference, ID or unique ID prefix, or every image with -a (a preview goes to stderr first); an image with several tags loses all of them (a warning says so).',
      "--prune (-q, crictl's short flag) removes every image the kubelet would not miss, which crictl's prune does not know: pinned images, images used by any container in any state, and the runtime's sandbox (pause) image stay; with --node (and --static-pod-path, --pods FILE) so do the images the node's desired pods name. If a desired pod cannot be read, nothing is removed. --dry-run prints each image's verdict and why, and removes nothing.",
    ],
    exitStatus: [
      ['0', 'Every image named (or every prunable one) was removed, or --dry-run.'],
      [
        '1',
        'An error: no such image, an ambiguous prefix, a removal the runtime refused; with --prune, a desired pod could not be read (nothing removed) or a removal failed (the others went).',
      ],
    ],
    environment: IMAGE_ENV,
    files: [...PROFILE_FILES, 'staticPods'],
    examples: [
      { what: 'Remove one image:', command: 'syncpod rmi docker.io/library/busybox:1.36' },
      {
        what: 'What would a prune remove, and why does the rest stay?',
        command: 'syncpod rmi --prune --node --dry-run',
      },
      {
        what: 'Prune, keeping the images the static pods and the bound pods name:',
        command:
          'kubectl get pods -A --field-selector spec.nodeName=$(hostname) -o yaml > pods.yaml\nsyncpod rmi --prune --node --pods pods.yaml',
      },
    ],
    seeAlso: ['images', 'pull', 'doctor', 'crictl(1)'],
  },
  'net-setup': {
    description: [
      "Runs the CNI ADD of a pod sandbox's network namespace as the runtime does inside RunPodSandbox: the network config from --cni-conf-dir (the first valid one, or --network), each plugin in list order with prevResult, CNI_ARGS with the pod's namespace, name, sandbox ID and uid, and the capabilities each plugin declares (port mappings, bandwidth, DNS, cgroup path) read back from the runtime's PodSandboxStatus. The result is cached in libcni's layout so a later DEL by syncpod, the runtime or cnitool finds it.",
      "It changes the network: an interface in the sandbox's namespace (usually --ifname eth1, since the runtime already made eth0), whatever the plugins do on the host (bridges, veths, IPAM leases, iptables), and the result cache. It refuses a host-network sandbox, an interface the sandbox already has, and a missing plugin binary before anything runs. A failure part-way runs DEL for the chain. --dry-run prints each plugin's CNI_* environment and stdin and runs nothing.",
    ],
    exitStatus: [
      ['0', 'Every plugin succeeded (or --dry-run).'],
      [
        '1',
        "An error: a plugin's CNI error (code, msg, details, with the plugin named), a plugin killed at --timeout, a refused sandbox or interface, no usable network config.",
      ],
    ],
    environment: [...CRI_ENV, 'NO_COLOR'],
    files: [...CRI_FILES, 'cniConf', 'cniBin', 'cniCache'],
    examples: [
      {
        what: 'Attach a second interface from another config directory:',
        command: 'syncpod net-setup 4dff5610bdd4f --ifname eth1 --cni-conf-dir /etc/cni/extra.d',
      },
      {
        what: 'What each plugin would get, running nothing:',
        command: 'syncpod net-setup 4dff5610bdd4f --ifname eth1 --dry-run',
      },
    ],
    seeAlso: ['net-check', 'net-teardown', 'inspectp'],
  },
  'net-teardown': {
    description: [
      'Runs the CNI DEL of a pod sandbox, as the runtime does when it stops a sandbox: the plugins in reverse order, each given the cached result of the ADD as prevResult (cniVersion 0.4.0 and newer), then the cache entry is removed. Safe to repeat: a DEL of what is gone succeeds, and with neither a cache entry nor a network config there is nothing to tear down.',
      'It changes the network (the interface, host-side state and IPAM leases the plugins release) and the result cache; not the sandbox itself. --dry-run prints what each plugin would get and runs nothing.',
    ],
    exitStatus: [
      ['0', 'Every plugin succeeded (or --dry-run).'],
      [
        '1',
        "An error: a plugin's CNI error (with the plugin named), a plugin killed at --timeout, a missing plugin binary.",
      ],
    ],
    environment: [...CRI_ENV, 'NO_COLOR'],
    files: [...CRI_FILES, 'cniConf', 'cniBin', 'cniCache'],
    examples: [
      {
        what: 'Remove the interface net-setup added:',
        command: 'syncpod net-teardown 4dff5610bdd4f --ifname eth1 --cni-conf-dir /etc/cni/extra.d',
      },
    ],
    seeAlso: ['net-setup', 'net-check'],
  },
  'net-check': {
    description: [
      'Runs the CNI CHECK of a pod sandbox against the cached ADD result (network configs with cniVersion 0.4.0 or newer): each plugin says whether what it set up is still there. It changes nothing; --dry-run prints what each plugin would get and runs nothing.',
    ],
    exitStatus: [
      ['0', 'Every plugin found its setup intact (or --dry-run).'],
      [
        '1',
        "A plugin's CNI error (what is missing), no cached result, a cniVersion below 0.4.0, a plugin killed at --timeout.",
      ],
    ],
    environment: [...CRI_ENV, 'NO_COLOR'],
    files: [...CRI_FILES, 'cniConf', 'cniBin', 'cniCache'],
    examples: [
      {
        what: 'Is the second interface still as it was set up?',
        command: 'syncpod net-check 4dff5610bdd4f --ifname eth1 --cni-conf-dir /etc/cni/extra.d',
      },
    ],
    seeAlso: ['net-setup', 'net-teardown'],
  },
  node: {
    description: [
      "Shows the node settings plan, sync, runp, create and doctor use, and where each came from: a syncpod flag, the runtime (RuntimeConfig, for the cgroup driver), the running kubelet's flags, its config file and --config-dir drop-ins (merged as the kubelet merges them), its binary's --version, the CRI endpoint settings, or the defaults. The settings: kubelet version and feature gates, cgroup driver, cgroupRoot and cgroupsPerQOS, cluster DNS and domain, resolv.conf, pod logs and root directories, staticPodPath, node name, the runtime and image endpoints.",
      "It reads /proc, the kubelet's files and the runtime's RuntimeConfig answer, and changes nothing but syncpod's own cache in /run/syncpod. A kubelet configuration that is broken is one line naming the file.",
    ],
    exitStatus: OK_OR_ERROR,
    environment: [...CRI_ENV, 'IMAGE_SERVICE_ENDPOINT', 'NO_COLOR'],
    files: PROFILE_FILES,
    examples: [
      { what: 'What syncpod takes from this node, and from where:', command: 'syncpod node' },
      {
        what: 'The detected kubelet version, for a script:',
        command: "syncpod node -o json | jq -r '.kubeletVersion.value'",
      },
      { what: 'What a plan would use with another cgroup driver:', command: 'syncpod node --cgroup-driver systemd' },
    ],
    seeAlso: ['plan', 'doctor', 'runtime-config'],
  },
  completion: {
    description: [
      "Prints a completion script for bash (the default, as crictl), zsh or fish: the command names and aliases, and each command's flags. It reads and changes nothing.",
    ],
    exitStatus: [
      ['0', 'The script was printed.'],
      ['1', 'An unknown shell.'],
    ],
    environment: [],
    files: [],
    examples: [
      { what: 'Completion in the current bash:', command: 'source <(syncpod completion bash)' },
      { what: 'For every zsh session:', command: 'syncpod completion zsh > "${fpath[1]}/_syncpod"' },
    ],
    seeAlso: [],
  },
};

/** syncpod(1): the overview page. */
export const PROGRAM_DOC = {
  description: [
    "syncpod looks at, plans and executes the kubelet's SyncPod on a node, over any CRI runtime socket (containerd, CRI-O, cri-dockerd). The look commands (pods, ps, images, inspect, logs, stats, exec, ...) use crictl's names, flags and JSON shapes. plan computes what the kubelet would do for a pod, and why, changing nothing; sync does it, step by step in the kubelet's order; doctor checks the node against the kubelet's rules; node shows the settings read from the running kubelet.",
    "Settings come, strongest first, from a flag, an environment variable, crictl's config file, the running kubelet (the node profile), then defaults. stdout carries data only; progress, warnings and errors go to stderr. An error is one line naming the file, field or endpoint and the cause, with exit status 1 (-D adds the stack trace). -D's request lines never carry registry credentials or environment values.",
    'Each command has its own page, syncpod-COMMAND(1), with examples; `syncpod help COMMAND` prints its flags.',
  ],
  exitStatus: [
    ['0', 'Success.'],
    ['1', 'An error: one line on stderr naming the file, document and field, or the endpoint, and the cause.'],
    ['2', 'plan, doctor and report with --detailed-exitcode: changes pending or findings (see each page).'],
    ['0, 1, 2', "plan --node -o npd and doctor -o npd: node-problem-detector's codes, 0 OK, 1 NonOK, 2 Unknown."],
    ['N', "exec (and attach): the command's own exit code; 130 when interrupted with Ctrl-C."],
  ],
  examples: [
    { what: 'What would the kubelet do for this pod, and why?', command: 'syncpod plan web.yaml' },
    { what: 'Do it:', command: 'syncpod sync --yes web.yaml' },
    { what: 'What is wrong with this node?', command: 'syncpod doctor' },
    { what: 'From a pod that mounts the node at /host:', command: 'syncpod --host-root /host plan --node' },
  ],
  seeAlso: ['crictl(1)', 'kubelet(8)'],
} as const;
