// buildPlan: the JSON contract scripts depend on, SyncPod step order, `changes`, summary wording.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../src/kubelet/api-types';
import { buildPlan, STEP_ACTIONS, type Plan } from '../../src/plan/plan';
import { summarizePlans } from '../../src/plan/summary';
import type { PodStatus } from '../../src/kubelet/types';
import { T0, basePod, healthyStatus, podWithInits, podWithSidecars, setStatus, status } from '../fixtures/planner/base';

const NOW = T0 + 3600_000;

function plan(
  pod: Pod,
  mutate?: (st: PodStatus, pod: Pod) => void,
  extra: Partial<Parameters<typeof buildPlan>[0]> = {},
): Plan {
  const st = healthyStatus(pod, 'name+image');
  mutate?.(st, pod);
  // Round-trip through JSON: the contract is what scripts see.
  return JSON.parse(JSON.stringify(buildPlan({ pod, podStatus: st, now: NOW, ...extra }))) as Plan;
}

type Kind = 'string' | 'number' | 'boolean' | 'string|null' | 'array' | 'object';
const contract: Array<[string, Kind]> = [
  ['pod', 'object'],
  ['pod.namespace', 'string'],
  ['pod.name', 'string'],
  ['pod.uid', 'string'],
  ['actions', 'object'],
  ['actions.killPod', 'boolean'],
  ['actions.createSandbox', 'boolean'],
  ['actions.sandboxId', 'string'],
  ['actions.attempt', 'number'],
  ['actions.nextInitContainerToStart', 'string|null'],
  ['actions.initContainersToStart', 'array'],
  ['actions.containersToStart', 'array'],
  ['actions.containersToKill', 'array'],
  ['actions.ephemeralContainersToStart', 'array'],
  ['steps', 'array'],
  ['assumptions', 'array'],
  ['assumptionNotes', 'array'],
  ['changes', 'boolean'],
  ['schemaVersion', 'number'],
  ['kubeletVersion', 'string'],
  ['initPath', 'string'],
  ['featureGates', 'object'],
  ['match', 'object'],
  ['match.by', 'string'],
  ['match.uid', 'string'],
  ['matchCandidates', 'array'],
  ['duplicates', 'array'],
  ['waiting', 'array'],
  ['backOff', 'array'],
  ['hashNotes', 'array'],
  ['differences', 'array'],
  ['ignoredDifferences', 'array'],
  ['outcome', 'object'],
  ['outcome.probes', 'boolean'],
  ['summary', 'object'],
  ['kubelet', 'object'],
  ['probeInputs', 'array'],
  ['volumes', 'array'],
  ['blocked', 'string|null'],
];
/** Fields present only when the plan was built from a manifest (plan, sync). */
const optionalContract: Array<[string, Kind]> = [
  ['source', 'object'],
  ['source.kind', 'string'],
  ['source.file', 'string'],
];

function get(obj: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], obj);
}

function kindOf(v: unknown): Kind | 'other' {
  if (v === null) return 'string|null';
  if (Array.isArray(v)) return 'array';
  const t = typeof v;
  return t === 'string' || t === 'number' || t === 'boolean' || t === 'object' ? (t as Kind) : 'other';
}

