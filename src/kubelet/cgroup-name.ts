// kubelet's cgroup names and where a pod's cgroup sits, mirroring kubelet 1.29–1.37 (unchanged in
// that range): cm/cgroup_manager_linux.go (CgroupName, NewCgroupName, ToCgroupfs, ToSystemd with
// runc's systemd ExpandSlice, ParseCgroupfsToCgroupName, ParseSystemdToCgroupName), cm/
// container_manager_linux.go NewContainerManager (cgroupRoot parsed in cgroupfs form, "kubepods"
// appended when cgroupsPerQOS; kubelet's server defaults an empty cgroupRoot to "/" then),
// cm/qos_container_manager_linux.go (Guaranteed = the root, "burstable", "besteffort" beneath it)
// and cm/pod_container_manager_linux.go GetPodContainerName ("pod<uid>" under the QoS cgroup; the
// no-op manager of cgroupsPerQOS=false names no parent, so the runtime places the pod). Pure.

import { SyncpodError } from '../errors';
import type { QOSClass } from './resources';

/** A cgroup as kubelet holds it internally: its components from the root, driver-neutral. */
export type CgroupName = readonly string[];

export const RootCgroupName: CgroupName = [];

/** The top cgroup kubelet puts every pod under when cgroupsPerQOS is on (defaultNodeAllocatableCgroupName). */
export const KUBEPODS = 'kubepods';

const SYSTEMD_SUFFIX = '.slice';

/** NewCgroupName: `base` plus components; a component may hold neither "/" nor "_" (the systemd mapping must stay reversible). */
export function newCgroupName(base: CgroupName, ...components: string[]): CgroupName {
  for (const c of components) {
    if (c.includes('/') || c.includes('_'))
      throw new SyncpodError(`invalid character in component "${c}" of a cgroup name`);
  }
  return [...base, ...components];
}

/** Go's path.Join of the components (empty ones dropped, "." and ".." resolved), under "/". */
export function toCgroupfs(name: CgroupName): string {
  const out: string[] = [];
  for (const part of name.join('/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return '/' + out.join('/');
}

/** runc's ExpandSlice: "a-b-c.slice" -> "/a.slice/a-b.slice/a-b-c.slice"; "-.slice" is the root. */
export function expandSlice(slice: string): string {
  if (slice.length < SYSTEMD_SUFFIX.length || !slice.endsWith(SYSTEMD_SUFFIX) || slice.includes('/')) {
    throw new SyncpodError(`invalid slice name: ${slice}`);
  }
  const sliceName = slice.slice(0, -SYSTEMD_SUFFIX.length);
  if (sliceName === '-') return '/';
  let path = '';
  let prefix = '';
  for (const component of sliceName.split('-')) {
    if (component === '') throw new SyncpodError(`invalid slice name: ${slice}`);
    path += `/${prefix}${component}${SYSTEMD_SUFFIX}`;
    prefix += `${component}-`;
  }
  return path;
}

/** ToSystemd: blank components skipped, "-" escaped as "_", joined by "-" and expanded as a slice. */
export function toSystemd(name: CgroupName): string {
  if (name.length === 0 || (name.length === 1 && name[0] === '')) return '/';
  const parts = name.filter((p) => p.trim() !== '').map((p) => p.replace(/-/g, '_'));
  return expandSlice(parts.join('-') + SYSTEMD_SUFFIX);
}

/** ParseCgroupfsToCgroupName: "/a/b" -> ["a", "b"]; "/" and "" -> the root. A trailing "/" leaves an empty component, as kubelet's. */
export function parseCgroupfsToCgroupName(name: string): CgroupName {
  const components = (name.startsWith('/') ? name.slice(1) : name).split('/');
  return components.length === 1 && components[0] === '' ? [] : components;
}

/** ParseSystemdToCgroupName: the last path element without ".slice", split at "-", "_" back to "-". */
export function parseSystemdToCgroupName(name: string): CgroupName {
  const trimmed = name.replace(/\/+$/, '');
  const base = trimmed === '' ? '/' : trimmed.slice(trimmed.lastIndexOf('/') + 1);
  const driverName = base.endsWith(SYSTEMD_SUFFIX) ? base.slice(0, -SYSTEMD_SUFFIX.length) : base;
  return driverName.split('-').map((p) => p.replace(/_/g, '-'));
}

/** The kubelet settings that decide where pod cgroups go. */
export interface CgroupLayout {
  cgroupDriver: 'cgroupfs' | 'systemd';
  /** kubelet's cgroupRoot in cgroupfs form ("" = not set: "/" when cgroupsPerQOS). */
  cgroupRoot: string;
  cgroupsPerQOS: boolean;
}

export const DEFAULT_CGROUP_LAYOUT: CgroupLayout = { cgroupDriver: 'cgroupfs', cgroupRoot: '', cgroupsPerQOS: true };

/** The container manager's cgroupRoot: the configured root, plus "kubepods" when cgroupsPerQOS. */
export function nodeAllocatableRoot(layout: Pick<CgroupLayout, 'cgroupRoot' | 'cgroupsPerQOS'>): CgroupName {
  if (!layout.cgroupsPerQOS) return parseCgroupfsToCgroupName(layout.cgroupRoot);
  const root = parseCgroupfsToCgroupName(layout.cgroupRoot === '' ? '/' : layout.cgroupRoot);
  return newCgroupName(root, KUBEPODS);
}

export interface QOSContainersInfo {
  Guaranteed: CgroupName;
  Burstable: CgroupName;
  BestEffort: CgroupName;
}

/** The QoS cgroups under the container manager's root (qosContainerManagerImpl.Start). */
export function qosContainersInfo(root: CgroupName): QOSContainersInfo {
  return {
    Guaranteed: root,
    Burstable: newCgroupName(root, 'burstable'),
    BestEffort: newCgroupName(root, 'besteffort'),
  };
}

/** The cgroup name of a driver, as kubelet's cgroup manager spells it (Name). */
export function cgroupManagerName(driver: CgroupLayout['cgroupDriver'], name: CgroupName): string {
  return driver === 'systemd' ? toSystemd(name) : toCgroupfs(name);
}

/**
 * GetPodContainerName of the pod container manager: "pod<uid>" under the cgroup of the pod's QoS
 * class, and that name as the driver spells it (the CRI's cgroup_parent).
 */
export function getPodContainerName(
  uid: string,
  qos: QOSClass,
  info: QOSContainersInfo,
  driver: CgroupLayout['cgroupDriver'],
): { name: CgroupName; literal: string } {
  const parent = qos === 'Guaranteed' ? info.Guaranteed : qos === 'Burstable' ? info.Burstable : info.BestEffort;
  const name = newCgroupName(parent, `pod${uid}`);
  return { name, literal: cgroupManagerName(driver, name) };
}

/**
 * The pod's cgroup on a node with `layout` (kubelet's GetPodCgroupParent): with cgroupsPerQOS off,
 * kubelet's no-op manager answers the node's root and an empty literal.
 */
export function podCgroupName(uid: string, qos: QOSClass, layout: CgroupLayout): { name: CgroupName; literal: string } {
  const root = nodeAllocatableRoot(layout);
  if (!layout.cgroupsPerQOS) return { name: root, literal: '' };
  return getPodContainerName(uid, qos, qosContainersInfo(root), layout.cgroupDriver);
}
