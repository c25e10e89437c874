// Go's fmt (Sprintf, Sprint, Sprintln) and strconv quoting for the values a crictl template sees:
// JSON decoded with UseNumber (nil, bool, string, json.Number, []interface{}, map[string]interface{})
// and the template's own constants (int, float64). Verbs, flags, widths, precisions, argument indexes
// and the error forms (%!d(string=x), %!(EXTRA ...), %!(NOVERB), %!(BADWIDTH)) follow fmt's print.go
// and format.go (Go 1.26): a width or precision above 1e6 is refused as fmt refuses it.

/** A JSON number kept as its text (encoding/json's json.Number: a string type with a String method). */
export class GoNumber {
  constructor(readonly text: string) {}
}

/** A Go int (template integer and character constants, len's result, range indexes). */
export class GoInt {
  constructor(readonly value: bigint) {}
}

/** A value as text/template holds it; a JS number is a float64, null the nil interface. */
export type GoValue = null | boolean | string | number | GoNumber | GoInt | GoValue[] | { [key: string]: GoValue };

export function isMap(v: GoValue): v is { [key: string]: GoValue } {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof GoNumber) && !(v instanceof GoInt);
}

/** reflect.TypeOf(v).String() */
export function goTypeName(v: GoValue): string {
  if (v === null) return '<nil>';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'float64';
  if (v instanceof GoNumber) return 'json.Number';
  if (v instanceof GoInt) return 'int';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

// ---- strconv ------------------------------------------------------------------------------------

/** unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
function isPrint(cp: number): boolean {
  if (cp === 0x20) return true;
  return /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u.test(String.fromCodePoint(cp));
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

function escapeRune(cp: number, quote: string, asciiOnly: boolean): string {
  const ch = String.fromCodePoint(cp);
  if (ch === quote || ch === '\\') return `\\${ch}`;
  if (asciiOnly ? cp < 0x80 && isPrint(cp) : isPrint(cp)) return ch;
  switch (cp) {
    case 7:
      return '\\a';
    case 8:
      return '\\b';
    case 12:
      return '\\f';
    case 10:
      return '\\n';
    case 13:
      return '\\r';
    case 9:
      return '\\t';
    case 11:
      return '\\v';
  }
  if (cp < 0x20 || cp === 0x7f) return `\\x${hex(cp, 2)}`;
  if (cp >= 0xd800 && cp <= 0xdfff) return '\\ufffd'; // a lone surrogate is not valid UTF-8: RuneError
  if (cp < 0x10000) return `\\u${hex(cp, 4)}`;
  return `\\U${hex(cp, 8)}`;
}

/** strconv.Quote (QuoteToASCII with asciiOnly). */
export function goQuote(s: string, asciiOnly = false): string {
  let out = '"';
  for (const ch of s) out += escapeRune(ch.codePointAt(0)!, '"', asciiOnly);
  return `${out}"`;
}

/** strconv.QuoteRune; a value that is no rune is RuneError. */
export function goQuoteRune(cp: number, asciiOnly = false): string {
  const r = cp > 0x10ffff || cp < 0 || (cp >= 0xd800 && cp <= 0xdfff) ? 0xfffd : cp;
  return `'${escapeRune(r, "'", asciiOnly)}'`;
}

/** strconv.CanBackquote */
function canBackquote(s: string): boolean {
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0xfeff || ch === '`' || cp === 0x7f || (cp < 0x20 && cp !== 9)) return false;
    if (cp >= 0xd800 && cp <= 0xdfff) return false;
  }
  return true;
}

/** The exact decimal digits of a finite a > 0 (a = 0.d1d2... x 10^dp), trailing zeros dropped. */
function exactDecimal(a: number): { d: string; dp: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, a);
  const bits = view.getBigUint64(0);
  const expBits = Number((bits >> 52n) & 0x7ffn);
  let mant = bits & ((1n << 52n) - 1n);
  let e2 = -1074;
  if (expBits !== 0) {
    mant |= 1n << 52n;
    e2 = expBits - 1075;
  }
  let digits: string;
  let dp: number;
  if (e2 >= 0) {
    digits = (mant << BigInt(e2)).toString();
    dp = digits.length;
  } else {
    digits = (mant * 5n ** BigInt(-e2)).toString();
    dp = digits.length + e2;
  }
  return { d: digits.replace(/0+$/, '') || '0', dp };
}

