// Container mounts and the filesystem work kubelet does around them, mirroring kubelet 1.33
// (kubelet_pods.go makeMounts / makeHostsMount / managedHostsFileContent, kuberuntime_container.go
// makeMounts, volume plugins hostPath and emptyDir). Pure: the filesystem work is returned as
// data (FsEffect) for the executor.
//
// Volume types: hostPath, emptyDir (disk or Memory), and with VolumeSetup the file plugins configMap,
// secret, projected and downwardAPI (volumes.ts); every other type is refused.

import type { Container, Pod, Volume, VolumeMount } from './api-types';
import type { Mount, MountPropagation } from '../cri/types';
import { SyncpodError } from '../errors';
import { expandSubPathExpr, type EnvVar } from './env';
import type { ConfigGates } from './config-gates';
import { podContainerDir, podDir, podEtcHostsPath } from './labels';
import {
  emptyDirMemorySize,
  isSkipped,
  onTmpfs,
  PLUGIN_DIRS,
  timestampDirName,
  volumePayload,
  volumeType,
  type FileProjection,
  type VolumeData,
} from './volumes';
import { checkPathComponent } from './path-names';

/** Filesystem work the executor must do before the CRI call, in order. Modes are octal numbers. */
export type FsEffect =
  | { kind: 'mkdir'; path: string; mode: number; why: string }
  /** Create the file empty with `mode` if missing; an existing one is left as it is (never truncated or chmodded). */
  | { kind: 'touch'; path: string; mode: number; why: string }
  /** Write the whole file (replace), then chmod. */
  | { kind: 'writeFile'; path: string; mode: number; content: string; why: string }
  /**
   * A subPath (kubelet's SafeMakeDir + PrepareSafeSubpath): the missing levels of `subPath` created
   * inside `volumePath` with the volume's own mode, the path resolved without leaving the volume, and
   * what it resolved to bind-mounted at `target` (the path the runtime is given).
   */
  | {
      kind: 'bindSubPath';
      volumePath: string;
      subPath: string;
      target: string;
      volumeName: string;
      containerName: string;
      mountName: string;
      why: string;
    }
  /** A hostPath volume with a type: the path must exist and be of that type. */
  | { kind: 'checkHostPath'; path: string; type: string; why: string }
  /** A memory-backed emptyDir: the directory (mode), then a tmpfs on it unless one is there (size 0: the kernel's default). */
  | { kind: 'mountTmpfs'; path: string; mode: number; sizeBytes: number; noswap: boolean; why: string }
  /**
   * kubelet's AtomicWriter.Write into `dir`: the files in a new `timestampDir`, `..data` switched to it
   * by a rename, a symlink `name -> ..data/name` per user-visible entry, old entries and the old
   * timestamped directory removed; nothing rewritten when the files are unchanged.
   */
  | { kind: 'atomicWrite'; dir: string; files: FileProjection[]; timestampDir: string; why: string }
  /**
   * kubelet's SetVolumeOwnership for the pod's fsGroup: every entry below `path` (symlinks not
   * followed) gets group `gid` and, unless a symlink, its mode | 0660 (0440 when `readOnly`), a
   * directory also setgid | 0110. emptyDir ignores a failure (`bestEffort`), as kubelet does.
   */
  | { kind: 'volumeOwnership'; path: string; gid: number; readOnly: boolean; bestEffort: boolean; why: string };

export const ETC_HOSTS_PATH = '/etc/hosts';

/**
 * kubelet's makePodDataDirs: the pod directory and its volumes and plugins directories (0750).
 * kubelet runs it at the top of every SyncPod, not only when it creates the sandbox, so a container
 * started by a later sync finds them (its etc-hosts and termination-log files live there).
 */
export function makePodDataDirs(kubeletRoot: string, pod: Pod): FsEffect[] {
  const dir = podDir(kubeletRoot, pod);
  return [
    { kind: 'mkdir', path: dir, mode: 0o750, why: 'pod directory' },
    { kind: 'mkdir', path: `${dir}/volumes`, mode: 0o750, why: 'pod volumes directory' },
    { kind: 'mkdir', path: `${dir}/plugins`, mode: 0o750, why: 'pod plugins directory' },
  ];
}

/** Where an emptyDir lives: `<podDir>/volumes/kubernetes.io~empty-dir/<name>`. */
export function emptyDirPath(kubeletRoot: string, pod: Pod, volumeName: string): string {
  return `${podDir(kubeletRoot, pod)}/volumes/kubernetes.io~empty-dir/${checkPathComponent('volume name', volumeName)}`;
}

