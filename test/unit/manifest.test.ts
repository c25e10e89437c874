import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import type { Pod } from '../../src/kubelet/api-types';
import { loadManifests } from '../../src/manifest/load';
import { parseManifestText } from '../../src/manifest/parse';
import { applyPodDefaults } from '../../src/manifest/defaults';
import { hashContainerLegacy, formatHash } from '../../src/kubelet/hash';

const dir = join(__dirname, '..', 'fixtures', 'manifests');
const fixture = (name: string): string => join(dir, name);
const noStdin = async (): Promise<string> => {
  throw new Error('stdin must not be read');
};

test('every accepted kind yields a pod with its source', async () => {
  const pods = await loadManifests(
    [fixture('pod.yaml'), fixture('workloads.yaml'), fixture('list.json'), fixture('podlist.yaml')],
    noStdin,
  );
  const seen = pods.map((p) => [
    `${p.pod.metadata?.namespace}/${p.pod.metadata?.name}`,
    p.source.file.slice(dir.length + 1),
    p.source.document,
    p.source.from,
    p.source.specPath,
  ]);
  assert.deepEqual(seen, [
    ['default/web', 'pod.yaml', 1, 'Pod/web', 'spec'],
    ['prod/web', 'workloads.yaml', 1, 'Deployment/web: pod template', 'spec.template.spec'],
    ['default/web-rs', 'workloads.yaml', 2, 'ReplicaSet/web-rs: pod template', 'spec.template.spec'],
    ['data/db-0', 'workloads.yaml', 3, 'StatefulSet/db: pod template', 'spec.template.spec'],
    ['kube-system/agent', 'workloads.yaml', 4, 'DaemonSet/agent: pod template', 'spec.template.spec'],
    ['default/once', 'workloads.yaml', 5, 'Job/once: pod template', 'spec.template.spec'],
    ['default/nightly', 'workloads.yaml', 6, 'CronJob/nightly: pod template', 'spec.jobTemplate.spec.template.spec'],
    ['default/a', 'list.json', 1, 'List item 1: Pod/a', 'items[0].spec'],
    ['default/b', 'list.json', 1, 'List item 2: Deployment/b: pod template', 'items[1].spec.template.spec'],
    ['ns1/p1', 'podlist.yaml', 1, 'List item 1: Pod/p1', 'items[0].spec'],
  ]);
});

test('a template pod is named after its workload and takes its namespace, and says so', () => {
  const [deploy] = parseManifestText(readFileSync(fixture('workloads.yaml'), 'utf8'), 'w.yaml');
  assert.deepEqual(deploy!.pod.metadata, { labels: { app: 'web' }, name: 'web', namespace: 'prod' });
  assert.equal(deploy!.pod.kind, 'Pod');
  assert.deepEqual(deploy!.source.notes, [
    'shaped as the Deployment controller creates pods: named web-<pod-template-hash>-<random>, labelled pod-template-hash (computed by the controller; taken from a live pod when one matches)',
    `pod name "web" is the Deployment's name until a live pod matches (its controller adds a generated suffix)`,
    `namespace "prod" is the Deployment's namespace`,
  ]);
  assert.equal(deploy!.source.controller?.kind, 'Deployment');
  assert.deepEqual(deploy!.source.controller?.unknownLabels, ['pod-template-hash']);
});

test('a DaemonSet template on the host network publishes its ports like a created Pod', async () => {
  const pods = await loadManifests([fixture('workloads.yaml')], noStdin);
  const agent = pods.find((p) => p.pod.metadata?.name === 'agent')!;
  assert.deepEqual(agent.pod.spec?.containers[0]?.ports, [{ containerPort: 9100, hostPort: 9100, protocol: 'TCP' }]);
});

test('kubectl get -o yaml: status dropped, uid/name/namespace kept, already-defaulted pod unchanged', () => {
  const text = readFileSync(fixture('kubectl-get-pod.yaml'), 'utf8');
  const [p] = parseManifestText(text, 'dump.yaml');
  assert.equal(p!.pod.metadata?.uid, '0c9d3b5e-1111-4222-8333-944455556666');
  assert.equal(p!.pod.metadata?.name, 'web-7d4b9c8f5-x2x9q');
  assert.equal(p!.pod.metadata?.namespace, 'shop');
  assert.equal('status' in p!.pod, false);
  // Defaulting what the API server stored changes nothing, so the legacy hash is kubelet's.
  const { status: _s, ...stored } = (require('yaml') as typeof import('yaml')).parse(text, { version: '1.1' });
  assert.deepEqual(p!.pod, stored);
});

test('stdin is read once and labelled <stdin>', async () => {
  let reads = 0;
  const pods = await loadManifests(['-'], async () => {
    reads++;
    return '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"s"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}';
  });
  assert.equal(reads, 1);
  assert.deepEqual(pods[0]!.source, {
    file: '<stdin>',
    document: 1,
    from: 'Pod/s',
    specPath: 'spec',
    notes: [],
    controller: undefined,
    skipped: [],
  });
});

test('a directory loads its manifest files in name order', async () => {
  const pods = await loadManifests([dir], async () => '');
  assert.deepEqual(
    [...new Set(pods.map((p) => p.source.file.slice(dir.length + 1)))],
    ['defaults.yaml', 'kubectl-get-pod.yaml', 'list.json', 'pod.yaml', 'podlist.yaml', 'workloads.yaml'],
  );
});