/** The shortest digits that read back as a (Go's and JavaScript's shortest are the same). */
function shortestDecimal(a: number): { d: string; dp: number } {
  const [m, e] = a.toExponential().split('e');
  return { d: m!.replace('.', ''), dp: Number(e) + 1 };
}

/** Rounds exact digits to nd digits, half to even (strconv's decimal.Round). */
function roundDecimal(x: { d: string; dp: number }, nd: number): { d: string; dp: number } {
  if (nd < 0) return { d: '0', dp: 1 };
  if (nd >= x.d.length) return x;
  const next = x.d[nd]!;
  const up = next === '5' && nd + 1 === x.d.length ? nd > 0 && Number(x.d[nd - 1]) % 2 === 1 : next >= '5';
  let kept = x.d.slice(0, nd);
  let dp = x.dp;
  if (up) {
    let i = kept.length - 1;
    while (i >= 0 && kept[i] === '9') i--;
    if (i < 0) {
      kept = '1';
      dp++;
    } else kept = kept.slice(0, i) + String(Number(kept[i]) + 1);
  }
  kept = kept.replace(/0+$/, '');
  return kept ? { d: kept, dp } : { d: '0', dp: 1 };
}

function fmtE(x: { d: string; dp: number }, prec: number, e: string, zero: boolean): string {
  const digit = (i: number) => (i < x.d.length ? x.d[i]! : '0');
  let out = digit(0);
  if (prec > 0) {
    out += '.';
    for (let i = 1; i <= prec; i++) out += digit(i);
  }
  const exp = zero ? 0 : x.dp - 1;
  const abs = Math.abs(exp);
  return `${out}${e}${exp < 0 ? '-' : '+'}${abs < 10 ? `0${abs}` : abs}`;
}

function fmtF(x: { d: string; dp: number }, prec: number, zero: boolean): string {
  const digit = (i: number) => (!zero && i >= 0 && i < x.d.length ? x.d[i]! : '0');
  let out = '';
  if (!zero && x.dp > 0) for (let i = 0; i < x.dp; i++) out += digit(i);
  else out = '0';
  if (prec > 0) {
    out += '.';
    for (let i = 0; i < prec; i++) out += digit(zero ? -1 : x.dp + i);
  }
  return out;
}

/** strconv.FormatFloat(v, fmt, prec, 64) for fmt e, E, f, F, g, G (prec -1: the shortest that reads back). */
export function goFormatFloat(v: number, fmt: string, prec: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  const neg = v < 0 || Object.is(v, -0);
  const a = Math.abs(v);
  const zero = a === 0;
  const shortest = prec < 0;
  const f = fmt.toLowerCase();
  const e = fmt === 'E' || fmt === 'G' ? 'E' : 'e';
  let x: { d: string; dp: number } = zero ? { d: '0', dp: 1 } : shortest ? shortestDecimal(a) : exactDecimal(a);
  let out: string;
  if (f === 'e') {
    if (!shortest && !zero) x = roundDecimal(x, prec + 1);
    out = fmtE(x, shortest ? x.d.length - 1 : prec, e, zero);
  } else if (f === 'f') {
    if (!shortest && !zero) x = roundDecimal(x, x.dp + prec);
    out = fmtF(x, shortest ? Math.max(x.d.length - x.dp, 0) : prec, zero);
  } else {
    let p = prec;
    if (!shortest) {
      if (p === 0) p = 1;
      if (!zero) x = roundDecimal(x, p);
    }
    const nd = zero ? 1 : x.d.length;
    let eprec = shortest ? 6 : p;
    if (!shortest && eprec > nd && nd >= x.dp) eprec = nd;
    const exp = zero ? 0 : x.dp - 1;
    if (shortest) p = nd;
    if (exp < -4 || exp >= eprec) out = fmtE(x, Math.min(p, nd) - 1, e, zero);
    else out = fmtF(x, Math.max((p > x.dp ? nd : p) - x.dp, 0), zero);
  }
  return neg ? `-${out}` : out;
}

// ---- fmt ------------------------------------------------------------------------------------------

/** fmt's tooLarge: widths and precisions above a million are refused. */
const tooLarge = (n: number): boolean => n > 1e6 || n < -1e6;

/** fmt's parsenum: the number at format[start:end), or none; an absurdly long one consumes the rest. */
function parsenum(s: string, start: number, end: number): { num: number; isnum: boolean; next: number } {
  let num = 0;
  let isnum = false;
  let i = start;
  for (; i < end && s[i]! >= '0' && s[i]! <= '9'; i++) {
    if (tooLarge(num)) return { num: 0, isnum: false, next: end };
    num = num * 10 + (s.charCodeAt(i) - 48);
    isnum = true;
  }
  return { num, isnum, next: i };
}

