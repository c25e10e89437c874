// The node plan's human view leads with the changes: a node of 100 pods of which 2 would change is
// read in a screenful; the pods without changes are one line (or counted), the assumptions every
// pod shares are printed once at the end and match each pod's JSON list. Golden files in
// test/fixtures/views (regenerate with UPDATE_GOLDEN=1 after checking the difference by eye).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildPlan, addAssumption } from '../../src/plan/plan';
import { buildNodePlan, staticPodReplacement, type NodePodPlan } from '../../src/plan/node-plan';
import type { Orphan } from '../../src/kubelet/orphans';
import { renderNodePlan } from '../../src/render/node-plan-view';
import { T0, basePod, healthyStatus } from '../fixtures/planner/base';

const GOLDEN = join(__dirname, '..', 'fixtures', 'views');

function golden(name: string, text: string): void {
  const file = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN) writeFileSync(file, text);
  assert.equal(text, readFileSync(file, 'utf8'), `${name} (UPDATE_GOLDEN=1 rewrites it)`);
}

/** The bullets under the heading at `at` (wrapped lines continue with 4 spaces), each as one text. */
function bullets(lines: string[], at: number): string[] {
  const out: string[] = [];
  for (const l of lines.slice(at + 1)) {
    if (l.startsWith('  - ')) out.push(l.slice(4));
    else if (l.startsWith('    ')) out[out.length - 1] += ` ${l.trim()}`;
    else break;
  }
  return out;
}

/** A static pod of the node: healthy, or changed (a new image for app; log exited and restarts). */
function nodePod(i: number, change: 'none' | 'image' | 'crash'): NodePodPlan {
  const pod = basePod();
  const name = `static-web-${String(i).padStart(3, '0')}-lab-node-1`;
  pod.metadata = { name, namespace: 'kube-system', uid: `uid-${i}` };
  const st = healthyStatus(pod, 'name+image');
  st.name = name;
  st.namespace = 'kube-system';
  st.uid = `uid-${i}`;
  if (change === 'image') pod.spec!.containers[0]!.image = 'nginx:1.27';
  if (change === 'crash')
    st.containerStatuses[1] = { ...st.containerStatuses[1]!, state: 'exited', exitCode: 137, finishedAt: T0 + 60_000 };
  const plan = buildPlan({ pod, podStatus: st, now: T0 + 3_600_000, podSource: 'api-server' });
  addAssumption(plan, {
    id: 'static-uid-computed',
    short: "The static pod's uid was computed by syncpod, not taken from kubelet.",
    detail: 'It hashes the manifest, node name and path.',
  });
  return {
    ...plan,
    source: { kind: 'static-pod', file: `/etc/kubernetes/manifests/${name}.yaml`, uidSource: 'computed' },
    preflight: { steps: [], blocked: null },
  };
}

function labNode() {
  const plans = Array.from({ length: 100 }, (_, i) => nodePod(i, i === 17 ? 'image' : i === 64 ? 'crash' : 'none'));
  return buildNodePlan('lab-node-1', plans, [], []);
}

test('100 pods, 2 with changes: fewer than 40 lines at 100 columns, the changed pods first, the summary last', () => {
  const plan = labNode();
  const text = renderNodePlan(plan, { width: 100 });
  golden('node-plan-100.txt', text);
  const lines = text.trimEnd().split('\n');
  assert.ok(lines.length < 40, `${lines.length} lines:\n${text}`);
  for (const l of lines) assert.ok(l.length <= 100, `over 100 columns: ${l}`);
  assert.equal(lines.at(-1), plan.summary.text);
  assert.match(lines[0]!, /^Pod kube-system\/static-web-017-lab-node-1 /);
  const firstAssumption = lines.findIndex((l) => /assum/i.test(l));
  const stepsAt = lines.flatMap((l, i) => (/^\d+\s+(kill|start)-container\s/.test(l) ? [i] : []));
  assert.equal(stepsAt.length, 3, 'kill and start app of pod 017, start log of pod 064');
  assert.ok(
    stepsAt.every((i) => i < firstAssumption),
    'every step comes before the first assumption',
  );
  assert.ok(lines.includes('98 pods with no changes  (kubelet 1.37; -v lists them)'));
});

test("the assumptions printed once for every pod start each pod's JSON entry; with -v they are the JSON text itself", () => {
  const plan = labNode();
  const json = JSON.parse(JSON.stringify(plan)) as typeof plan;
  for (const verbose of [false, true]) {
    const lines = renderNodePlan(plan, { width: 100, verbose }).trimEnd().split('\n');
    const every = verbose ? 'Assumptions for every pod (100):' : 'Assumptions that could change every plan (100):';
    const at = lines.findIndex((l) => l.startsWith(every));
    assert.ok(at > 0, lines.join('\n'));
    const common = bullets(lines, at);
    assert.ok(common.length >= (verbose ? 3 : 1), common.join('\n'));
    for (const a of common) {
      for (const p of json.plans) {
        assert.ok(
          p.assumptions.some((full) => (verbose ? full === a : full.startsWith(a))),
          `${p.pod.name} has "${a}" in its JSON list`,
        );
      }
    }
    // Nothing every pod shares is printed with a pod: the back-off estimate belongs to the pod that crashed.
    const some = lines.indexOf(verbose ? 'Assumptions for some pods:' : 'Assumptions that could change some plans:');
    assert.match(
      bullets(lines, some).find((b) => b.startsWith('Crash'))!,
      /^Crash-loop back-off lives in kubelet memory: delays are estimated\..*\(kube-system\/static-web-064-lab-node-1\)$/,
    );
  }
});

