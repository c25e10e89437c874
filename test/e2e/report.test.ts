// `syncpod report` as a script runs it: the DaemonSet's prefixed logs on stdin or in files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { assertOneLineError, syncpod } from './helpers';
import { buildNodePlan } from '../../src/plan/node-plan';
import type { Orphan } from '../../src/kubelet/orphans';
import { renderNodePlan } from '../../src/render/node-plan-view';

const plan = (node: string, changes: boolean) =>
  JSON.stringify({
    schemaVersion: 1,
    node,
    plans: [
      { pod: { namespace: 'default', name: 'web', uid: 'u1' }, changes, preflight: { steps: [], blocked: null } },
    ],
    orphans: [],
    problems: [],
    summary: { pods: 1, podsWithChanges: changes ? 1 : 0, podsBlocked: 0, orphans: 0, problems: 0, changes, text: '' },
  });

test('report merges stdin and files; -o json; --detailed-exitcode 2 with pending changes, 0 without', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-report-e2e-'));
  try {
    const file = path.join(dir, 'b.log');
    fs.writeFileSync(file, `[pod/syncpod-b/syncpod] ${plan('node-b', true)}\n`);
    const r = await syncpod(['report', '-o', 'json', '--detailed-exitcode', '-', file], {
      input: `[pod/syncpod-a/syncpod] ${plan('node-a', false)}\n`,
    });
    assert.equal(r.code, 2, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.deepEqual(
      j.nodes.map((n: any) => [n.node, n.podsWithChanges]),
      [
        ['node-a', 0],
        ['node-b', 1],
      ],
    );
    const quiet = await syncpod(['report', '--detailed-exitcode', '-'], {
      input: `[pod/syncpod-a/syncpod] ${plan('node-a', false)}\n`,
    });
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.match(quiet.stdout, /^Fleet: 1 node; 0 of 1 pod would change; 0 orphans to remove/m);
    assertOneLineError(
      await syncpod(['report', path.join(dir, 'missing.log')]),
      /missing\.log: cannot read: no such file or directory/,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('report of a table-format node plan (plan --node without -o json): one line naming the file, exit 1, nothing printed', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-report-e2e-'));
  try {
    const orphan = {
      namespace: 'demo',
      name: 'web',
      uid: '1e246a86-4939-475d-9dca-0295f010cd28',
      sandboxes: [],
      containers: [],
    };
    const table = renderNodePlan(buildNodePlan('n1', [], [orphan as unknown as Orphan], []), { width: 100 });
    const file = path.join(dir, 'n1.txt');
    fs.writeFileSync(file, `${table}\n`);
    const r = await syncpod(['report', file]);
    assertOneLineError(
      r,
      /n1\.txt: a node plan as a table \(plan --node without -o json\); expected node plans \(plan --node -o json\)/,
    );
    assert.equal(r.stdout, '');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
