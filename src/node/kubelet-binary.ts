// The kubelet's version, from its own binary: `/proc/PID/exe --version` ("Kubernetes v1.36.2").
// Running a Go binary costs tens of milliseconds, so the answer is cached per binary (path, device,
// inode, size, mtime, ctime) in a root-only directory; a cache that cannot be read or written is
// simply not used. Running the binary may fail (timeout, permissions): the caller warns and goes on.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';

export const VERSION_TIMEOUT_MS = 3000;
export const DEFAULT_CACHE_DIR = '/run/syncpod';
const CACHE_FILE = 'kubelet-versions.json';
const MAX_ENTRIES = 16;

export type BinaryVersion = { ok: true; output: string; cached: boolean } | { ok: false; why: string };

function cacheKey(exePath: string, exeLink: string): string | undefined {
  try {
    const st = fs.statSync(exeLink, { bigint: true });
    return [exePath, st.dev, st.ino, st.size, st.mtimeNs, st.ctimeNs].join('|');
  } catch {
    return undefined;
  }
}

function readCache(dir: string): Record<string, string> {
  try {
    const v = JSON.parse(fs.readFileSync(`${dir}/${CACHE_FILE}`, 'utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

function writeCache(dir: string, cache: Record<string, string>): void {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const keys = Object.keys(cache);
    for (const k of keys.slice(0, Math.max(0, keys.length - MAX_ENTRIES))) delete cache[k];
    const tmp = `${dir}/${CACHE_FILE}.${process.pid}`;
    fs.writeFileSync(tmp, JSON.stringify(cache), { mode: 0o600 });
    fs.renameSync(tmp, `${dir}/${CACHE_FILE}`);
  } catch {
    // not writable (not root, read-only /run): run the binary again next time
  }
}

/**
 * `exeLink` is /proc/PID/exe (runs the very binary the process runs, even when the file on disk was
 * replaced); `exePath` is its target, used in the cache key and in messages.
 */
export function kubeletBinaryVersion(exeLink: string, exePath: string, cacheDir = DEFAULT_CACHE_DIR, timeoutMs = VERSION_TIMEOUT_MS): BinaryVersion {
  const key = cacheKey(exePath, exeLink);
  const cache = key ? readCache(cacheDir) : {};
  if (key && typeof cache[key] === 'string') return { ok: true, output: cache[key], cached: true };
  const r = spawnSync(exeLink, ['--version'], { encoding: 'utf8', timeout: timeoutMs, env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' }, stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    if (code === 'ETIMEDOUT') return { ok: false, why: `no answer within ${timeoutMs / 1000}s` };
    if (code === 'EACCES' || code === 'EPERM') return { ok: false, why: 'permission denied (run as root)' };
    if (code === 'ENOENT') return { ok: false, why: 'the process exited' };
    return { ok: false, why: r.error.message };
  }
  if (r.status !== 0) return { ok: false, why: `exited with ${r.status ?? r.signal}${r.stderr.trim() ? `: ${r.stderr.trim().split('\n')[0]}` : ''}` };
  const output = r.stdout.trim();
  if (key) {
    cache[key] = output;
    writeCache(cacheDir, cache);
  }
  return { ok: true, output, cached: false };
}

/** "Kubernetes v1.36.2" -> "v1.36.2"; undefined when the output is not a Kubernetes version line. */
export function parseKubeletVersionOutput(output: string): string | undefined {
  const m = /^Kubernetes (v\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]*)?)$/.exec(output.trim().split('\n')[0].trim());
  return m?.[1];
}
