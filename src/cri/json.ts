// The protobuf JSON mapping for CRI messages.
//
// toProtoJSON gives what Go's protojson gives with EmitDefaultValues (crictl's -o json): JSON
// names, fields in declaration order, 64-bit integers as strings, enums as names, bytes as base64,
// default scalars and empty lists/maps emitted, map keys sorted, unset sub-messages left out
// (EmitDefaultValues, crictl >= 1.31; crictl 1.26's gogo jsonpb printed them as null).
//
// fromProtoJSON reads crictl-style config files (JSON, or YAML parsed to plain values): JSON names
// or proto (snake_case) names, enum names or numbers, 64-bit integers as strings or numbers. It
// returns the complete in-memory shape (see codec.ts) and rejects unknown fields by path.
import type { FieldDescriptor, MessageDescriptor, ProtoPackage, ScalarType } from './gen/schema';
import { newMessage, setMapEntry, type Decoded } from './codec';
import { SyncpodError } from '../errors';

const INT64: ReadonlySet<string> = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
const INT32: ReadonlySet<string> = new Set(['int32', 'uint32', 'sint32', 'fixed32', 'sfixed32']);

function messageDesc(pkg: ProtoPackage, name: string): MessageDescriptor {
  const d = pkg.messages[name];
  if (!d) throw new SyncpodError(`unknown message type ${pkg.package}.${name}`);
  return d;
}

function enumNameOf(pkg: ProtoPackage, ref: string, v: unknown): string | number {
  const values = pkg.enums[ref]?.values;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && values) {
    for (const k in values) if (values[k] === v) return k;
  }
  return v as number;
}

// ---- output ---------------------------------------------------------------------------------

/** Compares strings by Unicode code point (UTF-8 byte order), as Go sorts map keys. */
function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1; // a surrogate pair encodes a code point above every BMP one
    return x - y;
  }
  return a.length - b.length;
}

