// The container log line formats kubelet and crictl read (cri-client pkg/logs):
//   CRI:    <RFC3339Nano timestamp> <stdout|stderr> <P|F>[:more tags] <message>\n
//   Docker: {"log":"…","stream":"stdout","time":"<RFC3339Nano>"}
// A "P" (partial) line carries a fragment without its newline; the "F" line ends the message.

export type LogStream = 'stdout' | 'stderr';

export interface LogMessage {
  /** Nanoseconds since the epoch. */
  timeNs: bigint;
  /** The timestamp as crictl prints it with --timestamps: nine fraction digits, the line's own offset. */
  timestamp: string;
  stream: LogStream;
  /** True for a fragment that continues on a later line of the same stream. */
  partial: boolean;
  /** Message bytes; a full message keeps its trailing newline when the line had one. */
  content: Buffer;
}

export type ParseResult = { ok: true; message: LogMessage } | { ok: false; error: string };

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/** Parses Go's lenient RFC3339Nano; undefined when malformed or out of range. */
export function parseRFC3339Nano(text: string): { timeNs: bigint; timestamp: string } | undefined {
  const m = TIMESTAMP.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac = '', zone] = m;
  const year = Number(y),
    month = Number(mo),
    day = Number(d);
  const hour = Number(h),
    minute = Number(mi),
    second = Number(s);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > daysInMonth) return undefined;
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(4, 6));
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const utcMs = Date.UTC(year, month - 1, day, hour, minute, second) - offsetMinutes * 60_000;
  const nanos = frac.padEnd(9, '0');
  const timeNs = BigInt(utcMs) * 1_000_000n + BigInt(nanos);
  const shownZone = offsetMinutes === 0 ? 'Z' : zone;
  return { timeNs, timestamp: `${y}-${mo}-${d}T${h}:${mi}:${s}.${nanos}${shownZone}` };
}

const SPACE = 0x20;
const NEWLINE = 0x0a;

/** One CRI-format line (with or without its trailing newline). */
export function parseCRILine(line: Buffer): ParseResult {
  const i1 = line.indexOf(SPACE);
  if (i1 < 0) return { ok: false, error: 'timestamp is not found' };
  const tsText = line.subarray(0, i1).toString('latin1');
  const ts = parseRFC3339Nano(tsText);
  if (!ts) return { ok: false, error: `unexpected timestamp ${JSON.stringify(tsText)}` };
  const rest1 = line.subarray(i1 + 1);
  const i2 = rest1.indexOf(SPACE);
  if (i2 < 0) return { ok: false, error: 'stream type is not found' };
  const stream = rest1.subarray(0, i2).toString('latin1');
  if (stream !== 'stdout' && stream !== 'stderr') {
    return { ok: false, error: `unexpected stream type ${JSON.stringify(stream)}` };
  }
  const rest2 = rest1.subarray(i2 + 1);
  const i3 = rest2.indexOf(SPACE);
  if (i3 < 0) return { ok: false, error: 'log tag is not found' };
  const partial = rest2.subarray(0, i3).toString('latin1').split(':')[0] === 'P';
  let content = rest2.subarray(i3 + 1);
  if (partial && content.length > 0 && content[content.length - 1] === NEWLINE) {
    content = content.subarray(0, content.length - 1);
  }
  return { ok: true, message: { ...ts, stream, partial, content } };
}

/** One Docker json-file line; a message without a trailing newline is a fragment. */
export function parseDockerJSONLine(line: Buffer): ParseResult {
  let value: unknown;
  try {
    value = JSON.parse(line.toString('utf8'));
  } catch (err) {
    return { ok: false, error: `not a JSON log line: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (value === null || typeof value !== 'object') return { ok: false, error: 'not a JSON log object' };
  const { log, stream, time } = value as { log?: unknown; stream?: unknown; time?: unknown };
  const ts = typeof time === 'string' ? parseRFC3339Nano(time) : undefined;
  if (!ts) return { ok: false, error: 'JSON log line has no valid "time"' };
  if (stream !== 'stdout' && stream !== 'stderr') {
    return { ok: false, error: `unexpected stream type ${JSON.stringify(stream ?? '')}` };
  }
  const content = Buffer.from(typeof log === 'string' ? log : '', 'utf8');
  const partial = content.length > 0 && content[content.length - 1] !== NEWLINE;
  return { ok: true, message: { ...ts, stream, partial, content } };
}

export type LineParser = (line: Buffer) => ParseResult;

/** Picks the format from the first line, as crictl does; undefined when neither fits. */
export function detectParser(firstLine: Buffer): LineParser | undefined {
  if (parseCRILine(firstLine).ok) return parseCRILine;
  if (parseDockerJSONLine(firstLine).ok) return parseDockerJSONLine;
  return undefined;
}

/**
 * Joins fragments into whole lines per stream: feed messages in file order; a full message comes
 * back with the fragments before it (timestamp and time of the first fragment).
 */
export class PartialJoiner {
  private readonly pending = new Map<LogStream, LogMessage[]>();

  push(message: LogMessage): LogMessage | undefined {
    const parts = this.pending.get(message.stream) ?? [];
    parts.push(message);
    if (message.partial) {
      this.pending.set(message.stream, parts);
      return undefined;
    }
    this.pending.delete(message.stream);
    return parts.length === 1 ? message : joinParts(parts, false);
  }

  /** Unfinished lines at the end of the log, in stream order stdout, stderr. */
  drain(): LogMessage[] {
    const out: LogMessage[] = [];
    for (const stream of ['stdout', 'stderr'] as const) {
      const parts = this.pending.get(stream);
      if (parts && parts.length > 0) out.push(joinParts(parts, true));
    }
    this.pending.clear();
    return out;
  }
}

function joinParts(parts: LogMessage[], partial: boolean): LogMessage {
  return { ...parts[0], partial, content: Buffer.concat(parts.map((p) => p.content)) };
}
