// kubelet's QoS tables, re-expressed: TestComputePodQOS (pkg/apis/core/v1/helper/qos/qos_test.go,
// including the pod-level resources rows, PodLevelResources on from 1.34) and
// TestGetContainerOOMScoreAdjust (pkg/kubelet/qos/policy_test.go: best-effort, burstable,
// guaranteed, critical pods, sidecars capped by the smallest regular container, and the share of
// a pod-level memory request not given to any container).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod, ResourceRequirements } from '../../src/kubelet/api-types';
import { containerOOMScoreAdjust, getPodQOS, isCriticalPod } from '../../src/kubelet/resources';
import { podCgroup } from '../../src/kubelet/pod-cgroup';

type List = Record<string, string>;
const list = (cpu: string, memory: string, extra: List = {}): List => ({
  ...(cpu ? { cpu } : {}),
  ...(memory ? { memory } : {}),
  ...extra,
});
const ctr = (name: string, requests: List, limits: List, extra: Partial<Container> = {}): Container => ({
  name,
  resources: { requests, limits },
  ...extra,
});
const pod = (
  containers: Container[],
  extra: { initContainers?: Container[]; resources?: ResourceRequirements } = {},
): Pod => ({ spec: { containers, ...extra } });

test('TestComputePodQOS', () => {
  const cases: Array<[string, Pod, 'Guaranteed' | 'Burstable' | 'BestEffort', boolean?]> = [
    ['guaranteed', pod([ctr('a', list('100m', '100Mi'), list('100m', '100Mi'))]), 'Guaranteed'],
    [
      'guaranteed-guaranteed',
      pod([
        ctr('a', list('100m', '100Mi'), list('100m', '100Mi')),
        ctr('b', list('100m', '100Mi'), list('100m', '100Mi')),
      ]),
      'Guaranteed',
    ],
    ['best-effort-best-effort', pod([ctr('a', {}, {}), ctr('b', {}, {})]), 'BestEffort'],
    ['best-effort', pod([ctr('a', {}, {})]), 'BestEffort'],
    ['best-effort-burstable', pod([ctr('a', {}, {}), ctr('b', list('1', ''), list('2', ''))]), 'Burstable'],
    [
      'best-effort-guaranteed',
      pod([ctr('a', {}, {}), ctr('b', list('10m', '100Mi'), list('10m', '100Mi'))]),
      'Burstable',
    ],
    ['burstable-cpu-guaranteed-memory', pod([ctr('a', list('', '100Mi'), list('', '100Mi'))]), 'Burstable'],
    ['burstable-no-limits', pod([ctr('a', list('100m', '100Mi'), {})]), 'Burstable'],
    [
      'burstable-guaranteed',
      pod([ctr('a', list('1', '100Mi'), list('2', '100Mi')), ctr('b', list('100m', '100Mi'), list('100m', '100Mi'))]),
      'Burstable',
    ],
    [
      'burstable-unbounded-but-requests-match-limits',
      pod([ctr('a', list('100m', '100Mi'), list('200m', '200Mi')), ctr('b', list('100m', '100Mi'), {})]),
      'Burstable',
    ],
    ['burstable-1', pod([ctr('a', list('10m', '100Mi'), list('100m', '200Mi'))]), 'Burstable'],
    ['burstable-2', pod([ctr('a', list('0', '0'), list('100m', '200Mi'))]), 'Burstable'],
    [
      'best-effort-hugepages',
      pod([ctr('a', list('0', '0', { 'hugepages-2Mi': '1Gi' }), list('0', '0', { 'hugepages-2Mi': '1Gi' }))]),
      'BestEffort',
    ],
    [
      'init-container',
      pod([ctr('a', {}, {})], { initContainers: [ctr('i', list('10m', '100Mi'), list('100m', '200Mi'))] }),
      'Burstable',
    ],
    [
      'guaranteed-with-pod-level-resources',
      pod([ctr('a', {}, {})], { resources: { requests: list('10m', '100Mi'), limits: list('10m', '100Mi') } }),
      'Guaranteed',
      true,
    ],
    [
      'guaranteed-with-pod-and-container-level-resources',
      pod([ctr('a', list('3m', '10Mi'), list('5m', '20Mi'))], {
        resources: { requests: list('10m', '100Mi'), limits: list('10m', '100Mi') },
      }),
      'Guaranteed',
      true,
    ],
    [
      'burstable-with-pod-level-resources',
      pod([ctr('a', {}, {})], { resources: { requests: list('10m', '10Mi'), limits: list('20m', '50Mi') } }),
      'Burstable',
      true,
    ],
    [
      'burstable-with-pod-and-container-level-resources',
      pod([ctr('a', list('5m', '10Mi'), list('5m', '10Mi'))], {
        resources: { requests: list('10m', '10Mi'), limits: list('20m', '50Mi') },
      }),
      'Burstable',
      true,
    ],
    [
      'burstable-with-pod-and-container-level-requests',
      pod([ctr('a', list('5m', '10Mi'), {})], { resources: { requests: list('10m', '10Mi'), limits: {} } }),
      'Burstable',
      true,
    ],
    [
      'burstable-with-pod-and-container-level-resources-2',
      pod([ctr('a', list('5m', '10Mi'), {}), ctr('b', list('5m', '10Mi'), list('5m', '10Mi'))], {
        resources: { requests: list('10m', '10Mi'), limits: list('5m', '') },
      }),
      'Burstable',
      true,
    ],
    // The pod-level rule compares request and limit of each resource and needs as many of one as of the other.
    [
      'pod-level limits for cpu and memory, a request only for cpu',
      pod([ctr('a', {}, {})], { resources: { requests: list('10m', ''), limits: list('10m', '10Mi') } }),
      'Burstable',
      true,
    ],
  ];
  for (const [name, p, want, podLevel] of cases) assert.equal(getPodQOS(p, podLevel ?? false), want, name);
});

