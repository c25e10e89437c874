// generatePodSandboxConfig as a pure function, mirroring kubelet 1.33 (kuberuntime_sandbox.go,
// kuberuntime_sandbox_linux.go, cm pod container manager naming in cgroup-name.ts, container/helpers.go
// MakePortMappings). Every node fact is an input (SandboxOptions); the directories kubelet
// creates are returned as data (effects), and the events it would record as `events`.

import type { ContainerPort, Pod } from './api-types';
import type { LinuxPodSandboxConfig, PodSandboxConfig, PortMapping, Protocol } from '../cri/types';
import { SyncpodError } from '../errors';
import { getPodDNS, podSandboxHostname, type KubeletEvent } from './dns';
import {
  buildPodLogsDirectory,
  DEFAULT_KUBELET_ROOT,
  DEFAULT_POD_LOGS_ROOT,
  newPodAnnotations,
  newPodLabels,
  podDir,
  podIdentity,
  type ConfigSource,
} from './labels';
import { makePodDataDirs, type FsEffect } from './mounts';
import {
  calculateSandboxResources,
  convertOverheadToLinuxResources,
  DEFAULT_CGROUP_SETTINGS,
  getPodQOS,
  QUOTA_PERIOD_US,
  type CgroupSettings,
  type QOSClass,
} from './resources';
import type { ConfigGates } from './config-gates';
import { DEFAULT_CGROUP_LAYOUT, podCgroupName, type CgroupLayout } from './cgroup-name';
import { sandboxSecurityContext, type UserNamespaceRange } from './security-context';

export type { KubeletEvent } from './dns';
export type { FsEffect } from './mounts';

/** Kubelet and node settings shared by sandbox and container config generation. */
export interface NodeOptions {
  /** kubelet --pod-logs-root (podLogsDirectory); default /var/log/pods. */
  podLogsRoot?: string;
  /** kubelet --root-dir; default /var/lib/kubelet (pod dir = <root>/pods/<uid>). */
  kubeletRoot?: string;
  /** kubelet --cluster-dns; default none. */
  clusterDNS?: string[];
  /** kubelet --cluster-domain; default "" (kubelet's own default). */
  clusterDomain?: string;
  /** Text of the node's resolv.conf (kubelet --resolv-conf); null = kubelet runs with --resolv-conf="". */
  resolvConf: string | null;
  /** Node IPs, primary first. */
  nodeIPs?: string[];
  /** kubelet --cgroup-driver; default cgroupfs (kubelet's default). */
  cgroupDriver?: 'cgroupfs' | 'systemd';
  /** kubelet --cgroup-root (cgroupfs form); default "" ("/" with cgroupsPerQOS). */
  cgroupRoot?: string;
  /** kubelet --cgroups-per-qos; default true. Off: no pod cgroup, an empty cgroup parent. */
  cgroupsPerQOS?: boolean;
  /** Overrides the computed pod cgroup parent (syncpod --cgroup-parent). */
  cgroupParent?: string;
  /** 1 or 2; default 2. */
  cgroupVersion?: 1 | 2;
  cpuCFSQuota?: boolean;
  cpuCFSQuotaPeriodUs?: number;
  singleProcessOOMKill?: boolean;
  swapControllerAvailable?: boolean;
  /** kubelet memorySwap.swapBehavior (default "": no swap). */
  memorySwapBehavior?: '' | 'NoSwap' | 'LimitedSwap';
  /** The node's swap capacity in bytes (needed with LimitedSwap). */
  swapCapacityBytes?: number;
  /** The config-generation gates, resolved once per invocation (resolveKubeletRules(...).gates). */
  gates: ConfigGates;
  /** A hostUsers: false pod's user-namespace range (see sync/userns.ts). */
  userNamespace?: UserNamespaceRange;
}

export interface SandboxOptions extends NodeOptions {
  /** Where kubelet got the pod: 'api' (default), 'file' or 'http' (static pods). */
  configSource?: ConfigSource;
  /** kubernetes.io/config.seen: time in Go layout 2006-01-02T15:04:05.000000000Z07:00. */
  configSeen: string;
  /** Runtime handler from --runtime-handler; wins over runtimeClassHandlers. */
  runtimeHandler?: string;
  /** RuntimeClass name -> handler, for pods with spec.runtimeClassName. */
  runtimeClassHandlers?: Record<string, string>;
}

export interface SandboxConfigResult {
  config: PodSandboxConfig;
  runtimeHandler: string;
  qosClass: QOSClass;
  /** Filesystem work before RunPodSandbox, in order. */
  effects: FsEffect[];
  /** Events kubelet would record for the pod (warnings about DNS). */
  events: KubeletEvent[];
}

/** Settings with their kubelet defaults filled in. */
export function cgroupSettingsOf(o: NodeOptions): CgroupSettings {
  return {
    cgroupVersion: o.cgroupVersion ?? DEFAULT_CGROUP_SETTINGS.cgroupVersion,
    cpuCFSQuota: o.cpuCFSQuota ?? DEFAULT_CGROUP_SETTINGS.cpuCFSQuota,
    cpuCFSQuotaPeriodUs: o.cpuCFSQuotaPeriodUs ?? QUOTA_PERIOD_US,
    singleProcessOOMKill: o.singleProcessOOMKill ?? DEFAULT_CGROUP_SETTINGS.singleProcessOOMKill,
    swapControllerAvailable: o.swapControllerAvailable ?? DEFAULT_CGROUP_SETTINGS.swapControllerAvailable,
    memorySwapBehavior: o.memorySwapBehavior ?? '',
    ...(o.swapCapacityBytes !== undefined ? { swapCapacityBytes: o.swapCapacityBytes } : {}),
  };
}

