// Reads a container log file as `crictl logs` does (cri-client ReadLogs): --tail from the end of
// the file, --since, --timestamps, --limit-bytes, stdout lines to stdout and stderr lines to
// stderr, and -f: keep reading appended data until the container stops running, then drain.
// Differences on purpose: fragments (P) are joined per stream before writing, and --tail counts
// whole lines (crictl counts file lines, so a long split line would use up several).

import { open, stat, type FileHandle } from 'node:fs/promises';
import { SyncpodError } from '../errors';
import { detectParser, PartialJoiner, type LineParser, type LogMessage, type LogStream } from './parse';

export interface LogSink {
  write(chunk: Buffer): void | Promise<void>;
}

export interface ReadLogsOptions {
  /** The container's log path (ContainerStatus.logPath). */
  path: string;
  /** --tail N: only the last N whole lines (N >= 0); undefined for all. */
  tail?: number;
  /** --since, as ns since the epoch (see parseSince); lines stamped earlier are skipped. */
  sinceNs?: bigint;
  /** --timestamps: prefix each line with its timestamp and a space. */
  timestamps?: boolean;
  /** --limit-bytes: stop after writing this many bytes in total. */
  limitBytes?: number;
  /** --stream: only this stream (crictl refuses it together with --tail). */
  stream?: LogStream;
  /** -f: keep reading appended data while `isRunning` says yes. */
  follow?: boolean;
  /** Asked at the end of the data when following; the lead wires ContainerStatus state == RUNNING. */
  isRunning?: () => Promise<boolean>;
  stdout: LogSink;
  stderr: LogSink;
  /** Diagnostics (malformed lines); the lead sends them to stderr or the debug log. */
  warn?: (message: string) => void;
  /** How long to wait for new data between checks when following (default 250 ms). */
  pollIntervalMs?: number;
  /** Injected sleep (tests); resolves early when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Ctrl+C: stop following and return normally. */
  signal?: AbortSignal;
}

const BLOCK = 64 * 1024;
const NEWLINE = 0x0a;

export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

interface RawLine {
  start: number;
  end: number;
  line: Buffer;
}

/** Complete lines from the end of the file backwards (an unterminated last line is left out). */
async function* linesBackward(file: FileHandle, size: number): AsyncGenerator<RawLine> {
  let end = size;
  let carry = Buffer.alloc(0); // start of a line whose beginning lies in an earlier block
  let skipUnterminated = true;
  while (end > 0) {
    const start = Math.max(0, end - BLOCK);
    const block = Buffer.alloc(end - start);
    await file.read(block, 0, block.length, start);
    const data = carry.length > 0 ? Buffer.concat([block, carry]) : block;
    let lineEnd = data.length;
    if (skipUnterminated) {
      const lastNl = data.lastIndexOf(NEWLINE);
      if (lastNl < 0) {
        carry = data;
        end = start;
        continue;
      }
      lineEnd = lastNl + 1;
      skipUnterminated = false;
    }
    // data[lineEnd - 1] is always a newline here.
    while (lineEnd > 0) {
      const nl = lineEnd >= 2 ? data.lastIndexOf(NEWLINE, lineEnd - 2) : -1;
      if (nl < 0 && start > 0) break;
      const lineStart = nl + 1;
      yield { start: start + lineStart, end: start + lineEnd, line: data.subarray(lineStart, lineEnd) };
      lineEnd = lineStart;
    }
    carry = Buffer.from(data.subarray(0, lineEnd));
    end = start;
  }
}

function classify(line: Buffer): { stream: LogStream; partial: boolean } | undefined {
  const r = detectParser(line)?.(line);
  return r?.ok ? { stream: r.message.stream, partial: r.message.partial } : undefined;
}

/**
 * Where to start reading for the last `n` whole lines, reading backwards block by block, and how
 * many whole lines to skip from there. The start is moved back until no stream has fragments of a
 * line before it (stdout and stderr fragments can interleave), so no shown line is cut.
 */
export async function findTailStart(
  file: FileHandle,
  size: number,
  n: number,
): Promise<{ offset: number; skip: number }> {
  let offset = 0;
  let count = 0; // whole lines in [offset, end)
  let unresolved: Set<LogStream> | undefined; // streams whose last line before `offset` is unknown
  let wholeSinceOffset = 0; // whole lines seen before `offset` since it last moved
  for await (const raw of linesBackward(file, size)) {
    const c = classify(raw.line);
    if (!c) continue;
    if (unresolved === undefined) {
      if (!c.partial) count++;
      if (count <= n) continue;
      // The (n+1)-th whole line from the end: start right after it.
      count = n;
      offset = raw.end;
      wholeSinceOffset = 1; // this line itself
      unresolved = new Set<LogStream>(['stdout', 'stderr']);
      unresolved.delete(c.stream);
      continue;
    }
    if (!unresolved.has(c.stream)) {
      if (!c.partial) wholeSinceOffset++;
      continue;
    }
    if (!c.partial) {
      unresolved.delete(c.stream);
      wholeSinceOffset++;
      if (unresolved.size === 0) break;
    } else {
      // A fragment of a line that continues after `offset`: take it (and what lies between) in.
      offset = raw.start;
      count += wholeSinceOffset;
      wholeSinceOffset = 0;
      unresolved = new Set<LogStream>(['stdout', 'stderr']);
    }
  }
  if (unresolved === undefined) return { offset: 0, skip: 0 };
  return { offset, skip: count - n };
}

