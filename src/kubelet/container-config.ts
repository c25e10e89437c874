// generateContainerConfig as a pure function, mirroring kubelet 1.33 (kuberuntime_container.go
// generateContainerConfig, kubelet_pods.go GenerateRunContainerOptions, kuberuntime_container_linux.go).
// Every node fact is an input (ContainerOptions); directories and files kubelet creates are
// returned as data (effects).
//
// Not produced (no device plugins, DRA or block volumes in syncpod): devices, CDI devices and
// their env/mounts/annotations; image volumes; user-namespace ID mappings on mounts; stop signal.

import type { Container, EphemeralContainer, Pod } from './api-types';
import type { ContainerConfig, KeyValue, Signal } from '../cri/types';
import { SyncpodError } from '../errors';
import { criStopSignal } from './stop-signals';
import { generatePodHostNameAndDomain } from './dns';
import { expandContainerCommandAndArgs, makeEnvironmentVariables, type ServiceInfo, type ValueSources } from './env';
import type { HashScheme } from './kubelet-version';
import {
  buildContainerLogsDirectory,
  buildContainerLogsPath,
  DEFAULT_KUBELET_ROOT,
  DEFAULT_POD_LOGS_ROOT,
  newContainerAnnotations,
  newContainerLabels,
  podIdentity,
  type ConfigSource,
} from './labels';
import type { ConfigGates } from './config-gates';
import { joinInVolume } from './env-file';
import { makeMounts, makePodDataDirs, resolveVolume, type FsEffect, type VolumeSetup } from './mounts';
import { generateLinuxContainerResources, getPodQOS, isCriticalPod } from './resources';
import { containerSecurityContext, resolveImageUser, verifyRunAsNonRoot, type ImageUser } from './security-context';
import { cgroupSettingsOf, type NodeOptions } from './sandbox-config';

export type ContainerKind = 'regular' | 'init' | 'ephemeral';

export interface ContainerOptions extends NodeOptions {
  /** Restart count chosen for this instance: metadata.attempt, restartCount annotation, log file. */
  restartCount: number;
  /** Image id from PullImage/ImageStatus (ContainerConfig.image.image). */
  imageRef: string;
  /** User of the image from ImageStatus (uid or username); absent = root. */
  imageUser?: ImageUser;
  /** IPs handed to container creation (the sandbox's); for a host-network pod without any, the node's. */
  podIPs: string[];
  /** 8 lowercase hex digits for the termination-log file (random in kubelet: pass a fresh one). */
  terminationLogName: string;
  /** Where kubelet got the pod (static pods are critical for the OOM score); default 'api'. */
  configSource?: ConfigSource;
  /** Secret/ConfigMap values (from --env-file). */
  values?: ValueSources;
  /** Services for service-link env variables; kubelet reads them from the API server. */
  services?: ServiceInfo[];
  /** Node allocatable (cpu, memory, ephemeral-storage) for resourceFieldRef without limits. */
  nodeAllocatable?: Record<string, string>;
  /** Machine memory capacity in bytes (OOM score of Burstable pods). */
  memoryCapacityBytes?: number;
  /** Huge page sizes of the host in /sys/kernel/mm/hugepages order (e.g. ["2MB", "1GB"]); [] = none. */
  hugePageSizes: string[];
  /** Pulled image volumes (ImageVolume): volume name -> image id (kubelet's imageVolumes). */
  imageVolumes?: Readonly<Record<string, string>>;
  /** Texts of the env files fileKeyRef entries name, by host path (see envFileHostPaths). */
  envFiles?: Readonly<Record<string, string>>;
  /** SELinux enabled on the host (selinux_relabel of mounts). Default false. */
  selinuxEnabled?: boolean;
  /** kubelet --seccomp-default. Default false. */
  seccompDefault?: boolean;
  /** The runtime supports recursive read-only mounts. Default false. */
  supportsRecursiveReadOnly?: boolean;
  /** Text of the node's /etc/hosts, needed for host-network pods. */
  nodeHostsFile?: string;
  /** Container hash scheme: 'name+image' (kubelet 1.31+, default) or 'whole-spec' (1.16–1.30). */
  hashScheme?: HashScheme;
  /** Write hashWithoutResources (kubelet 1.27–1.32 with InPlacePodVerticalScaling). Default false. */
  hashWithoutResources?: boolean;
  /** Ephemeral container with targetContainerName: CRI id of the running target container. */
  targetContainerId?: string;
  /** tmpfs and file volumes: the operator's data and the node facts (absent: hostPath and disk emptyDir only). */
  volumes?: Omit<VolumeSetup, 'nowMs' | 'random'>;
  /** The atomic writer's timestamped directory: the time (ms) and random digits of this start. */
  volumeWrite?: { nowMs: number; random: string };
}

export interface ContainerConfigResult {
  config: ContainerConfig;
  /** Filesystem work before CreateContainer, in order. */
  effects: FsEffect[];
}

const utf8 = new TextEncoder();