function checkContract(p: Plan, label: string): void {
  // The contract sees every field the JSON has: a field added without a contract entry fails here.
  const known = new Set([...contract, ...optionalContract].map(([path]) => path.split('.')[0]));
  for (const key of Object.keys(p)) assert.ok(known.has(key), `${label}: ${key} is emitted but not in the contract`);
  assert.ok(
    ['uid-label', 'namespace-name', 'controller-labels', 'none'].includes(p.match.by),
    `${label}: match.by ${p.match.by}`,
  );
  const present = optionalContract.filter(([path]) => get(p, path.split('.')[0]) !== undefined);
  for (const [path, kind] of [...contract, ...present]) {
    const v = get(p, path);
    const k = kindOf(v);
    const ok = kind === 'string|null' ? k === 'string' || k === 'string|null' : k === kind;
    assert.ok(ok, `${label}: ${path} is ${k}, expected ${kind}`);
  }
  for (const n of [...p.actions.initContainersToStart, ...p.actions.ephemeralContainersToStart]) {
    assert.equal(typeof n, 'string', `${label}: container lists hold names`);
  }
  for (const c of p.actions.containersToStart) {
    assert.equal(typeof c.name, 'string');
    assert.equal(typeof c.reason, 'string');
  }
  for (const k of p.actions.containersToKill) {
    assert.equal(typeof k.name, 'string');
    assert.equal(typeof k.containerId, 'string');
    assert.equal(typeof k.reason, 'string');
  }
  p.steps.forEach((s, i) => {
    assert.equal(s.step, i + 1, `${label}: steps are numbered from 1`);
    assert.ok((STEP_ACTIONS as readonly string[]).includes(s.action), `${label}: ${s.action} is in the vocabulary`);
    assert.equal(typeof s.target, 'string');
    assert.equal(typeof s.reason, 'string');
  });
  for (const a of p.assumptions) assert.equal(typeof a, 'string');
  // Each assumption in full is its short sentence and its detail: the human view's line starts every JSON entry.
  assert.deepEqual(
    p.assumptions,
    p.assumptionNotes.map((n) => (n.detail ? `${n.short} ${n.detail}` : n.short)),
    `${label}: assumptionNotes and assumptions agree`,
  );
  for (const n of p.assumptionNotes) {
    assert.ok(n.id && n.short && !n.short.includes('\n'), `${label}: ${JSON.stringify(n)}`);
    assert.equal(typeof n.affectsOutcome, 'boolean', `${label}: ${n.id} says whether it affects the outcome`);
  }
  assert.equal(p.changes, p.steps.length > 0, `${label}: changes iff steps`);
}

const scenarios: Array<{ name: string; pod: () => Pod; mutate?: (st: PodStatus, pod: Pod) => void }> = [
  { name: 'healthy', pod: basePod },
  {
    name: 'new pod',
    pod: podWithSidecars,
    mutate: (st) => {
      st.sandboxStatuses = [];
      st.containerStatuses = [];
    },
  },
  {
    name: 'image changed',
    pod: basePod,
    mutate: (_st, p) => {
      p.spec!.containers[0].image = 'nginx:1.26';
    },
  },
  {
    name: 'classic init',
    pod: podWithInits,
    mutate: (st) => {
      st.containerStatuses = st.containerStatuses.filter((s) => s.name === 'init1');
    },
  },
];

test('every contract key is present with the right type', () => {
  for (const s of scenarios) {
    checkContract(plan(s.pod(), s.mutate), s.name);
    checkContract(
      plan(s.pod(), s.mutate, { options: { kubeletVersion: '1.29.0', featureGates: { SidecarContainers: false } } }),
      `${s.name} 1.29.0 legacy init path`,
    );
    const fromFile = plan(s.pod(), s.mutate, {
      source: { kind: 'manifest', file: 'pod.yaml', document: 1, from: 'Pod/web', notes: [] },
      matchedBy: 'namespace-name',
      matchCandidates: ['u2', 'u1'],
    });
    checkContract(fromFile, `${s.name} from a file`);
    assert.deepEqual(fromFile.source, { kind: 'manifest', file: 'pod.yaml', document: 1, from: 'Pod/web', notes: [] });
    assert.deepEqual(fromFile.matchCandidates, ['u2', 'u1']);
  }
});

test('a healthy pod has no steps, no changes and an explained "No changes."', () => {
  const p = plan(basePod());
  assert.deepEqual(p.steps, []);
  assert.equal(p.changes, false);
  assert.equal(p.summary.text, 'No changes. Pod shop/web is what kubelet 1.37 would keep running.');
  assert.deepEqual(p.pod, { namespace: 'shop', name: 'web', uid: 'uid-1234' });
  assert.equal(p.actions.sandboxId, 'sb1');
});