test('-v lists every pod without changes on its own line', () => {
  const text = renderNodePlan(labNode(), { width: 100, verbose: true });
  assert.ok(text.includes('\nkube-system/static-web-000-lab-node-1  no changes  (kubelet 1.37)\n'));
  assert.equal(text.split('\n').filter((l) => l.endsWith('no changes  (kubelet 1.37)')).length, 98);
});

test('a few pods without changes are one line each; a node where nothing changes says so last', () => {
  const plans = [nodePod(1, 'none'), nodePod(2, 'none'), nodePod(3, 'none')];
  const text = renderNodePlan(buildNodePlan('lab-node-1', plans, [], []), { width: 100 });
  golden('node-plan-unchanged.txt', text);
  const lines = text.trimEnd().split('\n');
  assert.deepEqual(lines.slice(0, 3), [
    'kube-system/static-web-001-lab-node-1  no changes  (kubelet 1.37)',
    'kube-system/static-web-002-lab-node-1  no changes  (kubelet 1.37)',
    'kube-system/static-web-003-lab-node-1  no changes  (kubelet 1.37)',
  ]);
  assert.equal(lines.at(-1), 'Node lab-node-1: 3 pods: 0 with changes, 3 without; no orphans.');
});

/** A static pod whose file changed: its new uid has nothing on the node; the old uid is an orphan that runs. */
function replacedPod(i: number): { plan: NodePodPlan; old: Orphan } {
  const pod = basePod();
  const name = `static-web-${String(i).padStart(3, '0')}-lab-node-1`;
  pod.metadata = { name, namespace: 'kube-system', uid: `new-uid-${i}` };
  pod.spec!.containers[0]!.image = 'nginx:1.27';
  const st = { uid: '', name, namespace: 'kube-system', ips: [], sandboxStatuses: [], containerStatuses: [] };
  const built = buildPlan({ pod, podStatus: st, now: T0 + 3_600_000, podSource: 'api-server' });
  const old: Orphan = {
    namespace: 'kube-system',
    name,
    uid: `uid-${i}`,
    sandboxes: [{ id: `sb-old-${i}`.padEnd(64, '0'), attempt: 0, state: 'ready', createdAt: T0, ageSeconds: 86400 }],
    containers: ['app', 'log', 'proxy'].map((c) => ({
      id: `${c}-old-${i}`,
      name: c,
      sandboxId: `sb-old-${i}`,
      state: 'running' as const,
      createdAt: T0,
      ageSeconds: 86400,
    })),
    kubelet: 'kill',
    gracePeriodSeconds: 30,
    reason: 'no desired pod has this uid',
  };
  const plan: NodePodPlan = {
    ...built,
    source: { kind: 'static-pod', file: `/etc/kubernetes/manifests/${name}.yaml`, uidSource: 'computed' },
    preflight: {
      steps: [
        {
          action: 'create-pod-cgroup',
          target: `/sys/fs/cgroup/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod${`new-uid-${i}`.replace(/-/g, '_')}.slice`,
          reason: 'the pod cgroup does not exist yet: kubelet creates it before the sandbox',
        },
      ],
      blocked: null,
    },
  };
  // The old uid ran the file before the edit: app on nginx:1.26 (the runtime's recorded config says so).
  const before = basePod();
  before.metadata = { ...pod.metadata, uid: `uid-${i}` };
  before.spec!.containers[0]!.image = 'nginx:1.26';
  const statuses = healthyStatus(before, 'name+image').containerStatuses;
  plan.replaces = staticPodReplacement(plan, old, {
    pod,
    containers: { statuses, rules: { hashScheme: 'name+image' } },
  });
  return { plan, old };
}

test('a 30-static-pod node with 2 changed files: each one entry "replaced", old uid first, < 40 lines at 100 columns', () => {
  const replaced = [replacedPod(7), replacedPod(21)];
  const plans = Array.from(
    { length: 30 },
    (_, i) =>
      replaced.find((r) => r.plan.pod.name.includes(`-${String(i).padStart(3, '0')}-`))?.plan ?? nodePod(i, 'none'),
  );
  const plan = buildNodePlan(
    'lab-node-1',
    plans,
    replaced.map((r) => r.old),
    [],
  );
  const text = renderNodePlan(plan, { width: 100 });
  golden('node-plan-30-static-replaced.txt', text);
  const lines = text.trimEnd().split('\n');
  assert.ok(lines.length < 40, `${lines.length} lines:\n${text}`);
  for (const l of lines) assert.ok(l.length <= 100, `over 100 columns: ${l}`);
  assert.equal(
    lines[0],
    'Pod kube-system/static-web-007-lab-node-1: replaced: file changed, kubelet starts uid new-uid-7 and',
  );
  assert.equal(lines[1], '  kills uid uid-7');
  // Not a new pod and an orphan: no orphan section, and the summary counts no other orphans.
  assert.ok(!text.includes('Orphans:'), text);
  assert.equal(lines.at(-1), 'Node lab-node-1: 30 pods: 2 with changes (2 replaced), 28 without; no other orphans.');
  // Both halves in kubelet's order: the old uid's termination, then the new pod's preflight and sync.
  const entry = lines.slice(0, lines.indexOf(''));
  const actions = entry.flatMap((l) => /^(old|pre|\d+)\s+(\S+)/.exec(l)?.slice(1, 3).join(' ') ?? []);
  assert.deepEqual(actions, [
    'old kill-pod',
    'pre create-pod-cgroup',
    '1 create-sandbox',
    '2 start-container',
    '3 start-container',
    '4 start-container',
  ]);
  // The long cgroup path does not squeeze REASON: it has a line of its own.
  assert.ok(
    entry.some((l) => l.startsWith('  ↳ target /sys/fs/cgroup/kubepods.slice/')),
    entry.join('\n'),
  );
});
