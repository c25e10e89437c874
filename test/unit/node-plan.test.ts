// The node plan summary, --detailed-exitcode and the node-problem-detector reading.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildNodePlan, detailedExitCode, npdStatus, NPD_MAX_LINE, type NodePodPlan } from '../../src/plan/node-plan';
import type { Orphan } from '../../src/kubelet/orphans';

const plan = (
  name: string,
  changes: boolean,
  preflight: NodePodPlan['preflight'] = { steps: [], blocked: null },
): NodePodPlan =>
  ({
    pod: { namespace: 'default', name, uid: name },
    changes,
    preflight,
    source: { kind: 'static-pod', file: `/m/${name}.yaml` },
  }) as unknown as NodePodPlan;
const orphan: Orphan = {
  namespace: 'default',
  name: 'old',
  uid: 'u9',
  sandboxes: [],
  containers: [],
  kubelet: 'kill',
  gracePeriodSeconds: 1,
  reason: '',
};

const cases: Array<{
  name: string;
  plans: NodePodPlan[];
  orphans: Orphan[];
  problems: string[];
  exit: number;
  npd: number;
  npdLine: RegExp;
  text: RegExp;
}> = [
  {
    name: 'all as kubelet keeps them',
    plans: [plan('a', false), plan('b', false)],
    orphans: [],
    problems: [],
    exit: 0,
    npd: 0,
    npdLine: /^OK: 2 pods/,
    text: /^Node n1: 2 pods: 0 with changes, 2 without; no orphans\.$/,
  },
  {
    name: 'a pod with changes',
    plans: [plan('a', true), plan('b', false)],
    orphans: [],
    problems: [],
    exit: 2,
    npd: 1,
    npdLine: /^NonOK: 1\/2 pods would change \(default\/a\)$/,
    text: /1 with changes, 1 without/,
  },
  {
    name: 'an orphan alone is a change',
    plans: [plan('a', false)],
    orphans: [orphan],
    problems: [],
    exit: 2,
    npd: 1,
    npdLine: /^NonOK: 1 orphan pod \(default\/old\)$/,
    text: /1 orphan\.$/,
  },
  {
    name: 'preflight work is a change',
    plans: [plan('a', false, { steps: [{ action: 'make-pod-data-dirs', target: 'x', reason: 'r' }], blocked: null })],
    orphans: [],
    problems: [],
    exit: 2,
    npd: 1,
    npdLine: /NonOK/,
    text: /1 with changes/,
  },
  {
    name: 'a blocked pod is NonOK',
    plans: [
      plan('a', true, {
        steps: [{ action: 'network-not-ready', target: 'x', reason: 'r', blocking: 'pod' }],
        blocked: 'network is not ready',
      }),
    ],
    orphans: [],
    problems: [],
    exit: 2,
    npd: 1,
    npdLine: /^NonOK: 1 blocked/,
    text: /1 blocked/,
  },
  {
    name: 'bad input is exit 1 and Unknown when nothing else is wrong',
    plans: [plan('a', false)],
    orphans: [],
    problems: ['/m/x.yaml: not a pod'],
    exit: 1,
    npd: 2,
    npdLine: /^Unknown: \/m\/x.yaml: not a pod$/,
    text: /1 input problem/,
  },
];

for (const c of cases) {
  test(`node plan: ${c.name}`, () => {
    const p = buildNodePlan('n1', c.plans, c.orphans, c.problems);
    assert.equal(detailedExitCode(p), c.exit);
    const n = npdStatus(p);
    assert.equal(n.exitCode, c.npd);
    assert.match(n.line, c.npdLine);
    assert.ok(n.line.length <= NPD_MAX_LINE && !n.line.includes('\n'));
    assert.match(p.summary.text, c.text);
  });
}

test('npd line is cut to what NPD keeps', () => {
  const p = buildNodePlan('n1', [plan('a', false)], [], ['x'.repeat(200)]);
  assert.equal(npdStatus(p).line.length, NPD_MAX_LINE);
});
