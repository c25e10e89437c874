// The CRI log reader: parsing, joining, --tail, --since, --timestamps, streams and -f.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCRILine, parseRFC3339Nano } from '../../src/logs/parse';
import { parseGoDuration, parseSince } from '../../src/logs/since';
import { readLogs, type ReadLogsOptions } from '../../src/logs/reader';
import { previousLogPath } from '../../src/logs/previous';

const FIXTURES = join(__dirname, '..', 'fixtures', 'logs');

test('CRI lines parse; malformed ones say why', () => {
  const ok = parseCRILine(Buffer.from('2024-01-02T03:04:05.1-07:00 stderr F:x hello world\n'));
  assert.ok(ok.ok);
  assert.equal(ok.message.stream, 'stderr');
  assert.equal(ok.message.partial, false);
  assert.equal(ok.message.content.toString(), 'hello world\n');
  assert.equal(ok.message.timestamp, '2024-01-02T03:04:05.100000000-07:00');
  assert.equal(ok.message.timeNs, 1_704_189_845_100_000_000n);
  const partial = parseCRILine(Buffer.from('2024-01-02T03:04:05Z stdout P abc\n'));
  assert.ok(partial.ok && partial.message.partial && partial.message.content.toString() === 'abc');
  const bad: Array<[string, string]> = [
    ['nospace', 'timestamp is not found'],
    ['2024-13-02T03:04:05Z stdout F x', 'unexpected timestamp "2024-13-02T03:04:05Z"'],
    ['yesterday stdout F x', 'unexpected timestamp "yesterday"'],
    ['2024-01-02T03:04:05Z stdin F x', 'unexpected stream type "stdin"'],
    ['2024-01-02T03:04:05Z stdout', 'stream type is not found'],
    ['2024-01-02T03:04:05Z stdout F', 'log tag is not found'],
  ];
  for (const [line, error] of bad) assert.deepEqual(parseCRILine(Buffer.from(line)), { ok: false, error }, line);
});

test('RFC3339Nano timestamps keep their offset and get nine fraction digits', () => {
  const cases: Array<[string, string | undefined]> = [
    ['2024-01-02T03:04:05Z', '2024-01-02T03:04:05.000000000Z'],
    ['2024-01-02T03:04:05.000000001Z', '2024-01-02T03:04:05.000000001Z'],
    ['2024-01-02T03:04:05.5+00:00', '2024-01-02T03:04:05.500000000Z'],
    ['2024-02-30T03:04:05Z', undefined],
    ['2024-01-02 03:04:05Z', undefined],
  ];
  for (const [text, want] of cases) assert.equal(parseRFC3339Nano(text)?.timestamp, want, text);
});

test('--since: durations back from now in whole seconds, times, Unix seconds', () => {
  const now = 1_704_164_645_700_000_000n; // 2024-01-02T03:04:05.7Z
  const cases: Array<[string, number, bigint]> = [
    ['10s', 0, 1_704_164_635_000_000_000n],
    ['5m', 0, 1_704_164_345_000_000_000n],
    ['1h30m', 0, 1_704_159_245_000_000_000n],
    ['1.5h', 0, 1_704_159_245_000_000_000n],
    ['2024-01-02T03:04:05Z', 0, 1_704_164_645_000_000_000n],
    ['2024-01-02T03:04:05.25+01:00', 0, 1_704_161_045_250_000_000n],
    ['2024-01-02T03:04:05', 60, 1_704_161_045_000_000_000n],
    ['2024-01-02', 0, 1_704_153_600_000_000_000n],
    ['1704164645', 0, 1_704_164_645_000_000_000n],
    ['1704164645.5', 0, 1_704_164_645_500_000_000n],
    ['0', 0, 0n],
  ];
  for (const [value, offset, want] of cases) assert.equal(parseSince(value, now, offset), want, value);
  for (const bad of ['yesterday', '10x', '2024-99-02', '2024-01-02T03:04:05+0100']) {
    assert.throws(
      () => parseSince(bad, now, 0),
      (err: Error) => err.name === 'SyncpodError' && !err.message.includes('\n'),
      bad,
    );
  }
  assert.equal(parseGoDuration('300ms'), 300e6);
  assert.equal(parseGoDuration('-1m'), -60e9);
});

