// The node facts kubelet.syncPod's preflight reads, observed: the runtime's NetworkReady condition
// (from one Status call), the pod cgroup and pod data directories on the filesystem, what is at each
// hostPath, and whether the runtime holds each image a start needs (from one ListImages).
import type { Pod } from 'kubernetes-types/core/v1';
import type * as T from '../cri/types';
import { matchImage } from '../kubelet/image-gc';
import { podDir } from '../kubelet/labels';
import { withPodCgroup, type Orphan } from '../kubelet/orphans';
import { CGROUP_V1_SUBSYSTEMS, cgroupDirs, podCgroup, podCgroupCandidates } from '../kubelet/pod-cgroup';
import type { Plan } from '../plan/plan';
import type { PathKind, PreflightFacts } from '../plan/preflight';
import type { SyncFs } from '../sync/types';

export interface NodeCgroupSettings {
  /** kubelet's cgroupsPerQOS (default true): pods get a cgroup under kubepods. */
  cgroupsPerQOS: boolean;
  cgroupDriver: 'cgroupfs' | 'systemd';
  /** kubelet's cgroupRoot (cgroupfs form; "" = "/"). */
  cgroupRoot?: string;
  cgroupVersion: 1 | 2;
  /** The cgroup filesystem mount (default /sys/fs/cgroup). */
  cgroupMount?: string;
}

/** The NetworkReady condition of a Status response (null when the runtime reports none). */
export function runtimeNetwork(status: T.StatusResponse | undefined): PreflightFacts['network'] {
  const c = status?.status?.conditions.find((x) => x.type === 'NetworkReady');
  return c ? { ready: c.status, reason: c.reason, message: c.message } : null;
}

/** v1 subsystems mounted on this node (kubelet only requires those it finds). */
export function mountedV1Subsystems(fs: SyncFs, mount = '/sys/fs/cgroup'): string[] {
  return CGROUP_V1_SUBSYSTEMS.filter((s) => fs.kind(`${mount}/${s}`) === 'dir');
}

/**
 * The cgroup hierarchies of the node: on v2 the mount itself; on v1 every directory below the mount
 * (each controller's hierarchy, the named systemd one and, on a hybrid host, the unified one).
 */
export function cgroupHierarchies(fs: SyncFs, version: 1 | 2, mount = '/sys/fs/cgroup'): string[] {
  const root = mount.replace(/\/+$/, '');
  if (version === 2) return [root];
  return (fs.readdir(root) ?? [])
    .map((e) => `${root}/${e}`)
    .filter((p) => fs.kind(p) === 'dir')
    .sort();
}

/** Each orphan with the pod cgroup of its uid that exists on the node (kubelet looks under the three QoS cgroups). */
export function orphansWithCgroups(fs: SyncFs, orphans: Orphan[], c: NodeCgroupSettings): Orphan[] {
  if (!c.cgroupsPerQOS || orphans.length === 0) return orphans;
  const hierarchies = cgroupHierarchies(fs, c.cgroupVersion, c.cgroupMount);
  const layout = { cgroupDriver: c.cgroupDriver, cgroupRoot: c.cgroupRoot ?? '', cgroupsPerQOS: true };
  return orphans.map((o) => {
    for (const cand of podCgroupCandidates(o.uid, layout)) {
      const paths = cgroupDirs(cand.name, hierarchies).filter((p) => fs.kind(p) === 'dir');
      if (paths.length) return withPodCgroup(o, { qosClass: cand.qosClass, name: cand.name, paths });
    }
    return o;
  });
}

/** Cgroup, pod directories and hostPaths of one pod (which has a uid). */
export function podFsFacts(
  fs: SyncFs,
  pod: Pod,
  o: NodeCgroupSettings & { kubeletRoot: string; v1Subsystems?: string[]; podLevelResources?: boolean },
): Pick<PreflightFacts, 'podCgroup' | 'podDirs' | 'hostPaths'> {
  let cg: PreflightFacts['podCgroup'];
  if (o.cgroupsPerQOS) {
    const c = podCgroup(pod, {
      driver: o.cgroupDriver,
      cgroupRoot: o.cgroupRoot,
      version: o.cgroupVersion,
      mountPoint: o.cgroupMount,
      v1Subsystems: o.v1Subsystems,
      podLevelResources: o.podLevelResources,
    });
    cg = { name: c.name, missing: c.paths.filter((p) => fs.kind(p) !== 'dir') };
  }
  const dir = podDir(o.kubeletRoot, pod);
  const podDirs = [dir, `${dir}/volumes`, `${dir}/plugins`].map((path) => ({ path, exists: fs.kind(path) === 'dir' }));
  const hostPaths = (pod.spec?.volumes ?? [])
    .filter((v) => v.hostPath)
    .map((v) => ({ volume: v.name, path: v.hostPath!.path, kind: fs.kind(v.hostPath!.path) as PathKind | undefined }));
  return { podCgroup: cg, podDirs, hostPaths };
}

/** The containers a plan starts, with their images and whether the runtime has them. */
export function imageFacts(images: T.Image[], pod: Pod, plan: Plan): PreflightFacts['images'] {
  const a = plan.actions;
  const names = [
    ...a.ephemeralContainersToStart,
    ...(a.nextInitContainerToStart !== null ? [a.nextInitContainerToStart] : []),
    ...a.initContainersToStart,
    ...a.containersToStart.map((c) => c.name),
  ];
  const all = [
    ...(pod.spec?.initContainers ?? []),
    ...(pod.spec?.containers ?? []),
    ...((pod.spec?.ephemeralContainers ?? []) as Array<{ name: string; image?: string }>),
  ];
  const seen = new Set<string>();
  const out: PreflightFacts['images'] = [];
  for (const n of names) {
    if (seen.has(n)) continue;
    seen.add(n);
    const image = all.find((c) => c.name === n)?.image ?? '';
    out.push({ container: n, image, present: !!matchImage(images, image) });
  }
  return out;
}
