import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readHugePageSizes } from '../../src/sync/node-fs';
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
    assert.deepEqual(userNamespaceRange(root, 'b'), { hostId: 3 * 65536, length: 65536 }, 'a pod keeps its recorded range');
    fs.writeFileSync(path.join(root, 'pods', 'a', 'userns'), 'garbage');
    assert.throws(() => userNamespaceRange(root, 'new'), /userns: not a user-namespace mapping file/);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