/** Reads (and with follow, keeps reading) a log file; resolves when done. */
export async function readLogs(opts: ReadLogsOptions): Promise<void> {
  if (opts.tail !== undefined && opts.stream !== undefined) {
    throw new SyncpodError('--tail and --stream are mutually exclusive');
  }
  if (opts.follow && !opts.isRunning) throw new Error('internal: following logs needs isRunning');
  const sleep = opts.sleep ?? defaultSleep;
  const poll = opts.pollIntervalMs ?? 250;
  let file: FileHandle;
  try {
    file = await open(opts.path, 'r');
  } catch (err) {
    throw new SyncpodError(`failed to open log file ${JSON.stringify(opts.path)}: ${(err as Error).message}`);
  }
  try {
    let info = await file.stat();
    const tailStart =
      opts.tail !== undefined ? await findTailStart(file, info.size, opts.tail) : { offset: 0, skip: 0 };
    let position = tailStart.offset;
    let skipLines = tailStart.skip;
    let remainingLines = opts.tail !== undefined && !opts.follow ? opts.tail : Infinity;
    let remainingBytes = opts.limitBytes !== undefined && opts.limitBytes >= 0 ? opts.limitBytes : Infinity;
    let parse: LineParser | undefined;
    const joiner = new PartialJoiner();
    let pending = Buffer.alloc(0);
    let stillRunning = true;

    const emit = async (m: LogMessage): Promise<boolean> => {
      if (opts.sinceNs !== undefined && m.timeNs < opts.sinceNs) return true;
      if (opts.stream !== undefined && m.stream !== opts.stream) return true;
      let out = opts.timestamps ? Buffer.concat([Buffer.from(`${m.timestamp} `), m.content]) : m.content;
      if (out.length > remainingBytes) out = out.subarray(0, remainingBytes);
      await (m.stream === 'stdout' ? opts.stdout : opts.stderr).write(out);
      remainingBytes -= out.length;
      return remainingBytes > 0;
    };

    // Handles one complete raw line; false when output must stop.
    const handleLine = async (line: Buffer): Promise<boolean> => {
      if (!parse) {
        // The format is fixed by the first line that reads as CRI or Docker JSON.
        parse = detectParser(line);
        if (!parse) {
          opts.warn?.(`skipping line in unsupported log format in ${opts.path}`);
          return true;
        }
      }
      const r = parse(line);
      if (!r.ok) {
        opts.warn?.(`skipping malformed line in ${opts.path}: ${r.error}`);
        return true;
      }
      const whole = joiner.push(r.message);
      if (!whole) return true;
      if (skipLines > 0) {
        skipLines--;
        return true;
      }
      if (!(await emit(whole))) return false;
      remainingLines--;
      return remainingLines > 0;
    };

    if (remainingLines === 0) return;
    for (;;) {
      const buf = Buffer.alloc(BLOCK);
      const { bytesRead } = await file.read(buf, 0, BLOCK, position);
      if (bytesRead > 0) {
        position += bytesRead;
        let data =
          pending.length > 0 ? Buffer.concat([pending, buf.subarray(0, bytesRead)]) : buf.subarray(0, bytesRead);
        let startOfLine = 0;
        for (let nl = data.indexOf(NEWLINE); nl >= 0; nl = data.indexOf(NEWLINE, startOfLine)) {
          const line = data.subarray(startOfLine, nl + 1);
          startOfLine = nl + 1;
          if (!(await handleLine(line))) return;
        }
        pending = Buffer.from(data.subarray(startOfLine));
        data = Buffer.alloc(0);
        continue;
      }
      // End of the data written so far.
      if (!opts.follow || opts.signal?.aborted) break;
      if (!stillRunning) break; // drained once more after the container stopped
      // Log rotation: the runtime reopened a new file at the same path.
      const current = await stat(opts.path).catch(() => undefined);
      if (current && (current.ino !== info.ino || current.dev !== info.dev)) {
        await file.close();
        file = await open(opts.path, 'r');
        info = await file.stat();
        position = 0;
        pending = Buffer.alloc(0);
        continue;
      }
      stillRunning = await opts.isRunning!();
      if (stillRunning) await sleep(poll, opts.signal);
      if (opts.signal?.aborted) break;
    }
    // An unterminated last line is still shown when not following further (as crictl does).
    if (pending.length > 0 && !(opts.follow && opts.signal?.aborted)) {
      if (!(await handleLine(pending))) return;
    }
    for (const m of joiner.drain()) if (!(await emit(m))) return;
  } finally {
    await file.close().catch(() => undefined);
  }
}
