// Go's text/template, run on the JSON crictl feeds its `-o go-template --template` (decoded with
// UseNumber, option missingkey=error, crictl's json/title/lower/upper functions). Hand-written: the npm
// packages found are wrappers around a Go binary or do plain substitution only.
//
// As Go 1.26 does it: truth of every kind (0, 0.0, "", empty list or map and nil are false; a
// json.Number is a string, so "0" is true), and/or evaluating their arguments only as far as needed,
// eq/ne/lt/le/gt/ge on basic kinds (int and float64 constants are not json.Number), index and slice,
// len, not, print/printf/println as fmt (src/render/go-fmt.ts), range over lists, maps (sorted keys)
// and integers, break/continue, variables, pipelines, parenthesised commands, Go string, raw string,
// character and number literals. Not supported: define/template/block, methods, call, html/js/urlquery.
import { SyncpodError } from '../errors';

import {
  compareGoStrings,
  GoInt,
  GoNumber,
  type GoValue,
  goShow,
  goSprint,
  goSprintf,
  goSprintln,
  goTypeName,
  isMap,
} from './go-fmt';

type Value = GoValue;

// ---- lexing and parsing ------------------------------------------------------------------------

type Node =
  | { t: 'text'; text: string }
  | { t: 'break' | 'continue' }
  | { t: 'action'; pipe: Pipeline }
  | { t: 'if' | 'with'; pipe: Pipeline; body: Node[]; else?: Node[] }
  | { t: 'range'; pipe: Pipeline; body: Node[]; else?: Node[] };

interface Pipeline {
  decl: string[];
  assign: boolean;
  cmds: Arg[][];
}

type Arg =
  | { t: 'field'; base: 'dot' | string; path: string[] }
  | { t: 'ident'; name: string }
  | { t: 'lit'; value: Value }
  | { t: 'sub'; pipe: Pipeline };

function fail(msg: string): never {
  throw new SyncpodError(`--template: ${msg}`);
}

/** Splits the template into text and the insides of {{ }}, applying trim markers. */
function split(src: string): Array<{ text: string } | { action: string }> {
  const out: Array<{ text: string } | { action: string }> = [];
  let i = 0;
  let trimNext = false;
  while (i < src.length) {
    const open = src.indexOf('{{', i);
    let text = open < 0 ? src.slice(i) : src.slice(i, open);
    if (trimNext) text = text.replace(/^\s+/, '');
    if (open < 0) {
      if (text) out.push({ text });
      break;
    }
    let start = open + 2;
    if (src.startsWith('- ', start) || src.startsWith('-\t', start) || src.startsWith('-\n', start)) {
      text = text.replace(/\s+$/, '');
      start += 1;
    }
    if (text) out.push({ text });
    // find the closing }} outside string literals
    let j = start;
    let quote = '';
    for (; j < src.length; j++) {
      const ch = src[j]!;
      if (quote) {
        if (ch === '\\' && quote === '"') j++;
        else if (ch === quote) quote = '';
      } else if (ch === '"' || ch === '`' || ch === "'") quote = ch;
      else if (src.startsWith('}}', j)) break;
    }
    if (j >= src.length) fail('unclosed action');
    let inner = src.slice(start, j);
    trimNext = false;
    if (/\s-$/.test(inner)) {
      inner = inner.slice(0, -1);
      trimNext = true;
    }
    out.push({ action: inner.trim() });
    i = j + 2;
  }
  return out;
}

/** Marks a token that is a field chain right after `)`. */
const CHAIN = '\u0000';

function tokenize(s: string): string[] {
  const toks: string[] = [];
  let i = 0;
  while (i < s.length) {
    const ch = s[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '"') {
      let j = i + 1;
      while (j < s.length && s[j] !== '"') j += s[j] === '\\' ? 2 : 1;
      toks.push(s.slice(i, j + 1));
      i = j + 1;
    } else if (ch === '`') {
      const j = s.indexOf('`', i + 1);
      if (j < 0) fail('unterminated raw string');
      toks.push(s.slice(i, j + 1));
      i = j + 1;
    } else if (ch === "'") {
      const j = s.indexOf("'", i + 1);
      toks.push(s.slice(i, j + 1));
      i = j + 1;
    } else if (ch === ')' && s[i + 1] === '.' && /[A-Za-z_]/.test(s[i + 2] ?? '')) {
      // (x).field: a field chain on the parenthesised value, written with no space before the dot
      let j = i + 1;
      while (j < s.length && !/[\s()|,=]/.test(s[j]!)) j++;
      toks.push(')', `${CHAIN}${s.slice(i + 1, j)}`);
      i = j;
    } else if (ch === '(' || ch === ')' || ch === '|' || ch === ',') {
      toks.push(ch);
      i++;
    } else if (s.startsWith(':=', i)) {
      toks.push(':=');
      i += 2;
    } else if (ch === '=') {
      toks.push('=');
      i++;
    } else {
      let j = i;
      while (j < s.length && !/[\s()|,=]/.test(s[j]!) && !s.startsWith(':=', j)) j++;
      toks.push(s.slice(i, j));
      i = j;
    }
  }
  return toks;
}

