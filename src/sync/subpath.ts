// subPath mounts on the node as kubelet makes them (pkg/volume/util/subpath/subpath_linux.go,
// kubelet 1.33–1.37): the missing directories of a subPath are created inside the volume one level
// at a time without following a symbolic link (doSafeMakeDir), the subPath is resolved and must stay
// inside the volume, it is then opened component by component with O_NOFOLLOW (doSafeOpen), and the
// opened file itself — /proc/<pid>/fd/<fd>, not a path that could be swapped for a symlink after
// the check — is bind-mounted at `<pod dir>/volume-subpaths/<volume>/<container>/<index>`. That
// bind mount is what the runtime is given. CleanSubPaths unmounts and removes them with the pod.
//
// Node has no openat/mkdirat; `/proc/self/fd/<dirfd>/<name>` is the same lookup: the directory
// the descriptor holds, then one name inside it.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SUBPATH_DIR } from '../kubelet/mounts';
import { isPodUid } from '../kubelet/path-names';

/** O_PATH (Linux): a descriptor that names a file without opening it for reading or writing. */
const O_PATH = 0o10000000;
const { O_NOFOLLOW, O_DIRECTORY, O_RDONLY } = fs.constants;

const at = (dirFd: number, name: string): string => `/proc/self/fd/${dirFd}/${name}`;

/** What a subPath mount needs: kubelet's subpath.Subpath. */
export interface SubPathMount {
  /** The volume's host directory. */
  volumePath: string;
  /** Relative, no '..' (checked before). */
  subPath: string;
  /** Where the resolved subPath is bind-mounted (subPathBindTarget). */
  target: string;
}

/** mount-utils PathWithinBase: `p` is `base` or below it (both cleaned, absolute). */
export function pathWithinBase(p: string, base: string): boolean {
  const rel = path.relative(base, p);
  return rel === '' || (rel !== '..' && !rel.startsWith('../') && !path.isAbsolute(rel));
}

function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    /* already closed */
  }
}

/**
 * doSafeOpen: an O_PATH descriptor of `pathname` (symlinks already resolved, inside `base`), every
 * component opened from its parent's descriptor with O_NOFOLLOW. A symbolic link met on the way
 * (one swapped in after resolution) is refused. The caller closes the descriptor.
 */
export function safeOpen(pathname: string, base: string): number {
  const clean = path.resolve(pathname);
  const root = path.resolve(base);
  if (!pathWithinBase(clean, root)) throw new Error(`path ${clean} is outside of allowed base ${root}`);
  const rel = path.relative(root, clean);
  const segments = rel === '' ? [] : rel.split('/');
  let fd = fs.openSync(root, O_PATH | O_NOFOLLOW | O_DIRECTORY);
  try {
    let current = root;
    for (const seg of segments) {
      current = `${current}/${seg}`;
      if (seg === '' || seg === '.' || seg === '..')
        throw new Error(`path ${current} is outside of allowed base ${root}`);
      const child = fs.openSync(at(fd, seg), O_PATH | O_NOFOLLOW);
      closeQuietly(fd);
      fd = child;
      if (fs.fstatSync(fd).isSymbolicLink()) throw new Error(`unexpected symlink found ${current}`);
    }
    const out = fd;
    fd = -1;
    return out;
  } finally {
    if (fd >= 0) closeQuietly(fd);
  }
}

/** findExistingPrefix: the longest existing prefix of `rel` below `base` (symlinks followed) and the levels still missing. */
function findExistingPrefix(base: string, rel: string): { existing: string; missing: string[] } {
  const dirs = rel.split('/').filter((d) => d !== '' && d !== '.');
  let fd = fs.openSync(base, O_PATH);
  let current = base;
  try {
    for (let i = 0; i < dirs.length; i++) {
      let child: number;
      try {
        child = fs.openSync(at(fd, dirs[i]!), O_PATH);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { existing: current, missing: dirs.slice(i) };
        throw err;
      }
      closeQuietly(fd);
      fd = child;
      current = `${current}/${dirs[i]}`;
    }
    return { existing: current, missing: [] };
  } finally {
    closeQuietly(fd);
  }
}

/**
 * doSafeMakeDir: creates the missing levels of `subPath` inside `base`, each with `mode` (the
 * volume's own mode, set with fchmod past the umask). Every level is created in, and then opened
 * from, its parent's descriptor without following a symbolic link; an existing prefix that resolves
 * outside `base` is refused. An existing directory is left as it is.
 */
