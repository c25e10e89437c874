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
  return doc
    .toString({ singleQuote: true, indentSeq: false, lineWidth: 0 })
    .replace(/[\ufeff\ufffe\uffff]|[\u{10000}-\u{10ffff}]/gu, (ch) => {
      const cp = ch.codePointAt(0)!;
      return cp > 0xffff
        ? `\\U${cp.toString(16).toUpperCase().padStart(8, '0')}`
        : `\\u${cp.toString(16).toUpperCase()}`;
    });
}
