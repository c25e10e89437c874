// Node settings: kubelet's own flags (pod log and pod directories, cluster DNS, cgroup driver,
// runtime classes, --env-file values) plus what kubelet reads from the host, turned into the
// options of the sandbox and container config generators. Host facts come in as an interface.
import type { Pod } from '../kubelet/api-types';
import { SyncpodError, errorLine } from '../errors';
import type { KubeletRules } from '../kubelet/kubelet-version';
import type { SandboxOptions } from '../kubelet/sandbox-config';
import { secretEnvValues, type ValueSources } from '../kubelet/env';
import { invocationSecrets } from '../render/secret-mask';
import { formatConfigSeen } from '../sync/kubelet-rules';
import type { ContainerNodeOptions } from '../sync/execute';
import type * as T from '../cri/types';
import type { HostFacts } from './host-facts';
import { userNamespaceRange } from '../sync/userns';
import { NO_VOLUME_DATA, sizeMemoryBackedVolumes, tmpfsNoswap, type VolumeData } from '../kubelet/volumes';
import { envValuesOf } from './volume-data';
import type { SysctlNode } from '../plan/plan';

/** The node/kubelet flags (`nodeOptions` in src/cli/command-flags.ts); undefined = kubelet's default. */
export interface NodeFlags {
  podLogsRoot?: string;
  podDirRoot?: string;
  clusterDns?: string;
  /** kubelet's allowedUnsafeSysctls, comma-separated (resolved through the node profile). */
  allowedUnsafeSysctls?: string;
  /** False when no kubelet was found and none was given: kubelet's default (none) is assumed. */
  allowedUnsafeSysctlsKnown?: boolean;
  clusterDomain?: string;
  resolvConf?: string;
  cgroupDriver?: string;
  cgroupRoot?: string;
  /** kubelet's cgroupsPerQOS, resolved through the node profile; true when not given. */
  cgroupsPerQos?: boolean;
  cgroupParent?: string;
  runtimeHandler?: string;
  runtimeClass?: string[];
  nodeName?: string;
  envFile?: string;
  /** --configmap, --secret, --service-account-token, --skip-volume (read by readVolumeData). */
  configmap?: string[];
  secret?: string[];
  serviceAccountToken?: string[];
  skipVolume?: string[];
}

export interface NodeSettings {
  sandbox: Omit<SandboxOptions, 'configSeen'>;
  container: ContainerNodeOptions;
  podLogsRoot: string;
  legacyLogDir: string;
}

/** `--env-file`: `NAMESPACE/NAME/KEY=VALUE` (a Secret or ConfigMap key of that namespace) or `KEY=VALUE`. */
export function parseEnvFile(text: string, file: string, namespace: string): ValueSources {
  const out: Required<ValueSources> = { env: {}, secrets: {}, configMaps: {} };
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const eq = line.indexOf('=');
    if (eq <= 0) throw new SyncpodError(`${file}:${i + 1}: expected NAMESPACE/NAME/KEY=VALUE or KEY=VALUE`);
    const key = line.slice(0, eq);
    const value = line.slice(eq + 1);
    const parts = key.split('/');
    if (parts.length === 1) out.env[key] = value;
    else if (parts.length === 3) {
      if (parts[0] !== namespace) return;
      (out.secrets[parts[1]] ??= {})[parts[2]] = value;
      (out.configMaps[parts[1]] ??= {})[parts[2]] = value;
    } else throw new SyncpodError(`${file}:${i + 1}: expected NAMESPACE/NAME/KEY=VALUE or KEY=VALUE`);
  });
  return out;
}

/**
 * The Secret values the pod's containers use (secretKeyRef, envFrom secretRef, and values expanded
 * from them): kept out of every output (render/secret-mask.ts).
 */
export function podSecretValues(pod: Pod, values: ValueSources): string[] {
  const spec = pod.spec;
  const containers = [
    ...(spec?.initContainers ?? []),
    ...(spec?.containers ?? []),
    ...(spec?.ephemeralContainers ?? []),
  ];
  return containers.flatMap((c) => {
    try {
      return secretEnvValues(pod, c as Parameters<typeof secretEnvValues>[1], values);
    } catch {
      return []; // a broken reference is reported where the container's environment is made
    }
  });
}

/** Every Secret value and service account token given for volumes (--secret, --service-account-token). */
export function volumeSecretValues(data: VolumeData): string[] {
  const text = new TextDecoder();
  const secretValues = Object.values(data.secrets).flatMap((keys) => Object.values(keys));
  return [...secretValues, ...Object.values(data.serviceAccountTokens)].map((b) => text.decode(b).trim());
}

