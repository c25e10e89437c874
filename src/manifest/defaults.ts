// The defaults the API server applies to a pod before kubelet ever sees it
// (pkg/apis/core/v1 defaults and generated defaulters, v1.28 — unchanged through 1.33 for these
// fields). A hand-written manifest lacks all of them; kubelet's configs and the 1.16–1.30 hash
// are computed from the defaulted object. Pure: returns a new object, never mutates its input.
//
// Not done here (the plan states them as assumptions): admission mutations — the service-account
// token volume `kube-api-access-<random>` and its mounts, serviceAccountName `default`,
// default tolerations, priority — and gate-dependent defaults (resizePolicy with
// InPlacePodVerticalScaling, pod-level resources).

import type { Container, EphemeralContainer, Pod, PodSpec, Probe, Volume } from '../kubelet/api-types';
import { defaultImagePullPolicy } from '../kubelet/image-ref';
import { canonicalQuantity, formatQuantity, parseQuantity } from '../kubelet/quantity';
import { VOLUME_SOURCE_KEYS } from '../kubelet/volume-sources';
import { isObj, type Obj } from '../json-object';

export const DEFAULT_NAMESPACE = 'default';
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';
export const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;
export const DEFAULT_TERMINATION_MESSAGE_PATH = '/dev/termination-log';
/** 0644, the defaultMode of secret, configMap, downwardAPI and projected volumes. */
export const DEFAULT_VOLUME_MODE = 420;

/** The object elements of a list; malformed parts are skipped here and reported by validation. */
function objects<T>(list: T[] | undefined | null): T[] {
  return Array.isArray(list) ? list.filter(isObj) : [];
}

/** The pod as the API server would store it, minus admission mutations (see file comment). */
export function applyPodDefaults(input: Pod): Pod {
  const pod = structuredClone(input) as Pod;
  if (!isObj(pod.metadata)) pod.metadata = {};
  if (!pod.metadata.namespace) pod.metadata.namespace = DEFAULT_NAMESPACE;
  if (!isObj(pod.spec)) pod.spec = { containers: [] };
  const spec = pod.spec;
  defaultPodSpec(spec);
  return pod;
}

function defaultPodSpec(spec: PodSpec): void {
  spec.dnsPolicy = spec.dnsPolicy || 'ClusterFirst';
  spec.restartPolicy = spec.restartPolicy || 'Always';
  spec.securityContext = spec.securityContext ?? {};
  spec.terminationGracePeriodSeconds = spec.terminationGracePeriodSeconds ?? DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS;
  spec.schedulerName = spec.schedulerName || DEFAULT_SCHEDULER_NAME;
  spec.enableServiceLinks = spec.enableServiceLinks ?? true;

  for (const c of [...objects(spec.initContainers), ...objects(spec.containers)]) {
    defaultContainer(c);
    defaultResources(c);
    // A Pod (not a template, where a gate is needed) on the host network publishes every port.
    if (spec.hostNetwork) for (const p of objects(c.ports)) if (!p.hostPort) p.hostPort = p.containerPort;
  }
  for (const c of objects(spec.ephemeralContainers)) defaultContainer(c);
  for (const v of objects(spec.volumes)) defaultVolume(v);
  if (isObj(spec.overhead)) spec.overhead = canonicalMap(spec.overhead);
}

function defaultContainer(c: Container | EphemeralContainer): void {
  if (!c.imagePullPolicy && typeof c.image === 'string') c.imagePullPolicy = defaultImagePullPolicy(c.image);
  c.terminationMessagePath = c.terminationMessagePath || DEFAULT_TERMINATION_MESSAGE_PATH;
  c.terminationMessagePolicy = c.terminationMessagePolicy || 'File';
  for (const p of objects(c.ports)) p.protocol = p.protocol || 'TCP';
  for (const e of objects(c.env)) {
    const from = e.valueFrom;
    if (from?.fieldRef) from.fieldRef.apiVersion = from.fieldRef.apiVersion || 'v1';
    if (from?.resourceFieldRef?.divisor !== undefined) {
      from.resourceFieldRef.divisor = canonicalOrAsIs(from.resourceFieldRef.divisor, false);
    }
  }
  for (const probe of [c.livenessProbe, c.readinessProbe, c.startupProbe]) if (isObj(probe)) defaultProbe(probe);
  for (const handler of [c.lifecycle?.postStart, c.lifecycle?.preStop]) {
    if (handler?.httpGet) defaultHttpGet(handler.httpGet);
  }
}