test('steps follow SyncPod order: kill, remove init containers, create sandbox, ephemeral, init, regular', () => {
  const pod = podWithSidecars();
  pod.spec!.ephemeralContainers = [{ name: 'debug', image: 'busybox:1.36' }];
  // Recreated sandbox: kill pod, purge inits, create sandbox, start first init container.
  const p1 = plan(pod, (st) => {
    st.sandboxStatuses[0].state = 'notready';
  });
  assert.deepEqual(
    p1.steps.map((s) => `${s.action} ${s.target}`),
    [
      'kill-pod shop/web',
      'remove-init-container init1',
      'remove-init-container sidecar1',
      'remove-init-container sidecar2',
      'create-sandbox shop/web attempt 1',
      'start-init-container init1',
    ],
  );
  assert.deepEqual(p1.steps[0].sandboxIds, ['sb1']);
  // Kept sandbox: kill a container, prune an old init instance, ephemeral, sidecar, regular.
  const p2 = plan(pod, (st, p) => {
    p.spec!.containers[0].image = 'nginx:1.26';
    setStatus(st, 'sidecar2', { state: 'exited', exitCode: 1, finishedAt: T0 + 60_000 });
    st.containerStatuses.push(
      status(p.spec!.initContainers![0], 'exited', 'name+image', { id: 'id-init1-old', createdAt: T0 }),
    );
  });
  assert.deepEqual(
    p2.steps.map((s) => `${s.action} ${s.target}`),
    [
      'kill-container app',
      'remove-init-container init1',
      'start-ephemeral-container debug',
      'start-init-container sidecar2',
      'start-container app',
    ],
  );
  assert.equal(p2.steps[1].containerId, 'id-init1-old');
  assert.equal(
    p2.summary.text,
    'Plan: kill 1 container, remove 1 init container, start 1 ephemeral container, start 1 init container, start 1 container.',
  );
});

test('pruning happens only when an older init instance exists', () => {
  const p = plan(podWithInits());
  assert.equal(p.changes, false, 'the newest exited instance of each init container is kept');
});

test('the contract uses names, not indexes, and carries reasons', () => {
  const p = plan(basePod(), (st) =>
    setStatus(st, 'log', { state: 'exited', exitCode: 137, reason: 'OOMKilled', finishedAt: T0 + 60_000 }),
  );
  assert.deepEqual(p.actions.containersToStart, [
    { name: 'log', reason: 'exited with code 137 (OOMKilled) and restartPolicy Always', code: 'exited' },
  ]);
  assert.equal(p.summary.text, 'Plan: start 1 container.');
});

test('kills carry id, reason in words and kubelet reason', () => {
  const p = plan(basePod(), undefined, { options: { probeResults: { liveness: { 'id-proxy': 'Failure' } } } });
  assert.deepEqual(p.actions.containersToKill, [
    {
      name: 'proxy',
      containerId: 'id-proxy',
      reason: 'liveness probe failed (given as input)',
      message: 'Container proxy failed liveness probe, will be restarted',
      kubeletReason: 'LivenessProbe',
    },
  ]);
  assert.match(p.assumptions[0], /Probe results were given/);
});

test('a hash from another scheme is explained in the plan', () => {
  const pod = basePod();
  const p = plan(pod, (st) => setStatus(st, 'app', { hash: 'ca26540d' }));
  assert.equal(p.hashNotes.length, 1);
  assert.match(p.hashNotes[0], /^app: /);
  const pod2 = basePod();
  const p2 = plan(pod2, (st, pp) => {
    // The 1.16–1.30 hash of exactly this container.
    const legacy = healthyStatus(pp, 'whole-spec').containerStatuses[0].hash;
    setStatus(st, 'app', { hash: legacy });
  });
  assert.match(p2.hashNotes[0], /whole-container hash of kubelet 1\.16–1\.30 of this same container/);
  assert.match(p2.actions.containersToKill[0].reason, /another kubelet version; kubelet sees it as changed/);
});

test('assumptions name what syncpod cannot see', () => {
  const p = plan(basePod());
  assert.ok(p.assumptions.some((a) => /Probe results are kept in kubelet memory/.test(a)));
  assert.ok(p.assumptions.some((a) => /admission mutations/.test(a)));
  assert.ok(p.assumptions.some((a) => /In-place resize/.test(a)));
  assert.ok(p.assumptions.some((a) => /io\.kubernetes\.pod\.uid label/.test(a)));
  const byName = plan(basePod(), undefined, { matchedBy: 'namespace-name', podSource: 'api-server' });
  assert.equal(byName.match.by, 'namespace-name');
  assert.ok(byName.assumptions.some((a) => /namespace and name/.test(a)));
  assert.ok(!byName.assumptions.some((a) => /admission mutations/.test(a)));
  const old = plan(basePod(), undefined, { options: { kubeletVersion: '1.32' } });
  assert.ok(!old.assumptions.some((a) => /In-place resize/.test(a)), '1.32 has the resize gate off');
});

