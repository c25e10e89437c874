// kubelet's own config-generation expectations, re-expressed as tables (our words, our layout).
// Sources, read at pinned commits of kubernetes/kubernetes:
//   K1 pkg/kubelet/kuberuntime/kuberuntime_container_linux_test.go @5ecddb65 (1.33/1.34-era tree)
//   K2 pkg/kubelet/kuberuntime/kuberuntime_sandbox_linux_test.go  @9d38f210
//   K3 pkg/kubelet/kuberuntime/helpers_linux_test.go              @9448d85d
// Each row names the kubelet test function and case it restates. Cases kubelet runs against the
// machine (HugePageSizes of the test host) are given an explicit host page list here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod, ResourceRequirements } from '../../src/kubelet/api-types';
import type { LinuxContainerResources } from '../../src/cri/types';
import { generateContainerConfig, type ContainerOptions } from '../../src/kubelet/container-config';
import {
  calculateLinuxResources,
  calculateSandboxResources,
  convertOverheadToLinuxResources,
  DEFAULT_CGROUP_SETTINGS,
  emptyLinuxResources,
  generateLinuxContainerResources,
  getPodQOS,
  hugepageLimits,
  isCriticalPod,
  milliCPUToQuota,
  type CgroupSettings,
} from '../../src/kubelet/resources';
import { toBytes, toMilliCPU, parseQuantity } from '../../src/kubelet/quantity';
import { containerSecurityContext, sandboxSecurityContext } from '../../src/kubelet/security-context';
import { GATES_133 } from '../fixtures/gates';

const v1: CgroupSettings = { ...DEFAULT_CGROUP_SETTINGS, cgroupVersion: 1 };
const v2: CgroupSettings = { ...DEFAULT_CGROUP_SETTINGS, cgroupVersion: 2 };
const testPod = (c: Partial<Container> = {}, spec: Partial<NonNullable<Pod['spec']>> = {}): Pod => ({
  metadata: { uid: '12345678', name: 'bar', namespace: 'new' },
  spec: {
    containers: [
      {
        name: 'foo',
        image: 'busybox',
        imagePullPolicy: 'IfNotPresent',
        command: ['testCommand'],
        workingDir: 'testWorkingDir',
        ...c,
      },
    ],
    ...spec,
  },
});
/** Expected resources written as kubelet's tests write them: unset fields are zero. */
const res = (
  r: Partial<Record<'cpuPeriod' | 'cpuQuota' | 'cpuShares' | 'memoryLimitInBytes' | 'oomScoreAdj', number>> & {
    unified?: Record<string, string>;
  },
): LinuxContainerResources => {
  const out = emptyLinuxResources();
  for (const [k, v] of Object.entries(r))
    if (k !== 'unified') (out as unknown as Record<string, string>)[k] = String(v);
  out.unified = r.unified ?? {};
  return out;
};
const OOM_GROUP = { 'memory.oom.group': '1' };
const milli = (q: string) => toMilliCPU(parseQuantity(q));
const bytes = (q: string) => toBytes(parseQuantity(q));

test('K3 TestMilliCPUToQuota and TestMilliCPUToQuotaWithCustomCPUCFSQuotaPeriod', () => {
  const rows: Array<[string, number, number, number]> = [
    ['all-zero', 0, 0, 0],
    ['5 input default quota and period', 5, 100000, 1000],
    ['9 input default quota and period', 9, 100000, 1000],
    ['10 input default quota and period', 10, 100000, 1000],
    ['200 input 20k quota and default period', 200, 100000, 20000],
    ['500 input 50k quota and default period', 500, 100000, 50000],
    ['1k input 100k quota and default period', 1000, 100000, 100000],
    ['1500 input 150k quota and default period', 1500, 100000, 150000],
    // custom period (CPUCFSQuotaPeriod)
    ['custom: all-zero', 0, 0, 0],
    ['custom: 5 input default period', 5, 100000, 1000],
    ['custom: 9 input default period', 9, 100000, 1000],
    ['custom: 10 input default period', 10, 100000, 1000],
    ['custom: 200 input default period', 200, 100000, 20000],
    ['custom: 500 input default period', 500, 100000, 50000],
    ['custom: 1k input default period', 1000, 100000, 100000],
    ['custom: 1500 input default period', 1500, 100000, 150000],
    ['5 input 10k period and default quota expected', 5, 10000, 1000],
    ['5 input 5k period and default quota expected', 5, 5000, 1000],
    ['9 input 10k period and default quota expected', 9, 10000, 1000],
    ['10 input 200k period and 2000 quota expected', 10, 200000, 2000],
    ['200 input 200k period and 40k quota', 200, 200000, 40000],
    ['500 input 20k period and 20k expected quota', 500, 20000, 10000],
    ['1000 input 10k period and 10k expected quota', 1000, 10000, 10000],
    ['1500 input 5000 period and 7500 expected quota', 1500, 5000, 7500],
  ];
  for (const [name, input, period, want] of rows) assert.equal(milliCPUToQuota(input, period), want, name);
});

