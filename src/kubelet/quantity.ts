// Kubernetes resource quantities (apimachinery resource.Quantity): parse, round, canonical text,
// and the integer views kubelet uses (MilliValue for CPU, Value for bytes). Pure.
//
// Precision: values are exact (BigInt mantissa × 10^exponent). Parsing rounds non-zero values
// away from zero to nano precision (as ParseQuantity does); API defaulting rounds to milli
// (roundUpToMilli). toMilliCPU / toBytes round up like Quantity.MilliValue / Value and return
// JS numbers, exact up to 2^53 (9 PB, 9e15 milli-CPU); beyond that they throw.
// Not mirrored: the 2^63-1 cap of BinarySI values; the canonical text of DecimalSI values whose
// exponent lies outside n..E (upstream writes no suffix there; this writes `e<exp>`).

import { SyncpodError } from '../errors';

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** value = mantissa × 10^exponent. `text` is the input string when Go keeps it verbatim. */
export interface Quantity {
  readonly mantissa: bigint;
  readonly exponent: number;
  readonly format: QuantityFormat;
  readonly text?: string;
}

const FORMAT_HELP = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const DECIMAL_SUFFIX: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIX: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_SUFFIX_BY_EXPONENT = new Map(Object.entries(DECIMAL_SUFFIX).map(([s, e]) => [e, s]));
const SUFFIX_CHARS = 'eEinumkKMGTP';
/** Digits an int64 holds for sure (Go's fast path limit). */
const MAX_INT64_DIGITS = 18;
const NANO = -9;
const MILLI = -3;

