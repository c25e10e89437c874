// The oracle's comparison: kubelet's recorded CRI calls and syncpod's dry-run requests become the
// same lines for the same actions, and only the orders kubelet does not fix are ignored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kubeletLines, sameCalls, syncpodLines } from '../../scripts/oracle/compare';
import { checkScenario, oracleInput } from '../../scripts/oracle/scenario';
import { classify } from '../../scripts/oracle/known';

const known = new Set(['sb0', 'c1', 'c2']);
const names = new Map([
  ['c1', 'app'],
  ['c2', 'side'],
]);

test('a new sandbox, a pull and a container read the same from both sides', () => {
  const kubelet = kubeletLines(
    [
      { op: 'StopContainer', container: 'side', id: 'c2' },
      { op: 'StopContainer', container: 'app', id: 'c1' },
      { op: 'StopPodSandbox', sandbox: 'sb0' },
      { op: 'RunPodSandbox', attempt: 1, sandbox: 'p_ns_uid_1' },
      { op: 'PullImage', image: 'busybox:1.36' },
      { op: 'CreateContainer', container: 'app', attempt: 0, sandbox: 'p_ns_uid_1', id: 'x' },
      { op: 'StartContainer', container: 'app', id: 'x' },
    ],
    known,
  );
  const syncpod = syncpodLines(
    [
      { service: 'RuntimeService', rpc: 'StopContainer', request: { containerId: 'c1', timeout: '30' } },
      { service: 'RuntimeService', rpc: 'StopContainer', request: { containerId: 'c2', timeout: '30' } },
      { service: 'RuntimeService', rpc: 'StopPodSandbox', request: { podSandboxId: 'sb0' } },
      { service: 'RuntimeService', rpc: 'RunPodSandbox', request: { config: { metadata: { attempt: 1 } } } },
      { service: 'ImageService', rpc: 'PullImage', request: { image: { image: 'busybox:1.36' } } },
      {
        service: 'RuntimeService',
        rpc: 'CreateContainer',
        request: { podSandboxId: '<id of the new sandbox>', config: { metadata: { name: 'app', attempt: 0 } } },
      },
      { service: 'RuntimeService', rpc: 'StartContainer', request: { containerId: '<id of new container 1>' } },
      { service: 'RuntimeService', rpc: 'ExecSync', request: { containerId: 'c1' } },
    ],
    names,
    known,
  );
  assert.deepEqual(syncpod, kubelet);
  assert.deepEqual(kubelet, [
    'StopContainer app c1',
    'StopContainer side c2',
    'StopPodSandbox sb0',
    'RunPodSandbox attempt=1',
    'PullImage busybox:1.36',
    'CreateContainer app attempt=0 sandbox=new',
    'StartContainer app',
  ]);
});

test('order matters outside a run of stops; resources are compared value by value', () => {
  const a = kubeletLines(
    [
      { op: 'CreateContainer', container: 'app', attempt: 1, sandbox: 'sb0' },
      { op: 'StartContainer', container: 'app' },
      {
        op: 'UpdateContainerResources',
        container: 'side',
        id: 'c2',
        resources: { cpuShares: 102, cpuQuota: 0, cpuPeriod: 100000, memoryLimitInBytes: 0 },
      },
    ],
    known,
  );
  const b = syncpodLines(
    [
      {
        service: 'RuntimeService',
        rpc: 'UpdateContainerResources',
        request: { containerId: 'c2', linux: { cpuShares: '102', cpuQuota: '0', cpuPeriod: '100000' } },
      },
      {
        service: 'RuntimeService',
        rpc: 'CreateContainer',
        request: { podSandboxId: 'sb0', config: { metadata: { name: 'app', attempt: 1 } } },
      },
      { service: 'RuntimeService', rpc: 'StartContainer', request: { containerId: '<id of new container 1>' } },
    ],
    names,
    known,
  );
  assert.ok(!sameCalls(a, b), 'the resize before the start is another order');
  assert.equal(b[0], 'UpdateContainerResources side cpuShares=102 cpuQuota=0 cpuPeriod=100000 memory=0');
  assert.ok(sameCalls(a, [b[1], b[2], b[0]]));
});

