// computePodActions across kubelet 1.29 … 1.37: the patch-dependent init path, init containers
// stuck in Created, ContainerRestartRules (container restartPolicy and restartPolicyRules),
// RestartAllContainers, and probe results from flags or a pod status dump. Tables in the manner of
// kubelet's kuberuntime_manager_test.go cases; free-text messages are not compared.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, ContainerRestartRule, Pod, PodStatus as ApiPodStatus } from '../../src/kubelet/api-types';
import {
  computePodActions,
  type ComputePodActionsOptions,
  type PodActions,
} from '../../src/kubelet/compute-pod-actions';
import { resolveKubeletRules } from '../../src/kubelet/kubelet-version';
import type { PodStatus } from '../../src/kubelet/types';
import { SyncpodError } from '../../src/errors';
import { buildPlan } from '../../src/plan/plan';
import { probeInputs } from '../../src/plan/probe-inputs';
import { probeFlagResults } from '../../src/workflows/probe-flags';
import { decidedByText, startReasonText } from '../../src/plan/reasons';
import {
  T0,
  basePod,
  healthyStatus,
  podWithInits,
  podWithSidecars,
  setStatus,
  type Scheme,
} from '../fixtures/planner/base';

const schemeOf = (v: string): Scheme => (/^1\.(29|30)(\.|$)/.test(v) ? 'whole-spec' : 'name+image');
const exited = (code: number) => ({
  state: 'exited' as const,
  exitCode: code,
  reason: code === 0 ? 'Completed' : 'Error',
  finishedAt: T0 + 60_000,
});
const onlyStatuses = (st: PodStatus, names: string[]) => {
  st.containerStatuses = st.containerStatuses.filter((s) => names.includes(s.name));
};

function plan(
  pod: Pod,
  version: string,
  mutate?: (st: PodStatus) => void,
  extra: ComputePodActionsOptions = {},
): PodActions {
  const st = healthyStatus(pod, schemeOf(version));
  mutate?.(st);
  return computePodActions(pod, st, { kubeletVersion: version, ...extra });
}

test('which init path a pod without sidecars takes, by version and patch', () => {
  // init1 completed, init2 not yet run: the legacy path names nextInitContainerToStart, the
  // sidecar-aware path lists initContainersToStart.
  const rows: Array<{ version: string; gates?: Record<string, boolean>; path: 'classic' | 'sidecar' }> = [
    { version: '1.29.0', path: 'sidecar' },
    { version: '1.29.8', path: 'sidecar' },
    { version: '1.29.9', path: 'classic' },
    { version: '1.29', path: 'classic' },
    { version: '1.29.0', gates: { SidecarContainers: false }, path: 'classic' },
    { version: '1.30.4', path: 'sidecar' },
    { version: '1.30.5', path: 'classic' },
    { version: '1.31.0', path: 'sidecar' },
    { version: '1.31.1', path: 'classic' },
    { version: '1.32', path: 'classic' },
    { version: '1.33', path: 'sidecar' },
    { version: '1.33', gates: { LegacySidecarContainers: true }, path: 'classic' },
    { version: '1.34', path: 'sidecar' },
    { version: '1.35', path: 'sidecar' },
    { version: '1.36', path: 'sidecar' },
    { version: '1.37', path: 'sidecar' },
  ];
  for (const row of rows) {
    const a = plan(podWithInits(), row.version, (st) => onlyStatuses(st, ['init1']), { featureGates: row.gates });
    const label = `${row.version} ${JSON.stringify(row.gates ?? {})}`;
    assert.equal(a.initPath, row.path, label);
    if (row.path === 'classic') assert.equal(a.nextInitContainerToStart, 'init2', label);
    else assert.deepEqual(a.initContainersToStart, [1], label);
  }
});