function readFlagFile(host: Pick<HostFacts, 'readFile'>, flag: string, path: string): string {
  try {
    return host.readFile(path);
  } catch (err) {
    // A refusal of the read itself (its size, its encoding) names the flag too.
    if (err instanceof SyncpodError)
      throw err.message.startsWith(`${path}:`) ? new SyncpodError(`${flag} ${err.message}`) : err;
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file or directory'
        : code === 'EACCES'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'is a directory'
            : errorLine(err);
    throw new SyncpodError(`${flag} ${path}: ${why}`);
  }
}

/** `--env-file FILE` read (syncpod's own input, never under --host-root) and parsed for `namespace`. */
export function readEnvFile(
  file: string,
  host: Pick<HostFacts, 'readFile' | 'readOwnFile'>,
  namespace = 'default',
): ValueSources {
  return parseEnvFile(
    readFlagFile({ readFile: (f) => (host.readOwnFile ?? host.readFile)(f) }, '--env-file', file),
    file,
    namespace,
  );
}

/** The generator options for this pod on this node, under the mirrored kubelet's rules. */
export function nodeSettings(
  flags: NodeFlags,
  pod: Pod,
  rules: KubeletRules,
  host: HostFacts,
  volumeData: VolumeData = NO_VOLUME_DATA,
): NodeSettings {
  const podLogsRoot = podLogsRootOf(flags);
  const resolvPath = flags.resolvConf ?? '/etc/resolv.conf';
  const resolvConf = resolvPath !== '' ? readFlagFile(host, '--resolv-conf', resolvPath) : null;
  const runtimeClassHandlers: Record<string, string> = {};
  for (const m of flags.runtimeClass ?? []) {
    const eq = m.indexOf('=');
    if (eq <= 0) throw new SyncpodError(`--runtime-class: "${m}" is not NAME=HANDLER`);
    runtimeClassHandlers[m.slice(0, eq)] = m.slice(eq + 1);
  }
  const driver = flags.cgroupDriver ?? 'cgroupfs';
  if (driver !== 'cgroupfs' && driver !== 'systemd')
    throw new SyncpodError(`--cgroup-driver: must be cgroupfs or systemd, got "${driver}"`);
  const base = {
    podLogsRoot,
    kubeletRoot: flags.podDirRoot ?? '/var/lib/kubelet',
    clusterDNS: flags.clusterDns
      ? flags.clusterDns
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : [],
    clusterDomain: flags.clusterDomain ?? 'cluster.local',
    resolvConf,
    nodeIPs: host.nodeIPs(),
    cgroupDriver: driver as 'cgroupfs' | 'systemd',
    cgroupRoot: flags.cgroupRoot ?? '',
    cgroupsPerQOS: flags.cgroupsPerQos !== false,
    cgroupParent: flags.cgroupParent,
    cgroupVersion: host.cgroupVersion(),
    // The config-generation gates of the resolved kubelet rules (resolved once, passed down).
    gates: rules.gates,
    userNamespace:
      pod.spec?.hostUsers === false && rules.gates.UserNamespacesSupport && pod.metadata?.uid
        ? userNamespaceRange(
            host.nodePath?.(flags.podDirRoot ?? '/var/lib/kubelet') ?? flags.podDirRoot ?? '/var/lib/kubelet',
            pod.metadata.uid,
          )
        : undefined,
  };
  const fromFile = flags.envFile ? readEnvFile(flags.envFile, host, pod.metadata?.namespace ?? 'default') : undefined;
  const values = withObjectValues(fromFile, envValuesOf(volumeData, pod.metadata?.namespace ?? 'default'));
  if (values) invocationSecrets.add(podSecretValues(pod, values));
  invocationSecrets.add(volumeSecretValues(volumeData));
  const nodeHostsFile = pod.spec?.hostNetwork === true ? host.readFile('/etc/hosts') : undefined;
  const memory = host.memoryBytes();
  return {
    sandbox: { ...base, runtimeHandler: flags.runtimeHandler, runtimeClassHandlers },
    container: {
      ...base,
      values,
      nodeAllocatable: { cpu: String(host.cpuCount()), memory: String(memory) },
      memoryCapacityBytes: memory,
      hugePageSizes: host.hugePageSizes(),
      nodeHostsFile,
      hashScheme: rules.hashScheme,
      hashWithoutResources: rules.minor <= 30 && rules.gates.InPlacePodVerticalScaling,
      volumes: {
        data: volumeData,
        nodeAllocatableMemory: memory,
        nodeAllocatable: { cpu: String(host.cpuCount()), memory: String(memory) },
        sizeMemoryBackedVolumes: sizeMemoryBackedVolumes(rules.minor, rules.gates as Record<string, boolean>),
        noswap: tmpfsNoswap(
          rules.minor,
          kernelAtLeast(host.kernelRelease?.() ?? '', 6, 4) && !inUserNamespace(host.uidMap?.() ?? ''),
        ),
      },
    },
    podLogsRoot,
    legacyLogDir: legacyLogDirOf(podLogsRoot),
  };
}

