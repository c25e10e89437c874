// The node side of tmpfs and file volumes: tmpfs mounts (kubelet's emptyDir setupTmpfs), kubelet's
// atomic writer (pkg/volume/util/atomic_writer.go Write) on node:fs, and the unmount of a pod's
// volume mounts when the pod is removed (kubelet's volume manager tears them down before the pod
// directory goes). File contents are never logged or put in an error.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SyncpodError } from '../errors';
import { DATA_DIR_NAME, type FileProjection } from '../kubelet/volumes';

/** One line of /proc/self/mountinfo: the mount point (unescaped) and the filesystem type. */
export interface MountEntry {
  mountPoint: string;
  fsType: string;
}

/** The kernel escapes space, tab, newline and backslash in mountinfo as \ooo. */
function unescapeMountPath(p: string): string {
  return p.replace(/\\([0-7]{3})/g, (_m, o: string) => String.fromCharCode(Number.parseInt(o, 8)));
}

/** Parses mountinfo text (proc(5)): field 5 is the mount point, the type follows the " - " separator. */
export function parseMountInfo(text: string): MountEntry[] {
  const out: MountEntry[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const sep = line.indexOf(' - ');
    if (sep < 0) continue;
    const left = line.slice(0, sep).split(' ');
    const right = line.slice(sep + 3).split(' ');
    if (left.length < 5 || right.length < 1) continue;
    out.push({ mountPoint: unescapeMountPath(left[4]!), fsType: right[0]! });
  }
  return out;
}

function mounts(): MountEntry[] {
  return parseMountInfo(fs.readFileSync('/proc/self/mountinfo', 'utf8'));
}

