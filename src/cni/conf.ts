// Network configuration loading, following libcni (conf.go) and kubelet's dockershim CNI plugin:
// files *.conf, *.conflist, *.json of the conf dir in lexical order; the first usable one, or the
// one named by --network. Unusable files are skipped with a warning returned as data.

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CniConfigError } from './errors';
import type { Json, JsonObject, LoadedNetwork, NetworkConfigList, PluginConf } from './types';
import { SUPPORTED_CNI_VERSIONS } from './types';
import { compareVersions, isVersion } from './version';
import { isObj } from '../json-object';

export const DEFAULT_CNI_CONF_DIR = '/etc/cni/net.d';
export const CONF_EXTENSIONS = ['.conf', '.conflist', '.json'] as const;

/** Network names, container ids: an alphanumeric, then alphanumerics, '_', '.', '-' (libcni's rule). */
export const CNI_NAME_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/;

function parseJsonObject(text: string, what: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new CniConfigError(`${what}: invalid JSON: ${(err as Error).message}`);
  }
  if (!isObj<Json>(value)) throw new CniConfigError(`${what}: not a JSON object`);
  return value;
}

const HIGHEST_SUPPORTED = SUPPORTED_CNI_VERSIONS[SUPPORTED_CNI_VERSIONS.length - 1];

/**
 * The protocol version of a list: the highest of `cniVersion` and `cniVersions` that this runtime
 * supports (SPEC "Version selection"); "0.1.0" when neither is given (libcni's default).
 */
function selectVersion(obj: JsonObject, what: string): string {
  const declared = obj.cniVersion;
  if (declared !== undefined && typeof declared !== 'string') {
    throw new CniConfigError(`${what}: "cniVersion" must be a string`);
  }
  const single = declared ?? '';
  if (single !== '' && !isVersion(single)) throw new CniConfigError(`${what}: invalid cniVersion "${single}"`);
  const many = obj.cniVersions;
  if (many === undefined) return single === '' ? '0.1.0' : single;
  if (!Array.isArray(many) || many.some((v) => typeof v !== 'string' || !isVersion(v))) {
    throw new CniConfigError(`${what}: "cniVersions" must be a list of MAJOR.MINOR.PATCH strings`);
  }
  const candidates = [...(many as string[]), ...(single === '' ? [] : [single])].filter(
    (v) => compareVersions(v, HIGHEST_SUPPORTED) <= 0,
  );
  if (candidates.length === 0) {
    return single === '' ? '0.1.0' : single;
  }
  return candidates.sort(compareVersions)[candidates.length - 1];
}

function readBool(obj: JsonObject, key: string, what: string): boolean {
  const v = obj[key];
  if (v === undefined) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && (v.toLowerCase() === 'true' || v.toLowerCase() === 'false')) {
    return v.toLowerCase() === 'true';
  }
  throw new CniConfigError(`${what}: "${key}" must be true or false`);
}

function pluginFrom(raw: Json, what: string): PluginConf {
  if (!isObj<Json>(raw)) throw new CniConfigError(`${what}: plugin entry is not a JSON object`);
  const type = raw.type;
  if (typeof type !== 'string' || type === '') throw new CniConfigError(`${what}: plugin has no "type"`);
  const caps = raw.capabilities;
  const capabilities = isObj<Json>(caps)
    ? Object.keys(caps)
        .filter((k) => caps[k] === true)
        .sort()
    : [];
  return { type, capabilities, raw };
}

function checkName(name: Json | undefined, what: string): string {
  if (typeof name !== 'string' || name === '') throw new CniConfigError(`${what}: no network "name"`);
  if (!CNI_NAME_PATTERN.test(name)) {
    throw new CniConfigError(`${what}: invalid network name "${name}" (letters, digits, '_', '.', '-')`);
  }
  return name;
}

/** Parse a `.conflist` text. Throws CniConfigError (one line) when it cannot be used. */
export function parseConfList(text: string, what = 'config list'): NetworkConfigList {
  const obj = parseJsonObject(text, what);
  const name = checkName(obj.name, what);
  const cniVersion = selectVersion(obj, what);
  const disableCheck = readBool(obj, 'disableCheck', what);
  const plugins = obj.plugins;
  if (plugins === undefined) throw new CniConfigError(`${what}: no "plugins"`);
  if (!Array.isArray(plugins)) throw new CniConfigError(`${what}: "plugins" is not a list`);
  if (plugins.length === 0) throw new CniConfigError(`${what}: no plugins in list`);
  return {
    name,
    cniVersion,
    disableCheck,
    plugins: plugins.map((p, i) => pluginFrom(p, `${what}: plugin ${i}`)),
    bytes: text,
  };
}

/**
 * Parse a single-plugin `.conf`/`.json` text and convert it to a one-plugin list, as libcni's
 * ConfListFromConf does: {name, cniVersion, plugins: [the whole object]}.
 */
export function parseConf(text: string, what = 'config'): NetworkConfigList {
  const obj = parseJsonObject(text, what);
  if (typeof obj.type !== 'string' || obj.type === '') {
    throw new CniConfigError(`${what}: no "type" (perhaps this is a .conflist?)`);
  }
  const name = checkName(obj.name, what);
  const declared = typeof obj.cniVersion === 'string' ? obj.cniVersion : '';
  const listText = JSON.stringify({ name, cniVersion: declared, plugins: [obj] });
  return parseConfList(listText, what);
}

/** Parse a config file's text by its extension. */
export function parseNetworkFile(fileName: string, text: string): NetworkConfigList {
  return fileName.endsWith('.conflist') ? parseConfList(text, fileName) : parseConf(text, fileName);
}

/** The candidate file names of a conf dir, in lexical order. A missing dir gives []. */
export async function listConfFiles(confDir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(confDir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new CniConfigError(`cannot read CNI config dir ${confDir}: ${(err as Error).message}`);
  }
  return entries
    .filter((e) => !e.isDirectory() && CONF_EXTENSIONS.some((ext) => e.name.endsWith(ext)))
    .map((e) => e.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Choose the pod network: the first usable file in lexical order, or, when `networkName` is given,
 * the first usable file whose network has that name.
 */
export async function loadNetworkConfig(confDir: string, networkName?: string): Promise<LoadedNetwork> {
  const files = await listConfFiles(confDir);
  const warnings: string[] = [];
  for (const fileName of files) {
    const file = join(confDir, fileName);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      warnings.push(`skipping CNI config ${file}: ${(err as Error).message}`);
      continue;
    }
    let network: NetworkConfigList;
    try {
      network = parseNetworkFile(fileName, text);
    } catch (err) {
      warnings.push(`skipping CNI config ${(err as Error).message.replace(fileName, file)}`);
      continue;
    }
    if (networkName !== undefined && network.name !== networkName) continue;
    return { network, file, warnings };
  }
  if (networkName !== undefined) {
    throw new CniConfigError(`no CNI network named "${networkName}" in ${confDir}`);
  }
  throw new CniConfigError(
    files.length === 0
      ? `no CNI network config found in ${confDir} (*.conf, *.conflist, *.json)`
      : `no usable CNI network config in ${confDir}: ${warnings.length} skipped: ${warnings.map((w) => w.replace(/^skipping CNI config /, '')).join('; ')}`,
  );
}