function sortedKeys(keys: string[], keyType: ScalarType): string[] {
  if (keyType === 'string') return keys.sort(compareCodePoints);
  if (keyType === 'bool') return keys.sort((a, b) => (a === b ? 0 : a === 'false' ? -1 : 1));
  return keys.sort((a, b) => {
    const x = BigInt(a);
    const y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/** Shortest decimal that reads back as the same float32 (Go prints float fields at 32-bit precision). */
function float32Number(v: number): number {
  for (let p = 1; p <= 9; p++) {
    const c = Number(v.toPrecision(p));
    if (Math.fround(c) === v) return c;
  }
  return v;
}

function scalarToJSON(pkg: ProtoPackage, f: FieldDescriptor, v: unknown): unknown {
  const t = f.type;
  if (t === 'string') return v ?? '';
  if (t === 'bool') return v ?? false;
  if (t === 'enum') return enumNameOf(pkg, f.ref!, v ?? 0);
  if (INT64.has(t)) return v === undefined || v === null ? '0' : String(v);
  if (t === 'bytes') return v ? Buffer.from(v as Uint8Array).toString('base64') : '';
  if (t === 'double' || t === 'float') {
    const n = (v ?? 0) as number;
    if (Number.isNaN(n)) return 'NaN';
    if (n === Infinity) return 'Infinity';
    if (n === -Infinity) return '-Infinity';
    return t === 'float' ? float32Number(n) : n;
  }
  return v ?? 0;
}

function messageToJSON(pkg: ProtoPackage, typeName: string, obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of messageDesc(pkg, typeName).fields) {
    const v = obj[f.name];
    const conv = (x: unknown) =>
      f.type === 'message' ? messageToJSON(pkg, f.ref!, (x ?? {}) as Record<string, unknown>) : scalarToJSON(pkg, f, x);
    if (f.map) {
      const m: Record<string, unknown> = {};
      const src = (v ?? {}) as Record<string, unknown>;
      for (const k of sortedKeys(Object.keys(src), f.map)) setMapEntry(m, k, conv(src[k]));
      out[f.name] = m;
    } else if (f.repeated) {
      out[f.name] = ((v ?? []) as unknown[]).map(conv);
    } else if (f.type === 'message') {
      // EmitDefaultValues leaves an unset singular message out (crictl 1.37; 1.26 printed "spec": null).
      if (v !== undefined && v !== null) out[f.name] = conv(v);
    } else out[f.name] = conv(v);
  }
  return out;
}

/**
 * The protobuf JSON form of an in-memory message, as Go's protojson with EmitDefaultValues
 * writes it (crictl -o json): a plain value for JSON.stringify / YAML output.
 */
export function toProtoJSON(pkg: ProtoPackage, typeName: string, obj: unknown): Record<string, unknown> {
  return messageToJSON(pkg, typeName, (obj ?? {}) as Record<string, unknown>);
}

// ---- input ----------------------------------------------------------------------------------

const fieldIndex = new WeakMap<MessageDescriptor, Map<string, FieldDescriptor>>();

function fieldsByName(d: MessageDescriptor): Map<string, FieldDescriptor> {
  let m = fieldIndex.get(d);
  if (!m) {
    m = new Map();
    for (const f of d.fields) {
      m.set(f.name, f);
      m.set(f.protoName, f);
    }
    fieldIndex.set(d, m);
  }
  return m;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return `string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}`;
  return `${typeof v} ${String(v)}`;
}

function fail(path: string, what: string): never {
  throw new SyncpodError(`${path || '(top level)'}: ${what}`);
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);
const DECIMAL = /^-?\d+$/;
const BASE64 = /^[A-Za-z0-9+/\-_]*={0,2}$/;

function parseInteger(path: string, v: unknown, type: string): string | number {
  let big: bigint;
  if (typeof v === 'number') {
    if (!Number.isInteger(v)) fail(path, `expected an integer, got ${describe(v)}`);
    if (!Number.isSafeInteger(v)) fail(path, `${v} is too large to be exact as a JSON number; write it as a string`);
    big = BigInt(v);
  } else if (typeof v === 'string' && DECIMAL.test(v.trim())) big = BigInt(v.trim());
  else fail(path, `expected an integer, got ${describe(v)}`);
  const unsigned = type.startsWith('u') || type === 'fixed32' || type === 'fixed64';
  const bits = INT64.has(type) ? 64n : 32n;
  const min = unsigned ? 0n : -(1n << (bits - 1n));
  const max = unsigned ? (1n << bits) - 1n : (1n << (bits - 1n)) - 1n;
  if (big < min || big > max) fail(path, `${big} is out of range for ${type}`);
  return bits === 64n ? big.toString() : Number(big);
}

function parseScalar(pkg: ProtoPackage, f: FieldDescriptor, v: unknown, path: string): unknown {
  const t = f.type;
  switch (t) {
    case 'string':
      if (typeof v !== 'string') fail(path, `expected a string, got ${describe(v)}`);
      return v;
    case 'bool':
      if (typeof v !== 'boolean') fail(path, `expected true or false, got ${describe(v)}`);
      return v;
    case 'enum': {
      const values = pkg.enums[f.ref!]!.values;
      if (typeof v === 'string') {
        // Signal's values were SIGTERM, … before k8s.io/cri-api v0.37 named them SIGNAL_SIGTERM, …:
        // a config file written with the old names still reads (the numbers are the same).
        if (f.ref === 'Signal' && !Object.hasOwn(values, v) && Object.hasOwn(values, `SIGNAL_${v}`))
          return `SIGNAL_${v}`;
        if (!Object.hasOwn(values, v)) {
          fail(path, `unknown value ${JSON.stringify(v)} for enum ${f.ref} (one of ${Object.keys(values).join(', ')})`);
        }
        return v;
      }
      if (typeof v === 'number' && Number.isInteger(v) && v >= -2147483648 && v <= 2147483647)
        return enumNameOf(pkg, f.ref!, v);
      return fail(path, `expected an enum name or number, got ${describe(v)}`);
    }
    case 'bytes': {
      if (typeof v !== 'string' || !BASE64.test(v)) fail(path, `expected base64 text, got ${describe(v)}`);
      return Buffer.from(v, v.includes('-') || v.includes('_') ? 'base64url' : 'base64');
    }
    case 'double':
    case 'float': {
      if (typeof v === 'number') return v;
      if (v === 'NaN') return NaN;
      if (v === 'Infinity') return Infinity;
      if (v === '-Infinity') return -Infinity;
      if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
      return fail(path, `expected a number, got ${describe(v)}`);
    }
    default:
      if (INT64.has(t) || INT32.has(t)) return parseInteger(path, v, t);
      return fail(path, `unsupported field type ${t}`);
  }
}

function parseMapKey(f: FieldDescriptor, k: string, path: string): string {
  const kt = f.map!;
  if (kt === 'string') return k;
  if (kt === 'bool') {
    if (k !== 'true' && k !== 'false') fail(path, `map key ${JSON.stringify(k)} is not true or false`);
    return k;
  }
  return String(parseInteger(path, k, kt));
}

function parseValue(pkg: ProtoPackage, f: FieldDescriptor, v: unknown, path: string): unknown {
  if (f.type === 'message') return parseMessage(pkg, f.ref!, v, path);
  return parseScalar(pkg, f, v, path);
}

function parseMessage(pkg: ProtoPackage, typeName: string, value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(path, `expected an object (${typeName}), got ${describe(value)}`);
  }
  const d = messageDesc(pkg, typeName);
  const byName = fieldsByName(d);
  const out = newMessage(pkg, typeName) as Record<string, unknown>;
  const seen = new Set<FieldDescriptor>();
  for (const key of Object.keys(value)) {
    const p = join(path, key);
    const f = byName.get(key);
    if (!f) fail(p, 'unknown field');
    if (seen.has(f)) fail(p, `field given twice (as ${f.protoName} and ${f.name})`);
    seen.add(f);
    const v = (value as Record<string, unknown>)[key];
    if (v === null || v === undefined) continue; // null means "not set", as in protojson
    if (f.map) {
      if (typeof v !== 'object' || Array.isArray(v)) fail(p, `expected a map (object), got ${describe(v)}`);
      const m = out[f.name] as Record<string, unknown>;
      for (const k of Object.keys(v)) {
        const kp = `${p}[${JSON.stringify(k)}]`;
        const raw = (v as Record<string, unknown>)[k];
        if (raw === null) fail(kp, 'map values cannot be null');
        setMapEntry(m, parseMapKey(f, k, kp), parseValue(pkg, f, raw, kp));
      }
    } else if (f.repeated) {
      if (!Array.isArray(v)) fail(p, `expected a list, got ${describe(v)}`);
      out[f.name] = v.map((x, i) => {
        if (x === null) fail(`${p}[${i}]`, 'list items cannot be null');
        return parseValue(pkg, f, x, `${p}[${i}]`);
      });
    } else out[f.name] = parseValue(pkg, f, v, p);
  }
  return out;
}

/**
 * Reads a protobuf-JSON value (e.g. a crictl PodSandboxConfig file, JSON or YAML parsed to plain
 * values) into the complete in-memory message. `path` prefixes field paths in errors, which read
 * like `linux.security_context.foo: unknown field` (the names as the file spells them).
 */
export function fromProtoJSON<K extends string>(pkg: ProtoPackage, typeName: K, value: unknown, path = ''): Decoded<K> {
  return parseMessage(pkg, typeName, value, path) as Decoded<K>;
}