test('K1 TestCalculateLinuxResources', () => {
  const rows: Array<{
    name: string;
    req?: string;
    lim: string;
    mem: string;
    cg: CgroupSettings;
    want: LinuxContainerResources;
  }> = [
    {
      name: 'Request128MBLimit256MB v1',
      req: '1',
      lim: '2',
      mem: '128Mi',
      cg: v1,
      want: res({ cpuPeriod: 100000, cpuQuota: 200000, cpuShares: 1024, memoryLimitInBytes: 134217728 }),
    },
    {
      name: 'RequestNoMemory v1',
      req: '2',
      lim: '8',
      mem: '0',
      cg: v1,
      want: res({ cpuPeriod: 100000, cpuQuota: 800000, cpuShares: 2048 }),
    },
    {
      name: 'RequestNilCPU v1',
      lim: '2',
      mem: '0',
      cg: v1,
      want: res({ cpuPeriod: 100000, cpuQuota: 200000, cpuShares: 2048 }),
    },
    {
      name: 'RequestZeroCPU v1',
      req: '0',
      lim: '2',
      mem: '0',
      cg: v1,
      want: res({ cpuPeriod: 100000, cpuQuota: 200000, cpuShares: 2 }),
    },
    {
      name: 'Request128MBLimit256MB v2',
      req: '1',
      lim: '2',
      mem: '128Mi',
      cg: v2,
      want: res({
        cpuPeriod: 100000,
        cpuQuota: 200000,
        cpuShares: 1024,
        memoryLimitInBytes: 134217728,
        unified: OOM_GROUP,
      }),
    },
    {
      name: 'Request128MBLimit256MBSingleProcess v2',
      req: '1',
      lim: '2',
      mem: '128Mi',
      cg: { ...v2, singleProcessOOMKill: true },
      want: res({ cpuPeriod: 100000, cpuQuota: 200000, cpuShares: 1024, memoryLimitInBytes: 134217728 }),
    },
    {
      name: 'RequestNoMemory v2',
      req: '2',
      lim: '8',
      mem: '0',
      cg: v2,
      want: res({ cpuPeriod: 100000, cpuQuota: 800000, cpuShares: 2048, unified: OOM_GROUP }),
    },
    {
      name: 'RequestNilCPU v2',
      lim: '2',
      mem: '0',
      cg: v2,
      want: res({ cpuPeriod: 100000, cpuQuota: 200000, cpuShares: 2048, unified: OOM_GROUP }),
    },
    {
      name: 'RequestZeroCPU v2',
      req: '0',
      lim: '2',
      mem: '0',
      cg: v2,
      want: res({ cpuPeriod: 100000, cpuQuota: 200000, cpuShares: 2, unified: OOM_GROUP }),
    },
  ];
  for (const r of rows) {
    assert.deepEqual(
      calculateLinuxResources(r.req === undefined ? undefined : milli(r.req), milli(r.lim), bytes(r.mem), r.cg),
      r.want,
      r.name,
    );
  }
});

const containerResources = (
  pod: Pod,
  c: Container,
  o: Partial<Parameters<typeof generateLinuxContainerResources>[2]> = {},
) =>
  generateLinuxContainerResources(pod, c, {
    qos: getPodQOS(pod),
    nodeCritical: false,
    memoryCapacityBytes: 17179860387,
    cgroup: v2,
    hugePageSizes: [],
    ...o,
  });

