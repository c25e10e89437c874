// In-place resize as kubelet v1.37.2 does it (doPodResizeAction, measured with the oracle): the
// order of the calls (memory before CPU, decreases before increases, the pod cgroup raised before
// and lowered after the containers, UpdatePodSandboxResources from 1.33), where SyncPod resizes
// (1.37: before the init containers start), and the executor's handling of a runtime without
// UpdatePodSandboxResources.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../src/kubelet/api-types';
import type { PodStatus } from '../../src/kubelet/types';
import { buildPlan, type Plan } from '../../src/plan/plan';
import { executePlan, type ExecuteDeps } from '../../src/sync/execute';
import { GATES_133 } from '../fixtures/gates';
import { T0, basePod, healthyStatus, podWithSidecars, setStatus } from '../fixtures/planner/base';
import { FakeCri, FakeFs } from '../fixtures/fake-cri';
import { FakeClock } from '../fixtures/fake-clock';
import { CriCallError } from '../../src/cri/grpc-runtime-service';
import { resourceConfigForPod } from '../../src/kubelet/pod-resize';
import { resolveKubeletRules } from '../../src/kubelet/kubelet-version';

const Mi = 1024 * 1024;
const res = (cpuShares: number, cpuQuota: number, memoryLimitInBytes: number) => ({
  cpuShares,
  cpuQuota,
  cpuPeriod: 100000,
  memoryLimitInBytes,
});

function planOf(pod: Pod, mutate: (st: PodStatus) => void, kubeletVersion = '1.37'): Plan {
  const st = healthyStatus(pod, 'name+image');
  mutate(st);
  return buildPlan({ pod, podStatus: st, now: T0 + 3600_000, options: { kubeletVersion } });
}

const lines = (p: Plan) =>
  p.steps.map((s) =>
    s.resources
      ? `${s.action} ${s.target} shares=${s.resources.cpuShares} quota=${s.resources.cpuQuota} memory=${s.resources.memoryLimitInBytes}`
      : `${s.action} ${s.target}`,
  );

test('two containers resized: memory first, then CPU; decreases before increases; one call per resource', () => {
  // The oracle's case "Regression: memory and CPU resized on two containers" (kubelet v1.37.2's calls).
  const pod = basePod();
  pod.spec!.containers[0].resources = {
    requests: { cpu: '500m', memory: '128Mi' },
    limits: { cpu: '1', memory: '256Mi' },
  };
  pod.spec!.containers[1].resources = {
    requests: { cpu: '100m', memory: '64Mi' },
    limits: { cpu: '200m', memory: '1Gi' },
  };
  const p = planOf(pod, (st) => {
    setStatus(st, 'app', { resources: res(102, 20000, 512 * Mi) });
    setStatus(st, 'log', { resources: res(512, 100000, 128 * Mi) });
  });
  assert.deepEqual(lines(p), [
    // memory: app's limit goes down (first), log's up; the pod has no memory limit (proxy has none)
    'update-container-resources app shares=101 quota=20000 memory=268435456',
    'update-container-resources log shares=512 quota=100000 memory=1073741824',
    // CPU: the pod's request grows a little (99m+500m → 500m+100m), so the pod cgroup goes first
    'update-pod-sandbox-resources shop/web shares=614 quota=-1 memory=-1',
    'update-container-resources log shares=102 quota=20000 memory=1073741824',
    'update-container-resources app shares=512 quota=100000 memory=268435456',
  ]);
  assert.equal(p.summary.text, 'Plan: resize pod and 2 containers in place.');
});

test('a Guaranteed pod with overhead shrinks: containers first, then the pod cgroup, sent without the overhead', () => {
  const pod = basePod();
  pod.spec!.overhead = { cpu: '250m', memory: '120Mi' };
  for (const c of pod.spec!.containers)
    c.resources = { requests: { cpu: '200m', memory: '128Mi' }, limits: { cpu: '200m', memory: '128Mi' } };
  pod.spec!.containers[2].resources = {
    requests: { cpu: '100m', memory: '64Mi' },
    limits: { cpu: '100m', memory: '64Mi' },
  };
  const p = planOf(pod, (st) => {
    for (const s of st.containerStatuses) s.resources = res(204, 20000, 128 * Mi);
  });
  assert.deepEqual(lines(p), [
    'update-container-resources proxy shares=203 quota=20000 memory=67108864',
    'update-pod-sandbox-resources shop/web shares=613 quota=60000 memory=335544320',
    'update-container-resources proxy shares=102 quota=10000 memory=67108864',
    'update-pod-sandbox-resources shop/web shares=512 quota=60000 memory=335544320',
    'update-pod-sandbox-resources shop/web shares=512 quota=50000 memory=335544320',
  ]);
  // The overhead goes beside the resources (request = limit).
  assert.deepEqual(p.steps[1].overhead, res(256, 25000, 120 * Mi));
});