test('a pod with a sidecar takes the sidecar-aware path on every version with SidecarContainers on', () => {
  for (const v of ['1.29.0', '1.29.9', '1.30.5', '1.31', '1.32', '1.33', '1.34', '1.37']) {
    const a = plan(podWithSidecars(), v, (st) => onlyStatuses(st, ['init1']));
    assert.deepEqual([a.initPath, a.initContainersToStart], ['sidecar', [1]], v);
  }
});

test('an init container stuck in Created is started again only from the fixed patch releases on', () => {
  const rows: Array<[string, boolean]> = [
    ['1.29.8', false],
    ['1.29.9', true],
    ['1.30.4', false],
    ['1.30.5', true],
    ['1.31.0', false],
    ['1.31.1', true],
    ['1.32', true],
    ['1.35', true],
  ];
  for (const [v, restarts] of rows) {
    const a = plan(podWithSidecars(), v, (st) => {
      onlyStatuses(st, ['init1', 'sidecar1']);
      setStatus(st, 'sidecar1', { state: 'created', startedAt: 0 });
    });
    assert.deepEqual(a.initContainersToStart, restarts ? [1] : [], v);
    assert.equal(
      a.waiting.some((w) => w.code === 'init-created-waits'),
      !restarts,
      v,
    );
  }
});

test('the patch release matters and an unknown patch is said in the rules', () => {
  assert.match(
    resolveKubeletRules('1.30')
      .unpinned.map((u) => u.short)
      .join(' '),
    /No patch release was given for kubelet 1\.30: planned as 1\.30\.5 or later/,
  );
  assert.ok(
    !resolveKubeletRules('1.30.2')
      .unpinned.map((u) => u.short)
      .join(' ')
      .includes('No patch release'),
  );
  assert.ok(
    !resolveKubeletRules('1.36')
      .unpinned.map((u) => u.short)
      .join(' ')
      .includes('No patch release'),
    'the patch does not matter for 1.36',
  );
});

// --- ContainerRestartRules (1.34 alpha off, 1.35+ beta on) ---

const rule = (action: string, operator: string, values: number[]): ContainerRestartRule => ({
  action,
  exitCodes: { operator, values },
});

function podWith(policy: string, app: Partial<Container>): Pod {
  const pod = basePod();
  pod.spec!.restartPolicy = policy;
  Object.assign(pod.spec!.containers[0], app);
  return pod;
}

interface RuleCase {
  name: string;
  pod: () => Pod;
  exitCode: number;
  /** Whether app is started again, per version. */
  restart: Record<string, boolean>;
  gates?: Record<string, boolean>;
}

const ruleCases: RuleCase[] = [
  {
    name: 'a Restart rule matching the exit code (In) restarts a container of a Never pod',
    pod: () => podWith('Never', { restartPolicy: 'Never', restartPolicyRules: [rule('Restart', 'In', [42])] }),
    exitCode: 42,
    restart: { '1.33': false, '1.34': false, '1.35': true, '1.37': true },
  },
  {
    name: 'an exit code the rule does not list falls back to the container restartPolicy',
    pod: () => podWith('Never', { restartPolicy: 'Never', restartPolicyRules: [rule('Restart', 'In', [42])] }),
    exitCode: 1,
    restart: { '1.35': false, '1.37': false },
  },
  {
    name: 'NotIn [0]: any failure restarts',
    pod: () => podWith('Never', { restartPolicy: 'Never', restartPolicyRules: [rule('Restart', 'NotIn', [0])] }),
    exitCode: 3,
    restart: { '1.35': true },
  },
  {
    name: 'NotIn [0]: success does not restart',
    pod: () => podWith('Never', { restartPolicy: 'Never', restartPolicyRules: [rule('Restart', 'NotIn', [0])] }),
    exitCode: 0,
    restart: { '1.35': false },
  },
  {
    name: 'the container restartPolicy Never overrides the pod restartPolicy Always',
    pod: () => podWith('Always', { restartPolicy: 'Never' }),
    exitCode: 1,
    restart: { '1.33': true, '1.34': true, '1.35': false, '1.36': false },
  },
  {
    name: 'the container restartPolicy Always overrides the pod restartPolicy Never',
    pod: () => podWith('Never', { restartPolicy: 'Always' }),
    exitCode: 0,
    restart: { '1.34': false, '1.35': true },
  },
  {
    name: 'the container restartPolicy OnFailure restarts a failure in a Never pod',
    pod: () => podWith('Never', { restartPolicy: 'OnFailure' }),
    exitCode: 2,
    restart: { '1.35': true },
  },
  {
    name: 'with the gate turned on, 1.34 applies the rules',
    pod: () => podWith('Never', { restartPolicy: 'Never', restartPolicyRules: [rule('Restart', 'In', [42])] }),
    exitCode: 42,
    gates: { ContainerRestartRules: true },
    restart: { '1.34': true },
  },
  {
    name: 'with the gate turned off, 1.35 ignores the rules',
    pod: () => podWith('Never', { restartPolicy: 'Never', restartPolicyRules: [rule('Restart', 'In', [42])] }),
    exitCode: 42,
    gates: { ContainerRestartRules: false },
    restart: { '1.35': false },
  },
];

