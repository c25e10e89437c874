// Static pods as kubelet's file source names and annotates them (config/common.go, file.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../src/kubelet/api-types';
import {
  applyStaticPodDefaults,
  fnv128a,
  generatePodName,
  isMirrorPod,
  isStaticPod,
  staticPodFiles,
  staticPodUID,
} from '../../src/kubelet/static-pods';

const pod = (): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'etcd', namespace: 'kube-system', annotations: { a: 'b' } },
  spec: { containers: [{ name: 'etcd', image: 'etcd:3.5' }], tolerations: [{ key: 'k', operator: 'Exists' }] },
});

test('generatePodName appends the lower-cased node name', () => {
  for (const [name, node, want] of [
    ['etcd', 'node-1', 'etcd-node-1'],
    ['kube-apiserver', 'Worker-A', 'kube-apiserver-worker-a'],
  ])
    assert.equal(generatePodName(name, node), want);
});

test('fnv-128a matches the published test vectors', () => {
  const e = new TextEncoder();
  assert.equal(fnv128a(e.encode('')), '6c62272e07bb014262b821756295c58d');
  assert.equal(fnv128a(e.encode('a')), 'd228cb696f1a8caf78912b704e4a8964');
  assert.equal(fnv128a(e.encode('abc')), 'a68d622cec8b5822836dbc7977af7f3b');
});

test('the computed uid changes with content, node and path, and not with key order', () => {
  const base = staticPodUID(pod(), 'n1', '/etc/kubernetes/manifests/etcd.yaml');
  assert.match(base, /^[0-9a-f]{32}$/);
  const reordered = { kind: 'Pod', spec: pod().spec, metadata: pod().metadata, apiVersion: 'v1' } as Pod;
  assert.equal(staticPodUID(reordered, 'n1', '/etc/kubernetes/manifests/etcd.yaml'), base);
  assert.notEqual(staticPodUID(pod(), 'n2', '/etc/kubernetes/manifests/etcd.yaml'), base);
  assert.notEqual(staticPodUID(pod(), 'n1', '/etc/kubernetes/manifests/etcd2.yaml'), base);
  const changed = pod();
  changed.spec!.containers[0].image = 'etcd:3.6';
  assert.notEqual(staticPodUID(changed, 'n1', '/etc/kubernetes/manifests/etcd.yaml'), base);
});

test('applyDefaults: name, namespace, nodeName, config.hash = uid, source file, NoExecute toleration', () => {
  const input = pod();
  const { pod: out, uidSource } = applyStaticPodDefaults(input, { nodeName: 'Node1', source: '/m/etcd.yaml' });
  assert.equal(uidSource, 'computed');
  assert.equal(out.metadata!.name, 'etcd-node1');
  assert.equal(out.metadata!.namespace, 'kube-system');
  assert.equal(out.spec!.nodeName, 'Node1');
  assert.equal(out.metadata!.annotations!['kubernetes.io/config.hash'], out.metadata!.uid);
  assert.equal(out.metadata!.annotations!['kubernetes.io/config.source'], 'file');
  assert.equal(out.metadata!.annotations!.a, 'b');
  assert.deepEqual(out.spec!.tolerations, [
    { key: 'k', operator: 'Exists' },
    { operator: 'Exists', effect: 'NoExecute' },
  ]);
  assert.equal(input.metadata!.name, 'etcd', 'the input is not changed');
  assert.ok(isStaticPod(out));
});

test('applyDefaults: namespace default, a known uid wins, the toleration is not doubled', () => {
  const p = pod();
  delete p.metadata!.namespace;
  p.spec!.tolerations = [{ operator: 'Exists', effect: 'NoExecute' }];
  const { pod: out, uidSource } = applyStaticPodDefaults(p, {
    nodeName: 'n',
    source: '/m/x',
    knownUID: { uid: 'abc', from: 'mirror-pod' },
  });
  assert.equal(out.metadata!.namespace, 'default');
  assert.equal(out.metadata!.uid, 'abc');
  assert.equal(uidSource, 'mirror-pod');
  assert.deepEqual(out.spec!.tolerations, [{ operator: 'Exists', effect: 'NoExecute' }]);
  const withUid = pod();
  (withUid.metadata as any).uid = 'given';
  const given = applyStaticPodDefaults(withUid, { nodeName: 'n', source: '/m/x' });
  assert.equal(given.pod.metadata!.uid, 'given');
  // kubelet keeps a file's own uid: not computed by syncpod (plan --node said so, and node-owners
  // matched such a pod by name at any uid); found by test:kubelet's cases with a uid in the file
  assert.equal(given.uidSource, 'manifest');
});

test('mirror pods are recognised by kubernetes.io/config.mirror', () => {
  assert.equal(isMirrorPod(pod()), false);
  const m = pod();
  m.metadata!.annotations = { 'kubernetes.io/config.mirror': 'u', 'kubernetes.io/config.source': 'file' };
  assert.equal(isMirrorPod(m), true);
  assert.equal(isStaticPod(pod()), false);
});

test('extractFromDir: no dot files, name order, directories and other kinds skipped with a reason', () => {
  const r = staticPodFiles([
    { name: 'b.yaml', kind: 'file' },
    { name: '.swp', kind: 'file' },
    { name: 'a.json', kind: 'file' },
    { name: 'sub', kind: 'dir' },
    { name: 'fifo', kind: 'other' },
    { name: 'noext', kind: 'file' },
  ]);
  assert.deepEqual(r.files, ['a.json', 'b.yaml', 'noext']);
  assert.deepEqual(
    r.skipped.map((s) => s.name),
    ['fifo', 'sub'],
  );
});
