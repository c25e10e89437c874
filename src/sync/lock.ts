// Exclusive locks keyed by an arbitrary string (sync keys them by namespace/name, so two syncs of
// one pod never run their steps at once, uid or not). A lock is a regular file
// <dir>/<escaped key>.lock created with O_CREAT|O_EXCL|O_NOFOLLOW, holding "<pid> <start time>":
// the owner's pid and its start time from /proc/<pid>/stat, so a reused pid is not mistaken for
// the owner. Safe for a root process: nothing at the lock path is ever followed (a symlink or a
// directory there is refused at once with a line saying how to clear it), and every wait is bounded.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { SyncpodError } from '../errors';

export const DEFAULT_LOCK_DIR = '/run/syncpod/locks';

export interface Lock {
  key: string;
  path: string;
  release(): void;
}
/** The per-pod lock (kept as its own name for readers of sync). */
export type PodLock = Lock;

export interface LockOptions {
  dir?: string;
  /** Longest wait for a live owner; then a one-line error with how to clear a stale lock. */
  timeoutMs: number;
  /** Told once, when the lock is found held by a live process. */
  onWait?: (pid: number) => void;
  sleep?: (ms: number) => Promise<void>;
  /** What the lock protects, for messages (default: `lock <key>`). */
  what?: string;
}

const POLL_MS = 100;
/** A lock file without an owner line yet (being written) is judged stale after this long. */
const UNWRITTEN_STALE_MS = 1000;

/** The file for `key`: characters outside [A-Za-z0-9._-] are written %XX, so no key can leave `dir`. */
export function lockPath(dir: string, key: string): string {
  if (key === '') throw new SyncpodError('a lock key must not be empty');
  const escaped = Array.from(new TextEncoder().encode(key), (b) => {
    const c = String.fromCharCode(b);
    return /[A-Za-z0-9._-]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }).join('');
  // "." and ".." are escaped whole so the name is never a directory entry of its own.
  let name = escaped === '.' || escaped === '..' ? escaped.replace(/\./g, '%2E') : escaped;
  // One file name holds at most 255 bytes: a longer key keeps a readable head and its SHA-256.
  if (name.length + '.lock'.length > 255)
    name = `${name.slice(0, 160)}%23${createHash('sha256').update(key).digest('hex')}`;
  return `${dir.replace(/\/+$/, '') || '/'}/${name}.lock`;
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot); undefined when unreadable. */
export function processStartTime(pid: number): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may itself hold spaces and ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return fields[19];
}

function processName(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '?';
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface Owner {
  pid: number;
  /** Absent in locks written by older syncpods or by hand. */
  startTime?: string;
}

function parseOwner(text: string): Owner | undefined {
  const m = /^(\d+)(?: (\d+))?\s*$/.exec(text);
  if (!m) return undefined;
  const pid = Number(m[1]);
  return pid > 0 ? { pid, startTime: m[2] } : undefined;
}

type Found = { kind: 'gone' } | { kind: 'not-a-file'; what: string } | { kind: 'file'; text: string; mtimeMs: number };

/** What is at the lock path, read without following a symlink. */
function inspect(path: string): Found {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'gone' };
    throw err;
  }
  if (st.isSymbolicLink()) return { kind: 'not-a-file', what: 'a symbolic link' };
  if (st.isDirectory()) return { kind: 'not-a-file', what: 'a directory' };
  if (!st.isFile()) return { kind: 'not-a-file', what: 'not a regular file' };
  let fd: number;
  try {
    fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'gone' };
    if (code === 'ELOOP') return { kind: 'not-a-file', what: 'a symbolic link' };
    throw err;
  }
  try {
    return { kind: 'file', text: fs.readFileSync(fd, 'utf8'), mtimeMs: fs.fstatSync(fd).mtimeMs };
  } finally {
    fs.closeSync(fd);
  }
}