for (const c of ruleCases) {
  test(`restart rules: ${c.name}`, () => {
    for (const [v, restarts] of Object.entries(c.restart)) {
      const a = plan(c.pod(), v, (st) => setStatus(st, 'app', exited(c.exitCode)), { featureGates: c.gates });
      assert.deepEqual(a.containersToStart, restarts ? [0] : [], `${v}: app restarted?`);
      assert.equal(a.killPod, false, `${v}: log and proxy still run`);
    }
  });
}

test('restart rules: the start reason names the rule that decided', () => {
  const pod = podWith('Never', { restartPolicy: 'Never', restartPolicyRules: [rule('Restart', 'In', [7, 42])] });
  const a = plan(pod, '1.35', (st) => setStatus(st, 'app', exited(42)));
  const r = a.containerStarts[0].reason;
  assert.deepEqual(r.decidedBy, {
    level: 'rule',
    policy: 'Restart',
    rule: { index: 0, operator: 'In', values: [7, 42] },
  });
  assert.equal(
    startReasonText(r),
    'exited with code 42 (Error); restartPolicyRules[0] (exit code In [7, 42]): Restart',
  );
  assert.equal(decidedByText({ level: 'container', policy: 'OnFailure' }), 'container restartPolicy OnFailure');
});

test('restart rules: a running container with its own restartPolicy Never is killed but not restarted on a liveness failure', () => {
  const pod = podWith('Always', { restartPolicy: 'Never' });
  const probes = { liveness: { 'id-app': 'Failure' as const } };
  const at135 = plan(pod, '1.35', undefined, { probeResults: probes });
  assert.deepEqual([at135.containersToKill.map((k) => k.name), at135.containersToStart], [['app'], []]);
  const at133 = plan(podWith('Always', {}), '1.33', undefined, { probeResults: probes });
  assert.deepEqual([at133.containersToKill.map((k) => k.name), at133.containersToStart], [['app'], [0]]);
});

test('restart rules: a failed init container with a Restart rule is retried instead of failing a Never pod', () => {
  const pod = podWithInits();
  pod.spec!.restartPolicy = 'Never';
  Object.assign(pod.spec!.initContainers![0], {
    restartPolicy: 'Never',
    restartPolicyRules: [rule('Restart', 'In', [42])],
  });
  const mutate = (st: PodStatus) => {
    onlyStatuses(st, ['init1']);
    setStatus(st, 'init1', exited(42));
  };
  const at135 = plan(pod, '1.35', mutate);
  assert.deepEqual([at135.killPod, at135.initContainersToStart], [false, [0]]);
  const at134 = plan(pod, '1.34', mutate);
  assert.deepEqual([at134.killPod, at134.killPodCause], [true, 'init-container-failed']);
});