test('1.37 resizes before it starts init containers; 1.36 and 1.33 after them, with the pod-level call (kubelet v1.33.13 makes it too)', () => {
  const pod = podWithSidecars();
  pod.spec!.containers[0].resources = { requests: { cpu: '200m' }, limits: { cpu: '400m' } };
  const mutate = (st: PodStatus) => {
    setStatus(st, 'sidecar2', { state: 'exited', exitCode: 1, finishedAt: T0 + 60_000 });
    setStatus(st, 'app', { resources: res(102, 20000, 0) });
  };
  const actions = (p: Plan) => p.steps.map((s) => `${s.action} ${s.target}`);
  assert.deepEqual(actions(planOf(pod, mutate, '1.37')), [
    'update-pod-sandbox-resources shop/web',
    'update-container-resources app',
    'start-init-container sidecar2',
  ]);
  assert.deepEqual(actions(planOf(pod, mutate, '1.36')), [
    'start-init-container sidecar2',
    'update-pod-sandbox-resources shop/web',
    'update-container-resources app',
  ]);
  assert.deepEqual(actions(planOf(pod, mutate, '1.33')), [
    'start-init-container sidecar2',
    'update-pod-sandbox-resources shop/web',
    'update-container-resources app',
  ]);
});

test('1.37: a container started again with other resources than it ran with resizes the pod cgroup first', () => {
  const pod = basePod();
  pod.spec!.containers[0].resources = { requests: { cpu: '500m', memory: '64Mi' }, limits: { memory: '64Mi' } };
  const mutate = (st: PodStatus) =>
    setStatus(st, 'app', { state: 'exited', exitCode: 1, finishedAt: T0 + 60_000, resources: res(102, 0, 64 * Mi) });
  assert.deepEqual(lines(planOf(pod, mutate, '1.37')), [
    'update-pod-sandbox-resources shop/web shares=512 quota=-1 memory=-1',
    'start-container app',
  ]);
  assert.deepEqual(lines(planOf(pod, mutate, '1.36')), ['start-container app']);
});

