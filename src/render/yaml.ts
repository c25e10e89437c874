// YAML as crictl prints it: sigs.k8s.io/yaml JSONToYAML, i.e. the protojson text re-emitted by
// go-yaml v2 — keys in go-yaml's order, block style, sequences not indented under their key, and
// go-yaml's scalar quoting. Written here (no yaml package) so render modules stay light to load.
// Known difference: go-yaml folds plain/quoted scalars longer than 80 columns; this emitter does not.

import type { JsonValue } from './json';

const isLetter = (c: string) => /\p{L}/u.test(c);
const isDigit = (c: string) => /\p{Nd}/u.test(c);

/** go-yaml v2's map key order: letters after other characters, digit runs compared as numbers. */
export function compareYamlKeys(a: string, b: string): number {
  if (a === b) return 0;
  return yamlKeyLess(a, b) ? -1 : 1;
}

function yamlKeyLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]);
    const bl = isLetter(br[i]);
    if (al && bl) return ar[i].codePointAt(0)! < br[i].codePointAt(0)!;
    if (al || bl) return bl;
    let an = 0;
    let bn = 0;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10 + (ar[ai].charCodeAt(0) - 48);
    let bi = i;
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10 + (br[bi].charCodeAt(0) - 48);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i].codePointAt(0)! < br[i].codePointAt(0)!;
  }
  return ar.length < br.length;
}

// Words go-yaml v2 resolves to null, booleans, infinities, NaN or the merge key.
const RESOLVED_WORDS = new Set(
  [
    '~', 'null', 'Null', 'NULL', 'y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON', 'n', 'N', 'no', 'No', 'NO',
    'off', 'Off', 'OFF', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE', '.nan', '.NaN', '.NAN', '.inf',
    '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF', '<<',
  ],
);
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const GO_INT = /^[-+]?(0[xX][0-9a-fA-F]+|0[oO]?[0-7]+|0[bB][01]+|[1-9][0-9]*|0)$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const TIMESTAMP = /^\d{4}-\d{1,2}-\d{1,2}(?:(?:[Tt]| )\d{1,2}:\d{1,2}:\d{1,2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?)?$/;

/** Whether go-yaml v2 would read this plain scalar as something other than a string. */
function resolvesToNonString(s: string): boolean {
  if (s === '') return true;
  if (RESOLVED_WORDS.has(s)) return true;
  const first = s[0];
  if (first === '.') return /^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(s);
  if (first === '+' || first === '-' || (first >= '0' && first <= '9')) {
    if (first >= '0' && first <= '9' && TIMESTAMP.test(s)) return true;
    const plain = s.replace(/_/g, '');
    if (GO_INT.test(plain)) return true;
    if (YAML_STYLE_FLOAT.test(plain)) return true;
  }
  return false;
}

function isPrintable(cp: number): boolean {
  return (
    cp === 0x0a ||
    (cp >= 0x20 && cp <= 0x7e) ||
    cp === 0x85 ||
    (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff) ||
    cp >= 0x10000
  );
}
const isBreak = (c: string) => c === '\n' || c === '\r' || c === '\u0085' || c === '\u2028' || c === '\u2029';
const isBlankZ = (c: string | undefined) => c === undefined || c === ' ' || c === '\t' || isBreak(c) || c === '\0';

interface Analysis {
  blockPlain: boolean;
  singleQuoted: boolean;
  block: boolean;
}

/** libyaml's scalar analysis, block context. */
function analyze(s: string): Analysis {
  const chars = [...s];
  let blockIndicators = s.startsWith('---') || s.startsWith('...');
  let leadingSpace = false, leadingBreak = false, trailingSpace = false, trailingBreak = false;
  let breakSpace = false, spaceBreak = false, special = false, lineBreaks = false;
  let prevSpace = false, prevBreak = false, precededByWs = true;
  chars.forEach((c, i) => {
    const first = i === 0;
    const last = i === chars.length - 1;
    const followedByWs = isBlankZ(chars[i + 1]);
    if (first) {
      if ('#,[]{}&*!|>\'"%@`'.includes(c)) blockIndicators = true;
      if ((c === '?' || c === ':') && followedByWs) blockIndicators = true;
      if (c === '-' && followedByWs) blockIndicators = true;
    } else {
      if (c === ':' && followedByWs) blockIndicators = true;
      if (c === '#' && precededByWs) blockIndicators = true;
    }
    if (!isPrintable(c.codePointAt(0)!)) special = true;
    if (isBreak(c)) lineBreaks = true;
    if (c === ' ') {
      if (first) leadingSpace = true;
      if (last) trailingSpace = true;
      if (prevBreak) breakSpace = true;
      prevSpace = true;
      prevBreak = false;
    } else if (isBreak(c)) {
      if (first) leadingBreak = true;
      if (last) trailingBreak = true;
      if (prevSpace) spaceBreak = true;
      prevBreak = true;
      prevSpace = false;
    } else {
      prevSpace = false;
      prevBreak = false;
    }
    precededByWs = isBlankZ(c);
  });
  let blockPlain = true, singleQuoted = true, block = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) blockPlain = false;
  if (trailingSpace) block = false;
  if (breakSpace) blockPlain = singleQuoted = false;
  if (spaceBreak || special) blockPlain = singleQuoted = block = false;
  if (lineBreaks) blockPlain = false;
  if (blockIndicators) blockPlain = false;
  return { blockPlain, singleQuoted, block };
}

