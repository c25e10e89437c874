// crictl's list filters: what is sent to the runtime and what is applied afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Image, PodSandbox } from '../../src/cri/types';
import { compareInt64Strings } from '../../src/cri/int64';
import {
  containerFilter,
  filterContainers,
  filterImages,
  filterPods,
  imageRefsToResolve,
  parseLabelSelector,
  podSandboxFilter,
  resolveIdPrefix,
  sortImages,
  type ContainerListFlags,
  type PodListFlags,
} from '../../src/state/filters';
import { seeded } from '../fixtures/seeded';

const pod = (
  id: string,
  name: string,
  namespace: string,
  createdAt: number,
  extra: Partial<PodSandbox> = {},
): PodSandbox => ({
  id,
  metadata: { name, uid: `uid-${id}`, namespace, attempt: 0 },
  state: 'SANDBOX_READY',
  createdAt: String(createdAt),
  labels: {},
  annotations: {},
  runtimeHandler: '',
  ...extra,
});

const PODS: PodSandbox[] = [
  pod('aaa111', 'web-1', 'default', 100, { labels: { app: 'web', tier: 'front' } }),
  pod('aaa222', 'web-2', 'prod', 300, { labels: { app: 'web' }, state: 'SANDBOX_NOTREADY' }),
  pod('bbb333', 'db-0', 'prod', 200, { labels: { app: 'db' } }),
  { ...pod('ccc444', 'x', 'x', 400), metadata: undefined },
];

test('pods: CRI filter carries id, state and labels', () => {
  assert.deepEqual(podSandboxFilter({}), { id: '', labelSelector: {} });
  assert.deepEqual(podSandboxFilter({ id: 'aaa', state: 'NotReady', labels: ['app=web', 'tier=front'] }), {
    id: 'aaa',
    state: { state: 'SANDBOX_NOTREADY' },
    labelSelector: { app: 'web', tier: 'front' },
  });
});

test('pods: client-side filters, newest first, --latest/--last', () => {
  const cases: Array<[string, PodListFlags, string[]]> = [
    ['no flags: all with metadata, newest first', {}, ['aaa222', 'bbb333', 'aaa111']],
    ['name regex is a search, not anchored', { name: 'eb-' }, ['aaa222', 'aaa111']],
    ['anchored name regex', { name: '^db' }, ['bbb333']],
    ['namespace regex', { namespace: '^prod$' }, ['aaa222', 'bbb333']],
    ['case-insensitive inline flag', { name: '(?i)^WEB' }, ['aaa222', 'aaa111']],
    ['id prefix', { id: 'aaa' }, ['aaa222', 'aaa111']],
    ['state ready', { state: 'ready' }, ['bbb333', 'aaa111']],
    ['label selector needs every pair', { labels: ['app=web', 'tier=front'] }, ['aaa111']],
    ['--latest', { latest: true }, ['aaa222']],
    ['--last 2', { last: 2 }, ['aaa222', 'bbb333']],
    ['--last 0 is unlimited', { last: 0 }, ['aaa222', 'bbb333', 'aaa111']],
    ['--last wins over --latest', { latest: true, last: 2 }, ['aaa222', 'bbb333']],
    ['--last after the other filters', { namespace: 'prod', last: 1 }, ['aaa222']],
  ];
  for (const [name, flags, want] of cases) {
    assert.deepEqual(
      filterPods(PODS, flags).map((p) => p.id),
      want,
      name,
    );
  }
});

test('bad flag values are one-line errors in crictl words', () => {
  const cases: Array<[() => unknown, string]> = [
    [() => podSandboxFilter({ state: 'running' }), '--state should be ready or notready'],
    [() => containerFilter({ state: 'ready' }), '--state should be one of created, running, exited or unknown'],
    [() => parseLabelSelector(['app']), 'incorrectly specified label: app'],
    [() => parseLabelSelector(['a=b=c']), 'incorrectly specified label: a=b=c'],
    [() => filterImages([], ['colour=red']), 'unknown filter flag: colour=red'],
  ];
  for (const [fn, message] of cases) assert.throws(fn, { name: 'SyncpodError', message });
  assert.throws(
    () => filterPods(PODS, { name: '(' }),
    (err: Error) =>
      err.name === 'SyncpodError' &&
      err.message.startsWith('invalid regular expression "(": ') &&
      !err.message.includes('\n'),
  );
});

