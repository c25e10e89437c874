// The node profile: every node setting syncpod uses, resolved with one precedence and the source of
// each value kept. syncpod flag > kubelet flag > kubelet drop-ins > kubelet config file > kubelet's
// defaults (syncpod's own defaults when no kubelet was found). Two kubelet rules sit in between:
// kubelet >= 1.31 (KubeletCgroupDriverFromCRI: beta on in 1.31, GA in 1.34, kube_features.go) takes
// the cgroup driver from the runtime's RuntimeConfig answer over its own setting; and the CRI
// endpoints fall back to the kubelet's after crictl's own sources (flag, env, crictl.yaml). Pure.
import type { ContainerdConfigRead } from './containerd-config';
import { crioOrigin, type CrioConfigRead } from './crio-config';
import type { KubeletProcessInfo, KubeletSettings, NodeProfile, RuntimeCgroupDriver, Sourced } from './types';

/** What syncpod itself assumes when no kubelet is found (unchanged from before detection existed). */
export const SYNCPOD_DEFAULTS = {
  cgroupDriver: 'cgroupfs' as const,
  cgroupRoot: '',
  cgroupsPerQOS: true,
  clusterDNS: [] as string[],
  allowedUnsafeSysctls: [] as string[],
  clusterDomain: 'cluster.local',
  resolvConf: '/etc/resolv.conf',
  podLogsDir: '/var/log/pods',
  rootDir: '/var/lib/kubelet',
  staticPodPath: '',
};

/** Node settings given to syncpod on its command line (undefined: not given). */
export interface SyncpodNodeFlags {
  kubeletVersion?: string;
  featureGates?: Record<string, boolean>;
  cgroupDriver?: 'cgroupfs' | 'systemd';
  cgroupRoot?: string;
  cgroupsPerQOS?: boolean;
  clusterDNS?: string[];
  allowedUnsafeSysctls?: string[];
  clusterDomain?: string;
  resolvConf?: string;
  podLogsDir?: string;
  rootDir?: string;
  nodeName?: string;
}

export interface DetectedKubelet {
  info: KubeletProcessInfo;
  settings: KubeletSettings;
  /** Parsed `--version`, e.g. "v1.36.2"; absent when the binary could not be run. */
  version?: string;
}

export interface ProfileInputs {
  flags: SyncpodNodeFlags;
  kubelet?: DetectedKubelet;
  /** crictl's own resolution, only when it found something (flag, env or crictl.yaml). */
  crictlRuntimeEndpoint?: Sourced<string>;
  crictlImageEndpoint?: Sourced<string>;
  /** crictl's default endpoint list, tried in order when nothing else names one. */
  defaultRuntimeEndpoints: string[];
  runtimeCgroupDriver?: RuntimeCgroupDriver;
  /** The mirror's default kubelet version, used when neither a flag nor a kubelet gives one. */
  defaultKubeletVersion: string;
  hostname: string;
  /** Warnings from detection, carried into the profile. */
  warnings: string[];
}

/** Minor version of "v1.36.2" / "1.36"; undefined when unparsable. */
function minorOf(version: string): number | undefined {
  const m = /^v?1\.(\d+)/.exec(version);
  return m ? Number(m[1]) : undefined;
}

/** KubeletCgroupDriverFromCRI: alpha off 1.28, beta on 1.31, GA (locked on) 1.34, removed 1.37. */
export function kubeletUsesRuntimeCgroupDriver(version: string, gates: Record<string, boolean>): boolean {
  const minor = minorOf(version);
  if (minor === undefined) return true;
  if (minor >= 34) return true;
  const gate = gates.KubeletCgroupDriverFromCRI;
  return gate ?? minor >= 31;
}

const given = <T>(value: T | undefined, from: string): Sourced<T> | undefined =>
  value === undefined ? undefined : { value, source: 'flag', from };