/** generateAPIPodStatus for a host-network pod: the first host IP, and the first of the other family. */
function hostNetworkPodIPs(nodeIPs: string[]): string[] {
  const first = nodeIPs[0];
  if (first === undefined) return [];
  const other = nodeIPs.find((ip) => ip.includes(':') !== first.includes(':'));
  return other === undefined ? [first] : [first, other];
}

function findContainer(pod: Pod, name: string, kind: ContainerKind): Container | EphemeralContainer | undefined {
  const list =
    kind === 'init'
      ? pod.spec?.initContainers
      : kind === 'ephemeral'
        ? pod.spec?.ephemeralContainers
        : pod.spec?.containers;
  return (list ?? []).find((c) => c.name === name);
}

/** getContainerConfigStopSignal: lifecycle.stopSignal (SIGTERM, …) as the CRI Signal enum. */
function containerStopSignal(c: Container): Signal {
  const name = (c.lifecycle as { stopSignal?: string } | undefined)?.stopSignal;
  if (name === undefined || name === '') return 'SIGNAL_RUNTIME_DEFAULT';
  const signal = criStopSignal(name);
  if (signal === undefined)
    throw new SyncpodError(`container ${c.name}: lifecycle.stopSignal ${name} is not a signal the CRI knows`);
  return signal;
}

/** Host path of a pod volume that fileKeyRef can read (emptyDir or hostPath), else undefined. */
function volumeHostPath(pod: Pod, name: string, kubeletRoot: string): string | undefined {
  const v = (pod.spec?.volumes ?? []).find((x) => x.name === name);
  if (!v || (v.emptyDir === undefined && v.hostPath === undefined && Object.keys(v).length > 1)) return undefined;
  try {
    return resolveVolume(pod, v, kubeletRoot)?.hostPath;
  } catch {
    return undefined;
  }
}

/** One env file a fileKeyRef entry reads: the volume's host path, the path inside it, and who asks. */
export interface EnvFileRead {
  /** The key of its text in ContainerOptions.envFiles (the volume path and the path inside it, joined). */
  path: string;
  volumePath: string;
  /** Relative to the volume, '..' levels dropped (kubelet's SecureJoin never leaves the volume either). */
  rel: string;
  envName: string;
  volumeName: string;
}

/** The env files a container's fileKeyRef entries read (EnvFiles on), for the executor to read inside their volumes. */
export function envFileReads(
  pod: Pod,
  container: Container,
  o: { kubeletRoot?: string; gates: Pick<ConfigGates, 'EnvFiles'> },
): EnvFileRead[] {
  if (!o.gates.EnvFiles) return [];
  const root = o.kubeletRoot ?? DEFAULT_KUBELET_ROOT;
  const out: EnvFileRead[] = [];
  for (const e of container.env ?? []) {
    const ref = (e.valueFrom as { fileKeyRef?: { volumeName: string; path: string } } | undefined)?.fileKeyRef;
    if (!ref) continue;
    const base = volumeHostPath(pod, ref.volumeName, root);
    if (base === undefined) continue;
    const path = joinInVolume(base, ref.path);
    out.push({
      path,
      volumePath: base,
      rel: path.slice(base.replace(/\/+$/, '').length + 1),
      envName: e.name,
      volumeName: ref.volumeName,
    });
  }
  return out;
}

/** The host paths of envFileReads. */
export function envFileHostPaths(
  pod: Pod,
  container: Container,
  o: { kubeletRoot?: string; gates: Pick<ConfigGates, 'EnvFiles'> },
): string[] {
  return [...new Set(envFileReads(pod, container, o).map((r) => r.path))];
}

