// Reading manifest text the way kubectl does: sigs.k8s.io/yaml, which decodes YAML with its copy of
// go-yaml v2 (YAML 1.1 scalars, resolved by go-yaml v2's resolve.go) and then converts to JSON.
// Restated here as scalar tags for the `yaml` package, plus the checks around it kubectl makes:
// the text must be UTF-8, a Helm/Go template is not a manifest, aliases are bounded. Pure.
//
// Plain (unquoted) scalars, as go-yaml v2 resolves them:
// - null: empty, ~, null, Null, NULL
// - booleans: y Y yes Yes YES true True TRUE on On ON, n N no No NO false False FALSE off Off OFF
// - starting with a digit, + or -: an integer if Go's strconv.ParseInt(s, 0, 64) (then ParseUint)
//   accepts it after removing every '_' (so 0x1F, 0o17, 0b101, 0644 octal = 420, 1_000), else a
//   float if it matches [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? and is finite
//   (1e3, 08 = 8, 1.), else a string (e1, E5, -E1, 1e400, 12:30, 2024-01-01)
// - starting with '.': .inf/.nan families, or a float Go's ParseFloat accepts (.5), else a string
// - anything else is a string.
// JSON cannot hold infinities or NaN, so kubectl refuses .inf and .nan; so do we.

import { Schema, isScalar, visit, type Document, type ScalarTag, type Tags } from 'yaml';

const NULLS = new Set(['', '~', 'null', 'Null', 'NULL']);
const TRUE = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']);
const FALSE = new Set(['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']);
const NOT_JSON = new Set([
  '.nan',
  '.NaN',
  '.NAN',
  '.inf',
  '.Inf',
  '.INF',
  '+.inf',
  '+.Inf',
  '+.INF',
  '-.inf',
  '-.Inf',
  '-.INF',
]);
/** Go's ParseInt/ParseUint with base 0 (sign, then 0x/0o/0b prefix, leading-0 octal, or decimal). */
const GO_INT = /^([-+]?)(?:0[xX]([0-9a-fA-F]+)|0[oO]([0-7]+)|0[bB]([01]+)|0([0-7]*)|([1-9][0-9]*))$/;
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const DOT_FLOAT = /^\.[0-9]+([eE][-+]?[0-9]+)?$/;
const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;
const INT64_MAX = 2n ** 63n - 1n;
const LARGEST_DOUBLE_BELOW_2_63 = 2n ** 63n - 1024n;

function goInteger(plain: string): number | undefined {
  const m = GO_INT.exec(plain);
  if (!m) return undefined;
  const [, sign, hex, oct, bin, leadingZero, dec] = m;
  const digits =
    hex !== undefined
      ? `0x${hex}`
      : oct !== undefined
        ? `0o${oct}`
        : bin !== undefined
          ? `0b${bin}`
          : leadingZero !== undefined
            ? leadingZero === ''
              ? '0'
              : `0o${leadingZero}`
            : dec!;
  const magnitude = BigInt(digits);
  const value = sign === '-' ? -magnitude : magnitude;
  // The largest int64 values (2^63-1 down to 2^63-512) round up to 2^63 as a double, out of the
  // int64 range the schema checks: they read as the largest double below 2^63 instead, so a valid
  // int64 (terminationGracePeriodSeconds: 9223372036854775807) is accepted as the API accepts it.
  if (value <= INT64_MAX && value > LARGEST_DOUBLE_BELOW_2_63) return Number(LARGEST_DOUBLE_BELOW_2_63);
  // ParseInt's int64 range, then ParseUint's (no sign) up to 2^64-1.
  if (value < INT64_MIN) return undefined;
  if (value > UINT64_MAX || (value >= 2n ** 63n && sign !== '')) return undefined;
  return Number(value);
}

/** What go-yaml v2 makes of a plain scalar (strings stay strings). */
export function resolveGoScalar(text: string): null | boolean | number | string {
  if (NULLS.has(text)) return null;
  if (TRUE.has(text)) return true;
  if (FALSE.has(text)) return false;
  const first = text[0];
  if (first === '.') {
    if (NOT_JSON.has(text)) return text;
    return DOT_FLOAT.test(text) ? Number(text) : text;
  }
  if (first === '+' || first === '-' || (first !== undefined && first >= '0' && first <= '9')) {
    if (NOT_JSON.has(text)) return text;
    const plain = text.replaceAll('_', '');
    const int = goInteger(plain);
    if (int !== undefined) return int;
    if (YAML_STYLE_FLOAT.test(plain)) {
      const f = Number(plain);
      if (Number.isFinite(f)) return f;
    }
    const bin = /^(-?)0b([01]+)$/.exec(plain);
    if (bin) return Number(BigInt(`0b${bin[2]}`)) * (bin[1] === '-' ? -1 : 1);
  }
  return text;
}

