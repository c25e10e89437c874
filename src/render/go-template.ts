// A subset of Go's text/template, run on the JSON crictl feeds its `-o go-template --template`
// (decoded with UseNumber, option missingkey=error). Hand-written: the npm packages found are
// wrappers around a Go binary or do plain substitution only.
//
// Supported: text and actions with trim markers ({{- -}}), comments, field paths (.a.b, $.a, $v.a),
// variables ($x := …, $x = …), pipelines (x | f), parenthesised commands, literals (strings, raw
// strings, numbers, true/false/nil), if / else if / else, range (with $i, $v :=, and else), with
// (and else), and the functions and, or, not, eq, ne, lt, le, gt, ge, index, len, print, printf,
// println, json, lower, upper, title. Not supported: define/template/block, break/continue,
// methods, slice, call, html/js/urlquery; printf knows %s %v %d %q %f %t %x %% with width/precision.
import { SyncpodError } from '../errors';

/** A JSON number kept as its text (Go's json.Number under UseNumber). */
class GoNumber {
  constructor(readonly text: string) {}
}

type Value = unknown;

// ---- lexing and parsing ------------------------------------------------------------------------

type Node =
  | { t: 'text'; text: string }
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

function parseArg(tok: string): Arg {
  if (tok.startsWith('"')) {
    try {
      return { t: 'lit', value: JSON.parse(tok) };
    } catch {
      fail(`bad string ${tok}`);
    }
  }
  if (tok.startsWith('`')) return { t: 'lit', value: tok.slice(1, -1) };
  if (tok.startsWith("'")) return { t: 'lit', value: tok.codePointAt(1) };
  if (tok === 'true' || tok === 'false') return { t: 'lit', value: tok === 'true' };
  if (tok === 'nil') return { t: 'lit', value: null };
  if (/^[-+]?(\d|\.\d)/.test(tok)) {
    if (Number.isNaN(Number(tok))) fail(`bad number ${tok}`);
    return { t: 'lit', value: Number(tok) };
  }
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
      if (next?.startsWith('.') && next.length > 1) {
        cur.push({ t: 'sub', pipe: { decl: [], assign: false, cmds: [[sub]] } });
        (cur[cur.length - 1] as { t: 'sub'; pipe: Pipeline; path?: string[] }).path = next.slice(1).split('.');
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
      else if (['define', 'template', 'block', 'break', 'continue'].includes(word))
        fail(`{{${word}}} is not supported`);
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

function truth(v: Value): boolean {
  if (v === null || v === undefined) return false;
  if (v instanceof GoNumber) return v.text.length > 0;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

/** Go's fmt %v for decoded JSON. */
function show(v: Value): string {
  if (v === null || v === undefined) return '<nil>';
  if (v instanceof GoNumber) return v.text;
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(show).join(' ')}]`;
  const o = v as Record<string, Value>;
  return `map[${Object.keys(o)
    .sort()
    .map((k) => `${k}:${show(o[k])}`)
    .join(' ')}]`;
}

/** encoding/json Encoder output (HTML-escaped, newline at the end). */
function goJson(v: Value): string {
  const plain = (x: Value): unknown => {
    if (x instanceof GoNumber) return Number(x.text);
    if (Array.isArray(x)) return x.map(plain);
    if (x && typeof x === 'object') {
      const o: Record<string, unknown> = {};
      for (const k of Object.keys(x).sort()) o[k] = plain((x as Record<string, Value>)[k]);
      return o;
    }
    return x;
  };
  const text = JSON.stringify(plain(v), (_k, val) => val) ?? 'null';
  // keep number texts exactly (big int64 strings are strings anyway in protobuf JSON)
  return text.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) + '\n';
}

function num(v: Value, fn: string): number {
  if (typeof v === 'number') return v;
  return fail(`${fn}: expected a number, got ${show(v)}`);
}

function printf(format: string, args: Value[]): string {
  let i = 0;
  return format.replace(
    /%([-+ #0]*)(\d+)?(?:\.(\d+))?([a-zA-Z%])/g,
    (_m, flags: string, width: string | undefined, prec: string | undefined, verb: string) => {
      if (verb === '%') return '%';
      if (i >= args.length) return `%!${verb}(MISSING)`;
      const a = args[i++];
      let s: string;
      // json.Number is a string type: numeric verbs do not apply to it (Go prints %!d(json.Number=3)).
      if (a instanceof GoNumber && 'dfeg'.includes(verb)) return `%!${verb}(json.Number=${a.text})`;
      switch (verb) {
        case 'd':
          s = String(Math.trunc(num(a, 'printf')));
          break;
        case 'f':
          s = num(a, 'printf').toFixed(prec === undefined ? 6 : Number(prec));
          break;
        case 'q':
          s = typeof a === 'string' || a instanceof GoNumber ? JSON.stringify(show(a)) : show(a);
          break;
        case 'x':
          s =
            typeof a === 'string' || a instanceof GoNumber
              ? Buffer.from(show(a)).toString('hex')
              : Math.trunc(num(a, 'printf')).toString(16);
          break;
        case 't':
        case 's':
        case 'v':
          s = show(a);
          if (prec !== undefined && verb === 's') s = s.slice(0, Number(prec));
          break;
        default:
          s = `%!${verb}(${show(a)})`;
      }
      if (width)
        s = flags.includes('-')
          ? s.padEnd(Number(width))
          : s.padStart(Number(width), flags.includes('0') && verb !== 's' ? '0' : ' ');
      return s;
    },
  );
}

/** Go's basic kinds as text/template compares them (json.Number is a string). */
function kindOf(v: Value): 'string' | 'number' | 'bool' | 'other' {
  if (typeof v === 'string' || v instanceof GoNumber) return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return 'other';
}

function compare(a: Value, b: Value): number {
  const k = kindOf(a);
  if (k !== kindOf(b) || k === 'other' || k === 'bool') return fail(`incompatible types for comparison`);
  if (k === 'number') return (a as number) - (b as number);
  const x = show(a);
  const y = show(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function equal(a: Value, b: Value): boolean {
  const k = kindOf(a);
  if (k === 'other' || kindOf(b) === 'other') {
    if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
    return fail('incompatible types for comparison');
  }
  if (k !== kindOf(b)) return fail('incompatible types for comparison');
  return k === 'string' ? show(a) === show(b) : a === b;
}

type Fn = (args: Value[]) => Value;
const FUNCS: Record<string, Fn> = {
  and: (a) => a.find((x) => !truth(x)) ?? a[a.length - 1],
  or: (a) => a.find((x) => truth(x)) ?? a[a.length - 1],
  not: (a) => !truth(a[0]),
  eq: (a) => a.slice(1).some((b) => equal(a[0], b)),
  ne: (a) => !equal(a[0], a[1]),
  lt: (a) => compare(a[0], a[1]) < 0,
  le: (a) => compare(a[0], a[1]) <= 0,
  gt: (a) => compare(a[0], a[1]) > 0,
  ge: (a) => compare(a[0], a[1]) >= 0,
  len: (a) => {
    const v = a[0];
    if (typeof v === 'string') return Buffer.byteLength(v);
    if (v instanceof GoNumber) return v.text.length;
    if (Array.isArray(v)) return v.length;
    if (v && typeof v === 'object') return Object.keys(v).length;
    return fail(`len of ${show(v)}`);
  },
  index: (a) => {
    let v = a[0];
    for (const k of a.slice(1)) {
      if (Array.isArray(v)) {
        const i = num(k, 'index');
        if (i < 0 || i >= v.length) fail(`index out of range: ${i}`);
        v = v[i];
      } else if (v && typeof v === 'object') {
        if (typeof k !== 'string') fail(`index of a map with ${show(k)}`);
        v = (v as Record<string, Value>)[k];
        if (v === undefined) v = null; // index returns the zero value for a missing key
      } else if (v === null) return null;
      else fail(`cannot index ${show(v)}`);
    }
    return v;
  },
  print: (a) =>
    a.map((x, i) => (i > 0 && typeof x !== 'string' && typeof a[i - 1] !== 'string' ? ' ' : '') + show(x)).join(''),
  println: (a) => a.map(show).join(' ') + '\n',
  printf: (a) => printf(String(a[0]), a.slice(1)),
  json: (a) => goJson(a[0]),
  lower: (a) => String(a[0]).toLowerCase(),
  upper: (a) => String(a[0]).toUpperCase(),
  title: (a) => String(a[0]).replace(/(^|[^\p{L}\p{N}_'])(\p{L})/gu, (_m, p: string, c: string) => p + c.toUpperCase()),
};

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
    for (let i = this.vars.length - 1; i >= 0; i--) if (this.vars[i]!.has(name)) return this.vars[i]!.get(name);
    return fail(`undefined variable: ${name}`);
  }
}

function walk(v: Value, path: string[]): Value {
  for (const key of path) {
    if (v === null || v === undefined) return fail(`nil pointer evaluating .${key}`);
    if (typeof v !== 'object' || Array.isArray(v) || v instanceof GoNumber)
      return fail(`can't evaluate field ${key} in ${show(v)}`);
    if (!Object.hasOwn(v, key)) return fail(`map has no entry for key "${key}"`);
    v = (v as Record<string, Value>)[key];
  }
  return v;
}

