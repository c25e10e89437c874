// Manifests as applications ship them (fixtures written here in the shape of public examples):
// all-in-one files, StatefulSets with claim templates, a monitoring pair of files, Lists mixing
// kinds. Documents of other kinds are skipped and named once; controllers' pod shapes are applied.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadManifests, skippedNote } from '../../src/manifest/load';

const dir = join(__dirname, '..', 'fixtures', 'manifests', 'real-world');
const at = (name: string): string => join(dir, name);
const noStdin = async (): Promise<string> => {
  throw new Error('stdin must not be read');
};
const load = (paths: string[], options = {}) => loadManifests(paths, noStdin, options);

test('an all-in-one file that starts with a Service plans its Deployments and names what it skipped', async () => {
  const pods = await load([at('guestbook-all-in-one.yaml')]);
  assert.deepEqual(
    pods.map((p) => [p.pod.metadata?.name, p.source.document, p.source.controller?.kind]),
    [
      ['store-primary', 2, 'Deployment'],
      ['web', 4, 'Deployment'],
    ],
  );
  assert.equal(skippedNote(pods), 'skipped 2 documents: Service/store-primary, Service/web');
  assert.deepEqual(pods[0]!.source.skipped, ['Service/store-primary', 'Service/web']);
});

test('a microservice file: Deployment first, Service and ServiceAccount skipped', async () => {
  const [p, ...rest] = await load([at('shop-checkout.yaml')]);
  assert.equal(rest.length, 0);
  assert.equal(p!.pod.metadata?.name, 'checkout');
  assert.deepEqual(
    p!.pod.metadata?.labels,
    { app: 'checkout' },
    'no label is invented for a Deployment (pod-template-hash comes from a live pod)',
  );
  assert.deepEqual(p!.source.controller?.unknownLabels, ['pod-template-hash']);
  assert.equal(p!.source.controller?.podName, 'checkout-<hash>-<suffix>');
  assert.deepEqual(p!.source.skipped, ['Service/checkout', 'ServiceAccount/checkout']);
});

test('a StatefulSet gets the PVC volumes, name, hostname, subdomain and labels of its first pod', async () => {
  const [p] = await load([at('cassandra-statefulset.yaml')]);
  assert.equal(p!.pod.metadata?.name, 'cassandra-0');
  assert.deepEqual(p!.pod.metadata?.labels, {
    app: 'cassandra',
    'statefulset.kubernetes.io/pod-name': 'cassandra-0',
    'apps.kubernetes.io/pod-index': '0',
  });
  assert.equal(p!.pod.spec?.hostname, 'cassandra-0');
  assert.equal(p!.pod.spec?.subdomain, 'cassandra');
  assert.deepEqual(p!.pod.spec?.volumes, [
    { name: 'cassandra-data', persistentVolumeClaim: { claimName: 'cassandra-data-cassandra-0' } },
  ]);
  assert.deepEqual(p!.source.controller, {
    kind: 'StatefulSet',
    name: 'cassandra',
    podName: 'cassandra-0',
    ordinal: 0,
    labelsAdded: { 'statefulset.kubernetes.io/pod-name': 'cassandra-0', 'apps.kubernetes.io/pod-index': '0' },
    unknownLabels: ['controller-revision-hash'],
    matchLabels: { app: 'cassandra' },
  });
  assert.deepEqual(p!.source.skipped, ['StorageClass/fast']);
});

test('--ordinal picks another StatefulSet pod; ordinals.start is honoured; a claim template replaces a template volume of its name', async () => {
  const [first] = await load([at('minio-statefulset.yaml')]);
  assert.equal(first!.pod.metadata?.name, 'objects-1', 'ordinals.start 1');
  const [p] = await load([at('minio-statefulset.yaml')], { ordinal: 4 });
  assert.equal(p!.pod.metadata?.name, 'objects-4');
  assert.deepEqual(p!.pod.spec?.volumes, [
    { name: 'export', persistentVolumeClaim: { claimName: 'export-objects-4' } },
  ]);
  await assert.rejects(load([at('minio-statefulset.yaml')], { ordinal: 0 }), {
    message: `${at('minio-statefulset.yaml')}: document 2: spec.replicas: --ordinal 0 is not a pod of this StatefulSet (ordinals 1..4) (line 20, column 13)`,
  });
});

