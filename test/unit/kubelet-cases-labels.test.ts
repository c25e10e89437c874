// kubelet's labels tests re-expressed (our words, our layout), from kubernetes/kubernetes
// pkg/kubelet/kuberuntime/labels_test.go @a604ef47 (1.27–1.30-era tree: it checks
// hashWithoutResources with InPlacePodVerticalScaling on, the whole-spec hash scheme).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod } from '../../src/kubelet/api-types';
import { formatHash, hashContainerLegacy, hashContainerWithoutResources } from '../../src/kubelet/hash';
import { newContainerAnnotations, newContainerLabels, newPodAnnotations, newPodLabels } from '../../src/kubelet/labels';

const lifecycle = {
  preStop: {
    exec: { command: ['action1', 'action2'] },
    httpGet: { path: 'path', host: 'host', port: 8080, scheme: 'scheme' },
    tcpSocket: { port: '80' },
  },
} as Container['lifecycle'];

test('TestContainerLabels: the four identity labels', () => {
  const c: Container = { name: 'test_container', terminationMessagePath: '/somepath', lifecycle };
  const pod: Pod = {
    metadata: {
      name: 'test_pod',
      namespace: 'test_pod_namespace',
      uid: 'test_pod_uid',
      deletionGracePeriodSeconds: 10,
    },
    spec: { containers: [c], terminationGracePeriodSeconds: 10 },
  };
  assert.deepEqual(newContainerLabels(pod, c), {
    'io.kubernetes.pod.name': 'test_pod',
    'io.kubernetes.pod.namespace': 'test_pod_namespace',
    'io.kubernetes.pod.uid': 'test_pod_uid',
    'io.kubernetes.container.name': 'test_container',
  });
});

test('TestContainerAnnotations: ports, grace periods, hash (+ without resources), restart count, message path, preStop; absent ones left out', () => {
  const ports = [
    { name: 'http', hostPort: 80, containerPort: 8080, protocol: 'TCP' },
    { name: 'https', hostPort: 443, containerPort: 6443, protocol: 'TCP' },
  ];
  const c: Container = { name: 'test_container', ports, terminationMessagePath: '/somepath', lifecycle };
  const pod: Pod = {
    metadata: {
      name: 'test_pod',
      namespace: 'test_pod_namespace',
      uid: 'test_pod_uid',
      deletionGracePeriodSeconds: 10,
    },
    spec: { containers: [c], terminationGracePeriodSeconds: 10 },
  };
  const o = { restartCount: 5, hashScheme: 'whole-spec' as const, hashWithoutResources: true };
  const a = newContainerAnnotations(pod, c, o);
  assert.deepEqual(JSON.parse(a['io.kubernetes.container.ports']!), ports);
  assert.equal(a['io.kubernetes.pod.deletionGracePeriod'], '10');
  assert.equal(a['io.kubernetes.pod.terminationGracePeriod'], '10');
  assert.equal(a['io.kubernetes.container.hash'], formatHash(hashContainerLegacy(c)));
  assert.equal(a['io.kubernetes.container.hashWithoutResources'], formatHash(hashContainerWithoutResources(c)));
  assert.equal(a['io.kubernetes.container.restartCount'], '5');
  assert.equal(a['io.kubernetes.container.terminationMessagePath'], '/somepath');
  assert.deepEqual(JSON.parse(a['io.kubernetes.container.preStopHandler']!), {
    exec: { command: ['action1', 'action2'] },
    httpGet: { path: 'path', port: 8080, host: 'host', scheme: 'scheme' },
    tcpSocket: { port: '80' },
  });

  const bare: Container = { name: 'test_container', ports, terminationMessagePath: '/somepath' };
  const barePod: Pod = {
    metadata: { name: 'test_pod', namespace: 'test_pod_namespace', uid: 'test_pod_uid' },
    spec: { containers: [bare] },
  };
  const b = newContainerAnnotations(barePod, bare, o);
  for (const k of [
    'io.kubernetes.pod.deletionGracePeriod',
    'io.kubernetes.pod.terminationGracePeriod',
    'io.kubernetes.container.preStopHandler',
  ]) {
    assert.equal(b[k], undefined, `${k} is absent when its source is nil`);
  }
  assert.equal(
    b['io.kubernetes.container.hash'],
    formatHash(hashContainerLegacy(bare)),
    'the hash follows the changed container',
  );
  assert.notEqual(b['io.kubernetes.container.hash'], a['io.kubernetes.container.hash']);
});

test('TestPodLabels: the pod labels plus the identity labels', () => {
  const pod: Pod = {
    metadata: { name: 'test_pod', namespace: 'test_pod_namespace', uid: 'test_pod_uid', labels: { foo: 'bar' } },
    spec: { containers: [] },
  };
  assert.deepEqual(newPodLabels(pod), {
    foo: 'bar',
    'io.kubernetes.pod.name': 'test_pod',
    'io.kubernetes.pod.namespace': 'test_pod_namespace',
    'io.kubernetes.pod.uid': 'test_pod_uid',
  });
});

test('TestPodAnnotations: the pod annotations are kept (plus the config-source annotations kubelet adds on receipt)', () => {
  const pod: Pod = {
    metadata: { name: 'test_pod', namespace: 'test_pod_namespace', uid: 'test_pod_uid', annotations: { foo: 'bar' } },
    spec: { containers: [] },
  };
  const a = newPodAnnotations(pod, 'api', 'seen');
  assert.equal(a.foo, 'bar');
  assert.deepEqual(Object.keys(a).sort(), ['foo', 'kubernetes.io/config.seen', 'kubernetes.io/config.source']);
});
