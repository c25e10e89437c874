import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod } from '../../src/kubelet/api-types';
import {
  calculateSandboxResources,
  containerOOMScoreAdjust,
  convertOverheadToLinuxResources,
  DEFAULT_CGROUP_SETTINGS,
  generateLinuxContainerResources,
  getPodQOS,
  hugePageUnitSize,
  milliCPUToQuota,
  milliCPUToShares,
  type CgroupSettings,
} from '../../src/kubelet/resources';

type RL = Record<string, string>;
const ctr = (name: string, requests?: RL, limits?: RL, extra: Partial<Container> = {}): Container => ({
  name,
  image: 'busybox',
  ...(requests || limits ? { resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) } } : {}),
  ...extra,
});
const podOf = (containers: Container[], initContainers: Container[] = [], spec: Partial<Pod['spec']> = {}): Pod => ({
  metadata: { name: 'p', namespace: 'default', uid: 'u1' },
  spec: { containers, initContainers, ...spec },
});
const v2: CgroupSettings = { ...DEFAULT_CGROUP_SETTINGS, cgroupVersion: 2 };
const v1: CgroupSettings = { ...DEFAULT_CGROUP_SETTINGS, cgroupVersion: 1 };
const GI = 1024 ** 3;

test('MilliCPUToShares and milliCPUToQuota clamp as kubelet does', () => {
  const cases: Array<[string, number, number]> = [
    ['zero gives the minimum', 0, 2],
    ['1m rounds to 1 share, raised to 2', 1, 2],
    ['100m', 100, 102],
    ['250m', 250, 256],
    ['one CPU', 1000, 1024],
    ['300 CPUs capped at 262144', 300000, 262144],
  ];
  for (const [name, milli, shares] of cases) assert.equal(milliCPUToShares(milli), shares, name);
  assert.equal(milliCPUToQuota(0, 100000), 0, 'no limit, no quota');
  assert.equal(milliCPUToQuota(5, 100000), 1000, '500us raised to 1ms');
  assert.equal(milliCPUToQuota(500, 100000), 50000);
  assert.equal(milliCPUToQuota(500, 50000), 25000, 'custom period');
});

test('container resources: the worked examples (CFS quota on, default period)', () => {
  const cases: Array<{ name: string; requests?: RL; limits?: RL; shares: string; quota: string; memory: string }> = [
    { name: 'no resources', shares: '2', quota: '0', memory: '0' },
    {
      name: '250m/500m cpu, 256Mi memory',
      requests: { cpu: '250m' },
      limits: { cpu: '500m', memory: '256Mi' },
      shares: '256',
      quota: '50000',
      memory: '268435456',
    },
    { name: 'request only', requests: { cpu: '100m' }, shares: '102', quota: '0', memory: '0' },
    { name: 'limit only: shares from the limit', limits: { cpu: '1' }, shares: '1024', quota: '100000', memory: '0' },
    {
      name: 'tiny values are raised to the minimums',
      requests: { cpu: '1m' },
      limits: { cpu: '5m' },
      shares: '2',
      quota: '1000',
      memory: '0',
    },
    {
      name: '2 CPUs guaranteed',
      requests: { cpu: '2' },
      limits: { cpu: '2' },
      shares: '2048',
      quota: '200000',
      memory: '0',
    },
    {
      name: 'explicit zero request keeps the minimum shares',
      requests: { cpu: '0' },
      limits: { cpu: '1' },
      shares: '2',
      quota: '100000',
      memory: '0',
    },
  ];
  for (const c of cases) {
    const container = ctr('app', c.requests, c.limits);
    const r = generateLinuxContainerResources(podOf([container]), container, {
      qos: 'BestEffort',
      nodeCritical: false,
      cgroup: v2,
      hugePageSizes: [],
    });
    assert.equal(r.cpuShares, c.shares, `${c.name}: shares`);
    assert.equal(r.cpuQuota, c.quota, `${c.name}: quota`);
    assert.equal(r.cpuPeriod, '100000', `${c.name}: period`);
    assert.equal(r.memoryLimitInBytes, c.memory, `${c.name}: memory`);
  }
});