interface Flags {
  plus: boolean;
  minus: boolean;
  sharp: boolean;
  space: boolean;
  zero: boolean;
  plusV: boolean;
  sharpV: boolean;
  wid: number;
  widPresent: boolean;
  prec: number;
  precPresent: boolean;
}

const noFlags = (): Flags => ({
  plus: false,
  minus: false,
  sharp: false,
  space: false,
  zero: false,
  plusV: false,
  sharpV: false,
  wid: 0,
  widPresent: false,
  prec: 0,
  precPresent: false,
});

const runeCount = (s: string): number => [...s].length;

class Printer {
  buf = '';
  f: Flags = noFlags();

  /** Padding to the width; zeros only to the left and only when the zero flag holds. */
  private padding(n: number): string {
    return n > 0 ? (this.f.zero && !this.f.minus ? '0' : ' ').repeat(n) : '';
  }

  pad(s: string): void {
    if (!this.f.widPresent || this.f.wid === 0) {
      this.buf += s;
      return;
    }
    const width = this.f.wid - runeCount(s);
    if (this.f.minus) this.buf += s + ' '.repeat(Math.max(0, width));
    else this.buf += this.padding(width) + s;
  }

  private truncate(s: string): string {
    if (this.f.precPresent) return [...s].slice(0, this.f.prec).join('');
    return s;
  }

  fmtS(s: string): void {
    this.pad(this.truncate(s));
  }

  fmtQ(s: string): void {
    const t = this.truncate(s);
    if (this.f.sharp && canBackquote(t)) this.pad(`\`${t}\``);
    else this.pad(goQuote(t, this.f.plus));
  }

  fmtSx(s: string, upper: boolean): void {
    const bytes = Buffer.from(s, 'utf8');
    let length = bytes.length;
    if (this.f.precPresent && this.f.prec < length) length = this.f.prec;
    let width = 2 * length;
    if (width > 0) {
      if (this.f.space) {
        if (this.f.sharp) width *= 2;
        width += length - 1;
      } else if (this.f.sharp) width += 2;
    } else {
      if (this.f.widPresent) this.buf += this.padding(this.f.wid);
      return;
    }
    const x = upper ? 'X' : 'x';
    let out = '';
    if (this.f.sharp && !this.f.space) out += `0${x}`;
    for (let i = 0; i < length; i++) {
      if (this.f.space && i > 0) out += ' ';
      if (this.f.sharp && this.f.space) out += `0${x}`;
      const h = hex(bytes[i]!, 2);
      out += upper ? h.toUpperCase() : h;
    }
    const gap = this.f.widPresent && this.f.wid > width ? this.f.wid - width : 0;
    this.buf += this.f.minus ? out + ' '.repeat(gap) : this.padding(gap) + out;
  }

  /** fmt.fmtInteger for a signed int in `base`. */
  fmtInteger(v: bigint, base: number, verb: string): void {
    const negative = v < 0n;
    let u = negative ? -v : v;
    let prec = 0;
    if (this.f.precPresent) {
      prec = this.f.prec;
      if (prec === 0 && u === 0n) {
        const zero = this.f.zero;
        this.f.zero = false;
        this.buf += this.padding(this.f.wid);
        this.f.zero = zero;
        return;
      }
    } else if (this.f.zero && !this.f.minus && this.f.widPresent) {
      prec = this.f.wid;
      if (negative || this.f.plus || this.f.space) prec--;
    }
    let digits = u.toString(base);
    if (verb === 'X') digits = digits.toUpperCase();
    u = 0n;
    digits = digits.padStart(prec, '0');
    if (this.f.sharp) {
      if (base === 2) digits = `0b${digits}`;
      else if (base === 8 && digits[0] !== '0') digits = `0${digits}`;
      else if (base === 16) digits = `0${verb === 'X' ? 'X' : 'x'}${digits}`;
    }
    if (verb === 'O') digits = `0o${digits}`;
    if (negative) digits = `-${digits}`;
    else if (this.f.plus) digits = `+${digits}`;
    else if (this.f.space) digits = ` ${digits}`;
    const zero = this.f.zero;
    this.f.zero = false;
    this.pad(digits);
    this.f.zero = zero;
  }

