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
  NODE_EXTRA_CA_CERTS:
    "A PEM file of certificates trusted, besides Node's bundled ones, by exec, attach and port-forward when the runtime's streaming server speaks https. The syncpod launcher keeps Node from reading it at every start (it costs more than syncpod's own start) and syncpod reads it when it opens an https stream; processes syncpod starts see it unchanged.",
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
export const CRI_ENV: readonly EnvName[] = ['CONTAINER_RUNTIME_ENDPOINT', 'CRI_CONFIG_FILE', 'SYNCPOD_HOST_ROOT'];
export const IMAGE_ENV: readonly EnvName[] = [
  'CONTAINER_RUNTIME_ENDPOINT',
  'IMAGE_SERVICE_ENDPOINT',
  'CRI_CONFIG_FILE',
  'SYNCPOD_HOST_ROOT',
];
/** The endpoint files: crictl.yaml, the default sockets, and the kubelet's endpoint when nothing else names one. */
export const CRI_FILES: readonly FileKey[] = ['crictl', 'sockets', 'kubeletProc', 'kubeletConfig'];
/** What the node profile reads (plan, sync, runp, create, node, doctor, the --node removals). */
export const PROFILE_FILES: readonly FileKey[] = ['crictl', 'sockets', 'kubeletProc', 'kubeletConfig', 'profileCache'];

export const OK_OR_ERROR = [
  ['0', 'Success.'],
  [
    '1',
    'An error: one line on stderr naming the endpoint, ID, file or flag and the cause (a usage error, an unreachable runtime, an ID that matches nothing or more than one object, a CRI call the runtime refused).',
  ],
] as const;
export const STREAM_ENDS = 'Ctrl-C ends it (exit 0).';

export const LOOK_NEVER = 'It only reads: no CRI call that changes state, no file written.';

/** A list command in crictl's shape. */
export function listDoc(
  what: string,
  call: string,
  examples: Example[],
  extra: string[] = [],
  env = CRI_ENV,
): CommandDoc {
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
export function inspectDoc(what: string, call: string, examples: Example[], related: string): CommandDoc {
  return {
    description: [
      `Prints the status of ${what} (${call}, with the runtime's verbose info unless -q) as JSON by default, in crictl's {"status": ..., "info": ...} shape; several print an array. -o yaml, -o table (crictl's Key: value lines) and -o go-template --template T are the other forms.`,
      `Without IDs it takes every object the filter flags keep, as crictl 1.31 does; with neither IDs nor filters it is an error. IDs may be unique prefixes.`,
      ...(call === 'ContainerStatus'
        ? [
            "The verbose info is the runtime's own record of the container (its config and OCI spec), printed as crictl prints it: the environment, arguments and command are there as the runtime received them, values that came from Secrets included, since nothing there says which did. -q (the status only) leaves them out; -D's response lines never carry environment values.",
          ]
        : []),
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
export const KUBELET_AWARE_ALL =
  "With -a on a node whose kubelet runs, removing everything only makes the kubelet start its pods again: add --node (and --static-pod-path, --pods FILE, --node-name when the defaults are not right) and the objects of the pods this node should run (static pods, given pods, the pods of the kubelet's Pods API) are kept and listed as kept; if a desired pod cannot be read, or none were given, nothing is done. Without --node, a warning names a running kubelet whose objects are about to go. A preview of what -a takes goes to stderr first.";

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
