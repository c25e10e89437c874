// Container hash (annotation io.kubernetes.container.hash) of each kubelet minor, mirroring
// pkg/kubelet/container/helpers.go HashContainer (and HashContainerWithoutResources) of 1.28–1.30
// and 1.31–1.37.
//
// Both schemes: Go encoding/json text of the input, turned into the text go-spew prints for a byte
// slice ("([]uint8)[b1 b2 ...]"), hashed with FNV-1a 32 (DeepHashObject). Pure: no I/O, no node:*.
//
// - 1.31+ (PR 124220): JSON of map{"name","image"} only.
// - 1.16–1.30: JSON of the whole v1.Container as THAT kubelet's k8s.io/api types serialise it:
//   struct field order and omitempty of core/v1 types.go. Mirrored for the API of 1.28, 1.29 and
//   1.30 (kubernetes/api tags v0.28.0 ae4aec0b, v0.29.0 12b5cfde, v0.30.0 fb932d27; the Container
//   subtree is unchanged through v0.28.15, v0.29.15, v0.30.14). 1.29 added lifecycle sleep; 1.30
//   added volumeMounts[].recursiveReadOnly and securityContext.appArmorProfile. Older kubelets are
//   not mirrored: every one is long out of support, no planner rules of theirs are mirrored, and
//   each older minor serialises a different Container (1.28 restartPolicy, 1.27 resizePolicy, ...).
// - hashWithoutResources (1.27–1.30, written with InPlacePodVerticalScaling on): the whole-spec
//   hash with resources emptied.
//
// Limits of the whole-spec scheme, which hashes kubelet's stored view of the container:
// - Quantities are hashed as written. The API server stores them canonical ("0.5" -> "500m");
//   pass a container from applyPodDefaults (src/manifest) to get that form and the API defaults.
// - Fields the version's v1.Container lacks, and unknown keys, are not hashed (Go never sees them).
// - U+0008/U+000C: 1.28 and 1.29 release builds used Go <= 1.21 (\u0008, \u000c), 1.30 Go 1.22 (\b, \f).
// - Admission mutations (the service-account volumeMount) change the hash and are not known here.

import type { Container } from './api-types';
import { SyncpodError } from '../errors';
import { goJsonString } from './go-json';

const FNV32_OFFSET = 0x811c9dc5;
const FNV32_PRIME = 0x01000193;
const SPEW_PREFIX = '([]uint8)[';

/** API minors whose v1.Container serialisation is mirrored for the whole-spec hash. */
export const WHOLE_SPEC_API_MINORS = [28, 29, 30] as const;
export type WholeSpecApiMinor = (typeof WHOLE_SPEC_API_MINORS)[number];
/** The newest whole-spec kubelet, the default for callers that name no version. */
const NEWEST_WHOLE_SPEC: WholeSpecApiMinor = 30;

/** Hash of kubelet >= 1.31: Go JSON of {"image": image, "name": name}. */
export function hashContainer(c: { name: string; image?: string }): number {
  const json = `{"image":${goJsonString(c.image ?? '')},"name":${goJsonString(c.name)}}`;
  return hashJsonText(json);
}

/** Hash of kubelet 1.28–1.30 (`apiMinor`, default 30): Go JSON of the whole v1.Container. */
export function hashContainerLegacy(c: Container, apiMinor: WholeSpecApiMinor = NEWEST_WHOLE_SPEC): number {
  return hashJsonText(containerGoJson(c, apiMinor));
}

/**
 * hashWithoutResources of kubelet 1.27–1.30 (only written with InPlacePodVerticalScaling on):
 * the whole-spec hash after replacing `resources` with its empty value.
 */
export function hashContainerWithoutResources(c: Container, apiMinor: WholeSpecApiMinor = NEWEST_WHOLE_SPEC): number {
  return hashJsonText(containerGoJson({ ...c, resources: {} }, apiMinor));
}

/** The hash scheme of a kubelet minor (1.x): whole-spec through 1.30, name+image from 1.31. */
export function hashSchemeOfMinor(minor: number): 'name+image' | 'whole-spec' {
  return minor >= 31 ? 'name+image' : 'whole-spec';
}

