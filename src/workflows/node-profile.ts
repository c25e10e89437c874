// Node settings from the node itself: detect the kubelet once per invocation (its process and
// configuration first; its version only when a command needs it), then build the profile
// (syncpod flags > the runtime's cgroup driver where the kubelet takes it > kubelet flags >
// drop-ins > config file > defaults). The host is behind NodeFacts so the flow is testable.
import { isIP } from 'node:net';
import * as path from 'node:path';
import { SyncpodError, errorLine } from '../errors';
import type { RuntimeService } from '../cri/grpc-runtime-service';
import { runtimeCgroupDriver } from '../node/runtime-config';
import {
  DEFAULT_KUBELET_VERSION,
  GATE_NAMES,
  parseFeatureGates,
  type FeatureGates,
  type GateName,
} from '../kubelet/features';
import type { DetectedKubelet as DetectedForRules } from '../kubelet/kubelet-version';
import { detectKubelet, detectKubeletVersion, type Detection, type DetectOptions } from '../node/detect';
import { buildNodeProfile, withContainerdConfig, withCrioConfig, type SyncpodNodeFlags } from '../node/profile';
import { readContainerdConfig } from '../node/containerd-process';
import { readCrioConfig } from '../node/crio-process';
import { parseGoBool } from '../node/kubelet-flags';
import type { NodeProfile, RuntimeCgroupDriver, Sourced } from '../node/types';

export interface NodeFacts {
  /** The running kubelet's process and configuration; `withVersion` also runs its binary. */
  detect(withVersion: boolean): Detection;
  hostname(): string;
}

export interface CrictlEndpoints {
  /** Set only when flag, env or crictl.yaml named an endpoint. */
  runtime?: Sourced<string>;
  image?: Sourced<string>;
  defaults: string[];
}

export interface NodeProfileRequest {
  flags: SyncpodNodeFlags;
  /** --no-node-profile: read no kubelet. */
  noNodeProfile: boolean;
  endpoints: CrictlEndpoints;
  /** The kubelet version assumed when none is detected or given (default: syncpod's). */
  defaultKubeletVersion?: string;
  /** The runtime's RuntimeConfig answer, for commands that generate configs. */
  runtimeCgroupDriver?: RuntimeCgroupDriver;
}

export function nodeProfile(facts: NodeFacts, req: NodeProfileRequest): NodeProfile {
  // A version given on the command line means the kubelet binary need not be run.
  const detection: Detection = req.noNodeProfile
    ? { warnings: [] }
    : facts.detect(req.flags.kubeletVersion === undefined);
  return buildNodeProfile({
    flags: req.flags,
    kubelet: detection.kubelet,
    crictlRuntimeEndpoint: req.endpoints.runtime,
    crictlImageEndpoint: req.endpoints.image,
    defaultRuntimeEndpoints: req.endpoints.defaults,
    runtimeCgroupDriver: req.runtimeCgroupDriver,
    defaultKubeletVersion: req.defaultKubeletVersion ?? DEFAULT_KUBELET_VERSION,
    hostname: facts.hostname(),
    warnings: detection.warnings,
  });
}

/** The real host: /proc, the kubelet's files, its binary; each part read once per invocation. */
export function hostNodeFacts(options: () => DetectOptions, hostname: () => string): NodeFacts {
  let base: Detection | undefined;
  let failure: unknown;
  let withVersion: Detection | undefined;
  return {
    detect(version) {
      if (failure) throw failure;
      try {
        base ??= detectKubelet(options());
        if (!version) return base;
        withVersion ??= detectKubeletVersion(base, options());
        return withVersion;
      } catch (err) {
        failure = err;
        throw err;
      }
    },
    hostname,
  };
}

