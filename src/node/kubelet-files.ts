// Reads the kubelet's --config file and its --config-dir drop-ins from disk, as the kubelet sees
// them: relative paths start at the kubelet's working directory, and everything is read under the
// kubelet's root (/proc/PID/root), so a kubelet in another mount namespace is read correctly.
import * as fs from 'node:fs';
import { SyncpodError } from '../errors';
import { parseConfigDocument, type ConfigDocument, type KubeletConfigInputs } from './kubelet-config';
import type { KubeletCommandLine } from './kubelet-flags';
import { readCache, statKey, writeCache } from './stat-cache';

export interface KubeletView {
  /** The kubelet's working directory (absolute, as the kubelet sees it). */
  cwd: string;
  /** Prefix that maps the kubelet's paths to ours ('' when we share its mount namespace). */
  rootPrefix: string;
  /** Where parsed config files are cached (stat-cache.ts); absent: parse every time. */
  cacheDir?: string;
}

const CACHE_FILE = 'kubelet-configs.json';

function absolute(path: string, cwd: string): string {
  if (path.startsWith('/')) return path;
  return `${cwd.replace(/\/+$/, '')}/${path}`.replace(/\/\.\//g, '/');
}

function fsProblem(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory';
  return (err as Error).message;
}

function readText(view: KubeletView, path: string): string {
  try {
    return fs.readFileSync(view.rootPrefix + path, 'utf8');
  } catch (err) {
    throw new SyncpodError(`kubelet config ${path}: ${fsProblem(err)}`);
  }
}

/**
 * The drop-in files kubelet merges: every file whose name ends in `.conf` under the directory,
 * subdirectories included, in filepath.WalkDir order (entries sorted by name, depth first).
 */
export function listDropIns(view: KubeletView, dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(view.rootPrefix + d, { withFileTypes: true });
    } catch (err) {
      throw new SyncpodError(`kubelet --config-dir ${d}: ${fsProblem(err)}`);
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const p = `${d.replace(/\/+$/, '')}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.conf')) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/**
 * Reads and parses the kubelet's configuration files named on its command line. A file whose
 * parsed and checked document is in the cache (same path, inode, size, mtime, ctime) is not read
 * again, so the YAML parser is not even loaded on the next run.
 */
export function loadKubeletConfigFiles(
  cl: KubeletCommandLine,
  view: KubeletView,
  parseYaml: (text: string) => unknown,
): KubeletConfigInputs {
  const cache = view.cacheDir ? readCache<ConfigDocument>(view.cacheDir, CACHE_FILE) : {};
  let dirty = false;
  const load = (path: string): ConfigDocument => {
    const key = view.cacheDir ? statKey(view.rootPrefix + path, path) : undefined;
    if (key && cache[key]) return cache[key];
    const doc = parseConfigDocument({ path, text: readText(view, path) }, parseYaml);
    if (key) {
      cache[key] = doc;
      dirty = true;
    }
    return doc;
  };
  let configFile: { path: string; doc: ConfigDocument } | undefined;
  if (cl.configFile) {
    const path = absolute(cl.configFile, view.cwd);
    configFile = { path, doc: load(path) };
  }
  const dropIns: Array<{ path: string; doc: ConfigDocument }> = [];
  if (cl.configDir) {
    for (const path of listDropIns(view, absolute(cl.configDir, view.cwd))) dropIns.push({ path, doc: load(path) });
  }
  if (dirty && view.cacheDir) writeCache(view.cacheDir, CACHE_FILE, cache);
  return { commandLine: cl, configFile, dropIns };
}