/** Go's escape sequences in an interpreted string or character literal (strconv.Unquote). */
function unquoteGo(body: string, quote: string, tok: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === quote) fail(`bad literal ${tok}`);
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[++i];
    const simple: Record<string, string> = {
      a: '\x07',
      b: '\b',
      f: '\f',
      n: '\n',
      r: '\r',
      t: '\t',
      v: '\v',
      '\\': '\\',
    };
    if (e !== undefined && e in simple) out += simple[e];
    else if (e === quote) out += quote;
    else if (e === 'x' || e === 'u' || e === 'U') {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const h = body.slice(i + 1, i + 1 + n);
      if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(h)) fail(`bad escape in ${tok}`);
      const cp = Number.parseInt(h, 16);
      // A byte above 0x7f alone is not UTF-8: JavaScript text cannot hold it, so it reads as U+FFFD.
      if (e === 'x') out += cp < 0x80 ? String.fromCharCode(cp) : '\uFFFD';
      else {
        if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) fail(`bad escape in ${tok}`);
        out += String.fromCodePoint(cp);
      }
      i += n;
    } else if (e !== undefined && e >= '0' && e <= '7') {
      const o = body.slice(i, i + 3);
      if (!/^[0-7]{3}$/.test(o) || Number.parseInt(o, 8) > 255) fail(`bad escape in ${tok}`);
      const b = Number.parseInt(o, 8);
      out += b < 0x80 ? String.fromCharCode(b) : String.fromCharCode(0xfffd);
      i += 2;
    } else fail(`bad escape in ${tok}`);
  }
  return out;
}

/** A number constant as text/template types it: an int unless it has . e E p P (not hex), else float64. */
function numberLiteral(tok: string): Value {
  const t = tok.replace(/_/g, '');
  const sign = t.startsWith('-') ? -1n : 1n;
  const body = t.replace(/^[-+]/, '');
  const isHex = /^0[xX]/.test(body);
  if (/^(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO]?[0-7]+|[1-9]\d*|0)$/.test(body)) {
    const text = /^0[0-7]+$/.test(body)
      ? `0o${body.slice(1)}`
      : body.replace(/^0O/, '0o').replace(/^0B/, '0b').replace(/^0X/, '0x');
    const v = sign * BigInt(text);
    if (v > 2n ** 63n - 1n || v < -(2n ** 63n)) fail(`${tok} overflows int`);
    return new GoInt(v);
  }
  if (!isHex && /^(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(body)) {
    const f = Number(t);
    // An integral float written without . e E (cannot happen here) would be an int.
    return f;
  }
  return fail(`bad number syntax: "${tok}"`);
}

function parseArg(tok: string): Arg {
  if (tok.startsWith('"')) {
    if (tok.length < 2 || !tok.endsWith('"')) fail(`unterminated quoted string`);
    return { t: 'lit', value: unquoteGo(tok.slice(1, -1), '"', tok) };
  }
  if (tok.startsWith('`')) return { t: 'lit', value: tok.slice(1, -1) };
  if (tok.startsWith("'")) {
    const ch = unquoteGo(tok.slice(1, -1), "'", tok);
    if ([...ch].length !== 1) fail(`malformed character constant: ${tok}`);
    return { t: 'lit', value: new GoInt(BigInt(ch.codePointAt(0)!)) };
  }
  if (tok === 'true' || tok === 'false') return { t: 'lit', value: tok === 'true' };
  if (tok === 'nil') return { t: 'lit', value: null };
  if (/^[-+]?(\d|\.\d)/.test(tok)) return { t: 'lit', value: numberLiteral(tok) };
  if (tok === '.') return { t: 'field', base: 'dot', path: [] };
  if (tok.startsWith('.')) return { t: 'field', base: 'dot', path: tok.slice(1).split('.') };
  if (tok.startsWith('$')) {
    const [v, ...path] = tok.split('.');
    return { t: 'field', base: v!, path };
  }
  if (/^[A-Za-z_]\w*$/.test(tok)) return { t: 'ident', name: tok };
  return fail(`unexpected "${tok}"`);
}

