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

test('the verdict first, then what changed in words, one row per step in order, then the assumptions that matter', () => {
  const text = renderPlan(changedPlan(), { width: 200 });
  const lines = text.split('\n');
  // No init containers: the header names no init path.
  assert.equal(lines[0], 'Pod shop/web (uid uid-1234), kubelet 1.37');
  assert.equal(lines[1], 'Plan: kill 1 container, start 2 containers.');
  assert.equal(lines[2], 'What changed:');
  assert.equal(lines[3], '  app: image nginx:1.25 → 1.26: kubelet restarts it (name+image hash)');
  assert.match(lines[4], /^STEP\s+ACTION\s+TARGET\s+REASON$/);
  assert.match(
    lines[5],
    /^1\s+kill-container\s+app\s+definition changed: image nginx:1.25 → 1.26 \(name\+image hash\)$/,
  );
  assert.match(lines[6], /^2\s+start-container\s+app\s+started again with the new spec/);
  assert.match(lines[7], /^3\s+start-container\s+log\s+exited with code 1 and restartPolicy Always$/);
  assert.equal(lines[8], 'Assumptions that could change this plan:');
  // The hash stays out of the table (it is in -v and JSON).
  assert.ok(!text.includes('hash e324a2d6'), text);
  assert.ok(renderPlan(changedPlan(), { width: 200, verbose: true }).includes('Hash: app: hash e324a2d6 differs'));
});

test('the header names the init path only for a pod with init containers', () => {
  const pod = basePod();
  pod.spec!.initContainers = [{ name: 'setup', image: 'busybox:1.36', imagePullPolicy: 'IfNotPresent' }];
  const plan = buildPlan({ pod, podStatus: healthyStatus(pod, 'name+image'), now: T0 });
  assert.equal(renderPlan(plan).split('\n')[0], 'Pod shop/web (uid uid-1234), kubelet 1.37, sidecar init path');
});

test('at 100 columns a long reason wraps under REASON, and every line of a row is painted', () => {
  const tag: Colours = {
    enabled: true,
    header: (s) => `<h>${s}</h>`,
    bad: (s) => `<r>${s}</r>`,
    good: (s) => `<g>${s}</g>`,
    pending: (s) => `<y>${s}</y>`,
    dim: (s) => `<d>${s}</d>`,
  };
  const lines = renderPlan(changedPlan(), { colours: tag, width: 60 }).split('\n');
  const at = lines.findIndex((l) => l.includes('kill-container'));
  assert.match(lines[at]!, /^<r>1\s+kill-container\s+app\s+definition changed: image<\/r>$/);
  assert.match(lines[at + 1]!, /^<r>\s+nginx:1.25 → 1.26<\/r>$/);
  assert.match(lines[at + 2]!, /^<r>\s+\(name\+image hash\)<\/r>$/);
  for (const l of renderPlan(changedPlan(), { width: 100 }).split('\n')) assert.ok(l.length <= 100, l);
});

test('colour comes from the injected port', () => {
  const tag: Colours = {
    enabled: true,
    header: (s) => `<h>${s}</h>`,
    bad: (s) => `<r>${s}</r>`,
    good: (s) => `<g>${s}</g>`,
    pending: (s) => `<y>${s}</y>`,
    dim: (s) => `<d>${s}</d>`,
  };
  const lines = renderPlan(changedPlan(), { colours: tag, width: 200 }).split('\n');
  assert.match(lines[5], /^<r>1 .*<\/r>$/);
  assert.match(lines[6], /^<g>2 .*<\/g>$/);
  assert.ok(lines.some((l) => l === '<d>Assumptions that could change this plan:</d>'));
});

test('a plan without changes has no table and an explained summary', () => {
  const pod = basePod();
  const text = renderPlan(buildPlan({ pod, podStatus: healthyStatus(pod, 'name+image'), now: T0 }));
  assert.ok(!text.includes('STEP'));
  assert.equal(text.split('\n')[1], 'No changes. Pod shop/web is what kubelet 1.37 would keep running.');
});

