// Runs last (npm test runs the e2e files in name order, one at a time): nothing the suite made on the
// host stays there. Every pod uid written into an e2e test is looked for under the host's kubelet
// pod directory and pod log directory; no lab of this suite's processes may still run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;

/** The pod uids the e2e files use (the ones a sync against the host's default paths could leave). */
function testUids(): string[] {
  const uids = new Set<string>();
  for (const f of fs.readdirSync(__dirname)) {
    if (!f.endsWith('.ts')) continue;
    for (const m of fs.readFileSync(path.join(__dirname, f), 'utf8').matchAll(UUID)) uids.add(m[0]);
  }
  return [...uids].sort();
}

test('nothing of the e2e suite is left in /var/lib/kubelet/pods or /var/log/pods', () => {
  const uids = testUids();
  assert.ok(
    uids.includes('7e3c1a52-0000-4000-8000-00000000a136'),
    'the node-profile pod uid is among those looked for',
  );
  const left: string[] = [];
  for (const root of ['/var/lib/kubelet/pods', '/var/log/pods']) {
    const entries = fs.existsSync(root) ? fs.readdirSync(root) : [];
    for (const e of entries) if (uids.some((u) => e === u || e.endsWith(`_${u}`))) left.push(path.join(root, e));
  }
  assert.deepEqual(left, [], `left on the host: ${left.join(', ')}`);
});