/** generateContainerConfig for one container of the pod (`container` must be one of its `kind`). */
export function generateContainerConfig(
  pod: Pod,
  container: Container | EphemeralContainer,
  kind: ContainerKind,
  o: ContainerOptions,
): ContainerConfigResult {
  podIdentity(pod);
  if (!findContainer(pod, container.name, kind)) {
    throw new SyncpodError(`pod has no ${kind === 'regular' ? '' : kind + ' '}container named ${container.name}`);
  }
  if (!Number.isInteger(o.restartCount) || o.restartCount < 0) {
    throw new SyncpodError(
      `container ${container.name}: restart count ${o.restartCount} is not a non-negative integer`,
    );
  }
  const c = container as Container;
  const where = `container ${c.name}`;
  if (!c.image) throw new SyncpodError(`${where}: image is empty`);
  let targetContainerId: string | undefined;
  if (kind === 'ephemeral' && (container as EphemeralContainer).targetContainerName) {
    if (!o.targetContainerId) {
      throw new SyncpodError(
        `${where}: targets container ${(container as EphemeralContainer).targetContainerName}, whose container id was not given`,
      );
    }
    targetContainerId = o.targetContainerId;
  }
  const kubeletRoot = o.kubeletRoot ?? DEFAULT_KUBELET_ROOT;
  const podLogsRoot = o.podLogsRoot ?? DEFAULT_POD_LOGS_ROOT;

  const gates = o.gates;
  const { hostname, domain } = generatePodHostNameAndDomain(pod, o.clusterDomain ?? '', gates.HostnameOverride);
  // kubelet's SyncPod: a host-network pod's status carries the host IPs, and those are its pod IPs.
  const podIPs =
    o.podIPs.length === 0 && pod.spec?.hostNetwork === true ? hostNetworkPodIPs(o.nodeIPs ?? []) : o.podIPs;
  // The pod as the API server stores it: enableServiceLinks defaulted (manifest loading does the
  // same), since makeEnvironmentVariables refuses a pod object without it as kubelet does.
  const apiPod: Pod =
    pod.spec && pod.spec.enableServiceLinks === undefined
      ? { ...pod, spec: { ...pod.spec, enableServiceLinks: true } }
      : pod;
  const envs = makeEnvironmentVariables(apiPod, c, {
    podIPs,
    nodeIPs: o.nodeIPs ?? [],
    values: o.values,
    services: o.services,
    nodeAllocatable: o.nodeAllocatable,
    relaxedEnvVarNames: gates.RelaxedEnvironmentVariableValidation,
    envFiles: {
      enabled: gates.EnvFiles,
      volumePath: (name) => volumeHostPath(pod, name, kubeletRoot),
      files: o.envFiles ?? {},
    },
  });
  const mounted = makeMounts(pod, c, {
    kubeletRoot,
    envs,
    podIPs,
    hostname,
    domain,
    nodeHostsFile: o.nodeHostsFile,
    selinuxEnabled: o.selinuxEnabled ?? false,
    supportsRecursiveReadOnly: o.supportsRecursiveReadOnly ?? false,
    terminationLogName: o.terminationLogName,
    gates,
    imageVolumes: o.imageVolumes,
    volumeSetup: o.volumes
      ? { ...o.volumes, nowMs: o.volumeWrite?.nowMs ?? 0, random: o.volumeWrite?.random ?? '0' }
      : undefined,
  });
  const imageUser = resolveImageUser(o.imageUser);
  verifyRunAsNonRoot(pod, c, imageUser);
  const { command, args } = expandContainerCommandAndArgs(c, envs);

  const qos = getPodQOS(pod, gates.PodLevelResources);
  const source = o.configSource ?? 'api';
  const config: ContainerConfig = {
    metadata: { name: c.name, attempt: o.restartCount },
    image: { image: o.imageRef, annotations: {}, userSpecifiedImage: c.image, runtimeHandler: '', imageRef: '' },
    command,
    args,
    workingDir: c.workingDir ?? '',
    envs: [],
    mounts: mounted.mounts,
    devices: [],
    labels: newContainerLabels(pod, c),
    annotations: newContainerAnnotations(pod, c, {
      restartCount: o.restartCount,
      hashScheme: o.hashScheme ?? 'name+image',
      hashWithoutResources: o.hashWithoutResources ?? false,
    }),
    logPath: buildContainerLogsPath(c.name, o.restartCount),
    stdin: c.stdin === true,
    stdinOnce: c.stdinOnce === true,
    tty: c.tty === true,
    linux: {
      resources: generateLinuxContainerResources(pod, c, {
        qos,
        nodeCritical: isCriticalPod(pod, source) && pod.spec?.priorityClassName === 'system-node-critical',
        critical: isCriticalPod(pod, source),
        nodeSwap: gates.NodeSwap,
        memoryCapacityBytes: o.memoryCapacityBytes,
        cgroup: cgroupSettingsOf(o),
        hugePageSizes: o.hugePageSizes,
        podLevelResources: gates.PodLevelResources,
      }),
      securityContext: containerSecurityContext(pod, c, {
        gates,
        userNamespace: o.userNamespace,
        imageUser,
        seccompDefault: o.seccompDefault ?? false,
        kubeletRoot,
        targetContainerId,
      }),
    },
    CDIDevices: [],
    stopSignal: gates.ContainerStopSignals ? containerStopSignal(c) : 'SIGNAL_RUNTIME_DEFAULT',
  };
  // applyPlatformSpecificContainerConfig: in a pod user namespace every mount is id-mapped alike.
  const userns = config.linux?.securityContext?.namespaceOptions?.usernsOptions;
  if (gates.UserNamespacesSupport && userns && userns.mode === 'POD') {
    for (const m of config.mounts) {
      m.uidMappings = userns.uids.map((x) => ({ ...x }));
      m.gidMappings = userns.gids.map((x) => ({ ...x }));
    }
  }
  config.envs = envs.map((e): KeyValue => ({ key: e.name, value: utf8.encode(e.value) }));

  const effects: FsEffect[] = [
    // SyncPod's makePodDataDirs, for a start on a sync that did not create the sandbox.
    ...makePodDataDirs(kubeletRoot, pod),
    ...mounted.effects.filter((e) => e.kind !== 'touch' || e.why !== 'termination-message file'),
    {
      kind: 'mkdir',
      path: buildContainerLogsDirectory(podLogsRoot, pod, c.name),
      mode: 0o755,
      why: 'container log directory',
    },
    ...mounted.effects.filter((e) => e.kind === 'touch' && e.why === 'termination-message file'),
  ];
  return { config, effects };
}