test('back-off estimates are attached to starts of exited containers', () => {
  const rows = [
    { restartCount: 0, since: 1, heldBack: false, delay: 0 },
    { restartCount: 3, since: 30, heldBack: true, delay: 40 },
    { restartCount: 3, since: 50, heldBack: false, delay: 40 },
    { restartCount: 9, since: 200, heldBack: true, delay: 300 },
  ];
  for (const r of rows) {
    const p = plan(basePod(), (st) =>
      setStatus(st, 'app', {
        state: 'exited',
        exitCode: 1,
        restartCount: r.restartCount,
        startedAt: NOW - (r.since + 5) * 1000,
        finishedAt: NOW - r.since * 1000,
      }),
    );
    const step = p.steps.find((s) => s.action === 'start-container');
    assert.equal(step?.backOff?.delaySeconds, r.delay, JSON.stringify(r));
    assert.equal(step?.backOff?.heldBack, r.heldBack, JSON.stringify(r));
    assert.equal(/held back by crash-loop back-off/.test(p.summary.text), r.heldBack, p.summary.text);
  }
});

test('a changed definition gets a fresh back-off entry', () => {
  const p = plan(basePod(), (st, pod) => {
    pod.spec!.containers[0].image = 'nginx:1.26';
    setStatus(st, 'app', {
      state: 'exited',
      exitCode: 1,
      restartCount: 5,
      startedAt: NOW - 2000,
      finishedAt: NOW - 1000,
    });
  });
  const step = p.steps.find((s) => s.action === 'start-container');
  assert.equal(step?.backOff?.heldBack, false);
  assert.match(step?.backOff?.note ?? '', /changed/);
});

test('waiting is explained when nothing is pending', () => {
  const p = plan(podWithInits(), (st) => {
    st.containerStatuses = st.containerStatuses.filter((s) => s.name === 'init1');
    setStatus(st, 'init1', { state: 'running', finishedAt: 0 });
  });
  assert.equal(p.changes, false);
  assert.equal(
    p.summary.text,
    'No changes. Kubelet 1.37 waits: init container init1 is running; waiting for it to finish.',
  );
});

test('a new pod: killPod as kubelet sets it, but no kill step when there is nothing to kill', () => {
  const p = plan(basePod(), (st) => {
    st.sandboxStatuses = [];
    st.containerStatuses = [];
  });
  assert.equal(p.summary.text, 'Plan: create sandbox, start 3 containers.');
  assert.equal(p.actions.killPod, true);
  assert.equal(p.actions.sandboxId, '');
  assert.equal(p.actions.killPodReason, 'the sandbox must be recreated');
  assert.ok(!p.steps.some((s) => s.action === 'kill-pod'));
});

test('summary wording for kill pod and sandbox creation (a ready sandbox without an IP)', () => {
  const p = plan(basePod(), (st) => {
    st.sandboxStatuses[0].ip = '';
  });
  assert.equal(p.steps[0].action, 'kill-pod');
  assert.match(p.summary.text, /^Plan: kill pod, create sandbox, /);
});

test('overall summary of several plans', () => {
  const healthy = plan(basePod());
  const changed = plan(basePod(), (_st, p) => {
    p.spec!.containers[0].image = 'nginx:1.26';
  });
  assert.equal(summarizePlans([]), 'No pods.');
  assert.equal(summarizePlans([healthy]), 'No changes in 1 pod.');
  assert.equal(summarizePlans([healthy, changed, healthy]), '3 pods: 1 with changes, 2 without.');
});

test('a volume syncpod cannot provide blocks the pod: the reason in `blocked` and the summary, the volume marked unsupported', () => {
  const pod = basePod();
  pod.spec!.volumes = [
    { name: 'data', persistentVolumeClaim: { claimName: 'pg-data' } },
    { name: 'scratch', emptyDir: {} },
  ];
  const p = plan(pod);
  checkContract(p, 'pvc');
  assert.match(
    p.blocked ?? '',
    /^cannot provide volume data \(persistentVolumeClaim\): persistentVolumeClaim pg-data /,
  );
  assert.deepEqual(
    p.volumes.map((v) => [v.name, v.type, v.provision]),
    [
      ['data', 'persistentVolumeClaim', 'unsupported'],
      ['scratch', 'emptyDir', 'empty-dir'],
    ],
  );
  assert.match(p.summary.text, /^Blocked: cannot provide volume data/);
});

