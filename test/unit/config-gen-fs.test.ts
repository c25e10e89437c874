// Issue 9 item 9 (the config-gen parts): skipped CNI configs are named in the error, a relative
// --cni-bin-dir is made absolute, and the pod's etc-hosts replaced by a symlink is never followed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadNetworkConfig } from '../../src/cni/conf';
import { parseBinDirs } from '../../src/cni/network';
import { applyEffect } from '../../src/sync/fs-effects';
import { nodeFs } from '../../src/sync/node-fs';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-fs-'));

test('no usable CNI config: the error line names every skipped file and why', async () => {
  const dir = tmp();
  try {
    fs.writeFileSync(path.join(dir, '10-a.conf'), '{"name":"a","cniVersion":"0.4.0"}');
    fs.writeFileSync(path.join(dir, '20-b.conflist'), '{not json');
    await assert.rejects(loadNetworkConfig(dir), (e: Error) => {
      assert.match(
        e.message,
        new RegExp(
          `^no usable CNI network config in ${dir}: 2 skipped: ${dir}/10-a\\.conf: no "type" \\(perhaps this is a \\.conflist\\?\\); ${dir}/20-b\\.conflist: invalid JSON: `,
        ),
      );
      assert.ok(!e.message.includes('see warnings'));
      assert.ok(!e.message.includes('\n'), 'one line');
      return true;
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a relative --cni-bin-dir entry is made absolute against the working directory', () => {
  assert.deepEqual(parseBinDirs('bin:/usr/lib/cni::./x/../plugins'), [
    path.resolve('bin'),
    '/usr/lib/cni',
    path.resolve('plugins'),
  ]);
});

/** A temp dir holding `shadow` (mode 0600, "secret") and `name` planted as a symlink to it. */
function withPlantedSymlink(name: string, fn: (link: string, target: string) => void): void {
  const dir = tmp();
  try {
    const target = path.join(dir, 'shadow');
    fs.writeFileSync(target, 'secret\n', { mode: 0o600 });
    const link = path.join(dir, name);
    fs.symlinkSync(target, link);
    fn(link, target);
    assert.equal(fs.statSync(target).mode & 0o777, 0o600, 'target mode unchanged');
    assert.equal(fs.readFileSync(target, 'utf8'), 'secret\n', 'target content unchanged');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test("writing the pod's etc-hosts over a symlink replaces the link and leaves its target alone", () => {
  withPlantedSymlink('etc-hosts', (hosts) => {
    applyEffect(nodeFs, {
      kind: 'writeFile',
      path: hosts,
      mode: 0o644,
      content: '127.0.0.1\tlocalhost\n',
      why: 'managed /etc/hosts',
    });
    assert.ok(fs.lstatSync(hosts).isFile(), 'etc-hosts is now a regular file');
    assert.equal(fs.lstatSync(hosts).mode & 0o777, 0o644);
    assert.equal(fs.readFileSync(hosts, 'utf8'), '127.0.0.1\tlocalhost\n');
  });
});

test('the termination-log touch does not follow a symlink either', () => {
  withPlantedSymlink('3f9a0c12', (log) => {
    assert.throws(
      () => applyEffect(nodeFs, { kind: 'touch', path: log, mode: 0o666, why: 'termination-message file' }),
      /symbolic link/,
    );
  });
});

test('hostPath FileOrCreate/DirectoryOrCreate on what exists: kept as it is, or the type check fails (kubelet O_CREATE/MkdirAll)', () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-orcreate-'));
  try {
    const file = path.join(d, 'shadow');
    fs.writeFileSync(file, 'kept\n');
    fs.chmodSync(file, 0o600);
    applyEffect(nodeFs, { kind: 'touch', path: file, mode: 0o644, why: 'hostPath volume f' });
    assert.equal(fs.statSync(file).mode & 0o777, 0o600, 'an existing file keeps its mode');
    assert.equal(fs.readFileSync(file, 'utf8'), 'kept\n');
    fs.mkdirSync(path.join(d, 'dir'));
    assert.throws(
      () => applyEffect(nodeFs, { kind: 'touch', path: path.join(d, 'dir'), mode: 0o644, why: 'hostPath volume f' }),
      /hostPath type check failed: \S+dir is not a file/,
    );
    const made = path.join(d, 'made');
    applyEffect(nodeFs, { kind: 'touch', path: made, mode: 0o644, why: 'hostPath volume f' });
    assert.equal(fs.statSync(made).mode & 0o777, 0o644, 'a file made here gets the mode');
    // chmod of what a mkdir effect made never follows a link put in its place.
    fs.mkdirSync(path.join(d, 'private'), { mode: 0o700 });
    fs.chmodSync(path.join(d, 'private'), 0o700);
    fs.symlinkSync(path.join(d, 'private'), path.join(d, 'link'));
    assert.throws(() => nodeFs.chmod(path.join(d, 'link'), 0o755), /symbolic link/);
    assert.equal(fs.statSync(path.join(d, 'private')).mode & 0o777, 0o700);
  } finally {
    fs.rmSync(d, { recursive: true, force: true });
  }
});
