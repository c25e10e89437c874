// Small text helpers that reproduce the formats crictl users see: go-units' human durations and
// sizes, Go's RFC 3339 timestamps and crictl's 13-character ids. Table layout is in table.ts.

/** crictl shortens ids to this many characters unless --no-trunc is given. */
export const TRUNCATED_ID_LENGTH = 13;

/** Drop `prefix` (e.g. "sha256:") when present, then keep at most 13 characters. */
export function truncateId(id: string, prefix = ''): string {
  const rest = prefix !== '' && id.startsWith(prefix) ? id.slice(prefix.length) : id;
  return rest.length > TRUNCATED_ID_LENGTH ? rest.slice(0, TRUNCATED_ID_LENGTH) : rest;
}

/** go-units HumanDuration for a duration in nanoseconds (negative counts as less than a second). */
export function humanDuration(ns: bigint): string {
  const seconds = Number(ns / 1_000_000_000n);
  if (seconds < 1) return 'Less than a second';
  if (seconds === 1) return '1 second';
  if (seconds < 60) return `${seconds} seconds`;
  const minutes = Number(ns / 60_000_000_000n);
  if (minutes === 1) return 'About a minute';
  if (minutes < 60) return `${minutes} minutes`;
  const hours = Math.trunc(Number(ns) / 3.6e12 + 0.5);
  if (hours === 1) return 'About an hour';
  if (hours < 48) return `${hours} hours`;
  if (hours < 24 * 7 * 2) return `${Math.trunc(hours / 24)} days`;
  if (hours < 24 * 30 * 2) return `${Math.trunc(hours / 24 / 7)} weeks`;
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24 / 30)} months`;
  return `${Math.trunc(Math.trunc(Number(ns) / 3.6e12) / 24 / 365)} years`;
}

/** "<duration> ago" between an int64 nanosecond timestamp (decimal string) and now (ns). */
export function timeAgo(createdAtNs: string, nowNs: bigint): string {
  return `${humanDuration(nowNs - parseNs(createdAtNs))} ago`;
}

/** Parses an int64 decimal string; anything unparsable counts as 0, like an unset proto field. */
export function parseNs(value: string | undefined): bigint {
  if (value === undefined || !/^-?\d+$/.test(value)) return 0n;
  return BigInt(value);
}

const DECIMAL_UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];

/** Go's `%.<precision>g`: shortest form, exponent as e+NN, no trailing zeros. */
export function goFormatG(value: number, precision: number): string {
  if (value === 0) return '0';
  const [mantissa, expText] = value.toExponential(precision - 1).split('e');
  const exp = Number(expText);
  const trim = (t: string) => (t.includes('.') ? t.replace(/0+$/, '').replace(/\.$/, '') : t);
  if (exp < -4 || exp >= precision) {
    const digits = String(Math.abs(exp)).padStart(2, '0');
    return `${trim(mantissa)}e${exp < 0 ? '-' : '+'}${digits}`;
  }
  return trim(value.toFixed(Math.max(0, precision - 1 - exp)));
}

/** go-units HumanSizeWithPrecision: decimal units (1000), e.g. 12.3MB. */
export function humanSize(bytes: number, precision = 3): string {
  let size = bytes;
  let i = 0;
  while (size >= 1000 && i < DECIMAL_UNITS.length - 1) {
    size /= 1000;
    i++;
  }
  return `${goFormatG(size, precision)}${DECIMAL_UNITS[i]}`;
}

/** The time zone used for wall-clock output: UTC offset in minutes east of UTC at an instant. */
export interface Zone {
  offsetMinutes(epochMs: number): number;
}

export const utcZone: Zone = { offsetMinutes: () => 0 };

/** The process's local zone; pass it from the composition root (reads TZ through Date). */
export const systemZone: Zone = { offsetMinutes: (ms) => -new Date(ms).getTimezoneOffset() };

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

function zoneSuffix(offsetMinutes: number): string {
  if (offsetMinutes === 0) return 'Z';
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${sign}${pad(Math.trunc(abs / 60))}:${pad(abs % 60)}`;
}

/** Calendar fields of an instant (ns since epoch) shifted by an offset. */
function wallClock(ns: bigint, offsetMinutes: number) {
  const shifted = ns + BigInt(offsetMinutes) * 60_000_000_000n;
  let secs = shifted / 1_000_000_000n;
  let frac = shifted % 1_000_000_000n;
  if (frac < 0n) {
    frac += 1_000_000_000n;
    secs -= 1n;
  }
  const d = new Date(Number(secs) * 1000);
  return { d, frac: Number(frac) };
}

/**
 * Go's `time.Unix(0, ns).Format(time.RFC3339Nano)` in `zone`: fraction without trailing zeros,
 * "Z" for a zero offset.
 */
export function formatRFC3339Nano(ns: bigint, zone: Zone): string {
  const offset = zone.offsetMinutes(Number(ns / 1_000_000n));
  const { d, frac } = wallClock(ns, offset);
  const fraction = frac === 0 ? '' : `.${pad(frac, 9).replace(/0+$/, '')}`;
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(
    d.getUTCMinutes(),
  )}:${pad(d.getUTCSeconds())}${fraction}${zoneSuffix(offset)}`;
}

/** Go's zero time.Time formatted as RFC 3339. */
export const GO_ZERO_TIME_RFC3339 = '0001-01-01T00:00:00Z';
