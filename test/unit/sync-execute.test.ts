// executePlan with a hand-written fake CRI and filesystem (no module mocking): SyncPod's order,
// where a failure stops the sync, what is left behind, restart counts, pull policy, grace periods.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../src/kubelet/api-types';
import { buildPlan } from '../../src/plan/plan';
import type { PodStatus } from '../../src/kubelet/types';
import { executePlan, type ExecuteDeps } from '../../src/sync/execute';
import { syncPod } from '../../src/sync/sync-pod';
import {
  T0,
  basePod,
  healthyStatus,
  podWithInits,
  podWithSidecars,
  sandbox,
  setStatus,
} from '../fixtures/planner/base';
import { GATES_133 } from '../fixtures/gates';
import { FakeCri, FakeFs } from '../fixtures/fake-cri';
import { FakeClock } from '../fixtures/fake-clock';

function deps(cri: FakeCri, fs = new FakeFs(), clock = new FakeClock(T0)): ExecuteDeps {
  return {
    runtime: cri as any,
    image: cri as any,
    fs,
    clock,
    randomHex: () => '0badc0de',
    requestTimeoutMs: 120000,
    pullTimeoutMs: 600000,
  };
}

const NODE = {
  podLogsRoot: '/logs',
  kubeletRoot: '/kubelet',
  resolvConf: null,
  clusterDomain: 'cluster.local',
  hugePageSizes: [],
  gates: GATES_133,
};

function emptyStatus(pod: Pod): PodStatus {
  return {
    uid: pod.metadata!.uid!,
    name: pod.metadata!.name!,
    namespace: pod.metadata!.namespace!,
    ips: [],
    sandboxStatuses: [],
    containerStatuses: [],
  };
}

function input(pod: Pod, st: PodStatus) {
  const plan = buildPlan({ pod, podStatus: st, now: T0 + 3600_000 });
  return {
    plan,
    pod,
    status: st,
    sandboxOptions: { ...NODE, configSeen: '2025-01-01T12:00:00.000000000Z' },
    containerOptions: NODE,
    legacyLogDir: '/containers',
  };
}

function withPolicy(pod: Pod, policy: 'IfNotPresent' | 'Never' | 'Always'): Pod {
  for (const c of pod.spec!.containers) (c as any).imagePullPolicy = policy;
  for (const c of pod.spec!.initContainers ?? []) (c as any).imagePullPolicy = policy;
  return pod;
}

test('from nothing: sandbox, then each container pulled per policy, created and started in spec order', async () => {
  const cri = new FakeCri();
  const pod = withPolicy(basePod(), 'IfNotPresent');
  const out = await executePlan(input(pod, emptyStatus(pod)), deps(cri));
  assert.equal(out.ok, true);
  assert.deepEqual(
    out.results.map((r) => `${r.action} ${r.target}`),
    ['create-sandbox shop/web attempt 0', 'start-container app', 'start-container log', 'start-container proxy'],
  );
  assert.deepEqual(cri.methods(), [
    'RunPodSandbox',
    'PodSandboxStatus',
    'ImageStatus',
    'CreateContainer',
    'StartContainer',
    'ImageStatus',
    'CreateContainer',
    'StartContainer',
    'ImageStatus',
    'CreateContainer',
    'StartContainer',
  ]);
  // Every call of a step has kubelet's runtimeRequestTimeout (ImageStatus and PodSandboxStatus too),
  // not the CRI deadline of --timeout: a runtime that pauses mid-sync is waited for, as kubelet waits.
  assert.deepEqual(
    cri.calls.filter((c) => !(c.timeoutMs !== undefined && c.timeoutMs >= 120000)).map((c) => c.method),
    [],
  );
  const create = cri.calls.find((c) => c.method === 'CreateContainer')!.req;
  assert.equal(create.podSandboxId, 'sb-new');
  assert.equal(create.config.image.image, 'sha256:nginx:1.25', 'the image id, not the name');
  assert.equal(create.sandboxConfig.metadata.attempt, 0);
  assert.deepEqual(create.config.envs, [], 'no env in the spec, no services: no variables');
});

test('a failing regular container start is recorded and the next container is still started', async () => {
  const cri = new FakeCri();
  cri.fail.set('StartContainer', (r) => r.containerId.endsWith('-app'));
  const pod = withPolicy(basePod(), 'IfNotPresent');
  const out = await executePlan(input(pod, emptyStatus(pod)), deps(cri));
  assert.equal(out.ok, false);
  assert.equal(out.stoppedAt, undefined);
  assert.deepEqual(
    out.results.map((r) => `${r.target}:${r.ok ? 'ok' : r.error}`),
    ['shop/web attempt 0:ok', 'app:RunContainerError', 'log:ok', 'proxy:ok'],
  );
  assert.ok(!cri.methods().includes('RemoveContainer'), 'the created container is left, as kubelet leaves it');
});

