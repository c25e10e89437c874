// What a sync killed between its first directory and RunPodSandbox leaves behind: kubelet's
// makePodDataDirs (pods/<uid>/{volumes,plugins}) and the pod log directory (<ns>_<name>_<uid>),
// for a uid no sandbox or container carries. Kubelet never meets this (the API server's uid stays
// the pod's, and its housekeeping removes pod directories of pods it does not know); syncpod picks
// a fresh uid for a manifest without one, so it clears them on the next sync of the same pod.
// Only empty skeletons are removed: a directory holding a file, a link or anything mounted stays.
import { isPodUid } from '../kubelet/path-names';
import type { SyncFs } from './types';

export interface ResidueScope {
  namespace: string;
  name: string;
  kubeletRoot: string;
  podLogsRoot: string;
  /** Uids the runtime holds any sandbox or container of (never residue). */
  liveUids: ReadonlySet<string>;
  /** The uid this sync uses. */
  uid: string;
}

const trim = (p: string): string => (p.length > 1 ? p.replace(/\/+$/, '') : p);

/** Whether `dir` is a directory whose entries are only empty directories named in `allowed`. */
function emptySkeleton(fs: SyncFs, dir: string, allowed: readonly string[]): boolean {
  if (fs.kind(dir) !== 'dir') return false;
  const names = fs.readdir(dir);
  if (names === undefined) return false;
  return names.every(
    (n) => allowed.includes(n) && fs.kind(`${dir}/${n}`) === 'dir' && (fs.readdir(`${dir}/${n}`) ?? ['?']).length === 0,
  );
}

/**
 * The residue of earlier killed syncs of this namespace/name, removed; returns what went. A pod
 * log directory of another uid that is empty, with a pod directory that is missing or only the
 * empty skeleton, is residue.
 */
export function clearKilledSyncResidue(fs: SyncFs, s: ResidueScope): string[] {
  const logsRoot = trim(s.podLogsRoot);
  const prefix = `${s.namespace}_${s.name}_`;
  const gone: string[] = [];
  for (const entry of (fs.readdir(logsRoot) ?? []).sort()) {
    if (!entry.startsWith(prefix)) continue;
    const uid = entry.slice(prefix.length);
    if (!isPodUid(uid) || uid === s.uid || s.liveUids.has(uid)) continue;
    const logDir = `${logsRoot}/${entry}`;
    const podDir = `${trim(s.kubeletRoot)}/pods/${uid}`;
    if (!emptySkeleton(fs, logDir, [])) continue;
    const podDirThere = fs.kind(podDir) !== undefined;
    if (podDirThere && !emptySkeleton(fs, podDir, ['volumes', 'plugins'])) continue;
    if (podDirThere) {
      for (const sub of fs.readdir(podDir) ?? []) fs.removeDir(`${podDir}/${sub}`);
      fs.removeDir(podDir);
      gone.push(podDir);
    }
    fs.removeDir(logDir);
    gone.push(logDir);
  }
  return gone;
}