function deps(cri: FakeCri): ExecuteDeps {
  return {
    runtime: cri as any,
    image: cri as any,
    fs: new FakeFs(),
    clock: new FakeClock(T0),
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

async function executeResize(kubeletVersion: string, cri: FakeCri) {
  const pod = basePod();
  pod.spec!.containers[0].resources = { requests: { cpu: '200m' }, limits: { cpu: '400m' } };
  const st = healthyStatus(pod, 'name+image');
  setStatus(st, 'app', { resources: res(102, 20000, 0) });
  const plan = buildPlan({ pod, podStatus: st, now: T0 + 3600_000, options: { kubeletVersion } });
  return executePlan(
    {
      plan,
      pod,
      status: st,
      sandboxOptions: { ...NODE, configSeen: '2025-01-01T12:00:00.000000000Z' },
      containerOptions: NODE,
      legacyLogDir: '/containers',
    },
    deps(cri),
  );
}

test('sync: a runtime without UpdatePodSandboxResources (Unimplemented, or containerd 2.2 Unknown "not implemented") is skipped', async () => {
  for (const [code, details] of [
    [12, 'unknown method UpdatePodSandboxResources'],
    [2, 'not implemented yet'],
  ] as const) {
    const cri = new FakeCri();
    cri.handlers.UpdatePodSandboxResources = () => {
      throw new CriCallError(`UpdatePodSandboxResources: ${details}`, code, details);
    };
    cri.handlers.UpdateContainerResources = () => ({});
    const out = await executeResize('1.37', cri);
    assert.equal(out.ok, true, details);
    assert.deepEqual(cri.methods(), ['UpdatePodSandboxResources', 'UpdateContainerResources']);
    const sent = cri.calls[0].req;
    assert.equal(sent.podSandboxId, 'sb1');
    assert.equal(sent.resources.cpuShares, '204');
  }
});

test('sync: another UpdatePodSandboxResources failure rejects the resize from 1.36, and is ignored by 1.34/1.35', async () => {
  const failing = () => {
    const cri = new FakeCri();
    cri.handlers.UpdatePodSandboxResources = () => {
      throw new CriCallError('UpdatePodSandboxResources: invalid', 3, 'invalid');
    };
    cri.handlers.UpdateContainerResources = () => ({});
    return cri;
  };
  const c37 = failing();
  const r37 = await executeResize('1.37', c37);
  assert.equal(r37.ok, false);
  assert.deepEqual(c37.methods(), ['UpdatePodSandboxResources']);
  const c35 = failing();
  const r35 = await executeResize('1.35', c35);
  assert.equal(r35.ok, true);
  assert.deepEqual(c35.methods(), ['UpdatePodSandboxResources', 'UpdateContainerResources']);
});

test('sync --dry-run: an image the run pulled is present for a later container that never pulls (as on the node)', async () => {
  const { dryRunCri } = await import('../../src/sync/dry-run');
  const cri = new FakeCri();
  cri.images.clear();
  const recorded: Array<{ rpc: string }> = [];
  const img = dryRunCri(cri as any, 'ImageService', recorded as any) as any;
  const pod = basePod();
  for (const c of pod.spec!.containers) c.image = 'busybox:1.36';
  pod.spec!.containers[0].imagePullPolicy = 'IfNotPresent';
  pod.spec!.containers[1].imagePullPolicy = 'Never';
  pod.spec!.containers[2].imagePullPolicy = 'IfNotPresent';
  const st: PodStatus = {
    uid: 'uid-1234',
    name: 'web',
    namespace: 'shop',
    ips: [],
    sandboxStatuses: [],
    containerStatuses: [],
  };
  const plan = buildPlan({ pod, podStatus: st, now: T0 });
  const d = deps(cri);
  const out = await executePlan(
    {
      plan,
      pod,
      status: st,
      sandboxOptions: { ...NODE, configSeen: '2025-01-01T12:00:00.000000000Z' },
      containerOptions: NODE,
      legacyLogDir: '/containers',
    },
    { ...d, runtime: dryRunCri(cri as any, 'RuntimeService', recorded as any) as any, image: img },
  );
  assert.equal(out.ok, true, JSON.stringify(out.results.filter((r) => r.error)));
  assert.deepEqual(
    recorded.map((r) => r.rpc),
    [
      'RunPodSandbox',
      'PullImage',
      'CreateContainer',
      'StartContainer',
      'CreateContainer',
      'StartContainer',
      'CreateContainer',
      'StartContainer',
    ],
  );
});

test('pod cgroup limits up to 1.36 count a regular init container with the sidecars before it; 1.37 each container on its own', () => {
  // The oracle's "random 1.36 seed 1 #301" (v1.36.3) and "random 1.34 seed 1 #335" (v1.34.4):
  // kubelet up to 1.36 gave the pod cgroup a CPU quota and memory limit here, 1.37 none.
  const pod = basePod();
  pod.spec!.initContainers = [
    { name: 'side', image: 'envoy', restartPolicy: 'Always', resources: { limits: { cpu: '1', memory: '1Gi' } } },
    { name: 'setup', image: 'busybox' },
  ];
  pod.spec!.containers = [
    { name: 'app', image: 'nginx', resources: { requests: { cpu: '500m' }, limits: { cpu: '2', memory: '512Mi' } } },
  ];
  const at = (version: string) =>
    resourceConfigForPod(pod, false, resolveKubeletRules(version).podLimitsCountSidecarsBeforeInit);
  assert.deepEqual(at('1.36'), { cpuShares: 512, cpuQuota: 300000, cpuPeriod: 100000, memory: 1536 * Mi });
  assert.deepEqual(at('1.34'), at('1.36'));
  assert.deepEqual(at('1.37'), { cpuShares: 512 });
});