test('K1 TestGenerateLinuxContainerConfigResources', () => {
  const rows: Array<{
    name: string;
    r: ResourceRequirements;
    pod?: ResourceRequirements;
    want: [number, number, number, number];
  }> = [
    {
      name: 'Request 128M/1C, Limit 256M/3C',
      r: { requests: { memory: '128Mi', cpu: '1' }, limits: { memory: '256Mi', cpu: '3' } },
      want: [100000, 300000, 1024, 256 * 1024 * 1024],
    },
    { name: 'Request 128M/2C, No Limit', r: { requests: { memory: '128Mi', cpu: '2' } }, want: [100000, 0, 2048, 0] },
    {
      name: 'Container Level Request 128M/1C, Pod Level Limit 256M/3C (PodLevelResources on)',
      r: { requests: { memory: '128Mi', cpu: '1' } },
      pod: { limits: { memory: '256Mi', cpu: '3' } },
      want: [100000, 300000, 1024, 256 * 1024 * 1024],
    },
  ];
  for (const row of rows) {
    const pod = testPod({ resources: row.r }, row.pod ? { resources: row.pod } : {});
    const got = containerResources(pod, pod.spec!.containers[0]!, { podLevelResources: row.pod !== undefined });
    assert.deepEqual(
      [got.cpuPeriod, got.cpuQuota, got.cpuShares, got.memoryLimitInBytes],
      row.want.map(String),
      row.name,
    );
  }
});

test('K1 TestGetHugepageLimitsFromResources (host with 2MB and 1GB pages)', () => {
  const host = ['2MB', '1GB'];
  const rows: Array<[string, Record<string, string>, Record<string, number>]> = [
    ['Success2MB', { 'hugepages-2Mi': '2Mi' }, { '2MB': 2097152 }],
    ['Success1GB', { 'hugepages-1Gi': '2Gi' }, { '1GB': 2147483648 }],
    ['Skip2MB', { 'hugepages-2MB': '2Mi' }, {}],
    ['Skip1GB', { 'hugepages-1GB': '2Gi' }, {}],
    [
      'Success2MBand1GB',
      { cpu: '0', 'hugepages-2Mi': '2Mi', 'hugepages-1Gi': '2Gi' },
      { '2MB': 2097152, '1GB': 2147483648 },
    ],
    ['Skip2MBand1GB', { cpu: '0', 'hugepages-2MB': '2Mi', 'hugepages-1GB': '2Gi' }, {}],
  ];
  for (const [name, limits, want] of rows) {
    const c: Container = { name: 'c', image: 'x', resources: { limits } };
    assert.deepEqual(
      hugepageLimits(c, host),
      host.map((s) => ({ pageSize: s, limit: String(want[s] ?? 0) })),
      name,
    );
  }
});

test('K1 TestGenerateLinuxContainerConfigNamespaces', () => {
  const base = {
    gates: { ...GATES_133, UserNamespacesSupport: false },
    imageUser: { uid: '0', username: '' },
    seccompDefault: false,
    kubeletRoot: '/var/lib/kubelet',
  };
  const rows: Array<
    [string, Partial<NonNullable<Pod['spec']>>, string | undefined, { pid: string; targetId: string }]
  > = [
    ['Default namespaces', {}, undefined, { pid: 'CONTAINER', targetId: '' }],
    ['PID Namespace POD', { shareProcessNamespace: true }, undefined, { pid: 'POD', targetId: '' }],
    ['PID Namespace TARGET', {}, 'really-long-id-string', { pid: 'TARGET', targetId: 'really-long-id-string' }],
  ];
  for (const [name, spec, target, want] of rows) {
    const pod: Pod = {
      metadata: { name: 'p', namespace: 'd', uid: 'u' },
      spec: { containers: [{ name: 'test' }], ...spec },
    };
    const ns = containerSecurityContext(pod, pod.spec!.containers[0]!, { ...base, targetContainerId: target })
      .namespaceOptions!;
    assert.deepEqual(ns, { network: 'POD', ipc: 'POD', ...want }, name);
  }
});