test('restart rules: a recreated sandbox skips a container whose own OnFailure policy already succeeded', () => {
  const pod = podWith('Always', { restartPolicy: 'OnFailure' });
  const mutate = (st: PodStatus) => {
    st.sandboxStatuses[0].state = 'notready';
    setStatus(st, 'app', exited(0));
  };
  assert.deepEqual(plan(pod, '1.35', mutate).containersToStart, [1, 2]);
  assert.deepEqual(plan(podWith('Always', {}), '1.33', mutate).containersToStart, [0, 1, 2]);
});

// --- RestartAllContainers (1.35 alpha off, 1.36+ beta on) ---

function restartAllPod(): Pod {
  const pod = podWithInits();
  Object.assign(pod.spec!.containers[0], {
    restartPolicy: 'Never',
    restartPolicyRules: [rule('RestartAllContainers', 'In', [88])],
  });
  pod.spec!.ephemeralContainers = [{ name: 'debug', image: 'busybox:1.36' }];
  return pod;
}

test('RestartAllContainers: every container is removed in kubelet order (regular, then init, the trigger last), running ones killed; the sandbox stays', () => {
  const a = plan(restartAllPod(), '1.36', (st) => setStatus(st, 'app', exited(88)));
  assert.equal(a.restartAllContainers, true);
  assert.deepEqual(
    [a.killPod, a.createSandbox, a.containersToStart, a.initContainersToStart, a.containersToKill],
    [false, false, [], [], []],
  );
  assert.deepEqual(
    a.containersToReset.map((r) => [r.name, r.kind, r.kill, r.source]),
    [
      ['log', 'regular', true, false],
      ['proxy', 'regular', true, false],
      ['init1', 'init', false, false],
      ['init2', 'init', false, false],
      ['app', 'regular', false, true],
    ],
  );
  assert.ok(!a.containersToReset.some((r) => r.name === 'debug'), 'ephemeral containers are not restarted');
});

// The order of containersToReset as each minor's computePodActions builds it: regular targets, init
// targets, regular sources, init sources (1.35 with the gate and 1.36: zongruxie4/kubernetes@0b0b77ae;
// 1.37: natasha41575/kubernetes@1a51be50, kuberuntime_manager.go).
const resetOrderVersions: Array<{ version: string; featureGates?: Record<string, boolean> }> = [
  { version: '1.35', featureGates: { RestartAllContainersOnContainerExits: true } },
  { version: '1.36' },
  { version: '1.37' },
];
for (const v of resetOrderVersions) {
  test(`RestartAllContainers ${v.version}: an init container and a regular container both triggered it; each kind's triggers go after every target`, () => {
    const pod = restartAllPod();
    Object.assign(pod.spec!.initContainers![1], {
      restartPolicy: 'Never',
      restartPolicyRules: [rule('RestartAllContainers', 'In', [88])],
    });
    const a = plan(
      pod,
      v.version,
      (st) => {
        setStatus(st, 'app', exited(88));
        setStatus(st, 'init2', exited(88));
      },
      v.featureGates ? { featureGates: v.featureGates } : {},
    );
    assert.deepEqual(
      a.containersToReset.map((r) => [r.name, r.source]),
      [
        ['log', false],
        ['proxy', false],
        ['init1', false],
        ['app', true],
        ['init2', true],
      ],
    );
  });
}

test('RestartAllContainers: off by default in 1.35, on with the gate; an unmatched exit code restarts nothing', () => {
  const mutate = (st: PodStatus) => setStatus(st, 'app', exited(88));
  const off = plan(restartAllPod(), '1.35', mutate);
  assert.deepEqual([off.restartAllContainers, off.containersToReset, off.containersToStart], [false, [], []]);
  const on = plan(restartAllPod(), '1.35', mutate, { featureGates: { RestartAllContainersOnContainerExits: true } });
  assert.equal(on.containersToReset.length, 5);
  const other = plan(restartAllPod(), '1.36', (st) => setStatus(st, 'app', exited(1)));
  assert.deepEqual([other.restartAllContainers, other.containersToStart], [false, []]);
});