function parsePipeline(toks: string[]): Pipeline {
  let decl: string[] = [];
  let assign = false;
  const declEnd = toks.findIndex((t) => t === ':=' || t === '=');
  if (declEnd > 0 && toks.slice(0, declEnd).every((t) => t === ',' || t.startsWith('$'))) {
    decl = toks.slice(0, declEnd).filter((t) => t !== ',');
    assign = toks[declEnd] === '=';
    toks = toks.slice(declEnd + 1);
  }
  const cmds: Arg[][] = [];
  let cur: Arg[] = [];
  for (let i = 0; i < toks.length; i++) {
    const tok = toks[i]!;
    if (tok === '|') {
      if (!cur.length) fail('missing command before |');
      cmds.push(cur);
      cur = [];
    } else if (tok === '(') {
      let depth = 1;
      let j = i + 1;
      for (; j < toks.length && depth; j++) {
        if (toks[j] === '(') depth++;
        else if (toks[j] === ')') depth--;
      }
      if (depth) fail('unclosed (');
      const inner = toks.slice(i + 1, j - 1);
      const sub: Arg = { t: 'sub', pipe: parsePipeline(inner) };
      // (x).field
      const next = toks[j];
      if (next?.startsWith(CHAIN)) {
        cur.push({ t: 'sub', pipe: { decl: [], assign: false, cmds: [[sub]] } });
        (cur[cur.length - 1] as { t: 'sub'; pipe: Pipeline; path?: string[] }).path = next
          .slice(CHAIN.length + 1)
          .split('.');
        j++;
      } else cur.push(sub);
      i = j - 1;
    } else if (tok === ')') fail('unexpected )');
    else cur.push(parseArg(tok));
  }
  if (cur.length) cmds.push(cur);
  if (!cmds.length) fail('missing value');
  return { decl, assign, cmds };
}

function parse(src: string): Node[] {
  const parts = split(src);
  let pos = 0;
  const block = (stopAt: string[]): { nodes: Node[]; stop: string; rest: string } => {
    const nodes: Node[] = [];
    while (pos < parts.length) {
      const p = parts[pos++]!;
      if ('text' in p) {
        nodes.push({ t: 'text', text: p.text });
        continue;
      }
      const a = p.action;
      if (a.startsWith('/*')) continue;
      const kw = /^(\w+)\b\s*(.*)$/s.exec(a);
      const word = kw?.[1] ?? '';
      if (stopAt.includes(word)) return { nodes, stop: word, rest: kw![2]! };
      if (word === 'if' || word === 'with' || word === 'range') nodes.push(control(word, kw![2]!));
      else if ((word === 'break' || word === 'continue') && kw![2]!.trim() === '') nodes.push({ t: word });
      else if (['define', 'template', 'block'].includes(word)) fail(`{{${word}}} is not supported`);
      else nodes.push({ t: 'action', pipe: parsePipeline(tokenize(a)) });
    }
    if (stopAt.length) fail(`missing {{end}}`);
    return { nodes, stop: '', rest: '' };
  };
  const control = (word: 'if' | 'with' | 'range', rest: string): Node => {
    const pipe = parsePipeline(tokenize(rest));
    const body = block(['else', 'end']);
    let elseNodes: Node[] | undefined;
    if (body.stop === 'else') {
      const chained = /^(if|with)\b\s*(.*)$/s.exec(body.rest);
      if (chained) {
        // {{else if x}} … is {{else}}{{if x}} … {{end}} sharing the outer {{end}}
        elseNodes = [control(chained[1] as 'if' | 'with', chained[2]!)];
      } else {
        elseNodes = block(['end']).nodes;
      }
    }
    return { t: word, pipe, body: body.nodes, else: elseNodes };
  };
  return block([]).nodes;
}

// ---- evaluation --------------------------------------------------------------------------------

