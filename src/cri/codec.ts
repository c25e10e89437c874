// Table-driven protobuf binary codec over the generated descriptor tables (src/cri/gen/).
//
// In-memory shape: keys are JSON names; int64/uint64/sint64/fixed64/sfixed64 are decimal strings;
// other numbers are numbers; enums are value names (an unknown number stays a number); bytes are
// Buffers; maps are plain objects; repeated fields are arrays; an absent sub-message is undefined.
// decode fills every other field with its default; encode accepts partial objects, enum names or
// numbers and 64-bit integers as string, number or bigint. Unknown fields are skipped.
//
// Descriptors are compiled lazily, one message at a time, on first use.
import type { FieldDescriptor, ProtoPackage, ScalarType } from './gen/schema';
import type { MessageTypes } from './gen/types';
import { SyncpodError } from '../errors';

/** The decoded type of a message name (runtime.v1 shapes; v1alpha2 messages share them). */
export type Decoded<K extends string> = K extends keyof MessageTypes ? MessageTypes[K] : any;

// ---- compiled descriptors -------------------------------------------------------------------

enum Kind {
  Double,
  Float,
  Int64,
  Uint64,
  Int32,
  Fixed64,
  Fixed32,
  Bool,
  String,
  Bytes,
  Uint32,
  Sfixed32,
  Sfixed64,
  Sint32,
  Sint64,
  Enum,
  Message,
}

const KIND_OF: Record<ScalarType | 'enum' | 'message', Kind> = {
  double: Kind.Double,
  float: Kind.Float,
  int64: Kind.Int64,
  uint64: Kind.Uint64,
  int32: Kind.Int32,
  fixed64: Kind.Fixed64,
  fixed32: Kind.Fixed32,
  bool: Kind.Bool,
  string: Kind.String,
  bytes: Kind.Bytes,
  uint32: Kind.Uint32,
  sfixed32: Kind.Sfixed32,
  sfixed64: Kind.Sfixed64,
  sint32: Kind.Sint32,
  sint64: Kind.Sint64,
  enum: Kind.Enum,
  message: Kind.Message,
};

/** Wire type of each kind (0 varint, 1 fixed64, 2 length-delimited, 5 fixed32). */
const WIRE: readonly number[] = [1, 5, 0, 0, 0, 1, 5, 0, 2, 2, 0, 5, 1, 0, 0, 0, 2];

interface CEnum {
  readonly byName: Map<string, number>;
  readonly byNumber: Map<number, string>;
  /** The default: name of the value numbered 0 (or 0 when the enum has none). */
  readonly zero: string | number;
}

interface CField {
  readonly d: FieldDescriptor;
  readonly name: string;
  readonly number: number;
  readonly kind: Kind;
  readonly wire: number;
  readonly repeated: boolean;
  readonly packable: boolean;
  /** Map key kind, or -1 for non-map fields. */
  readonly keyKind: number;
  /** Resolved lazily (messages may refer to each other). */
  sub: CMessage | undefined;
  readonly enumT: CEnum | undefined;
}

export interface CMessage {
  readonly pkg: ProtoPackage;
  readonly name: string;
  readonly fields: readonly CField[];
  /** Field by number (sparse array; CRI field numbers are small). */
  readonly byNumber: readonly (CField | undefined)[];
}

const cache = new WeakMap<ProtoPackage, { messages: Map<string, CMessage>; enums: Map<string, CEnum> }>();

function pkgCache(pkg: ProtoPackage) {
  let c = cache.get(pkg);
  if (!c) cache.set(pkg, (c = { messages: new Map(), enums: new Map() }));
  return c;
}