test('RestartAllContainers: once everything is removed the next sync starts from the first init container', () => {
  const a = plan(restartAllPod(), '1.36', (st) => {
    st.containerStatuses = [];
  });
  assert.deepEqual([a.restartAllContainers, a.initContainersToStart, a.createSandbox], [false, [0], false]);
});

test('RestartAllContainers: the AllContainersRestarting condition of a pod status dump keeps the restart going', () => {
  const apiStatus: ApiPodStatus = { conditions: [{ type: 'AllContainersRestarting', status: 'True' }] };
  const a = plan(restartAllPod(), '1.36', undefined, { apiStatus });
  assert.equal(a.restartAllContainers, true);
  assert.equal(a.containersToReset.length, 5);
});

// --- probe results as input ---

function sidecarWithStartupProbe(): Pod {
  const pod = podWithSidecars();
  pod.spec!.initContainers![1].startupProbe = { exec: { command: ['true'] } };
  return pod;
}
const sidecarStarting = (st: PodStatus) => onlyStatuses(st, ['init1', 'sidecar1']);

test('probe inputs: --startup-succeeded lets the next init container start, and says it came from a flag', () => {
  const pod = sidecarWithStartupProbe();
  const st = healthyStatus(pod, 'name+image');
  sidecarStarting(st);
  const waiting = computePodActions(pod, st, { kubeletVersion: '1.36' });
  assert.deepEqual(
    [waiting.initContainersToStart, waiting.waiting.map((w) => w.code)],
    [[], ['startup-result-missing']],
  );
  const p = probeInputs(pod, st, probeFlagResults({ startupSucceeded: ['sidecar1'] }));
  assert.deepEqual(p.inputs, [
    { container: 'sidecar1', containerId: 'id-sidecar1', probe: 'startup', result: 'Success', from: 'flag' },
  ]);
  const a = computePodActions(pod, st, { kubeletVersion: '1.36', probeResults: p.results });
  assert.deepEqual(a.initContainersToStart, [2]);
});

test('probe inputs: started: true in a pod status dump counts for the instance it names, not for an older one', () => {
  const pod = sidecarWithStartupProbe();
  const st = healthyStatus(pod, 'name+image');
  sidecarStarting(st);
  const dump = (id: string): ApiPodStatus => ({
    initContainerStatuses: [
      {
        name: 'sidecar1',
        containerID: `containerd://${id}`,
        started: true,
        state: { running: {} },
        image: '',
        imageID: '',
        ready: true,
        restartCount: 0,
      },
    ],
  });
  const fresh = probeInputs(pod, st, [], dump('id-sidecar1'));
  assert.deepEqual(
    fresh.inputs.map((i) => [i.container, i.result, i.from]),
    [['sidecar1', 'Success', 'pod-status']],
  );
  assert.deepEqual(
    computePodActions(pod, st, { kubeletVersion: '1.36', probeResults: fresh.results }).initContainersToStart,
    [2],
  );
  assert.deepEqual(
    probeInputs(pod, st, [], dump('older-instance')).inputs,
    [],
    'a stale dump says nothing about the new instance',
  );
  const flagWins = probeInputs(pod, st, probeFlagResults({ startupFailed: ['sidecar1'] }), dump('id-sidecar1'));
  assert.deepEqual(
    flagWins.inputs.map((i) => [i.result, i.from]),
    [['Failure', 'flag']],
  );
});

test('probe inputs: an unknown container or contradicting flags are one-line errors', () => {
  const pod = sidecarWithStartupProbe();
  const st = healthyStatus(pod, 'name+image');
  const oneLine = (re: RegExp) => (e: unknown) =>
    e instanceof SyncpodError && !e.message.includes('\n') && re.test(e.message);
  assert.throws(
    () => probeInputs(pod, st, probeFlagResults({ startupSucceeded: ['nope'] })),
    oneLine(/^--startup-succeeded: pod shop\/web has no container named "nope"$/),
  );
  assert.throws(
    () => probeInputs(pod, st, probeFlagResults({ startupFailed: ['sidecar1'], startupSucceeded: ['sidecar1'] })),
    oneLine(/^--startup-succeeded: container "sidecar1" of pod shop\/web is also given --startup-failed$/),
  );
});

