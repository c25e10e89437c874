// SyncFs on node:fs (the real node filesystem).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SyncpodError } from '../errors';
import { onHost } from '../config/host-root';
import type { SyncFs } from './types';
import { destroyCgroup } from './cgroup-fs';
import { atomicWrite, mountTmpfs, unmountPodMountsByUid, volumeOwnership } from './volume-fs';
import { bindSubPath, cleanPodSubPaths, readInVolume, safeMakeDir } from './subpath';

/**
 * Writes the whole file as a new regular file beside it and renames it into place: whatever was at
 * `p` (a symlink planted there included) is replaced, never followed, and no target changes mode.
 */
function replaceFile(p: string, content: string, mode: number): void {
  const tmp = `${path.dirname(p)}/.${path.basename(p)}.syncpod-${process.pid}`;
  fs.rmSync(tmp, { force: true });
  const fd = fs.openSync(
    tmp,
    fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY | fs.constants.O_NOFOLLOW,
    mode,
  );
  try {
    fs.writeSync(fd, content);
    fs.fchmodSync(fd, mode);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  try {
    fs.renameSync(tmp, p);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

function statKind(st: fs.Stats): string {
  if (st.isDirectory()) return 'dir';
  if (st.isFile()) return 'file';
  if (st.isSocket()) return 'socket';
  if (st.isCharacterDevice()) return 'char';
  if (st.isBlockDevice()) return 'block';
  return 'other';
}

export const nodeFs: SyncFs = {
  exists: (p) => fs.existsSync(p),
  mkdirAll: (p, mode) => void fs.mkdirSync(p, { recursive: true, mode }),
  // kubelet's makeFile (hostPath FileOrCreate) opens with O_CREATE: a file that exists keeps its
  // mode and content; only a file made here gets `mode`. A symbolic link is refused, not followed.
  touch(p, mode) {
    const { O_CREAT, O_EXCL, O_WRONLY, O_NOFOLLOW } = fs.constants;
    let fd: number;
    try {
      fd = fs.openSync(p, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW, mode);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const st = fs.lstatSync(p);
      if (st.isSymbolicLink()) throw new SyncpodError(`${p} is a symbolic link; not following it`);
      // kubelet's FileOrCreate type check on what exists (a directory there was EISDIR before).
      if (!st.isFile()) throw new SyncpodError(`hostPath type check failed: ${p} is not a file`);
      return;
    }
    try {
      fs.fchmodSync(fd, mode);
    } finally {
      fs.closeSync(fd);
    }
  },
  writeFile: replaceFile,
  // The mode of what a mkdir effect made, set on the directory itself: a symbolic link put in its
  // place meanwhile (by whoever else writes in that parent) is refused, never followed.
  chmod(p, mode) {
    let fd: number;
    try {
      fd = fs.openSync(p, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ELOOP')
        throw new SyncpodError(`${p} is a symbolic link; not following it`);
      throw err;
    }
    try {
      fs.fchmodSync(fd, mode);
    } finally {
      fs.closeSync(fd);
    }
  },
  kind(p) {
    try {
      return statKind(fs.statSync(p));
    } catch {
      return undefined;
    }
  },
  mode: (p) => fs.statSync(p).mode & 0o7777,
  readInVolume,
  safeMakeDir,
  bindSubPath: (m) => void bindSubPath(m),
  cleanSubPaths: cleanPodSubPaths,
  readdir(p) {
    try {
      return fs.readdirSync(p);
    } catch {
      return undefined;
    }
  },
  remove(p) {
    try {
      fs.unlinkSync(p);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  },
  removeDir(p) {
    try {
      if (!fs.lstatSync(p).isDirectory()) return;
      fs.rmdirSync(p);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  },
  symlink(target, p) {
    try {
      fs.unlinkSync(p);
    } catch {
      /* absent */
    }
    fs.symlinkSync(target, p);
  },
  mountTmpfs,
  atomicWrite,
  unmountPodVolumes: unmountPodMountsByUid,
  volumeOwnership,
  destroyCgroup,
};

/**
 * The node filesystem seen through --host-root: every path is a node path taken under `root`;
 * a symlink's target is written as given (it is resolved on the node).
 */
export function nodeFsUnder(root: string): SyncFs {
  if (root === '/') return nodeFs;
  const at = (p: string): string => onHost(root, p);
  return {
    exists: (p) => nodeFs.exists(at(p)),
    mkdirAll: (p, mode) => nodeFs.mkdirAll(at(p), mode),
    touch: (p, mode) => nodeFs.touch(at(p), mode),
    writeFile: (p, content, mode) => nodeFs.writeFile(at(p), content, mode),
    chmod: (p, mode) => nodeFs.chmod(at(p), mode),
    kind: (p) => nodeFs.kind(at(p)),
    mode: (p) => nodeFs.mode(at(p)),
    readdir: (p) => nodeFs.readdir(at(p)),
    remove: (p) => nodeFs.remove(at(p)),
    removeDir: (p) => nodeFs.removeDir(at(p)),
    symlink: (target, p) => nodeFs.symlink(target, at(p)),
    mountTmpfs: (p, options) => mountTmpfs(at(p), options),
    atomicWrite: (dir, files, ts) => atomicWrite(at(dir), files, ts),
    unmountPodVolumes: unmountPodMountsByUid,
    volumeOwnership: (p, gid, readOnly) => volumeOwnership(at(p), gid, readOnly),
    destroyCgroup: (dirs) => destroyCgroup(dirs.map(at)),
    readInVolume: (v, rel) => nodeFs.readInVolume(at(v), rel),
    safeMakeDir: (v, sub, mode) => nodeFs.safeMakeDir(at(v), sub, mode),
    bindSubPath: (m) => nodeFs.bindSubPath({ ...m, volumePath: at(m.volumePath), target: at(m.target) }),
    // The mount table holds the paths as this process sees them (under the host root already).
    cleanSubPaths: (uid, ctr) => nodeFs.cleanSubPaths(uid, ctr),
  };
}

/**
 * What kubelet's log garbage collector removes for a pod that no longer exists: its pod log
 * directory (a real directory; links inside are removed, never followed) and the links in the
 * legacy /var/log/containers directory named for its containers (`..._<container>-<id>.log`).
 * Paths are node paths under `root`; returns what went, as node paths.
 */
export function removePodLogs(
  root: string,
  podLogsDir: string,
  legacyLogDir: string,
  containerIds: string[],
): string[] {
  const gone: string[] = [];
  const dir = onHost(root, podLogsDir);
  let isDir = false;
  try {
    isDir = fs.lstatSync(dir).isDirectory();
  } catch {
    /* absent */
  }
  if (isDir) {
    fs.rmSync(dir, { recursive: true, force: true });
    gone.push(`log directory ${podLogsDir}`);
  }
  if (containerIds.length === 0) return gone;
  let names: string[] = [];
  try {
    names = fs.readdirSync(onHost(root, legacyLogDir));
  } catch {
    /* no legacy directory */
  }
  for (const name of names.sort()) {
    if (!containerIds.some((id) => name.endsWith(`-${id}.log`))) continue;
    const link = onHost(root, `${legacyLogDir}/${name}`);
    try {
      if (!fs.lstatSync(link).isSymbolicLink()) continue;
      fs.unlinkSync(link);
      gone.push(`log link ${legacyLogDir}/${name}`);
    } catch {
      /* gone meanwhile */
    }
  }
  return gone;
}

export const HUGEPAGES_DIR = '/sys/kernel/mm/hugepages';

/** `hugepages-2048kB` -> 2097152; undefined for names of another form. */
function hugePageDirBytes(name: string): number | undefined {
  const m = /^hugepages-(\d+)kB$/.exec(name);
  return m ? Number(m[1]) * 1024 : undefined;
}

/**
 * The host's huge page sizes as kubelet reads them (libcontainer HugePageSizes): the entries of
 * /sys/kernel/mm/hugepages in directory order (not sorted; opendir keeps the kernel's order),
 * each named by its unit size ("2MB", "1GB"). No directory: no huge pages.
 */
export function readHugePageSizes(dir = HUGEPAGES_DIR, unitSize: (bytes: number) => string): string[] {
  let d: fs.Dir;
  try {
    d = fs.opendirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const out: string[] = [];
  try {
    for (let e = d.readSync(); e !== null; e = d.readSync()) {
      const bytes = hugePageDirBytes(e.name);
      if (bytes !== undefined) out.push(unitSize(bytes));
    }
  } finally {
    d.closeSync();
  }
  return out;
}