function compileEnum(pkg: ProtoPackage, name: string): CEnum {
  const c = pkgCache(pkg);
  let e = c.enums.get(name);
  if (e) return e;
  const d = pkg.enums[name];
  if (!d) throw new SyncpodError(`unknown enum type ${pkg.package}.${name}`);
  const byName = new Map<string, number>();
  const byNumber = new Map<number, string>();
  for (const [k, v] of Object.entries(d.values)) {
    byName.set(k, v);
    if (!byNumber.has(v)) byNumber.set(v, k);
  }
  e = { byName, byNumber, zero: byNumber.get(0) ?? 0 };
  c.enums.set(name, e);
  return e;
}

/** The compiled form of a message type; throws SyncpodError for an unknown name. */
export function compileMessage(pkg: ProtoPackage, name: string): CMessage {
  const c = pkgCache(pkg);
  let m = c.messages.get(name);
  if (m) return m;
  const d = pkg.messages[name];
  if (!d) throw new SyncpodError(`unknown message type ${pkg.package}.${name}`);
  const fields: CField[] = [];
  const byNumber: (CField | undefined)[] = [];
  for (const fd of d.fields) {
    const kind = KIND_OF[fd.type];
    const isMap = fd.map !== undefined;
    const f: CField = {
      d: fd,
      name: fd.name,
      number: fd.number,
      kind,
      wire: WIRE[kind]!,
      repeated: fd.repeated === true,
      packable: fd.repeated === true && WIRE[kind] !== 2,
      keyKind: isMap ? KIND_OF[fd.map!] : -1,
      sub: undefined,
      enumT: kind === Kind.Enum ? compileEnum(pkg, fd.ref!) : undefined,
    };
    fields.push(f);
    byNumber[fd.number] = f;
  }
  m = { pkg, name, fields, byNumber };
  c.messages.set(name, m);
  return m;
}

function subOf(f: CField, m: CMessage): CMessage {
  return f.sub ?? (f.sub = compileMessage(m.pkg, f.d.ref!));
}

function scalarDefault(kind: Kind, e: CEnum | undefined): unknown {
  switch (kind) {
    case Kind.String:
      return '';
    case Kind.Bool:
      return false;
    case Kind.Int64:
    case Kind.Uint64:
    case Kind.Fixed64:
    case Kind.Sfixed64:
    case Kind.Sint64:
      return '0';
    case Kind.Bytes:
      return Buffer.alloc(0);
    case Kind.Enum:
      return e!.zero;
    default:
      return 0;
  }
}

/** A message with every field at its default (sub-messages undefined), keys in declaration order. */
function defaults(m: CMessage): Record<string, any> {
  const o: Record<string, any> = {};
  const fs = m.fields;
  for (let i = 0; i < fs.length; i++) {
    const f = fs[i]!;
    if (f.keyKind >= 0) o[f.name] = {};
    else if (f.repeated) o[f.name] = [];
    else if (f.kind === Kind.Message) o[f.name] = undefined;
    else o[f.name] = scalarDefault(f.kind, f.enumT);
  }
  return o;
}

/** A new in-memory message of the type with every field at its default. */
export function newMessage<K extends string>(pkg: ProtoPackage, typeName: K): Decoded<K> {
  return defaults(compileMessage(pkg, typeName)) as Decoded<K>;
}