function evalArg(a: Arg, dot: Value, scope: Scope, final?: Value, hasFinal = false): Value {
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
    case 'ident': {
      const fn = FUNCS[a.name];
      if (!fn) return fail(`function "${a.name}" not defined`);
      return fn(hasFinal ? [final] : []);
    }
  }
}

function evalCommand(cmd: Arg[], dot: Value, scope: Scope, final: Value, hasFinal: boolean): Value {
  const head = cmd[0]!;
  if (head.t === 'ident') {
    const fn = FUNCS[head.name];
    if (!fn) return fail(`function "${head.name}" not defined`);
    const args = cmd.slice(1).map((a) => evalArg(a, dot, scope));
    if (hasFinal) args.push(final);
    return fn(args);
  }
  if (cmd.length > 1 || hasFinal) fail(`can't give arguments to a non-function ${show(evalArg(head, dot, scope))}`);
  return evalArg(head, dot, scope);
}

function evalPipe(p: Pipeline, dot: Value, scope: Scope): Value {
  let v: Value;
  p.cmds.forEach((cmd, i) => (v = evalCommand(cmd, dot, scope, v, i > 0)));
  if (p.decl.length === 1) {
    if (p.assign) scope.set(p.decl[0]!, v);
    else scope.declare(p.decl[0]!, v);
  }
  return v;
}

