// The volume plugins syncpod can provide and what each one would put on disk, mirroring kubelet
// 1.33 (pkg/volume/configmap, secret, projected, downwardapi MakePayload/CollectData;
// pkg/volume/util/atomic_writer.go validatePath; pkg/volume/emptydir calculateEmptyDirMemorySize).
// Pure: the data of ConfigMaps, Secrets and service-account tokens (which syncpod cannot read from
// an API server) comes in as VolumeData; the executor writes what this returns.

import type { Pod, Volume } from './api-types';
import { howToGiveInParens, howToGiveInput, SyncpodError } from '../errors';
import { parseQuantity, toBytes, toMilliCPU } from './quantity';
import { getPodQOS, podResourceTotals } from './resources';
import { formatMap } from './env';
import { VOLUME_SOURCE_KEYS } from './volume-sources';

/** Data the operator pointed at: objects by `namespace/name` or `name` (any namespace). */
export interface VolumeData {
  /** ConfigMap -> key -> bytes (`--configmap NAME=DIR`: one file per key). */
  configMaps: Readonly<Record<string, Readonly<Record<string, Uint8Array>>>>;
  /** Secret -> key -> bytes (`--secret NAME=DIR`). */
  secrets: Readonly<Record<string, Readonly<Record<string, Uint8Array>>>>;
  /** Service account -> token bytes (`--service-account-token NAME=FILE`). */
  serviceAccountTokens: Readonly<Record<string, Uint8Array>>;
  /** Volume names (a `*` matches any run of characters) not to provide (`--skip-volume`). */
  skip: readonly string[];
}

export const NO_VOLUME_DATA: VolumeData = { configMaps: {}, secrets: {}, serviceAccountTokens: {}, skip: [] };

/** The volume's source field (a volume without one is an emptyDir, as the API server defaults it). */
export function volumeType(v: Volume): string {
  const rec = v as unknown as Record<string, unknown>;
  return VOLUME_SOURCE_KEYS.find((k) => rec[k] !== undefined && rec[k] !== null) ?? 'emptyDir';
}

/** How syncpod provides a volume (the plan's vocabulary). */
export type VolumeProvision =
  | 'host-path'
  | 'empty-dir'
  /** emptyDir medium Memory: a tmpfs sized as kubelet sizes it. */
  | 'tmpfs'
  /** configMap, secret, projected, downwardAPI: files written with kubelet's atomic writer layout. */
  | 'files'
  /** An image volume (ImageVolume gate): the runtime mounts the image. */
  | 'image'
  /** --skip-volume: not set up and not mounted into any container. */
  | 'skipped'
  /** syncpod cannot provide it: the pod is blocked. */
  | 'unsupported';

/** One volume of the pod as the plan reports it. */
export interface VolumeVerdict {
  name: string;
  /** The source field: hostPath, emptyDir, configMap, secret, projected, persistentVolumeClaim, … */
  type: string;
  provision: VolumeProvision;
  /** What is written or mounted, or why it cannot be (one sentence; never a Secret's value). */
  detail: string;
}

/** Where a volume plugin keeps a pod's volume: `<podDir>/volumes/kubernetes.io~<plugin>/<name>`. */
export const PLUGIN_DIRS: Readonly<Record<string, string>> = {
  emptyDir: 'kubernetes.io~empty-dir',
  configMap: 'kubernetes.io~configmap',
  secret: 'kubernetes.io~secret',
  projected: 'kubernetes.io~projected',
  downwardAPI: 'kubernetes.io~downward-api',
};

/** Plugins whose wrapped emptyDir is memory-backed (secret, projected, downwardAPI); configMap's is on disk. */
export function onTmpfs(type: string): boolean {
  return type === 'secret' || type === 'projected' || type === 'downwardAPI';
}