/** text/template's isTrue: the zero value of its kind is false; a nil interface is false. */
function truth(v: Value): boolean {
  if (v === null) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return v.length > 0;
  if (typeof v === 'number') return v !== 0;
  if (v instanceof GoNumber) return v.text.length > 0; // a string kind: "0" is true
  if (v instanceof GoInt) return v.value !== 0n;
  if (Array.isArray(v)) return v.length > 0;
  return Object.keys(v).length > 0;
}

/** encoding/json's Encoder: map keys sorted, json.Number as written, HTML-safe, a newline at the end. */
function goJson(v: Value): string {
  const str = (t: string): string => {
    let out = '"';
    for (const ch of t) {
      const c = ch.codePointAt(0)!;
      if (ch === '"' || ch === '\\') out += `\\${ch}`;
      else if (ch === '\n') out += '\\n';
      else if (ch === '\r') out += '\\r';
      else if (ch === '\t') out += '\\t';
      else if (ch === '\b') out += '\\b';
      else if (ch === '\f') out += '\\f';
      else if (c < 0x20 || ch === '<' || ch === '>' || ch === '&' || c === 0x2028 || c === 0x2029)
        out += `\\u${c.toString(16).padStart(4, '0')}`;
      else if (c >= 0xd800 && c <= 0xdfff) out += '\\ufffd';
      else out += ch;
    }
    return `${out}"`;
  };
  const enc = (x: Value): string => {
    if (x === null) return 'null';
    if (typeof x === 'boolean') return String(x);
    if (typeof x === 'string') return str(x);
    if (x instanceof GoNumber) return x.text;
    if (x instanceof GoInt) return x.value.toString();
    if (typeof x === 'number') {
      if (!Number.isFinite(x)) fail(`json: unsupported value: ${goShow(x)}`);
      // encoding/json: %e form outside [1e-6, 1e21), with a two-digit exponent trimmed of its zero
      const a = Math.abs(x);
      if (a !== 0 && (a < 1e-6 || a >= 1e21)) return x.toExponential().replace(/e([-+])(\d)$/, 'e$10$2');
      return String(x);
    }
    if (Array.isArray(x)) return `[${x.map(enc).join(',')}]`;
    return `{${Object.keys(x)
      .sort(compareGoStrings)
      .map((k) => `${str(k)}:${enc(x[k]!)}`)
      .join(',')}}`;
  };
  return `${enc(v)}\n`;
}

type BasicKind = 'bool' | 'int' | 'float' | 'string' | 'invalid' | 'other';

/** text/template's basicKind (json.Number is a string kind). */
function basicKind(v: Value): BasicKind {
  if (v === null) return 'invalid';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string' || v instanceof GoNumber) return 'string';
  if (v instanceof GoInt) return 'int';
  if (typeof v === 'number') return 'float';
  return 'other';
}

const text = (v: Value): string => (v instanceof GoNumber ? v.text : (v as string));

function lt(a: Value, b: Value): boolean {
  const k1 = basicKind(a);
  const k2 = basicKind(b);
  if (k1 === 'invalid' || k1 === 'other' || k2 === 'invalid' || k2 === 'other') fail('invalid type for comparison');
  if (k1 !== k2) fail('incompatible types for comparison');
  switch (k1) {
    case 'bool':
      return fail('invalid type for comparison');
    case 'int':
      return (a as GoInt).value < (b as GoInt).value;
    case 'float':
      return (a as number) < (b as number);
    default:
      return compareGoStrings(text(a), text(b)) < 0;
  }
}

function eq(a: Value, others: Value[]): boolean {
  if (others.length === 0) fail('missing argument for comparison');
  const k1 = basicKind(a);
  for (const b of others) {
    const k2 = basicKind(b);
    let same = false;
    if (k1 !== k2) {
      if (a !== null && b !== null) fail('incompatible types for comparison');
    } else {
      switch (k1) {
        case 'bool':
          same = a === b;
          break;
        case 'int':
          same = (a as GoInt).value === (b as GoInt).value;
          break;
        case 'float':
          same = a === b;
          break;
        case 'string':
          same = text(a) === text(b);
          break;
        case 'invalid':
          same = true; // both nil
          break;
        default:
          fail(`non-comparable types ${goTypeName(a)} and ${goTypeName(b)}`);
      }
    }
    if (same) return true;
  }
  return false;
}

