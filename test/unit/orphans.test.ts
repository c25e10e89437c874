// Orphan detection (HandlePodCleanups + container GC): only kubelet-labelled objects, grouped by uid.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  findDuplicates,
  findOrphans,
  withPodCgroup,
  type RuntimeContainer,
  type RuntimeSandbox,
} from '../../src/kubelet/orphans';
import { cgroupDirs, podCgroupCandidates } from '../../src/kubelet/pod-cgroup';
import { orphanTable } from '../../src/render/orphans-view';

const NOW = 1_700_000_100_000;
const ns = (ms: number): string => String(BigInt(ms) * 1_000_000n);
const labels = (uid: string, name = 'p', namespace = 'default') => ({
  'io.kubernetes.pod.uid': uid,
  'io.kubernetes.pod.name': name,
  'io.kubernetes.pod.namespace': namespace,
});
const sb = (
  id: string,
  uid: string,
  state = 'SANDBOX_READY',
  created = NOW - 60_000,
  l: Record<string, string> | undefined = labels(uid),
): RuntimeSandbox => ({
  id,
  state,
  createdAt: ns(created),
  labels: l,
  metadata: { name: 'p', namespace: 'default', uid, attempt: 0 },
});
const ctr = (id: string, uid: string, state = 'CONTAINER_RUNNING', sandbox = 's1'): RuntimeContainer => ({
  id,
  podSandboxId: sandbox,
  state,
  createdAt: ns(NOW - 30_000),
  labels: { ...labels(uid), 'io.kubernetes.container.name': 'c' },
});

const cases: Array<{
  name: string;
  desired: string[];
  sandboxes: RuntimeSandbox[];
  containers: RuntimeContainer[];
  want: Array<[string, string]>;
}> = [
  {
    name: 'a desired pod is no orphan',
    desired: ['u1'],
    sandboxes: [sb('s1', 'u1')],
    containers: [ctr('c1', 'u1')],
    want: [],
  },
  {
    name: 'a running unknown pod is killed',
    desired: [],
    sandboxes: [sb('s1', 'u1')],
    containers: [ctr('c1', 'u1')],
    want: [['u1', 'kill']],
  },
  {
    name: 'a dead unknown pod is removed by GC',
    desired: [],
    sandboxes: [sb('s1', 'u1', 'SANDBOX_NOTREADY')],
    containers: [ctr('c1', 'u1', 'CONTAINER_EXITED')],
    want: [['u1', 'remove']],
  },
  {
    name: 'a sandbox without kubelet labels is never reported',
    desired: [],
    sandboxes: [sb('s1', 'u1', 'SANDBOX_READY', NOW, {})],
    containers: [],
    want: [],
  },
  {
    name: "a sandbox missing the name label is not kubelet's",
    desired: [],
    sandboxes: [sb('s1', 'u1', 'SANDBOX_READY', NOW, { 'io.kubernetes.pod.uid': 'u1' })],
    containers: [],
    want: [],
  },
  {
    name: 'a container without the container name label is ignored',
    desired: [],
    sandboxes: [],
    containers: [{ ...ctr('c1', 'u1'), labels: labels('u1') }],
    want: [],
  },
  {
    name: 'a container whose sandbox is gone is still an orphan',
    desired: [],
    sandboxes: [],
    containers: [ctr('c1', 'u2')],
    want: [['u2', 'kill']],
  },
];

for (const c of cases) {
  test(`orphans: ${c.name}`, () => {
    const got = findOrphans(new Set(c.desired), c.sandboxes, c.containers, NOW);
    assert.deepEqual(
      got.map((o) => [o.uid, o.kubelet]),
      c.want,
    );
  });
}

test('orphans carry identity, states, ages and the 1s grace; order is namespace, name, uid', () => {
  const got = findOrphans(
    new Set(),
    [
      sb('s2', 'u2', 'SANDBOX_READY', NOW - 10_000, labels('u2', 'b', 'x')),
      sb('s1', 'u1', 'SANDBOX_NOTREADY', NOW - 60_000, labels('u1', 'a', 'x')),
      sb('s3', 'u2', 'SANDBOX_NOTREADY', NOW - 90_000, labels('u2', 'b', 'x')),
    ],
    [ctr('c1', 'u2', 'CONTAINER_RUNNING', 's2')],
    NOW,
  );
  assert.deepEqual(
    got.map((o) => `${o.namespace}/${o.name}`),
    ['x/a', 'x/b'],
  );
  const b = got[1];
  assert.deepEqual(
    b.sandboxes.map((s) => [s.id, s.state, s.ageSeconds]),
    [
      ['s2', 'ready', 10],
      ['s3', 'notready', 90],
    ],
  );
  assert.equal(b.gracePeriodSeconds, 1);
  assert.equal(b.containers[0].ageSeconds, 30);
  assert.equal(got[0].gracePeriodSeconds, undefined);
});