/** Collects what goes to each stream. */
function sinks() {
  const out: string[] = [];
  const err: string[] = [];
  const warnings: string[] = [];
  return {
    out,
    err,
    warnings,
    opts: {
      stdout: { write: (b: Buffer) => void out.push(b.toString()) },
      stderr: { write: (b: Buffer) => void err.push(b.toString()) },
      warn: (m: string) => void warnings.push(m),
    },
  };
}

async function read(path: string, extra: Partial<ReadLogsOptions> = {}) {
  const s = sinks();
  await readLogs({ path, ...s.opts, ...extra });
  return { out: s.out.join(''), err: s.err.join(''), warnings: s.warnings };
}

test('reading a CRI log: streams split, partials joined, malformed lines skipped with a warning', async () => {
  const r = await read(join(FIXTURES, 'mixed-cri.txt'));
  assert.equal(r.out, 'first line\npartial\n\nlast\n');
  assert.equal(r.err, 'an error\ninterleaved\n');
  assert.equal(r.warnings.length, 1);
  assert.match(r.warnings[0], /unexpected timestamp "not"/);
});

test('--timestamps prefixes whole lines with the first fragment time', async () => {
  const r = await read(join(FIXTURES, 'mixed-cri.txt'), { timestamps: true });
  assert.equal(
    r.out,
    '2024-01-02T03:04:05.123456789Z first line\n' +
      '2024-01-02T04:04:07.500000000+01:00 partial\n' +
      '2024-01-02T03:04:10.000000000Z \n' +
      '2024-01-02T03:04:11.000000000Z last\n',
  );
  assert.equal(r.err, '2024-01-02T03:04:06.000000000Z an error\n2024-01-02T03:04:07.600000000Z interleaved\n');
});

test('--tail counts whole lines from the end', async () => {
  const path = join(FIXTURES, 'mixed-cri.txt');
  const cases: Array<[number, string, string]> = [
    [0, '', ''],
    [1, 'last\n', ''],
    [2, '\nlast\n', ''],
    [3, 'partial\n\nlast\n', ''],
    [4, 'partial\n\nlast\n', 'interleaved\n'],
    [100, 'first line\npartial\n\nlast\n', 'an error\ninterleaved\n'],
  ];
  for (const [tail, out, err] of cases) {
    const r = await read(path, { tail });
    assert.deepEqual([r.out, r.err], [out, err], `--tail ${tail}`);
  }
});

test('--since, --stream and --limit-bytes', async () => {
  const path = join(FIXTURES, 'mixed-cri.txt');
  const since = await read(path, { sinceNs: 1_704_164_647_000_000_000n }); // 03:04:07Z
  assert.deepEqual([since.out, since.err], ['partial\n\nlast\n', 'interleaved\n']);
  const onlyErr = await read(path, { stream: 'stderr' });
  assert.deepEqual([onlyErr.out, onlyErr.err], ['', 'an error\ninterleaved\n']);
  const limited = await read(path, { limitBytes: 14 });
  assert.deepEqual([limited.out, limited.err], ['first line\n', 'an ']);
  await assert.rejects(readLogs({ path, tail: 1, stream: 'stdout', ...sinks().opts }), {
    message: '--tail and --stream are mutually exclusive',
  });
});

test('Docker json-file logs are read too', async () => {
  const r = await read(join(FIXTURES, 'docker-json.txt'), { timestamps: true });
  assert.equal(r.out, '2024-01-02T03:04:05.100000000Z hello\n2024-01-02T03:04:07.000000000Z split line\n');
  assert.equal(r.err, '2024-01-02T03:04:06.000000000Z oops\n');
});