/** Sets a map entry on a plain object, also for the key '__proto__'. */
export function setMapEntry(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__')
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

// ---- decoding -------------------------------------------------------------------------------

const TWO32 = 4294967296;

/** Node's Buffer decodes a byte range as UTF-8 (what toString('utf8', start, end) calls after checking its arguments). */
type Utf8Sliceable = Buffer & { utf8Slice(start: number, end: number): string };

class Reader {
  pos = 0;
  constructor(
    readonly buf: Buffer,
    readonly typeName: string,
  ) {}

  fail(what: string): never {
    throw new SyncpodError(`cannot decode ${this.typeName}: ${what}`);
  }

  /** A varint's low 32 bits as an unsigned number (reads all of it). */
  uint32(): number {
    const buf = this.buf;
    let b = buf[this.pos++]!;
    if (b < 128) return b;
    let v = b & 127;
    b = buf[this.pos++]!;
    v |= (b & 127) << 7;
    if (b < 128) return v;
    b = buf[this.pos++]!;
    v |= (b & 127) << 14;
    if (b < 128) return v;
    b = buf[this.pos++]!;
    v |= (b & 127) << 21;
    if (b < 128) return v;
    b = buf[this.pos++]!;
    v = (v | ((b & 15) << 28)) >>> 0;
    if (b < 128) return v;
    for (let i = 0; i < 5; i++) if (buf[this.pos++]! < 128) return v;
    return this.fail('malformed varint');
  }

  // The last 64-bit value read, as two unsigned halves.
  lo = 0;
  hi = 0;

  varint64(): void {
    const buf = this.buf;
    let lo = 0;
    let hi = 0;
    let b = 0;
    for (let shift = 0; shift < 28; shift += 7) {
      b = buf[this.pos++]!;
      lo |= (b & 127) << shift;
      if (b < 128) {
        this.lo = lo >>> 0;
        this.hi = 0;
        return;
      }
    }
    b = buf[this.pos++]!;
    lo |= (b & 127) << 28;
    hi = (b & 127) >> 4;
    if (b >= 128) {
      for (let shift = 3; ; shift += 7) {
        if (shift > 31) return this.fail('malformed varint');
        b = buf[this.pos++]!;
        hi |= (b & 127) << shift;
        if (b < 128) break;
      }
    }
    this.lo = lo >>> 0;
    this.hi = hi >>> 0;
  }

  fixed64(): void {
    if (this.pos + 8 > this.buf.length) this.fail('truncated');
    this.lo = this.buf.readUInt32LE(this.pos);
    this.hi = this.buf.readUInt32LE(this.pos + 4);
    this.pos += 8;
  }

  string(end: number): string {
    const buf = this.buf;
    const start = this.pos;
    if (end > buf.length) this.fail('truncated');
    this.pos = end;
    // One call into C++ per string: a CLI decodes each list once, before V8 has optimised
    // anything, and a per-byte JS loop is slower than the call there. Buffer's own utf8Slice, not
    // toString('utf8', …): toString's argument handling runs in the interpreter at every call and
    // cost as much as the decoding (a cold ListContainers of 200 containers: 3.5 ms instead of 6).
    return (buf as Utf8Sliceable).utf8Slice(start, end);
  }

  skip(wire: number, fieldNumber: number): void {
    switch (wire) {
      case 0:
        while (this.buf[this.pos++]! >= 128) if (this.pos > this.buf.length) this.fail('truncated');
        break;
      case 1:
        this.pos += 8;
        break;
      case 2: {
        const n = this.uint32();
        this.pos += n;
        break;
      }
      case 3:
        for (;;) {
          if (this.pos >= this.buf.length) this.fail('truncated group');
          const tag = this.uint32();
          if ((tag & 7) === 4) {
            if (tag >>> 3 !== fieldNumber) this.fail('mismatched group end');
            break;
          }
          this.skip(tag & 7, tag >>> 3);
        }
        break;
      case 5:
        this.pos += 4;
        break;
      default:
        this.fail(`invalid wire type ${wire}`);
    }
    if (this.pos > this.buf.length) this.fail('truncated');
  }
}

function u64String(lo: number, hi: number): string {
  if (hi < 0x200000) return String(hi * TWO32 + lo);
  return ((BigInt(hi) << 32n) | BigInt(lo)).toString();
}

function i64String(lo: number, hi: number): string {
  if (hi < 0x200000) return String(hi * TWO32 + lo);
  return BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo)).toString();
}

function zigzag64String(lo: number, hi: number): string {
  if (hi < 0x200000) {
    const n = hi * TWO32 + lo;
    return String(n % 2 === 0 ? n / 2 : -(n + 1) / 2);
  }
  const n = (BigInt(hi) << 32n) | BigInt(lo);
  return ((n >> 1n) ^ -(n & 1n)).toString();
}

