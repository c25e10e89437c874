// A small file cache in a root-only directory (/run/syncpod by default: tmpfs, gone at reboot),
// keyed by what identifies a file's content without reading it: path, device, inode, size, mtime
// and ctime (ctime changes on every write and cannot be set back). A cache that cannot be read or
// written is simply not used.
import * as fs from 'node:fs';

const MAX_ENTRIES = 32;

/** The key of `path` as `stat` follows it, or undefined when it cannot be stat'ed. */
export function statKey(path: string, name = path): string | undefined {
  try {
    const st = fs.statSync(path, { bigint: true });
    return [name, st.dev, st.ino, st.size, st.mtimeNs, st.ctimeNs].join('|');
  } catch {
    return undefined;
  }
}

export function readCache<T>(dir: string, file: string): Record<string, T> {
  try {
    const v = JSON.parse(fs.readFileSync(`${dir}/${file}`, 'utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

/** Writes the cache atomically (temp file + rename), keeping the newest MAX_ENTRIES entries. */
export function writeCache<T>(dir: string, file: string, cache: Record<string, T>): void {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const keys = Object.keys(cache);
    for (const k of keys.slice(0, Math.max(0, keys.length - MAX_ENTRIES))) delete cache[k];
    const tmp = `${dir}/${file}.${process.pid}`;
    fs.writeFileSync(tmp, JSON.stringify(cache), { mode: 0o600 });
    fs.renameSync(tmp, `${dir}/${file}`);
  } catch {
    // not writable (not root, read-only /run): no cache
  }
}