const ctr = (id: string, name: string, createdAt: number, extra: Partial<Container> = {}): Container => ({
  id,
  podSandboxId: 'pod-' + id,
  metadata: { name, attempt: 0 },
  image: { image: 'nginx:1.25', annotations: {}, userSpecifiedImage: '', runtimeHandler: '', imageRef: '' },
  imageRef: '',
  state: 'CONTAINER_RUNNING',
  createdAt: String(createdAt),
  labels: {},
  annotations: {},
  imageId: '',
  ...extra,
});

const busybox = { image: 'busybox', annotations: {}, userSpecifiedImage: '', runtimeHandler: '', imageRef: '' };
const CONTAINERS: Container[] = [
  ctr('c1', 'nginx', 10, { labels: { 'io.kubernetes.pod.namespace': 'default' } }),
  ctr('c2', 'sidecar', 30, { state: 'CONTAINER_EXITED', image: busybox }),
  ctr('c3', 'nginx', 20, {
    state: 'CONTAINER_CREATED',
    podSandboxId: 'pod-x',
    labels: { 'io.kubernetes.pod.namespace': 'kube-system' },
  }),
];

test('ps: CRI filter is running-only unless -a, --state, --latest or --last', () => {
  const cases: Array<[string, ContainerListFlags, unknown]> = [
    ['default', {}, { id: '', podSandboxId: '', labelSelector: {}, state: { state: 'CONTAINER_RUNNING' } }],
    ['-a', { all: true }, { id: '', podSandboxId: '', labelSelector: {} }],
    [
      '--state exited',
      { state: 'Exited' },
      { id: '', podSandboxId: '', labelSelector: {}, state: { state: 'CONTAINER_EXITED' } },
    ],
    ['--latest drops the state', { state: 'running', latest: true }, { id: '', podSandboxId: '', labelSelector: {} }],
    ['--last drops the state', { last: 3 }, { id: '', podSandboxId: '', labelSelector: {} }],
    [
      '--id, --pod and labels',
      { id: 'c1', pod: 'pod', labels: ['a=b'] },
      {
        id: 'c1',
        podSandboxId: 'pod',
        labelSelector: { a: 'b' },
        state: { state: 'CONTAINER_RUNNING' },
      },
    ],
  ];
  for (const [name, flags, want] of cases) assert.deepEqual(containerFilter(flags), want, name);
});

test('ps: client-side filters, newest first', () => {
  const imageIds: Record<string, string> = { 'nginx:1.25': 'sha256:n', nginx: 'sha256:n', busybox: 'sha256:b' };
  const idOf = (ref: string) => imageIds[ref];
  const cases: Array<[string, ContainerListFlags, string[]]> = [
    ['default: running only', {}, ['c1']],
    ['-a: every state, newest first', { all: true }, ['c2', 'c3', 'c1']],
    ['--name regex', { all: true, name: '^ngi' }, ['c3', 'c1']],
    ['--namespace regex on the pod-namespace label', { all: true, namespace: 'kube' }, ['c3']],
    ['containers without the label count as namespace "unknown"', { all: true, namespace: '^unknown$' }, ['c2']],
    ['--pod prefix', { all: true, pod: 'pod-x' }, ['c3']],
    ['--image compares image ids', { all: true, image: 'nginx' }, ['c3', 'c1']],
    ['--image unknown to the runtime matches nothing', { all: true, image: 'alpine' }, []],
    ['--latest looks at every state', { latest: true }, ['c2']],
    ['--last 2', { last: 2 }, ['c2', 'c3']],
  ];
  for (const [name, flags, want] of cases) {
    assert.deepEqual(
      filterContainers(CONTAINERS, flags, idOf).map((c) => c.id),
      want,
      name,
    );
  }
  assert.deepEqual(imageRefsToResolve(CONTAINERS, 'nginx'), ['busybox', 'nginx', 'nginx:1.25']);
  assert.deepEqual(imageRefsToResolve(CONTAINERS, undefined), []);
});