/** Reads one value of a non-message kind whose wire type has been checked. */
function readScalar(r: Reader, kind: Kind, e: CEnum | undefined): unknown {
  switch (kind) {
    case Kind.String: {
      const n = r.uint32();
      return r.string(r.pos + n);
    }
    case Kind.Int64:
      r.varint64();
      return i64String(r.lo, r.hi);
    case Kind.Uint64:
      r.varint64();
      return u64String(r.lo, r.hi);
    case Kind.Int32:
      return r.uint32() | 0;
    case Kind.Uint32:
      return r.uint32();
    case Kind.Bool:
      r.varint64();
      return r.lo !== 0 || r.hi !== 0;
    case Kind.Enum: {
      const v = r.uint32() | 0;
      const name = e!.byNumber.get(v);
      return name === undefined ? v : name;
    }
    case Kind.Bytes: {
      const n = r.uint32();
      const end = r.pos + n;
      if (end > r.buf.length) r.fail('truncated');
      const out = Buffer.from(r.buf.subarray(r.pos, end));
      r.pos = end;
      return out;
    }
    case Kind.Double: {
      if (r.pos + 8 > r.buf.length) r.fail('truncated');
      const v = r.buf.readDoubleLE(r.pos);
      r.pos += 8;
      return v;
    }
    case Kind.Float: {
      if (r.pos + 4 > r.buf.length) r.fail('truncated');
      const v = r.buf.readFloatLE(r.pos);
      r.pos += 4;
      return v;
    }
    case Kind.Fixed32: {
      if (r.pos + 4 > r.buf.length) r.fail('truncated');
      const v = r.buf.readUInt32LE(r.pos);
      r.pos += 4;
      return v;
    }
    case Kind.Sfixed32: {
      if (r.pos + 4 > r.buf.length) r.fail('truncated');
      const v = r.buf.readInt32LE(r.pos);
      r.pos += 4;
      return v;
    }
    case Kind.Fixed64:
      r.fixed64();
      return u64String(r.lo, r.hi);
    case Kind.Sfixed64:
      r.fixed64();
      return i64String(r.lo, r.hi);
    case Kind.Sint32: {
      const n = r.uint32();
      return (n >>> 1) ^ -(n & 1);
    }
    case Kind.Sint64:
      r.varint64();
      return zigzag64String(r.lo, r.hi);
    default:
      return r.fail('bad field kind');
  }
}

function mapKeyString(v: unknown): string {
  return typeof v === 'string' ? v : String(v);
}

function readMapEntry(r: Reader, f: CField, m: CMessage, end: number, target: Record<string, unknown>): void {
  let key: unknown;
  let value: unknown;
  while (r.pos < end) {
    const tag = r.uint32();
    const num = tag >>> 3;
    const wire = tag & 7;
    if (num === 1 && wire === WIRE[f.keyKind]) key = readScalar(r, f.keyKind, undefined);
    else if (num === 2 && wire === f.wire) {
      if (f.kind === Kind.Message) {
        const n = r.uint32();
        value = decodeInto(r, subOf(f, m), r.pos + n, undefined);
      } else value = readScalar(r, f.kind, f.enumT);
    } else r.skip(wire, num);
  }
  if (r.pos !== end) r.fail('truncated map entry');
  if (key === undefined) key = scalarDefault(f.keyKind, undefined);
  if (value === undefined) value = f.kind === Kind.Message ? defaults(subOf(f, m)) : scalarDefault(f.kind, f.enumT);
  setMapEntry(target, mapKeyString(key), value);
}

