// The per-pod lock that `sync` and `sync --node` hold while they change a pod: a lock file per
// namespace/name in /run/syncpod/locks on the node (under --host-root).
import { onHost } from '../config/host-root';
import { acquirePodLock, DEFAULT_LOCK_DIR, type Lock } from '../sync/lock';

export interface PodLockWait {
  /** Longest wait for a live owner. */
  timeoutMs: number;
  /** Told once, when another live process holds the lock. */
  onWait?: (pid: number) => void;
}

export function lockPodOnNode(hostRoot: string, namespace: string, name: string, wait: PodLockWait): Promise<Lock> {
  return acquirePodLock(namespace, name, { dir: onHost(hostRoot, DEFAULT_LOCK_DIR), ...wait });
}
