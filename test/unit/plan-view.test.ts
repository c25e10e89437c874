// Plan table view: columns, SyncPod order, summary line, colour as a port, several plans.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPlan } from '../../src/plan/plan';
import { findDuplicates } from '../../src/kubelet/orphans';
import { renderPlan, renderPlans } from '../../src/render/plan-view';
import type { Colours } from '../../src/render/colour';
import { T0, basePod, healthyStatus } from '../fixtures/planner/base';

function changedPlan() {
  const pod = basePod();
  const st = healthyStatus(pod, 'name+image');
  pod.spec!.containers[0].image = 'nginx:1.26';
  st.containerStatuses[1] = { ...st.containerStatuses[1], state: 'exited', exitCode: 1, finishedAt: T0 + 60_000 };
  return buildPlan({ pod, podStatus: st, now: T0 + 3600_000 });
}

test('renders a header, one row per step in order, assumptions and the summary last', () => {
  const text = renderPlan(changedPlan());
  const lines = text.split('\n');
  assert.equal(lines[0], 'Pod shop/web (uid uid-1234), kubelet 1.37, sidecar init path');
  assert.match(lines[1], /^STEP\s+ACTION\s+TARGET\s+REASON$/);
  assert.match(lines[2], /^1\s+kill-container\s+app\s+definition changed: hash /);
  assert.match(lines[3], /^2\s+start-container\s+app\s+definition changed/);
  assert.match(lines[4], /^3\s+start-container\s+log\s+exited with code 1 and restartPolicy Always$/);
  assert.ok(lines.includes('Assumptions:'));
  assert.equal(lines.at(-1), 'Plan: kill 1 container, start 2 containers.');
});

test('colour comes from the injected port', () => {
  const tag: Colours = { enabled: true, header: (s) => `<h>${s}</h>`, bad: (s) => `<r>${s}</r>`, good: (s) => `<g>${s}</g>`, pending: (s) => `<y>${s}</y>`, dim: (s) => `<d>${s}</d>` };
  const lines = renderPlan(changedPlan(), tag).split('\n');
  assert.match(lines[2], /^<r>1 .*<\/r>$/);
  assert.match(lines[3], /^<g>2 .*<\/g>$/);
  assert.ok(lines.some((l) => l === '<d>Assumptions:</d>'));
});

test('a plan without changes has no table and an explained summary', () => {
  const pod = basePod();
  const text = renderPlan(buildPlan({ pod, podStatus: healthyStatus(pod, 'name+image'), now: T0 }));
  assert.ok(!text.includes('STEP'));
  assert.equal(text.split('\n').at(-1), 'No changes. Pod shop/web is what kubelet 1.37 would keep running.');
});

test('several plans get one section each and an overall summary', () => {
  const pod = basePod();
  const healthy = buildPlan({ pod, podStatus: healthyStatus(pod, 'name+image'), now: T0 });
  const text = renderPlans([changedPlan(), healthy]);
  const sections = text.split('\n\n');
  assert.equal(sections.length, 3);
  assert.equal(sections[2], '2 pods: 1 with changes, 1 without.');
});

test('duplicates (other uids of the pod): a section with the orphan table, and the summary names them even when the pod itself is fine', () => {
  const pod = basePod();
  const now = 1_700_000_000_000;
  const dup = findDuplicates(
    { namespace: 'shop', name: 'web', uid: 'uid-1234' },
    [{ id: 'f00dfeedbeef0123', state: 'SANDBOX_READY', createdAt: String(BigInt(now - 7_200_000) * 1_000_000n), labels: { 'io.kubernetes.pod.uid': 'uid-old', 'io.kubernetes.pod.name': 'web', 'io.kubernetes.pod.namespace': 'shop' } }],
    [],
    now,
  );
  const plan = buildPlan({ pod, podStatus: healthyStatus(pod, 'name+image'), now, duplicates: dup });
  const lines = renderPlan(plan).split('\n');
  const at = lines.findIndex((l) => l.startsWith('Duplicates: '));
  assert.equal(lines[at], 'Duplicates: 1 other uid of shop/web on this node; no desired pod owns it, so kubelet cleans it up (sync does so first)');
  assert.match(lines[at + 1], /^NAMESPACE\s+NAME\s+UID\s+SANDBOX\s+STATE\s+CONTAINERS\s+AGE\s+KUBELET WOULD$/);
  assert.match(lines[at + 2], /^shop\s+web\s+uid-old\s+f00dfeedbeef0\s+ready\s+0 \(0 running\)\s+2h\s+kill \(grace 1s\), then remove$/);
  assert.equal(plan.changes, true);
  assert.equal(lines.at(-1), 'Plan: kill and remove 1 duplicate pod (another uid).');
});
