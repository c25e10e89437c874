// A per-pod lock, so two syncs of one pod never run their steps at once (two sandboxes):
// an exclusive file <dir>/<namespace>_<name>.lock created with O_EXCL holding the owner's pid.
// A lock whose pid is gone (a killed syncpod) is taken over.
import * as fs from 'node:fs';
import { SyncpodError } from '../errors';

export const DEFAULT_LOCK_DIR = '/run/syncpod/locks';

export interface PodLock {
  path: string;
  release(): void;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock, waiting (polling) while a live process holds it; `onWait` is told once. */
export async function acquirePodLock(
  namespace: string,
  name: string,
  opts: { dir?: string; timeoutMs: number; onWait?: (pid: number) => void; sleep?: (ms: number) => Promise<void> },
): Promise<PodLock> {
  const dir = opts.dir ?? DEFAULT_LOCK_DIR;
  const path = `${dir}/${namespace}_${name}.lock`;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  } catch (err) {
    throw new SyncpodError(`cannot create the lock directory ${dir}: ${(err as Error).message}`);
  }
  const started = Date.now();
  let told = false;
  for (;;) {
    try {
      const fd = fs.openSync(path, 'wx', 0o644);
      fs.writeSync(fd, `${process.pid}\n`);
      fs.closeSync(fd);
      let released = false;
      return {
        path,
        release() {
          if (released) return;
          released = true;
          try {
            if (fs.readFileSync(path, 'utf8').trim() === String(process.pid)) fs.unlinkSync(path);
          } catch {
            /* already gone */
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new SyncpodError(`cannot create the lock ${path}: ${(err as Error).message}`);
    }
    let text = '';
    try {
      text = fs.readFileSync(path, 'utf8');
    } catch {
      continue; // released between open and read
    }
    const pid = Number.parseInt(text.trim(), 10);
    if (!Number.isInteger(pid) || pid <= 0) {
      // A lock being written right now has no pid yet; a lock without one for a second is stale.
      const st = fs.statSync(path, { throwIfNoEntry: false });
      if (st && Date.now() - st.mtimeMs > 1000) fs.rmSync(path, { force: true });
      await sleep(50);
      continue;
    }
    if (!pidAlive(pid)) {
      // Take over a dead owner's lock: rename it away first, so that of two processes seeing the
      // same stale lock only one removes it (the other's rename fails with ENOENT).
      try {
        const aside = `${path}.stale.${process.pid}`;
        fs.renameSync(path, aside);
        // Not the one judged stale (a new owner's): put it back unless yet another exists.
        if (fs.readFileSync(aside, 'utf8') !== text) fs.linkSync(aside, path);
        fs.rmSync(aside, { force: true });
      } catch {
        /* someone else took it over */
      }
      continue;
    }
    if (!told) {
      opts.onWait?.(pid);
      told = true;
    }
    if (Date.now() - started > opts.timeoutMs) {
      throw new SyncpodError(`pod ${namespace}/${name} is being synced by pid ${pid} (lock ${path}); gave up after ${Math.round(opts.timeoutMs / 1000)}s`);
    }
    await sleep(100);
  }
}
