// `logs --previous` when the earlier container is gone: crictl (and kubelet's log layout,
// <pod log dir>/<container>/<restartCount>.log) name its file by swapping the attempt in the current
// container's log path: the directory part, the earlier attempt, the extension from the last dot.
// Which instance is the previous one: the newest of the same pod and name created before the current.
import { compareInt64Strings } from '../cri/int64';
import type { Container } from '../cri/types';
import { SyncpodError } from '../errors';

export function previousLogPath(logPath: string, attempt: number): string {
  const dir = logPath.slice(0, logPath.lastIndexOf('/') + 1);
  const base = logPath.slice(dir.length);
  const dot = base.lastIndexOf('.');
  return `${dir}${attempt}${dot < 0 ? '' : base.slice(dot)}`;
}

/**
 * The instance `logs --previous` reads: an earlier container of the same pod and name still listed
 * (`containerId`), else the removed one's attempt (current attempt - 1), else an error.
 */
export function previousInstance(
  containers: readonly Container[],
  currentId: string,
): { containerId: string } | { attempt: number; containerId: string } {
  const current = containers.find((c) => c.id === currentId)!;
  const previous = containers
    .filter(
      (c) =>
        c.podSandboxId === current.podSandboxId &&
        c.metadata?.name === current.metadata?.name &&
        compareInt64Strings(c.createdAt, current.createdAt) < 0,
    )
    .sort((a, b) => compareInt64Strings(b.createdAt, a.createdAt))[0];
  if (previous) return { containerId: previous.id };
  if ((current.metadata?.attempt ?? 0) > 0) return { containerId: currentId, attempt: current.metadata!.attempt - 1 };
  throw new SyncpodError(
    `container ${currentId.slice(0, 13)} has no previous instance in its pod (previous terminated container ${current.metadata?.name ?? ''} not found)`,
  );
}
