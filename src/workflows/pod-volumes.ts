// A removed pod's volume mounts: once no sandbox of the pod's uid is left, its tmpfs volumes are
// unmounted (kubelet's volume manager tears a pod's volumes down when the pod is gone). For removals
// that name a sandbox (rmp); sync's duplicate and orphan removals do it in removeOrphan.
import type { RuntimeCaller, SyncFs } from '../sync/types';

/** Unmounts the pod's volume mounts when `uid` has no sandbox left; returns what was unmounted. */
export async function releasePodVolumes(
  runtime: Pick<RuntimeCaller, 'call'>,
  uid: string | undefined,
  fs: Pick<SyncFs, 'unmountPodVolumes'>,
): Promise<string[]> {
  if (!uid || !fs.unmountPodVolumes) return [];
  const left = await runtime.call('ListPodSandbox', { filter: { labelSelector: { 'io.kubernetes.pod.uid': uid } } });
  if ((left.items ?? []).length > 0) return [];
  return fs.unmountPodVolumes(uid);
}