test('a failing init container start stops the sync; nothing is cleaned up', async () => {
  const cri = new FakeCri();
  cri.fail.set('CreateContainer', () => true);
  const pod = withPolicy(podWithInits(), 'IfNotPresent');
  const out = await executePlan(input(pod, emptyStatus(pod)), deps(cri));
  assert.equal(out.ok, false);
  assert.equal(out.stoppedAt, 2);
  assert.equal(out.results[1].error, 'CreateContainerError');
  assert.ok(!cri.methods().some((m) => m === 'StopPodSandbox' || m === 'RemovePodSandbox'), 'the sandbox stays');
});

test('RunPodSandbox failing stops before any container', async () => {
  const cri = new FakeCri();
  cri.fail.set('RunPodSandbox', () => true);
  const pod = basePod();
  const out = await executePlan(input(pod, emptyStatus(pod)), deps(cri));
  assert.equal(out.stoppedAt, 1);
  assert.equal(out.results.length, 1);
  assert.equal(out.results[0].error, 'CreatePodSandboxError');
  assert.match(out.results[0].message, /^Failed to create sandbox for pod "web_shop\(uid-1234\)": /);
  assert.deepEqual(cri.methods(), ['RunPodSandbox']);
});

test('the first failing container kill stops the sync before any start', async () => {
  const cri = new FakeCri();
  cri.fail.set('StopContainer', () => true);
  const pod = basePod();
  const st = healthyStatus(pod, 'name+image');
  setStatus(st, 'log', { hash: 'deadbeef' });
  const out = await executePlan(input(pod, st), deps(cri));
  assert.deepEqual(
    out.results.map((r) => `${r.action}:${r.ok ? 'ok' : r.error}`),
    ['kill-container:KillContainerError'],
  );
  assert.ok(!cri.methods().includes('CreateContainer'));
});

test('a changed container is stopped with the pod grace period (minimum 2s), then started with restart count + 1', async () => {
  const cri = new FakeCri();
  const pod = withPolicy(basePod(), 'IfNotPresent');
  pod.spec!.terminationGracePeriodSeconds = 1;
  const st = healthyStatus(pod, 'name+image');
  setStatus(st, 'log', { hash: 'deadbeef', restartCount: 4 });
  const out = await executePlan(input(pod, st), deps(cri));
  assert.equal(out.ok, true, JSON.stringify(out.results));
  const stop = cri.calls.find((c) => c.method === 'StopContainer')!.req;
  assert.deepEqual(stop, { containerId: 'id-log', timeout: '2' });
  const create = cri.calls.find((c) => c.method === 'CreateContainer')!.req;
  assert.equal(create.config.metadata.attempt, 5);
  assert.equal(create.config.logPath, 'log/5.log');
  assert.equal(create.podSandboxId, 'sb1');
});

test('kill-pod: running containers stopped, then every sandbox stopped; init containers purged before the new sandbox', async () => {
  const cri = new FakeCri();
  const pod = withPolicy(podWithInits(), 'IfNotPresent');
  const st = healthyStatus(pod, 'name+image');
  st.sandboxStatuses = [sandbox('sb2', { attempt: 1 }), sandbox('sb1', { state: 'notready', createdAt: T0 - 1000 })];
  st.sandboxStatuses[0].state = 'notready';
  st.ips = [];
  const out = await executePlan(input(pod, st), deps(cri));
  const m = cri.methods();
  const firstStopSb = m.indexOf('StopPodSandbox');
  assert.ok(m.lastIndexOf('StopContainer') < firstStopSb, 'containers before sandboxes');
  assert.equal(m.filter((x) => x === 'StopContainer').length, 3);
  assert.deepEqual(
    cri.calls.filter((c) => c.method === 'StopPodSandbox').map((c) => c.req.podSandboxId),
    ['sb2', 'sb1'],
  );
  assert.deepEqual(
    cri.calls.filter((c) => c.method === 'RemoveContainer').map((c) => c.req.containerId),
    ['id-init1', 'id-init2'],
  );
  assert.ok(m.lastIndexOf('RemoveContainer') < m.indexOf('RunPodSandbox'));
  assert.equal(cri.calls.find((c) => c.method === 'RunPodSandbox')!.req.config.metadata.attempt, 2);
  assert.deepEqual(
    out.results.map((r) => r.action),
    ['kill-pod', 'remove-init-container', 'remove-init-container', 'create-sandbox', 'start-init-container'],
  );
});