test('cgroup switches: v1 has no unified map, singleProcessOOMKill drops memory.oom.group, CFS quota off leaves quota/period unset', () => {
  const c = ctr('app', { cpu: '250m' }, { cpu: '500m' });
  const inputs = { qos: 'BestEffort' as const, nodeCritical: false, hugePageSizes: [] };
  assert.deepEqual(generateLinuxContainerResources(podOf([c]), c, { ...inputs, cgroup: v2 }).unified, {
    'memory.oom.group': '1',
  });
  assert.deepEqual(generateLinuxContainerResources(podOf([c]), c, { ...inputs, cgroup: v1 }).unified, {});
  assert.deepEqual(
    generateLinuxContainerResources(podOf([c]), c, { ...inputs, cgroup: { ...v2, singleProcessOOMKill: true } })
      .unified,
    {},
  );
  const off = generateLinuxContainerResources(podOf([c]), c, { ...inputs, cgroup: { ...v2, cpuCFSQuota: false } });
  assert.equal(off.cpuQuota, '0');
  assert.equal(off.cpuPeriod, '0');
  assert.equal(off.cpuShares, '256');
});

test('no-swap values are written only when the host has a swap controller', () => {
  const c = ctr('app', undefined, { memory: '1Gi' });
  const inputs = { qos: 'BestEffort' as const, nodeCritical: false, hugePageSizes: [] };
  const v2swap = generateLinuxContainerResources(podOf([c]), c, {
    ...inputs,
    cgroup: { ...v2, swapControllerAvailable: true },
  });
  assert.deepEqual(v2swap.unified, { 'memory.oom.group': '1', 'memory.swap.max': '0' });
  const v1swap = generateLinuxContainerResources(podOf([c]), c, {
    ...inputs,
    cgroup: { ...v1, swapControllerAvailable: true },
  });
  assert.equal(v1swap.memorySwapLimitInBytes, String(GI));
  const none = generateLinuxContainerResources(podOf([c]), c, { ...inputs, cgroup: v1 });
  assert.equal(none.memorySwapLimitInBytes, '0');
});

test('QoS class of a pod', () => {
  const g = { cpu: '1', memory: '1Gi' };
  const cases: Array<[string, Pod, string]> = [
    ['nothing set', podOf([ctr('a')]), 'BestEffort'],
    ['requests equal limits for cpu and memory', podOf([ctr('a', g, g)]), 'Guaranteed'],
    [
      'limits only (requests default to limits in the API; here they are absent)',
      podOf([ctr('a', undefined, g)]),
      'Burstable',
    ],
    ['request below limit', podOf([ctr('a', { cpu: '500m', memory: '1Gi' }, g)]), 'Burstable'],
    ['one container without limits', podOf([ctr('a', g, g), ctr('b')]), 'Burstable'],
    ['init container counted', podOf([ctr('a', g, g)], [ctr('i', { cpu: '100m' })]), 'Burstable'],
    ['zero requests are ignored', podOf([ctr('a', { cpu: '0' })]), 'BestEffort'],
    [
      'only extended resources',
      podOf([ctr('a', { 'example.com/gpu': '1' }, { 'example.com/gpu': '1' })]),
      'BestEffort',
    ],
  ];
  for (const [name, pod, qos] of cases) assert.equal(getPodQOS(pod), qos, name);
});

test('OOM score adjustment', () => {
  const burst = ctr('a', { memory: '1Gi' }, { memory: '2Gi' });
  const pod = podOf([burst]);
  const cases: Array<[string, Pod, Container, Parameters<typeof containerOOMScoreAdjust>[2], number]> = [
    ['Guaranteed', pod, burst, { qos: 'Guaranteed', nodeCritical: false }, -997],
    ['BestEffort', pod, burst, { qos: 'BestEffort', nodeCritical: false }, 1000],
    ['node-critical wins over QoS', pod, burst, { qos: 'BestEffort', nodeCritical: true }, -997],
    ['Burstable 1Gi on 16Gi', pod, burst, { qos: 'Burstable', nodeCritical: false, memoryCapacityBytes: 16 * GI }, 938],
    [
      'Burstable without memory request: 1000 becomes 999',
      podOf([ctr('b', { cpu: '1' })]),
      ctr('b', { cpu: '1' }),
      { qos: 'Burstable', nodeCritical: false, memoryCapacityBytes: 16 * GI },
      999,
    ],
    [
      'Burstable requesting all memory: raised to 3',
      podOf([ctr('c', { memory: '16Gi' })]),
      ctr('c', { memory: '16Gi' }),
      { qos: 'Burstable', nodeCritical: false, memoryCapacityBytes: 16 * GI },
      3,
    ],
  ];
  for (const [name, p, c, o, want] of cases) assert.equal(containerOOMScoreAdjust(p, c, o), want, name);
  assert.throws(
    () => containerOOMScoreAdjust(pod, burst, { qos: 'Burstable', nodeCritical: false }),
    /memory capacity/,
  );
});