function lengthOf(v: Value): GoInt {
  if (typeof v === 'string') return new GoInt(BigInt(Buffer.byteLength(v)));
  if (v instanceof GoNumber) return new GoInt(BigInt(Buffer.byteLength(v.text)));
  if (Array.isArray(v)) return new GoInt(BigInt(v.length));
  if (isMap(v)) return new GoInt(BigInt(Object.keys(v).length));
  return fail(v === null ? 'len of nil pointer' : `len of type ${goTypeName(v)}`);
}

/** text/template's indexArg: an int, within 0..cap. */
function indexArg(i: Value, cap: number, what: string): number {
  if (i === null) fail(`cannot index ${what} with nil`);
  if (!(i instanceof GoInt)) fail(`cannot index ${what} with type ${goTypeName(i)}`);
  const x = i.value;
  if (x < 0n || x > BigInt(cap)) fail(`index out of range: ${x}`);
  return Number(x);
}

function index(item: Value, keys: Value[]): Value {
  if (item === null) fail('index of untyped nil');
  let v: Value = item;
  for (const k of keys) {
    if (v === null) fail('index of nil pointer');
    if (Array.isArray(v)) {
      const i = indexArg(k, v.length, 'slice/array');
      if (i >= v.length) fail(`index out of range: ${i}`);
      v = v[i]!;
    } else if (typeof v === 'string' || v instanceof GoNumber) {
      const bytes: Buffer = Buffer.from(text(v), 'utf8');
      const i = indexArg(k, bytes.length, 'slice/array');
      if (i >= bytes.length) fail(`index out of range: ${i}`);
      v = new GoInt(BigInt(bytes[i]!));
    } else if (isMap(v)) {
      if (typeof k !== 'string') fail(`value has type ${k === null ? 'nil' : goTypeName(k)}; should be string`);
      // An own key only: a missing key is the map's zero value (nil), never an Object.prototype member.
      v = Object.hasOwn(v, k) ? v[k]! : null;
    } else fail(`can't index item of type ${goTypeName(v)}`);
  }
  return v;
}

function slice(item: Value, idx: Value[]): Value {
  if (item === null) fail('slice of untyped nil');
  if (idx.length > 3) fail(`too many slice indexes: ${idx.length}`);
  let len: number;
  if (typeof item === 'string' || item instanceof GoNumber) {
    if (idx.length === 3) fail('cannot 3-index slice a string');
    len = Buffer.byteLength(text(item));
  } else if (Array.isArray(item)) len = item.length;
  else return fail(`can't slice item of type ${goTypeName(item)}`);
  const at = [0, len, len];
  idx.forEach((x, i) => {
    at[i] = indexArg(x, len, 'slice/array');
  });
  if (at[0]! > at[1]!) fail(`invalid slice index: ${at[0]} > ${at[1]}`);
  if (idx.length === 3 && at[1]! > at[2]!) fail(`invalid slice index: ${at[1]} > ${at[2]}`);
  if (Array.isArray(item)) return item.slice(at[0], at[1]);
  return Buffer.from(text(item), 'utf8').subarray(at[0], at[1]).toString('utf8');
}

