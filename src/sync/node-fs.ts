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