function defaultProbe(p: Probe): void {
  p.timeoutSeconds = p.timeoutSeconds || 1;
  p.periodSeconds = p.periodSeconds || 10;
  p.successThreshold = p.successThreshold || 1;
  p.failureThreshold = p.failureThreshold || 3;
  if (p.httpGet) defaultHttpGet(p.httpGet);
  if (p.grpc && (p.grpc.service === undefined || p.grpc.service === null)) p.grpc.service = '';
}

function defaultHttpGet(h: { path?: string; scheme?: string }): void {
  h.path = h.path || '/';
  h.scheme = h.scheme || 'HTTP';
}

/** Requests default to limits; every quantity is rounded up to milli and written canonically. */
function defaultResources(c: Container): void {
  const r = c.resources as { limits?: unknown; requests?: unknown } | undefined;
  if (!isObj(r)) return;
  if (isObj(r.limits)) {
    r.limits = canonicalMap(r.limits);
    const requests: Obj = isObj(r.requests) ? { ...r.requests } : {};
    for (const [name, value] of Object.entries(r.limits as Obj)) if (!(name in requests)) requests[name] = value;
    r.requests = requests;
  }
  if (isObj(r.requests)) r.requests = canonicalMap(r.requests);
}

function canonicalMap(m: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(m)) out[k] = canonicalOrAsIs(v, true);
  return out;
}

/**
 * The stored text of a quantity: canonical, and rounded up to milli for resource lists.
 * Unparsable values are kept as they are, for validation to report with their field path.
 */
function canonicalOrAsIs(v: unknown, roundToMilli: boolean): string {
  try {
    const q = v as string | number;
    return roundToMilli ? canonicalQuantity(q) : formatQuantity(parseQuantity(q));
  } catch {
    return v as string;
  }
}

function defaultVolume(v: Volume): void {
  const vol = v as unknown as Obj;
  if (!VOLUME_SOURCE_KEYS.some((k) => vol[k] !== undefined && vol[k] !== null)) v.emptyDir = {};
  if (v.emptyDir?.sizeLimit !== undefined) v.emptyDir.sizeLimit = canonicalOrAsIs(v.emptyDir.sizeLimit, false);
  if (v.hostPath) v.hostPath.type = v.hostPath.type ?? '';
  for (const src of [v.secret, v.configMap, v.downwardAPI, v.projected]) {
    if (src) src.defaultMode = src.defaultMode ?? DEFAULT_VOLUME_MODE;
  }
  for (const item of objects(v.downwardAPI?.items)) defaultDownwardItem(item);
  for (const source of objects(v.projected?.sources)) {
    for (const item of objects(source.downwardAPI?.items)) defaultDownwardItem(item);
    if (source.serviceAccountToken) {
      source.serviceAccountToken.expirationSeconds = source.serviceAccountToken.expirationSeconds ?? 3600;
    }
  }
  if (v.iscsi) v.iscsi.iscsiInterface = v.iscsi.iscsiInterface || 'default';
  if (v.rbd) {
    v.rbd.pool = v.rbd.pool || 'rbd';
    v.rbd.user = v.rbd.user || 'admin';
    v.rbd.keyring = v.rbd.keyring || '/etc/ceph/keyring';
  }
  if (v.azureDisk) {
    v.azureDisk.cachingMode = v.azureDisk.cachingMode ?? 'ReadWrite';
    v.azureDisk.kind = v.azureDisk.kind ?? 'Shared';
    v.azureDisk.fsType = v.azureDisk.fsType ?? 'ext4';
    v.azureDisk.readOnly = v.azureDisk.readOnly ?? false;
  }
}

function defaultDownwardItem(item: {
  fieldRef?: { apiVersion?: string };
  resourceFieldRef?: { divisor?: unknown };
}): void {
  if (item.fieldRef) item.fieldRef.apiVersion = item.fieldRef.apiVersion || 'v1';
  if (item.resourceFieldRef?.divisor !== undefined) {
    item.resourceFieldRef.divisor = canonicalOrAsIs(item.resourceFieldRef.divisor, false);
  }
}