test('K1 TestGenerateLinuxConfigSupplementalGroupsPolicy and K2 TestGeneratePodSandboxLinuxConfigSupplementalGroupsPolicy', () => {
  const o = {
    gates: GATES_133,
    imageUser: { uid: '0', username: '' },
    seccompDefault: false,
    kubeletRoot: '/var/lib/kubelet',
  };
  const rows: Array<[string, string | undefined, string | RegExp]> = [
    ['Merge SupplementalGroupsPolicy should convert to Merge', 'Merge', 'Merge'],
    ['Strict SupplementalGroupsPolicy should convert to Strict', 'Strict', 'Strict'],
    ['nil SupplementalGroupsPolicy should convert to Merge', undefined, 'Merge'],
    [
      'unsupported SupplementalGroupsPolicy should raise an error',
      'UnSupported',
      /unsupported supplementalGroupsPolicy: UnSupported/,
    ],
  ];
  for (const [name, policy, want] of rows) {
    const pod = testPod(
      {},
      { securityContext: policy === undefined ? {} : ({ supplementalGroupsPolicy: policy } as object) },
    );
    const c = pod.spec!.containers[0]!;
    if (want instanceof RegExp) {
      assert.throws(() => containerSecurityContext(pod, c, o), want, `container: ${name}`);
      assert.throws(() => sandboxSecurityContext(pod, o), want, `sandbox: ${name}`);
    } else {
      assert.equal(containerSecurityContext(pod, c, o).supplementalGroupsPolicy, want, `container: ${name}`);
      assert.equal(sandboxSecurityContext(pod, o).supplementalGroupsPolicy, want, `sandbox: ${name}`);
    }
  }
});

test('K1 TestGenerateLinuxContainerResources (16GB node, no swap controller)', () => {
  const guaranteed = { limits: { cpu: '250m', memory: '500Mi' }, requests: { cpu: '250m', memory: '500Mi' } };
  const burstable = { limits: { cpu: '500m', memory: '750Mi' }, requests: { cpu: '250m', memory: '500Mi' } };
  const rows: Array<[string, ResourceRequirements | undefined, boolean, CgroupSettings, LinuxContainerResources]> = [
    [
      'v1 guaranteed qos',
      guaranteed,
      true,
      v1,
      res({ cpuShares: 256, memoryLimitInBytes: 524288000, oomScoreAdj: -997 }),
    ],
    ['v1 burstable qos', burstable, true, v1, res({ cpuShares: 256, memoryLimitInBytes: 786432000, oomScoreAdj: 970 })],
    ['v1 best-effort qos', undefined, true, v1, res({ cpuShares: 2, oomScoreAdj: 1000 })],
    [
      'v2 guaranteed qos',
      guaranteed,
      false,
      v2,
      res({ cpuShares: 256, memoryLimitInBytes: 524288000, oomScoreAdj: -997, unified: OOM_GROUP }),
    ],
    [
      'v2 burstable qos',
      burstable,
      false,
      v2,
      res({ cpuShares: 256, memoryLimitInBytes: 786432000, oomScoreAdj: 970, unified: OOM_GROUP }),
    ],
    ['v2 best-effort qos', undefined, false, v2, res({ cpuShares: 2, oomScoreAdj: 1000, unified: OOM_GROUP })],
  ];
  for (const [name, r, singleProcess, cg, want] of rows) {
    const pod: Pod = {
      metadata: { uid: '12345678', name: 'foo', namespace: 'bar' },
      spec: { containers: [{ name: 'c1', image: 'busybox', ...(r ? { resources: r } : {}) }] },
    };
    // kubelet's test leaves the CFS quota switch off here: period and quota stay unset.
    const got = containerResources(pod, pod.spec!.containers[0]!, {
      cgroup: { ...cg, cpuCFSQuota: false, singleProcessOOMKill: singleProcess },
    });
    assert.deepEqual(got, want, name);
  }
});

