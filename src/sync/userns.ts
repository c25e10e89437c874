// The user-namespace range of a hostUsers: false pod, as kubelet's user-namespace manager keeps it:
// <kubelet root>/pods/<uid>/userns holds {"uidMappings":[{"hostId","containerId","length"}],
// "gidMappings":[...]}; a pod without one gets a free block of 65536 ids. kubelet's range starts
// at 65536 when its user has no subordinate ids (the usual case) and it picks a free block at
// random; syncpod takes the lowest free one, so reruns are stable. The file itself is written by
// the sandbox step (an FsEffect of generatePodSandboxConfig).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SyncpodError } from '../errors';
import type { UserNamespaceRange } from '../kubelet/security-context';

export const USERNS_BLOCK = 65536;
/** Blocks kubelet can hand out without subordinate ids: [65536, 2^32). */
const FIRST_BLOCK = 1;
const LAST_BLOCK = 65535;

function readRange(file: string): UserNamespaceRange | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SyncpodError(`${file}: ${(err as Error).message}`);
  }
  try {
    const doc = JSON.parse(text) as { uidMappings?: Array<{ hostId?: number; containerId?: number; length?: number }> };
    const m = doc.uidMappings?.[0];
    if (!m || typeof m.hostId !== 'number' || typeof m.length !== 'number') throw new Error('no uidMappings');
    return { hostId: m.hostId, length: m.length };
  } catch (err) {
    throw new SyncpodError(`${file}: not a user-namespace mapping file (${(err as Error).message})`);
  }
}

/** The pod's recorded range, else the lowest block no other pod under <root>/pods uses. */
export function userNamespaceRange(kubeletRoot: string, uid: string): UserNamespaceRange {
  const podsDir = path.join(kubeletRoot, 'pods');
  const own = readRange(path.join(podsDir, uid, 'userns'));
  if (own) return own;
  const used = new Set<number>();
  let entries: string[] = [];
  try {
    entries = fs.readdirSync(podsDir);
  } catch {
    /* no pods yet */
  }
  for (const e of entries) {
    const r = readRange(path.join(podsDir, e, 'userns'));
    if (r) used.add(Math.floor(r.hostId / USERNS_BLOCK));
  }
  for (let b = FIRST_BLOCK; b <= LAST_BLOCK; b++)
    if (!used.has(b)) return { hostId: b * USERNS_BLOCK, length: USERNS_BLOCK };
  throw new SyncpodError('no free user-namespace range left for hostUsers: false');
}