const img = (id: string, repoTags: string[], repoDigests: string[] = []): Image => ({
  id,
  repoTags,
  repoDigests,
  size: '1',
  username: '',
  pinned: false,
});

const IMAGES = sortImages([
  img('sha256:ccc', ['z/app:1'], ['z/app@sha256:c1']),
  img('sha256:aaa', ['a/base:2'], ['a/base@sha256:a1']),
  img('sha256:ddd', [], ['q/dangling@sha256:d1']),
  img('sha256:bbb', ['m/mid:3'], ['m/mid@sha256:b1']),
]);

test('images are sorted by first repo tag as crictl sorts them', () => {
  assert.deepEqual(
    IMAGES.map((i) => i.id),
    ['sha256:aaa', 'sha256:bbb', 'sha256:ddd', 'sha256:ccc'],
  );
});

test('images --filter conditions', () => {
  const cases: Array<[string[], string[]]> = [
    [['dangling=true'], ['sha256:ddd']],
    [['dangling=false'], ['sha256:aaa', 'sha256:bbb', 'sha256:ccc']],
    [['reference=^m/'], ['sha256:bbb']],
    [['reference=dangling'], ['sha256:ddd']],
    [['since=m/mid:3'], ['sha256:aaa']],
    [['before=m/mid:3'], ['sha256:ddd', 'sha256:ccc']],
    [['since=sha256:c'], ['sha256:aaa', 'sha256:bbb', 'sha256:ddd', 'sha256:ccc']],
    [['since=sha256'], []],
    [['before=m/mid@sha256:b1'], ['sha256:ddd', 'sha256:ccc']],
    [
      ['dangling=false', 'reference=^[az]/'],
      ['sha256:aaa', 'sha256:ccc'],
    ],
  ];
  for (const [conditions, want] of cases) {
    assert.deepEqual(
      filterImages(IMAGES, conditions).map((i) => i.id),
      want,
      conditions.join(' '),
    );
  }
});

test('id prefixes resolve to one id or fail in one line', () => {
  const ids = ['abc123', 'abd456', 'abd789', 'zzz'];
  assert.equal(resolveIdPrefix('abc', ids, 'container'), 'abc123');
  assert.equal(resolveIdPrefix('zzz', ids, 'container'), 'zzz');
  assert.equal(resolveIdPrefix('ab', ['ab', 'abc'], 'pod sandbox'), 'ab', 'an exact id wins');
  const errors: Array<[string, Parameters<typeof resolveIdPrefix>[2], string]> = [
    ['x', 'pod sandbox', 'no pod sandbox matches ID prefix "x": not found'],
    ['ab', 'container', 'ID prefix "ab" is ambiguous: matches 3 containers'],
    ['abd', 'image', 'ID prefix "abd" is ambiguous: matches 2 images'],
    ['', 'container', 'ID cannot be empty'],
  ];
  for (const [prefix, kind, message] of errors) {
    assert.throws(() => resolveIdPrefix(prefix, ids, kind), { name: 'SyncpodError', message });
  }
});

test('compareInt64Strings orders int64 strings as their numbers do (random values, negatives, zero as "")', () => {
  const random = seeded(20261127);
  const samples = [
    '',
    '0',
    '1',
    '9',
    '10',
    '-1',
    '-9',
    '-10',
    '1795748976034641470',
    '1795748976034641471',
    '999999999999999999',
    '-9223372036854775808',
    '9223372036854775807',
  ];
  for (let i = 0; i < 300; i++) {
    const digits = 1 + Math.floor(random() * 19);
    let v = String(1 + Math.floor(random() * 9));
    for (let d = 1; d < digits; d++) v += String(Math.floor(random() * 10));
    samples.push(random() < 0.2 ? `-${v}` : v);
  }
  const num = (s: string) => BigInt(s || '0');
  for (const a of samples) {
    for (const b of samples.slice(0, 60)) {
      const want = num(a) < num(b) ? -1 : num(a) > num(b) ? 1 : 0;
      assert.equal(Math.sign(compareInt64Strings(a, b)), want, `${a} vs ${b}`);
    }
  }
});
