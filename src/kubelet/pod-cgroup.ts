// Where the pod cgroup kubelet creates in syncPod lives on the node's cgroup filesystem, mirroring
// kubelet 1.33 (cm/pod_container_manager_linux.go GetPodContainerName, cm/cgroup_manager_linux.go
// Exists/Create: on cgroup v1 the cgroup must exist in every required subsystem, on v2 once in the
// unified hierarchy; systemd spells it as nested .slice units), and where kubelet 1.29–1.37's
// housekeeping finds and removes it (pod_container_manager_linux.go GetAllPodsFromCgroups, Destroy;
// libcontainer's Destroy removes it in every hierarchy). Pure: paths only.

import type { Pod } from './api-types';
import { getPodQOS, type QOSClass } from './resources';
import { podCgroupParent } from './sandbox-config';
import { podCgroupName, type CgroupLayout } from './cgroup-name';

/** Subsystems kubelet's cgroup manager requires on cgroup v1 (those mounted on the node are checked). */
export const CGROUP_V1_SUBSYSTEMS = ['cpu', 'cpuacct', 'cpuset', 'memory', 'pids', 'hugetlb'] as const;

export interface PodCgroupOptions {
  driver: 'cgroupfs' | 'systemd';
  /** kubelet's cgroupRoot (cgroupfs form; "" = "/"). */
  cgroupRoot?: CgroupLayout['cgroupRoot'];
  version: 1 | 2;
  /** The cgroup filesystem mount point (default /sys/fs/cgroup). */
  mountPoint?: string;
  /** v1 subsystems mounted on the node (default: all of CGROUP_V1_SUBSYSTEMS). */
  v1Subsystems?: readonly string[];
  /** PodLevelResources gate: the QoS class (and so the parent) follows pod-level cpu/memory. */
  podLevelResources?: boolean;
}

export interface PodCgroup {
  qosClass: QOSClass;
  /** The cgroup name as the CRI cgroup_parent spells it (e.g. /kubepods/burstable/pod<uid>). */
  name: string;
  /** Directories that must all exist for kubelet to consider the pod cgroup present. */
  paths: string[];
}

/** The pod cgroup of `pod` (which must have a uid) and the directories that make it exist (cgroupsPerQOS on). */
export function podCgroup(pod: Pod, o: PodCgroupOptions): PodCgroup {
  const qosClass = getPodQOS(pod, o.podLevelResources ?? false);
  const name = podCgroupParent(
    pod,
    { cgroupDriver: o.driver, cgroupRoot: o.cgroupRoot, cgroupsPerQOS: true },
    qosClass,
  );
  const mount = (o.mountPoint ?? '/sys/fs/cgroup').replace(/\/+$/, '');
  const paths =
    o.version === 2 ? [`${mount}${name}`] : (o.v1Subsystems ?? CGROUP_V1_SUBSYSTEMS).map((s) => `${mount}/${s}${name}`);
  return { qosClass, name, paths };
}

/**
 * Where kubelet's housekeeping finds the cgroup of pod `uid` (GetAllPodsFromCgroups: a directory
 * "pod<uid>" under each of the three QoS cgroups, the driver's spelling), one name per QoS class;
 * none when cgroupsPerQOS is off (the no-op manager finds no pod cgroups) or when the uid could not
 * be a cgroup component (a "/" or "_" in it, or a name that is not kubelet's form).
 */
export function podCgroupCandidates(uid: string, layout: CgroupLayout): Array<{ qosClass: QOSClass; name: string }> {
  if (!layout.cgroupsPerQOS || !/^[0-9A-Za-z][0-9A-Za-z.-]*$/.test(uid)) return [];
  return (['Guaranteed', 'Burstable', 'BestEffort'] as const).map((qosClass) => ({
    qosClass,
    name: podCgroupName(uid, qosClass, layout).literal,
  }));
}

/**
 * The directories of cgroup `name` in each hierarchy: what libcontainer's Destroy removes (on v1
 * every mounted controller's, the named systemd one and, on a hybrid host, the unified one; on v2
 * the one directory). `hierarchies` are mount points, `name` a driver literal ("/kubepods/...").
 */
export function cgroupDirs(name: string, hierarchies: readonly string[]): string[] {
  return hierarchies.map((h) => `${h.replace(/\/+$/, '')}${name}`);
}