/** Directory of a pod's subPath bind mounts (kubelet's containerSubPathDirectoryName). */
export const SUBPATH_DIR = 'volume-subpaths';

/** getSubpathBindTarget: `<podDir>/volume-subpaths/<volume>/<container>/<index of the mount in the container>`. */
export function subPathBindTarget(
  podDirPath: string,
  volumeName: string,
  containerName: string,
  index: number,
): string {
  return `${podDirPath}/${SUBPATH_DIR}/${checkPathComponent('volume name', volumeName)}/${checkPathComponent('container name', containerName)}/${index}`;
}

/** A volume resolved to a host path plus the work its plugin does at setup. */
interface ResolvedVolume {
  hostPath: string;
  /** The plugin supports SELinux relabelling and is managed (emptyDir and the file plugins). */
  relabel: boolean;
  /** The plugin's mounts are read-only whatever the volumeMount says (configMap, secret, projected, downwardAPI). */
  readOnly: boolean;
  effects: FsEffect[];
}

/** What setting up tmpfs and file volumes needs beyond the pod (see volumes.ts). */
export interface VolumeSetup {
  data: VolumeData;
  /** Milliseconds since the epoch and random digits: the atomic writer's timestamped directory name. */
  nowMs: number;
  random: string;
  /** Node allocatable memory in bytes (tmpfs size before the pod's and the volume's limits). */
  nodeAllocatableMemory: number;
  /** SizeMemoryBackedVolumes (on from 1.22; no longer a gate from 1.35). */
  sizeMemoryBackedVolumes: boolean;
  /** Mount tmpfs with noswap (kubelet 1.31+ on a kernel that takes it). */
  noswap: boolean;
  /** For downwardAPI resourceFieldRef of a container without that limit. */
  nodeAllocatable?: Readonly<Record<string, string>>;
}

/** Where a volume of a plugin with a directory lives: `<podDir>/volumes/<plugin dir>/<name>`. */
export function pluginVolumePath(kubeletRoot: string, pod: Pod, type: string, volumeName: string): string {
  return `${podDir(kubeletRoot, pod)}/volumes/${PLUGIN_DIRS[type]}/${checkPathComponent('volume name', volumeName)}`;
}

/** The pod's fsGroup, when it has one (the ownership every emptyDir and file volume gets). */
function fsGroupOf(pod: Pod): number | undefined {
  const g = pod.spec?.securityContext?.fsGroup;
  return g === undefined || g === null ? undefined : Number(g);
}

function ownershipEffects(pod: Pod, path: string, readOnly: boolean, bestEffort: boolean, why: string): FsEffect[] {
  const gid = fsGroupOf(pod);
  return gid === undefined ? [] : [{ kind: 'volumeOwnership', path, gid, readOnly, bestEffort, why }];
}

function tmpfsEffect(pod: Pod, path: string, sizeLimit: string | number | undefined, s: VolumeSetup, why: string) {
  const sizeBytes = emptyDirMemorySize(pod, sizeLimit, s.nodeAllocatableMemory, s.sizeMemoryBackedVolumes);
  return { kind: 'mountTmpfs' as const, path, mode: 0o777, sizeBytes, noswap: s.noswap, why };
}

/**
 * A volume resolved to its host path and setup work; null when the operator skipped it
 * (--skip-volume: not set up, not mounted). Types syncpod cannot provide are refused (the plan's
 * classifyVolumes reports them before anything is done).
 */
