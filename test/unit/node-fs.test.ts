import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readHugePageSizes, removePodLogs } from '../../src/sync/node-fs';
import { orphanLogsDirectory } from '../../src/workflows/node-sync';
import { hugePageUnitSize } from '../../src/kubelet/resources';

test('huge page sizes are read from the hugepages directory in directory order, each by its unit size', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hugepages-'));
  try {
    for (const d of ['hugepages-1048576kB', 'hugepages-2048kB', 'hugepages-32768kB']) fs.mkdirSync(path.join(dir, d));
    fs.writeFileSync(path.join(dir, 'not-a-size'), '');
    const sizes = readHugePageSizes(dir, hugePageUnitSize);
    assert.deepEqual([...sizes].sort(), ['1GB', '2MB', '32MB']);
    const order = [...fs.readdirSync(dir, { withFileTypes: false })];
    assert.equal(sizes.length, order.length - 1);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(readHugePageSizes('/nonexistent/hugepages', hugePageUnitSize), [], 'no directory: no huge pages');
});

test("a hostUsers: false pod's user-namespace range: its recorded one, else the lowest block no pod uses", async () => {
  const { userNamespaceRange } = await import('../../src/sync/userns');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'userns-'));
  try {
    const write = (uid: string, hostId: number) => {
      fs.mkdirSync(path.join(root, 'pods', uid), { recursive: true });
      const m = [{ hostId, containerId: 0, length: 65536 }];
      fs.writeFileSync(path.join(root, 'pods', uid, 'userns'), JSON.stringify({ uidMappings: m, gidMappings: m }));
    };
    assert.deepEqual(userNamespaceRange(root, 'new'), { hostId: 65536, length: 65536 }, 'no pods: the first block');
    write('a', 65536);
    write('b', 3 * 65536);
    assert.deepEqual(userNamespaceRange(root, 'new'), { hostId: 2 * 65536, length: 65536 }, 'lowest free block');
    assert.deepEqual(
      userNamespaceRange(root, 'b'),
      { hostId: 3 * 65536, length: 65536 },
      'a pod keeps its recorded range',
    );
    fs.writeFileSync(path.join(root, 'pods', 'a', 'userns'), 'garbage');
    assert.throws(() => userNamespaceRange(root, 'new'), /userns: not a user-namespace mapping file/);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("a removed pod's logs: its log directory (links inside removed, never followed) and its containers' links in the legacy directory", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'podlogs-'));
  try {
    const pods = path.join(root, 'var/log/pods');
    const legacy = path.join(root, 'var/log/containers');
    const outside = path.join(root, 'outside');
    fs.mkdirSync(outside, { recursive: true });
    fs.writeFileSync(path.join(outside, 'keep.txt'), 'x');
    const dir = path.join(pods, 'ns_web_u1');
    fs.mkdirSync(path.join(dir, 'app'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'app', '0.log'), 'log');
    fs.symlinkSync(outside, path.join(dir, 'escape'));
    fs.mkdirSync(legacy, { recursive: true });
    fs.symlinkSync(path.join(dir, 'app', '0.log'), path.join(legacy, 'web_ns_app-c1.log'));
    fs.symlinkSync('/elsewhere', path.join(legacy, 'other_ns_app-c2.log'));
    fs.writeFileSync(path.join(legacy, 'plain_ns_app-c1.log'), "a regular file is not kubelet's link");
    const gone = removePodLogs(root, '/var/log/pods/ns_web_u1', '/var/log/containers', ['c1']);
    assert.deepEqual(gone, ['log directory /var/log/pods/ns_web_u1', 'log link /var/log/containers/web_ns_app-c1.log']);
    assert.ok(!fs.existsSync(dir));
    assert.ok(fs.existsSync(path.join(outside, 'keep.txt')), 'a link inside is removed, not followed');
    assert.deepEqual(fs.readdirSync(legacy).sort(), ['other_ns_app-c2.log', 'plain_ns_app-c1.log']);
    // a pod log "directory" that is a symlink is not the pod's directory: left alone
    fs.symlinkSync(outside, path.join(pods, 'ns_x_u2'));
    assert.deepEqual(removePodLogs(root, '/var/log/pods/ns_x_u2', '/var/log/containers', []), []);
    assert.ok(fs.existsSync(path.join(outside, 'keep.txt')));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("an orphan's log directory is kubelet's <ns>_<name>_<uid>, and none when a label would lead elsewhere", () => {
  assert.equal(
    orphanLogsDirectory('/var/log/pods', { namespace: 'ns', name: 'web', uid: 'u1' }),
    '/var/log/pods/ns_web_u1',
  );
  for (const bad of [
    { namespace: 'ns', name: '../..', uid: 'x/y' },
    { namespace: '', name: 'web', uid: 'u1' },
    { namespace: 'ns', name: 'a/b', uid: 'u1' },
  ]) {
    assert.equal(orphanLogsDirectory('/var/log/pods', bad), undefined, JSON.stringify(bad));
  }
});
