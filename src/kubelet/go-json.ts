// Go encoding/json text of the two API objects kubelet stores in container annotations:
// container.ports (io.kubernetes.container.ports) and lifecycle.preStop
// (io.kubernetes.container.preStopHandler), as kubelet 1.33 writes them with json.Marshal.
//
// What Go does and this mirrors: struct fields in declaration order of the k8s.io/api type,
// `omitempty` fields dropped when empty, no whitespace, HTML-safe escaping (<, >, & as \u003c,
// \u003e, \u0026; U+2028/U+2029 escaped), and fields the Go type does not have are not written
// (Go never sees them). Control characters: \b and \f as written by Go >= 1.22 (kubelet >= 1.30);
// kubelet 1.28, built with Go 1.20, writes \u0008 and \u000c instead.

import type { ContainerPort, LifecycleHandler } from './api-types';
import { SyncpodError } from '../errors';

const HEX = '0123456789abcdef';

/**
 * A JSON string literal exactly as Go's json.Marshal writes it. `goBefore122`: the escaping of Go
 * <= 1.21 (U+0008 and U+000C as \u0008 / \u000c rather than \b / \f), for kubelets built with it.
 */
export function goJsonString(s: string, goBefore122 = false): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = s.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        out += s[i]! + s[i + 1]!;
        i++;
      } else {
        out += '\\ufffd'; // a lone surrogate is invalid UTF-8 for Go: replaced
      }
      continue;
    }
    switch (c) {
      case 0x22:
        out += '\\"';
        break;
      case 0x5c:
        out += '\\\\';
        break;
      case 0x0a:
        out += '\\n';
        break;
      case 0x0d:
        out += '\\r';
        break;
      case 0x09:
        out += '\\t';
        break;
      case 0x08:
        out += goBefore122 ? '\\u0008' : '\\b';
        break;
      case 0x0c:
        out += goBefore122 ? '\\u000c' : '\\f';
        break;
      case 0x3c:
      case 0x3e:
      case 0x26:
        out += `\\u00${HEX[c >> 4]}${HEX[c & 15]}`;
        break;
      case 0x2028:
        out += '\\u2028';
        break;
      case 0x2029:
        out += '\\u2029';
        break;
      default:
        out += c < 0x20 ? `\\u00${HEX[c >> 4]}${HEX[c & 15]}` : s[i]!;
    }
  }
  return out + '"';
}

/** One field of a Go struct: JSON key, how to encode it, and whether it has `omitempty`. */
type Field = [key: string, encode: (v: unknown, where: string) => string | undefined, omitEmpty: boolean];

function str(v: unknown, where: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new SyncpodError(`${where}: expected a string, got ${JSON.stringify(v)}`);
  return v === '' ? undefined : goJsonString(v);
}

function int(v: unknown, where: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw new SyncpodError(`${where}: expected an integer, got ${JSON.stringify(v)}`);
  }
  return v === 0 ? undefined : String(v);
}

/** intstr.IntOrString: a JSON number or a JSON string, never omitted. */
function intOrString(v: unknown, where: string): string | undefined {
  if (typeof v === 'string') return goJsonString(v);
  if (typeof v === 'number' && Number.isInteger(v)) return String(v);
  if (v === undefined || v === null) return '0';
  throw new SyncpodError(`${where}: expected a port number or name, got ${JSON.stringify(v)}`);
}

function list(item: (v: unknown, where: string) => string): Field[1] {
  return (v, where) => {
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v)) throw new SyncpodError(`${where}: expected a list`);
    if (v.length === 0) return undefined;
    return `[${v.map((x, i) => item(x, `${where}[${i}]`)).join(',')}]`;
  };
}

function struct(fields: Field[]): (v: unknown, where: string) => string {
  return (v, where) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new SyncpodError(`${where}: expected an object`);
    const o = v as Record<string, unknown>;
    const parts: string[] = [];
    for (const [key, encode, omitEmpty] of fields) {
      const text = encode(o[key], `${where}.${key}`);
      if (text !== undefined) parts.push(`${goJsonString(key)}:${text}`);
      else if (!omitEmpty) parts.push(`${goJsonString(key)}:${zeroOf(encode)}`);
    }
    return `{${parts.join(',')}}`;
  };
}

/** Zero value of a non-omitempty field whose encoder reported "empty". */
function zeroOf(encode: Field[1]): string {
  if (encode === int) return '0';
  if (encode === str) return '""';
  return 'null';
}

function pointer(enc: (v: unknown, where: string) => string): Field[1] {
  return (v, where) => (v === undefined || v === null ? undefined : enc(v, where));
}

const CONTAINER_PORT = struct([
  ['name', str, true],
  ['hostPort', int, true],
  ['containerPort', int, false],
  ['protocol', str, true],
  ['hostIP', str, true],
]);

const HTTP_HEADER = struct([
  ['name', str, false],
  ['value', str, false],
]);

const LIFECYCLE_HANDLER = struct([
  ['exec', pointer(struct([['command', list((v, w) => str(v, w) ?? '""'), true]])), true],
  [
    'httpGet',
    pointer(
      struct([
        ['path', str, true],
        ['port', intOrString, false],
        ['host', str, true],
        ['scheme', str, true],
        ['httpHeaders', list(HTTP_HEADER), true],
      ]),
    ),
    true,
  ],
  [
    'tcpSocket',
    pointer(
      struct([
        ['port', intOrString, false],
        ['host', str, true],
      ]),
    ),
    true,
  ],
  ['sleep', pointer(struct([['seconds', int, false]])), true],
]);

/** json.Marshal of []v1.ContainerPort. */
export function encodeContainerPorts(ports: ContainerPort[], where = 'ports'): string {
  return `[${ports.map((p, i) => CONTAINER_PORT(p, `${where}[${i}]`)).join(',')}]`;
}

/** json.Marshal of *v1.LifecycleHandler. */
export function encodeLifecycleHandler(h: LifecycleHandler, where = 'lifecycle handler'): string {
  return LIFECYCLE_HANDLER(h, where);
}