function runMountTool(tool: string, args: string[]): void {
  try {
    execFileSync(tool, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    const stderr = String((err as { stderr?: Buffer }).stderr ?? '').trim();
    throw new SyncpodError(`${tool} ${args.join(' ')}: ${stderr || (err as Error).message}`);
  }
}

/** setupTmpfs: nothing when a tmpfs is mounted on `dir` already, else `mount -t tmpfs -o OPTIONS tmpfs DIR`. */
export function mountTmpfs(dir: string, options: string[]): 'mounted' | 'already' {
  const real = fs.realpathSync(dir);
  if (mounts().some((m) => m.mountPoint === real && m.fsType === 'tmpfs')) return 'already';
  runMountTool('mount', ['-t', 'tmpfs', ...(options.length ? ['-o', options.join(',')] : []), 'tmpfs', real]);
  return 'mounted';
}

/**
 * Unmounts the mounts of every pod directory named `<uid>` under any `pods/` directory (its tmpfs
 * volumes and subPath bind mounts): for removals that know the uid but not the kubelet root (rmp).
 * Returns the mount points unmounted.
 */
export function unmountPodMountsByUid(uid: string): string[] {
  if (!/^[0-9A-Za-z][0-9A-Za-z._-]*$/.test(uid)) return [];
  const marker = `/pods/${uid}/`;
  const below = mounts()
    .map((m) => m.mountPoint)
    .filter((p) => p.includes(marker))
    .sort((a, b) => b.length - a.length);
  const done: string[] = [];
  for (const p of [...new Set(below)]) {
    runMountTool('umount', [p]);
    done.push(p);
  }
  return done;
}

function readLinkOrUndefined(p: string): string | undefined {
  try {
    return fs.readlinkSync(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Every regular file below `dir`, as paths relative to it (symlinks are not followed). */
function walkFiles(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...walkFiles(dir, r));
    else out.push(r);
  }
  return out;
}

function sameBytes(file: string, data: Uint8Array): boolean {
  try {
    const st = fs.lstatSync(file);
    if (!st.isFile() || st.size !== data.length) return false;
    return Buffer.from(data).equals(fs.readFileSync(file));
  } catch {
    return false;
  }
}

/** Writes a new regular file (never through a symlink) and gives it exactly `mode`. */
function writeNewFile(p: string, data: Uint8Array, mode: number): void {
  const fd = fs.openSync(
    p,
    fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY | fs.constants.O_NOFOLLOW,
    mode,
  );
  try {
    fs.writeSync(fd, data);
    fs.fchmodSync(fd, mode);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * AtomicWriter.Write: when the files differ from those `..data` points at (or old ones must go), a
 * new timestamped directory is filled, `..data` is switched to it by renaming `..data_tmp` over it,
 * each top-level entry is a symlink into `..data`, entries no longer in the payload are removed,
 * then the old timestamped directory.
 */
export function atomicWrite(dir: string, files: FileProjection[], timestampDir: string): 'written' | 'unchanged' {
  const dataLink = path.join(dir, DATA_DIR_NAME);
  const oldTs = readLinkOrUndefined(dataLink);
  const oldFiles = oldTs !== undefined && fs.existsSync(path.join(dir, oldTs)) ? walkFiles(path.join(dir, oldTs)) : [];
  const wanted = new Set(files.map((f) => f.path));
  const stale = oldFiles.filter((f) => !wanted.has(f));
  const changed = oldTs === undefined || files.some((f) => !sameBytes(path.join(dir, oldTs, f.path), f.data));
  if (!changed && stale.length === 0) return 'unchanged';

  const tsPath = path.join(dir, timestampDir);
  fs.mkdirSync(tsPath, { mode: 0o700 });
  fs.chmodSync(tsPath, 0o755);
  for (const f of files) {
    const full = path.join(tsPath, f.path);
    fs.mkdirSync(path.dirname(full), { recursive: true, mode: 0o777 });
    writeNewFile(full, f.data, f.mode);
  }
  const tmpLink = path.join(dir, `${DATA_DIR_NAME}_tmp`);
  fs.rmSync(tmpLink, { force: true });
  fs.symlinkSync(timestampDir, tmpLink);
  fs.renameSync(tmpLink, dataLink);
  const visible = new Set(files.map((f) => f.path.split('/')[0]!));
  for (const name of [...visible].sort()) {
    const p = path.join(dir, name);
    if (readLinkOrUndefined(p) === undefined && !fs.existsSync(p)) fs.symlinkSync(`${DATA_DIR_NAME}/${name}`, p);
  }
  // Old top-level entries the new payload no longer has (only paths without '/', as kubelet).
  for (const old of stale) if (!old.includes('/') && !visible.has(old)) fs.rmSync(path.join(dir, old), { force: true });
  for (const old of oldFiles) {
    const top = old.split('/')[0]!;
    if (old.includes('/') && !visible.has(top)) fs.rmSync(path.join(dir, top), { force: true });
  }
  if (oldTs !== undefined && oldTs !== timestampDir && oldTs.startsWith('..') && !oldTs.includes('/'))
    fs.rmSync(path.join(dir, oldTs), { recursive: true, force: true });
  return 'written';
}

const RW_MASK = 0o660;
const RO_MASK = 0o440;
const EXEC_MASK = 0o110;
const SETGID = 0o2000;

/** O_PATH (Linux): a descriptor that names a file without opening it for reading or writing. */
const O_PATH = 0o10000000;

/**
 * SetVolumeOwnership (pkg/volume/volume_linux.go changeFilePermission) on every entry below `dir`,
 * `dir` included: a symlink is re-grouped, never followed or chmodded. Kubelet walks a volume once,
 * before any container of the pod runs; syncpod applies it at every container start, while the
 * pod's other containers may be renaming things in the volume. So the walk holds what it met:
 * each entry is opened from its parent's descriptor without following a link (O_PATH|O_NOFOLLOW),
 * and its group, mode and listing are changed and read through that descriptor
 * (/proc/self/fd/<fd>), never by a path a container could swap for a link meanwhile.
 */
export function volumeOwnership(dir: string, gid: number, readOnly: boolean): void {
  changeOwnershipAt(dir, gid, readOnly);
}

/** changeFilePermission for the entry `entry` names (its last component is not followed), then its children. */
function changeOwnershipAt(entry: string, gid: number, readOnly: boolean): void {
  const fd = fs.openSync(entry, O_PATH | fs.constants.O_NOFOLLOW);
  try {
    const st = fs.fstatSync(fd);
    if (st.isSymbolicLink()) {
      // `entry` is a name in a directory held open: lchown changes whatever that name holds now, in there.
      fs.lchownSync(entry, -1, gid);
      return;
    }
    const held = `/proc/self/fd/${fd}`;
    fs.chownSync(held, -1, gid);
    let mask = readOnly ? RO_MASK : RW_MASK;
    if (st.isDirectory()) mask |= SETGID | EXEC_MASK;
    fs.chmodSync(held, (st.mode & 0o7777) | mask);
    if (st.isDirectory()) for (const name of fs.readdirSync(held)) changeOwnershipAt(`${held}/${name}`, gid, readOnly);
  } finally {
    fs.closeSync(fd);
  }
}
