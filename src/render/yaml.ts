// YAML as crictl prints it (sigs.k8s.io/yaml JSONToYAML: the JSON re-emitted by go-yaml v2 from a
// map), written by the `yaml` package: keys sorted in go-yaml's order, block style, sequences not
// indented under their key, no line folding. Any string that a YAML 1.1 reader (go-yaml, kubectl)
// or a YAML 1.2 reader would take for something else ("", "true", "y", "1700000000000000000",
// "0o17", timestamps, "1:20") is quoted, so parsing the text gives back exactly the JSON data.
// Quoted as go-yaml quotes: double quotes for a string that would read as another type, single
// quotes for one that only cannot be written plain.

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

type Yaml = typeof import('yaml');

function keyText(yaml: Yaml, key: unknown): string {
  return String(yaml.isScalar(key) ? key.value : key);
}

export interface YamlOptions {
  /**
   * Keys in go-yaml's map order, as crictl prints its JSON-through-a-map YAML (default). false keeps
   * the data's own field order (plans, reports).
   */
  sortKeys?: boolean;
  /**
   * Long one-line scalars folded as go-yaml v2 folds them (crictl's -o yaml: sigs.k8s.io/yaml);
   * default false (syncpod's own documents keep one line per value).
   */
  goFold?: boolean;
}

/** go-yaml's best_width: a scalar breaks at the first single space once a line is past it. */
const GO_YAML_WIDTH = 80;

/**
 * Folds the one-line scalars of a block YAML text as go-yaml v2's emitter does: inside a mapping
 * value or sequence item written plain, single- or double-quoted, at a space that follows a
 * non-space, when the line already holds more than 80 characters and the next character is not a
 * space (quoted: and the space is neither the first nor the last character of the value), the space
 * becomes a line break and the scalar's indentation (its key's or dash's column + 2; double-quoted,
 * a following space is kept as "\ "). Keys and block scalars are left alone. Reading the text gives
 * the same values: a fold is read back as the one space it replaced.
 */
export function goYamlFold(text: string): string {
  const out: string[] = [];
  let blockIndent = -1; // inside a block scalar's content: lines indented more than this
  for (const line of text.split('\n')) {
    const indent = line.length - line.trimStart().length;
    if (blockIndent >= 0) {
      if (line.trim() === '' || indent > blockIndent) {
        out.push(line);
        continue;
      }
      blockIndent = -1;
    }
    if (/(^|[\s:-])[|>][-+0-9]*$/.test(line) && /(: |- |^)[|>][-+0-9]*$/.test(line.trimStart())) {
      blockIndent = indent;
      out.push(line);
      continue;
    }
    out.push(foldLine(line));
  }
  return out.join('\n');
}

/** The end (index after) of a quoted scalar starting at `i` (its quote), or -1. */
function quotedEnd(line: string, i: number): number {
  const q = line[i];
  for (let j = i + 1; j < line.length; j++) {
    if (q === '"' && line[j] === '\\') j++;
    else if (line[j] === q) {
      if (q === "'" && line[j + 1] === "'") j++;
      else return j + 1;
    }
  }
  return -1;
}

function foldLine(line: string): string {
  let i = line.length - line.trimStart().length;
  let dash = -1;
  while (line.startsWith('- ', i)) {
    dash = i;
    i += 2;
  }
  if (i >= line.length) return line;
  // A key (plain up to ": ", or quoted followed by ":"), then its value; else the item's scalar.
  let valueStart = -1;
  let indent: number;
  if (line[i] === '"' || line[i] === "'") {
    const end = quotedEnd(line, i);
    if (end < 0) return line;
    if (line.startsWith(': ', end)) valueStart = end + 2;
    else if (end === line.length && dash >= 0) valueStart = i;
    else return line;
  } else {
    const colon = line.indexOf(': ', i);
    if (colon >= 0) valueStart = colon + 2;
    else if (dash >= 0 && !line.endsWith(':')) valueStart = i;
    else return line;
  }
  indent = (valueStart === i ? dash : i) + 2;
  const value = line.slice(valueStart);
  if (value === '' || value.startsWith('|') || value.startsWith('>')) return line;
  const style = value[0] === '"' || value[0] === "'" ? value[0] : '';
  if (style && quotedEnd(value, 0) !== value.length) return line;
  const chars = [...value];
  const head = [...line.slice(0, valueStart)];
  let column = head.length;
  let outText = line.slice(0, valueStart);
  let spaces = false;
  const first = style ? 1 : 0;
  const last = style ? chars.length - 2 : chars.length - 1;
  for (let k = 0; k < chars.length; k++) {
    const c = chars[k];
    if (c === ' ' && k >= first && k <= last) {
      const inner = k > first && k < last;
      const nextSpace = chars[k + 1] === ' ';
      const breakHere =
        !spaces && column > GO_YAML_WIDTH && (style === '"' ? inner : style === "'" ? inner && !nextSpace : !nextSpace);
      if (breakHere) {
        outText += `\n${' '.repeat(indent)}`;
        column = indent;
        if (style === '"' && nextSpace) {
          outText += '\\';
          column++;
        }
      } else {
        outText += c;
        column++;
      }
      spaces = true;
    } else {
      outText += c;
      column++;
      spaces = false;
    }
  }
  return outText;
}