test('pull policy Never with the image absent: ErrImageNeverPull, no pull', async () => {
  const cri = new FakeCri();
  cri.images.clear();
  const pod = withPolicy(basePod(), 'Never');
  const out = await executePlan(input(pod, emptyStatus(pod)), deps(cri));
  assert.equal(out.results[1].error, 'ErrImageNeverPull');
  assert.equal(out.results[1].message, 'Container image "nginx:1.25" is not present with pull policy of Never');
  assert.ok(!cri.methods().includes('PullImage'));
});

test('pull policy Always pulls even when present; IfNotPresent pulls only when absent', async () => {
  const cri = new FakeCri();
  cri.images.delete('busybox:1.36');
  const pod = withPolicy(basePod(), 'IfNotPresent');
  (pod.spec!.containers[0] as any).imagePullPolicy = 'Always';
  await executePlan(input(pod, emptyStatus(pod)), deps(cri));
  assert.deepEqual(
    cri.calls.filter((c) => c.method === 'PullImage').map((c) => c.req.image.image),
    ['nginx:1.25', 'busybox:1.36'],
  );
});

test('without a status of that name the restart count comes from the log directory', async () => {
  const cri = new FakeCri();
  const fs = new FakeFs();
  fs.dirs.set('/logs/shop_web_uid-1234/app', ['0.log', '3.log.20240101-000000', 'x.log']);
  const pod = withPolicy(basePod(), 'IfNotPresent');
  await executePlan(input(pod, emptyStatus(pod)), deps(cri, fs));
  const byName = (n: string) =>
    cri.calls.find((c) => c.method === 'CreateContainer' && c.req.config.metadata.name === n)!.req.config;
  assert.equal(byName('app').metadata.attempt, 4);
  assert.equal(byName('log').metadata.attempt, 0);
});

test('a failing postStart exec hook kills the container (FailedPostStartHook) and fails the step', async () => {
  const cri = new FakeCri();
  cri.handlers.ExecSync = () => ({ exitCode: 7, stdout: new Uint8Array(), stderr: Buffer.from('nope\n') });
  const pod = withPolicy(basePod(), 'IfNotPresent');
  pod.spec!.containers = [pod.spec!.containers[0]];
  (pod.spec!.containers[0] as any).lifecycle = { postStart: { exec: { command: ['false'] } } };
  const out = await executePlan(input(pod, emptyStatus(pod)), deps(cri));
  assert.equal(out.results[1].error, 'PostStartHookError');
  assert.match(out.results[1].message, /PostStartHook failed: postStart hook exited with code 7: nope/);
  assert.deepEqual(cri.methods().slice(-3), ['StartContainer', 'ExecSync', 'StopContainer']);
});

test('syncPod --wait: waits for the started init container, re-plans and continues', async () => {
  const cri = new FakeCri();
  const pod = withPolicy(podWithInits(), 'IfNotPresent');
  const st = emptyStatus(pod);
  let replans = 0;
  const started: string[] = [];
  const out = await syncPod(
    { ...input(pod, st), wait: true, waitTimeoutMs: 1000 },
    {
      ...deps(cri),
      confirmKill: async () => undefined,
      replan: async (p) => {
        replans++;
        // What the runtime would report: the started init containers have exited 0.
        const now = healthyStatus(p, 'name+image');
        now.containerStatuses = now.containerStatuses.filter((s) => started.includes(s.name));
        return { plan: buildPlan({ pod: p, podStatus: now, now: T0 + 3600_000 }), status: now };
      },
    },
    { stepFinished: (r) => (r.ok && r.action === 'start-init-container' ? started.push(r.target) : undefined) },
  );
  assert.equal(out.ok, true, JSON.stringify(out.results));
  assert.equal(replans, 2);
  assert.deepEqual(
    out.results.map((r) => `${r.round}:${r.action} ${r.target}`),
    [
      '1:create-sandbox shop/web attempt 0',
      '1:start-init-container init1',
      '1:wait-init-container init1',
      '2:start-init-container init2',
      '2:wait-init-container init2',
      '3:start-container app',
      '3:start-container log',
      '3:start-container proxy',
    ],
  );
});

