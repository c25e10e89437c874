// Which live pods the node's desired pods own (stop/rm/rmp -a --node keep them): by the desired
// pod's uid, by kubelet's uid from a mirror pod, by namespace/name for a pod without a uid, at any
// uid for a static pod whose uid syncpod computed; finished pods' uids are known; orphans and pods
// without kubelet's labels are owned by nothing. Inputs are in-memory files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { desiredOwners } from '../../src/workflows/node-owners';
import type { NodeInputDeps } from '../../src/workflows/node-inputs';
import type { RuntimeLists } from '../../src/state/pod-status';

const files: Record<string, string> = {
  '/static/etcd.yaml':
    'apiVersion: v1\nkind: Pod\nmetadata:\n  name: etcd\n  namespace: kube-system\nspec:\n  containers:\n  - name: etcd\n    image: etcd:3\n',
  '/given/list.yaml': [
    'apiVersion: v1\nkind: List\nitems:',
    '- apiVersion: v1\n  kind: Pod\n  metadata: {name: api, namespace: web, uid: u-api}\n  spec: {nodeName: n1, containers: [{name: c, image: x}]}',
    '- apiVersion: v1\n  kind: Pod\n  metadata: {name: done, namespace: web, uid: u-done}\n  spec: {nodeName: n1, containers: [{name: c, image: x}]}\n  status: {phase: Succeeded}',
  ].join('\n'),
  '/given/nouid.yaml':
    'apiVersion: v1\nkind: Pod\nmetadata:\n  name: worker\n  namespace: web\nspec:\n  containers:\n  - name: c\n    image: x\n',
};
const deps: NodeInputDeps = {
  readDir: (p) => (p === '/static' ? [{ name: 'etcd.yaml', kind: 'file' }] : undefined),
  readFile: (p) => {
    if (files[p] === undefined) throw new Error('no such file or directory');
    return files[p]!;
  },
  readStdin: async () => '',
};

const sandbox = (id: string, ns: string, name: string, uid: string, createdAt: string, labelled = true) => ({
  id,
  state: 'SANDBOX_READY',
  createdAt,
  metadata: { name, namespace: ns, uid, attempt: 0 },
  labels: labelled
    ? { 'io.kubernetes.pod.uid': uid, 'io.kubernetes.pod.name': name, 'io.kubernetes.pod.namespace': ns }
    : {},
  annotations: {},
});
const lists = {
  sandboxes: [
    sandbox('s-etcd-kubelet', 'kube-system', 'etcd-n1', 'u-kubelet-etcd', '2'),
    sandbox('s-api', 'web', 'api', 'u-api', '1'),
    sandbox('s-api-old', 'web', 'api', 'u-api-old', '0'),
    sandbox('s-worker', 'web', 'worker', 'u-worker', '1'),
    sandbox('s-done', 'web', 'done', 'u-done', '1'),
    sandbox('s-orphan', 'web', 'gone', 'u-gone', '1'),
    sandbox('s-hand', 'x', 'hand', 'u-hand', '1', false),
  ],
  containers: [],
} as unknown as RuntimeLists;

test("desired pods own their live pods; orphans, earlier uids of a named pod and unlabelled pods are nobody's", async () => {
  const r = await desiredOwners(
    { nodeName: 'n1', staticPodPath: '/static', files: ['/given/list.yaml', '/given/nouid.yaml'] },
    deps,
    lists,
  );
  assert.deepEqual(r.problems, []);
  assert.equal(
    r.owners.get('u-kubelet-etcd'),
    'desired pod kube-system/etcd-n1',
    "a static pod whose uid syncpod computed owns kubelet's pod of its name",
  );
  assert.equal(r.owners.get('u-api'), 'desired pod web/api');
  assert.equal(r.owners.has('u-api-old'), false, 'a desired pod with a uid does not own an earlier pod of its name');
  assert.equal(
    r.owners.get('u-worker'),
    'desired pod web/worker',
    'a desired pod without a uid owns the newest pod of its name',
  );
  assert.match(r.owners.get('u-done') ?? '', /^pod known to kubelet/);
  assert.equal(r.owners.has('u-gone'), false);
  assert.equal(r.owners.has('u-hand'), false);
});

test('a desired pod input that cannot be read is a problem (the caller removes nothing then)', async () => {
  const r = await desiredOwners({ nodeName: 'n1', files: ['/given/missing.yaml'] }, deps, lists);
  assert.equal(r.problems.length, 1);
  assert.match(r.problems[0]!, /missing\.yaml/);
});

test("the kubelet's Pods API names pods it runs: their uids are kept, a static pod's real uid included", async () => {
  const podsApi = [
    {
      namespace: 'kube-system',
      name: 'etcd-n1',
      uid: 'u-kubelet-etcd',
      nodeName: 'n1',
      phase: 'Running',
      configSource: 'file',
    },
    { namespace: 'web', name: 'gone', uid: 'u-gone', nodeName: 'n1', phase: 'Running', configSource: 'api' },
  ];
  const r = await desiredOwners(
    { nodeName: 'n1', files: [], podsApi, podsApiSocket: '/var/lib/kubelet/pods-api/pods-api.sock' },
    deps,
    lists,
  );
  assert.deepEqual(r.problems, []);
  assert.ok(r.owners.has('u-gone'), 'an API pod the kubelet runs is kept');
  assert.ok(r.owners.has('u-kubelet-etcd'));
  assert.equal(r.owners.has('u-hand'), false);
});