test('K1 TestGenerateLinuxContainerResourcesWithSwap (rows without LimitedSwap allocation)', () => {
  // With memorySwap.swapBehavior unset every row is "no swap"; the LimitedSwap rows that allocate
  // swap are in kubelet-cases-swap.test.ts.
  const burstable = (c2: ResourceRequirements | undefined): Pod => ({
    metadata: { uid: '12345678', name: 'foo', namespace: 'bar' },
    spec: {
      containers: [
        { name: 'c1', resources: { requests: { memory: '1Gi' } } },
        { name: 'c2', ...(c2 ? { resources: c2 } : {}) },
      ],
    },
  });
  const guaranteedPod: Pod = {
    metadata: { uid: '12345678', name: 'foo', namespace: 'bar' },
    spec: {
      containers: [
        { name: 'c1', resources: { requests: { memory: '1Gi', cpu: '1' }, limits: { memory: '1Gi', cpu: '1' } } },
        { name: 'c2', resources: { requests: { memory: '2Gi', cpu: '1' }, limits: { memory: '2Gi', cpu: '1' } } },
      ],
    },
  };
  const bestEffort: Pod = {
    metadata: { uid: '12345678', name: 'foo', namespace: 'bar' },
    spec: { containers: [{ name: 'c1' }, { name: 'c2' }] },
  };
  const withReq = burstable({ requests: { memory: '2Gi' } });
  const withGuaranteed = burstable({ requests: { memory: '2Gi' }, limits: { memory: '2Gi' } });
  const noReq = burstable(undefined);
  const critical: Pod = { ...withReq, spec: { ...withReq.spec!, priority: 2000000000 } };
  type Row = [string, Pod, 1 | 2, boolean /* swap controller */, 'disabled' | 'noSwap'];
  const rows: Row[] = [
    ['cgroups v1, LimitedSwap, Burstable QoS', withReq, 1, true, 'noSwap'],
    ['cgroups v1, LimitedSwap, Best-effort QoS', bestEffort, 1, true, 'noSwap'],
    ['NodeSwap feature gate turned off, cgroups v2, LimitedSwap', withReq, 2, true, 'noSwap'],
    ['With no swapBehavior - NoSwap should be the default', bestEffort, 2, true, 'noSwap'],
    ['Best-effort QoS, cgroups v2, NoSwap', bestEffort, 2, true, 'noSwap'],
    ['Guaranteed QoS, cgroups v2, LimitedSwap', guaranteedPod, 2, true, 'noSwap'],
    ['Best-effort QoS, cgroups v2, LimitedSwap, critical pod', critical, 2, true, 'noSwap'],
    ['Swap disabled on node, cgroups v1, LimitedSwap, Burstable QoS', withReq, 1, false, 'disabled'],
    ['Swap disabled on node, cgroups v1, LimitedSwap, Best-effort QoS', bestEffort, 1, false, 'disabled'],
    ['Swap disabled on node, NodeSwap feature gate turned off, cgroups v2, LimitedSwap', withReq, 2, false, 'disabled'],
    ['Swap disabled on node, With no swapBehavior - NoSwap should be the default', bestEffort, 2, false, 'disabled'],
    ['Swap disabled on node, Best-effort QoS, cgroups v2, LimitedSwap', withReq, 2, false, 'disabled'],
    ['Swap disabled on node, Guaranteed QoS, cgroups v2, LimitedSwap', guaranteedPod, 2, false, 'disabled'],
    [
      'Swap disabled on node, Burstable QoS, cgroups v2, LimitedSwap, with a guaranteed container',
      withGuaranteed,
      2,
      false,
      'disabled',
    ],
    ['Swap disabled on node, Burstable QoS, cgroups v2, LimitedSwap', withReq, 2, false, 'disabled'],
    [
      'Swap disabled on node, Burstable QoS, cgroups v2, LimitedSwap, with a container with no requests',
      noReq,
      2,
      false,
      'disabled',
    ],
  ];
  for (const [name, pod, version, swap, want] of rows) {
    for (const c of pod.spec!.containers) {
      const r = containerResources(pod, c, {
        memoryCapacityBytes: 42949672960,
        nodeCritical: isCriticalPod(pod, 'api'),
        cgroup: { ...DEFAULT_CGROUP_SETTINGS, cgroupVersion: version, swapControllerAvailable: swap },
      });
      if (want === 'disabled') {
        if (version === 1) assert.equal(r.memorySwapLimitInBytes, '0', `${name}: ${c.name}`);
        else assert.equal(r.unified['memory.swap.max'], undefined, `${name}: ${c.name}`);
      } else if (version === 1) assert.equal(r.memorySwapLimitInBytes, r.memoryLimitInBytes, `${name}: ${c.name}`);
      else assert.equal(r.unified['memory.swap.max'], '0', `${name}: ${c.name}`);
    }
  }
});