function render(nodes: Node[], dot: Value, scope: Scope, out: string[]): void {
  for (const n of nodes) {
    switch (n.t) {
      case 'text':
        out.push(n.text);
        break;
      case 'action': {
        const v = evalPipe(n.pipe, dot, scope);
        if (n.pipe.decl.length === 0) out.push(v === null || v === undefined ? '<no value>' : show(v));
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
        const entries: Array<[Value, Value]> = Array.isArray(v)
          ? v.map((x, i) => [i, x])
          : v && typeof v === 'object' && !(v instanceof GoNumber)
            ? Object.keys(v)
                .sort()
                .map((k) => [k, (v as Record<string, Value>)[k]])
            : v === null || v === undefined
              ? []
              : fail(`range can't iterate over ${show(v)}`);
        if (entries.length === 0 && n.else) render(n.else, dot, scope, out);
        for (const [k, x] of entries) {
          if (decl.length === 1) scope.declare(decl[0]!, x);
          if (decl.length === 2) {
            scope.declare(decl[0]!, k);
            scope.declare(decl[1]!, x);
          }
          render(n.body, x, scope, out);
        }
        scope.pop();
        break;
      }
    }
  }
}

/** Parses JSON text keeping numbers as their text (json.Decoder.UseNumber). */
function decodeWithNumbers(text: string): Value {
  const revive = (v: unknown): Value => {
    if (typeof v === 'number') return new GoNumber(String(v));
    if (Array.isArray(v)) return v.map(revive);
    if (v && typeof v === 'object') {
      const o: Record<string, Value> = {};
      for (const [k, x] of Object.entries(v)) o[k] = revive(x);
      return o;
    }
    return v;
  };
  // Numbers in protobuf JSON are int32/float fields; int64 are strings. JSON.parse keeps them exact enough.
  return revive(JSON.parse(text));
}

/** Runs `template` on a JSON value as crictl does (the value is re-read as Go would decode it). */
export function executeGoTemplate(template: string, data: unknown): string {
  const nodes = parse(template);
  const root = decodeWithNumbers(JSON.stringify(data));
  const out: string[] = [];
  render(nodes, root, new Scope(root), out);
  return out.join('');
}