export function resolveVolume(pod: Pod, v: Volume, kubeletRoot: string, setup?: VolumeSetup): ResolvedVolume | null {
  const type = volumeType(v);
  if (setup && isSkipped(setup.data, v.name)) return null;
  if (type === 'image') throw new SyncpodError(`volume ${v.name}: type image needs the ImageVolume feature gate`);
  if (type === 'hostPath' && v.hostPath) {
    const path = v.hostPath.path;
    const hpType = v.hostPath.type ?? '';
    const why = `hostPath volume ${v.name}`;
    const effects: FsEffect[] = [];
    if (hpType === 'DirectoryOrCreate') effects.push({ kind: 'mkdir', path, mode: 0o755, why });
    else if (hpType === 'FileOrCreate') effects.push({ kind: 'touch', path, mode: 0o644, why });
    else if (hpType !== '') effects.push({ kind: 'checkHostPath', path, type: hpType, why });
    return { hostPath: path, relabel: false, readOnly: false, effects };
  }
  if (type === 'emptyDir') {
    const medium = v.emptyDir?.medium ?? '';
    const path = emptyDirPath(kubeletRoot, pod, v.name);
    const why = `emptyDir volume ${v.name}`;
    const owner = ownershipEffects(pod, path, false, true, why);
    if (medium === 'Memory' && setup) {
      const effects = [tmpfsEffect(pod, path, v.emptyDir?.sizeLimit, setup, why), ...owner];
      return { hostPath: path, relabel: true, readOnly: false, effects };
    }
    if (medium !== '')
      throw new SyncpodError(`volume ${v.name}: emptyDir medium ${medium} is not supported by syncpod`);
    const mkdir: FsEffect = { kind: 'mkdir', path, mode: 0o777, why };
    return { hostPath: path, relabel: true, readOnly: false, effects: [mkdir, ...owner] };
  }
  if ((type === 'configMap' || type === 'secret' || type === 'projected' || type === 'downwardAPI') && setup) {
    const path = pluginVolumePath(kubeletRoot, pod, type, v.name);
    const why = `${type} volume ${v.name}`;
    let files: FileProjection[];
    try {
      files = volumePayload(pod, v, setup.data, { nodeAllocatable: setup.nodeAllocatable });
    } catch (err) {
      throw new SyncpodError(`${why}: ${err instanceof Error ? err.message : String(err)}`);
    }
    // The plugin wraps an emptyDir: memory-backed for secret, projected and downwardAPI, on disk for configMap.
    const dir: FsEffect = onTmpfs(type)
      ? tmpfsEffect(pod, path, undefined, setup, why)
      : { kind: 'mkdir', path, mode: 0o777, why };
    const write: FsEffect = {
      kind: 'atomicWrite',
      dir: path,
      files,
      timestampDir: timestampDirName(setup.nowMs, setup.random),
      why,
    };
    const owner = ownershipEffects(pod, path, true, false, why);
    return { hostPath: path, relabel: true, readOnly: true, effects: [dir, write, ...owner] };
  }
  throw new SyncpodError(`volume ${v.name}: type ${type} is not supported by syncpod`);
}

function propagationOf(m: VolumeMount, where: string): MountPropagation {
  switch (m.mountPropagation ?? 'None') {
    case 'None':
      return 'PROPAGATION_PRIVATE';
    case 'HostToContainer':
      return 'PROPAGATION_HOST_TO_CONTAINER';
    case 'Bidirectional':
      return 'PROPAGATION_BIDIRECTIONAL';
    default:
      throw new SyncpodError(`${where}: invalid MountPropagation mode: "${m.mountPropagation}"`);
  }
}

function hasBacksteps(p: string): boolean {
  return p.split('/').includes('..');
}