// --- the plan says which kubelet and gates it used ---

test('the plan names the kubelet version and every gate with where it came from', () => {
  const pod = basePod();
  const rules = resolveKubeletRules('v1.35.2', { ImageVolume: false }, { featureGates: { EnvFiles: false } });
  const p = buildPlan({ pod, podStatus: healthyStatus(pod, 'name+image'), now: T0, options: { rules } });
  assert.deepEqual(
    [p.kubeletVersion, p.kubelet.version, p.kubelet.origin, p.kubelet.rulesVersion],
    ['1.35.2', '1.35.2', 'flag', '1.35'],
  );
  assert.deepEqual(p.kubelet.gates.ImageVolume, { enabled: false, origin: 'flag', stage: 'beta', locked: false });
  assert.deepEqual(p.kubelet.gates.EnvFiles, { enabled: false, origin: 'detected', stage: 'beta', locked: false });
  assert.deepEqual(p.kubelet.gates.ContainerRestartRules, {
    enabled: true,
    origin: 'default',
    stage: 'beta',
    locked: false,
  });
  assert.deepEqual(p.kubelet.gates.InPlacePodVerticalScaling, {
    enabled: true,
    origin: 'default',
    stage: 'ga',
    locked: true,
  });
  assert.equal(p.kubelet.gates.LegacySidecarContainers, undefined, 'a gate 1.35 does not have is not listed');
  const detected = buildPlan({
    pod,
    podStatus: healthyStatus(pod, 'name+image'),
    now: T0,
    options: { rules: resolveKubeletRules(undefined, {}, { version: 'v1.36.1' }) },
  });
  assert.deepEqual([detected.kubelet.version, detected.kubelet.origin], ['1.36.1', 'detected']);
});

test('the plan says when it used the default version, and warns loudly about a newer kubelet', () => {
  const pod = basePod();
  const st = healthyStatus(pod, 'name+image');
  const byDefault = buildPlan({ pod, podStatus: st, now: T0 });
  assert.equal(byDefault.kubelet.origin, 'default');
  assert.ok(
    byDefault.assumptions.includes(
      'No kubelet version was given or detected: planned as kubelet 1.37, the newest mirrored.',
    ),
  );
  const newer = buildPlan({ pod, podStatus: st, now: T0, options: { kubeletVersion: '1.39.0' } });
  assert.match(newer.assumptions[0], /^WARNING: kubelet 1\.39\.0 is newer than the newest mirrored kubelet 1\.37/);
  assert.equal(newer.kubelet.rulesVersion, '1.37');
});

test('the plan lists RestartAllContainers removals as reset steps before any start', () => {
  const pod = restartAllPod();
  const st = healthyStatus(pod, 'name+image');
  setStatus(st, 'app', exited(88));
  const p = buildPlan({ pod, podStatus: st, now: T0, options: { kubeletVersion: '1.36' } });
  assert.deepEqual(
    p.steps.map((s) => [s.action, s.target, s.kill ?? null]),
    [
      ['reset-container', 'log', true],
      ['reset-container', 'proxy', true],
      ['reset-container', 'init1', false],
      ['reset-container', 'init2', false],
      ['reset-container', 'app', false],
    ],
  );
  assert.equal(p.summary.text, 'Plan: reset 5 containers (restart all in place).');
  assert.equal(p.actions.restartAllContainers, true);
  assert.match(p.actions.containersToReset[4].reason, /exited with code 88 matching a RestartAllContainers rule/);
});