export function safeMakeDir(base: string, subPath: string, mode: number): void {
  const root = fs.realpathSync(base);
  const pathname = path.join(root, subPath);
  try {
    if (fs.statSync(pathname).isDirectory()) return; // PrepareSafeSubpath checks where it leads
    throw Object.assign(new Error(`mkdir ${pathname}: not a directory`), { code: 'ENOTDIR' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const { existing, missing } = findExistingPrefix(root, path.relative(root, pathname));
  const fullExisting = fs.realpathSync(existing);
  if (!pathWithinBase(fullExisting, root)) throw new Error(`path ${fullExisting} is outside of allowed base ${root}`);
  let parent = safeOpen(fullExisting, root);
  try {
    let current = fullExisting;
    for (const dir of missing) {
      current = `${current}/${dir}`;
      fs.mkdirSync(at(parent, dir), mode & 0o777);
      const child = fs.openSync(at(parent, dir), O_RDONLY | O_NOFOLLOW | O_DIRECTORY);
      closeQuietly(parent);
      parent = child;
      fs.fchmodSync(parent, mode);
    }
  } finally {
    closeQuietly(parent);
  }
}

/** Unescapes a mountinfo field (\040 for a space and so on). */
function unescapeMountField(s: string): string {
  return s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
}

/** Mount points of this mount namespace (/proc/self/mountinfo, unescaped). */
function mountPoints(): string[] {
  return fs
    .readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((line) => line.split(' '))
    .filter((f) => f.length > 4)
    .map((f) => unescapeMountField(f[4]!));
}

/** Whether something is mounted at `p` (its own entry in /proc/self/mountinfo). */
export function isMountPoint(p: string): boolean {
  let real: string;
  try {
    real = fs.realpathSync(p);
  } catch {
    return false;
  }
  return mountPoints().includes(real);
}

function run(cmd: string, args: string[]): void {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0)
    throw new Error(`${cmd} ${args.join(' ')}: ${(r.stderr || r.stdout).trim() || `exit ${r.status}`}`);
}

/** Unmounts `p` (lazily when it is busy: the containers hold their own mounts of it). */
export function unmount(p: string): void {
  try {
    run('umount', [p]);
  } catch {
    run('umount', ['-l', p]);
  }
}

/** checkSubPathFileEqual: the mounted target is the resolved subPath (same device and inode). */
function sameFile(a: string, b: string): boolean {
  const x = fs.lstatSync(a);
  const y = fs.lstatSync(b);
  return x.dev === y.dev && x.ino === y.ino;
}

/** prepareSubpathTarget: true when the right thing is already mounted there; else the target made ready. */
function prepareTarget(resolved: string, target: string): boolean {
  if (isMountPoint(target)) {
    if (sameFile(resolved, target)) return true;
    unmount(target);
  }
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o750 });
  if (fs.lstatSync(resolved).isDirectory()) {
    try {
      fs.mkdirSync(target, 0o750);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  } else {
    fs.closeSync(fs.openSync(target, fs.constants.O_CREAT | fs.constants.O_WRONLY | O_NOFOLLOW, 0o640));
  }
  return false;
}

/**
 * doBindSubPath: resolves the subPath (symlinks inside the volume are fine), refuses it when it
 * ends outside the volume, opens it safely and bind-mounts the opened descriptor at the target.
 * Returns the target. Throws with the detail (kubelet logs it; the caller words the user's error).
 */
export function bindSubPath(m: SubPathMount): string {
  const volumePath = fs.realpathSync(m.volumePath);
  let resolved: string;
  try {
    resolved = fs.realpathSync(path.join(m.volumePath, m.subPath));
  } catch (err) {
    throw new Error(`error resolving symlinks in ${path.join(m.volumePath, m.subPath)}: ${(err as Error).message}`);
  }
  if (!pathWithinBase(resolved, volumePath))
    throw new Error(`subpath ${path.join(m.volumePath, m.subPath)} resolves outside of the volume`);
  const fd = safeOpen(resolved, volumePath);
  try {
    if (prepareTarget(resolved, m.target)) return m.target;
    try {
      run('mount', ['--no-canonicalize', '--bind', `/proc/${process.pid}/fd/${fd}`, m.target]);
    } catch (err) {
      removeTarget(m.target);
      throw err;
    }
    return m.target;
  } finally {
    closeQuietly(fd);
  }
}

/** Removes one bind target (never following a link): unmounted first when something is mounted there. */
function removeTarget(p: string): void {
  if (isMountPoint(p)) unmount(p);
  let st: fs.Stats;
  try {
    st = fs.lstatSync(p);
  } catch {
    return;
  }
  if (st.isDirectory()) fs.rmdirSync(p);
  else fs.unlinkSync(p);
}

function entries(dir: string): string[] {
  try {
    return fs.readdirSync(dir).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

function isRealDir(p: string): boolean {
  try {
    return fs.lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * CleanSubPaths for every volume of a pod (or only `containerName`'s mounts): each bind target
 * under `<podDir>/volume-subpaths/` unmounted and removed, then the emptied directories. A
 * symbolic link is removed, never followed. Returns the targets removed.
 */
export function cleanSubPaths(podDirPath: string, containerName?: string): string[] {
  const top = `${podDirPath}/${SUBPATH_DIR}`;
  if (!isRealDir(top)) return [];
  const gone: string[] = [];
  for (const vol of entries(top)) {
    const volDir = `${top}/${vol}`;
    if (!isRealDir(volDir)) continue;
    for (const ctr of entries(volDir)) {
      if (containerName !== undefined && ctr !== containerName) continue;
      const ctrDir = `${volDir}/${ctr}`;
      if (!isRealDir(ctrDir)) continue;
      for (const index of entries(ctrDir)) {
        removeTarget(`${ctrDir}/${index}`);
        gone.push(`${ctrDir}/${index}`);
      }
      fs.rmdirSync(ctrDir);
    }
    if (entries(volDir).length === 0) fs.rmdirSync(volDir);
  }
  if (entries(top).length === 0) fs.rmdirSync(top);
  return gone;
}

/**
 * The subPath bind mounts of the pod `uid` (all, or `containerName`'s), found in the mount table
 * whatever the kubelet root they were made under (`.../pods/<uid>/volume-subpaths/...`), unmounted
 * and removed with their directories. A uid that is not a pod uid finds nothing. Returns the targets.
 */
export function cleanPodSubPaths(uid: string, containerName?: string): string[] {
  if (!isPodUid(uid)) return [];
  const marker = `/pods/${uid}/${SUBPATH_DIR}/`;
  const podDirs = new Set<string>();
  for (const m of mountPoints()) {
    const at = m.indexOf(marker);
    if (at < 0) continue;
    const parts = m.slice(at + marker.length).split('/');
    if (parts.length === 3 && (containerName === undefined || parts[1] === containerName))
      podDirs.add(m.slice(0, at + marker.length - SUBPATH_DIR.length - 2));
  }
  return [...podDirs].sort().flatMap((d) => cleanSubPaths(d, containerName));
}

/**
 * Reads a file of a volume on the pod's behalf (env files of fileKeyRef): resolved inside the
 * volume as a subPath is, then opened from a descriptor walk that follows no symbolic link.
 * undefined when it does not exist; throws when it leads outside the volume.
 */
export function readInVolume(volumePath: string, rel: string): string | undefined {
  const root = fs.realpathSync(volumePath);
  let resolved: string;
  try {
    resolved = fs.realpathSync(path.join(root, rel));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      // A dangling symbolic link is a link out of the volume as much as one to an existing file.
      if (leadsThroughLink(root, rel)) throw new Error(`${rel}: a symbolic link leads outside the volume`);
      return undefined;
    }
    throw err;
  }
  if (!pathWithinBase(resolved, root)) throw new Error(`${rel}: a symbolic link leads outside the volume`);
  const dirFd = safeOpen(path.dirname(resolved), root);
  try {
    const fd = fs.openSync(at(dirFd, path.basename(resolved)), O_RDONLY | O_NOFOLLOW);
    try {
      if (!fs.fstatSync(fd).isFile()) throw new Error(`${rel}: not a regular file`);
      return fs.readFileSync(fd, 'utf8');
    } finally {
      closeQuietly(fd);
    }
  } finally {
    closeQuietly(dirFd);
  }
}

/** Whether some existing component of `rel` below `root` is a symbolic link whose target is outside `root`. */
function leadsThroughLink(root: string, rel: string): boolean {
  let current = root;
  for (const seg of rel.split('/').filter((s) => s !== '' && s !== '.')) {
    current = `${current}/${seg}`;
    let st: fs.Stats;
    try {
      st = fs.lstatSync(current);
    } catch {
      return false;
    }
    if (st.isSymbolicLink()) {
      const target = path.resolve(path.dirname(current), fs.readlinkSync(current));
      return !pathWithinBase(target, root);
    }
  }
  return false;
}
