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
    'Fleet: 2 nodes; 2 of 3 pods would change on 2 nodes; 1 orphan to remove on 1 node; 0 nodes with errors.',
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
  assert.equal(r.summary.text, 'Fleet: 1 node; 0 of 0 pods would change; 0 orphans to remove; 0 nodes with errors.');
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
  const expected = 'expected node plans (plan --node -o json), doctor reports (doctor -o json) or a log of them';
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

test('text that holds no JSON document (a table-format plan or doctor report, YAML) is refused naming the file and what it looks like', () => {
  const expected = 'expected node plans (plan --node -o json), doctor reports (doctor -o json) or a log of them';
  const tablePlan = [
    "Orphans: 1 pod with kubelet's labels that no desired pod owns",
    'NAMESPACE   NAME   UID   SANDBOX   STATE   CONTAINERS   AGE   KUBELET WOULD',
    'demo        web    1e24  dc3a2ee   ready   4            43s   kill (grace 1s), then remove',
    '',
    'Node n1: 0 pods: 0 with changes, 0 without; 1 orphan.',
  ].join('\n');
  const rows: Array<[string, string]> = [
    [tablePlan, `n1.txt: a node plan as a table (plan --node without -o json); ${expected}`],
    [
      prefixed('pod/s-a/syncpod', 'Node n1: 2 pods: 0 with changes, 2 without; no orphans.'),
      `n1.txt: a node plan as a table (plan --node without -o json); ${expected}`,
    ],
    [
      'PODS\nSTATUS   CHECK   FINDING   REMEDY\n! warn   pods.orphans   1 orphan\n\nNode vm: 1 warn, 20 ok (21 checks).',
      `n1.txt: a doctor report as a table (doctor without -o json); ${expected}`,
    ],
    ['schemaVersion: 1\nnode: n1\nplans: []\n', `n1.txt: YAML (-o yaml), not JSON; ${expected}`],
    ['hello world\n', `n1.txt: no JSON; its first line reads "hello world"; ${expected}`],
  ];
  for (const [text, message] of rows)
    assert.throws(() => buildFleetReport([{ name: 'n1.txt', text }]), { name: 'SyncpodError', message }, text);
  // A log with documents and a stray line keeps reading (the line is that node's error), and a
  // log of only syncpod's own error lines is a node that could not plan.
  const mixed = buildFleetReport([{ name: 'x', text: `${nodePlan('n1', [])}\npanic: nobody expected this\n` }]);
  assert.deepEqual(mixed.nodes[0]!.errors, ['unrecognised line: panic: nobody expected this']);
  assert.equal(
    buildFleetReport([{ name: 'x', text: 'syncpod: cannot connect\nWARN: slow\n' }]).nodes[0]!.errors[0],
    'cannot connect',
  );
});

test('orphans count apart from pod changes; a replaced static pod is one change, its old uid no orphan', () => {
  const plans = [
    { pod: { namespace: 'kube-system', name: 'etcd', uid: 'new' }, changes: true, replaces: { uid: 'old' } },
    { pod: { namespace: 'kube-system', name: 'api', uid: 'api' }, changes: false },
  ].map((p) => ({ ...p, preflight: { steps: [], blocked: null } }));
  const orphans = ['old', 'gone'].map((uid) => ({ namespace: 'x', name: uid, uid, sandboxes: [], containers: [] }));
  const onlyOrphan = buildNodePlan('n2', [], [{ namespace: 'demo', name: 'web', uid: 'w' }] as unknown as Orphan[], []);
  const r = buildFleetReport([
    {
      name: 'n1.json',
      text: JSON.stringify(buildNodePlan('n1', plans as unknown as NodePodPlan[], orphans as unknown as Orphan[], [])),
    },
    { name: 'n2.json', text: JSON.stringify(onlyOrphan) },
  ]);
  assert.deepEqual(
    r.nodes.map((n) => [n.node, n.podsWithChanges, n.pendingPods, n.orphans, n.orphanPods]),
    [
      ['n1', 1, ['kube-system/etcd (replaces uid old)'], 1, ['x/gone (gone)']],
      ['n2', 0, [], 1, ['demo/web (w)']],
    ],
  );
  assert.deepEqual([r.summary.nodesWithChanges, r.summary.nodesWithPodChanges, r.summary.nodesWithOrphans], [2, 1, 2]);
  assert.equal(
    r.summary.text,
    'Fleet: 2 nodes; 1 of 2 pods would change on 1 node; 2 orphans to remove on 2 nodes; 0 nodes with errors.',
  );
  // The table says the same: CHANGES 0 and ORPHANS 1 for the node whose only work is an orphan.
  assert.match(renderFleetReport(r), /^n2\s+0\s+0\s+0\s+1\s+0\s+1\s/m);
});

test("AT is the document's observedAt when the log has no --timestamps time; a timestamp wins when present", () => {
  const plan = JSON.stringify(buildNodePlan('n1', [], [], [], '2026-11-27T18:00:00.000Z'));
  const plain = buildFleetReport([{ name: 'n1.json', text: plan }]);
  assert.deepEqual(
    plain.nodes.map((n) => [n.node, n.at]),
    [['n1', '2026-11-27T18:00:00.000Z']],
  );
  assert.match(renderFleetReport(plain), /^n1\s+0\s+0\s+0\s+0\s+0\s+1\s+2026-11-27T18:00:00\.000Z$/m);
  const stamped = buildFleetReport([{ name: 'l', text: `[pod/a/syncpod] 2026-11-27T18:05:00Z ${plan}` }]);
  assert.equal(stamped.nodes[0]!.at, '2026-11-27T18:05:00Z');
});
