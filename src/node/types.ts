// The node profile as data: every node setting syncpod uses, its value and where that value came
// from. Rendered by `syncpod node`, consumed by the node-settings workflow.
import type { ContainerdConfigRead } from './containerd-config';
import type { CrioConfigRead } from './crio-config';

/**
 * Where a value came from, strongest first: a syncpod flag (or crictl's env/config for the
 * endpoints), the runtime (CRI RuntimeConfig), a kubelet command-line flag, the kubelet's config
 * file, one of its --config-dir drop-ins, the kubelet binary itself (`--version`), a default.
 */
export type ValueSource =
  | 'flag'
  | 'env'
  | 'crictl-config'
  | 'runtime'
  | 'kubelet-flag'
  | 'kubelet-config'
  | 'drop-in'
  | 'kubelet-binary'
  | 'default';

export interface Sourced<T> {
  value: T;
  source: ValueSource;
  /** The file (kubelet-config, drop-in, crictl-config), flag (flag, kubelet-flag) or other origin. */
  from?: string;
}

/** What was read from the running kubelet; absent when none was found or detection is off. */
export interface KubeletProcessInfo {
  pid: number;
  /** The binary, as /proc/PID/exe names it. */
  exe: string;
  /** Its command line (argv[1..]). */
  args: string[];
  /** --config, resolved against the kubelet's working directory. */
  configFile?: string;
  /** --config-dir. */
  configDir?: string;
  /** Drop-in files merged, in kubelet's order. */
  dropIns: string[];
  /** `kubelet --version` output, e.g. "Kubernetes v1.36.2"; absent when running it failed. */
  versionOutput?: string;
}

/** The values the kubelet's own configuration gives (flags > drop-ins > file > kubelet defaults). */
export interface KubeletSettings {
  cgroupDriver: Sourced<'cgroupfs' | 'systemd'>;
  cgroupRoot: Sourced<string>;
  cgroupsPerQOS: Sourced<boolean>;
  clusterDNS: Sourced<string[]>;
  /** allowedUnsafeSysctls (--allowed-unsafe-sysctls): sysctl names or `prefix*` patterns. */
  allowedUnsafeSysctls: Sourced<string[]>;
  clusterDomain: Sourced<string>;
  resolvConf: Sourced<string>;
  podLogsDir: Sourced<string>;
  rootDir: Sourced<string>;
  staticPodPath: Sourced<string>;
  hostnameOverride: Sourced<string>;
  containerRuntimeEndpoint: Sourced<string>;
  imageServiceEndpoint: Sourced<string>;
  /** Gate name -> value, each with its own source (the kubelet merges flag gates over config gates per gate). */
  featureGates: Record<string, Sourced<boolean>>;
}

export type RuntimeCgroupDriver =
  | { answered: true; cgroupDriver: 'cgroupfs' | 'systemd'; endpoint: string }
  | { answered: false; why: string; endpoint?: string };

/** The node settings syncpod uses, each with its source. */
export interface NodeProfile {
  /** False with --no-node-profile or when no kubelet process was found. */
  detected: boolean;
  kubelet?: KubeletProcessInfo;
  kubeletVersion: Sourced<string>;
  featureGates: Record<string, Sourced<boolean>>;
  cgroupDriver: Sourced<'cgroupfs' | 'systemd'>;
  cgroupRoot: Sourced<string>;
  cgroupsPerQOS: Sourced<boolean>;
  clusterDNS: Sourced<string[]>;
  /** allowedUnsafeSysctls (--allowed-unsafe-sysctls): sysctl names or `prefix*` patterns. */
  allowedUnsafeSysctls: Sourced<string[]>;
  clusterDomain: Sourced<string>;
  resolvConf: Sourced<string>;
  podLogsDir: Sourced<string>;
  rootDir: Sourced<string>;
  staticPodPath: Sourced<string>;
  nodeName: Sourced<string>;
  runtimeEndpoint: Sourced<string>;
  imageEndpoint: Sourced<string>;
  /** The runtime's answer to RuntimeConfig, when it was asked. */
  runtimeCgroupDriver?: RuntimeCgroupDriver;
  /** containerd's own configuration file (version 2 or 3), where `node` and `doctor` read it. */
  containerdConfig?: ContainerdConfigRead;
  /** CRI-O's configuration (crio.conf, its drop-ins, its command line), where `node` and `doctor` read it. */
  crioConfig?: CrioConfigRead;
  /** One line each, for stderr (and the JSON view). */
  warnings: string[];
}
