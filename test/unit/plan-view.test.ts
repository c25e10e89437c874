// Plan table view: columns, SyncPod order, summary line, colour as a port, several plans.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPlan } from '../../src/plan/plan';
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