function recursiveReadOnly(m: VolumeMount, supports: boolean, where: string): boolean {
  try {
    return resolveRecursiveReadOnly(m, supports);
  } catch (err) {
    throw new SyncpodError(
      `${where}: failed to resolve recursive read-only mode: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

function resolveRecursiveReadOnly(m: VolumeMount, supports: boolean): boolean {
  const rro = (m as { recursiveReadOnly?: string }).recursiveReadOnly;
  if (rro === undefined || rro === 'Disabled') return false;
  if (!m.readOnly) throw new Error(`recursiveReadOnly ${rro} requires readOnly`);
  if ((m.mountPropagation ?? 'None') !== 'None')
    throw new Error(`recursiveReadOnly ${rro} requires mountPropagation None`);
  if (rro === 'IfPossible') return supports;
  if (rro === 'Enabled') {
    if (!supports) throw new Error('recursiveReadOnly Enabled is not supported by the runtime');
    return true;
  }
  throw new Error(`invalid recursiveReadOnly "${rro}"`);
}

/** Text of the managed /etc/hosts (managedHostsFileContent / nodeHostsFileContent). */
export function etcHostsContent(
  pod: Pod,
  o: { podIPs: string[]; hostname: string; domain: string; nodeHostsFile?: string },
): string {
  let text: string;
  if (pod.spec?.hostNetwork === true) {
    if (o.nodeHostsFile === undefined) {
      throw new SyncpodError("a host-network pod's /etc/hosts is the node's /etc/hosts, which was not given");
    }
    text = '# Kubernetes-managed hosts file (host network).\n' + o.nodeHostsFile;
  } else {
    text =
      '# Kubernetes-managed hosts file.\n' +
      '127.0.0.1\tlocalhost\n' +
      '::1\tlocalhost ip6-localhost ip6-loopback\n' +
      'fe00::0\tip6-localnet\n' +
      'fe00::0\tip6-mcastprefix\n' +
      'fe00::1\tip6-allnodes\n' +
      'fe00::2\tip6-allrouters\n';
    for (const ip of o.podIPs) {
      text += o.domain !== '' ? `${ip}\t${o.hostname}.${o.domain}\t${o.hostname}\n` : `${ip}\t${o.hostname}\n`;
    }
  }
  const aliases = pod.spec?.hostAliases ?? [];
  if (aliases.length > 0) {
    text += '\n# Entries added by HostAliases.\n';
    for (const a of aliases) text += `${a.ip ?? ''}\t${(a.hostnames ?? []).join('\t')}\n`;
  }
  return text;
}

/** shouldMountHostsFile: the pod has IPs, or it uses the host network (kubelet 1.35 says so outright; earlier
 * kubelets reach the same result because a host-network pod's IPs are the host's). */
export function shouldMountHostsFile(pod: Pod, podIPs: string[]): boolean {
  return podIPs.length > 0 || pod.spec?.hostNetwork === true;
}

export interface MountInputs {
  kubeletRoot: string;
  /** Final environment (for subPathExpr). */
  envs: EnvVar[];
  /** IPs handed to container creation; /etc/hosts is managed when non-empty or the pod uses the host network. */
  podIPs: string[];
  /** Short hostname and domain (generatePodHostNameAndDomain). */
  hostname: string;
  domain: string;
  /** Text of the node's /etc/hosts, for host-network pods. */
  nodeHostsFile?: string;
  selinuxEnabled: boolean;
  supportsRecursiveReadOnly: boolean;
  /** 8 lowercase hex digits: the termination-log file name of this container instance. */
  terminationLogName: string;
  gates: Pick<ConfigGates, 'ImageVolume' | 'RecursiveReadOnlyMounts'>;
  /** Pulled image volumes (kubelet's imageVolumes): volume name -> the image id to mount. */
  imageVolumes?: Readonly<Record<string, string>>;
  /** tmpfs and file volumes (absent: only hostPath and disk emptyDir are provided). */
  volumeSetup?: VolumeSetup;
}

function mount(hostPath: string, containerPath: string, readonly: boolean, selinuxRelabel: boolean): Mount {
  return {
    containerPath,
    hostPath,
    readonly,
    selinuxRelabel,
    propagation: 'PROPAGATION_PRIVATE',
    uidMappings: [],
    gidMappings: [],
    recursiveReadOnly: false,
    imageSubPath: '',
    mountOptions: [],
  };
}

/** The mount's subPath (subPathExpr expanded), refused when absolute or with '..' as kubelet does. */
function mountSubPath(m: VolumeMount, envs: EnvVar[], where: string): string {
  let subPath = m.subPath ?? '';
  if (m.subPathExpr) {
    try {
      subPath = expandSubPathExpr(m.subPathExpr, envs);
    } catch (err) {
      throw new SyncpodError(`${where}: subPathExpr: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (subPath.startsWith('/')) throw new SyncpodError(`error SubPath \`${subPath}\` must not be an absolute path`);
  if (hasBacksteps(subPath))
    throw new SyncpodError(`unable to provision SubPath \`${subPath}\`: must not contain '..'`);
  return subPath;
}

/**
 * An image volume (ImageVolume gate): CRI Mount.image names the pulled image, image_sub_path the
 * subPath; no host path, read-only as the image volume plugin mounts it.
 */
function imageVolumeMount(vol: Volume, m: VolumeMount, o: MountInputs, where: string): Mount {
  const subPath = mountSubPath(m, o.envs, where);
  const imageRef = o.imageVolumes?.[vol.name];
  if (imageRef === undefined) throw new SyncpodError(`${where}: image volume ${vol.name} has not been pulled`);
  const reference = (vol as { image?: { reference?: string } }).image?.reference ?? '';
  const cm = mount('', m.mountPath.startsWith('/') ? m.mountPath : `/${m.mountPath}`, true, false);
  cm.image = { image: imageRef, annotations: {}, userSpecifiedImage: reference, runtimeHandler: '', imageRef: '' };
  cm.imageSubPath = subPath;
  cm.propagation = propagationOf(m, where);
  cm.recursiveReadOnly = recursiveReadOnly(m, o.supportsRecursiveReadOnly, where);
  return cm;
}

/** Image volumes of the pod that a container mounts (ImageVolume gate on): what SyncPod pulls first. */
export function imageVolumesOf(pod: Pod): Array<{ name: string; reference: string; pullPolicy: string }> {
  const out: Array<{ name: string; reference: string; pullPolicy: string }> = [];
  for (const v of pod.spec?.volumes ?? []) {
    const img = (v as { image?: { reference?: string; pullPolicy?: string } }).image;
    if (img) out.push({ name: v.name, reference: img.reference ?? '', pullPolicy: img.pullPolicy ?? '' });
  }
  return out;
}

/** All mounts of one container, in kubelet's order, and the filesystem work they need. */
export function makeMounts(pod: Pod, container: Container, o: MountInputs): { mounts: Mount[]; effects: FsEffect[] } {
  const where = `container ${container.name}`;
  const volumes = new Map((pod.spec?.volumes ?? []).map((v) => [v.name, v]));
  const mounts: Mount[] = [];
  const effects: FsEffect[] = [];
  const seenVolumes = new Set<string>();
  let manageEtcHosts = shouldMountHostsFile(pod, o.podIPs);

  for (const [index, m] of (container.volumeMounts ?? []).entries()) {
    const mw = `${where}: volumeMount ${m.name}`;
    const vol = volumes.get(m.name);
    if (!vol) throw new SyncpodError(`cannot find volume "${m.name}" to mount into container "${container.name}"`);
    manageEtcHosts = manageEtcHosts && m.mountPath !== ETC_HOSTS_PATH;
    if (o.gates.ImageVolume && (vol as { image?: unknown }).image !== undefined) {
      mounts.push(imageVolumeMount(vol, m, o, mw));
      continue;
    }
    const resolved = resolveVolume(pod, vol, o.kubeletRoot, o.volumeSetup);
    if (resolved === null) continue; // --skip-volume: not mounted
    if (!seenVolumes.has(vol.name)) {
      seenVolumes.add(vol.name);
      effects.push(...resolved.effects);
    }
    let hostPath = resolved.hostPath;
    const subPath = mountSubPath(m, o.envs, mw);
    if (subPath !== '') {
      const target = subPathBindTarget(podDir(o.kubeletRoot, pod), vol.name, container.name, index);
      effects.push({
        kind: 'bindSubPath',
        volumePath: hostPath,
        subPath,
        target,
        volumeName: vol.name,
        containerName: container.name,
        mountName: m.name,
        why: `subPath of volume ${vol.name}`,
      });
      hostPath = target;
    }
    const containerPath = m.mountPath.startsWith('/') ? m.mountPath : `/${m.mountPath}`;
    const cm = mount(
      hostPath,
      containerPath,
      m.readOnly === true || resolved.readOnly,
      resolved.relabel && o.selinuxEnabled,
    );
    cm.propagation = propagationOf(m, mw);
    cm.recursiveReadOnly = recursiveReadOnly(m, o.supportsRecursiveReadOnly, mw);
    if (cm.recursiveReadOnly && !o.gates.RecursiveReadOnlyMounts) {
      throw new SyncpodError(
        `${mw}: recursive read-only mount needs feature gate "RecursiveReadOnlyMounts" to be enabled`,
      );
    }
    mounts.push(cm);
  }

  if (manageEtcHosts) {
    const path = podEtcHostsPath(o.kubeletRoot, pod);
    const content = etcHostsContent(pod, o);
    effects.push({ kind: 'writeFile', path, mode: 0o644, content, why: 'managed /etc/hosts' });
    mounts.push(mount(path, ETC_HOSTS_PATH, false, o.selinuxEnabled));
  }

  const tmp = container.terminationMessagePath ?? '';
  if (tmp !== '') {
    if (!/^[0-9a-f]{8}$/.test(o.terminationLogName)) {
      throw new SyncpodError(`termination-log file name "${o.terminationLogName}" is not 8 lowercase hex digits`);
    }
    const dir = podContainerDir(o.kubeletRoot, pod, container.name);
    const file = `${dir}/${o.terminationLogName}`;
    effects.push({ kind: 'mkdir', path: dir, mode: 0o750, why: 'per-container directory' });
    effects.push({ kind: 'touch', path: file, mode: 0o666, why: 'termination-message file' });
    mounts.push(mount(file, tmp.startsWith('/') ? tmp : `/${tmp}`, false, o.selinuxEnabled));
  }
  return { mounts, effects };
}