test('syncPod --wait: an init container found running (an interrupted sync) is waited for, then the pod goes on', async () => {
  const cri = new FakeCri();
  const pod = withPolicy(podWithInits(), 'IfNotPresent');
  pod.spec!.initContainers = pod.spec!.initContainers!.slice(0, 1);
  const st = healthyStatus(pod, 'name+image');
  st.containerStatuses = st.containerStatuses.filter((s) => s.name === 'init1');
  setStatus(st, 'init1', { state: 'running', finishedAt: 0 });
  const first = input(pod, st);
  assert.equal(first.plan.changes, false, 'kubelet has nothing to do while an init container runs');
  const out = await syncPod(
    { ...first, wait: true, waitTimeoutMs: 1000 },
    {
      ...deps(cri),
      confirmKill: async () => undefined,
      replan: async (p) => {
        const now = healthyStatus(p, 'name+image');
        now.containerStatuses = now.containerStatuses.filter((s) => s.name === 'init1');
        return { plan: buildPlan({ pod: p, podStatus: now, now: T0 + 3600_000 }), status: now };
      },
    },
  );
  assert.equal(out.ok, true, JSON.stringify(out.results));
  assert.deepEqual(
    out.results.map((r) => `${r.round}:${r.action} ${r.target}`),
    ['1:wait-init-container init1', '2:start-container app', '2:start-container log', '2:start-container proxy'],
  );
  assert.equal(cri.calls.find((c) => c.method === 'ContainerStatus')?.req.containerId, st.containerStatuses[0]!.id);

  // Running sidecars (restartable init containers) are expected to keep running: nothing to wait for.
  const cri2 = new FakeCri();
  const side = podWithSidecars();
  const healthy = healthyStatus(side, 'name+image');
  const done = await syncPod(
    { ...input(side, healthy), wait: true, waitTimeoutMs: 1000 },
    { ...deps(cri2), confirmKill: async () => undefined, replan: async () => assert.fail('no re-plan') },
  );
  assert.equal(done.ok, true);
  assert.deepEqual(done.results, []);
  assert.deepEqual(cri2.methods(), []);
});

test('ImageVolume and EnvFiles (kubelet 1.36 gates): image volumes pulled once before use, env files read from the volume', async () => {
  const { gatesAt } = await import('../fixtures/gates');
  const cri = new FakeCri();
  const pod = withPolicy(basePod(), 'IfNotPresent');
  pod.spec!.volumes = [
    { name: 'models', image: { reference: 'models:v2', pullPolicy: 'IfNotPresent' } },
    { name: 'cfg', emptyDir: {} },
  ] as any;
  for (const c of pod.spec!.containers) c.volumeMounts = [{ name: 'models', mountPath: '/models', readOnly: true }];
  pod.spec!.containers[0]!.volumeMounts!.push({ name: 'cfg', mountPath: '/cfg' });
  (pod.spec!.containers[0] as any).env = [
    { name: 'TOKEN', valueFrom: { fileKeyRef: { volumeName: 'cfg', path: 'a.env', key: 'TOKEN' } } },
  ];
  const fs = new FakeFs();
  const file = `/kubelet/pods/${pod.metadata!.uid}/volumes/kubernetes.io~empty-dir/cfg/a.env`;
  fs.readInVolume = (v: string, rel: string) => (`${v}/${rel}` === file ? "TOKEN='from-file'\n" : undefined);
  const node = { ...NODE, gates: gatesAt(36) };
  const inp = {
    ...input(pod, emptyStatus(pod)),
    sandboxOptions: { ...node, configSeen: '2025-01-01T12:00:00.000000000Z' },
    containerOptions: node,
  };
  const out = await executePlan(inp, deps(cri, fs));
  assert.equal(out.ok, true, JSON.stringify(out.results));
  const pulls = cri.calls.filter((c) => c.method === 'PullImage').map((c) => c.req.image.image);
  assert.deepEqual(
    pulls.filter((i) => i.startsWith('models')),
    ['models:v2'],
    'pulled once for all containers',
  );
  const creates = cri.calls.filter((c) => c.method === 'CreateContainer').map((c) => c.req.config);
  for (const cfg of creates)
    assert.equal(cfg.mounts.find((m: any) => m.containerPath === '/models').image.image, 'sha256:models:v2');
  const envs = Object.fromEntries(creates[0].envs.map((e: any) => [e.key, new TextDecoder().decode(e.value)]));
  assert.equal(envs.TOKEN, 'from-file');
});

