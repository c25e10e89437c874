// The result cache, in libcni's on-disk format so that a later DEL by syncpod, containerd or cnitool
// finds what it needs: <cacheDir>/results/<network>-<containerID>-<ifname>, JSON with kind
// "cniCacheV1", containerId, config (base64 of the list bytes), ifName, networkName, netns,
// cniArgs ([[k, v], ...]), capabilityArgs and result. Directory 0700, file 0600, as libcni writes.

import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CniConfigError } from './errors';
import type { Json, JsonObject } from './types';
import { isObj } from '../json-object';

export const DEFAULT_CNI_CACHE_DIR = '/var/lib/cni';
export const CACHE_KIND = 'cniCacheV1';

export interface CacheEntry {
  containerId: string;
  ifName: string;
  networkName: string;
  netns: string;
  /** The network list JSON text (decoded from base64). */
  config: string;
  cniArgs: [string, string][];
  capabilityArgs: JsonObject;
  /** Absent in entries whose result could not be recorded. */
  result?: JsonObject;
}

export function cacheFilePath(cacheDir: string, network: string, containerId: string, ifname: string): string {
  return join(cacheDir, 'results', `${network}-${containerId}-${ifname}`);
}

/** Serialise an entry exactly as libcni's cachedInfo (omitempty fields left out when empty). */
export function encodeCacheEntry(entry: CacheEntry): string {
  const out: JsonObject = {
    kind: CACHE_KIND,
    containerId: entry.containerId,
    config: Buffer.from(entry.config, 'utf8').toString('base64'),
    ifName: entry.ifName,
    networkName: entry.networkName,
  };
  if (entry.netns !== '') out.netns = entry.netns;
  if (entry.cniArgs.length > 0) out.cniArgs = entry.cniArgs;
  if (Object.keys(entry.capabilityArgs).length > 0) out.capabilityArgs = entry.capabilityArgs;
  if (entry.result !== undefined) out.result = entry.result;
  return JSON.stringify(out);
}

/** Parse a cache file's text. Throws CniConfigError naming the file when it is not a cniCacheV1 entry. */
export function decodeCacheEntry(text: string, file: string): CacheEntry {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    throw new CniConfigError(`CNI cache entry ${file} is not JSON: ${(err as Error).message}`);
  }
  if (!isObj<Json>(v) || v.kind !== CACHE_KIND) {
    throw new CniConfigError(`CNI cache entry ${file} is not of kind ${CACHE_KIND}`);
  }
  const text64 = typeof v.config === 'string' ? v.config : '';
  const cniArgs: [string, string][] = Array.isArray(v.cniArgs)
    ? v.cniArgs.filter(
        (p): p is [string, string] => Array.isArray(p) && p.length === 2 && p.every((x: Json) => typeof x === 'string'),
      )
    : [];
  const entry: CacheEntry = {
    containerId: typeof v.containerId === 'string' ? v.containerId : '',
    ifName: typeof v.ifName === 'string' ? v.ifName : '',
    networkName: typeof v.networkName === 'string' ? v.networkName : '',
    netns: typeof v.netns === 'string' ? v.netns : '',
    config: Buffer.from(text64, 'base64').toString('utf8'),
    cniArgs,
    capabilityArgs: isObj<Json>(v.capabilityArgs) ? v.capabilityArgs : {},
  };
  if (isObj<Json>(v.result)) entry.result = v.result;
  return entry;
}

export async function writeCacheEntry(cacheDir: string, entry: CacheEntry): Promise<string> {
  const file = cacheFilePath(cacheDir, entry.networkName, entry.containerId, entry.ifName);
  await mkdir(join(cacheDir, 'results'), { recursive: true, mode: 0o700 });
  await writeFile(file, encodeCacheEntry(entry), { mode: 0o600 });
  return file;
}

/** The entry for one attachment, or undefined when there is no file. */
export async function readCacheEntry(
  cacheDir: string,
  network: string,
  containerId: string,
  ifname: string,
): Promise<CacheEntry | undefined> {
  const file = cacheFilePath(cacheDir, network, containerId, ifname);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CniConfigError(`cannot read CNI cache entry ${file}: ${(err as Error).message}`);
  }
  return decodeCacheEntry(text, file);
}

/**
 * Every cached attachment of a container on one interface, whatever its network, sorted by file name
 * (like libcni's GetCachedAttachments, additionally filtered by ifname). Unreadable entries are skipped.
 */
export async function findCacheEntries(cacheDir: string, containerId: string, ifname: string): Promise<CacheEntry[]> {
  const dir = join(cacheDir, 'results');
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new CniConfigError(`cannot read CNI cache dir ${dir}: ${(err as Error).message}`);
  }
  const suffix = `-${containerId}-${ifname}`;
  const out: CacheEntry[] = [];
  for (const name of names) {
    if (!name.endsWith(suffix) || name.length === suffix.length) continue;
    try {
      const entry = decodeCacheEntry(await readFile(join(dir, name), 'utf8'), join(dir, name));
      if (entry.containerId === containerId && entry.ifName === ifname && entry.networkName !== '') out.push(entry);
    } catch {}
  }
  return out;
}

export async function removeCacheEntry(
  cacheDir: string,
  network: string,
  containerId: string,
  ifname: string,
): Promise<void> {
  await rm(cacheFilePath(cacheDir, network, containerId, ifname), { force: true });
}