test('a scenario file is refused with its field named; times become absolute nanoseconds', () => {
  assert.throws(() => checkScenario({ name: 'x', pod: { metadata: {} } }, 'f.yaml'), /f\.yaml: pod\.metadata\.uid/);
  assert.throws(
    () =>
      checkScenario(
        {
          name: 'x',
          pod: { metadata: { uid: 'u' } },
          sandboxes: [{ id: 's' }],
          containers: [{ id: 'c', name: 'a', sandbox: 't', state: 'CONTAINER_RUNNING' }],
        },
        'f.yaml',
      ),
    /containers\[0\]\.sandbox: no sandbox "t"/,
  );
  const s = checkScenario(
    { name: 'x', pod: { metadata: { uid: 'u' } }, sandboxes: [{ id: 's', createdAgo: 10 }] },
    'f.yaml',
  );
  const line = JSON.parse(oracleInput(s, 1_000_000));
  assert.equal(line.sandboxes[0].createdAt, (1_000_000 - 10_000) * 1e6);
  assert.equal(line.sandboxes[0].state, 'SANDBOX_READY');
});

test('known class sidecar-liveness-success: only a sidecar resize kubelet made on a liveness success syncpod cannot be given', () => {
  const scenario = {
    name: 'x',
    pod: {
      spec: {
        initContainers: [{ name: 'side', image: 'envoy', restartPolicy: 'Always', livenessProbe: { exec: {} } }],
        containers: [{ name: 'app', image: 'nginx' }],
      },
    },
    liveness: { side: 'success' as const },
  };
  const kubelet = [
    'UpdateContainerResources side cpuShares=2 cpuQuota=0 cpuPeriod=100000 memory=0',
    'UpdatePodSandboxResources sb0 cpuShares=512 cpuQuota=-1 cpuPeriod=0 memory=-1',
    'CreateContainer app attempt=1 sandbox=sb0',
    'StartContainer app',
  ];
  const syncpod = ['CreateContainer app attempt=1 sandbox=sb0', 'StartContainer app'];
  assert.equal(classify(scenario, syncpod, kubelet), 'sidecar-liveness-success');
  assert.equal(classify(scenario, ['StartContainer app'], kubelet), undefined, 'another difference');
  assert.equal(classify({ ...scenario, liveness: {} }, syncpod, kubelet), undefined, 'no liveness success given');
});

test("known class kubelet-kill-duplicate-panic: only kubelet's termination-ordering panic, two running containers of one name, the same calls", () => {
  const scenario = {
    name: 'x',
    pod: { spec: { containers: [{ name: 'app0', image: 'nginx' }] } },
    sandboxes: [
      { id: 'sb0', state: 'SANDBOX_NOTREADY' as const },
      { id: 'sb1', state: 'SANDBOX_READY' as const },
    ],
    containers: [
      { id: 'c1', sandbox: 'sb0', name: 'app0', state: 'CONTAINER_RUNNING' as const },
      { id: 'c3', sandbox: 'sb1', name: 'app0', state: 'CONTAINER_RUNNING' as const },
    ],
  };
  const calls = ['StopContainer app0 c1', 'StopContainer app0 c3', 'StopPodSandbox sb0', 'StopPodSandbox sb1'];
  const panic = 'close of closed channel';
  assert.equal(classify(scenario, calls, calls, panic), 'kubelet-kill-duplicate-panic');
  assert.equal(classify(scenario, calls.slice(1), calls, panic), undefined, 'another difference');
  assert.equal(classify(scenario, calls, calls, 'index out of range'), undefined, 'another panic');
  assert.equal(
    classify(scenario, calls, calls, `${panic}; ${panic}`),
    'kubelet-kill-duplicate-panic',
    'three instances',
  );
  assert.equal(classify(scenario, calls, calls, `${panic}; index out of range`), undefined, 'and another panic');
  const one = {
    ...scenario,
    containers: [scenario.containers[0], { ...scenario.containers[1], state: 'CONTAINER_EXITED' as const }],
  };
  assert.equal(classify(one, calls, calls, panic), undefined, 'one running container of that name');
  assert.equal(classify(scenario, calls, calls), undefined, 'no panic: the calls agree, no class');
});
