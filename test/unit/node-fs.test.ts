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