/** Removes the lock judged stale (`seen`), unless it changed meanwhile; of several takers one wins. */
function takeOver(path: string, seen: string): void {
  const aside = `${path}.stale.${process.pid}`;
  try {
    fs.renameSync(path, aside);
  } catch {
    return; // someone else took it over
  }
  try {
    const now = inspect(aside);
    // Not the one judged stale (a new owner's): put it back unless yet another exists.
    if (now.kind === 'file' && now.text !== seen) fs.linkSync(aside, path);
  } catch {
    /* a new lock exists: leave it */
  } finally {
    fs.rmSync(aside, { force: true });
  }
}

function ensureDir(dir: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  } catch (err) {
    throw new SyncpodError(`cannot create the lock directory ${dir}: ${(err as Error).message}`);
  }
  const st = fs.lstatSync(dir);
  if (!st.isDirectory()) {
    throw new SyncpodError(
      `the lock directory ${dir} is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}; locks are only taken in a real directory`,
    );
  }
}

/** Takes the lock for `key`, waiting (polling, bounded by timeoutMs) while a live process holds it. */
export async function acquireLock(key: string, opts: LockOptions): Promise<Lock> {
  const dir = opts.dir ?? DEFAULT_LOCK_DIR;
  const path = lockPath(dir, key);
  const what = opts.what ?? `lock ${key}`;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  ensureDir(dir);
  const self = `${process.pid} ${processStartTime(process.pid) ?? ''}`.trim() + '\n';
  const started = Date.now();
  let told = false;
  for (;;) {
    try {
      const fd = fs.openSync(
        path,
        fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW,
        0o644,
      );
      try {
        fs.writeSync(fd, self);
      } finally {
        fs.closeSync(fd);
      }
      return ownLock(key, path, self);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST')
        throw new SyncpodError(`cannot create the lock ${path}: ${(err as Error).message}`);
    }
    const found = inspect(path);
    if (found.kind === 'gone') continue; // released between open and look: try again at once
    if (found.kind === 'not-a-file') {
      throw new SyncpodError(
        `${what}: ${path} is ${found.what}, not a lock file; remove it if no syncpod is running (nothing was done)`,
      );
    }
    const owner = parseOwner(found.text);
    if (!owner) {
      // A lock being written right now has no owner line yet; one without it for a second is stale.
      if (Date.now() - found.mtimeMs > UNWRITTEN_STALE_MS) takeOver(path, found.text);
      else await sleep(50);
      continue;
    }
    const ownerStart = pidAlive(owner.pid) ? processStartTime(owner.pid) : undefined;
    const alive =
      pidAlive(owner.pid) &&
      (owner.startTime === undefined || ownerStart === undefined || ownerStart === owner.startTime);
    if (!alive) {
      takeOver(path, found.text); // its owner died (or the pid now belongs to another process)
      continue;
    }
    if (!told) {
      opts.onWait?.(owner.pid);
      told = true;
    }
    if (Date.now() - started >= opts.timeoutMs) {
      const secs = Math.max(1, Math.round(opts.timeoutMs / 1000));
      throw new SyncpodError(
        `${what} is held by pid ${owner.pid} (${processName(owner.pid)}); gave up after ${secs}s. ` +
          `If pid ${owner.pid} is not a syncpod at work, the lock is stale: remove ${path}`,
      );
    }
    await sleep(Math.min(POLL_MS, Math.max(1, opts.timeoutMs - (Date.now() - started))));
  }
}

function ownLock(key: string, path: string, content: string): Lock {
  let released = false;
  return {
    key,
    path,
    release() {
      if (released) return;
      released = true;
      try {
        const now = inspect(path);
        if (now.kind === 'file' && now.text === content) fs.unlinkSync(path);
      } catch {
        /* already gone */
      }
    },
  };
}

/** The per-pod lock: keyed by namespace/name, so it is taken before any uid is chosen. */
export function acquirePodLock(namespace: string, name: string, opts: LockOptions): Promise<Lock> {
  return acquireLock(`${namespace}/${name}`, { what: `pod ${namespace}/${name}`, ...opts });
}
