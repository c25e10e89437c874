// Container hash (annotation io.kubernetes.container.hash), mirroring kubelet 1.31+ (name+image)
// and kubelet 1.16–1.30 (whole v1.Container, plus 1.27–1.30 hashWithoutResources).
//
// Both schemes: Go encoding/json text of the input, turned into the text Go's spew prints for a
// byte slice ("([]uint8)[b1 b2 ...]"), hashed with FNV-1a 32. Pure: no I/O, no node:* imports.
//
// Limits of the legacy (1.16–1.30) scheme, which hashes kubelet's stored view of the container:
// - Quantities are hashed as written. The API server stores them canonical ("0.5" -> "500m",
//   "1000" -> "1k"); pass a container from applyPodDefaults (src/manifest) to get that form.
// - Only fields of the release-1.30 v1.Container are hashed; unknown keys are ignored, as Go's
//   decoder ignores them. Fields newer than 1.30 (e.g. lifecycle.stopSignal) are not hashed.
// - Control characters U+0008 and U+000C are written as \u0008 / \u000c (Go <= 1.21 encoding/json);
//   kubelets built with Go >= 1.22 (1.30 builds) write \b and \f instead.
// - Admission mutations (the service-account volumeMount) change the hash and are not known here.

import type { Container } from 'kubernetes-types/core/v1';
import { SyncpodError } from '../errors';

const FNV32_OFFSET = 0x811c9dc5;
const FNV32_PRIME = 0x01000193;
const SPEW_PREFIX = '([]uint8)[';

/** Hash of kubelet >= 1.31: Go JSON of {"image": image, "name": name}. */
export function hashContainer(c: { name: string; image?: string }): number {
  const json = `{"image":${goString(c.image ?? '')},"name":${goString(c.name)}}`;
  return hashJsonText(json);
}

/** Hash of kubelet 1.16–1.30: Go JSON of the whole v1.Container. */
export function hashContainerLegacy(c: Container): number {
  return hashJsonText(containerGoJson(c));
}

/**
 * hashWithoutResources of kubelet 1.27–1.30 (only written with InPlacePodVerticalScaling on):
 * the legacy hash after replacing `resources` with its empty value.
 */
export function hashContainerWithoutResources(c: Container): number {
  return hashJsonText(containerGoJson({ ...c, resources: {} }));
}

/** The annotation form: lowercase hex without leading zeros. */
export function formatHash(h: number): string {
  return (h >>> 0).toString(16);
}

