// Runtime pods that no desired pod owns, and what kubelet does with them, mirroring kubelet 1.33
// (kubelet_pods.go HandlePodCleanups: a running pod whose uid the pod workers do not know is
// killed with a 1-second grace-period override; kuberuntime_gc.go: dead containers and not-ready
// sandboxes of pods that no longer exist are removed by the garbage collector).
//
// Kubelet groups every sandbox and container by pod uid. This view is narrower on purpose: only
// sandboxes and containers that carry kubelet's identity labels are considered, so anything made
// by hand or by another tool without them is never reported, let alone touched. Pure.

import type { QOSClass } from './resources';
import { LABEL_CONTAINER_NAME, LABEL_POD_NAME, LABEL_POD_NAMESPACE, LABEL_POD_UID } from './types';

/** The parts of a CRI PodSandbox (list item) this needs. */
export interface RuntimeSandbox {
  id: string;
  state: string;
  /** Nanoseconds since the epoch, as CRI sends it (decimal string). */
  createdAt: string;
  labels?: Record<string, string>;
  metadata?: { name?: string; namespace?: string; uid?: string; attempt?: number };
}

/** The parts of a CRI Container (list item) this needs. */
export interface RuntimeContainer {
  id: string;
  podSandboxId: string;
  state: string;
  createdAt: string;
  labels?: Record<string, string>;
}

/** The grace period kubelet's HandlePodCleanups gives an orphaned running pod. */
export const ORPHAN_GRACE_PERIOD_OVERRIDE_SECONDS = 1;

export type OrphanAction = 'kill' | 'remove';

export interface OrphanSandbox {
  id: string;
  attempt: number;
  state: 'ready' | 'notready';
  createdAt: number;
  ageSeconds: number;
}

export interface OrphanContainer {
  id: string;
  name: string;
  sandboxId: string;
  state: 'created' | 'running' | 'exited' | 'unknown';
  createdAt: number;
  ageSeconds: number;
}

export interface Orphan {
  namespace: string;
  name: string;
  uid: string;
  /** Newest first. */
  sandboxes: OrphanSandbox[];
  /** Newest first. */
  containers: OrphanContainer[];
  /** kill: something runs (HandlePodCleanups kills it, then GC removes it); remove: all dead (GC). */
  kubelet: OrphanAction;
  /** Grace period of the kill, seconds (kill only). */
  gracePeriodSeconds?: number;
  reason: string;
  /**
   * The pod cgroup found on the node for this uid (withPodCgroup), which kubelet's housekeeping
   * destroys once nothing of the pod runs: absent when none was found or none was looked for.
   */
  podCgroup?: OrphanPodCgroup;
}

/** An orphan's pod cgroup: its QoS parent, its name as the cgroup driver spells it, its directories. */
export interface OrphanPodCgroup {
  qosClass: QOSClass;
  /** e.g. /kubepods/besteffort/pod<uid> or /kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod<uid_>.slice */
  name: string;
  /** The directories that exist, one per hierarchy (all are removed, children first). */
  paths: string[];
}

const SANDBOX_STATE: Record<string, OrphanSandbox['state']> = { SANDBOX_READY: 'ready', SANDBOX_NOTREADY: 'notready' };
const CONTAINER_STATE: Record<string, OrphanContainer['state']> = {
  CONTAINER_CREATED: 'created',
  CONTAINER_RUNNING: 'running',
  CONTAINER_EXITED: 'exited',
};

const nsToMs = (ns: string): number => (ns && ns !== '0' ? Number(ns) / 1e6 : 0);
const age = (createdAt: number, now: number): number =>
  createdAt > 0 ? Math.max(0, Math.floor((now - createdAt) / 1000)) : 0;

/** A sandbox made by kubelet: the three pod identity labels. */
export function hasKubeletSandboxLabels(labels: Record<string, string> | undefined): boolean {
  return !!labels?.[LABEL_POD_UID] && !!labels[LABEL_POD_NAME] && !!labels[LABEL_POD_NAMESPACE];
}

/** A container made by kubelet: the pod uid and container name labels. */
export function hasKubeletContainerLabels(labels: Record<string, string> | undefined): boolean {
  return !!labels?.[LABEL_POD_UID] && !!labels[LABEL_CONTAINER_NAME];
}

/**
 * Sandboxes and containers with kubelet's labels whose pod uid is not in `desiredUids`, one entry
 * per pod uid, ordered by namespace, name, uid.
 */