export function buildNodeProfile(p: ProfileInputs): NodeProfile {
  const k = p.kubelet?.settings;
  const warnings = [...p.warnings];
  const base = <T>(kubeletValue: Sourced<T> | undefined, syncpodDefault: T): Sourced<T> =>
    kubeletValue ?? { value: syncpodDefault, source: 'default' };

  const kubeletVersion: Sourced<string> =
    given(p.flags.kubeletVersion, '--kubelet-version') ??
    (p.kubelet?.version
      ? { value: p.kubelet.version, source: 'kubelet-binary', from: `${p.kubelet.info.exe} --version` }
      : { value: p.defaultKubeletVersion, source: 'default' });

  const featureGates: Record<string, Sourced<boolean>> = { ...(k?.featureGates ?? {}) };
  for (const [name, value] of Object.entries(p.flags.featureGates ?? {}))
    featureGates[name] = { value, source: 'flag', from: '--feature-gates' };
  const gates: Record<string, Sourced<boolean>> = {};
  for (const name of Object.keys(featureGates).sort()) gates[name] = featureGates[name];

  // cgroup driver: syncpod flag > the runtime's answer (when this kubelet takes it) > kubelet's own.
  const kubeletDriver = base(k?.cgroupDriver, SYNCPOD_DEFAULTS.cgroupDriver);
  let cgroupDriver: Sourced<'cgroupfs' | 'systemd'> = kubeletDriver;
  const rt = p.runtimeCgroupDriver;
  const gateValues = Object.fromEntries(Object.entries(gates).map(([n, s]) => [n, s.value]));
  const takesRuntime = kubeletUsesRuntimeCgroupDriver(kubeletVersion.value, gateValues);
  if (rt?.answered) {
    if (takesRuntime)
      cgroupDriver = { value: rt.cgroupDriver, source: 'runtime', from: `RuntimeConfig on ${rt.endpoint}` };
    if (rt.cgroupDriver !== kubeletDriver.value) {
      const where = kubeletDriver.source === 'default' ? 'by default' : `in ${kubeletDriver.from}`;
      warnings.push(
        takesRuntime
          ? `the kubelet's cgroupDriver is ${kubeletDriver.value} ${where} but the runtime reports ${rt.cgroupDriver}; kubelet ${kubeletVersion.value} uses the runtime's`
          : `the kubelet's cgroupDriver is ${kubeletDriver.value} ${where} but the runtime reports ${rt.cgroupDriver}; kubelet ${kubeletVersion.value} uses its own, and pods may fail to start`,
      );
    }
  }
  if (p.flags.cgroupDriver !== undefined) {
    cgroupDriver = { value: p.flags.cgroupDriver, source: 'flag', from: '--cgroup-driver' };
    if (rt?.answered && rt.cgroupDriver !== p.flags.cgroupDriver)
      warnings.push(`--cgroup-driver ${p.flags.cgroupDriver} differs from the runtime's ${rt.cgroupDriver}`);
  }

  const hostnameOverride = k?.hostnameOverride;
  const nodeName: Sourced<string> =
    given(p.flags.nodeName, '--node-name') ??
    (hostnameOverride && hostnameOverride.value.trim() !== ''
      ? { value: hostnameOverride.value.trim().toLowerCase(), source: 'kubelet-flag', from: '--hostname-override' }
      : { value: p.hostname.trim().toLowerCase(), source: 'default', from: 'hostname' });

  const runtimeEndpoint: Sourced<string> =
    p.crictlRuntimeEndpoint ??
    (k
      ? k.containerRuntimeEndpoint
      : {
          value: p.defaultRuntimeEndpoints[0] ?? '',
          source: 'default',
          from: `first existing of ${p.defaultRuntimeEndpoints.join(', ')}`,
        });
  const imageEndpoint: Sourced<string> =
    p.crictlImageEndpoint ??
    (k && k.imageServiceEndpoint.value !== ''
      ? k.imageServiceEndpoint
      : {
          value: runtimeEndpoint.value,
          source: runtimeEndpoint.source,
          from: runtimeEndpoint.from ?? 'the runtime endpoint',
        });

  return {
    detected: p.kubelet !== undefined,
    kubelet: p.kubelet?.info,
    kubeletVersion,
    featureGates: gates,
    cgroupDriver,
    cgroupRoot: given(p.flags.cgroupRoot, '--cgroup-root') ?? base(k?.cgroupRoot, SYNCPOD_DEFAULTS.cgroupRoot),
    cgroupsPerQOS:
      given(p.flags.cgroupsPerQOS, '--cgroups-per-qos') ?? base(k?.cgroupsPerQOS, SYNCPOD_DEFAULTS.cgroupsPerQOS),
    clusterDNS: given(p.flags.clusterDNS, '--cluster-dns') ?? base(k?.clusterDNS, SYNCPOD_DEFAULTS.clusterDNS),
    allowedUnsafeSysctls:
      given(p.flags.allowedUnsafeSysctls, '--allowed-unsafe-sysctls') ??
      base(k?.allowedUnsafeSysctls, SYNCPOD_DEFAULTS.allowedUnsafeSysctls),
    clusterDomain:
      given(p.flags.clusterDomain, '--cluster-domain') ?? base(k?.clusterDomain, SYNCPOD_DEFAULTS.clusterDomain),
    resolvConf: given(p.flags.resolvConf, '--resolv-conf') ?? base(k?.resolvConf, SYNCPOD_DEFAULTS.resolvConf),
    podLogsDir: given(p.flags.podLogsDir, '--pod-logs-root') ?? base(k?.podLogsDir, SYNCPOD_DEFAULTS.podLogsDir),
    rootDir: given(p.flags.rootDir, '--pod-dir-root') ?? base(k?.rootDir, SYNCPOD_DEFAULTS.rootDir),
    staticPodPath: base(k?.staticPodPath, SYNCPOD_DEFAULTS.staticPodPath),
    nodeName,
    runtimeEndpoint,
    imageEndpoint,
    runtimeCgroupDriver: rt,
    warnings,
  };
}