/**
 * The io.kubernetes.container.hash value kubelet 1.`minor` writes and expects for `c`.
 * Refuses whole-spec minors whose API serialisation is not mirrored (before 1.28).
 */
export function kubeletContainerHash(minor: number, c: Container): number {
  if (minor >= 31) return hashContainer({ name: c.name, image: c.image });
  return hashContainerLegacy(c, wholeSpecMinor(minor));
}

/** The whole-spec API minor for a kubelet minor <= 30; a one-line error before 1.28. */
export function wholeSpecMinor(minor: number): WholeSpecApiMinor {
  const m = WHOLE_SPEC_API_MINORS.find((v) => v === minor);
  if (m === undefined) {
    throw new SyncpodError(
      `the container hash of kubelet 1.${minor} is not mirrored: the whole-spec hash is mirrored for the v1.Container of 1.28–1.30 only`,
    );
  }
  return m;
}

/** The annotation form: lowercase hex without leading zeros. */
export function formatHash(h: number): string {
  return (h >>> 0).toString(16);
}

/** The Go encoding/json text that the whole-spec scheme hashes (exported for diagnostics and tests). */
export function containerGoJson(c: Container, apiMinor: WholeSpecApiMinor = NEWEST_WHOLE_SPEC): string {
  const enc: Encoding = { goBefore122: apiMinor < 30 };
  return encodeStruct(
    c as unknown as Record<string, unknown>,
    containerFields(apiMinor),
    `container "${c.name ?? ''}"`,
    enc,
  );
}

/** FNV-1a 32 over the spew rendering of the UTF-8 bytes of `json`. */
export function hashJsonText(json: string): number {
  let h = FNV32_OFFSET;
  const feed = (code: number): void => {
    h = Math.imul(h ^ code, FNV32_PRIME) >>> 0;
  };
  for (let i = 0; i < SPEW_PREFIX.length; i++) feed(SPEW_PREFIX.charCodeAt(i));
  const bytes = utf8(json);
  for (let i = 0; i < bytes.length; i++) {
    if (i > 0) feed(0x20);
    const digits = String(bytes[i]);
    for (let j = 0; j < digits.length; j++) feed(digits.charCodeAt(j));
  }
  feed(0x5d); // ']'
  return h >>> 0;
}

// ---------------------------------------------------------------------------------------------
// Go encoding/json emulation, driven by field tables written from the struct facts of each
// version: JSON key, value kind, and how an absent/zero value is treated.

interface Encoding {
  goBefore122: boolean;
}

type Kind =
  | 'string'
  | 'int'
  | 'bool'
  | 'quantity'
  | 'intOrString'
  | { list: Kind }
  | { struct: Field[] }
  | 'quantityMap';

/**
 * omit: Go `omitempty` on a value (not pointer) field — dropped when zero/empty.
 * always: value field without omitempty — zero value written when absent.
 * ptr: pointer with omitempty — written whenever set (even false/0/"" or {}).
 * ptrNull: pointer without omitempty — `null` when absent.
 * struct: value struct field (omitempty has no effect on structs in Go) — always written.
 */
type Mode = 'omit' | 'always' | 'ptr' | 'ptrNull' | 'struct';
type Field = readonly [key: string, kind: Kind, mode: Mode];

/** The field when the API of `minor` has it (added in `added`), else nothing. */
function since(minor: WholeSpecApiMinor, added: number, f: Field): Field[] {
  return minor >= added ? [f] : [];
}