/** The Go encoding/json text that the legacy scheme hashes (exported for diagnostics and tests). */
export function containerGoJson(c: Container): string {
  return encodeStruct(c as unknown as Record<string, unknown>, CONTAINER, `container "${c.name ?? ''}"`);
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
// Go encoding/json emulation, driven by field tables copied from nothing but the struct facts:
// JSON key, value kind, and how an absent/zero value is treated.

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
const LIFECYCLE_HANDLER: Field[] = [
  ['exec', { struct: EXEC }, 'ptr'],
  ['httpGet', { struct: HTTP_GET }, 'ptr'],
  ['tcpSocket', { struct: TCP_SOCKET }, 'ptr'],
  ['sleep', { struct: [['seconds', 'int', 'always']] }, 'ptr'],
];
const LIFECYCLE: Field[] = [
  ['postStart', { struct: LIFECYCLE_HANDLER }, 'ptr'],
  ['preStop', { struct: LIFECYCLE_HANDLER }, 'ptr'],
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
const VOLUME_MOUNT: Field[] = [
  ['name', 'string', 'always'],
  ['readOnly', 'bool', 'omit'],
  ['recursiveReadOnly', 'string', 'ptr'],
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
const SECURITY_CONTEXT: Field[] = [
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
  ['appArmorProfile', { struct: TYPED_PROFILE }, 'ptr'],
];
/** v1.Container of release-1.30, in struct order. */
const CONTAINER: Field[] = [
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
  ['volumeMounts', { list: { struct: VOLUME_MOUNT } }, 'omit'],
  ['volumeDevices', { list: { struct: VOLUME_DEVICE } }, 'omit'],
  ['livenessProbe', { struct: PROBE }, 'ptr'],
  ['readinessProbe', { struct: PROBE }, 'ptr'],
  ['startupProbe', { struct: PROBE }, 'ptr'],
  ['lifecycle', { struct: LIFECYCLE }, 'ptr'],
  ['terminationMessagePath', 'string', 'omit'],
  ['terminationMessagePolicy', 'string', 'omit'],
  ['imagePullPolicy', 'string', 'omit'],
  ['securityContext', { struct: SECURITY_CONTEXT }, 'ptr'],
  ['stdin', 'bool', 'omit'],
  ['stdinOnce', 'bool', 'omit'],
  ['tty', 'bool', 'omit'],
];

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

function encodeStruct(obj: Record<string, unknown>, fields: readonly Field[], path: string): string {
  const parts: string[] = [];
  for (const [key, kind, mode] of fields) {
    let v = obj[key];
    if (mode === 'omit' && isEmpty(kind, v)) continue;
    if (mode === 'ptr' && isAbsent(v)) continue;
    if (mode === 'ptrNull' && isAbsent(v)) {
      parts.push(`${goString(key)}:null`);
      continue;
    }
    if (isAbsent(v)) v = zeroValue(kind);
    parts.push(`${goString(key)}:${encodeValue(kind, v, `${path}.${key}`)}`);
  }
  return `{${parts.join(',')}}`;
}

function encodeValue(kind: Kind, v: unknown, path: string): string {
  if (typeof kind === 'object') {
    if ('list' in kind) {
      if (isAbsent(v)) return 'null';
      if (!Array.isArray(v)) throw typeError(path, 'a list');
      return `[${v.map((x, i) => encodeValue(kind.list, x, `${path}[${i}]`)).join(',')}]`;
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw typeError(path, 'an object');
    return encodeStruct(v as Record<string, unknown>, kind.struct, path);
  }
  switch (kind) {
    case 'string':
      if (typeof v !== 'string') throw typeError(path, 'a string');
      return goString(v);
    case 'int':
      if (typeof v !== 'number' || !Number.isInteger(v)) throw typeError(path, 'an integer');
      return String(v);
    case 'bool':
      if (typeof v !== 'boolean') throw typeError(path, 'a boolean');
      return v ? 'true' : 'false';
    case 'intOrString':
      if (typeof v === 'number' && Number.isInteger(v)) return String(v);
      if (typeof v === 'string') return goString(v);
      throw typeError(path, 'an integer or a string');
    case 'quantity':
      return goString(quantityText(v, path));
    case 'quantityMap': {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw typeError(path, 'a map');
      const m = v as Record<string, unknown>;
      // Go sorts map keys by their bytes; resource names are ASCII so code-unit order agrees.
      const keys = Object.keys(m).sort(byBytes);
      return `{${keys.map((k) => `${goString(k)}:${goString(quantityText(m[k], `${path}.${k}`))}`).join(',')}}`;
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

const HEX = '0123456789abcdef';

/** A string as Go's encoding/json writes it (HTML-safe escaping on, as json.Marshal does). */
export function goString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (cp < 0x20 || ch === '<' || ch === '>' || ch === '&') {
      out += `\\u00${HEX[cp >> 4]}${HEX[cp & 15]}`;
    } else if (cp === 0x2028) out += '\\u2028';
    else if (cp === 0x2029) out += '\\u2029';
    else if (cp >= 0xd800 && cp <= 0xdfff) out += '\ufffd'; // lone surrogate: Go sees invalid UTF-8
    else out += ch;
  }
  return `${out}"`;
}

const encoder = new TextEncoder();
function utf8(s: string): Uint8Array {
  return encoder.encode(s);
}
