import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { acquireLock, acquirePodLock, lockPath, processStartTime } from '../../src/sync/lock';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-lock-'));
const LOCK_MODULE = new URL('../../src/sync/lock.ts', import.meta.url).pathname;

/** Takes the pod lock ns/web in a child process (a spinning lock blocks its own event loop). */
function lockInChild(dir: string, timeoutMs: number): { status: number | null; stderr: string; ms: number } {
  const script =
    `import('${LOCK_MODULE}').then((m) => (m.acquirePodLock ? m : m.default).acquirePodLock('ns', 'web', { dir: ${JSON.stringify(dir)}, timeoutMs: ${timeoutMs} }))` +
    `.then(() => process.exit(0), (e) => { process.stderr.write(e.message + '\\n'); process.exit(3); });`;
  const t0 = Date.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { timeout: 8000, encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr, ms: Date.now() - t0 };
}

test('a dangling symlink or a directory at the lock path is refused at once, not spun on', () => {
  for (const make of ['dangling symlink', 'directory'] as const) {
    const dir = tmp();
    try {
      const p = lockPath(dir, 'ns/web');
      if (make === 'directory') fs.mkdirSync(p);
      else fs.symlinkSync(path.join(dir, 'nowhere'), p);
      const r = lockInChild(dir, 60_000);
      assert.equal(r.status, 3, `${make}: the child must end with an error (it was killed: ${r.status === null})`);
      assert.match(
        r.stderr,
        new RegExp(
          `pod ns/web: ${p.replace(/[.%]/g, '\\$&')} is a (symbolic link|directory), not a lock file; remove it`,
        ),
        make,
      );
      assert.ok(!fs.existsSync(path.join(dir, 'nowhere')), `${make}: nothing created through the link`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
});

test('a symlink to a real file is never followed: the target keeps its content and mode', async () => {
  const dir = tmp();
  try {
    const target = path.join(dir, 'precious');
    fs.writeFileSync(target, 'keep\n', { mode: 0o600 });
    fs.symlinkSync(target, lockPath(dir, 'ns/web'));
    await assert.rejects(acquirePodLock('ns', 'web', { dir, timeoutMs: 200 }), /is a symbolic link, not a lock file/);
    assert.equal(fs.readFileSync(target, 'utf8'), 'keep\n');
    assert.equal(fs.statSync(target).mode & 0o777, 0o600);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a lock held by an unrelated live process: a bounded wait, then how to clear it', async () => {
  const dir = tmp();
  const sleeper = spawn('sleep', ['30']);
  try {
    const p = lockPath(dir, 'ns/web');
    fs.writeFileSync(p, `${sleeper.pid}\n`);
    await assert.rejects(acquirePodLock('ns', 'web', { dir, timeoutMs: 300 }), (e: Error) => {
      assert.equal(
        e.message,
        `pod ns/web is held by pid ${sleeper.pid} (sleep); gave up after 1s. If pid ${sleeper.pid} is not a syncpod at work, the lock is stale: remove ${p}`,
      );
      return true;
    });
  } finally {
    sleeper.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a live pid whose start time differs from the recorded one (a reused pid) is not the owner', async () => {
  const dir = tmp();
  try {
    const p = lockPath(dir, 'ns/web');
    fs.writeFileSync(p, `${process.pid} 1\n`);
    assert.notEqual(processStartTime(process.pid), '1');
    const l = await acquirePodLock('ns', 'web', { dir, timeoutMs: 200 });
    assert.equal(fs.readFileSync(l.path, 'utf8'), `${process.pid} ${processStartTime(process.pid)}\n`);
    l.release();
    assert.ok(!fs.existsSync(p));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('locks keyed by arbitrary strings: one file per key, never outside the directory', async () => {
  const dir = tmp();
  try {
    assert.equal(lockPath(dir, 'shop/web'), `${dir}/shop%2Fweb.lock`);
    assert.equal(lockPath(dir, '../../etc/passwd'), `${dir}/..%2F..%2Fetc%2Fpasswd.lock`);
    assert.equal(lockPath(dir, '..'), `${dir}/%2E%2E.lock`);
    assert.equal(lockPath(dir, 'ünï code'), `${dir}/%C3%BCn%C3%AF%20code.lock`);
    const a = await acquireLock('shop/web', { dir, timeoutMs: 100 });
    const b = await acquireLock('shop/web2', { dir, timeoutMs: 100 });
    await assert.rejects(acquireLock('shop/web', { dir, timeoutMs: 100 }), /lock shop\/web is held by pid \d+/);
    a.release();
    b.release();
    assert.deepEqual(fs.readdirSync(dir), []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a key longer than one file name may be gets a lock file of at most 255 bytes, one per key', async () => {
  const dir = tmp();
  try {
    const head = `${'n'.repeat(63)}/${'a'.repeat(200)}`;
    const [a, b] = [`${head}x`, `${head}y`].map((k) => lockPath(dir, k));
    for (const p of [a!, b!]) assert.ok(Buffer.byteLength(path.basename(p)) <= 255, p);
    assert.notEqual(a, b);
    assert.equal(path.dirname(a!), dir);
    const lock = await acquireLock(`${head}x`, { dir, timeoutMs: 100 });
    assert.ok(fs.existsSync(a!));
    lock.release();
    // A short key keeps its readable name.
    assert.equal(lockPath(dir, 'ns/web'), `${dir}/ns%2Fweb.lock`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
