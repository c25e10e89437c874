// Static pods as kubelet's file source hands them to the pod manager, mirroring kubelet 1.33
// (pkg/kubelet/config/common.go applyDefaults/generatePodName, config/file.go extractFromDir,
// kubelet/types/pod_update.go IsStaticPod/IsMirrorPod). Pure: file names and texts are inputs.
//
// The uid. Kubelet hashes a Go-syntax dump (spew "%#v") of its *internal* api.Pod after decoding
// and defaulting, then writes "host:<node>" and "file:<path>" into the same hasher (md5 up to the
// 1.3x releases, fnv-128a in the newest tree). Reproducing that dump byte for byte needs every
// field of the internal core types of the exact release, which this tool does not carry, so
// `staticPodUID` computes a uid of the same shape (32 hex digits, fnv-128a, same three inputs)
// over a canonical JSON of the pod instead. It is stable for the same file, node and content and
// changes when any of them changes, exactly like kubelet's; it is not kubelet's value. Where
// kubelet's own uid is known — a mirror pod's kubernetes.io/config.mirror annotation in the given
// pods, or the Pods API — that uid is used (see `uidSource`).

import type { Pod, Toleration } from './api-types';
import { ANNOTATION_CONFIG_HASH, ANNOTATION_CONFIG_SOURCE } from './labels';

/** The mirror pod's annotation: the static pod's uid (kubetypes.ConfigMirrorAnnotationKey). */
export const ANNOTATION_CONFIG_MIRROR = 'kubernetes.io/config.mirror';

/** Where the static pod's uid came from ('manifest': the file sets it, and kubelet keeps it). */
export type StaticPodUIDSource = 'manifest' | 'mirror-pod' | 'pods-api' | 'computed';

/** generatePodName: `<name>-<lower-case node name>`. */
export function generatePodName(name: string, nodeName: string): string {
  return `${name}-${nodeName.toLowerCase()}`;
}

/** kubetypes.IsMirrorPod: the pod carries kubernetes.io/config.mirror. */
export function isMirrorPod(pod: Pod): boolean {
  return pod.metadata?.annotations?.[ANNOTATION_CONFIG_MIRROR] !== undefined;
}

/** kubetypes.IsStaticPod: its config source is not the API server. */
export function isStaticPod(pod: Pod): boolean {
  const source = pod.metadata?.annotations?.[ANNOTATION_CONFIG_SOURCE];
  return source !== undefined && source !== 'api';
}

export interface DirEntry {
  name: string;
  kind: 'file' | 'dir' | 'other';
}

/**
 * extractFromDir: entries matching the glob `[^.]*` (no dot files), in name order; directories are
 * not recursed into and other kinds are ignored, each with the reason kubelet logs.
 */
export function staticPodFiles(entries: DirEntry[]): {
  files: string[];
  skipped: Array<{ name: string; why: string }>;
} {
  const files: string[] = [];
  const skipped: Array<{ name: string; why: string }> = [];
  const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of sorted) {
    if (e.name.startsWith('.')) continue;
    if (e.kind === 'file') files.push(e.name);
    else if (e.kind === 'dir') skipped.push({ name: e.name, why: 'not recursing into manifest path' });
    else skipped.push({ name: e.name, why: 'manifest path is not a regular file' });
  }
  return { files, skipped };
}

// fnv-128a (hash/fnv New128a): offset basis and prime of the 128-bit variant.
const FNV128_OFFSET = 0x6c62272e07bb014262b821756295c58dn;
const FNV128_PRIME = 0x0000000001000000000000000000013bn;
const MASK128 = (1n << 128n) - 1n;

/** fnv-128a of UTF-8 bytes, as 32 lowercase hex digits. */
export function fnv128a(bytes: Uint8Array): string {
  let h = FNV128_OFFSET;
  for (const b of bytes) h = ((h ^ BigInt(b)) * FNV128_PRIME) & MASK128;
  return h.toString(16).padStart(32, '0');
}

/** JSON with object keys sorted at every level (a stable rendering of the pod). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The uid of a static pod read from `source` (the manifest's path) on `nodeName`: a hash of the
 * pod as read (before kubelet's own defaults), then `host:<node>` and `file:<path>`.
 * Same inputs and shape as kubelet's; not kubelet's value (see the file comment).
 */
export function staticPodUID(pod: Pod, nodeName: string, source: string): string {
  const text = `${canonicalJson(pod)}host:${nodeName}file:${source}`;
  return fnv128a(new TextEncoder().encode(text));
}

/** The toleration kubelet adds to every file-sourced pod so node problems do not evict it. */
export const STATIC_POD_TOLERATION: Toleration = { operator: 'Exists', effect: 'NoExecute' };

/** helper.AddOrUpdateTolerationInPod: replaces a toleration that matches key/operator/value/effect, else appends. */
export function addOrUpdateTolerationInPod(pod: Pod, t: Toleration): void {
  const spec = pod.spec!;
  const list = [...(spec.tolerations ?? [])];
  const same = (a: Toleration): boolean =>
    (a.key ?? '') === (t.key ?? '') &&
    (a.operator ?? '') === (t.operator ?? '') &&
    (a.value ?? '') === (t.value ?? '') &&
    (a.effect ?? '') === (t.effect ?? '');
  const i = list.findIndex(same);
  if (i >= 0) list[i] = { ...t };
  else list.push({ ...t });
  spec.tolerations = list;
}

export interface StaticPodOptions {
  nodeName: string;
  /** The manifest's path as kubelet reads it: `<staticPodPath>/<file name>`. */
  source: string;
  /** Kubelet's own uid for this pod, when known (from a mirror pod or the Pods API). */
  knownUID?: { uid: string; from: Exclude<StaticPodUIDSource, 'computed'> };
}

export interface StaticPod {
  pod: Pod;
  uidSource: StaticPodUIDSource;
}

/**
 * applyDefaults for a file-sourced pod, then the source annotation kubelet's config layer adds:
 * uid (kept when the manifest has one), name `<name>-<node>`, namespace `default` when empty,
 * spec.nodeName, kubernetes.io/config.hash = uid, kubernetes.io/config.source = file, the
 * NoExecute toleration. kubernetes.io/config.seen is the time kubelet first saw the pod: the
 * sandbox config adds it. Returns a new pod; the input is not changed.
 */
export function applyStaticPodDefaults(input: Pod, o: StaticPodOptions): StaticPod {
  const pod = structuredClone(input) as Pod;
  pod.metadata ??= {};
  let uidSource: StaticPodUIDSource = 'computed';
  const meta = pod.metadata as {
    uid?: string;
    name?: string;
    namespace?: string;
    annotations?: Record<string, string>;
  };
  if (meta.uid) uidSource = 'manifest';
  else {
    if (o.knownUID) {
      meta.uid = o.knownUID.uid;
      uidSource = o.knownUID.from;
    } else {
      meta.uid = staticPodUID(input, o.nodeName, o.source);
    }
  }
  meta.name = generatePodName(meta.name ?? '', o.nodeName);
  if (!meta.namespace) meta.namespace = 'default';
  pod.spec ??= { containers: [] };
  pod.spec.nodeName = o.nodeName;
  meta.annotations = {
    ...(meta.annotations ?? {}),
    [ANNOTATION_CONFIG_HASH]: meta.uid,
    [ANNOTATION_CONFIG_SOURCE]: 'file',
  };
  addOrUpdateTolerationInPod(pod, STATIC_POD_TOLERATION);
  return { pod, uidSource };
}
