// The operator's data for configMap, secret and projected volumes: `--configmap [NS/]NAME=DIR`,
// `--secret [NS/]NAME=DIR` (one regular file per key, as `kubectl create configmap NAME
// --from-file=DIR` reads a directory), `--service-account-token [NS/]NAME=FILE` and
// `--skip-volume NAME`. Read once per invocation, refused with one line naming the flag; the bytes
// are never printed. The file reading comes in as an interface.
import { SyncpodError, systemErrorText } from '../errors';
import { NO_VOLUME_DATA, type VolumeData } from '../kubelet/volumes';

/** The flags as commander collects them. */
export interface VolumeFlags {
  configmap?: string[];
  secret?: string[];
  serviceAccountToken?: string[];
  skipVolume?: string[];
}

export interface VolumeDataReader {
  /** A directory's entries: name and whether it is a regular file (symlinks are not followed). */
  readDir(dir: string): Array<{ name: string; regular: boolean }>;
  /** A file's bytes (symlinks followed, as kubectl reads --from-file). */
  readFile(path: string): Uint8Array;
}

/** The API server's limit on a ConfigMap's or Secret's data (1 MiB). */
export const MAX_OBJECT_BYTES = 1024 * 1024;

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** IsConfigMapKey: letters, digits, '-', '_', '.'; not '.' or '..'. */
const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;

/** `[NAMESPACE/]NAME=PATH`, the name checked as the API checks object names. */
function parseRef(flag: string, value: string): { key: string; path: string } {
  const eq = value.indexOf('=');
  if (eq <= 0 || eq === value.length - 1)
    throw new SyncpodError(
      `${flag} ${value}: expected [NAMESPACE/]NAME=${flag === '--service-account-token' ? 'FILE' : 'DIR'}`,
    );
  const ref = value.slice(0, eq);
  const path = value.slice(eq + 1);
  const parts = ref.split('/');
  if (parts.length > 2) throw new SyncpodError(`${flag} ${value}: expected [NAMESPACE/]NAME before '='`);
  const name = parts[parts.length - 1]!;
  if (parts.length === 2 && (!DNS_LABEL.test(parts[0]!) || parts[0]!.length > 63))
    throw new SyncpodError(`${flag} ${value}: namespace ${JSON.stringify(parts[0])} is not a valid namespace name`);
  if (!DNS_SUBDOMAIN.test(name) || name.length > 253)
    throw new SyncpodError(`${flag} ${value}: ${JSON.stringify(name)} is not a valid object name`);
  return { key: ref, path };
}

function readObjectDir(flag: string, value: string, dir: string, reader: VolumeDataReader): Record<string, Uint8Array> {
  let entries: Array<{ name: string; regular: boolean }>;
  try {
    entries = reader.readDir(dir);
  } catch (err) {
    throw new SyncpodError(`${flag} ${value}: ${systemErrorText(err)}`);
  }
  const out: Record<string, Uint8Array> = {};
  let total = 0;
  for (const e of [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    // As kubectl: only regular files become keys; subdirectories, links and devices are left out.
    if (!e.regular) continue;
    if (!CONFIG_KEY.test(e.name) || e.name === '.' || e.name === '..' || e.name.length > 253)
      throw new SyncpodError(`${flag} ${value}: file name ${JSON.stringify(e.name)} is not a valid key`);
    let data: Uint8Array;
    try {
      data = reader.readFile(`${dir.replace(/\/+$/, '')}/${e.name}`);
    } catch (err) {
      throw new SyncpodError(`${flag} ${value}: ${e.name}: ${systemErrorText(err)}`);
    }
    total += data.length;
    if (total > MAX_OBJECT_BYTES)
      throw new SyncpodError(`${flag} ${value}: the files hold more than ${MAX_OBJECT_BYTES} bytes, the API's limit`);
    out[e.name] = data;
  }
  return out;
}

/** Reads every given object once; a repeated NAME is refused (which one was meant?). */
export function readVolumeData(flags: VolumeFlags, reader: VolumeDataReader): VolumeData {
  const none = !flags.configmap?.length && !flags.secret?.length && !flags.serviceAccountToken?.length;
  if (none && !flags.skipVolume?.length) return NO_VOLUME_DATA;
  const objects = (flag: string, values: string[] | undefined) => {
    const out: Record<string, Record<string, Uint8Array>> = {};
    for (const v of values ?? []) {
      const { key, path } = parseRef(flag, v);
      if (out[key] !== undefined) throw new SyncpodError(`${flag} ${key} is given twice`);
      out[key] = readObjectDir(flag, v, path, reader);
    }
    return out;
  };
  const tokens: Record<string, Uint8Array> = {};
  for (const v of flags.serviceAccountToken ?? []) {
    const { key, path } = parseRef('--service-account-token', v);
    if (tokens[key] !== undefined) throw new SyncpodError(`--service-account-token ${key} is given twice`);
    let data: Uint8Array;
    try {
      data = reader.readFile(path);
    } catch (err) {
      throw new SyncpodError(`--service-account-token ${v}: ${systemErrorText(err)}`);
    }
    if (data.length > MAX_OBJECT_BYTES)
      throw new SyncpodError(`--service-account-token ${v}: more than ${MAX_OBJECT_BYTES} bytes`);
    tokens[key] = data;
  }
  const skip = (flags.skipVolume ?? []).map((s) => s.trim());
  for (const s of skip) if (s === '') throw new SyncpodError('--skip-volume needs a volume name');
  return {
    configMaps: objects('--configmap', flags.configmap),
    secrets: objects('--secret', flags.secret),
    serviceAccountTokens: tokens,
    skip,
  };
}

/**
 * The given ConfigMaps and Secrets of the pod's namespace as env values (configMapKeyRef,
 * secretKeyRef, envFrom), name -> key -> text: one source of object data for volumes and env.
 */
export function envValuesOf(
  data: VolumeData,
  namespace: string,
): { configMaps: Record<string, Record<string, string>>; secrets: Record<string, Record<string, string>> } {
  const text = new TextDecoder();
  const pick = (m: VolumeData['configMaps']) => {
    const out: Record<string, Record<string, string>> = {};
    // Unqualified names first, so NAMESPACE/NAME for this namespace wins.
    const keys = Object.keys(m).sort((a, b) => Number(a.includes('/')) - Number(b.includes('/')));
    for (const k of keys) {
      const slash = k.indexOf('/');
      if (slash >= 0 && k.slice(0, slash) !== namespace) continue;
      const name = slash >= 0 ? k.slice(slash + 1) : k;
      out[name] = Object.fromEntries(Object.entries(m[k]!).map(([key, v]) => [key, text.decode(v)]));
    }
    return out;
  };
  return { configMaps: pick(data.configMaps), secrets: pick(data.secrets) };
}