function fail(s: string, reason: string): SyncpodError {
  return new SyncpodError(`invalid quantity ${JSON.stringify(s)}: ${reason}`);
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/**
 * Parse a quantity as the API server does (`500m`, `1`, `0.5`, `256Mi`, `1G`, `1e3`).
 * A YAML number is read through its decimal text. Throws SyncpodError on bad input.
 */
export function parseQuantity(input: string | number): Quantity {
  if (typeof input !== 'string' && typeof input !== 'number') throw fail(String(input), FORMAT_HELP);
  const s = typeof input === 'number' ? numberText(input) : input;
  if (s.length === 0) throw fail(s, FORMAT_HELP);
  if (s === '0') return { mantissa: 0n, exponent: 0, format: 'DecimalSI', text: s };

  let pos = 0;
  let negative = false;
  if (s[0] === '-' || s[0] === '+') {
    negative = s[0] === '-';
    pos++;
  }
  while (s[pos] === '0') pos++;
  let intStart = pos;
  while (isDigit(s[pos])) pos++;
  let num = s.slice(intStart, pos);
  let frac = '';
  if (s[pos] === '.') {
    pos++;
    intStart = pos;
    while (isDigit(s[pos])) pos++;
    frac = s.slice(intStart, pos);
  }
  if (num === '') num = '0';
  const suffix = s.slice(pos);
  let i = 0;
  while (i < suffix.length && SUFFIX_CHARS.includes(suffix[i]!)) i++;
  if (suffix[i] === '-' || suffix[i] === '+') i++;
  while (isDigit(suffix[i])) i++;
  if (i !== suffix.length) throw fail(s, FORMAT_HELP);

  let format: QuantityFormat;
  let decExp = 0;
  let binExp = 0;
  if (suffix in DECIMAL_SUFFIX) {
    format = 'DecimalSI';
    decExp = DECIMAL_SUFFIX[suffix]!;
  } else if (suffix in BINARY_SUFFIX) {
    format = 'BinarySI';
    binExp = BINARY_SUFFIX[suffix]!;
  } else if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E') && /^[+-]?\d+$/.test(suffix.slice(1))) {
    format = 'DecimalExponent';
    decExp = Number(suffix.slice(1));
    if (!Number.isSafeInteger(decExp) || Math.abs(decExp) > 2 ** 31 - 1)
      throw fail(s, "unable to parse quantity's suffix");
  } else {
    throw fail(s, "unable to parse quantity's suffix");
  }

  const digits = BigInt(num + frac);
  let mantissa = (negative ? -digits : digits) * (1n << BigInt(binExp));
  let exponent = decExp - frac.length;
  let text: string | undefined;

  // Go keeps the input text when its int64 fast path sees it is already canonical.
  const shifted = num + frac;
  if (format === 'BinarySI') {
    const precision = 15 - num.length - Math.trunc((binExp * 3) / 10) - 1;
    if (frac === '' && precision >= 0 && digits < 2n ** 63n && (digits & 7n) !== 0n) text = s;
  } else if (MAX_INT64_DIGITS - shifted.length >= 0 && exponent >= NANO) {
    if (exponent % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0') text = s;
  }

  if (exponent < NANO && mantissa !== 0n) {
    ({ mantissa, exponent } = roundAwayFromZero(mantissa, exponent, NANO));
  }
  if (format === 'BinarySI' && mantissa !== 0n && isBelowOne(mantissa, exponent)) format = 'DecimalSI';
  return text === undefined ? { mantissa, exponent, format } : { mantissa, exponent, format, text };
}

function numberText(n: number): string {
  if (!Number.isFinite(n)) throw fail(String(n), FORMAT_HELP);
  return String(n).replace('e+', 'e');
}

function isBelowOne(mantissa: bigint, exponent: number): boolean {
  const abs = mantissa < 0n ? -mantissa : mantissa;
  return exponent < 0 && abs < 10n ** BigInt(-exponent);
}

/** Round |value| up (away from zero) to a multiple of 10^scale. */
function roundAwayFromZero(mantissa: bigint, exponent: number, scale: number): { mantissa: bigint; exponent: number } {
  if (exponent >= scale) return { mantissa, exponent };
  const negative = mantissa < 0n;
  const abs = negative ? -mantissa : mantissa;
  const drop = scale - exponent;
  let rounded: bigint;
  if (drop > abs.toString().length + 1) {
    rounded = abs === 0n ? 0n : 1n;
  } else {
    const div = 10n ** BigInt(drop);
    rounded = abs / div + (abs % div === 0n ? 0n : 1n);
  }
  return { mantissa: negative ? -rounded : rounded, exponent: scale };
}

/** What API defaulting does to every resource quantity: round up to milli precision. */
export function roundUpToMilli(q: Quantity): Quantity {
  if (q.exponent >= MILLI || q.mantissa === 0n) return q;
  // Exact at milli precision keeps the value; the verbatim text is dropped either way.
  const { mantissa, exponent } = roundAwayFromZero(q.mantissa, q.exponent, MILLI);
  return { mantissa, exponent, format: q.format };
}

/** The canonical text (Quantity.String()), as the API server stores and kubelet hashes it. */
export function formatQuantity(q: Quantity): string {
  if (q.text !== undefined) return q.text;
  if (q.mantissa === 0n) return '0';
  let format = q.format;
  if (format === 'BinarySI') {
    const abs = q.mantissa < 0n ? -q.mantissa : q.mantissa;
    const small = isBelowOne(abs, q.exponent) || compareToInt(abs, q.exponent, 1024n) < 0;
    if (small || !isInteger(q.mantissa, q.exponent)) format = 'DecimalSI';
  }
  if (format === 'BinarySI') {
    let n = integerValue(q.mantissa, q.exponent);
    let times = 0;
    while (n % 1024n === 0n) {
      n /= 1024n;
      times++;
    }
    const suffix = times === 0 ? '' : (Object.keys(BINARY_SUFFIX).find((k) => BINARY_SUFFIX[k] === times * 10) ?? '');
    return `${n}${suffix}`;
  }
  let n = q.mantissa;
  let e = q.exponent;
  while (n % 10n === 0n) {
    n /= 10n;
    e++;
  }
  while (e % 3 !== 0) {
    n *= 10n;
    e--;
  }
  if (format === 'DecimalExponent') return e === 0 ? `${n}` : `${n}e${e}`;
  const suffix = DECIMAL_SUFFIX_BY_EXPONENT.get(e);
  return suffix === undefined ? `${n}e${e}` : `${n}${suffix}`;
}

/**
 * A byte count as a manifest writes it and kubectl shows it (Quantity.String()): the shorter of
 * its binary (`256Mi`, `1536Mi`) and decimal (`1G`, `500M`) canonical text, binary on a tie;
 * a plain count when neither has a suffix (`1000001`).
 */
export function bytesQuantityText(bytes: number): string {
  if (!Number.isSafeInteger(bytes)) return String(bytes);
  const mantissa = BigInt(bytes);
  const binary = formatQuantity({ mantissa, exponent: 0, format: 'BinarySI' });
  const decimal = formatQuantity({ mantissa, exponent: 0, format: 'DecimalSI' });
  return decimal.length < binary.length ? decimal : binary;
}

/** Parse, round to milli and write canonically: the form a quantity has once the API stored it. */
export function canonicalQuantity(input: string | number): string {
  return formatQuantity(roundUpToMilli(parseQuantity(input)));
}

function isInteger(mantissa: bigint, exponent: number): boolean {
  return exponent >= 0 || mantissa % 10n ** BigInt(-exponent) === 0n;
}

function integerValue(mantissa: bigint, exponent: number): bigint {
  return exponent >= 0 ? mantissa * 10n ** BigInt(exponent) : mantissa / 10n ** BigInt(-exponent);
}

/** Sign of (|mantissa| × 10^exponent − n), without building huge numbers. */
function compareToInt(abs: bigint, exponent: number, n: bigint): number {
  if (exponent >= 0) {
    if (exponent > 40) return 1;
    const v = abs * 10n ** BigInt(exponent);
    return v < n ? -1 : v > n ? 1 : 0;
  }
  const scaled = n * 10n ** BigInt(-exponent);
  return abs < scaled ? -1 : abs > scaled ? 1 : 0;
}

/** ceil(value × 10^-scale) as a safe JS integer. */
function scaledValue(q: Quantity, scale: number, what: string): number {
  const shift = q.exponent - scale;
  let v: bigint;
  if (shift >= 0) {
    if (shift > 40) throw new SyncpodError(`quantity ${formatQuantity(q)} is too large for ${what}`);
    v = q.mantissa * 10n ** BigInt(shift);
  } else {
    const div = 10n ** BigInt(-shift);
    v = q.mantissa / div;
    if (q.mantissa > 0n && q.mantissa % div !== 0n) v += 1n;
  }
  if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new SyncpodError(`quantity ${formatQuantity(q)} is too large for ${what}`);
  }
  return Number(v);
}

/** Milli-units rounded up (Quantity.MilliValue): `500m` -> 500, `1` -> 1000, `0.1m` -> 1. */
export function toMilliCPU(q: Quantity): number {
  return scaledValue(q, MILLI, 'milli-CPU');
}

/** Whole units rounded up (Quantity.Value): `256Mi` -> 268435456, `1G` -> 1e9, `0.5` -> 1. */
export function toBytes(q: Quantity): number {
  return scaledValue(q, 0, 'bytes');
}