// kubelet's TestComputePodActionsWithContainerRestartRules (kuberuntime_manager_test.go, 1.35+),
// re-expressed on this file's base pod: containers 0 and 1 get their own restartPolicy.
const kubeletRestartRuleCases: Array<{
  name: string;
  podPolicy: string;
  own: Record<number, string>;
  mutate: (st: PodStatus) => void;
  expect: { start: number[]; killPod?: boolean; createSandbox?: boolean; attempt?: number };
}> = [
  {
    name: 'restart exited containers if their restartPolicy is Always (pod Never)',
    podPolicy: 'Never',
    own: { 0: 'Always', 1: 'Always' },
    mutate: (st) => (setStatus(st, 'app', exited(0)), setStatus(st, 'log', exited(111))),
    expect: { start: [0, 1] },
  },
  {
    name: 'restart failed containers if their restartPolicy is OnFailure (pod Never)',
    podPolicy: 'Never',
    own: { 0: 'OnFailure', 1: 'OnFailure' },
    mutate: (st) => (setStatus(st, 'app', exited(0)), setStatus(st, 'log', exited(111))),
    expect: { start: [1] },
  },
  {
    name: 'restart created but not started containers if their restartPolicy is OnFailure',
    podPolicy: 'Never',
    own: { 0: 'OnFailure', 1: 'OnFailure' },
    mutate: (st) => (setStatus(st, 'app', exited(0)), setStatus(st, 'log', { state: 'created', startedAt: 0 })),
    expect: { start: [1] },
  },
  {
    name: "don't restart containers whose restartPolicy is Never (pod Always)",
    podPolicy: 'Always',
    own: { 0: 'Never', 1: 'Never' },
    mutate: (st) => (setStatus(st, 'app', exited(0)), setStatus(st, 'log', exited(111))),
    expect: { start: [] },
  },
  {
    name: 'kill the pod and recreate all containers but the succeeded OnFailure one when the sandbox is dead',
    podPolicy: 'Always',
    own: { 1: 'OnFailure' },
    mutate: (st) => ((st.sandboxStatuses[0].state = 'notready'), setStatus(st, 'log', exited(0))),
    expect: { start: [0, 2], killPod: true, createSandbox: true, attempt: 1 },
  },
];

for (const c of kubeletRestartRuleCases) {
  test(`kubelet restart-rule case: ${c.name}`, () => {
    for (const v of ['1.35', '1.36', '1.37']) {
      const pod = basePod();
      pod.spec!.restartPolicy = c.podPolicy;
      for (const [i, p] of Object.entries(c.own)) pod.spec!.containers[Number(i)].restartPolicy = p;
      const a = plan(pod, v, c.mutate);
      assert.deepEqual(
        [a.containersToStart, a.killPod, a.createSandbox, a.attempt],
        [c.expect.start, c.expect.killPod ?? false, c.expect.createSandbox ?? false, c.expect.attempt ?? 0],
        v,
      );
    }
  });
}

// --- in-place resize (InPlacePodVerticalScaling, on from 1.33) ---

function resizablePod(resizePolicy?: Array<{ resourceName: string; restartPolicy: string }>): Pod {
  const pod = basePod();
  Object.assign(pod.spec!.containers[0], {
    resources: { requests: { cpu: '100m', memory: '32Mi' }, limits: { cpu: '200m', memory: '64Mi' } },
    ...(resizePolicy ? { resizePolicy } : {}),
  });
  return pod;
}
const reported = (cpuShares: number, cpuQuota: number, memoryLimitInBytes: number) => (st: PodStatus) =>
  setStatus(st, 'app', { resources: { cpuShares, cpuQuota, cpuPeriod: 100000, memoryLimitInBytes } });

/** The plan of resizablePod() as kubelet 1.36 on a node whose runtime reports `report`'s resources. */
const resizePlan = (report: (st: PodStatus) => void) => {
  const st = healthyStatus(resizablePod(), 'name+image');
  report(st);
  return buildPlan({ pod: resizablePod(), podStatus: st, now: T0, options: { kubeletVersion: '1.36' } });
};