  /** fmt.fmtFloat: sign, space, #, zero padding after the sign, Inf and NaN never zero-padded. */
  fmtFloat(v: number, verb: string, prec: number): void {
    const p = this.f.precPresent ? this.f.prec : prec;
    let num = goFormatFloat(v, verb, p);
    if (num[0] !== '-' && num[0] !== '+') num = `+${num}`;
    if (this.f.space && num[0] === '+' && !this.f.plus) num = ` ${num.slice(1)}`;
    if (num[1] === 'I' || num[1] === 'N') {
      const zero = this.f.zero;
      this.f.zero = false;
      if (num[1] === 'N' && !this.f.space && !this.f.plus) num = num.slice(1);
      this.pad(num);
      this.f.zero = zero;
      return;
    }
    if (this.f.sharp) {
      let digits = 'gG'.includes(verb) ? (p === -1 ? 6 : p) : 0;
      let tail = '';
      let body = num;
      const ei = body.search(/[eE]/);
      if (ei >= 0) {
        tail = body.slice(ei);
        body = body.slice(0, ei);
      }
      let sawNonzero = false;
      for (const c of body.slice(1)) {
        if (c === '.') continue;
        if (c !== '0') sawNonzero = true;
        if (sawNonzero) digits--;
      }
      if (!body.includes('.')) {
        if (body.length === 2 && body[1] === '0') digits--;
        body += '.';
      }
      while (digits > 0) {
        body += '0';
        digits--;
      }
      num = body + tail;
    }
    if (this.f.plus || num[0] !== '+') {
      if (this.f.zero && !this.f.minus && this.f.widPresent && this.f.wid > num.length) {
        this.buf += num[0] + '0'.repeat(this.f.wid - num.length) + num.slice(1);
        return;
      }
      this.pad(num);
      return;
    }
    this.pad(num.slice(1));
  }
}

type PrintState = Printer & { arg?: GoValue; hasArg?: boolean };

function badVerb(p: PrintState, verb: string, v: GoValue): void {
  p.buf += `%!${verb}(`;
  if (v === null) p.buf += '<nil>';
  else {
    p.buf += `${goTypeName(v)}=`;
    printValue(p, v, 'v', 0);
  }
  p.buf += ')';
}

function fmtString(p: PrintState, s: string, verb: string, v: GoValue): void {
  switch (verb) {
    case 'v':
      if (p.f.sharpV) p.fmtQ(s);
      else p.fmtS(s);
      return;
    case 's':
      p.fmtS(s);
      return;
    case 'x':
    case 'X':
      p.fmtSx(s, verb === 'X');
      return;
    case 'q':
      p.fmtQ(s);
      return;
    default:
      badVerb(p, verb, v);
  }
}

function fmtInt(p: PrintState, n: bigint, verb: string, v: GoValue): void {
  switch (verb) {
    case 'v':
    case 'd':
      p.fmtInteger(n, 10, verb);
      return;
    case 'b':
      p.fmtInteger(n, 2, verb);
      return;
    case 'o':
    case 'O':
      p.fmtInteger(n, 8, verb);
      return;
    case 'x':
    case 'X':
      p.fmtInteger(n, 16, verb);
      return;
    case 'c':
      p.pad(String.fromCodePoint(n > 0x10ffffn || n < 0n || (n >= 0xd800n && n <= 0xdfffn) ? 0xfffd : Number(n)));
      return;
    case 'q':
      p.pad(goQuoteRune(n > 0x10ffffn || n < 0n ? 0xfffd : Number(n), p.f.plus));
      return;
    case 'U': {
      let s = `U+${(n < 0n ? -n : n)
        .toString(16)
        .toUpperCase()
        .padStart(p.f.precPresent ? Math.max(p.f.prec, 4) : 4, '0')}`;
      if (p.f.sharp && n >= 0n && n <= 0x10ffffn && isPrint(Number(n))) s += ` '${String.fromCodePoint(Number(n))}'`;
      const zero = p.f.zero;
      p.f.zero = false;
      p.pad(s);
      p.f.zero = zero;
      return;
    }
    default:
      badVerb(p, verb, v);
  }
}