/** `*` matches any run of characters; everything else literally. */
function globMatch(pattern: string, name: string): boolean {
  const re = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`);
  return re.test(name);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

export function isSkipped(data: VolumeData, volumeName: string): boolean {
  return data.skip.some((p) => globMatch(p, volumeName));
}

function lookup<T>(map: Readonly<Record<string, T>>, namespace: string, name: string): T | undefined {
  return map[`${namespace}/${name}`] ?? map[name];
}

/** One file of a volume's payload (kubelet's FileProjection). */
export interface FileProjection {
  /** Relative path inside the volume (validated and cleaned). */
  path: string;
  data: Uint8Array;
  /** Permission bits. */
  mode: number;
}

interface KeyToPath {
  key: string;
  path: string;
  mode?: number;
}

const utf8 = new TextEncoder();

/** What a volume's payload needs beyond the pod and the data. */
export interface PayloadInputs {
  /** Node allocatable cpu/memory/ephemeral-storage for resourceFieldRef of a container without that limit. */
  nodeAllocatable?: Readonly<Record<string, string>>;
}

/** configmap/secret MakePayload: every key with defaultMode, or the items' keys at their paths and modes. */
function objectPayload(
  kind: 'configmap' | 'secret',
  object: Readonly<Record<string, Uint8Array>>,
  items: readonly KeyToPath[] | undefined,
  defaultMode: number,
  optional: boolean,
): Map<string, FileProjection> {
  const out = new Map<string, FileProjection>();
  if (!items || items.length === 0) {
    for (const key of Object.keys(object).sort()) out.set(key, { path: key, data: object[key]!, mode: defaultMode });
    return out;
  }
  for (const it of items) {
    const data = object[it.key];
    if (data === undefined) {
      if (optional) continue;
      throw new SyncpodError(
        `${kind} references non-existent ${kind === 'secret' ? 'secret' : 'config'} key: ${it.key}`,
      );
    }
    out.set(it.path, { path: it.path, data, mode: it.mode ?? defaultMode });
  }
  return out;
}

/** fieldpath.ExtractFieldPathAsString: the pod fields a downwardAPI volume file may name. */
export function downwardFieldValue(pod: Pod, fieldPath: string): string {
  const sub = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(fieldPath);
  if (sub) {
    const map = (sub[1] === 'labels' ? pod.metadata?.labels : pod.metadata?.annotations) ?? {};
    return map[sub[2]!] ?? '';
  }
  switch (fieldPath) {
    case 'metadata.annotations':
      return formatMap(pod.metadata?.annotations ?? {});
    case 'metadata.labels':
      return formatMap(pod.metadata?.labels ?? {});
    case 'metadata.name':
      return pod.metadata?.name ?? '';
    case 'metadata.namespace':
      return pod.metadata?.namespace ?? '';
    case 'metadata.uid':
      return pod.metadata?.uid ?? '';
  }
  throw new SyncpodError(`unsupported fieldPath: ${fieldPath}`);
}

interface ResourceFieldRef {
  containerName?: string;
  resource: string;
  divisor?: string | number;
}

/** resource.ExtractResourceValueByContainerNameAndNodeAllocatable for a downwardAPI volume file. */
export function downwardResourceValue(pod: Pod, ref: ResourceFieldRef, inputs: PayloadInputs): string {
  const all = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  const c = all.find((x) => x.name === ref.containerName);
  if (!c) throw new SyncpodError(`resourceFieldRef: container ${ref.containerName ?? ''} not found in the pod`);
  const m = /^(requests|limits)\.(cpu|memory|ephemeral-storage|hugepages-.+)$/.exec(ref.resource);
  if (!m) throw new SyncpodError(`unsupported container resource : ${ref.resource}`);
  const kind = m[1] as 'requests' | 'limits';
  const name = m[2]!;
  let raw: unknown = c.resources?.[kind]?.[name];
  if (raw === undefined && kind === 'limits' && !name.startsWith('hugepages-')) {
    raw = inputs.nodeAllocatable?.[name];
    if (raw === undefined)
      throw new SyncpodError(
        `resourceFieldRef ${ref.resource}: container ${c.name} sets no limit, so kubelet uses the node's allocatable ${name} (not known)`,
      );
  }
  const q = parseQuantity((raw ?? 0) as string | number);
  const divText = ref.divisor === undefined || ref.divisor === '' || String(ref.divisor) === '0' ? '1' : ref.divisor;
  const d = parseQuantity(divText);
  if (name === 'cpu') return String(Math.ceil(toMilliCPU(q) / toMilliCPU(d)));
  return String(Math.ceil(toBytes(q) / toBytes(d)));
}

interface DownwardFile {
  path: string;
  mode?: number;
  fieldRef?: { fieldPath: string };
  resourceFieldRef?: ResourceFieldRef;
}

/** downwardapi.CollectData. */
function downwardPayload(
  pod: Pod,
  items: readonly DownwardFile[],
  defaultMode: number,
  inputs: PayloadInputs,
): Map<string, FileProjection> {
  const out = new Map<string, FileProjection>();
  for (const f of items) {
    const path = cleanRelative(f.path);
    let value = '';
    if (f.fieldRef) value = downwardFieldValue(pod, f.fieldRef.fieldPath);
    else if (f.resourceFieldRef) value = downwardResourceValue(pod, f.resourceFieldRef, inputs);
    out.set(path, { path, data: utf8.encode(value), mode: f.mode ?? defaultMode });
  }
  return out;
}