test('OOM score of a sidecar is not above that of the smallest regular container', () => {
  const sidecar = ctr('side', { memory: '100Mi' }, undefined, { restartPolicy: 'Always' });
  const app = ctr('app', { memory: '4Gi' });
  const pod = podOf([app], [sidecar]);
  const o = { qos: 'Burstable' as const, nodeCritical: false, memoryCapacityBytes: 16 * GI };
  assert.equal(containerOOMScoreAdjust(pod, app, o), 750);
  assert.equal(containerOOMScoreAdjust(pod, sidecar, o), 750);
});

test('huge page sizes and limits', () => {
  assert.equal(hugePageUnitSize(2 * 1024 * 1024), '2MB');
  assert.equal(hugePageUnitSize(GI), '1GB');
  assert.equal(hugePageUnitSize(64 * 1024), '64KB');
  const c = ctr('a', undefined, { 'hugepages-2Mi': '100Mi', memory: '1Gi' });
  const inputs = {
    qos: 'Burstable' as const,
    nodeCritical: false,
    memoryCapacityBytes: 16 * GI,
    cgroup: v2,
    hugePageSizes: [],
  };
  assert.deepEqual(
    generateLinuxContainerResources(podOf([c]), c, inputs).hugepageLimits,
    [],
    'a host without huge pages',
  );
  assert.deepEqual(
    generateLinuxContainerResources(podOf([c]), c, { ...inputs, hugePageSizes: ['2MB', '1GB'] }).hugepageLimits,
    [
      { pageSize: '2MB', limit: String(100 * 1024 * 1024) },
      { pageSize: '1GB', limit: '0' },
    ],
  );
  const plain = ctr('b');
  assert.deepEqual(
    generateLinuxContainerResources(podOf([plain]), plain, { ...inputs, qos: 'BestEffort' }).hugepageLimits,
    [],
  );
});

test('sandbox resources sum regular containers and take the max with init containers', () => {
  const pod = podOf(
    [
      ctr('a', { cpu: '100m' }, { cpu: '200m', memory: '100Mi' }),
      ctr('b', { cpu: '300m' }, { cpu: '300m', memory: '100Mi' }),
    ],
    [ctr('init', { cpu: '1' }, { cpu: '2', memory: '50Mi' })],
  );
  const r = calculateSandboxResources(pod, v2);
  assert.equal(r.cpuShares, '1024', 'max(400m, init 1) = 1 CPU');
  assert.equal(r.cpuQuota, '200000', 'max(500m, init 2) = 2 CPUs');
  assert.equal(r.memoryLimitInBytes, String(200 * 1024 * 1024));
  assert.equal(r.oomScoreAdj, '0');

  const sidecars = podOf(
    [ctr('a', { cpu: '100m' })],
    [ctr('side', { cpu: '200m' }, undefined, { restartPolicy: 'Always' })],
  );
  assert.equal(
    calculateSandboxResources(sidecars, v2).cpuShares,
    String(milliCPUToShares(300)),
    'sidecar requests add up',
  );

  const none = calculateSandboxResources(podOf([ctr('a')]), v2);
  assert.deepEqual([none.cpuShares, none.cpuQuota, none.cpuPeriod, none.memoryLimitInBytes], ['2', '0', '100000', '0']);
});

test('overhead: request = limit; all defaults when the pod has none', () => {
  const withOverhead = podOf([ctr('a')], [], { overhead: { cpu: '250m', memory: '120Mi' } });
  const r = convertOverheadToLinuxResources(withOverhead, v2);
  assert.deepEqual([r.cpuShares, r.cpuQuota, r.memoryLimitInBytes], ['256', '25000', String(120 * 1024 * 1024)]);
  const none = convertOverheadToLinuxResources(podOf([ctr('a')]), v2);
  assert.deepEqual([none.cpuShares, none.cpuQuota, none.cpuPeriod, none.unified], ['0', '0', '0', {}]);
});

test('a malformed quantity names the container and field', () => {
  const c = ctr('app', { cpu: 'lots' });
  assert.throws(
    () =>
      generateLinuxContainerResources(podOf([c]), c, {
        qos: 'Burstable',
        nodeCritical: false,
        memoryCapacityBytes: GI,
        cgroup: v2,
        hugePageSizes: [],
      }),
    /container app: resources\.requests\.cpu/,
  );
});
