// Data shapes of syncpod's CNI layer: network configuration, the pod-side request, the exec port,
// invocations (what would run / what ran) and the plugin result. CNI spec 1.1.0 names throughout.

/** JSON value as read from a config file or a plugin's stdout. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** The CNI protocol versions this runtime can speak (highest last). */
export const SUPPORTED_CNI_VERSIONS = ['0.1.0', '0.2.0', '0.3.0', '0.3.1', '0.4.0', '1.0.0', '1.1.0'] as const;

/** One plugin entry of a network configuration list, as written in the file. */
export interface PluginConf {
  /** Binary name looked up in the plugin directories. */
  type: string;
  /** Capabilities the plugin declares (`capabilities` key), enabled ones only, sorted. */
  capabilities: string[];
  /** The plugin's JSON object exactly as read (all keys, including `type`). */
  raw: JsonObject;
}

/** A network configuration list (a `.conf` is converted to a one-plugin list, as libcni does). */
export interface NetworkConfigList {
  name: string;
  /** Selected protocol version (the highest of cniVersion/cniVersions we support; "0.1.0" if absent). */
  cniVersion: string;
  disableCheck: boolean;
  plugins: PluginConf[];
  /** The list's JSON text; this is what goes, base64-encoded, into the result cache's `config`. */
  bytes: string;
}

/** A network chosen from the configuration directory. */
export interface LoadedNetwork {
  network: NetworkConfigList;
  /** File it came from. */
  file: string;
  /** Files skipped on the way, one line each (the CLI prints them to stderr). */
  warnings: string[];
}

/** CRI PortMapping as the sandbox config carries it. */
export interface PortMapping {
  protocol: 'TCP' | 'UDP' | 'SCTP';
  containerPort: number;
  hostPort: number;
  hostIp: string;
}

/** CRI DNSConfig. */
export interface DnsConfig {
  servers: string[];
  searches: string[];
  options: string[];
}

/** Everything about one pod sandbox that its network step needs. */
export interface NetworkRequest {
  /** Sandbox id (CNI_CONTAINERID, K8S_POD_INFRA_CONTAINER_ID). */
  containerId: string;
  /** Path of the sandbox's network namespace (CNI_NETNS); may be empty for DEL. */
  netnsPath: string;
  /** Interface inside the sandbox (CNI_IFNAME), e.g. eth0. */
  ifname: string;
  podNamespace: string;
  podName: string;
  podUid: string;
  portMappings?: PortMapping[];
  dns?: DnsConfig;
  /** Sandbox cgroup parent (capability `cgroupPath`). */
  cgroupParent?: string;
  /** Sandbox annotations (bandwidth annotations, `io.kubernetes.cri.pod-annotations`). */
  annotations?: Record<string, string>;
}

/** Where to find configs, plugins and the cache, and how long one plugin may run. */
export interface CniOptions {
  /** --cni-conf-dir (default /etc/cni/net.d). */
  confDir: string;
  /** --cni-bin-dir split on ':' (default /opt/cni/bin, /usr/lib/cni). */
  binDirs: string[];
  /** --cni-cache-dir (default /var/lib/cni); entries live in <cacheDir>/results. */
  cacheDir: string;
  /** --network: use the network with this name instead of the first valid one. */
  networkName?: string;
  /** Upper bound for one plugin execution, in milliseconds. */
  timeoutMs: number;
}

/** One plugin execution as the exec port sees it. */
export interface ExecRequest {
  pluginPath: string;
  /** CNI_* variables; implementations add them to their own environment. */
  env: Record<string, string>;
  stdin: string;
  timeoutMs: number;
}

export interface ExecOutcome {
  /** Exit code, or null when the process was ended by a signal. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** True when the process was killed because it exceeded the timeout. */
  timedOut: boolean;
}

/** The exec port: finding and running plugin binaries. Protocol handling stays in the core. */
export interface CniExec {
  /** Full path of an executable regular file `dir/name` in the first dir that has one, else undefined. */
  findPlugin(name: string, dirs: string[]): Promise<string | undefined>;
  run(request: ExecRequest): Promise<ExecOutcome>;
}

export type CniCommand = 'ADD' | 'DEL' | 'CHECK';

/** One planned plugin invocation: the exact environment and stdin (for --dry-run and for records). */
export interface Invocation {
  command: CniCommand;
  network: string;
  /** Position in the list (0-based) and the plugin type. */
  index: number;
  type: string;
  /** Resolved binary, or null when no directory has it. */
  pluginPath: string | null;
  env: Record<string, string>;
  /** The stdin object; `prevResult` is shown as a placeholder in dry runs where it is not known yet. */
  stdin: JsonObject;
}

/** What happened to one plugin during a run. */
export interface InvocationRecord {
  command: CniCommand;
  type: string;
  index: number;
  ok: boolean;
  error?: string;
}

export interface CniInterface {
  name: string;
  mac?: string;
  mtu?: number;
  sandbox?: string;
}

export interface CniIp {
  address: string;
  gateway?: string;
  /** Index into `interfaces`. */
  interface?: number;
}

export interface CniRoute {
  dst: string;
  gw?: string;
  mtu?: number;
  advmss?: number;
  priority?: number;
  table?: number;
  scope?: number;
}

export interface CniDns {
  nameservers: string[];
  domain?: string;
  search: string[];
  options: string[];
}

/** A plugin chain's final result, normalised to the 1.x shape (0.1/0.2 ip4/ip6 results converted). */
export interface CniResult {
  cniVersion: string;
  interfaces: CniInterface[];
  ips: CniIp[];
  routes: CniRoute[];
  dns: CniDns;
}

export interface SetupOutcome {
  network: string;
  configFile: string;
  containerId: string;
  ifname: string;
  result: CniResult;
  /** The result exactly as the last plugin printed it (this is what is cached). */
  rawResult: JsonObject;
  cacheFile: string;
  invocations: InvocationRecord[];
  warnings: string[];
}

export interface TeardownOutcome {
  network: string | null;
  containerId: string;
  ifname: string;
  /** Where the config for DEL came from. */
  configSource: 'cache' | 'conf-dir' | 'none';
  invocations: InvocationRecord[];
  /** Human notes, e.g. "no cached result: DEL ran without prevResult". */
  notes: string[];
  warnings: string[];
}

export interface CheckOutcome {
  network: string;
  containerId: string;
  ifname: string;
  configSource: 'cache' | 'conf-dir';
  /** True when the list sets disableCheck and nothing ran. */
  skipped: boolean;
  invocations: InvocationRecord[];
  notes: string[];
  warnings: string[];
}