/** filepath.Clean of a relative path. */
function cleanRelative(p: string): string {
  const parts: string[] = [];
  for (const s of p.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..' && parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
    else parts.push(s);
  }
  return parts.join('/') || '.';
}

/** The pod's fsGroup: the projected token is then 0600 (kubelet then relies on SetVolumeOwnership). */
function hasFsGroup(pod: Pod): boolean {
  const fsGroup = pod.spec?.securityContext?.fsGroup;
  return fsGroup !== undefined && fsGroup !== null;
}

function sourceOptional(o: { optional?: boolean } | undefined): boolean {
  return o?.optional === true;
}

/** The name a volume's data is looked up under, in words, for reasons. */
function objectRef(kind: 'ConfigMap' | 'Secret' | 'ServiceAccount', ns: string, name: string): string {
  return `${kind} ${ns}/${name}`;
}

/**
 * The files of a configMap, secret, downwardAPI or projected volume (kubelet's payload), or an
 * error saying what is missing. Sorted by path; paths validated as the atomic writer does.
 */
export function volumePayload(pod: Pod, v: Volume, data: VolumeData, inputs: PayloadInputs = {}): FileProjection[] {
  const ns = pod.metadata?.namespace ?? 'default';
  const type = volumeType(v);
  let payload: Map<string, FileProjection>;
  if (type === 'configMap') {
    const src = v.configMap!;
    const name = src.name ?? '';
    const obj = lookup(data.configMaps, ns, name);
    if (obj === undefined && !sourceOptional(src)) throw new SyncpodError(notGiven('ConfigMap', ns, name, 'configmap'));
    payload = objectPayload('configmap', obj ?? {}, src.items, src.defaultMode ?? 0o644, sourceOptional(src));
  } else if (type === 'secret') {
    const src = v.secret!;
    const name = src.secretName ?? '';
    const obj = lookup(data.secrets, ns, name);
    if (obj === undefined && !sourceOptional(src)) throw new SyncpodError(notGiven('Secret', ns, name, 'secret'));
    payload = objectPayload('secret', obj ?? {}, src.items, src.defaultMode ?? 0o644, sourceOptional(src));
  } else if (type === 'downwardAPI') {
    const src = v.downwardAPI!;
    payload = downwardPayload(pod, (src.items ?? []) as DownwardFile[], src.defaultMode ?? 0o644, inputs);
  } else if (type === 'projected') {
    payload = projectedPayload(pod, v, data, inputs);
  } else {
    throw new SyncpodError(`volume ${v.name}: type ${type} has no files`);
  }
  const files = [...payload.values()].map((f) => ({ ...f, path: validatePayloadPath(f.path) }));
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** projected collectData: every source in order, later paths replacing earlier ones; errors joined. */
function projectedPayload(pod: Pod, v: Volume, data: VolumeData, inputs: PayloadInputs): Map<string, FileProjection> {
  const ns = pod.metadata?.namespace ?? 'default';
  const src = v.projected!;
  const defaultMode = src.defaultMode ?? 0o644;
  const out = new Map<string, FileProjection>();
  const errors: string[] = [];
  const merge = (m: Map<string, FileProjection>) => {
    for (const [k, f] of m) out.set(k, f);
  };
  for (const s of src.sources ?? []) {
    const rec = s as Record<string, unknown>;
    try {
      if (s.secret) {
        const name = s.secret.name ?? '';
        const obj = lookup(data.secrets, ns, name);
        if (obj === undefined && !sourceOptional(s.secret))
          throw new SyncpodError(notGiven('Secret', ns, name, 'secret'));
        merge(objectPayload('secret', obj ?? {}, s.secret.items, defaultMode, sourceOptional(s.secret)));
      } else if (s.configMap) {
        const name = s.configMap.name ?? '';
        const obj = lookup(data.configMaps, ns, name);
        if (obj === undefined && !sourceOptional(s.configMap))
          throw new SyncpodError(notGiven('ConfigMap', ns, name, 'configmap'));
        merge(objectPayload('configmap', obj ?? {}, s.configMap.items, defaultMode, sourceOptional(s.configMap)));
      } else if (s.downwardAPI) {
        merge(downwardPayload(pod, (s.downwardAPI.items ?? []) as DownwardFile[], defaultMode, inputs));
      } else if (s.serviceAccountToken) {
        const sa = pod.spec?.serviceAccountName || 'default';
        const token = lookup(data.serviceAccountTokens, ns, sa);
        if (token === undefined)
          throw new SyncpodError(
            `syncpod cannot request a token for ${objectRef('ServiceAccount', ns, sa)}; give one${howToGiveInParens('service-account-token', sa)}`,
          );
        const path = s.serviceAccountToken.path;
        out.set(path, { path, data: token, mode: hasFsGroup(pod) ? 0o600 : defaultMode });
      } else if (rec.clusterTrustBundle !== undefined) {
        throw new SyncpodError('a clusterTrustBundle source needs the API server');
      } else if (rec.podCertificate !== undefined) {
        throw new SyncpodError('a podCertificate source needs the API server');
      }
    } catch (err) {
      errors.push(err instanceof Error ? err.message : String(err));
    }
  }
  if (errors.length === 1) throw new SyncpodError(errors[0]!);
  if (errors.length > 1) throw new SyncpodError(`[${errors.join(', ')}]`);
  return out;
}

const MAX_PATH_LENGTH = 4096;
const MAX_FILE_NAME_LENGTH = 255;

/** atomic_writer validatePath, then filepath.Clean: the path as written inside the volume. */
export function validatePayloadPath(p: string): string {
  if (p === '') throw new SyncpodError(`invalid path: must not be empty: ""`);
  if (p.startsWith('/')) throw new SyncpodError(`invalid path: must be relative path: ${p}`);
  if (p.length > MAX_PATH_LENGTH)
    throw new SyncpodError(`invalid path: must be less than or equal to ${MAX_PATH_LENGTH} characters`);
  const items = p.split('/');
  for (const it of items) {
    if (it === '..') throw new SyncpodError(`invalid path: must not contain '..': ${p}`);
    if (it.length > MAX_FILE_NAME_LENGTH)
      throw new SyncpodError(
        `invalid path: filenames must be less than or equal to ${MAX_FILE_NAME_LENGTH} characters`,
      );
  }
  if (items[0]!.startsWith('..') && items[0]!.length > 2)
    throw new SyncpodError(`invalid path: must not start with '..': ${p}`);
  if (p.includes('\0')) throw new SyncpodError('invalid path: must not contain NUL');
  return cleanRelative(p);
}

/** The atomic writer's data directory symlink. */
export const DATA_DIR_NAME = '..data';

/** newTimestampDir's name: `..` + UTC time as 2006_01_02_15_04_05. + os.MkdirTemp's random digits. */
export function timestampDirName(nowMs: number, random: string): string {
  const d = new Date(nowMs);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const stamp = `${p(d.getUTCFullYear(), 4)}_${p(d.getUTCMonth() + 1)}_${p(d.getUTCDate())}_${p(d.getUTCHours())}_${p(d.getUTCMinutes())}_${p(d.getUTCSeconds())}`;
  return `..${stamp}.${random}`;
}

/** The user-visible entries of a payload: the first element of every path, each a symlink into ..data. */
export function userVisibleNames(files: readonly Pick<FileProjection, 'path'>[]): string[] {
  return [...new Set(files.map((f) => f.path.split('/')[0]!))].sort();
}

/**
 * ResourceConfigForPod's memory: the pod's memory limit when every container declares one (and the
 * pod is not BestEffort), overhead included; undefined otherwise.
 */
export function podMemoryLimitBytes(pod: Pod): number | undefined {
  const all = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  const declared = all.every((c) => {
    const l = c.resources?.limits?.memory;
    return l !== undefined && toBytes(parseQuantity(l as string | number)) !== 0;
  });
  if (getPodQOS(pod) === 'BestEffort' || !declared) return undefined;
  const total = podResourceTotals(pod, 'limits').get('memory') ?? 0n;
  const overhead = pod.spec?.overhead?.memory;
  const bytes =
    toBytes({ mantissa: total, exponent: -3, format: 'DecimalSI' }) +
    (overhead !== undefined ? toBytes(parseQuantity(overhead)) : 0);
  return bytes;
}

/**
 * calculateEmptyDirMemorySize: the tmpfs size of a memory-backed emptyDir (and of the emptyDir that
 * secret, projected and downwardAPI volumes wrap): the node's allocatable memory, lowered to the pod's
 * memory limit and then to sizeLimit when those are smaller; 0 (the kernel's default, half of RAM)
 * when SizeMemoryBackedVolumes is off.
 */
export function emptyDirMemorySize(
  pod: Pod,
  sizeLimit: string | number | undefined,
  nodeAllocatableMemory: number,
  sizeMemoryBackedVolumes: boolean,
): number {
  if (!sizeMemoryBackedVolumes) return 0;
  let size = nodeAllocatableMemory;
  const podLimit = podMemoryLimitBytes(pod);
  if (podLimit !== undefined && podLimit > 0 && podLimit <= size) size = podLimit;
  if (sizeLimit !== undefined) {
    const v = toBytes(parseQuantity(sizeLimit));
    if (v > 0 && v <= size) size = v;
  }
  return size;
}

/** Whether this kubelet has SizeMemoryBackedVolumes on: a gate until 1.34 (default on from 1.22), always from 1.35. */
export function sizeMemoryBackedVolumes(minor: number, gates: Readonly<Record<string, boolean | undefined>>): boolean {
  if (minor >= 35) return true;
  return gates.SizeMemoryBackedVolumes !== false;
}

/** tmpfs noswap: kubelet 1.31+ adds it when the kernel is 6.4 or newer (or a test mount takes it). */
export function tmpfsNoswap(minor: number, kernelSupportsNoswap: boolean): boolean {
  return minor >= 31 && kernelSupportsNoswap;
}

/**
 * What syncpod does with each volume of the pod, in spec order: provided (and how), skipped by the
 * operator, or unsupported (which blocks the pod before anything is created).
 */
export function classifyVolumes(
  pod: Pod,
  data: VolumeData,
  o: { imageVolume: boolean; inputs?: PayloadInputs },
): VolumeVerdict[] {
  return (pod.spec?.volumes ?? []).map((v) => classifyVolume(pod, v, data, o));
}

function classifyVolume(
  pod: Pod,
  v: Volume,
  data: VolumeData,
  o: { imageVolume: boolean; inputs?: PayloadInputs },
): VolumeVerdict {
  const type = volumeType(v);
  const verdict = (provision: VolumeProvision, detail: string): VolumeVerdict => ({
    name: v.name,
    type,
    provision,
    detail,
  });
  if (isSkipped(data, v.name))
    return verdict('skipped', `${howToGiveInput('skip-volume') ?? 'skipped'}: not set up, and no container mounts it`);
  switch (type) {
    case 'hostPath':
      return verdict('host-path', `the node's ${v.hostPath?.path ?? ''}`);
    case 'emptyDir': {
      const medium = v.emptyDir?.medium ?? '';
      if (medium === '') return verdict('empty-dir', 'a directory under the pod directory');
      if (medium === 'Memory') return verdict('tmpfs', 'a tmpfs under the pod directory, sized as kubelet sizes it');
      return verdict('unsupported', `emptyDir medium ${medium} is not supported by syncpod (only "" and Memory)`);
    }
    case 'image':
      return o.imageVolume
        ? verdict('image', `the image ${v.image?.reference ?? ''}, mounted by the runtime`)
        : verdict('unsupported', 'an image volume needs the ImageVolume feature gate');
    case 'configMap':
    case 'secret':
    case 'downwardAPI':
    case 'projected': {
      try {
        // Without node facts (plan), a resourceFieldRef falling back to node allocatable is not a refusal.
        const files = volumePayload(pod, v, data, o.inputs ?? { nodeAllocatable: { cpu: '1', memory: '1' } });
        const where = onTmpfs(type) ? 'on a tmpfs' : 'on disk';
        return verdict('files', `${files.length} file(s) written ${where} as kubelet's atomic writer lays them out`);
      } catch (err) {
        return verdict('unsupported', err instanceof Error ? err.message : String(err));
      }
    }
    case 'persistentVolumeClaim':
      return verdict(
        'unsupported',
        `persistentVolumeClaim ${v.persistentVolumeClaim?.claimName ?? ''} needs the API server and a volume attach and mount, which syncpod does not do${howToGiveInParens('skip-volume', v.name)}`,
      );
    default:
      return verdict(
        'unsupported',
        `volume type ${type} is not supported by syncpod${howToGiveInParens('skip-volume', v.name)}`,
      );
  }
}

/** The sentence a blocked pod's plan carries: every unsupported volume, in spec order; null when none. */
export function volumesBlocked(verdicts: readonly VolumeVerdict[]): string | null {
  const bad = verdicts.filter((v) => v.provision === 'unsupported');
  if (bad.length === 0) return null;
  return `cannot provide ${bad.length === 1 ? 'volume' : 'volumes'} ${bad.map((b) => `${b.name} (${b.type}): ${b.detail}`).join('; ')}`;
}

/** An object a volume needs that the user did not give (the user says how: src/cli/input-flags.ts). */
function notGiven(kind: 'ConfigMap' | 'Secret', ns: string, name: string, input: 'configmap' | 'secret'): string {
  return `${objectRef(kind, ns, name)} was not given${howToGiveInParens(input, name)}`;
}