/** The node flags of plan/sync/runp/create/node, as given (undefined: not given). */
export interface NodeFlagValues {
  kubeletVersion?: string;
  featureGates?: string;
  cgroupDriver?: string;
  cgroupRoot?: string;
  /** `--cgroups-per-qos` alone is true; else Go's bool spellings. */
  cgroupsPerQos?: string | boolean;
  clusterDns?: string;
  /** --allowed-unsafe-sysctls, comma-separated. */
  allowedUnsafeSysctls?: string;
  clusterDomain?: string;
  resolvConf?: string;
  podLogsRoot?: string;
  podDirRoot?: string;
  nodeName?: string;
}

/**
 * --cluster-dns as IP addresses. kubelet logs and drops an entry that is not one (pods then get
 * another resolver than meant); syncpod's own flag is refused instead, before anything is done.
 */
function clusterDnsFlag(text: string): string[] {
  const ips = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = ips.find((ip) => isIP(ip) === 0);
  if (bad !== undefined) throw new SyncpodError(`--cluster-dns: ${JSON.stringify(bad)} is not an IP address`);
  return ips;
}

export function syncpodNodeFlags(opts: NodeFlagValues): SyncpodNodeFlags {
  const driver = opts.cgroupDriver;
  if (driver !== undefined && driver !== 'cgroupfs' && driver !== 'systemd') {
    throw new SyncpodError(`--cgroup-driver: must be cgroupfs or systemd, got "${driver}"`);
  }
  let cgroupsPerQOS: boolean | undefined;
  if (opts.cgroupsPerQos !== undefined) {
    cgroupsPerQOS = opts.cgroupsPerQos === true ? true : parseGoBool(String(opts.cgroupsPerQos));
    if (cgroupsPerQOS === undefined)
      throw new SyncpodError(`--cgroups-per-qos: must be true or false, got "${opts.cgroupsPerQos}"`);
  }
  return {
    kubeletVersion: opts.kubeletVersion,
    featureGates:
      opts.featureGates !== undefined ? (parseFeatureGates(opts.featureGates) as Record<string, boolean>) : undefined,
    cgroupDriver: driver as SyncpodNodeFlags['cgroupDriver'],
    cgroupRoot: opts.cgroupRoot,
    cgroupsPerQOS,
    clusterDNS: opts.clusterDns !== undefined ? clusterDnsFlag(opts.clusterDns) : undefined,
    allowedUnsafeSysctls: opts.allowedUnsafeSysctls !== undefined ? splitList(opts.allowedUnsafeSysctls) : undefined,
    clusterDomain: opts.clusterDomain,
    resolvConf: opts.resolvConf,
    // Host paths of mounts and logs go to the runtime, which needs them absolute: a relative
    // directory is the one the user means, under the current directory.
    podLogsDir: opts.podLogsRoot !== undefined ? path.resolve(opts.podLogsRoot) : undefined,
    rootDir: opts.podDirRoot !== undefined ? path.resolve(opts.podDirRoot) : undefined,
    nodeName: opts.nodeName,
  };
}

export type ResolvedNodeFlags = Required<Omit<NodeFlagValues, 'kubeletVersion' | 'featureGates' | 'cgroupsPerQos'>> & {
  cgroupsPerQos: boolean;
  allowedUnsafeSysctlsKnown: boolean;
};

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The node flag values the config generators read, every one resolved through the profile. */
export function resolvedNodeFlags(p: NodeProfile): ResolvedNodeFlags {
  return {
    cgroupDriver: p.cgroupDriver.value,
    cgroupRoot: p.cgroupRoot.value,
    cgroupsPerQos: p.cgroupsPerQOS.value,
    clusterDns: p.clusterDNS.value.join(','),
    allowedUnsafeSysctls: p.allowedUnsafeSysctls.value.join(','),
    // Known when given, read from the kubelet's configuration, or the default of a kubelet found.
    allowedUnsafeSysctlsKnown: p.detected || p.allowedUnsafeSysctls.source !== 'default',
    clusterDomain: p.clusterDomain.value,
    resolvConf: p.resolvConf.value,
    podLogsRoot: p.podLogsDir.value,
    podDirRoot: p.rootDir.value,
    nodeName: p.nodeName.value,
  };
}

