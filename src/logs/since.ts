// --since as crictl reads it (cri-tools pkg/timetype): a Go duration back from now (whole seconds),
// an RFC 3339 date/time (local zone when it names none), or Unix seconds[.nanoseconds].

import { SyncpodError } from '../errors';
import { parseGoDuration } from '../config/duration';

export { parseGoDuration };

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2})(?::(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?)?(Z|z|[+-]\d{2}:\d{2})?$/;

function fail(value: string, why: string): never {
  throw new SyncpodError(`invalid --since value ${JSON.stringify(value)}: ${why}`);
}

/**
 * The instant (ns since the epoch) to show logs from. `nowNs` is the clock; `localOffsetMinutes`
 * is the local zone's offset at now (crictl parses zone-less times in that fixed offset).
 */
export function parseSince(value: string, nowNs: bigint, localOffsetMinutes: number): bigint {
  const duration = value !== '0' ? parseGoDuration(value) : undefined;
  if (duration !== undefined) {
    const ns = nowNs - BigInt(Math.round(duration));
    const secs = ns >= 0n ? ns / 1_000_000_000n : -((-ns + 999_999_999n) / 1_000_000_000n);
    return secs * 1_000_000_000n;
  }
  const inLocation = !/[zZ+]/.test(value) && value.split('-').length - 1 !== 3;
  const m = DATE_TIME.exec(value);
  if (m) {
    const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = m;
    if (inLocation !== (zone === undefined)) fail(value, 'cannot parse the time zone');
    const year = Number(y),
      month = Number(mo),
      day = Number(d);
    const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
    if (
      month < 1 ||
      month > 12 ||
      day < 1 ||
      day > daysInMonth ||
      Number(h) > 23 ||
      Number(mi) > 59 ||
      Number(s) > 59
    ) {
      fail(value, 'date or time out of range');
    }
    let offset = localOffsetMinutes;
    if (zone !== undefined) {
      offset =
        zone === 'Z' || zone === 'z'
          ? 0
          : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
    }
    const ms = Date.UTC(year, month - 1, day, Number(h), Number(mi), Number(s)) - offset * 60_000;
    return BigInt(ms) * 1_000_000n + BigInt(frac.padEnd(9, '0'));
  }
  if (value.includes('-')) fail(value, 'not a duration (e.g. 10s, 5m, 1h) or RFC 3339 time');
  const unix = /^(\d+)(?:\.(\d+))?$/.exec(value);
  if (!unix) throw new SyncpodError(`failed to parse value as time or duration: ${JSON.stringify(value)}`);
  const nanos = unix[2] === undefined ? 0n : BigInt(unix[2].slice(0, 9).padEnd(9, '0'));
  return BigInt(unix[1]) * 1_000_000_000n + nanos;
}