function decodeInto(r: Reader, m: CMessage, end: number, into: Record<string, any> | undefined): Record<string, any> {
  if (end > r.buf.length) r.fail('truncated');
  const o = into ?? defaults(m);
  const byNumber = m.byNumber;
  while (r.pos < end) {
    const tag = r.uint32();
    const num = tag >>> 3;
    const wire = tag & 7;
    const f = byNumber[num];
    if (f === undefined) {
      if (num === 0) r.fail('invalid field number 0');
      r.skip(wire, num);
      continue;
    }
    if (f.keyKind >= 0) {
      if (wire !== 2) {
        r.skip(wire, num);
        continue;
      }
      const n = r.uint32();
      readMapEntry(r, f, m, r.pos + n, o[f.name]);
    } else if (f.kind === Kind.Message) {
      if (wire !== 2) {
        r.skip(wire, num);
        continue;
      }
      const n = r.uint32();
      const sub = subOf(f, m);
      if (f.repeated) o[f.name].push(decodeInto(r, sub, r.pos + n, undefined));
      else o[f.name] = decodeInto(r, sub, r.pos + n, o[f.name]);
    } else if (f.repeated) {
      if (wire === 2 && f.packable) {
        const n = r.uint32();
        const stop = r.pos + n;
        if (stop > end) r.fail('truncated');
        const arr = o[f.name];
        while (r.pos < stop) arr.push(readScalar(r, f.kind, f.enumT));
        if (r.pos !== stop) r.fail('truncated packed field');
      } else if (wire === f.wire) o[f.name].push(readScalar(r, f.kind, f.enumT));
      else r.skip(wire, num);
    } else if (wire === f.wire) {
      o[f.name] = readScalar(r, f.kind, f.enumT);
    } else r.skip(wire, num);
  }
  if (r.pos !== end) r.fail('truncated');
  return o;
}

function asBuffer(buf: Uint8Array): Buffer {
  return Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
}

/** Decodes a binary message into its in-memory shape (every default filled in). */
export function decodeMessage<K extends string>(pkg: ProtoPackage, typeName: K, buf: Uint8Array): Decoded<K> {
  const m = compileMessage(pkg, typeName);
  const b = asBuffer(buf);
  const r = new Reader(b, `${pkg.package}.${typeName}`);
  return decodeInto(r, m, b.length, undefined) as Decoded<K>;
}

// ---- encoding -------------------------------------------------------------------------------

class Writer {
  buf = Buffer.allocUnsafe(8192);
  pos = 0;

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  varint32(v: number): void {
    this.ensure(5);
    const buf = this.buf;
    while (v > 127) {
      buf[this.pos++] = (v & 127) | 128;
      v >>>= 7;
    }
    buf[this.pos++] = v;
  }

  varint64(lo: number, hi: number): void {
    this.ensure(10);
    const buf = this.buf;
    while (hi !== 0) {
      buf[this.pos++] = (lo & 127) | 128;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    while (lo > 127) {
      buf[this.pos++] = (lo & 127) | 128;
      lo >>>= 7;
    }
    buf[this.pos++] = lo;
  }

  fixed64(lo: number, hi: number): void {
    this.ensure(8);
    this.buf.writeUInt32LE(lo, this.pos);
    this.buf.writeUInt32LE(hi, this.pos + 4);
    this.pos += 8;
  }

  /** Starts a length-delimited body; returns the position of its 1-byte length placeholder. */
  begin(): number {
    this.ensure(1);
    return this.pos++;
  }

  /** Ends a body started with begin(): writes its length, moving the body if it needs more bytes. */
  end(lenPos: number): void {
    const bodyStart = lenPos + 1;
    const len = this.pos - bodyStart;
    if (len < 128) {
      this.buf[lenPos] = len;
      return;
    }
    let size = 1;
    for (let v = len >>> 7; v > 0; v >>>= 7) size++;
    this.ensure(size - 1);
    this.buf.copyWithin(bodyStart + size - 1, bodyStart, this.pos);
    this.pos += size - 1;
    const save = this.pos;
    this.pos = lenPos;
    this.varint32(len);
    this.pos = save;
  }

  string(s: string): void {
    const n = s.length;
    if (n < 128) {
      this.ensure(n + 1);
      const buf = this.buf;
      const lenPos = this.pos;
      let p = lenPos + 1;
      let ascii = true;
      for (let i = 0; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c > 127) {
          ascii = false;
          break;
        }
        buf[p++] = c;
      }
      if (ascii) {
        buf[lenPos] = n;
        this.pos = p;
        return;
      }
    }
    const bytes = Buffer.byteLength(s, 'utf8');
    this.varint32(bytes);
    this.ensure(bytes);
    this.buf.write(s, this.pos, bytes, 'utf8');
    this.pos += bytes;
  }

