// The fleet report: node plans as the DaemonSet logs them (kubectl logs --prefix, --timestamps,
// pretty or one-line JSON, error lines) merged per node.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildFleetReport } from '../../src/fleet/report';
import { buildNodePlan, type NodePodPlan } from '../../src/plan/node-plan';
import type { Orphan } from '../../src/kubelet/orphans';
import { renderFleetReport } from '../../src/render/report-view';

/** A node plan as `plan --node` builds it; pods given as [name, changes]. */
function nodePlan(
  node: string,
  pods: Array<[string, boolean]>,
  orphans: string[] = [],
  problems: string[] = [],
): string {
  const plans = pods.map(([name, changes]) => ({
    pod: { namespace: 'default', name, uid: `uid-${name}` },
    changes,
    preflight: { steps: [], blocked: null },
  }));
  const orph = orphans.map((name) => ({
    namespace: 'old',
    name,
    uid: `uid-${name}`,
    sandboxes: [],
    containers: [],
    kubelet: 'remove',
    reason: 'not desired',
  }));
  return JSON.stringify(buildNodePlan(node, plans as unknown as NodePodPlan[], orph as unknown as Orphan[], problems));
}

const prefixed = (prefix: string, text: string): string =>
  text
    .split('\n')
    .map((l) => `[${prefix}] ${l}`)
    .join('\n');

test('one-line plans from several DaemonSet pods: one row per node, sorted, the newest run wins', () => {
  const log = [
    prefixed(
      'pod/syncpod-b2/syncpod',
      nodePlan(
        'node-b',
        [
          ['web', true],
          ['db', false],
        ],
        ['gone'],
      ),
    ),
    prefixed('pod/syncpod-a1/syncpod', nodePlan('node-a', [['web', false]])),
    prefixed('pod/syncpod-a1/syncpod', nodePlan('node-a', [['web', true]])),
  ].join('\n');
  const r = buildFleetReport([{ name: '<stdin>', text: log }]);
  assert.deepEqual(
    r.nodes.map((n) => [n.node, n.source, n.runs, n.pods, n.podsWithChanges, n.pendingPods, n.orphanPods, n.errors]),
    [
      ['node-a', 'pod/syncpod-a1/syncpod', 2, 1, 1, ['default/web'], [], []],
      ['node-b', 'pod/syncpod-b2/syncpod', 1, 2, 1, ['default/web'], ['old/gone (uid-gone)'], []],
    ],
  );
  assert.equal(
    r.summary.text,
    'Fleet: 2 nodes, 2 with pending changes, 2 pods of 3 would change, 1 orphan, 0 nodes with errors.',
  );
});

test('pretty JSON spread over prefixed, timestamped lines is joined per prefix, interleaving allowed', () => {
  const a = JSON.stringify(JSON.parse(nodePlan('node-a', [['web', false]])), null, 2).split('\n');
  const b = JSON.stringify(JSON.parse(nodePlan('node-b', [['web', false]])), null, 2).split('\n');
  const lines: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== undefined) lines.push(`[pod/s-a/syncpod] 2026-11-22T10:00:0${i % 10}.123456789Z ${a[i]}`);
    if (b[i] !== undefined) lines.push(`[pod/s-b/syncpod] 2026-11-22T10:00:00Z ${b[i]}`);
  }
  const r = buildFleetReport([{ name: 'logs.txt', text: lines.join('\n') }]);
  assert.deepEqual(
    r.nodes.map((n) => [n.node, n.pods, n.changes, n.errors.length]),
    [
      ['node-a', 1, false, 0],
      ['node-b', 1, false, 0],
    ],
  );
  assert.equal(r.nodes[1]!.at, '2026-11-22T10:00:00Z');
});