/**
 * go-yaml's own reading of a plain scalar as a number, beyond YAML 1.1's: every '_' dropped, then
 * Go's ParseInt with base prefix (0x, 0o, 0b in either case) or its float syntax.
 */
function goYamlNumber(s: string): boolean {
  if (!/^[-+.0-9]/.test(s)) return false;
  const plain = s.replace(/_/g, '');
  return /^[-+]?(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|\.[0-9]+([eE][-+]?[0-9]+)?|[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?)$/.test(
    plain,
  );
}

/**
 * What go-yaml writes double-quoted whatever else holds: a character outside its printable set
 * (tab and other controls, surrogates, U+FEFF, U+FFFE/U+FFFF, anything beyond U+FFFF), a
 * space right before a line break, and a multi-line string with a trailing space (no block style).
 */
function mustBeDoubleQuoted(s: string): boolean {
  if (/[^\n\x20-\x7e\u0085\u00a0-\ud7ff\ue000-\ufefe\uff00-\ufffd]/u.test(s)) return true;
  if (s.includes(' \n')) return true;
  return s.includes('\n') && s.endsWith(' ');
}

/**
 * The one YAML writer: the YAML document for this JSON-shaped value (ends with a newline). Every
 * string a YAML 1.1 reader (kubectl's go-yaml, PyYAML) would resolve to a bool, number, null or
 * timestamp is quoted, so either reader gets the same data back.
 */
export function yamlText(value: JsonValue | object, opts: YamlOptions = {}): string {
  // Loaded here so table, -q and JSON output never evaluate the yaml package.
  const yaml = require('yaml') as Yaml;
  const doc = new yaml.Document(value, {
    // Emitted as YAML 1.2, but also quote what YAML 1.1 readers resolve (yes/no/on/off/y/n,
    // sexagesimal numbers, timestamps).
    compat: 'yaml-1.1',
    sortMapEntries:
      opts.sortKeys === false ? false : (a, b) => compareYamlKeys(keyText(yaml, a.key), keyText(yaml, b.key)),
  });
  // go-yaml's quoting: a string that would read as another type is double-quoted; one that only
  // cannot be written plain ("[]", "a: b", "*x", " lead") is single-quoted.
  const { tags, compat } = doc.schema;
  const typed = (t: { default?: unknown; tag: string; test?: RegExp }, s: string) =>
    !!t.default && t.tag !== 'tag:yaml.org,2002:str' && !!t.test?.test(s);
  const readsAsOtherType = (s: string) =>
    s === '' || tags.some((t) => typed(t, s)) || (compat ?? []).some((t) => typed(t, s)) || goYamlNumber(s);
  yaml.visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value !== 'string') return;
      const s = node.value;
      if (readsAsOtherType(s) || mustBeDoubleQuoted(s)) node.type = 'QUOTE_DOUBLE';
      else if (s.startsWith('---') || s.startsWith('...')) node.type = 'QUOTE_SINGLE';
      // The yaml package double-quotes a string holding ' (and no "); go-yaml single-quotes it when it cannot be plain.
      else if (
        s.includes("'") &&
        !s.includes('"') &&
        !/[\n\p{Cc}]/u.test(s) &&
        yaml.stringify(s, { lineWidth: 0 }).startsWith('"')
      )
        node.type = 'QUOTE_SINGLE';
    },
  });
  // Inside double quotes go-yaml escapes U+FEFF, U+FFFE/U+FFFF and every code point beyond U+FFFF
  // (\uXXXX, \UXXXXXXXX); only double-quoted scalars can hold them (mustBeDoubleQuoted).
  const text = doc.toString({ singleQuote: true, indentSeq: false, lineWidth: 0 });
  return (opts.goFold ? goYamlFold(text) : text).replace(/[\ufeff\ufffe\uffff]|[\u{10000}-\u{10ffff}]/gu, (ch) => {
    const cp = ch.codePointAt(0)!;
    return cp > 0xffff ? `\\U${cp.toString(16).toUpperCase().padStart(8, '0')}` : `\\u${cp.toString(16).toUpperCase()}`;
  });
}