test('API-server defaults of a hand-written pod', () => {
  const [p] = parseManifestText(readFileSync(fixture('defaults.yaml'), 'utf8'), 'defaults.yaml');
  const spec = p!.pod.spec!;
  const pick = (o: object | undefined, keys: string[]): Record<string, unknown> =>
    Object.fromEntries(keys.map((k) => [k, (o as Record<string, unknown>)[k]]));
  const rows: Array<[string, unknown, unknown]> = [
    ['namespace', p!.pod.metadata?.namespace, 'default'],
    [
      'pod spec',
      pick(spec, [
        'restartPolicy',
        'dnsPolicy',
        'securityContext',
        'terminationGracePeriodSeconds',
        'schedulerName',
        'enableServiceLinks',
      ]),
      {
        restartPolicy: 'Always',
        dnsPolicy: 'ClusterFirst',
        securityContext: {},
        terminationGracePeriodSeconds: 30,
        schedulerName: 'default-scheduler',
        enableServiceLinks: true,
      },
    ],
    ['digest image pulls IfNotPresent', spec.initContainers![0]!.imagePullPolicy, 'IfNotPresent'],
    ['registry image without tag pulls Always', spec.containers[0]!.imagePullPolicy, 'Always'],
    ['ephemeral :latest pulls Always', spec.ephemeralContainers![0]!.imagePullPolicy, 'Always'],
    [
      'termination message defaults (ephemeral too)',
      pick(spec.ephemeralContainers![0], ['terminationMessagePath', 'terminationMessagePolicy']),
      { terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' },
    ],
    [
      'requests default to limits, quantities canonical',
      spec.initContainers![0]!.resources,
      { limits: { cpu: '1500m', memory: '512Mi' }, requests: { cpu: '250m', memory: '512Mi' } },
    ],
    ['port protocol', spec.containers[0]!.ports, [{ containerPort: 8080, protocol: 'TCP' }]],
    [
      'fieldRef apiVersion',
      spec.containers[0]!.env![0]!.valueFrom?.fieldRef,
      { fieldPath: 'metadata.name', apiVersion: 'v1' },
    ],
    ['divisor canonical', spec.containers[0]!.env![1]!.valueFrom?.resourceFieldRef?.divisor, '1Mi'],
    [
      'httpGet probe',
      spec.containers[0]!.livenessProbe,
      {
        httpGet: { port: 8080, path: '/', scheme: 'HTTP' },
        timeoutSeconds: 1,
        periodSeconds: 10,
        successThreshold: 1,
        failureThreshold: 3,
      },
    ],
    [
      'grpc probe keeps its period',
      spec.containers[0]!.readinessProbe,
      {
        grpc: { port: 9000, service: '' },
        periodSeconds: 5,
        timeoutSeconds: 1,
        successThreshold: 1,
        failureThreshold: 3,
      },
    ],
    [
      'lifecycle httpGet',
      spec.containers[0]!.lifecycle?.preStop?.httpGet,
      { port: 8080, path: '/quit', scheme: 'HTTP' },
    ],
    [
      'volumes',
      spec.volumes,
      [
        { name: 'scratch', emptyDir: {} },
        { name: 'cfg', configMap: { name: 'cfg', defaultMode: 420 } },
        { name: 'sec', secret: { secretName: 's', defaultMode: 384 } },
        { name: 'host', hostPath: { path: '/var/log', type: '' } },
        {
          name: 'api',
          downwardAPI: {
            items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels', apiVersion: 'v1' } }],
            defaultMode: 420,
          },
        },
        {
          name: 'tok',
          projected: {
            sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3600 } }],
            defaultMode: 420,
          },
        },
      ],
    ],
    ['no service-account volume is invented', spec.containers[0]!.volumeMounts, undefined],
  ];
  for (const [what, got, want] of rows) assert.deepEqual(got, want, what);
});

test('applyPodDefaults returns a new object and leaves its input alone', () => {
  const input: Pod = {
    metadata: { name: 'x' },
    spec: { containers: [{ name: 'c', image: 'nginx', resources: { limits: { cpu: '1' } } }] },
  };
  const before = structuredClone(input);
  const out = applyPodDefaults(input);
  assert.deepEqual(input, before);
  assert.notEqual(out.spec, input.spec);
  assert.deepEqual(out.spec?.containers[0]?.resources, { limits: { cpu: '1' }, requests: { cpu: '1' } });
});

test('defaulting a hand-written nginx container gives the kubelet 1.16–1.30 hash of the stored container', () => {
  const [p] = parseManifestText(
    'kind: Pod\napiVersion: v1\nmetadata: {name: web}\nspec: {containers: [{name: nginx, image: nginx}]}\n',
    'web.yaml',
  );
  assert.equal(formatHash(hashContainerLegacy(p!.pod.spec!.containers[0]!)), 'ca26540d');
});

test('YAML is read as kubectl reads it', () => {
  const [p] = parseManifestText(
    'kind: Pod\napiVersion: v1\nmetadata: {name: web}\nspec:\n  containers: [{name: c, image: busybox, env: [{name: T, value: 12:30}, {name: D, value: 2001-12-14}]}]\n  volumes: [{name: v, secret: {secretName: s, defaultMode: 0644}}]\n',
    'y.yaml',
  );
  assert.deepEqual(p!.pod.spec?.containers[0]?.env, [
    { name: 'T', value: '12:30' },
    { name: 'D', value: '2001-12-14' },
  ]);
  assert.equal(p!.pod.spec?.volumes?.[0]?.secret?.defaultMode, 420);
});

test('empty documents are skipped but keep their numbers', () => {
  const pod = (n: string): string =>
    `kind: Pod\napiVersion: v1\nmetadata: {name: ${n}}\nspec: {containers: [{name: c, image: busybox}]}\n`;
  const pods = parseManifestText(`---\n${pod('a')}---\n---\n${pod('b')}---\n`, 'm.yaml');
  assert.deepEqual(
    pods.map((p) => [p.pod.metadata?.name, p.source.document]),
    [
      ['a', 1],
      ['b', 3],
    ],
  );
});