test('K2 TestApplySandboxResources', () => {
  const withOverhead: Pod = testPod(
    { resources: { requests: { memory: '128Mi', cpu: '2' }, limits: { memory: '256Mi', cpu: '4' } } },
    { overhead: { memory: '128Mi', cpu: '1' } },
  );
  const without: Pod = testPod({ resources: { requests: { memory: '128Mi' }, limits: { memory: '256Mi' } } });
  const rows: Array<[string, Pod, CgroupSettings, LinuxContainerResources, LinuxContainerResources]> = [
    [
      'pod with overhead defined v1',
      withOverhead,
      v1,
      res({ memoryLimitInBytes: 268435456, cpuPeriod: 100000, cpuQuota: 400000, cpuShares: 2048 }),
      res({ memoryLimitInBytes: 134217728, cpuPeriod: 100000, cpuQuota: 100000, cpuShares: 1024 }),
    ],
    [
      'pod without overhead defined v1',
      without,
      v1,
      res({ memoryLimitInBytes: 268435456, cpuPeriod: 100000, cpuQuota: 0, cpuShares: 2 }),
      res({}),
    ],
    [
      'pod with overhead defined v2',
      withOverhead,
      v2,
      res({ memoryLimitInBytes: 268435456, cpuPeriod: 100000, cpuQuota: 400000, cpuShares: 2048, unified: OOM_GROUP }),
      res({ memoryLimitInBytes: 134217728, cpuPeriod: 100000, cpuQuota: 100000, cpuShares: 1024, unified: OOM_GROUP }),
    ],
    [
      'pod without overhead defined v2',
      without,
      v2,
      res({ memoryLimitInBytes: 268435456, cpuPeriod: 100000, cpuQuota: 0, cpuShares: 2, unified: OOM_GROUP }),
      res({}),
    ],
  ];
  for (const [name, pod, cg, resources, overhead] of rows) {
    assert.deepEqual(calculateSandboxResources(pod, cg), resources, `${name}: resources`);
    assert.deepEqual(convertOverheadToLinuxResources(pod, cg), overhead, `${name}: overhead`);
  }
});

test('K2 TestGeneratePodSandboxConfigWithLinuxSecurityContext', () => {
  const pod = testPod({}, { securityContext: { seLinuxOptions: { user: 'qux' }, runAsUser: 1000, runAsGroup: 10 } });
  const sc = sandboxSecurityContext(pod, { gates: GATES_133 });
  assert.deepEqual(
    [sc.selinuxOptions, sc.runAsUser, sc.runAsGroup],
    [{ user: 'qux', role: '', type: '', level: '' }, { value: '1000' }, { value: '10' }],
  );
});

test('K1 TestGenerateContainerConfig: run-as fields, runAsNonRoot refusals', () => {
  const opts: ContainerOptions = {
    resolvConf: null,
    restartCount: 0,
    imageRef: 'busybox',
    podIPs: [],
    terminationLogName: '00000000',
    hugePageSizes: [],
    memoryCapacityBytes: 1 << 30,
    gates: GATES_133,
  };
  const ok = testPod({ securityContext: { runAsUser: 1000, runAsGroup: 2000 } });
  const sc = generateContainerConfig(ok, ok.spec!.containers[0]!, 'regular', opts).config.linux!.securityContext!;
  assert.deepEqual(
    [sc.runAsUser, sc.runAsGroup],
    [{ value: '1000' }, { value: '2000' }],
    'RunAsUser and RunAsGroup should be set',
  );
  const root = testPod({ securityContext: { runAsNonRoot: true, runAsUser: 0 } });
  assert.throws(
    () => generateContainerConfig(root, root.spec!.containers[0]!, 'regular', opts),
    /runAsUser breaks non-root policy/,
  );
  const named = testPod({ securityContext: { runAsNonRoot: true } });
  assert.throws(
    () =>
      generateContainerConfig(named, named.spec!.containers[0]!, 'regular', {
        ...opts,
        imageUser: { username: 'test' },
      }),
    /image has non-numeric user \(test\)/,
    'RunAsNonRoot should fail for non-numeric username',
  );
});
