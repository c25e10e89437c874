// Validation against the Kubernetes API's own OpenAPI schema (k8s-schema.json, trimmed from the
// official document by scripts/trim-k8s-schema.mjs): the checks the API server's strict JSON
// decoding makes before any validation rule runs — field types, int32/int64 ranges, unknown
// fields, required fields, quantities and int-or-string values. Pure.
//
// Go's decoding treats `null` as "not set" for every field, so null is accepted everywhere.

import schemaData from './k8s-schema.json';
import { canonicalQuantity } from '../kubelet/quantity';
import { NEWEST_MINOR } from '../kubelet/features';
import { isObj } from '../json-object';

/** A trimmed schema node: see scripts/trim-k8s-schema.mjs. */
type Node =
  | { $: string }
  | { k: 'object'; p: Record<string, Node>; r?: string[] }
  | { k: 'map'; v: Node }
  | { k: 'array'; i: Node }
  | { k: 'string'; f?: 'byte' | 'date-time' }
  | { k: 'boolean' }
  | { k: 'integer'; f: 'int32' | 'int64' }
  | { k: 'number' }
  | { k: 'intOrString' }
  | { k: 'quantity' }
  | { k: 'any' };

interface SchemaData {
  source: string;
  roots: Record<string, { apiVersion: string; schema: string }>;
  definitions: Record<string, Node>;
}
const SCHEMA = schemaData as unknown as SchemaData;

/** Where the schema data came from (one line, for the README and --version style output). */
export const SCHEMA_SOURCE = SCHEMA.source;

/** The minor whose API the schema data is (release-1.36). */
export const SCHEMA_MINOR = 36;

/**
 * Fields of the data that an older API server does not have: definition -> field -> the first minor
 * that decodes it. Each came with its feature gate (the gate's first versioned spec in
 * kube_features.go, natasha41575/kubernetes@9298de89); before that minor strict decoding refuses
 * the field as unknown, as kubectl's default fieldValidation=Strict makes the API server do.
 */
export const FIELD_SINCE: Record<string, Record<string, number>> = {
  'core.v1.VolumeMount': { recursiveReadOnly: 30 }, // RecursiveReadOnlyMounts
  'core.v1.Volume': { image: 31 }, // ImageVolume
  'core.v1.PodSecurityContext': { supplementalGroupsPolicy: 31, seLinuxChangePolicy: 32 }, // SupplementalGroupsPolicy, SELinuxChangePolicy
  'core.v1.PodSpec': { resources: 32, hostnameOverride: 34 }, // PodLevelResources, HostnameOverride
  'core.v1.Lifecycle': { stopSignal: 33 }, // ContainerStopSignals
  'core.v1.Container': { restartPolicyRules: 34 }, // ContainerRestartRules
  'core.v1.EphemeralContainer': { restartPolicyRules: 34 },
  'core.v1.EnvVarSource': { fileKeyRef: 34 }, // EnvFiles
  'core.v1.VolumeProjection': { podCertificate: 34 }, // PodCertificateRequest
};

/**
 * Fields a newer API server has beyond the data: definition -> field -> { since, gate, node }. The
 * 1.37 additions, read in k8s.io/api (kubernetes/api@10b39a39, master of 2026-07-24: after
 * v0.37.0-beta.0 and the 1.37 code freeze of 2026-07-23, before the release-1.37 branch of
 * 2026-08-05, so all of it ships in 1.37; none is in v0.36.0), with the gate each field's
 * `+featureGate=` names (all alpha, off by default from 1.37: kubernetes/website feature-gates/*.md).
 * The output of scripts/trim-k8s-schema.mjs for a 1.37 OpenAPI document would replace these.
 */
type Added = { since: number; gate: string; node: Node };
const INT64: Node = { k: 'integer', f: 'int64' };
const STRING: Node = { k: 'string' };
const ownerUid = (gate = 'AtomicWriteVolumeUserFields'): Added => ({ since: 37, gate, node: INT64 });
/** scheduling/v1alpha3 types a Job's spec.scheduling holds (empty structs as objects without fields: strict decoding refuses any key). */
const workloadPodGroup = {
  policy: {
    k: 'object',
    p: { basic: { k: 'object', p: {} }, gang: { k: 'object', p: { minCount: { k: 'integer', f: 'int32' } } } },
  },
  constraints: { k: 'object', p: { topology: { k: 'array', i: { k: 'object', p: { key: STRING }, r: ['key'] } } } },
  disruption: { k: 'object', p: { all: { k: 'object', p: {} }, single: { k: 'object', p: {} } } },
  claim: {
    k: 'object',
    p: { name: STRING, resourceClaimName: STRING, resourceClaimTemplateName: STRING },
    r: ['name'],
  },
} satisfies Record<string, Node>;