  bytes(b: Uint8Array): void {
    this.varint32(b.length);
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }
}

const scratch = new Writer();

class EncodeError extends Error {}

function typeOfValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v);
  return typeof v === 'object' ? 'object' : `${typeof v} ${String(v)}`;
}

const MAX_U64 = (1n << 64n) - 1n;
const MIN_I64 = -(1n << 63n);
const MAX_I64 = (1n << 63n) - 1n;
const DECIMAL = /^-?\d+$/;

/** A 64-bit integer input as number (when exact) or bigint; throws EncodeError if not an integer in range. */
function int64Value(v: unknown, signed: boolean): number | bigint {
  let n: number | bigint;
  if (typeof v === 'number') {
    if (!Number.isInteger(v)) throw new EncodeError(`expected an integer, got ${typeOfValue(v)}`);
    n = Number.isSafeInteger(v) ? v : BigInt(v);
  } else if (typeof v === 'string') {
    if (!DECIMAL.test(v)) throw new EncodeError(`expected a decimal integer, got ${typeOfValue(v)}`);
    n = v.length <= 15 ? Number(v) : BigInt(v);
  } else if (typeof v === 'bigint') n = v;
  else throw new EncodeError(`expected an integer, got ${typeOfValue(v)}`);
  if (typeof n === 'bigint') {
    if (signed ? n < MIN_I64 || n > MAX_I64 : n < 0n || n > MAX_U64) throw new EncodeError(`${n} is out of range`);
    if (n >= -9007199254740991n && n <= 9007199254740991n) n = Number(n);
  } else if (!signed && n < 0) throw new EncodeError(`${n} is out of range`);
  return n;
}

function isZero64(n: number | bigint): boolean {
  return n === 0 || n === 0n;
}

/** Splits a 64-bit two's-complement value into unsigned 32-bit halves. */
function split64(n: number | bigint): [number, number] {
  if (typeof n === 'number' && n >= 0) {
    const lo = n >>> 0;
    return [lo, (n - lo) / TWO32];
  }
  const u = BigInt.asUintN(64, BigInt(n));
  return [Number(u & 0xffffffffn), Number(u >> 32n)];
}

function int32Value(v: unknown, signed: boolean): number {
  if (typeof v === 'string' && DECIMAL.test(v)) v = Number(v);
  if (typeof v !== 'number' || !Number.isInteger(v))
    throw new EncodeError(`expected an integer, got ${typeOfValue(v)}`);
  if (signed ? v < -2147483648 || v > 2147483647 : v < 0 || v > 4294967295)
    throw new EncodeError(`${v} is out of range`);
  return v;
}

function enumValue(v: unknown, e: CEnum): number {
  if (typeof v === 'string') {
    const n = e.byName.get(v);
    if (n === undefined) throw new EncodeError(`unknown enum value ${JSON.stringify(v)}`);
    return n;
  }
  return int32Value(v, true);
}

function numberValue(v: unknown): number {
  if (typeof v === 'number') return v;
  if (v === 'NaN') return NaN;
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  throw new EncodeError(`expected a number, got ${typeOfValue(v)}`);
}