test('TestGetContainerOOMScoreAdjust', () => {
  const STD = 8_000_000_000;
  const memReq = (n: number) => ({ memory: String(n) });
  const sample = { requests: memReq(STD / 8), limits: memReq(1000 + STD / 8) };
  const podMemLimit = String(1000 + STD / 4);
  const init = ctr('init-container', sample.requests, sample.limits);
  const main = ctr('main-1', sample.requests, sample.limits);
  const sidecar = (name: string, request: number) =>
    ctr(name, memReq(request), sample.limits, { restartPolicy: 'Always' });
  const podLevel = (requests: List, limits: List) => ({ resources: { requests, limits } });
  const guaranteedPod = podLevel({ cpu: '5m', memory: String(STD / 4) }, { cpu: '5m', memory: String(STD / 4) });
  const burstablePod = podLevel({ cpu: '5m', memory: String(STD / 4) }, { cpu: '5m', memory: podMemLimit });
  const cases: Array<{
    name: string;
    pod: Pod;
    capacity: number;
    want: Record<string, [number, number]>;
    podLevel?: boolean;
  }> = [
    {
      name: 'cpu-limit',
      pod: pod([ctr('cpu-limit', {}, { cpu: '10' })]),
      capacity: 4e9,
      want: { 'cpu-limit': [999, 999] },
    },
    {
      name: 'memory-limit-cpu-request',
      pod: pod([ctr('m', { cpu: '0' }, { memory: '10G' })]),
      capacity: 8e9,
      want: { m: [999, 999] },
    },
    {
      name: 'zero-memory-limit',
      pod: pod([ctr('z', {}, { memory: '0' })]),
      capacity: 7230457451,
      want: { z: [1000, 1000] },
    },
    { name: 'no-request-limit', pod: pod([ctr('n', {}, {})]), capacity: 4e9, want: { n: [1000, 1000] } },
    {
      name: 'equal-request-limit-cpu-memory',
      pod: pod([ctr('e', { memory: '10G', cpu: '5m' }, { cpu: '5m', memory: '10G' })]),
      capacity: 123456789,
      want: { e: [-997, -997] },
    },
    {
      name: 'cpu-unlimited-memory-limited-with-requests',
      pod: pod([ctr('c', { memory: String(STD / 2), cpu: '5m' }, { memory: '10G' })]),
      capacity: STD,
      want: { c: [495, 505] },
    },
    {
      name: 'request-no-limit',
      pod: pod([ctr('r', { memory: String(STD - 1), cpu: '5m' }, {})]),
      capacity: STD,
      want: { r: [3, 3] },
    },
    {
      name: 'cluster-critical',
      pod: {
        spec: {
          priorityClassName: 'system-cluster-critical',
          priority: 2_000_000_000,
          containers: [ctr('cc', {}, {})],
        },
      },
      capacity: 4e9,
      want: { cc: [1000, 1000] },
    },
    {
      name: 'node-critical',
      pod: {
        spec: { priorityClassName: 'system-node-critical', priority: 2_000_001_000, containers: [ctr('nc', {}, {})] },
      },
      capacity: 4e9,
      want: { nc: [-997, -997] },
    },
    {
      name: 'burstable-unique-container-pod',
      pod: pod([ctr('b', sample.requests, sample.limits)]),
      capacity: STD,
      want: { b: [875, 880] },
    },
    {
      name: 'burstable-mixed-unique-main-container-pod',
      pod: pod([main], { initContainers: [init] }),
      capacity: STD,
      want: { 'init-container': [875, 880], 'main-1': [875, 880] },
    },
    {
      name: 'burstable-mixed-multi-container-small-sidecar-pod',
      pod: pod([main], { initContainers: [init, sidecar('sidecar-small-container', STD / 20)] }),
      capacity: STD,
      want: { 'init-container': [875, 880], 'sidecar-small-container': [875, 875], 'main-1': [875, 875] },
    },
    {
      name: 'burstable-mixed-multi-container-sample-request-pod',
      pod: pod([main], { initContainers: [init, sidecar('sidecar-container', STD / 8)] }),
      capacity: STD,
      want: { 'init-container': [875, 880], 'sidecar-container': [875, 875], 'main-1': [875, 875] },
    },
    {
      name: 'burstable-mixed-multi-container-big-sidecar-container-pod',
      pod: pod([main], { initContainers: [init, sidecar('sidecar-big-container', STD / 2)] }),
      capacity: STD,
      want: { 'init-container': [875, 880], 'sidecar-big-container': [500, 500], 'main-1': [875, 875] },
    },
    {
      name: 'guaranteed-pod-resources-no-container-resources',
      pod: pod([ctr('n1', {}, {}), ctr('n2', {}, {})], guaranteedPod),
      capacity: 4e9,
      podLevel: true,
      want: { n1: [-997, -997], n2: [-997, -997] },
    },
    {
      name: 'guaranteed-pod-resources-equal-container-resources',
      pod: pod(
        [
          ctr('g1', { cpu: '5m', memory: String(STD / 8) }, { cpu: '5m', memory: String(STD / 8) }),
          ctr('g2', { cpu: '5m', memory: String(STD / 8) }, { cpu: '5m', memory: String(STD / 8) }),
        ],
        guaranteedPod,
      ),
      capacity: 4e9,
      podLevel: true,
      want: { g1: [-997, -997], g2: [-997, -997] },
    },
    {
      name: 'guaranteed-pod-resources-unequal-container-requests',
      pod: pod(
        [
          ctr('b', { cpu: '3m', memory: String(STD / 8) }, { cpu: '5m', memory: String(1000 + STD / 8) }),
          ctr('be', {}, {}),
        ],
        guaranteedPod,
      ),
      capacity: 4e9,
      podLevel: true,
      want: { b: [-997, -997], be: [-997, -997] },
    },
    {
      name: 'burstable-pod-resources-no-container-resources',
      pod: pod([ctr('n1', {}, {}), ctr('n2', {}, {})], burstablePod),
      capacity: 4e9,
      podLevel: true,
      want: { n1: [750, 750], n2: [750, 750] },
    },
    {
      name: 'burstable-pod-resources-equal-container-requests',
      pod: pod(
        [
          ctr('g1', { cpu: '5m', memory: String(STD / 8) }, { cpu: '5m', memory: String(STD / 8) }),
          ctr('g2', { cpu: '5m', memory: String(STD / 8) }, { cpu: '5m', memory: String(STD / 8) }),
        ],
        burstablePod,
      ),
      capacity: 4e9,
      podLevel: true,
      want: { g1: [750, 750], g2: [750, 750] },
    },
    {
      name: 'burstable-pod-resources-unequal-container-requests',
      pod: pod(
        [ctr('b', { cpu: '3m', memory: String(STD / 8) }, { cpu: '5m', memory: String(STD / 8) }), ctr('be', {}, {})],
        burstablePod,
      ),
      capacity: 4e9,
      podLevel: true,
      want: { b: [625, 625], be: [875, 875] },
    },
    {
      name: 'burstable-pod-resources-no-container-resources-with-sidecar',
      pod: pod([ctr('n', {}, {})], {
        ...burstablePod,
        initContainers: [ctr('ns', {}, {}, { restartPolicy: 'Always' })],
      }),
      capacity: 4e9,
      podLevel: true,
      want: { n: [750, 750], ns: [750, 750] },
    },
    {
      name: 'burstable-pod-resources-equal-container-requests-with-sidecar',
      pod: pod([ctr('b', { cpu: '5m', memory: String(STD / 8) }, { cpu: '5m', memory: String(1000 + STD / 8) })], {
        ...burstablePod,
        initContainers: [
          ctr(
            's',
            { cpu: '5m', memory: String(STD / 8) },
            { cpu: '5m', memory: String(1000 + STD / 8) },
            { restartPolicy: 'Always' },
          ),
        ],
      }),
      capacity: 4e9,
      podLevel: true,
      want: { b: [750, 750], s: [750, 750] },
    },
    {
      name: 'burstable-pod-resources-unequal-container-requests-with-sidecar',
      pod: pod(
        [
          ctr('b1', { cpu: '5m', memory: '1000000000' }, { cpu: '5m', memory: podMemLimit }),
          ctr('b2', { cpu: '5m', memory: '500000000' }, { cpu: '5m', memory: podMemLimit }),
        ],
        {
          resources: { requests: { cpu: '5m', memory: '2000000000' }, limits: { cpu: '5m', memory: podMemLimit } },
          initContainers: [
            ctr(
              's',
              { cpu: '5m', memory: '200000000' },
              { cpu: '5m', memory: podMemLimit },
              { restartPolicy: 'Always' },
            ),
          ],
        },
      ),
      capacity: 4e9,
      podLevel: true,
      want: { b1: [725, 725], b2: [850, 850], s: [850, 850] },
    },
  ];
  for (const c of cases) {
    const podLevel = c.podLevel ?? false;
    const qos = getPodQOS(c.pod, podLevel);
    const nodeCritical = isCriticalPod(c.pod, 'api') && c.pod.spec?.priorityClassName === 'system-node-critical';
    for (const container of [...(c.pod.spec!.initContainers ?? []), ...c.pod.spec!.containers]) {
      const adj = containerOOMScoreAdjust(c.pod, container, {
        qos,
        nodeCritical,
        memoryCapacityBytes: c.capacity,
        podLevelResources: podLevel,
      });
      const [low, high] = c.want[container.name]!;
      assert.ok(adj >= low && adj <= high, `${c.name}/${container.name}: ${adj} not in [${low}, ${high}]`);
    }
  }
});

test('the pod cgroup follows the pod-level QoS class when PodLevelResources is on (1.34+)', () => {
  // Containers without resources, pod-level requests equal to limits: Guaranteed with the gate,
  // BestEffort without it; the pod cgroup kubelet creates differs accordingly.
  const p: Pod = {
    metadata: { name: 'p', namespace: 'd', uid: 'u-1' },
    spec: {
      containers: [ctr('a', {}, {})],
      resources: { requests: list('10m', '100Mi'), limits: list('10m', '100Mi') },
    },
  };
  assert.equal(podCgroup(p, { driver: 'cgroupfs', version: 2, podLevelResources: true }).name, '/kubepods/podu-1');
  assert.equal(podCgroup(p, { driver: 'cgroupfs', version: 2 }).name, '/kubepods/besteffort/podu-1');
  assert.equal(
    podCgroup(p, { driver: 'systemd', version: 2, podLevelResources: true }).name,
    '/kubepods.slice/kubepods-podu_1.slice',
  );
});