export const FIELD_ADDED: Record<string, Record<string, Added>> = {
  'core.v1.PodSpec': {
    evictionResponders: {
      since: 37,
      gate: 'EvictionRequestAPI',
      node: {
        k: 'array',
        i: { k: 'object', p: { name: STRING, priority: { k: 'integer', f: 'int32' } }, r: ['name', 'priority'] },
      },
    },
  },
  'core.v1.EmptyDirVolumeSource': {
    mode: { since: 37, gate: 'EmptyDirVolumeMode', node: { k: 'integer', f: 'int32' } },
  },
  'core.v1.VolumeMount': {
    bindMountOptions: { since: 37, gate: 'VolumeBindMountOptions', node: { k: 'array', i: STRING } },
  },
  'core.v1.HTTPGetAction': { protocol: { since: 37, gate: 'H2CContainerProbe', node: STRING } },
  'core.v1.GRPCAction': { mode: { since: 37, gate: 'GRPCContainerProbeTLS', node: STRING } },
  'core.v1.ConfigMapVolumeSource': { defaultUser: ownerUid() },
  'core.v1.SecretVolumeSource': { defaultUser: ownerUid() },
  'core.v1.DownwardAPIVolumeSource': { defaultUser: ownerUid() },
  'core.v1.ProjectedVolumeSource': { defaultUser: ownerUid() },
  'core.v1.KeyToPath': { user: ownerUid() },
  'core.v1.DownwardAPIVolumeFile': { user: ownerUid() },
  'core.v1.ServiceAccountTokenProjection': { user: ownerUid() },
  'core.v1.ClusterTrustBundleProjection': { user: ownerUid() },
  'core.v1.PodCertificateProjection': { user: ownerUid() },
  'batch.v1.JobSpec': {
    scheduling: {
      since: 37,
      gate: 'WorkloadWithJob',
      node: {
        k: 'object',
        p: {
          disruptionMode: workloadPodGroup.disruption,
          resourceClaims: { k: 'array', i: workloadPodGroup.claim },
          schedulingConstraints: workloadPodGroup.constraints,
          schedulingPolicy: workloadPodGroup.policy,
        },
      },
    },
  },
};

function fieldSince(def: string, field: string): number {
  return FIELD_ADDED[def]?.[field]?.since ?? FIELD_SINCE[def]?.[field] ?? 0;
}

/** Whether the API server of `minor` decodes `field` of definition `def` (which the data or FIELD_ADDED holds). */
export function fieldKnownAt(def: string, field: string, minor: number): boolean {
  const added = FIELD_ADDED[def]?.[field];
  if (added !== undefined) return minor >= added.since;
  const since = FIELD_SINCE[def]?.[field];
  return since === undefined || minor >= since;
}

/** A field path as segments: property names and list indexes. */
export type FieldPath = Array<string | number>;

export interface SchemaProblem {
  path: FieldPath;
  message: string;
}

/** The kinds the schema covers and the apiVersion the API serves each at. */
export function servedApiVersion(kind: string): string | undefined {
  return Object.hasOwn(SCHEMA.roots, kind) ? SCHEMA.roots[kind]!.apiVersion : undefined;
}

/** `spec.containers[0].image` from segments. */
export function formatPath(path: FieldPath): string {
  let out = '';
  for (const s of path) out += typeof s === 'number' ? `[${s}]` : out === '' ? s : `.${s}`;
  return out;
}

const INT32 = [-(2 ** 31), 2 ** 31 - 1] as const;
const INT64_RANGE = [-(2n ** 63n), 2n ** 63n - 1n] as const;
// RFC 3339 as Go's time.Time decodes it.
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function describe(v: unknown): string {
  if (typeof v === 'string') return `the string ${JSON.stringify(v)}`;
  if (typeof v === 'number') return `the number ${String(v)}`;
  if (typeof v === 'boolean') return `the boolean ${String(v)}`;
  if (Array.isArray(v)) return 'a list';
  return 'a mapping';
}

/** YAML 1.1 reads these unquoted words as booleans; a string field holding one needs a hint. */
const BOOLEAN_HINT = ' (YAML reads unquoted y, n, yes, no, on, off, true, false as booleans: quote it)';

class Walker {
  readonly problems: SchemaProblem[] = [];

  constructor(private readonly minor: number) {}

  private add(path: FieldPath, message: string): void {
    this.problems.push({ path: [...path], message });
  }

  private wrongType(path: FieldPath, v: unknown, expected: string): void {
    const hint = typeof v === 'boolean' && expected.startsWith('a string') ? BOOLEAN_HINT : '';
    this.add(path, `must be ${expected}, not ${describe(v)}${hint}`);
  }

