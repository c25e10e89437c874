// The built bundle (scripts/build.mjs, scripts/boot.cjs): a command reads only the files it needs,
// each through a code cache V8 accepts. SYNCPOD_TRACE_FILES=1 makes the boot loader list them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const DIST = path.join(ROOT, 'dist');
const BIN = path.join(ROOT, 'bin', 'syncpod');

function filesRead(args: string[]): { files: string[]; builtins: string[]; status: number | null; stdout: string } {
  const r = spawnSync(BIN, args, {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, SYNCPOD_TRACE_FILES: '1' },
    encoding: 'utf8',
  });
  const listed = (prefix: string) => {
    const line = r.stderr.split('\n').find((l) => l.startsWith(prefix));
    assert.ok(line !== undefined, `no "${prefix}" line in: ${r.stderr}`);
    return line.slice(prefix.length).split(' ').filter(Boolean);
  };
  return {
    files: listed('syncpod: files '),
    builtins: listed('syncpod: builtins '),
    status: r.status,
    stdout: r.stdout,
  };
}

const size = (files: string[]) =>
  files.reduce((sum, f) => sum + fs.statSync(path.join(DIST, f.replace(/\(compiled\)$/, ''))).size, 0);
const allCode = fs.readdirSync(DIST).filter((f) => f.endsWith('.cjs') && f !== 'boot.cjs');

test('--version reads the core only, from the code cache: under a tenth of the bundle, no package but commander', () => {
  const { files, status, stdout } = filesRead(['--version']);
  assert.equal(status, 0);
  assert.match(stdout, /^\d+\.\d+\.\d+\n$/);
  assert.equal(files[0], 'syncpod.cjs');
  assert.deepEqual(
    files.filter((f) => f.endsWith('(compiled)')),
    [],
    'every file came from its code cache',
  );
  assert.deepEqual(
    files.filter((f) => f.startsWith('vendor-')),
    [],
  );
  assert.ok(size(files) < size(allCode) / 10, `--version read ${size(files)} of ${size(allCode)} bytes`);
});

test('a command reads its own code and the packages it uses only when it uses them', async () => {
  // completion never talks to a runtime: no HTTP/2; a usage error reads no command code at all.
  const completion = filesRead(['completion', 'bash']);
  assert.equal(completion.status, 0);
  assert.match(completion.stdout, /complete -F/);
  assert.ok(!completion.builtins.includes('http2'), completion.builtins.join(' '));
  assert.ok(!completion.files.some((f) => f.startsWith('vendor-grpc')), completion.files.join(' '));
  const usage = filesRead(['ps', '--no-such-flag']);
  assert.equal(usage.status, 1);
  assert.deepEqual(usage.files, filesRead(['--version']).files);
  // A runtime endpoint that does not exist is refused before grpc-js (and node:http2) is loaded.
  const noSocket = filesRead(['-r', 'unix:///nonexistent/syncpod.sock', 'pods']);
  assert.equal(noSocket.status, 1);
  assert.ok(!noSocket.builtins.includes('http2'), noSocket.builtins.join(' '));
  assert.ok(!noSocket.files.some((f) => f.startsWith('vendor-grpc')), noSocket.files.join(' '));
  assert.deepEqual(
    noSocket.files.filter((f) => f.endsWith('(compiled)')),
    [],
  );
  // A socket that exists is connected to: the same command then loads grpc-js and node:http2 (so the checks
  // above can fail).
  const sock = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-')), 'listening.sock');
  const listener = spawn(process.execPath, [
    '-e',
    `require('net').createServer((c) => c.destroy()).listen(${JSON.stringify(sock)}, () => console.log('up'))`,
  ]);
  await new Promise((r) => listener.stdout.once('data', r));
  try {
    const refused = filesRead(['-r', `unix://${sock}`, '--timeout', '2s', 'pods']);
    assert.equal(refused.status, 1);
    assert.ok(refused.builtins.includes('http2'), refused.builtins.join(' '));
    assert.deepEqual(
      refused.files.filter((f) => f.startsWith('vendor-grpc')),
      ['vendor-grpc.cjs'],
      'grpc-js from its code cache',
    );
  } finally {
    listener.kill();
    fs.rmSync(path.dirname(sock), { recursive: true, force: true });
  }
});

test('every file of the bundle has a code cache, and one copy of the shared code', () => {
  for (const f of allCode) assert.ok(fs.existsSync(path.join(DIST, `${f}.cache`)), `${f}.cache`);
  // SyncpodError is defined in exactly one file (errors thrown by one command's code are
  // recognised by main's catch in another file).
  const defining = allCode.filter((f) => fs.readFileSync(path.join(DIST, f), 'utf8').includes('.name="SyncpodError"'));
  assert.equal(defining.length, 1, defining.join(' '));
});

test('help and --version write straight to stdout: a full disk is exit 1 with one line, a closed pipe ends quietly', () => {
  const full = fs.openSync('/dev/full', 'w');
  try {
    const r = spawnSync(BIN, ['--version'], {
      env: { PATH: process.env.PATH },
      stdio: ['ignore', full, 'pipe'],
      encoding: 'utf8',
    });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^syncpod: cannot write to stdout: ENOSPC[^\n]*\n$/);
  } finally {
    fs.closeSync(full);
  }
  // The reader closes its end before syncpod writes (syncpod takes tens of milliseconds to start).
  const piped = spawnSync(
    'bash',
    ['--norc', '-c', `${JSON.stringify(BIN)} --help | (exec 0<&-; sleep 0.5); echo "status \${PIPESTATUS[0]}"`],
    {
      env: { PATH: process.env.PATH },
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
    },
  );
  assert.equal(piped.stdout, 'status 0\n');
  assert.equal(piped.stderr, '');
  // Output that fits is all there, in order, for a file and for a pipe.
  const help = spawnSync(BIN, ['ps', '--help'], { env: { PATH: process.env.PATH }, encoding: 'utf8' });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^Usage: syncpod ps \[options\]\n[\s\S]*--all\b[\s\S]*\n$/);
});

test('--debug prints a stack whose frames name files of the bundle that exist (not the build directory)', () => {
  const r = spawnSync(BIN, ['--debug', '--runtime-endpoint', 'unix:///nonexistent-syncpod.sock', 'ps'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    encoding: 'utf8',
  });
  assert.equal(r.status, 1);
  const files = [...r.stderr.matchAll(/\((\/[^\s():]+):\d+:\d+\)/g)].map((m) => m[1]);
  assert.ok(files.length > 0, r.stderr);
  for (const f of files) assert.ok(fs.existsSync(f), `a frame names ${f}, which does not exist:\n${r.stderr}`);
  assert.ok(
    files.some((f) => f.startsWith(`${DIST}/`)),
    r.stderr,
  );
});
