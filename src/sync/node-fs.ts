// SyncFs on node:fs (the real node filesystem).
import * as fs from 'node:fs';
import type { SyncFs } from './types';

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
  touch(p, mode) {
    fs.closeSync(fs.openSync(p, fs.constants.O_CREAT | fs.constants.O_WRONLY, mode));
  },
  writeFile: (p, content, mode) => fs.writeFileSync(p, content, { mode }),
  chmod: (p, mode) => fs.chmodSync(p, mode),
  kind(p) {
    try {
      return statKind(fs.statSync(p));
    } catch {
      return undefined;
    }
  },
  mode: (p) => fs.statSync(p).mode & 0o7777,
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
  symlink(target, p) {
    try {
      fs.unlinkSync(p);
    } catch {
      /* absent */
    }
    fs.symlinkSync(target, p);
  },
};

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