/**
 * What the kubelet rules take as "detected": the kubelet's version (from its binary) and the gates
 * its configuration sets among those syncpod consults (the others do not change the plan).
 */
export function detectedForRules(p: NodeProfile): DetectedForRules {
  const gates: FeatureGates = {};
  for (const [name, s] of Object.entries(p.featureGates)) {
    if (s.source !== 'flag' && (GATE_NAMES as string[]).includes(name)) gates[name as GateName] = s.value;
  }
  return {
    version:
      p.kubelet?.versionOutput !== undefined && p.kubeletVersion.source === 'kubelet-binary'
        ? p.kubeletVersion.value
        : undefined,
    featureGates: gates,
  };
}

/** `opts` with every node setting filled from the profile (which already holds the flags given). */
export function withProfile<T extends NodeFlagValues>(opts: T, p: NodeProfile): T & ResolvedNodeFlags {
  return { ...opts, ...resolvedNodeFlags(p) };
}

/**
 * The profile including the runtime's cgroup driver (RuntimeConfig). The kubelet is read first, so
 * a broken kubelet configuration is reported before the runtime is asked; a runtime that cannot be
 * reached is "not told", never an error here.
 */
export async function profileWithRuntime(
  profileOf: (rt?: RuntimeCgroupDriver) => NodeProfile,
  runtime: () => RuntimeService,
): Promise<NodeProfile> {
  profileOf();
  let rt: RuntimeCgroupDriver;
  try {
    rt = await runtimeCgroupDriver(runtime());
  } catch (err) {
    rt = { answered: false, why: errorLine(err) };
  }
  return profileOf(rt);
}

/**
 * For the whole-node flows (plan/sync --node): every node setting from the profile, plus the
 * kubelet's staticPodPath and its version as the mirrored one, unless given as flags.
 */
export function withNodeProfile<T extends NodeFlagValues & { staticPodPath?: string }>(
  opts: T,
  p: NodeProfile,
): T & ResolvedNodeFlags {
  const detected = detectedForRules(p);
  return {
    ...withProfile(opts, p),
    staticPodPath: opts.staticPodPath ?? (p.staticPodPath.value === '' ? undefined : p.staticPodPath.value),
    kubeletVersion: opts.kubeletVersion ?? detected.version,
  };
}

/** The runtime's cgroup driver (RuntimeConfig) if it answers within `waitMs`; else why not (never throws). */
export async function runtimeCgroupDriverWithin(runtime: RuntimeService, waitMs: number): Promise<RuntimeCgroupDriver> {
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<RuntimeCgroupDriver>((resolve) => {
    timer = setTimeout(() => resolve({ answered: false, why: `no answer within ${waitMs / 1000}s` }), waitMs);
  });
  try {
    return await Promise.race([
      runtimeCgroupDriver(runtime).catch((err): RuntimeCgroupDriver => ({ answered: false, why: errorLine(err) })),
      silent,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The profile with the runtime's own configuration: CRI-O's (crio.conf, its drop-ins and command
 * line) when a crio process serves the profile's runtime endpoint, else containerd's configuration
 * file (version 2 or 3) of the containerd serving it, read under `hostRoot` (`syncpod node`,
 * `doctor`; not on the paths whose start-up is measured).
 */
export function profileWithRuntimeConfigFile(
  p: NodeProfile,
  hostRoot: string,
  warn?: (line: string) => void,
): NodeProfile {
  const root = hostRoot === '/' ? '' : hostRoot.replace(/\/+$/, '');
  const parseToml = (text: string) => (require('smol-toml') as typeof import('smol-toml')).parse(text);
  const crio = readCrioConfig({ endpoint: p.runtimeEndpoint.value, hostRoot: root, parseToml });
  const out =
    crio.found || crio.pid !== undefined
      ? withCrioConfig(p, crio)
      : withContainerdConfig(p, readContainerdConfig({ endpoint: p.runtimeEndpoint.value, hostRoot: root, parseToml }));
  for (const w of out.warnings.slice(p.warnings.length)) warn?.(w);
  return out;
}