test('duplicates: the other uids of one namespace/name, nothing of other pods or of the pod itself', () => {
  const got = findDuplicates(
    { namespace: 'default', name: 'p', uid: 'u-new' },
    [
      sb('s-new', 'u-new'),
      sb('s-old', 'u-old', 'SANDBOX_READY', NOW - 120_000),
      sb('s-dead', 'u-dead', 'SANDBOX_NOTREADY', NOW - 240_000),
      sb('s-other', 'u-other', 'SANDBOX_READY', NOW, labels('u-other', 'q')),
      sb('s-otherns', 'u-otherns', 'SANDBOX_READY', NOW, labels('u-otherns', 'p', 'kube-system')),
      sb('s-hand', 'u-hand', 'SANDBOX_READY', NOW, { 'io.kubernetes.pod.uid': 'u-hand' }),
    ],
    [ctr('c-old', 'u-old', 'CONTAINER_RUNNING', 's-old'), ctr('c-new', 'u-new', 'CONTAINER_RUNNING', 's-new')],
    NOW,
  );
  assert.deepEqual(
    got.map((o) => [o.uid, o.kubelet, o.sandboxes.map((s) => s.id), o.containers.map((c) => c.id)]),
    [
      ['u-dead', 'remove', ['s-dead'], []],
      ['u-old', 'kill', ['s-old'], ['c-old']],
    ],
  );
  assert.deepEqual(
    findDuplicates({ namespace: 'default', name: 'p', uid: '' }, [sb('s1', 'u1')], [], NOW),
    [],
    'no uid chosen yet: nothing to compare with',
  );
});

test("pod cgroup candidates: pod<uid> under each QoS cgroup, in the driver's spelling and below cgroupRoot", () => {
  const layout = { cgroupDriver: 'cgroupfs' as const, cgroupRoot: '', cgroupsPerQOS: true };
  assert.deepEqual(podCgroupCandidates('1e24-aa', layout), [
    { qosClass: 'Guaranteed', name: '/kubepods/pod1e24-aa' },
    { qosClass: 'Burstable', name: '/kubepods/burstable/pod1e24-aa' },
    { qosClass: 'BestEffort', name: '/kubepods/besteffort/pod1e24-aa' },
  ]);
  assert.deepEqual(
    podCgroupCandidates('1e24-aa', { ...layout, cgroupDriver: 'systemd' }).map((c) => c.name),
    [
      '/kubepods.slice/kubepods-pod1e24_aa.slice',
      '/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1e24_aa.slice',
      '/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod1e24_aa.slice',
    ],
  );
  assert.equal(podCgroupCandidates('u1', { ...layout, cgroupRoot: '/lab' })[2]!.name, '/lab/kubepods/besteffort/podu1');
  assert.deepEqual(podCgroupCandidates('u1', { ...layout, cgroupsPerQOS: false }), [], 'no pod cgroups without QoS');
  for (const bad of ['a/../b', 'a_b', '', '../x', '.hidden'])
    assert.deepEqual(podCgroupCandidates(bad, layout), [], `a uid that is no cgroup component: ${bad}`);
  assert.deepEqual(cgroupDirs('/kubepods/podu1', ['/sys/fs/cgroup/cpu', '/sys/fs/cgroup/unified/']), [
    '/sys/fs/cgroup/cpu/kubepods/podu1',
    '/sys/fs/cgroup/unified/kubepods/podu1',
  ]);
});

test("withPodCgroup: the cgroup and when kubelet destroys it join the orphan's reason; no directory, no change", () => {
  const [running, dead] = findOrphans(new Set(), [sb('s1', 'u1'), sb('s2', 'u2', 'SANDBOX_NOTREADY')], [], NOW);
  const cg = {
    qosClass: 'BestEffort' as const,
    name: '/kubepods/besteffort/podu1',
    paths: ['/sys/fs/cgroup/memory/kubepods/besteffort/podu1'],
  };
  const a = withPodCgroup(running!, cg);
  assert.deepEqual(a.podCgroup, cg);
  assert.match(
    a.reason,
    /^no desired pod has this uid: kubelet kills .*; once it is terminated and its volumes are unmounted, its pod cgroup \/kubepods\/besteffort\/podu1 is destroyed \(any process left in it is killed\)$/,
  );
  assert.match(
    withPodCgroup(dead!, { ...cg, name: '/kubepods/besteffort/podu2' }).reason,
    /removes its containers and sandboxes; once its volumes are unmounted, its pod cgroup/,
  );
  const slice = '/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-podu1.slice';
  assert.match(
    withPodCgroup(running!, { ...cg, name: slice }).reason,
    /is destroyed \(any process left in it is killed; kubelet stops its unit kubepods-besteffort-podu1\.slice first, syncpod removes the directories only\)$/,
  );
  assert.equal(withPodCgroup(running!, { ...cg, paths: [] }), running);
  assert.equal(withPodCgroup(running!, undefined), running);
  const table = orphanTable([a], 200).join('\n');
  assert.match(table, /kill \(grace 1s\), then remove with its pod cgroup \/kubepods\/besteffort\/podu1$/);
});
