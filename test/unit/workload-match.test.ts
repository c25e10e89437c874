// Finding a workload's live pod by its controller's labels and naming, and planning under it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseManifestText } from '../../src/manifest/parse';
import { adoptLivePod } from '../../src/manifest/controllers';
import { matchWorkloadPod } from '../../src/state/workload-match';
import type { RuntimeLists } from '../../src/state/pod-status';

const sandbox = (name: string, uid: string, createdAt: string, labels: Record<string, string>, namespace = 'shop') => ({
  id: `id-${uid}`,
  metadata: { name, uid, namespace, attempt: 0 },
  state: 'SANDBOX_READY',
  createdAt,
  labels: {
    ...labels,
    'io.kubernetes.pod.name': name,
    'io.kubernetes.pod.namespace': namespace,
    'io.kubernetes.pod.uid': uid,
  },
  annotations: {},
  runtimeHandler: '',
});
const lists = (...sandboxes: ReturnType<typeof sandbox>[]): RuntimeLists => ({
  sandboxes: sandboxes as never,
  containers: [],
});

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web, tier: front}}
    spec: {containers: [{name: app, image: nginx}]}
`;

test("a Deployment's live pod: newest sandbox named <name>-<hash>-<suffix> whose labels hold the template's and whose hash label is the name's", () => {
  const [web] = parseManifestText(deployment, 'web.yaml');
  const shape = web!.source.controller!;
  const live = lists(
    sandbox('web-5d8f7c9b4-x2x4z', 'u-old', '100', { app: 'web', tier: 'front', 'pod-template-hash': '5d8f7c9b4' }),
    sandbox('web-7b6c5d4f8-k9m2p', 'u-new', '200', { app: 'web', tier: 'front', 'pod-template-hash': '7b6c5d4f8' }),
    sandbox('web-7b6c5d4f8-abcde', 'u-badsuffix', '300', {
      app: 'web',
      tier: 'front',
      'pod-template-hash': '7b6c5d4f8',
    }),
    sandbox('web-other-k9m2p', 'u-hash-mismatch', '400', {
      app: 'web',
      tier: 'front',
      'pod-template-hash': '7b6c5d4f8',
    }),
    sandbox('web-7b6c5d4f8-q8r7s', 'u-labels', '500', { app: 'web', 'pod-template-hash': '7b6c5d4f8' }),
    sandbox(
      'web-7b6c5d4f8-t5v6w',
      'u-ns',
      '600',
      { app: 'web', tier: 'front', 'pod-template-hash': '7b6c5d4f8' },
      'other',
    ),
  );
  const m = matchWorkloadPod(live, 'shop', shape)!;
  assert.equal(m.name, 'web-7b6c5d4f8-k9m2p');
  assert.equal(m.uid, 'u-new');
  assert.deepEqual(m.others, ['web-5d8f7c9b4-x2x4z']);
  assert.equal(
    m.how,
    "live pod web-7b6c5d4f8-k9m2p (uid u-new) taken as the Deployment's pod: the newest sandbox in namespace shop named web-<pod-template-hash>-<suffix> with the template's labels app=web,tier=front; 1 more on this node: web-5d8f7c9b4-x2x4z",
  );
  const adopted = adoptLivePod(web!, m);
  assert.equal(adopted.pod.metadata?.name, 'web-7b6c5d4f8-k9m2p');
  assert.deepEqual(adopted.pod.metadata?.labels, { app: 'web', tier: 'front', 'pod-template-hash': '7b6c5d4f8' });
  assert.match(adopted.source.notes.at(-1)!, /; labels taken from it: pod-template-hash=7b6c5d4f8$/);
  assert.equal(web!.pod.metadata?.name, 'web', 'the loaded pod is left alone');
  assert.equal(matchWorkloadPod(lists(), 'shop', shape), undefined);
});

test("a StatefulSet's live pod is the one of its ordinal; its controller-revision-hash is taken", () => {
  const [db] = parseManifestText(
    'apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  serviceName: db\n  replicas: 2\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec: {containers: [{name: db, image: postgres}]}\n',
    'db.yaml',
    { ordinal: 1 },
  );
  const pod = (n: number, uid: string) =>
    sandbox(
      `db-${n}`,
      uid,
      String(n),
      {
        app: 'db',
        'statefulset.kubernetes.io/pod-name': `db-${n}`,
        'apps.kubernetes.io/pod-index': String(n),
        'controller-revision-hash': 'db-6c9f8',
      },
      'default',
    );
  const m = matchWorkloadPod(lists(pod(0, 'a'), pod(1, 'b')), 'default', db!.source.controller!)!;
  assert.equal(m.uid, 'b');
  assert.equal(adoptLivePod(db!, m).pod.metadata?.labels?.['controller-revision-hash'], 'db-6c9f8');
});

test("a Job's live pod carries its job-name labels; a ReplicaSet's pods are <name>-<suffix>", () => {
  const [job] = parseManifestText(
    'apiVersion: batch/v1\nkind: Job\nmetadata: {name: once}\nspec:\n  template:\n    spec: {restartPolicy: Never, containers: [{name: run, image: busybox}]}\n',
    'job.yaml',
  );
  const jobPod = sandbox(
    'once-h7k2m',
    'j',
    '1',
    {
      'batch.kubernetes.io/job-name': 'once',
      'job-name': 'once',
      'batch.kubernetes.io/controller-uid': 'c-1',
      'controller-uid': 'c-1',
    },
    'default',
  );
  const m = matchWorkloadPod(lists(jobPod), 'default', job!.source.controller!)!;
  assert.equal(m.name, 'once-h7k2m');
  assert.equal(adoptLivePod(job!, m).pod.metadata?.labels?.['batch.kubernetes.io/controller-uid'], 'c-1');
  const [rs] = parseManifestText(
    'apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: api}\nspec:\n  selector: {matchLabels: {app: api}}\n  template:\n    metadata: {labels: {app: api}}\n    spec: {containers: [{name: c, image: busybox}]}\n',
    'rs.yaml',
  );
  const rsPods = lists(
    sandbox('api-x9z2w', 'r', '1', { app: 'api' }, 'default'),
    sandbox('api-extra-x9z2w', 's', '2', { app: 'api' }, 'default'),
  );
  assert.equal(matchWorkloadPod(rsPods, 'default', rs!.source.controller!)?.name, 'api-x9z2w');
});
