// Killing and removing a pod no desired pod owns, as kubelet's HandlePodCleanups and garbage
// collector would: running containers stopped (grace 1s raised to the runtime's 2s minimum),
// sandboxes stopped, then containers and sandboxes removed, its volumes unmounted and then its pod
// cgroup destroyed (kubelet's housekeeping: cleanupOrphanedPodCgroups once nothing runs and no
// volume is mounted). Something already gone is fine.
// One path for `sync --node --remove-orphans` and a single-pod `sync` clearing duplicates.
import { errorLine } from '../errors';
import { CriCallError } from '../cri/grpc-runtime-service';
import type { Orphan } from '../kubelet/orphans';
import type { RuntimeCaller, SyncFs } from './types';

/** The grace period of an orphan kill: kubelet's override of 1s raised to its 2s minimum. */
export const ORPHAN_STOP_TIMEOUT_SECONDS = 2;

export interface OrphanRemoval {
  namespace: string;
  name: string;
  uid: string;
  ok: boolean;
  /** What was done, in order. */
  done: string[];
  error?: string;
}

function isNotFound(err: unknown): boolean {
  return err instanceof CriCallError && err.notFound;
}

/**
 * Kills and removes one orphan: containers stopped, sandboxes stopped, then all removed, then its
 * subPath bind mounts unmounted (kubelet's CleanSubPaths at pod cleanup) when `fs` is given.
 */
export async function removeOrphan(
  o: Orphan,
  rt: RuntimeCaller,
  timeoutMs: number,
  fs?: Pick<SyncFs, 'cleanSubPaths' | 'unmountPodVolumes' | 'destroyCgroup'>,
): Promise<OrphanRemoval> {
  const done: string[] = [];
  const tolerate = async (what: string, f: () => Promise<unknown>): Promise<void> => {
    try {
      await f();
      done.push(what);
    } catch (err) {
      if (!isNotFound(err)) throw new Error(`${what}: ${errorLine(err)}`);
      done.push(`${what} (already gone)`);
    }
  };
  try {
    for (const c of o.containers.filter((x) => x.state === 'running')) {
      await tolerate(`stopped container ${c.id.slice(0, 13)}`, () =>
        rt.call(
          'StopContainer',
          { containerId: c.id, timeout: String(ORPHAN_STOP_TIMEOUT_SECONDS) },
          { timeoutMs: timeoutMs + ORPHAN_STOP_TIMEOUT_SECONDS * 1000 },
        ),
      );
    }
    for (const s of o.sandboxes)
      await tolerate(`stopped sandbox ${s.id.slice(0, 13)}`, () =>
        rt.call('StopPodSandbox', { podSandboxId: s.id }, { timeoutMs }),
      );
    for (const c of o.containers)
      await tolerate(`removed container ${c.id.slice(0, 13)}`, () =>
        rt.call('RemoveContainer', { containerId: c.id }, { timeoutMs }),
      );
    for (const s of o.sandboxes)
      await tolerate(`removed sandbox ${s.id.slice(0, 13)}`, () =>
        rt.call('RemovePodSandbox', { podSandboxId: s.id }, { timeoutMs }),
      );
    // The pod is gone: its subPath bind mounts first (kubelet's CleanSubPaths), then its tmpfs volumes,
    // as kubelet's volume manager tears them down.
    for (const target of fs?.cleanSubPaths(o.uid) ?? []) done.push(`unmounted ${target}`);
    for (const m of fs?.unmountPodVolumes?.(o.uid) ?? []) done.push(`unmounted ${m}`);
    // Nothing of the pod runs and its volumes are unmounted: kubelet's housekeeping destroys the cgroup.
    if (o.podCgroup && fs?.destroyCgroup) {
      const cg = o.podCgroup;
      const killed = await fs.destroyCgroup(cg.paths).catch((err) => {
        throw new Error(`destroying pod cgroup ${cg.name}: ${errorLine(err)}`);
      });
      done.push(
        `removed pod cgroup ${cg.name}${killed.length ? ` (killed ${killed.length} process${killed.length === 1 ? '' : 'es'} left in it)` : ''}`,
      );
    }
    return { namespace: o.namespace, name: o.name, uid: o.uid, ok: true, done };
  } catch (err) {
    return { namespace: o.namespace, name: o.name, uid: o.uid, ok: false, done, error: errorLine(err) };
  }
}