export function findOrphans(
  desiredUids: ReadonlySet<string>,
  sandboxes: RuntimeSandbox[],
  containers: RuntimeContainer[],
  now: number,
): Orphan[] {
  const byUid = new Map<string, Orphan>();
  const entry = (uid: string, namespace: string, name: string): Orphan => {
    let o = byUid.get(uid);
    if (!o) {
      o = { namespace, name, uid, sandboxes: [], containers: [], kubelet: 'remove', reason: '' };
      byUid.set(uid, o);
    }
    if (!o.namespace && namespace) o.namespace = namespace;
    if (!o.name && name) o.name = name;
    return o;
  };
  for (const s of sandboxes) {
    if (!hasKubeletSandboxLabels(s.labels)) continue;
    const uid = s.labels![LABEL_POD_UID];
    if (desiredUids.has(uid)) continue;
    const createdAt = nsToMs(s.createdAt);
    entry(uid, s.labels![LABEL_POD_NAMESPACE], s.labels![LABEL_POD_NAME]).sandboxes.push({
      id: s.id,
      attempt: s.metadata?.attempt ?? 0,
      state: SANDBOX_STATE[s.state] ?? 'notready',
      createdAt,
      ageSeconds: age(createdAt, now),
    });
  }
  for (const c of containers) {
    if (!hasKubeletContainerLabels(c.labels)) continue;
    const uid = c.labels![LABEL_POD_UID];
    if (desiredUids.has(uid)) continue;
    const createdAt = nsToMs(c.createdAt);
    entry(uid, c.labels![LABEL_POD_NAMESPACE] ?? '', c.labels![LABEL_POD_NAME] ?? '').containers.push({
      id: c.id,
      name: c.labels![LABEL_CONTAINER_NAME],
      sandboxId: c.podSandboxId,
      state: CONTAINER_STATE[c.state] ?? 'unknown',
      createdAt,
      ageSeconds: age(createdAt, now),
    });
  }
  const newestFirst = <X extends { createdAt: number; id: string }>(a: X, b: X): number =>
    b.createdAt - a.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const out = [...byUid.values()];
  for (const o of out) {
    o.sandboxes.sort(newestFirst);
    o.containers.sort(newestFirst);
    const running = o.sandboxes.some((s) => s.state === 'ready') || o.containers.some((c) => c.state === 'running');
    if (running) {
      o.kubelet = 'kill';
      o.gracePeriodSeconds = ORPHAN_GRACE_PERIOD_OVERRIDE_SECONDS;
      o.reason =
        'no desired pod has this uid: kubelet kills the running pod (grace period 1s), then its garbage collector removes it';
    } else {
      o.kubelet = 'remove';
      o.reason =
        "no desired pod has this uid and nothing of it runs: kubelet's garbage collector removes its containers and sandboxes";
    }
  }
  return out.sort((a, b) => cmp(a.namespace, b.namespace) || cmp(a.name, b.name) || cmp(a.uid, b.uid));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The orphan with the pod cgroup found for its uid, mirroring kubelet 1.29–1.37's housekeeping
 * (kubelet_pods.go HandlePodCleanups → cleanupOrphanedPodCgroups): a pod cgroup whose uid no pod
 * worker syncs or terminates is destroyed — its processes killed, then the cgroup removed in every
 * hierarchy — once the pod's volumes are unmounted (until then kubelet only lowers its CPU shares).
 * An orphan being killed is terminating, so its cgroup goes at the housekeeping after the kill.
 */
export function withPodCgroup(o: Orphan, cgroup: OrphanPodCgroup | undefined): Orphan {
  if (!cgroup || cgroup.paths.length === 0) return o;
  // The systemd driver: kubelet stops the slice unit over D-Bus before the directories go.
  const unit = cgroup.name.endsWith('.slice')
    ? `; kubelet stops its unit ${cgroup.name.slice(cgroup.name.lastIndexOf('/') + 1)} first, syncpod removes the directories only`
    : '';
  const when =
    o.kubelet === 'kill' ? 'once it is terminated and its volumes are unmounted' : 'once its volumes are unmounted';
  return {
    ...o,
    podCgroup: cgroup,
    reason: `${o.reason}; ${when}, its pod cgroup ${cgroup.name} is destroyed (any process left in it is killed${unit})`,
  };
}

/**
 * The other pods of one namespace/name: sandboxes and containers with kubelet's labels, that
 * namespace and name, and a uid other than `uid` (an earlier pod object of that name, or an earlier
 * sync of a manifest without a uid). The API server holds one pod per namespace/name, so kubelet's
 * pod workers know only one of these uids and HandlePodCleanups kills the others. Same entries,
 * order and kubelet verdicts as findOrphans.
 */
export function findDuplicates(
  pod: { namespace: string; name: string; uid: string },
  sandboxes: RuntimeSandbox[],
  containers: RuntimeContainer[],
  now: number,
): Orphan[] {
  if (!pod.uid) return [];
  const same = (l: Record<string, string> | undefined): boolean =>
    l?.[LABEL_POD_NAMESPACE] === pod.namespace && l?.[LABEL_POD_NAME] === pod.name;
  return findOrphans(
    new Set([pod.uid]),
    sandboxes.filter((s) => same(s.labels)),
    containers.filter((c) => same(c.labels)),
    now,
  );
}