test('a missing log file is a one-line error', async () => {
  await assert.rejects(
    read('/nonexistent/syncpod/0.log'),
    (err: Error) =>
      err.name === 'SyncpodError' && err.message.startsWith('failed to open log file "/nonexistent/syncpod/0.log"'),
  );
});

const line = (i: number, stream = 'stdout', tag = 'F', text = `line ${i}`) =>
  `2024-01-02T03:04:${String(i % 60).padStart(2, '0')}.${String(i).padStart(9, '0')}Z ${stream} ${tag} ${text}\n`;

test('--tail on a file larger than the read block, with lines split across blocks', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'syncpod-logs-'));
  try {
    const path = join(dir, '0.log');
    let body = '';
    for (let i = 0; i < 5000; i++) body += i % 7 === 0 ? line(i, 'stdout', 'P', `part-${i}-`) : line(i);
    body += '2024-01-02T03:05:00Z stdout F unterminated';
    writeFileSync(path, body);
    const r = await read(path, { tail: 3 });
    assert.equal(r.out, 'line 4996\nline 4997\npart-4998-line 4999\n');
    const all = await read(path, { tail: 4000 });
    assert.equal(all.out.split('\n').length - 1, 4000);
    assert.ok(all.out.endsWith('part-4998-line 4999\n'), 'an unterminated last line is not part of --tail');
    const whole = await read(path);
    assert.ok(whole.out.endsWith('line 4999\nunterminated'), 'without --tail an unterminated line is still shown');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('-f keeps reading appended lines until the container stops, then drains', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'syncpod-follow-'));
  try {
    const path = join(dir, '0.log');
    writeFileSync(path, line(1) + line(2, 'stdout', 'P', 'half-'));
    const s = sinks();
    let checks = 0;
    // Each "running" check appends more data; the third says the container has exited, after
    // writing a last line that must still be shown.
    const isRunning = async () => {
      checks++;
      if (checks === 1) appendFileSync(path, line(3, 'stdout', 'F', 'done') + line(4, 'stderr'));
      if (checks === 2) appendFileSync(path, '2024-01-02T03:04:05Z stdout F tw');
      if (checks === 3) {
        appendFileSync(path, 'o\n' + line(6));
        return false;
      }
      return true;
    };
    await readLogs({ path, follow: true, tail: 1, isRunning, sleep: async () => {}, ...s.opts });
    assert.equal(s.out.join(''), 'line 1\nhalf-done\ntwo\nline 6\n');
    assert.equal(s.err.join(''), 'line 4\n');
    assert.equal(checks, 3);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('-f follows the runtime to a reopened (rotated) log file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'syncpod-rotate-'));
  try {
    const path = join(dir, '0.log');
    writeFileSync(path, line(1));
    const s = sinks();
    let checks = 0;
    const isRunning = async () => {
      checks++;
      if (checks === 1) {
        appendFileSync(path, line(2));
        renameSync(path, path + '.20240102-030405');
        writeFileSync(path, line(3));
      }
      return checks < 3;
    };
    await readLogs({ path, follow: true, isRunning, sleep: async () => {}, ...s.opts });
    assert.equal(s.out.join(''), 'line 1\nline 2\nline 3\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('-f stops when aborted (Ctrl+C)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'syncpod-abort-'));
  try {
    const path = join(dir, '0.log');
    writeFileSync(path, line(1));
    const controller = new AbortController();
    const s = sinks();
    await readLogs({
      path,
      follow: true,
      isRunning: async () => true,
      sleep: async () => controller.abort(),
      signal: controller.signal,
      ...s.opts,
    });
    assert.equal(s.out.join(''), 'line 1\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("--previous without the earlier container: crictl's <attempt-1> file beside the current log", () => {
  assert.equal(previousLogPath('/var/log/pods/ns_web_uid/app/3.log', 2), '/var/log/pods/ns_web_uid/app/2.log');
  assert.equal(previousLogPath('/var/log/pods/ns_web.v2_uid/app/1.log', 0), '/var/log/pods/ns_web.v2_uid/app/0.log');
  assert.equal(previousLogPath('/logs/app/1', 0), '/logs/app/0');
});