test('error and warning lines are kept per source; a source without a plan is a node with errors', () => {
  const log = [
    prefixed(
      'pod/syncpod-c3/syncpod',
      'syncpod: cannot connect to unix:///host/run/containerd/containerd.sock: no such file',
    ),
    prefixed('pod/syncpod-a1/syncpod', 'WARN: kubelet config not found'),
    prefixed('pod/syncpod-a1/syncpod', 'syncpod: bad.yaml: document 1: spec: required'),
    prefixed('pod/syncpod-a1/syncpod', 'note: /etc/kubernetes/manifests/.swp: not a manifest'),
    prefixed(
      'pod/syncpod-a1/syncpod',
      nodePlan('node-a', [['web', false]], [], ['bad.yaml: document 1: spec: required']),
    ),
    prefixed('pod/syncpod-a1/syncpod', 'panic text nobody expected'),
  ].join('\n');
  const r = buildFleetReport([{ name: '<stdin>', text: log }]);
  const a = r.nodes.find((n) => n.node === 'node-a')!;
  assert.deepEqual(a.warnings, ['kubelet config not found']);
  assert.deepEqual(a.problems, ['bad.yaml: document 1: spec: required']);
  assert.deepEqual(a.errors, ['unrecognised line: panic text nobody expected']);
  const c = r.nodes.find((n) => n.node === 'pod/syncpod-c3/syncpod')!;
  assert.equal(c.runs, 0);
  assert.deepEqual(c.errors, ['cannot connect to unix:///host/run/containerd/containerd.sock: no such file']);
  assert.equal(r.summary.nodesWithErrors, 2);
});

test('a plan cut off at the end of the log and JSON that is not a node plan are errors', () => {
  const full = nodePlan('node-a', [['web', false]]);
  const r = buildFleetReport([
    { name: 'a.log', text: `[p/a] ${full.slice(0, 40)}` },
    { name: 'b.log', text: '[p/b] {"kind":"Pod"}' },
  ]);
  assert.deepEqual(
    r.nodes.map((n) => [n.node, n.errors]),
    [
      ['p/a', ['a plan from p/a is cut off (the log ended inside it)']],
      ['p/b', ['JSON from p/b is not a node plan (plan --node -o json) or a doctor report (doctor -o json)']],
    ],
  );
});

test("unprefixed input (a node's own output, a file per node) is read under the file name", () => {
  const r = buildFleetReport([{ name: 'n1.json', text: `${nodePlan('n1', [])}\n` }]);
  assert.deepEqual(
    r.nodes.map((n) => [n.node, n.source]),
    [['n1', 'n1.json']],
  );
  assert.equal(
    r.summary.text,
    'Fleet: 1 node, 0 with pending changes, 0 pods of 0 would change, 0 orphans, 0 nodes with errors.',
  );
});

test('table view: one row per node, those needing attention first, details for nodes with something to say, summary last', () => {
  const r = buildFleetReport([
    {
      name: 'x',
      text: [
        prefixed('pod/s-b/syncpod', nodePlan('node-b', [['web', true]], ['gone'])),
        prefixed('pod/s-a/syncpod', nodePlan('node-a', [])),
      ].join('\n'),
    },
  ]);
  const lines = renderFleetReport(r).split('\n');
  assert.match(lines[0]!, /^NODE\s+PODS\s+CHANGES\s+BLOCKED\s+ORPHANS\s+ERRORS\s+RUNS\s+AT$/);
  // The node with a pending change comes first (attention first), the quiet one after it.
  assert.match(lines[1]!, /^node-b\s+1\s+1\s+0\s+1\s+0\s+1\s+-$/);
  assert.match(lines[2]!, /^node-a\s+0\s+0\s+0\s+0\s+0\s+1\s+-$/);
  assert.deepEqual(lines.slice(3, 8), [
    '',
    'node-b (pod/s-b/syncpod):',
    '  would change: default/web',
    '  orphan: old/gone (uid-gone)',
    '',
  ]);
  assert.equal(lines.at(-1), r.summary.text);
});

test('one JSON value that is neither a node plan nor a doctor report is refused, naming the file and what was expected', () => {
  const expected = 'expected a node plan (plan --node -o json), a doctor report (doctor -o json) or a log of them';
  const rows: Array<[string, string]> = [
    ['[1,2,3]', `a.json: a JSON array; ${expected}`],
    ['{}', `a.json: a JSON object without a node plan's or doctor report's fields (empty); ${expected}`],
    ['{"kind": "Pod"}\n', `a.json: a JSON object without a node plan's or doctor report's fields; ${expected}`],
    ['null', `a.json: JSON null; ${expected}`],
  ];
  for (const [text, message] of rows)
    assert.throws(() => buildFleetReport([{ name: 'a.json', text }]), { name: 'SyncpodError', message }, text);
  // A log of lines (prefixes, several documents) is still read as a log.
  assert.doesNotThrow(() => buildFleetReport([{ name: 'log', text: '[pod/a/c] syncpod: no runtime\n' }]));
});
