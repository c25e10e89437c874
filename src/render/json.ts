// JSON text in the two styles crictl prints: protojson (field order as given, for list envelopes)
// and Go's encoding/json (keys sorted, <>& escaped, for inspect/info which go through map[string]any).

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** protojson with two-space indent: keys in the order of the given objects (proto declaration order). */
export function protoJSONText(value: JsonValue): string {
  return JSON.stringify(value, null, 2);
}

const GO_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

function goString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => GO_ESCAPES[c]);
}

/** Byte-wise (UTF-8) key order, as Go sorts map keys. */
export function compareGoStrings(a: string, b: string): number {
  const ba = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  return Buffer.compare(ba, bb);
}

/** Go's json.MarshalIndent(v, "", "  ") for values decoded into map[string]any: keys sorted. */
export function goJSONText(value: JsonValue, indent = ''): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return goString(value);
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const inner = indent + '  ';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => inner + goJSONText(v, inner)).join(',\n')}\n${indent}]`;
  }
  const keys = Object.keys(value).sort(compareGoStrings);
  if (keys.length === 0) return '{}';
  return `{\n${keys.map((k) => `${inner}${goString(k)}: ${goJSONText(value[k], inner)}`).join(',\n')}\n${indent}}`;
}