test('a directory of a monitoring pair: the workload plans, the PDB, rule and ServiceAccount are skipped; braces in a block scalar are no template', async () => {
  const pods = await load([at('monitoring')]);
  assert.deepEqual(
    pods.map((p) => `${p.pod.metadata?.namespace}/${p.pod.metadata?.name}`),
    ['monitoring/state-metrics'],
  );
  assert.equal(
    skippedNote(pods),
    'skipped 3 documents: ServiceAccount/state-metrics, PodDisruptionBudget/state-metrics, PrometheusRule/state-metrics-rules',
  );
});

test('a List mixing kinds: DaemonSet and Indexed Job pods, the rest skipped', async () => {
  const pods = await load([at('list-mixed.yaml')]);
  assert.deepEqual(
    pods.map((p) => [p.pod.metadata?.name, p.source.from]),
    [
      ['node-agent', 'List item 2: DaemonSet/node-agent: pod template'],
      ['shard', 'List item 4: Job/shard: pod template'],
    ],
  );
  assert.equal(skippedNote(pods), 'skipped 2 documents: ConfigMap/settings, Service/node-agent');
  const [ds, job] = pods;
  assert.deepEqual(ds!.pod.metadata?.labels, { app: 'node-agent', 'pod-template-generation': '3' });
  assert.deepEqual(job!.pod.metadata?.labels, {
    'batch.kubernetes.io/job-name': 'shard',
    'job-name': 'shard',
    'batch.kubernetes.io/job-completion-index': '0',
  });
  assert.deepEqual(job!.pod.metadata?.annotations, { 'batch.kubernetes.io/job-completion-index': '0' });
  assert.equal(job!.pod.spec?.hostname, 'shard-0');
  assert.deepEqual(job!.pod.spec?.containers[0]?.env, [
    {
      name: 'JOB_COMPLETION_INDEX',
      valueFrom: {
        fieldRef: { fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']", apiVersion: 'v1' },
      },
    },
  ]);
  const [, third] = await load([at('list-mixed.yaml')], { ordinal: 2 });
  assert.equal(third!.pod.metadata?.labels?.['batch.kubernetes.io/job-completion-index'], '2');
});

test('-l/--selector keeps the pods whose labels match, as kubectl', async () => {
  const files = [at('guestbook-all-in-one.yaml'), at('shop-checkout.yaml')];
  const names = async (selector: string) => (await load(files, { selector })).map((p) => p.pod.metadata?.name);
  assert.deepEqual(await names('tier=frontend'), ['web']);
  assert.deepEqual(await names('tier'), ['store-primary', 'web']);
  assert.deepEqual(await names('!tier'), ['checkout']);
  assert.deepEqual(await names('app in (store, checkout)'), ['store-primary', 'checkout']);
  assert.deepEqual(await names('app notin (store),tier!=backend'), ['web', 'checkout']);
  await assert.rejects(load(files, { selector: 'app=nothing' }), {
    message: `no pod in ${files.join(', ')} matches the selector "app=nothing"`,
  });
  await assert.rejects(load(files, { selector: 'app==' + 'x'.repeat(64) }), {
    message: `--selector "app==${'x'.repeat(64)}": invalid label value "${'x'.repeat(64)}"`,
  });
});

test('a file with no pod at all is an error that says so; a directory only when none of its files has one', async () => {
  await assert.rejects(load([at('monitoring/pdb.yaml')]), {
    message: `${at('monitoring/pdb.yaml')}: no pod found: no Pod, workload or List of them, only PodDisruptionBudget/state-metrics`,
  });
});