/**
 * inuserns.RunningInUserNS from /proc/self/uid_map: the initial namespace maps all ids ("0 0
 * 4294967295"); anything else is a user namespace, where tmpfs refuses noswap (kubelet then omits it).
 * Unknown (empty) counts as not in one.
 */
export function inUserNamespace(uidMap: string): boolean {
  const t = uidMap.trim();
  if (t === '') return false;
  return !/^0\s+0\s+4294967295$/.test(t);
}

/** "6.8.0-45-generic" >= major.minor (kubelet's TmpfsNoswapSupportKernelVersion is 6.4). */
export function kernelAtLeast(release: string, major: number, minor: number): boolean {
  const m = /^(\d+)\.(\d+)/.exec(release);
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return a > major || (a === major && b >= minor);
}

/** --env-file values over the --configmap/--secret objects' keys (the env file names single keys). */
function withObjectValues(
  fromFile: ValueSources | undefined,
  objects: { configMaps: Record<string, Record<string, string>>; secrets: Record<string, Record<string, string>> },
): ValueSources | undefined {
  const none = Object.keys(objects.configMaps).length === 0 && Object.keys(objects.secrets).length === 0;
  if (none) return fromFile;
  const merge = (a: Record<string, Record<string, string>>, b: Record<string, Record<string, string>> | undefined) => {
    const out: Record<string, Record<string, string>> = {};
    for (const [k, v] of Object.entries(a)) out[k] = { ...v };
    for (const [k, v] of Object.entries(b ?? {})) out[k] = { ...out[k], ...v };
    return out;
  };
  return {
    ...fromFile,
    configMaps: merge(objects.configMaps, fromFile?.configMaps),
    secrets: merge(objects.secrets, fromFile?.secrets),
  };
}

/** kubelet's podLogsDir without trailing slashes (default /var/log/pods). */
export function podLogsRootOf(flags: Pick<NodeFlags, 'podLogsRoot'>): string {
  return String(flags.podLogsRoot ?? '/var/log/pods').replace(/\/+$/, '') || '/';
}

/** kubelet's /var/log/containers sits beside /var/log/pods; that relation is kept for other roots. */
export function legacyLogDirOf(podLogsRoot: string): string {
  return `${podLogsRoot.slice(0, podLogsRoot.lastIndexOf('/')) || ''}/containers`;
}

/** Sets metadata.uid (the API types mark it read-only). */
export function setUid(pod: Pod, uid: string): void {
  (pod.metadata as { uid?: string }).uid = uid;
}

/** kubelet sets spec.nodeName before it ever sees a pod; a manifest may lack it. */
export function withNodeName(pod: Pod, nodeName: string | undefined, host: HostFacts): void {
  if (pod.spec && !pod.spec.nodeName) pod.spec.nodeName = nodeName ?? host.hostname();
}

/** kubernetes.io/config.seen: kept from the pod's newest sandbox (kubelet keeps the pod in memory), else now. */
export function configSeenFor(nowMs: number, sandboxes: T.PodSandboxStatus[]): string {
  const kept = sandboxes.map((s) => s.annotations?.['kubernetes.io/config.seen']).find((v) => v);
  return kept ?? formatConfigSeen(nowMs, -new Date(nowMs).getTimezoneOffset());
}

/** What kubelet's sysctl admission reads on this node: its allowedUnsafeSysctls and the kernel release. */
export function sysctlNodeOf(flags: NodeFlags, host: Pick<HostFacts, 'kernelRelease'>): SysctlNode {
  const release = host.kernelRelease?.() ?? '';
  return {
    allowedUnsafeSysctls: (flags.allowedUnsafeSysctls ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    allowedUnsafeSysctlsKnown: flags.allowedUnsafeSysctlsKnown === true,
    kernelRelease: release === '' ? null : release,
  };
}
