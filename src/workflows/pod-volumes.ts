// A removed pod's volume mounts: once no sandbox of the pod's uid is left, its tmpfs volumes are
// unmounted (kubelet's volume manager tears a pod's volumes down when the pod is gone). For removals
// that name a sandbox (rmp); sync's duplicate and orphan removals do it in removeOrphan.
import { LABEL_POD_UID } from '../kubelet/types';
import { nodeFs } from '../sync/node-fs';
import type { RuntimeCaller, SyncFs } from '../sync/types';

/** Unmounts the pod's volume mounts when `uid` has no sandbox left; returns what was unmounted. */
export async function releasePodVolumes(
  runtime: Pick<RuntimeCaller, 'call'>,
  uid: string | undefined,
  fs: Pick<SyncFs, 'cleanSubPaths' | 'unmountPodVolumes'>,
): Promise<string[]> {
  if (!uid) return [];
  const left = await runtime.call('ListPodSandbox', { filter: { labelSelector: { 'io.kubernetes.pod.uid': uid } } });
  if ((left.items ?? []).length > 0) return [];
  // Its subPath bind mounts (and their directories) first, as kubelet's CleanSubPaths, then its volumes.
  return [...fs.cleanSubPaths(uid), ...(fs.unmountPodVolumes?.(uid) ?? [])];
}

/** rmp: after RemovePodSandbox, the volume mounts of the sandbox's pod (by its uid label) on this node. */
export function releaseRemovedSandboxVolumes(
  runtime: Pick<RuntimeCaller, 'call'>,
  sandboxLabels: Record<string, string> | undefined,
): Promise<string[]> {
  return releasePodVolumes(runtime, sandboxLabels?.[LABEL_POD_UID], nodeFs);
}