/** True when a singular scalar holds its default (proto3 leaves it off the wire). */
function isDefault(kind: Kind, v: unknown): boolean {
  switch (kind) {
    case Kind.String:
      return v === '';
    case Kind.Bool:
      return v === false;
    case Kind.Bytes:
      return v instanceof Uint8Array && v.length === 0;
    case Kind.Double:
    case Kind.Float:
      return v === 0 && !Object.is(v, -0);
    default:
      return v === 0 || v === '0' || v === 0n;
  }
}

/** Writes one value (no tag) of a non-message kind. */
function writeScalar(w: Writer, kind: Kind, e: CEnum | undefined, v: unknown): void {
  switch (kind) {
    case Kind.String:
      if (typeof v !== 'string') throw new EncodeError(`expected a string, got ${typeOfValue(v)}`);
      w.string(v);
      return;
    case Kind.Bool:
      if (typeof v !== 'boolean') throw new EncodeError(`expected a boolean, got ${typeOfValue(v)}`);
      w.varint32(v ? 1 : 0);
      return;
    case Kind.Int32:
    case Kind.Enum: {
      const n = kind === Kind.Enum ? enumValue(v, e!) : int32Value(v, true);
      if (n >= 0) w.varint32(n);
      else w.varint64(n >>> 0, 0xffffffff);
      return;
    }
    case Kind.Uint32:
      w.varint32(int32Value(v, false));
      return;
    case Kind.Sint32: {
      const n = int32Value(v, true);
      w.varint32(((n << 1) ^ (n >> 31)) >>> 0);
      return;
    }
    case Kind.Int64:
    case Kind.Uint64: {
      const [lo, hi] = split64(int64Value(v, kind === Kind.Int64));
      w.varint64(lo, hi);
      return;
    }
    case Kind.Sint64: {
      const n = int64Value(v, true);
      const z =
        typeof n === 'number' && Math.abs(n) < 2 ** 51
          ? n >= 0
            ? 2 * n
            : -2 * n - 1
          : BigInt.asUintN(64, (BigInt(n) << 1n) ^ (BigInt(n) >> 63n));
      const [lo, hi] = split64(z);
      w.varint64(lo, hi);
      return;
    }
    case Kind.Fixed64:
    case Kind.Sfixed64: {
      const [lo, hi] = split64(int64Value(v, kind === Kind.Sfixed64));
      w.fixed64(lo, hi);
      return;
    }
    case Kind.Fixed32:
    case Kind.Sfixed32: {
      const n = int32Value(v, kind === Kind.Sfixed32);
      w.ensure(4);
      w.buf.writeUInt32LE(n >>> 0, w.pos);
      w.pos += 4;
      return;
    }
    case Kind.Double:
      w.ensure(8);
      w.buf.writeDoubleLE(numberValue(v), w.pos);
      w.pos += 8;
      return;
    case Kind.Float:
      w.ensure(4);
      w.buf.writeFloatLE(numberValue(v), w.pos);
      w.pos += 4;
      return;
    case Kind.Bytes:
      if (!(v instanceof Uint8Array)) throw new EncodeError(`expected bytes (Uint8Array), got ${typeOfValue(v)}`);
      w.bytes(v);
      return;
    default:
      throw new EncodeError('bad field kind');
  }
}

function mapKeyValue(kind: Kind, k: string): unknown {
  if (kind === Kind.String) return k;
  if (kind === Kind.Bool) {
    if (k === 'true') return true;
    if (k === 'false') return false;
    throw new EncodeError(`map key ${JSON.stringify(k)} is not a boolean`);
  }
  return k; // integer kinds accept decimal strings
}

function encodeFields(w: Writer, m: CMessage, o: Record<string, unknown>): void {
  if (typeof o !== 'object' || o === null || Array.isArray(o))
    throw new EncodeError(`expected an object, got ${typeOfValue(o)}`);
  const fs = m.fields;
  for (let i = 0; i < fs.length; i++) {
    const f = fs[i]!;
    const v = o[f.name];
    if (v === undefined || v === null) continue;
    try {
      encodeField(w, m, f, v);
    } catch (err) {
      if (err instanceof EncodeError && !(err as { located?: boolean }).located) {
        (err as { located?: boolean }).located = true;
        err.message = `${m.name}.${f.name}: ${err.message}`;
      }
      throw err;
    }
  }
}