/**
 * The pod's cgroup parent as kubelet's GetPodCgroupParent answers it (pod container manager naming,
 * cgroupfs or systemd spelling, under cgroupRoot; '' when cgroupsPerQOS is off).
 */
export function podCgroupParent(pod: Pod, layout: Partial<CgroupLayout> = {}, qos: QOSClass = getPodQOS(pod)): string {
  const { uid } = podIdentity(pod);
  return podCgroupName(uid, qos, { ...DEFAULT_CGROUP_LAYOUT, ...definedOnly(layout) }).literal;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** ConvertSysctlVariableToDotsSeparator: `kernel/shm_rmid_forced` -> `kernel.shm_rmid_forced`. */
export function sysctlToDots(name: string): string {
  const i = name.search(/[./]/);
  if (i < 0 || name[i] === '.') return name;
  return name.replace(/[./]/g, (c) => (c === '.' ? '/' : '.'));
}

function runtimeProtocol(p: string | undefined): Protocol {
  return p === 'UDP' || p === 'SCTP' ? p : 'TCP';
}

/** MakePortMappings for one container: entries whose name (or family/protocol/IP/ports key) repeats are dropped. */
export function containerPortMappings(ports: ContainerPort[]): PortMapping[] {
  const seen = new Set<string>();
  const out: PortMapping[] = [];
  for (const p of ports) {
    const hostIP = p.hostIP ?? '';
    const family = hostIP === '' ? 'any' : hostIP.includes(':') ? 'v6' : 'v4';
    const key = p.name || `${family}-${p.protocol ?? ''}-${hostIP}:${p.containerPort}:${p.hostPort ?? 0}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      protocol: runtimeProtocol(p.protocol),
      containerPort: p.containerPort,
      hostPort: p.hostPort ?? 0,
      hostIp: hostIP,
    });
  }
  return out;
}

function resolveRuntimeHandler(pod: Pod, o: SandboxOptions): string {
  if (o.runtimeHandler !== undefined) return o.runtimeHandler;
  const cls = pod.spec?.runtimeClassName ?? '';
  if (cls === '') return '';
  const handler = o.runtimeClassHandlers?.[cls];
  if (handler === undefined) {
    throw new SyncpodError(`RuntimeClass "${cls}" has no known handler`, { needs: 'runtime-handler' });
  }
  return handler;
}

/** generatePodSandboxConfig for `attempt` (0 for the first sandbox of the pod). */
export function generatePodSandboxConfig(pod: Pod, attempt: number, o: SandboxOptions): SandboxConfigResult {
  const { name, namespace, uid } = podIdentity(pod);
  if (!Number.isInteger(attempt) || attempt < 0)
    throw new SyncpodError(`sandbox attempt ${attempt} is not a non-negative integer`);
  const kubeletRoot = o.kubeletRoot ?? DEFAULT_KUBELET_ROOT;
  const clusterDomain = o.clusterDomain ?? '';
  const dns = getPodDNS(pod, {
    clusterDNS: o.clusterDNS ?? [],
    clusterDomain,
    resolvConf: o.resolvConf,
    nodeIPs: o.nodeIPs ?? [],
  });
  const logDirectory = buildPodLogsDirectory(o.podLogsRoot ?? DEFAULT_POD_LOGS_ROOT, pod);
  const portMappings = (pod.spec?.containers ?? []).flatMap((c) => containerPortMappings(c.ports ?? []));
  const qosClass = getPodQOS(pod, o.gates.PodLevelResources);
  const cgroup = cgroupSettingsOf(o);

  const sysctls: Record<string, string> = {};
  for (const s of pod.spec?.securityContext?.sysctls ?? []) sysctls[sysctlToDots(s.name)] = s.value;

  const linux: LinuxPodSandboxConfig = {
    cgroupParent:
      o.cgroupParent ??
      podCgroupParent(
        pod,
        { cgroupDriver: o.cgroupDriver, cgroupRoot: o.cgroupRoot, cgroupsPerQOS: o.cgroupsPerQOS },
        qosClass,
      ),
    securityContext: sandboxSecurityContext(pod, { gates: o.gates, userNamespace: o.userNamespace }),
    sysctls,
    resources: calculateSandboxResources(pod, cgroup, o.gates.PodLevelResources),
    overhead: convertOverheadToLinuxResources(pod, cgroup),
  };

  const config: PodSandboxConfig = {
    metadata: { name, namespace, uid, attempt },
    hostname: podSandboxHostname(pod, clusterDomain, o.gates.HostnameOverride),
    logDirectory,
    dnsConfig: dns.dnsConfig,
    portMappings,
    labels: newPodLabels(pod),
    annotations: newPodAnnotations(pod, o.configSource ?? 'api', o.configSeen),
    linux,
  };

  const dir = podDir(kubeletRoot, pod);
  const effects: FsEffect[] = [
    ...makePodDataDirs(kubeletRoot, pod),
    { kind: 'mkdir', path: logDirectory, mode: 0o755, why: 'pod log directory' },
  ];
  if (o.userNamespace && pod.spec?.hostUsers === false && o.gates.UserNamespacesSupport) {
    // kubelet's user-namespace manager records the pod's range in <pod dir>/userns.
    const m = [{ hostId: o.userNamespace.hostId, containerId: 0, length: o.userNamespace.length }];
    const content = JSON.stringify({ uidMappings: m, gidMappings: m });
    effects.push({ kind: 'writeFile', path: `${dir}/userns`, mode: 0o644, content, why: 'user-namespace mappings' });
  }
  return { config, runtimeHandler: resolveRuntimeHandler(pod, o), qosClass, effects, events: dns.events };
}