/** printArg / printValue for one value and verb (depth > 0: inside a map or slice). */
function printValue(p: PrintState, v: GoValue, verb: string, depth: number): void {
  if (v === null) {
    if (depth > 0) {
      p.buf += p.f.sharpV ? 'interface {}(nil)' : '<nil>';
      return;
    }
    if (verb === 'T' || verb === 'v') p.pad('<nil>');
    else badVerb(p, verb, v);
    return;
  }
  if (verb === 'T' && depth === 0) {
    p.fmtS(goTypeName(v));
    return;
  }
  if (typeof v === 'boolean') {
    if (verb === 't' || verb === 'v') p.pad(String(v));
    else badVerb(p, verb, v);
  } else if (typeof v === 'string') fmtString(p, v, verb, v);
  else if (v instanceof GoNumber) {
    // json.Number's String method serves v, s, x, X and q; other verbs see a string kind.
    fmtString(p, v.text, verb, v);
  } else if (v instanceof GoInt) fmtInt(p, v.value, verb, v);
  else if (typeof v === 'number') {
    switch (verb) {
      case 'v':
        p.fmtFloat(v, 'g', -1);
        break;
      case 'g':
      case 'G':
        p.fmtFloat(v, verb, -1);
        break;
      case 'F':
        p.fmtFloat(v, 'f', 6);
        break;
      case 'e':
      case 'E':
      case 'f':
        p.fmtFloat(v, verb, 6);
        break;
      default:
        badVerb(p, verb, v);
    }
  } else if (Array.isArray(v)) {
    if (p.f.sharpV) {
      p.buf += '[]interface {}{';
      v.forEach((x, i) => {
        if (i > 0) p.buf += ', ';
        printValue(p, x, verb, depth + 1);
      });
      p.buf += '}';
      return;
    }
    p.buf += '[';
    v.forEach((x, i) => {
      if (i > 0) p.buf += ' ';
      printValue(p, x, verb, depth + 1);
    });
    p.buf += ']';
  } else {
    const keys = Object.keys(v).sort(compareGoStrings);
    p.buf += p.f.sharpV ? 'map[string]interface {}{' : 'map[';
    keys.forEach((k, i) => {
      if (i > 0) p.buf += p.f.sharpV ? ', ' : ' ';
      printValue(p, k, verb, depth + 1);
      p.buf += ':';
      printValue(p, v[k]!, verb, depth + 1);
    });
    p.buf += p.f.sharpV ? '}' : ']';
  }
}

