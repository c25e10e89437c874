// The kubelet's version, from its own binary: `/proc/PID/exe --version` ("Kubernetes v1.36.2").
// Running a Go binary costs tens of milliseconds, so the answer is cached per binary (stat-cache.ts). Running the binary may fail (timeout, permissions): the caller warns and goes on.
import { spawnSync } from 'node:child_process';
import { readCache, statKey, writeCache } from './stat-cache';

export const VERSION_TIMEOUT_MS = 3000;
export const DEFAULT_CACHE_DIR = '/run/syncpod';
const CACHE_FILE = 'kubelet-versions.json';

export type BinaryVersion = { ok: true; output: string; cached: boolean } | { ok: false; why: string };

/**
 * `exeLink` is /proc/PID/exe (runs the very binary the process runs, even when the file on disk was
 * replaced); `exePath` is its target, used in the cache key and in messages.
 */
export function kubeletBinaryVersion(
  exeLink: string,
  exePath: string,
  cacheDir = DEFAULT_CACHE_DIR,
  timeoutMs = VERSION_TIMEOUT_MS,
): BinaryVersion {
  const key = statKey(exeLink, exePath);
  const cache = key ? readCache<string>(cacheDir, CACHE_FILE) : {};
  if (key && typeof cache[key] === 'string') return { ok: true, output: cache[key], cached: true };
  const r = spawnSync(exeLink, ['--version'], {
    encoding: 'utf8',
    timeout: timeoutMs,
    env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    if (code === 'ETIMEDOUT') return { ok: false, why: `no answer within ${timeoutMs / 1000}s` };
    if (code === 'EACCES' || code === 'EPERM') return { ok: false, why: 'permission denied (run as root)' };
    if (code === 'ENOENT') return { ok: false, why: 'the process exited' };
    return { ok: false, why: r.error.message };
  }
  if (r.status !== 0)
    return {
      ok: false,
      why: `exited with ${r.status ?? r.signal}${r.stderr.trim() ? `: ${r.stderr.trim().split('\n')[0]}` : ''}`,
    };
  const output = r.stdout.trim();
  if (key) {
    cache[key] = output;
    writeCache(cacheDir, CACHE_FILE, cache);
  }
  return { ok: true, output, cached: false };
}

/** "Kubernetes v1.36.2" -> "v1.36.2"; undefined when the output is not a Kubernetes version line. */
export function parseKubeletVersionOutput(output: string): string | undefined {
  const m = /^Kubernetes (v\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]*)?)$/.exec(output.trim().split('\n')[0].trim());
  return m?.[1];
}