const STRINGS: Kind = { list: 'string' };
const EXEC: Field[] = [['command', STRINGS, 'omit']];
const HTTP_HEADER: Field[] = [
  ['name', 'string', 'always'],
  ['value', 'string', 'always'],
];
const HTTP_GET: Field[] = [
  ['path', 'string', 'omit'],
  ['port', 'intOrString', 'always'],
  ['host', 'string', 'omit'],
  ['scheme', 'string', 'omit'],
  ['httpHeaders', { list: { struct: HTTP_HEADER } }, 'omit'],
];
const TCP_SOCKET: Field[] = [
  ['port', 'intOrString', 'always'],
  ['host', 'string', 'omit'],
];
const GRPC: Field[] = [
  ['port', 'int', 'always'],
  ['service', 'string', 'ptrNull'],
];
const PROBE: Field[] = [
  ['exec', { struct: EXEC }, 'ptr'],
  ['httpGet', { struct: HTTP_GET }, 'ptr'],
  ['tcpSocket', { struct: TCP_SOCKET }, 'ptr'],
  ['grpc', { struct: GRPC }, 'ptr'],
  ['initialDelaySeconds', 'int', 'omit'],
  ['timeoutSeconds', 'int', 'omit'],
  ['periodSeconds', 'int', 'omit'],
  ['successThreshold', 'int', 'omit'],
  ['failureThreshold', 'int', 'omit'],
  ['terminationGracePeriodSeconds', 'int', 'ptr'],
];
/** LifecycleHandler; `sleep` since 1.29. */
const lifecycleHandler = (minor: WholeSpecApiMinor): Field[] => [
  ['exec', { struct: EXEC }, 'ptr'],
  ['httpGet', { struct: HTTP_GET }, 'ptr'],
  ['tcpSocket', { struct: TCP_SOCKET }, 'ptr'],
  ...since(minor, 29, ['sleep', { struct: [['seconds', 'int', 'always']] }, 'ptr']),
];
const lifecycle = (minor: WholeSpecApiMinor): Field[] => [
  ['postStart', { struct: lifecycleHandler(minor) }, 'ptr'],
  ['preStop', { struct: lifecycleHandler(minor) }, 'ptr'],
];
const PORT: Field[] = [
  ['name', 'string', 'omit'],
  ['hostPort', 'int', 'omit'],
  ['containerPort', 'int', 'always'],
  ['protocol', 'string', 'omit'],
  ['hostIP', 'string', 'omit'],
];
const NAMED_OPTIONAL: Field[] = [
  ['name', 'string', 'omit'],
  ['optional', 'bool', 'ptr'],
];
const ENV_FROM: Field[] = [
  ['prefix', 'string', 'omit'],
  ['configMapRef', { struct: NAMED_OPTIONAL }, 'ptr'],
  ['secretRef', { struct: NAMED_OPTIONAL }, 'ptr'],
];
const KEY_SELECTOR: Field[] = [
  ['name', 'string', 'omit'],
  ['key', 'string', 'always'],
  ['optional', 'bool', 'ptr'],
];
const ENV_SOURCE: Field[] = [
  [
    'fieldRef',
    {
      struct: [
        ['apiVersion', 'string', 'omit'],
        ['fieldPath', 'string', 'always'],
      ],
    },
    'ptr',
  ],
  [
    'resourceFieldRef',
    {
      struct: [
        ['containerName', 'string', 'omit'],
        ['resource', 'string', 'always'],
        ['divisor', 'quantity', 'struct'],
      ],
    },
    'ptr',
  ],
  ['configMapKeyRef', { struct: KEY_SELECTOR }, 'ptr'],
  ['secretKeyRef', { struct: KEY_SELECTOR }, 'ptr'],
];
const ENV: Field[] = [
  ['name', 'string', 'always'],
  ['value', 'string', 'omit'],
  ['valueFrom', { struct: ENV_SOURCE }, 'ptr'],
];
const RESOURCES: Field[] = [
  ['limits', 'quantityMap', 'omit'],
  ['requests', 'quantityMap', 'omit'],
  ['claims', { list: { struct: [['name', 'string', 'always']] } }, 'omit'],
];
const RESIZE_POLICY: Field[] = [
  ['resourceName', 'string', 'always'],
  ['restartPolicy', 'string', 'always'],
];
/** VolumeMount; `recursiveReadOnly` since 1.30. */
const volumeMount = (minor: WholeSpecApiMinor): Field[] => [
  ['name', 'string', 'always'],
  ['readOnly', 'bool', 'omit'],
  ...since(minor, 30, ['recursiveReadOnly', 'string', 'ptr']),
  ['mountPath', 'string', 'always'],
  ['subPath', 'string', 'omit'],
  ['mountPropagation', 'string', 'ptr'],
  ['subPathExpr', 'string', 'omit'],
];
const VOLUME_DEVICE: Field[] = [
  ['name', 'string', 'always'],
  ['devicePath', 'string', 'always'],
];
const TYPED_PROFILE: Field[] = [
  ['type', 'string', 'always'],
  ['localhostProfile', 'string', 'ptr'],
];
/** SecurityContext; `appArmorProfile` since 1.30. */
const securityContext = (minor: WholeSpecApiMinor): Field[] => [
  [
    'capabilities',
    {
      struct: [
        ['add', STRINGS, 'omit'],
        ['drop', STRINGS, 'omit'],
      ],
    },
    'ptr',
  ],
  ['privileged', 'bool', 'ptr'],
  [
    'seLinuxOptions',
    {
      struct: [
        ['user', 'string', 'omit'],
        ['role', 'string', 'omit'],
        ['type', 'string', 'omit'],
        ['level', 'string', 'omit'],
      ],
    },
    'ptr',
  ],
  [
    'windowsOptions',
    {
      struct: [
        ['gmsaCredentialSpecName', 'string', 'ptr'],
        ['gmsaCredentialSpec', 'string', 'ptr'],
        ['runAsUserName', 'string', 'ptr'],
        ['hostProcess', 'bool', 'ptr'],
      ],
    },
    'ptr',
  ],
  ['runAsUser', 'int', 'ptr'],
  ['runAsGroup', 'int', 'ptr'],
  ['runAsNonRoot', 'bool', 'ptr'],
  ['readOnlyRootFilesystem', 'bool', 'ptr'],
  ['allowPrivilegeEscalation', 'bool', 'ptr'],
  ['procMount', 'string', 'ptr'],
  ['seccompProfile', { struct: TYPED_PROFILE }, 'ptr'],
  ...since(minor, 30, ['appArmorProfile', { struct: TYPED_PROFILE }, 'ptr']),
];
/** v1.Container of 1.28–1.30, in struct order (restartPolicy since 1.28, resizePolicy since 1.27). */
const containerTable = (minor: WholeSpecApiMinor): Field[] => [
  ['name', 'string', 'always'],
  ['image', 'string', 'omit'],
  ['command', STRINGS, 'omit'],
  ['args', STRINGS, 'omit'],
  ['workingDir', 'string', 'omit'],
  ['ports', { list: { struct: PORT } }, 'omit'],
  ['envFrom', { list: { struct: ENV_FROM } }, 'omit'],
  ['env', { list: { struct: ENV } }, 'omit'],
  ['resources', { struct: RESOURCES }, 'struct'],
  ['resizePolicy', { list: { struct: RESIZE_POLICY } }, 'omit'],
  ['restartPolicy', 'string', 'ptr'],
  ['volumeMounts', { list: { struct: volumeMount(minor) } }, 'omit'],
  ['volumeDevices', { list: { struct: VOLUME_DEVICE } }, 'omit'],
  ['livenessProbe', { struct: PROBE }, 'ptr'],
  ['readinessProbe', { struct: PROBE }, 'ptr'],
  ['startupProbe', { struct: PROBE }, 'ptr'],
  ['lifecycle', { struct: lifecycle(minor) }, 'ptr'],
  ['terminationMessagePath', 'string', 'omit'],
  ['terminationMessagePolicy', 'string', 'omit'],
  ['imagePullPolicy', 'string', 'omit'],
  ['securityContext', { struct: securityContext(minor) }, 'ptr'],
  ['stdin', 'bool', 'omit'],
  ['stdinOnce', 'bool', 'omit'],
  ['tty', 'bool', 'omit'],
];

