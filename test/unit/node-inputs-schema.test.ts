// Static pod files and given pod lists are checked against the API schema like every other
// manifest: a wrong-typed field is one problem line naming the file and the field, never a pod.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseGivenPods, parseStaticPodFile } from '../../src/workflows/node-inputs';

const wrongTyped: Array<{ name: string; yaml: string; field: string }> = [
  { name: 'command as a string', yaml: "command: sh -c 'sleep 1'", field: 'spec.containers[0].command' },
  { name: 'args as a number', yaml: 'args: 5', field: 'spec.containers[0].args' },
  { name: 'env as a map', yaml: 'env: {A: b}', field: 'spec.containers[0].env' },
  { name: 'workingDir as a number', yaml: 'workingDir: 5', field: 'spec.containers[0].workingDir' },
];

function staticPod(extra: string): string {
  return [
    'apiVersion: v1',
    'kind: Pod',
    'metadata:',
    '  name: web',
    'spec:',
    '  containers:',
    '  - name: c',
    '    image: busybox',
    `    ${extra}`,
    '',
  ].join('\n');
}

for (const c of wrongTyped) {
  test(`a static pod file with ${c.name} is a problem naming the file and ${c.field}`, () => {
    const r = parseStaticPodFile(staticPod(c.yaml), '/etc/kubernetes/manifests/web.yaml');
    assert.equal(typeof r, 'string');
    assert.match(r as string, /^\/etc\/kubernetes\/manifests\/web\.yaml: /);
    assert.ok((r as string).includes(c.field), r as string);
  });
}

test('a List item with a wrong-typed field is a problem naming items[N] and the field; the good item stays', () => {
  const list = JSON.stringify({
    apiVersion: 'v1',
    kind: 'List',
    items: [
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'good', namespace: 'a' },
        spec: { containers: [{ name: 'c', image: 'busybox' }] },
      },
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'bad', namespace: 'a' },
        spec: { hostNetwork: 'yes', containers: [{ name: 'c', image: 'busybox' }] },
      },
    ],
  });
  const r = parseGivenPods(list, 'pods.json');
  assert.deepEqual(
    r.pods.map((p) => p.pod.metadata?.name),
    ['good'],
  );
  assert.equal(r.problems.length, 1);
  assert.match(r.problems[0]!, /^pods\.json: document 1: items\[1\]\.spec\.hostNetwork: /);
});

test('a static pod file whose YAML aliases expand too far is one problem naming the file, not an exception', () => {
  const lol = [
    'a: &a [x,x,x,x,x,x,x,x,x,x]',
    'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]',
    'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]',
    'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]',
    'e: [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]',
  ].join('\n');
  const r = parseStaticPodFile(lol, '/etc/kubernetes/manifests/lol.yaml');
  assert.equal(typeof r, 'string');
  assert.match(r as string, /^\/etc\/kubernetes\/manifests\/lol\.yaml: YAML aliases expand too far/);
});

test('static pod files that are not one core/v1 Pod: one problem each, worded for what the file holds', () => {
  const rows: Array<[string, string, RegExp]> = [
    [
      'a JSON array',
      '[1, 2]',
      /^m\/x: not a Kubernetes object \(a list\): kubelet's file source accepts one Pod per file$/,
    ],
    ['plain text', 'hello there', /^m\/x: not a Kubernetes object \(text\): /],
    ['a number', '42', /^m\/x: not a Kubernetes object \(a number\): /],
    ['a ConfigMap', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n', /^m\/x: ConfigMap is not a Pod: /],
    ['no kind', 'apiVersion: v1\nmetadata: {name: c}\n', /^m\/x: an object without kind is not a Pod: /],
    [
      'apiVersion v2',
      staticPod('').replace('apiVersion: v1', 'apiVersion: v2'),
      /^m\/x: apiVersion "v2" is not v1: kubelet's file source decodes core\/v1 Pods$/,
    ],
    ['no apiVersion', staticPod('').replace('apiVersion: v1\n', ''), /^m\/x: apiVersion "" is not v1: /],
  ];
  for (const [name, text, want] of rows) {
    const r = parseStaticPodFile(text, 'm/x');
    assert.equal(typeof r, 'string', name);
    assert.match(r as string, want, name);
  }
  assert.equal(typeof parseStaticPodFile(staticPod(''), 'm/x'), 'object');
});