/** cases.Title(language.Und, cases.NoLower): the first letter of each word upper-cased, the rest kept. */
function title(s: string): string {
  return s.replace(/(^|[^\p{L}\p{N}\p{M}_'’])(\p{L})/gu, (_m, p: string, c: string) => p + c.toUpperCase());
}

function stringArg(v: Value, fn: string): string {
  if (typeof v === 'string') return v;
  return fail(`wrong type for value; expected string; got ${v === null ? 'nil' : goTypeName(v)} (calling ${fn})`);
}

type Fn = (args: Value[]) => Value;
const FUNCS: Record<string, Fn> = {
  // and / or short-circuit in evalCommand; these are for their use as pipeline values.
  and: (a) => a.find((x) => !truth(x)) ?? a[a.length - 1]!,
  or: (a) => a.find((x) => truth(x)) ?? a[a.length - 1]!,
  not: (a) => !truth(a[0]!),
  eq: (a) => eq(a[0]!, a.slice(1)),
  ne: (a) => !eq(a[0]!, [a[1]!]),
  lt: (a) => lt(a[0]!, a[1]!),
  le: (a) => lt(a[0]!, a[1]!) || eq(a[0]!, [a[1]!]),
  gt: (a) => !(lt(a[0]!, a[1]!) || eq(a[0]!, [a[1]!])),
  ge: (a) => !lt(a[0]!, a[1]!),
  len: (a) => lengthOf(a[0]!),
  index: (a) => index(a[0]!, a.slice(1)),
  slice: (a) => slice(a[0]!, a.slice(1)),
  print: (a) => goSprint(a),
  println: (a) => goSprintln(a),
  printf: (a) => goSprintf(stringArg(a[0]!, 'printf'), a.slice(1)),
  json: (a) => goJson(a[0]!),
  lower: (a) => stringArg(a[0]!, 'lower').toLowerCase(),
  upper: (a) => stringArg(a[0]!, 'upper').toUpperCase(),
  title: (a) => title(stringArg(a[0]!, 'title')),
};

/** How many arguments each function takes: exactly `n`, or at least `min`. */
const ARITY: Record<string, { n?: number; min?: number }> = {
  and: { min: 1 },
  or: { min: 1 },
  not: { n: 1 },
  eq: { min: 1 },
  ne: { n: 2 },
  lt: { n: 2 },
  le: { n: 2 },
  gt: { n: 2 },
  ge: { n: 2 },
  len: { n: 1 },
  index: { min: 1 },
  slice: { min: 1 },
  print: { min: 0 },
  println: { min: 0 },
  printf: { min: 1 },
  json: { n: 1 },
  lower: { n: 1 },
  upper: { n: 1 },
  title: { n: 1 },
};

function checkArity(name: string, count: number): void {
  const a = ARITY[name]!;
  if (a.n !== undefined && count !== a.n) fail(`wrong number of args for ${name}: want ${a.n} got ${count}`);
  if (a.min !== undefined && count < a.min)
    fail(`wrong number of args for ${name}: want at least ${a.min} got ${count}`);
}

class Scope {
  private readonly vars: Array<Map<string, Value>> = [];
  constructor(root: Value) {
    this.vars.push(new Map([['$', root]]));
  }
  push(): void {
    this.vars.push(new Map());
  }
  pop(): void {
    this.vars.pop();
  }
  declare(name: string, v: Value): void {
    this.vars[this.vars.length - 1]!.set(name, v);
  }
  set(name: string, v: Value): void {
    for (let i = this.vars.length - 1; i >= 0; i--) if (this.vars[i]!.has(name)) return void this.vars[i]!.set(name, v);
    fail(`undefined variable: ${name}`);
  }
  get(name: string): Value {
    for (let i = this.vars.length - 1; i >= 0; i--) if (this.vars[i]!.has(name)) return this.vars[i]!.get(name)!;
    return fail(`undefined variable: ${name}`);
  }
}

function walk(v: Value, path: string[]): Value {
  for (const key of path) {
    if (v === null) return fail(`nil pointer evaluating interface {}.${key}`);
    if (!isMap(v)) return fail(`can't evaluate field ${key} in type ${goTypeName(v)}`);
    if (!Object.hasOwn(v, key)) return fail(`map has no entry for key "${key}"`);
    v = v[key] ?? null;
  }
  return v;
}

const FINAL_NONE = Symbol('no final value');
type Final = Value | typeof FINAL_NONE;

function evalArg(a: Arg, dot: Value, scope: Scope): Value {
  switch (a.t) {
    case 'lit':
      return a.value;
    case 'field':
      return walk(a.base === 'dot' ? dot : scope.get(a.base), a.path);
    case 'sub': {
      const v = evalPipe(a.pipe, dot, scope);
      const path = (a as { path?: string[] }).path;
      return path ? walk(v, path) : v;
    }
    case 'ident':
      return callFunction(a.name, [], dot, scope, FINAL_NONE);
  }
}

function callFunction(name: string, args: Arg[], dot: Value, scope: Scope, final: Final): Value {
  const fn = FUNCS[name];
  if (!fn) return fail(`function "${name}" not defined`);
  checkArity(name, args.length + (final === FINAL_NONE ? 0 : 1));
  if (name === 'and' || name === 'or') {
    // Go >= 1.18: arguments are evaluated left to right only until the result is known.
    let v: Value = null;
    for (const arg of args) {
      v = evalArg(arg, dot, scope);
      if (truth(v) === (name === 'or')) return v;
    }
    return final === FINAL_NONE ? v : final;
  }
  const values = args.map((x) => evalArg(x, dot, scope));
  if (final !== FINAL_NONE) values.push(final);
  return fn(values);
}

function evalCommand(cmd: Arg[], dot: Value, scope: Scope, final: Final): Value {
  const head = cmd[0]!;
  if (head.t === 'ident') return callFunction(head.name, cmd.slice(1), dot, scope, final);
  if (head.t === 'lit' && head.value === null) fail('nil is not a command');
  if (cmd.length > 1 || final !== FINAL_NONE)
    fail(`can't give argument to non-function ${goShow(evalArg(head, dot, scope))}`);
  return evalArg(head, dot, scope);
}

function evalPipe(p: Pipeline, dot: Value, scope: Scope): Value {
  let v: Final = FINAL_NONE;
  for (const cmd of p.cmds) v = evalCommand(cmd, dot, scope, v);
  const value = v as Value;
  if (p.decl.length === 1) {
    if (p.assign) scope.set(p.decl[0]!, value);
    else scope.declare(p.decl[0]!, value);
  }
  return value;
}

class LoopControl {
  constructor(readonly kind: 'break' | 'continue') {}
}

function render(nodes: Node[], dot: Value, scope: Scope, out: string[]): void {
  for (const n of nodes) {
    switch (n.t) {
      case 'text':
        out.push(n.text);
        break;
      case 'break':
      case 'continue':
        throw new LoopControl(n.t);
      case 'action': {
        const v = evalPipe(n.pipe, dot, scope);
        if (n.pipe.decl.length === 0) out.push(v === null ? '<no value>' : goShow(v));
        break;
      }
      case 'if':
      case 'with': {
        scope.push();
        const v = evalPipe(n.pipe, dot, scope);
        if (truth(v)) render(n.body, n.t === 'with' ? v : dot, scope, out);
        else if (n.else) render(n.else, dot, scope, out);
        scope.pop();
        break;
      }
      case 'range': {
        scope.push();
        const decl = n.pipe.decl;
        const v = evalPipe({ ...n.pipe, decl: [] }, dot, scope);
        let entries: Array<[Value, Value]>;
        if (Array.isArray(v)) entries = v.map((x, i) => [new GoInt(BigInt(i)), x]);
        else if (isMap(v))
          entries = Object.keys(v)
            .sort(compareGoStrings)
            .map((k) => [k, v[k]!]);
        else if (v instanceof GoInt) {
          // Go >= 1.22: range over an integer n gives 0..n-1 (one variable only)
          if (decl.length > 1) fail(`can't use ${goShow(v)} to iterate over more than one variable`);
          entries = [];
          for (let i = 0n; i < v.value; i++) entries.push([new GoInt(i), new GoInt(i)]);
        } else if (v === null) entries = [];
        else return fail(`range can't iterate over ${goShow(v)}`);
        if (entries.length === 0 && n.else) render(n.else, dot, scope, out);
        for (const [k, x] of entries) {
          if (decl.length === 1) scope.declare(decl[0]!, x);
          if (decl.length === 2) {
            scope.declare(decl[0]!, k);
            scope.declare(decl[1]!, x);
          }
          try {
            render(n.body, x, scope, out);
          } catch (err) {
            if (!(err instanceof LoopControl)) throw err;
            if (err.kind === 'break') break;
          }
        }
        scope.pop();
        break;
      }
    }
  }
}

/** JSON as crictl's decoder reads it: numbers kept as their text (json.Decoder.UseNumber). */
function decodeWithNumbers(data: unknown): Value {
  const revive = (v: unknown): Value => {
    if (typeof v === 'number') return new GoNumber(String(v));
    if (Array.isArray(v)) return v.map(revive);
    if (v && typeof v === 'object') {
      const o: Record<string, Value> = {};
      for (const [k, x] of Object.entries(v)) o[k] = revive(x);
      return o;
    }
    return v as Value;
  };
  return revive(JSON.parse(JSON.stringify(data) ?? 'null'));
}

/** Parses `template` only (crictl checks a template before it connects); throws what parsing finds. */
export function checkGoTemplate(template: string): void {
  parse(template);
}

/** Runs `template` on a JSON value as crictl does (the value is re-read as Go would decode it). */
export function executeGoTemplate(template: string, data: unknown): string {
  const nodes = parse(template);
  const root = decodeWithNumbers(data);
  const out: string[] = [];
  try {
    render(nodes, root, new Scope(root), out);
  } catch (err) {
    if (err instanceof LoopControl) fail(`{{${err.kind}}} outside {{range}}`);
    throw err;
  }
  return out.join('');
}