  walk(node: Node, v: unknown, path: FieldPath, def?: string): void {
    if (v === null || v === undefined) return;
    if ('$' in node) return this.walk(SCHEMA.definitions[node.$]!, v, path, node.$);
    switch (node.k) {
      case 'any':
        return;
      case 'object': {
        if (!isObj(v)) return this.wrongType(path, v, 'a mapping');
        for (const key of Object.keys(v)) {
          const added = def === undefined ? undefined : FIELD_ADDED[def]?.[key]?.node;
          const child = Object.hasOwn(node.p, key) ? node.p[key] : added;
          if (child === undefined) this.add([...path, key], `unknown field${didYouMean(key, Object.keys(node.p))}`);
          else if (def !== undefined && !fieldKnownAt(def, key, this.minor))
            this.add(
              [...path, key],
              `unknown field in the API of 1.${this.minor} (added in 1.${fieldSince(def, key)})`,
            );
          else this.walk(child, v[key], [...path, key]);
        }
        for (const key of node.r ?? [])
          if (v[key] === undefined || v[key] === null) this.add([...path, key], 'required');
        return;
      }
      case 'map': {
        if (!isObj(v)) return this.wrongType(path, v, 'a mapping');
        for (const key of Object.keys(v)) this.walk(node.v, v[key], [...path, key]);
        return;
      }
      case 'array': {
        if (!Array.isArray(v)) return this.wrongType(path, v, 'a list');
        v.forEach((item, i) => {
          // A null list item decodes to an empty object (or an empty string): report it plainly.
          if (item === null) this.add([...path, i], 'must not be null');
          else this.walk(node.i, item, [...path, i]);
        });
        return;
      }
      case 'string': {
        if (typeof v !== 'string') return this.wrongType(path, v, 'a string');
        if (node.f === 'date-time' && !RFC3339.test(v))
          this.add(path, `invalid value ${JSON.stringify(v)}: must be an RFC 3339 time`);
        if (node.f === 'byte' && !BASE64.test(v.replace(/\s+/g, '')))
          this.add(path, `invalid value ${JSON.stringify(v)}: must be base64`);
        return;
      }
      case 'boolean':
        if (typeof v !== 'boolean') this.wrongType(path, v, 'a boolean (true or false)');
        return;
      case 'number':
        if (typeof v !== 'number') this.wrongType(path, v, 'a number');
        return;
      case 'integer':
        return this.integer(path, v, node.f);
      case 'intOrString':
        if (typeof v === 'string') return;
        if (typeof v !== 'number') return this.wrongType(path, v, 'an integer or a string');
        return this.integer(path, v, 'int32');
      case 'quantity': {
        if (typeof v !== 'string' && typeof v !== 'number')
          return this.wrongType(path, v, 'a quantity (a number or a string such as "500m" or "1Gi")');
        try {
          canonicalQuantity(v);
        } catch (err) {
          this.add(path, (err as Error).message);
        }
        return;
      }
    }
  }

  private integer(path: FieldPath, v: unknown, format: 'int32' | 'int64'): void {
    if (typeof v !== 'number' && typeof v !== 'bigint') return this.wrongType(path, v, `an integer (${format})`);
    if (typeof v === 'number' && !Number.isInteger(v)) return this.add(path, `invalid value ${v}: must be an integer`);
    const big = BigInt(v);
    const [min, max] = format === 'int32' ? [BigInt(INT32[0]), BigInt(INT32[1])] : INT64_RANGE;
    if (big < min || big > max)
      this.add(path, `invalid value ${String(v)}: out of range for a ${format === 'int32' ? '32' : '64'}-bit integer`);
  }
}

/**
 * Every schema problem of an object of `kind` (one the schema covers), in document order, as the
 * API server of 1.`minor` decodes it. `path` is where the object sits in its document (`[]`, or
 * `['items', 2]` inside a List).
 */
export function validateSchema(
  kind: string,
  value: unknown,
  path: FieldPath = [],
  minor: number = NEWEST_MINOR,
): SchemaProblem[] {
  const root = SCHEMA.roots[kind];
  if (root === undefined) throw new Error(`no schema for kind ${kind}`);
  const w = new Walker(minor);
  w.walk({ $: root.schema }, value, path);
  return w.problems;
}

/** Edit distance (insertions, deletions, substitutions) between two field names. */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/** `; did you mean "image"?` for the nearest known field at that path (a typo: at most 2 edits, or case only). */
export function didYouMean(key: string, known: string[]): string {
  let best = '';
  let bestD = Number.POSITIVE_INFINITY;
  for (const k of known) {
    const d = k.toLowerCase() === key.toLowerCase() ? 0 : editDistance(key, k);
    if (d < bestD || (d === bestD && k < best)) [best, bestD] = [k, d];
  }
  return best && bestD <= Math.min(2, Math.floor(key.length / 3)) ? `; did you mean "${best}"?` : '';
}