/**
 * The profile with containerd's configuration file added, and a warning where the file and the
 * driver in use disagree: a runtime that does not answer RuntimeConfig (containerd 1.x) runs with the
 * file's SystemdCgroup while the kubelet uses its own driver; a runtime that answers with another
 * driver than its file has not been restarted since the file changed.
 */
export function withContainerdConfig(p: NodeProfile, read: ContainerdConfigRead): NodeProfile {
  const warnings = [...p.warnings];
  if (read.found) {
    const c = read.config.cgroupDriver;
    const where = c.file ? `${c.key} in ${c.file}` : `containerd's default (${c.key} not set)`;
    const rt = p.runtimeCgroupDriver;
    if (rt?.answered) {
      if (rt.cgroupDriver !== c.value)
        warnings.push(
          `containerd's config gives ${c.value} (${where}) but the running containerd reports ${rt.cgroupDriver}: the file changed after containerd started, and a restart would change the driver`,
        );
    } else if (c.value !== p.cgroupDriver.value) {
      warnings.push(
        `the runtime's cgroup driver is ${c.value} (${where}) but the kubelet uses ${p.cgroupDriver.value}${p.cgroupDriver.from ? ` (${p.cgroupDriver.from})` : ''}: pod sandboxes fail to start or land in the wrong cgroup`,
      );
    }
  }
  return { ...p, containerdConfig: read, warnings };
}

/**
 * The profile with CRI-O's configuration added, and a warning where it and the driver in use
 * disagree: CRI-O answering RuntimeConfig with another driver than its files give was started before
 * they changed (cgroup_manager is not reloaded live); a CRI-O that does not answer runs with its
 * files' cgroup_manager while the kubelet uses its own driver.
 */
export function withCrioConfig(p: NodeProfile, read: CrioConfigRead): NodeProfile {
  const warnings = [...p.warnings];
  if (read.found) {
    const c = read.config.cgroupManager;
    const rt = p.runtimeCgroupDriver;
    if (rt?.answered) {
      if (rt.cgroupDriver !== c.value)
        warnings.push(
          `CRI-O's config gives ${c.value} (${crioOrigin(c)}) but the running CRI-O reports ${rt.cgroupDriver}: the config changed after CRI-O started, and a restart would change the driver`,
        );
    } else if (c.value !== p.cgroupDriver.value) {
      warnings.push(
        `the runtime's cgroup driver is ${c.value} (${crioOrigin(c)}) but the kubelet uses ${p.cgroupDriver.value}${p.cgroupDriver.from ? ` (${p.cgroupDriver.from})` : ''}: pod sandboxes fail to start or land in the wrong cgroup`,
      );
    }
  }
  return { ...p, crioConfig: read, warnings };
}
