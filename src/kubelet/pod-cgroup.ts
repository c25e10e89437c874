// Where the pod cgroup kubelet creates in syncPod lives on the node's cgroup filesystem, mirroring
// kubelet 1.33 (cm/pod_container_manager_linux.go GetPodContainerName, cm/cgroup_manager_linux.go
// Exists/Create: on cgroup v1 the cgroup must exist in every required subsystem, on v2 once in the
// unified hierarchy; systemd spells it as nested .slice units). Pure: paths only.

import type { Pod } from './api-types';
import { getPodQOS, type QOSClass } from './resources';
import { podCgroupParent } from './sandbox-config';
import type { CgroupLayout } from './cgroup-name';

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