const CONTAINER_BY_MINOR: Record<WholeSpecApiMinor, Field[]> = {
  28: containerTable(28),
  29: containerTable(29),
  30: containerTable(30),
};

function containerFields(minor: WholeSpecApiMinor): Field[] {
  return CONTAINER_BY_MINOR[minor];
}

function isAbsent(v: unknown): boolean {
  return v === undefined || v === null;
}

function isEmpty(kind: Kind, v: unknown): boolean {
  if (isAbsent(v)) return true;
  if (kind === 'string') return v === '';
  if (kind === 'int') return v === 0;
  if (kind === 'bool') return v === false;
  if (kind === 'quantityMap') return typeof v === 'object' && Object.keys(v as object).length === 0;
  if (typeof kind === 'object' && 'list' in kind) return Array.isArray(v) && v.length === 0;
  return false;
}

function zeroValue(kind: Kind): unknown {
  switch (kind) {
    case 'string':
      return '';
    case 'int':
    case 'intOrString':
      return 0;
    case 'bool':
      return false;
    case 'quantity':
      return '0';
    default:
      return typeof kind === 'object' && 'struct' in kind ? {} : null;
  }
}

function encodeStruct(obj: Record<string, unknown>, fields: readonly Field[], path: string, enc: Encoding): string {
  const parts: string[] = [];
  for (const [key, kind, mode] of fields) {
    let v = obj[key];
    if (mode === 'omit' && isEmpty(kind, v)) continue;
    if (mode === 'ptr' && isAbsent(v)) continue;
    if (mode === 'ptrNull' && isAbsent(v)) {
      parts.push(`${goJsonString(key)}:null`);
      continue;
    }
    if (isAbsent(v)) v = zeroValue(kind);
    parts.push(`${goJsonString(key)}:${encodeValue(kind, v, `${path}.${key}`, enc)}`);
  }
  return `{${parts.join(',')}}`;
}