test('several plans: the pod with changes in full, the other in one line, shared assumptions once, the overall summary last', () => {
  const pod = basePod();
  pod.metadata!.name = 'api';
  const healthy = buildPlan({ pod, podStatus: healthyStatus(pod, 'name+image'), now: T0 });
  const changed = changedPlan();
  const text = renderPlans([healthy, changed]);
  const sections = text.split('\n\n');
  assert.equal(sections.length, 4);
  assert.match(sections[0]!, /^Pod shop\/web \(uid uid-1234\)[^\n]*\nPlan: kill 1 container, start 2 containers\.\n/);
  assert.equal(sections[1], 'shop/api  no changes  (kubelet 1.37)');
  const assumptions = sections[2]!.split('\n');
  // The crash of web's log container makes its back-off estimate web's own; the rest both share.
  assert.equal(assumptions[0], 'Assumptions that could change some plans:');
  assert.match(assumptions[1]!, /^ {2}- Crash-loop back-off .*\(shop\/web\)$/);
  assert.equal(assumptions[2], 'Assumptions that could change every plan (2):');
  for (const line of assumptions.slice(3).filter((l) => l.startsWith('  - '))) {
    for (const p of [healthy, changed])
      assert.ok(
        p.assumptions.some((a) => a.startsWith(line.slice(4))),
        line,
      );
  }
  assert.equal(sections[3], '2 pods: 1 with changes, 1 without.');
});

test('assumptions are one short sentence each; -v adds the detail, which -o json always has', () => {
  const plan = changedPlan();
  const short = renderPlan(plan, { width: 100 }).split('\n');
  const long = renderPlan(plan, { width: 100, verbose: true }).split('\n');
  // The pod has no probes: that no probe result was given cannot change its plan, so it waits for -v.
  assert.ok(!short.includes('  - No probe results were given: no liveness or startup failure is assumed.'));
  assert.ok(
    short.includes('  (-v shows 6 more assumptions and the detail of each; -o json has them in full)'),
    short.join('\n'),
  );
  assert.ok(long.length > short.length);
  assert.ok(
    long
      .join(' ')
      .replace(/\s+/g, ' ')
      .includes(plan.assumptions.find((a) => a.startsWith('No probe results'))!),
  );
  for (const l of [...short, ...long]) assert.ok(l.length <= 100, l);
});

test('duplicates (other uids of the pod): a section with the orphan table, and the summary names them even when the pod itself is fine', () => {
  const pod = basePod();
  const now = 1_700_000_000_000;
  const dup = findDuplicates(
    { namespace: 'shop', name: 'web', uid: 'uid-1234' },
    [
      {
        id: 'f00dfeedbeef0123',
        state: 'SANDBOX_READY',
        createdAt: String(BigInt(now - 7_200_000) * 1_000_000n),
        labels: {
          'io.kubernetes.pod.uid': 'uid-old',
          'io.kubernetes.pod.name': 'web',
          'io.kubernetes.pod.namespace': 'shop',
        },
      },
    ],
    [],
    now,
  );
  const plan = buildPlan({ pod, podStatus: healthyStatus(pod, 'name+image'), now, duplicates: dup });
  const lines = renderPlan(plan, { width: 200 }).split('\n');
  const at = lines.findIndex((l) => l.startsWith('Duplicates: '));
  assert.equal(
    lines[at],
    'Duplicates: 1 other uid of shop/web on this node; no desired pod owns it, so kubelet cleans it up (sync does so first)',
  );
  assert.match(lines[at + 1], /^NAMESPACE\s+NAME\s+UID\s+SANDBOX\s+STATE\s+CONTAINERS\s+AGE\s+KUBELET WOULD$/);
  assert.match(
    lines[at + 2],
    /^shop\s+web\s+uid-old\s+f00dfeedbeef0\s+ready\s+0 \(0 running\)\s+2h\s+kill \(grace 1s\), then remove$/,
  );
  assert.equal(plan.changes, true);
  assert.equal(lines[1], 'Plan: kill and remove 1 duplicate pod (another uid).');
});