test('resize: resources the runtime reports as the spec wants are kept', () => {
  const a = plan(resizablePod(), '1.36', reported(102, 20000, 64 * 1024 * 1024));
  assert.deepEqual([a.containersToUpdate, a.containersToKill, a.containersToStart], [[], [], []]);
});

test('resize: changed CPU is updated in place (resizePolicy NotRequired by default)', () => {
  const a = plan(resizablePod(), '1.36', reported(51, 10000, 64 * 1024 * 1024));
  assert.deepEqual(
    a.containersToUpdate.map((u) => [u.name, u.resources, u.desired.cpuShares, u.desired.cpuQuota]),
    [['app', ['cpu'], 102, 20000]],
  );
  assert.deepEqual([a.containersToKill, a.containersToStart, a.killPod], [[], [], false]);
  const p = resizePlan(reported(51, 10000, 64 * 1024 * 1024));
  // The pod's CPU request grows (shares 50 → 102): kubelet raises the pod cgroup first and tells
  // the runtime (UpdatePodSandboxResources, 1.34+), then updates the container.
  assert.deepEqual(
    p.steps.map((s) => [s.action, s.target]),
    [
      ['update-pod-sandbox-resources', 'shop/web'],
      ['update-container-resources', 'app'],
    ],
  );
  assert.deepEqual(p.steps[0].resources, { cpuShares: 102, cpuQuota: -1, cpuPeriod: 0, memoryLimitInBytes: -1 });
  assert.match(p.steps[0].reason, /pod CPU request \(shares\) raised before the containers/);
  assert.equal(p.summary.text, 'Plan: resize pod and 1 container in place.');
  assert.match(p.steps[1].reason, /cpu shares 51 → 102, quota 10000 → 20000/);
});

test('resize: a changed memory limit is said in quantities as the manifest writes them, not bytes', () => {
  const p = resizePlan(reported(102, 20000, 32 * 1024 * 1024));
  const step = p.steps.find((s) => s.action === 'update-container-resources');
  assert.equal(step?.reason, "in-place resize (runtime's report → spec): memory limit 32Mi → 64Mi");
  assert.equal(step?.resources?.memoryLimitInBytes, 64 * 1024 * 1024, 'the CRI value stays bytes');
  const none = resizePlan(reported(102, 20000, 0));
  assert.match(
    none.steps.find((s) => s.action === 'update-container-resources')?.reason ?? '',
    /memory limit none → 64Mi$/,
  );
});

test('resize: a changed resource whose resizePolicy is RestartContainer restarts the container', () => {
  const pod = resizablePod([{ resourceName: 'memory', restartPolicy: 'RestartContainer' }]);
  const a = plan(pod, '1.36', reported(102, 20000, 32 * 1024 * 1024));
  assert.deepEqual(
    [a.containersToKill.map((k) => [k.name, k.why]), a.containersToStart, a.containersToUpdate],
    [[['app', 'resize-restart']], [0], []],
  );
  assert.equal(
    startReasonText(a.containerStarts[0].reason),
    'resize of memory requires a restart (resizePolicy RestartContainer)',
  );
  const cpuOnly = plan(pod, '1.36', reported(51, 10000, 64 * 1024 * 1024));
  assert.deepEqual(
    cpuOnly.containersToUpdate.map((u) => u.resources),
    [['cpu']],
    'cpu is NotRequired',
  );
});

test('resize: not evaluated with the gate off (1.32 default) or without a runtime report', () => {
  assert.deepEqual(plan(resizablePod(), '1.32', reported(51, 10000, 1)).containersToUpdate, []);
  assert.deepEqual(plan(resizablePod(), '1.36').containersToUpdate, [], 'no resources reported');
  assert.deepEqual(
    plan(resizablePod(), '1.36', reported(51, 10000, 1), { featureGates: {} }).containersToUpdate.length,
    1,
  );
});