const DOUBLE_ESCAPES: Record<string, string> = {
  '\0': '\\0', '\x07': '\\a', '\b': '\\b', '\t': '\\t', '\n': '\\n', '\x0b': '\\v', '\f': '\\f',
  '\r': '\\r', '\x1b': '\\e', '"': '\\"', '\\': '\\\\', '\u0085': '\\N', '\u00a0': '\\_',
  '\u2028': '\\L', '\u2029': '\\P',
};

function doubleQuoted(s: string): string {
  let out = '"';
  for (const c of s) {
    const cp = c.codePointAt(0)!;
    if (DOUBLE_ESCAPES[c] !== undefined) out += DOUBLE_ESCAPES[c];
    else if (!isPrintable(cp) || cp === 0xfeff) {
      if (cp <= 0xff) out += '\\x' + cp.toString(16).toUpperCase().padStart(2, '0');
      else if (cp <= 0xffff) out += '\\u' + cp.toString(16).toUpperCase().padStart(4, '0');
      else out += '\\U' + cp.toString(16).toUpperCase().padStart(8, '0');
    } else out += c;
  }
  return out + '"';
}

/** A scalar: either one inline token, or a literal block (header + content lines). */
type Scalar = { inline: string } | { header: string; lines: string[] };

function stringScalar(s: string, isKey: boolean): Scalar {
  const a = analyze(s);
  const plainWanted = !resolvesToNonString(s) && !BASE60_FLOAT.test(s);
  if (s.includes('\n') && !isKey) {
    if (!a.block) return { inline: doubleQuoted(s) };
    let chomp = '';
    if (!isBreak(s[s.length - 1])) chomp = '-';
    else if (s.length === 1 || isBreak(s[s.length - 2])) chomp = '+';
    const hint = s[0] === ' ' || isBreak(s[0]) ? '2' : '';
    const body = chomp === '-' ? s : s.replace(/\n$/, '');
    return { header: `|${hint}${chomp}`, lines: body.split('\n') };
  }
  if (plainWanted && a.blockPlain && !s.includes('\n')) return { inline: s };
  if (!plainWanted && !s.includes('\n')) return { inline: doubleQuoted(s) };
  if (a.singleQuoted && !s.includes('\n')) return { inline: `'${s.replace(/'/g, "''")}'` };
  return { inline: doubleQuoted(s) };
}

/** Go's strconv.FormatFloat(f, 'g', -1, 64), as go-yaml prints floats. */
function goFloat(f: number): string {
  if (Number.isInteger(f) && Math.abs(f) < 1e21) return String(f);
  if (!Number.isFinite(f)) return Number.isNaN(f) ? '.nan' : f > 0 ? '+.inf' : '-.inf';
  const [mant, expText] = f.toExponential().split('e');
  const exp = Number(expText);
  const digits = mant.replace('-', '').replace('.', '').length;
  let eprec = 6;
  if (eprec > digits && digits >= exp + 1) eprec = digits;
  if (exp < -4 || exp >= eprec) {
    return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(f);
}

function scalar(value: JsonValue, isKey = false): Scalar {
  if (value === null) return { inline: 'null' };
  if (typeof value === 'boolean') return { inline: value ? 'true' : 'false' };
  if (typeof value === 'number') return { inline: goFloat(value) };
  if (typeof value === 'string') return stringScalar(value, isKey);
  if (Array.isArray(value)) return { inline: '[]' };
  return { inline: '{}' };
}

const isCollection = (v: JsonValue): v is JsonValue[] | { [k: string]: JsonValue } =>
  v !== null && typeof v === 'object' && (Array.isArray(v) ? v.length > 0 : Object.keys(v).length > 0);

function scalarLines(prefix: string, s: Scalar, contentIndent: number): string[] {
  if ('inline' in s) return [`${prefix}${s.inline}`];
  const pad = ' '.repeat(contentIndent);
  return [`${prefix}${s.header}`, ...s.lines.map((l) => (l === '' ? '' : pad + l))];
}

function blockLines(value: JsonValue[] | { [k: string]: JsonValue }, indent: number): string[] {
  const pad = ' '.repeat(indent);
  const out: string[] = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      if (isCollection(item)) {
        const sub = blockLines(item, indent + 2);
        out.push(`${pad}- ${sub[0].slice(indent + 2)}`, ...sub.slice(1));
      } else {
        out.push(...scalarLines(`${pad}- `, scalar(item), indent + 2));
      }
    }
    return out;
  }
  for (const key of Object.keys(value).sort(compareYamlKeys)) {
    const child = value[key];
    const k = scalar(key, true) as { inline: string };
    if (isCollection(child)) {
      out.push(`${pad}${k.inline}:`);
      out.push(...blockLines(child, Array.isArray(child) ? indent : indent + 2));
    } else {
      out.push(...scalarLines(`${pad}${k.inline}: `, scalar(child), indent + 2));
    }
  }
  return out;
}

/** The YAML document go-yaml v2 writes for this JSON value (ends with a newline). */
export function yamlText(value: JsonValue): string {
  if (isCollection(value)) return blockLines(value, 0).join('\n') + '\n';
  return scalarLines('', scalar(value), 2).join('\n') + '\n';
}