/** Go's string order: byte-wise on UTF-8. */
export function compareGoStrings(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** intFromArg: a width or precision taken from an int argument (*). */
function intFromArg(args: GoValue[], argNum: number): { num: number; ok: boolean; argNum: number } {
  if (argNum >= args.length) return { num: 0, ok: false, argNum };
  const a = args[argNum]!;
  if (!(a instanceof GoInt)) return { num: 0, ok: false, argNum: argNum + 1 };
  const n = Number(a.value);
  if (tooLarge(n)) return { num: 0, ok: false, argNum: argNum + 1 };
  return { num: n, ok: true, argNum: argNum + 1 };
}

/** fmt.Sprintf */
export function goSprintf(format: string, args: GoValue[]): string {
  const p: PrintState = new Printer();
  const end = format.length;
  let argNum = 0;
  let afterIndex = false;
  let reordered = false;
  let goodArgNum = true;
  // argNumber: an explicit [n] index at i.
  const argNumber = (i: number): { argNum: number; i: number; found: boolean } => {
    if (i >= end || format[i] !== '[') return { argNum, i, found: false };
    reordered = true;
    const rest = format.slice(i);
    if (rest.length < 3) {
      goodArgNum = false;
      return { argNum, i: i + 1, found: false };
    }
    for (let j = 1; j < rest.length; j++) {
      if (rest[j] === ']') {
        const n = parsenum(rest, 1, j);
        if (!n.isnum || n.next !== j) {
          goodArgNum = false;
          return { argNum, i: i + j + 1, found: false };
        }
        const index = n.num - 1;
        if (index >= 0 && index < args.length) return { argNum: index, i: i + j + 1, found: true };
        goodArgNum = false;
        return { argNum, i: i + j + 1, found: true };
      }
    }
    goodArgNum = false;
    return { argNum, i: i + 1, found: false };
  };
  let i = 0;
  formatLoop: while (i < end) {
    goodArgNum = true;
    const lasti = i;
    while (i < end && format[i] !== '%') i++;
    if (i > lasti) p.buf += format.slice(lasti, i);
    if (i >= end) break;
    i++; // the %
    p.f = noFlags();
    simple: for (; i < end; i++) {
      const c = format[i]!;
      switch (c) {
        case '#':
          p.f.sharp = true;
          break;
        case '0':
          p.f.zero = true;
          break;
        case '+':
          p.f.plus = true;
          break;
        case '-':
          p.f.minus = true;
          break;
        case ' ':
          p.f.space = true;
          break;
        default:
          if (c >= 'a' && c <= 'z' && argNum < args.length) {
            if (c === 'v') {
              p.f.sharpV = p.f.sharp;
              p.f.sharp = false;
              p.f.plusV = p.f.plus;
              p.f.plus = false;
            }
            printValue(p, args[argNum]!, c, 0);
            argNum++;
            i++;
            continue formatLoop;
          }
          break simple;
      }
    }
    let r = argNumber(i);
    argNum = r.argNum;
    i = r.i;
    afterIndex = r.found;
    if (i < end && format[i] === '*') {
      i++;
      const w = intFromArg(args, argNum);
      p.f.wid = w.num;
      p.f.widPresent = w.ok;
      argNum = w.argNum;
      if (!w.ok) p.buf += '%!(BADWIDTH)';
      if (p.f.wid < 0) {
        p.f.wid = -p.f.wid;
        p.f.minus = true;
        p.f.zero = false;
      }
      afterIndex = false;
    } else {
      const w = parsenum(format, i, end);
      p.f.wid = w.num;
      p.f.widPresent = w.isnum;
      i = w.next;
      if (afterIndex && p.f.widPresent) goodArgNum = false;
    }
    if (i + 1 < end && format[i] === '.') {
      i++;
      if (afterIndex) goodArgNum = false;
      r = argNumber(i);
      argNum = r.argNum;
      i = r.i;
      afterIndex = r.found;
      if (i < end && format[i] === '*') {
        i++;
        const w = intFromArg(args, argNum);
        p.f.prec = w.num;
        p.f.precPresent = w.ok;
        argNum = w.argNum;
        if (p.f.prec < 0) {
          p.f.prec = 0;
          p.f.precPresent = false;
        }
        if (!p.f.precPresent) p.buf += '%!(BADPREC)';
        afterIndex = false;
      } else {
        const w = parsenum(format, i, end);
        p.f.prec = w.num;
        p.f.precPresent = w.isnum;
        i = w.next;
        if (!p.f.precPresent) {
          p.f.prec = 0;
          p.f.precPresent = true;
        }
      }
    }
    if (!afterIndex) {
      r = argNumber(i);
      argNum = r.argNum;
      i = r.i;
      afterIndex = r.found;
    }
    if (i >= end) {
      p.buf += '%!(NOVERB)';
      break;
    }
    const verb = String.fromCodePoint(format.codePointAt(i)!);
    i += verb.length;
    if (verb === '%') p.buf += '%';
    else if (!goodArgNum) p.buf += `%!${verb}(BADINDEX)`;
    else if (argNum >= args.length) p.buf += `%!${verb}(MISSING)`;
    else {
      if (verb === 'v') {
        p.f.sharpV = p.f.sharp;
        p.f.sharp = false;
        p.f.plusV = p.f.plus;
        p.f.plus = false;
      }
      if (verb === 'w') badVerb(p, verb, args[argNum]!);
      else printValue(p, args[argNum]!, verb, 0);
      argNum++;
    }
  }
  if (!reordered && argNum < args.length) {
    p.f = noFlags();
    p.buf += '%!(EXTRA ';
    args.slice(argNum).forEach((a, k) => {
      if (k > 0) p.buf += ', ';
      if (a === null) p.buf += '<nil>';
      else {
        p.buf += `${goTypeName(a)}=`;
        printValue(p, a, 'v', 0);
      }
    });
    p.buf += ')';
  }
  return p.buf;
}

/** One value as %v (what {{.x}} and print write). */
export function goShow(v: GoValue): string {
  const p: PrintState = new Printer();
  printValue(p, v, 'v', 0);
  return p.buf;
}

const isStringKind = (v: GoValue): boolean => typeof v === 'string' || v instanceof GoNumber;

/** fmt.Sprint: spaces between operands when neither is a string. */
export function goSprint(args: GoValue[]): string {
  return args.map((a, i) => (i > 0 && !isStringKind(a) && !isStringKind(args[i - 1]!) ? ' ' : '') + goShow(a)).join('');
}

/** fmt.Sprintln */
export function goSprintln(args: GoValue[]): string {
  return `${args.map(goShow).join(' ')}\n`;
}