function encodeField(w: Writer, m: CMessage, f: CField, v: unknown): void {
  if (f.keyKind >= 0) {
    if (typeof v !== 'object' || Array.isArray(v))
      throw new EncodeError(`expected a map (object), got ${typeOfValue(v)}`);
    const tag = (f.number << 3) | 2;
    for (const k of Object.keys(v as object)) {
      const val = (v as Record<string, unknown>)[k];
      if (val === undefined) continue;
      w.varint32(tag);
      const at = w.begin();
      w.varint32((1 << 3) | WIRE[f.keyKind]!);
      writeScalar(w, f.keyKind, undefined, mapKeyValue(f.keyKind, k));
      w.varint32((2 << 3) | f.wire);
      if (f.kind === Kind.Message) {
        const inner = w.begin();
        encodeFields(w, subOf(f, m), (val ?? {}) as Record<string, unknown>);
        w.end(inner);
      } else writeScalar(w, f.kind, f.enumT, val);
      w.end(at);
    }
    return;
  }
  if (f.repeated) {
    if (!Array.isArray(v)) throw new EncodeError(`expected an array, got ${typeOfValue(v)}`);
    if (v.length === 0) return;
    if (f.packable) {
      w.varint32((f.number << 3) | 2);
      const at = w.begin();
      for (const x of v) writeScalar(w, f.kind, f.enumT, x);
      w.end(at);
    } else if (f.kind === Kind.Message) {
      const sub = subOf(f, m);
      const tag = (f.number << 3) | 2;
      for (const x of v) {
        w.varint32(tag);
        const at = w.begin();
        encodeFields(w, sub, x as Record<string, unknown>);
        w.end(at);
      }
    } else {
      const tag = (f.number << 3) | f.wire;
      for (const x of v) {
        w.varint32(tag);
        writeScalar(w, f.kind, f.enumT, x);
      }
    }
    return;
  }
  if (f.kind === Kind.Message) {
    w.varint32((f.number << 3) | 2);
    const at = w.begin();
    encodeFields(w, subOf(f, m), v as Record<string, unknown>);
    w.end(at);
    return;
  }
  if (isDefault(f.kind, v)) return;
  if (f.kind === Kind.Enum && enumValue(v, f.enumT!) === 0) return;
  if (
    (f.kind === Kind.Int64 ||
      f.kind === Kind.Uint64 ||
      f.kind === Kind.Sint64 ||
      f.kind === Kind.Fixed64 ||
      f.kind === Kind.Sfixed64) &&
    isZero64(int64Value(v, f.kind !== Kind.Uint64 && f.kind !== Kind.Fixed64))
  )
    return;
  w.varint32((f.number << 3) | f.wire);
  writeScalar(w, f.kind, f.enumT, v);
}

/**
 * Encodes an in-memory message (any field may be missing) to protobuf binary.
 * Throws SyncpodError naming the field for a value of the wrong type.
 */
export function encodeMessage(pkg: ProtoPackage, typeName: string, obj: unknown): Buffer {
  const m = compileMessage(pkg, typeName);
  const w = scratch;
  w.pos = 0;
  try {
    encodeFields(w, m, (obj ?? {}) as Record<string, unknown>);
  } catch (err) {
    w.pos = 0;
    if (err instanceof EncodeError) throw new SyncpodError(`cannot encode ${pkg.package}.${typeName}: ${err.message}`);
    throw err;
  }
  const out = Buffer.from(w.buf.subarray(0, w.pos));
  // Do not keep a huge scratch buffer alive after one big message.
  if (w.buf.length > 1 << 20) w.buf = Buffer.allocUnsafe(8192);
  w.pos = 0;
  return out;
}