test('a skipped volume does not block; the plan says so among its assumptions', () => {
  const pod = basePod();
  pod.spec!.volumes = [{ name: 'data', persistentVolumeClaim: { claimName: 'pg-data' } }];
  const p = plan(pod, undefined, {
    volumeData: { configMaps: {}, secrets: {}, serviceAccountTokens: {}, skip: ['da*'] },
  });
  assert.equal(p.blocked, null);
  assert.equal(p.volumes[0]!.provision, 'skipped');
  assert.ok(
    p.assumptionNotes.some((a) => a.id === 'volumes-skipped' && a.short.includes('data (persistentVolumeClaim)')),
  );
});

test('a new pod whose hostPath fails its type check is blocked; a pod the runtime already holds is not (its volumes were mounted)', () => {
  const pod = basePod();
  pod.spec!.volumes = [
    { name: 'sock', hostPath: { path: '/run/app.sock', type: 'Socket' } },
    { name: 'plain', hostPath: { path: '/data' } },
  ];
  const hostPaths = [
    { volume: 'sock', path: '/run/app.sock', kind: 'dir' as const },
    { volume: 'plain', path: '/data' },
  ];
  const fresh = plan(
    pod,
    (st) => {
      st.sandboxStatuses = [];
      st.containerStatuses = [];
    },
    { hostPaths },
  );
  checkContract(fresh, 'hostPath');
  assert.equal(fresh.blocked, 'volume sock: hostPath type check failed: /run/app.sock is not a Socket');
  assert.match(fresh.summary.text, /^Blocked: volume sock: hostPath type check failed/);
  assert.equal(plan(pod, undefined, { hostPaths }).blocked, null);
  assert.equal(
    plan(pod, undefined, { hostPaths: [{ volume: 'sock', path: '/run/app.sock', kind: 'socket' }] }).blocked,
    null,
  );
});

test('a plain pod is not blocked and lists no volumes', () => {
  const p = plan(basePod());
  assert.equal(p.blocked, null);
  assert.deepEqual(p.volumes, []);
});

test('a finished Never pod with its sandbox NOTREADY: kubelet stops the sandbox again, which is not a change (oracle v1.37.2)', () => {
  const pod = basePod();
  pod.spec!.restartPolicy = 'Never';
  const p = plan(pod, (st) => {
    st.sandboxStatuses[0].state = 'notready';
    st.sandboxStatuses[0].attempt = 0;
    for (const c of st.containerStatuses) Object.assign(c, { state: 'exited', exitCode: 0, finishedAt: T0 + 60_000 });
  });
  // killPodWithSyncResult sends StopPodSandbox for every sandbox of the pod, in any state.
  assert.deepEqual(
    p.steps.map((s) => `${s.action} ${s.target}`),
    ['kill-pod shop/web'],
  );
  assert.deepEqual(p.steps[0].sandboxIds, ['sb1']);
  assert.deepEqual(p.steps[0].containerIds, []);
  assert.equal(p.steps[0].alreadyStopped, true);
  assert.match(p.steps[0].reason, /already stopped/);
  // --detailed-exitcode: nothing changes on the node.
  assert.equal(p.changes, false);
  assert.equal(p.summary.changes, false);
  assert.match(p.summary.text, /^No changes\. .*StopPodSandbox again/);
  // A NOTREADY sandbox is stopped again before a new one is made too.
  const p2 = plan(basePod(), (st) => {
    st.sandboxStatuses[0].state = 'notready';
    for (const c of st.containerStatuses) Object.assign(c, { state: 'exited', exitCode: 1, finishedAt: T0 + 60_000 });
  });
  assert.deepEqual(
    p2.steps.slice(0, 2).map((s) => `${s.action} ${s.target}`),
    ['kill-pod shop/web', 'create-sandbox shop/web attempt 1'],
  );
  assert.equal(p2.changes, true);
});