test('a postStart sleep hook waits its seconds before the step ends (kubelet bounds it by nothing but the pod)', async () => {
  const cri = new FakeCri();
  const clock = new FakeClock(T0);
  const pod = withPolicy(basePod(), 'IfNotPresent');
  pod.spec!.containers = [pod.spec!.containers[0]];
  pod.spec!.terminationGracePeriodSeconds = 3;
  (pod.spec!.containers[0] as any).lifecycle = { postStart: { sleep: { seconds: 7 } } };
  const out = await executePlan(input(pod, emptyStatus(pod)), deps(cri, new FakeFs(), clock));
  assert.equal(out.ok, true, JSON.stringify(out.results));
  assert.deepEqual(clock.slept, [7000]);
  assert.ok(out.results[1].durationMs >= 7000, `the step lasted ${out.results[1].durationMs} ms of the clock`);
  assert.match(out.results[1].message, /postStart sleep 7s$/);
});

test('a preStop sleep hook waits at most the grace period, then the container is stopped with the minimum grace', async () => {
  const cri = new FakeCri();
  const clock = new FakeClock(T0);
  const pod = withPolicy(basePod(), 'IfNotPresent');
  pod.spec!.terminationGracePeriodSeconds = 10;
  (pod.spec!.containers[1] as any).lifecycle = { preStop: { sleep: { seconds: 30 } } };
  const st = healthyStatus(pod, 'name+image');
  setStatus(st, 'log', { hash: 'deadbeef' });
  const out = await executePlan(input(pod, st), deps(cri, new FakeFs(), clock));
  assert.equal(out.ok, true, JSON.stringify(out.results));
  assert.deepEqual(clock.slept, [10000]);
  assert.deepEqual(cri.calls.find((c) => c.method === 'StopContainer')!.req, { containerId: 'id-log', timeout: '2' });
});

test('a failing preStop exec hook is noted and the container is stopped anyway, as kubelet does', async () => {
  const cri = new FakeCri();
  cri.handlers.ExecSync = () => ({ exitCode: 1, stdout: new Uint8Array(), stderr: Buffer.from('drain failed\n') });
  const pod = withPolicy(basePod(), 'IfNotPresent');
  pod.spec!.terminationGracePeriodSeconds = 30;
  (pod.spec!.containers[1] as any).lifecycle = { preStop: { exec: { command: ['drain'] } } };
  const st = healthyStatus(pod, 'name+image');
  setStatus(st, 'log', { hash: 'deadbeef' });
  const out = await executePlan(input(pod, st), deps(cri));
  assert.equal(out.results[0].ok, true, JSON.stringify(out.results[0]));
  assert.match(out.results[0].message, /log: preStop hook failed: preStop hook exited with code 1: drain failed/);
  assert.deepEqual(cri.methods().slice(0, 2), ['ExecSync', 'StopContainer']);
});

test('an interrupted sync (SIGINT/SIGTERM) begins no further step and says where it stopped', async () => {
  const cri = new FakeCri();
  const pod = withPolicy(basePod(), 'IfNotPresent');
  const first = input(pod, emptyStatus(pod));
  let finished = 0;
  const out = await syncPod(
    { ...first, wait: false, waitTimeoutMs: 1000 },
    {
      ...deps(cri),
      interrupted: () => (finished >= 1 ? 'interrupted by SIGTERM' : undefined),
      confirmKill: async () => undefined,
      replan: async () => assert.fail('no re-plan'),
    },
    { stepFinished: () => void finished++ },
  );
  assert.equal(out.ok, false);
  assert.deepEqual(
    out.results.map((r) => r.action),
    ['create-sandbox'],
  );
  assert.equal(out.stopped, 'interrupted by SIGTERM before step 2 of plan 1');
  assert.ok(!cri.methods().includes('CreateContainer'), cri.methods().join(' '));
});

test('an interrupted sync --wait stops waiting for the init container and says so', async () => {
  const cri = new FakeCri();
  cri.handlers.ContainerStatus = (req: any) => ({ status: { id: req.containerId, state: 'CONTAINER_RUNNING' } });
  const pod = withPolicy(podWithInits(), 'IfNotPresent');
  let polls = 0;
  const out = await syncPod(
    { ...input(pod, emptyStatus(pod)), wait: true, waitTimeoutMs: 3_600_000 },
    {
      ...deps(cri),
      interrupted: () =>
        cri.methods().filter((m) => m === 'ContainerStatus').length >= 2 ? 'interrupted by SIGINT' : undefined,
      confirmKill: async () => undefined,
      replan: async () => assert.fail('no re-plan after an interruption'),
    },
    { stepStarted: (_r, s) => (s.action === 'wait-init-container' ? void polls++ : undefined) },
  );
  assert.equal(polls, 1);
  const last = out.results.at(-1)!;
  assert.deepEqual(
    [last.action, last.target, last.ok, last.error],
    ['wait-init-container', 'init1', false, 'Interrupted'],
  );
  assert.equal(out.stopped, 'interrupted by SIGINT while waiting for init container init1 to finish');
});