const goNull: ScalarTag = {
  tag: 'tag:yaml.org,2002:null',
  default: true,
  test: /^(?:~|null|Null|NULL)?$/,
  resolve: () => null,
};
const goBool: ScalarTag = {
  tag: 'tag:yaml.org,2002:bool',
  default: true,
  test: /^(?:[yYnN]|yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/,
  resolve: (s) => TRUE.has(s),
};
/** Every plain scalar that starts like a number; resolves to a number or stays the string. */
const goNumber: ScalarTag = {
  tag: 'tag:yaml.org,2002:float',
  default: true,
  test: /^[-+.0-9]/,
  resolve(s, onError) {
    if (NOT_JSON.has(s)) {
      onError(`${s} is not a value JSON can hold (kubectl refuses it as well): quote it for a string`);
      return s;
    }
    return resolveGoScalar(s) as number | string;
  },
};

const REPLACED = new Set([
  'tag:yaml.org,2002:null',
  'tag:yaml.org,2002:bool',
  'tag:yaml.org,2002:int',
  'tag:yaml.org,2002:float',
  'tag:yaml.org,2002:timestamp',
]);

/**
 * Options for `yaml`'s parseAllDocuments: YAML 1.1 structure (merge keys) with go-yaml v2's scalars.
 * One Schema instance for every document (built per document, it cost more than the parse).
 */
export const KUBECTL_YAML_OPTIONS = {
  version: '1.1' as const,
  // The package compares each key with every earlier one (a 300k-key mapping took minutes);
  // firstDuplicateKey does the same check in one pass.
  uniqueKeys: false,
  schema: new Schema({
    schema: 'yaml-1.1',
    merge: true,
    resolveKnownTags: true,
    customTags: (tags: Tags): Tags => [
      ...tags.filter((t) => !REPLACED.has((t as { tag?: string }).tag ?? '')),
      goNull,
      goBool,
      goNumber,
    ],
  }),
};

export { decodeUtf8 } from '../utf8';

/**
 * The first C0 control character other than tab, LF and CR (NUL, ESC, ...), with its 1-based line
 * and column, or undefined. YAML (go-yaml's reader: "control characters are not allowed") and JSON
 * text hold none; kubectl refuses such a file, and a NUL would otherwise reach names and labels.
 */
export function firstControlCharacter(text: string): { line: number; column: number; code: string } | undefined {
  const m = /[\x00-\x08\x0b\x0c\x0e-\x1f]/.exec(text);
  if (!m) return undefined;
  const before = text.slice(0, m.index);
  const line = before.split('\n').length;
  const column = m.index - before.lastIndexOf('\n');
  return { line, column, code: `U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` };
}

/**
 * The source offset of the first key repeated within one mapping (scalar keys, compared by type
 * and value as the yaml package does; merge keys `<<` may repeat), or undefined.
 */
export function firstDuplicateKey(doc: Document): number | undefined {
  let found: number | undefined;
  visit(doc, {
    Map(_key, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        const k = pair.key;
        if (!isScalar(k) || typeof k.value === 'symbol' || k.value === '<<') continue;
        const id = `${typeof k.value}:${String(k.value)}`;
        if (seen.has(id)) {
          found = k.range?.[0] ?? 0;
          return visit.BREAK;
        }
        seen.add(id);
      }
      return undefined;
    },
  });
  return found;
}

/** A YAML parser message for users: the parser's own stack overflow on deep nesting says so. */
export function yamlProblem(message: string): string {
  const first = message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  return /Maximum call stack size exceeded/.test(first) ? 'nested too deeply (no manifest nests this far)' : first;
}

/**
 * The 1-based line of the first `{{` that YAML would read as structure or plain text (not inside
 * quotes, a comment or a block scalar), or undefined. Helm charts' templates/ hold such files.
 */
export function templateLine(text: string): number | undefined {
  const lines = text.split('\n');
  let blockIndent = -1; // inside a block scalar: lines indented more than this are its content
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    const indent = line.length - line.trimStart().length;
    if (blockIndent >= 0) {
      if (line.trim() === '' || indent > blockIndent) continue;
      blockIndent = -1;
    }
    const code = stripQuotedAndComments(line);
    if (code.includes('{{')) return n + 1;
    if (/(^|[:\-\s])[|>][-+0-9]*\s*$/.test(code)) blockIndent = indent;
  }
  return undefined;
}

function stripQuotedAndComments(line: string): string {
  let out = '';
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (quote === '"' && ch === '\\') i++;
      else if (ch === quote) {
        if (quote === "'" && line[i + 1] === "'") i++;
        else quote = undefined;
      }
      continue;
    }
    if (ch === '#' && (i === 0 || /\s/.test(line[i - 1]!))) break;
    // A quote opens a quoted scalar only where a scalar starts (not inside a plain word: it's).
    if ((ch === '"' || ch === "'") && (i === 0 || /[\s:,[{-]/.test(line[i - 1]!))) {
      quote = ch;
      continue;
    }
    out += ch;
  }
  return out;
}