function encodeValue(kind: Kind, v: unknown, path: string, enc: Encoding): string {
  if (typeof kind === 'object') {
    if ('list' in kind) {
      if (isAbsent(v)) return 'null';
      if (!Array.isArray(v)) throw typeError(path, 'a list');
      return `[${v.map((x, i) => encodeValue(kind.list, x, `${path}[${i}]`, enc)).join(',')}]`;
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw typeError(path, 'an object');
    return encodeStruct(v as Record<string, unknown>, kind.struct, path, enc);
  }
  switch (kind) {
    case 'string':
      if (typeof v !== 'string') throw typeError(path, 'a string');
      return goJsonString(v, enc.goBefore122);
    case 'int':
      if (typeof v !== 'number' || !Number.isInteger(v)) throw typeError(path, 'an integer');
      return String(v);
    case 'bool':
      if (typeof v !== 'boolean') throw typeError(path, 'a boolean');
      return v ? 'true' : 'false';
    case 'intOrString':
      if (typeof v === 'number' && Number.isInteger(v)) return String(v);
      if (typeof v === 'string') return goJsonString(v, enc.goBefore122);
      throw typeError(path, 'an integer or a string');
    case 'quantity':
      return goJsonString(quantityText(v, path));
    case 'quantityMap': {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw typeError(path, 'a map');
      const m = v as Record<string, unknown>;
      // Go sorts map keys by their bytes; resource names are ASCII so code-unit order agrees.
      const keys = Object.keys(m).sort(byBytes);
      return `{${keys.map((k) => `${goJsonString(k)}:${goJsonString(quantityText(m[k], `${path}.${k}`))}`).join(',')}}`;
    }
  }
}

function quantityText(v: unknown, path: string): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  throw typeError(path, 'a quantity');
}

function typeError(path: string, expected: string): SyncpodError {
  return new SyncpodError(`${path}: expected ${expected} (cannot compute the container hash)`);
}

function byBytes(a: string, b: string): number {
  const ea = utf8(a);
  const eb = utf8(b);
  const n = Math.min(ea.length, eb.length);
  for (let i = 0; i < n; i++) if (ea[i] !== eb[i]) return ea[i]! - eb[i]!;
  return ea.length - eb.length;
}

const encoder = new TextEncoder();
function utf8(s: string): Uint8Array {
  return encoder.encode(s);
}
