// Which of a pod's sandboxes kubelet reads as the newest, per minor: by creation time up to 1.34, by
// attempt in 1.35, by attempt then creation time then id from 1.36 (src/kubelet/sandbox-order.ts).
// It matters when attempts do not grow with age (sandboxes made by another tool, a clock step back):
// the plan then reuses, or replaces, a different sandbox.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inKubeletSandboxOrder, type SandboxOrderKey } from '../../src/kubelet/sandbox-order';
import { resolveKubeletRules } from '../../src/kubelet/kubelet-version';
import { observePods } from '../../src/state/pod-status';
import { buildPlan } from '../../src/plan/plan';

const MINORS = ['1.29', '1.30', '1.31', '1.32', '1.33', '1.34', '1.35', '1.36', '1.37'];
const orderOf = (minor: string) => resolveKubeletRules(minor).sandboxOrder;
const ids = (minor: string, list: SandboxOrderKey[]) =>
  inKubeletSandboxOrder(orderOf(minor), list, (s) => s).map((s) => s.id);
const sb = (id: string, attempt: number | undefined, createdAt: string): SandboxOrderKey => ({
  id,
  attempt,
  createdAt,
});

test('an older sandbox with a higher attempt is the newest from 1.35 on, not before', () => {
  const list = [sb('young-attempt0', 0, '2000'), sb('old-attempt1', 1, '1000')];
  for (const m of MINORS)
    assert.deepEqual(
      ids(m, list)[0],
      Number(m.split('.')[1]) <= 34 ? 'young-attempt0' : 'old-attempt1',
      `kubelet ${m}`,
    );
});

test('within one attempt: 1.35 keeps the runtime list order, 1.36+ take the newest then the smaller id', () => {
  const sameAttempt = [sb('a-old', 2, '1000'), sb('b-young', 2, '3000')];
  assert.deepEqual(ids('1.34', sameAttempt), ['b-young', 'a-old']);
  assert.deepEqual(ids('1.35', sameAttempt), ['a-old', 'b-young'], 'equal attempts: list order');
  assert.deepEqual(ids('1.36', sameAttempt), ['b-young', 'a-old']);
  assert.deepEqual(ids('1.37', sameAttempt), ['b-young', 'a-old']);

  const twins = [sb('z', 1, '5000'), sb('m', 1, '5000')];
  assert.deepEqual(ids('1.33', twins), ['z', 'm'], 'same creation time: list order');
  assert.deepEqual(ids('1.35', twins), ['z', 'm']);
  assert.deepEqual(ids('1.36', twins), ['m', 'z'], 'same attempt and time: by id');
});

test('several sandboxes: attempts first from 1.35, creation (ns, beyond a double) up to 1.34', () => {
  const list = [
    sb('s1', 1, '1700000000000000001'),
    sb('s3', 3, '1700000000000000000'),
    sb('s0', 0, '1700000000000000003'),
    sb('s2', 2, '1700000000000000002'),
  ];
  assert.deepEqual(ids('1.34', list), ['s0', 's2', 's1', 's3']);
  assert.deepEqual(ids('1.35', list), ['s3', 's2', 's1', 's0']);
  assert.deepEqual(ids('1.37', list), ['s3', 's2', 's1', 's0']);
  // Without metadata (no attempt), 1.35 and 1.36+ compare creation times.
  const noMeta = [sb('x', undefined, '1000'), sb('y', 5, '2000')];
  assert.deepEqual(ids('1.35', noMeta), ['y', 'x']);
  assert.deepEqual(ids('1.36', noMeta), ['y', 'x']);
});

// The plan, from a runtime that lists the pod's two sandboxes: the READY one of attempt 1 was created
// before a NOTREADY one of attempt 0. Kubelet ≤1.34 reads the NOTREADY one as newest and starts a new
// sandbox (attempt 1); 1.35+ reads the READY attempt 1 and leaves the pod as it is.
const NOW = 1_700_000_000_000;
const ns = (ms: number) => String(BigInt(ms) * 1_000_000n);
const UID = 'uid-web';
const listed = (id: string, attempt: number, state: string, createdMs: number) => ({
  id,
  state,
  createdAt: ns(createdMs),
  metadata: { name: 'web', namespace: 'default', uid: UID, attempt },
  annotations: {},
  runtimeHandler: '',
  labels: { 'io.kubernetes.pod.uid': UID, 'io.kubernetes.pod.name': 'web', 'io.kubernetes.pod.namespace': 'default' },
});
const runtime = {
  sandboxes: [
    listed('sb-ready-attempt1', 1, 'SANDBOX_READY', NOW - 120_000),
    listed('sb-notready-attempt0', 0, 'SANDBOX_NOTREADY', NOW - 60_000),
  ],
  async call(method: string, req: any): Promise<any> {
    if (method === 'ListPodSandbox') return { items: this.sandboxes };
    if (method === 'ListContainers') return { containers: [] };
    if (method === 'PodSandboxStatus') {
      const s = this.sandboxes.find((x) => x.id === req.podSandboxId);
      return {
        status: { ...s, network: { ip: '10.0.0.7', additionalIps: [] }, linux: { namespaces: { options: {} } } },
      };
    }
    throw new Error(`unexpected ${method}`);
  },
};

test('plan: the sandbox kubelet reads as newest decides whether a new sandbox is started, per minor', async () => {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default', uid: UID },
    spec: { restartPolicy: 'Always', containers: [{ name: 'app', image: 'busybox:1.36' }] },
  } as any;
  for (const m of MINORS) {
    const rules = resolveKubeletRules(m);
    const [o] = await observePods(runtime as any, [{ namespace: 'default', name: 'web', uid: UID }], {
      sandboxOrder: rules.sandboxOrder,
    });
    const plan = buildPlan({ pod, podStatus: o.status, now: NOW, options: { kubeletVersion: m } });
    const create = plan.steps.find((s: any) => s.action === 'create-sandbox') as any;
    if (Number(m.split('.')[1]) <= 34) {
      assert.equal(o.status.sandboxStatuses[0].id, 'sb-notready-attempt0', `kubelet ${m}`);
      assert.deepEqual(o.status.ips, [], `kubelet ${m}: no pod IP from a NOTREADY newest sandbox`);
      assert.equal(create?.attempt, 1, `kubelet ${m}: a new sandbox, attempt 1`);
    } else {
      assert.equal(o.status.sandboxStatuses[0].id, 'sb-ready-attempt1', `kubelet ${m}`);
      assert.deepEqual(o.status.ips, ['10.0.0.7'], `kubelet ${m}`);
      assert.equal(create, undefined, `kubelet ${m}: the READY attempt 1 is kept`);
      assert.ok(
        plan.steps.some((s: any) => s.action === 'start-container'),
        `kubelet ${m}: its container is started in it`,
      );
    }
  }
});
