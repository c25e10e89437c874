// kubelet's TestGenerateLinuxContainerResourcesWithSwap (kuberuntime_container_linux_test.go),
// re-expressed with the allocation rows: a 40 GiB node with 5 GiB of swap, two containers, the
// node's swap controller present or not, cgroup v1 or v2, memorySwap.swapBehavior "", NoSwap or
// LimitedSwap, the NodeSwap gate, and a critical pod. LimitedSwap gives a Burstable container
// request/capacity * swap bytes; every other case is "no swap" (v1: memory+swap = memory, v2:
// memory.swap.max 0), or nothing at all without a swap controller.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, ResourceRequirements } from '../../src/kubelet/api-types';
import { generateContainerConfig } from '../../src/kubelet/container-config';
import { resolveKubeletRules } from '../../src/kubelet/kubelet-version';
import {
  DEFAULT_CGROUP_SETTINGS,
  generateLinuxContainerResources,
  getPodQOS,
  isCriticalPod,
  type CgroupSettings,
} from '../../src/kubelet/resources';

const MEMORY = 42_949_672_960; // 40 GiB
const SWAP = 5_368_709_120; // 5 GiB
const GiB = 1024 ** 3;
/** calcSwapForBurstablePods: the container's share of node memory, applied to the node's swap. */
const share = (request: number) => Math.trunc((request / MEMORY) * SWAP);

type Qos = 'Burstable' | 'BestEffort' | 'Guaranteed';
interface Row {
  name: string;
  version: 1 | 2;
  qos: Qos;
  swapOnNode?: boolean;
  gate: boolean;
  behavior: '' | 'NoSwap' | 'LimitedSwap';
  noRequests?: boolean;
  guaranteedContainer?: boolean;
  critical?: boolean;
}

function podFor(r: Row): Pod {
  let c1: ResourceRequirements | undefined;
  let c2: ResourceRequirements | undefined;
  if (r.qos === 'Burstable') {
    c1 = { requests: { memory: '1Gi' } };
    if (!r.noRequests)
      c2 = { requests: { memory: '2Gi' }, ...(r.guaranteedContainer ? { limits: { memory: '2Gi' } } : {}) };
  } else if (r.qos === 'Guaranteed') {
    c1 = { requests: { memory: '1Gi', cpu: '1' }, limits: { memory: '1Gi', cpu: '1' } };
    c2 = { requests: { memory: '2Gi', cpu: '1' }, limits: { memory: '2Gi', cpu: '1' } };
  }
  return {
    metadata: { uid: '12345678', name: 'foo', namespace: 'bar' },
    spec: {
      ...(r.critical ? { priority: 2_000_000_000 } : {}),
      containers: [
        { name: 'c1', image: 'busybox', ...(c1 ? { resources: c1 } : {}) },
        { name: 'c2', image: 'busybox', ...(c2 ? { resources: c2 } : {}) },
      ],
    },
  };
}

const rows: Row[] = [
  { name: 'cgroups v1, LimitedSwap, Burstable QoS', version: 1, qos: 'Burstable', gate: true, behavior: 'LimitedSwap' },
  {
    name: 'cgroups v1, LimitedSwap, Best-effort QoS',
    version: 1,
    qos: 'BestEffort',
    gate: true,
    behavior: 'LimitedSwap',
  },
  {
    name: 'NodeSwap feature gate turned off, cgroups v2, LimitedSwap',
    version: 2,
    qos: 'Burstable',
    gate: false,
    behavior: 'LimitedSwap',
  },
  { name: 'with no swapBehavior NoSwap is the default', version: 2, qos: 'BestEffort', gate: true, behavior: '' },
  { name: 'Best-effort QoS, cgroups v2, NoSwap', version: 2, qos: 'BestEffort', gate: true, behavior: 'NoSwap' },
  {
    name: 'Burstable QoS (named best-effort upstream), cgroups v2, LimitedSwap',
    version: 2,
    qos: 'Burstable',
    gate: true,
    behavior: 'LimitedSwap',
  },
  {
    name: 'Guaranteed QoS, cgroups v2, LimitedSwap',
    version: 2,
    qos: 'Guaranteed',
    gate: true,
    behavior: 'LimitedSwap',
  },
  {
    name: 'Burstable QoS, cgroups v2, LimitedSwap, with a guaranteed container',
    version: 2,
    qos: 'Burstable',
    gate: true,
    behavior: 'LimitedSwap',
    guaranteedContainer: true,
  },
  { name: 'Burstable QoS, cgroups v2, LimitedSwap', version: 2, qos: 'Burstable', gate: true, behavior: 'LimitedSwap' },
  {
    name: 'Burstable QoS, cgroups v2, LimitedSwap, with a container with no requests',
    version: 2,
    qos: 'Burstable',
    gate: true,
    behavior: 'LimitedSwap',
    noRequests: true,
  },
  {
    name: 'critical pod, cgroups v2, LimitedSwap',
    version: 2,
    qos: 'Burstable',
    gate: true,
    behavior: 'LimitedSwap',
    critical: true,
  },
];
// kubelet runs every row again on a node without a swap controller: then nothing is written.
const allRows: Row[] = [
  ...rows,
  ...rows.map((r) => ({ ...r, name: `swap disabled on node, ${r.name}`, swapOnNode: false })),
];

test('TestGenerateLinuxContainerResourcesWithSwap', () => {
  for (const r of allRows) {
    const pod = podFor(r);
    const qos = getPodQOS(pod);
    assert.equal(qos, r.qos, `${r.name}: fixture QoS`);
    const cgroup: CgroupSettings = {
      ...DEFAULT_CGROUP_SETTINGS,
      cgroupVersion: r.version,
      swapControllerAvailable: r.swapOnNode !== false,
      memorySwapBehavior: r.behavior,
      swapCapacityBytes: SWAP,
    };
    const got = pod.spec!.containers.map((c) =>
      generateLinuxContainerResources(pod, c, {
        qos,
        nodeCritical: false,
        critical: isCriticalPod(pod, 'api'),
        nodeSwap: r.gate,
        memoryCapacityBytes: MEMORY,
        cgroup,
        hugePageSizes: [],
      }),
    );
    for (const [i, res] of got.entries()) {
      const where = `${r.name}: c${i + 1}`;
      if (r.swapOnNode === false) {
        if (r.version === 1) assert.equal(res.memorySwapLimitInBytes, '0', where);
        else assert.equal(res.unified['memory.swap.max'], undefined, where);
        continue;
      }
      const limited = r.behavior === 'LimitedSwap' && r.gate && r.version === 2 && r.qos === 'Burstable' && !r.critical;
      if (!limited) {
        if (r.version === 1) assert.equal(res.memorySwapLimitInBytes, res.memoryLimitInBytes, where);
        else assert.equal(res.unified['memory.swap.max'], '0', where);
        continue;
      }
      const expected = i === 0 ? share(1 * GiB) : r.noRequests || r.guaranteedContainer ? 0 : share(2 * GiB);
      assert.equal(res.unified['memory.swap.max'], String(expected), where);
    }
  }
  assert.equal(share(1 * GiB), 134_217_728, 'a 1 GiB request on a 40 GiB node with 5 GiB swap gets 128 MiB');
});

test('LimitedSwap without the node capacities is one line naming the container', () => {
  const pod = podFor({ name: '', version: 2, qos: 'Burstable', gate: true, behavior: 'LimitedSwap' });
  assert.throws(
    () =>
      generateLinuxContainerResources(pod, pod.spec!.containers[0], {
        qos: 'Burstable',
        nodeCritical: false,
        nodeSwap: true,
        memoryCapacityBytes: MEMORY,
        cgroup: { ...DEFAULT_CGROUP_SETTINGS, swapControllerAvailable: true, memorySwapBehavior: 'LimitedSwap' },
        hugePageSizes: [],
      }),
    (err: unknown) =>
      err instanceof Error &&
      err.message === "container c1: LimitedSwap needs the node's memory and swap capacity (not given)",
  );
});

test('the container config takes the NodeSwap gate of the mirrored kubelet (off before 1.30, on from 1.30)', () => {
  const pod = podFor({ name: '', version: 2, qos: 'Burstable', gate: true, behavior: 'LimitedSwap' });
  const swapMax = (version: string) =>
    generateContainerConfig(pod, pod.spec!.containers[0], 'regular', {
      gates: resolveKubeletRules(version).gates,
      resolvConf: null,
      podIPs: [],
      imageRef: 'sha256:1',
      restartCount: 0,
      terminationLogName: '0123abcd',
      hugePageSizes: [],
      memoryCapacityBytes: MEMORY,
      swapControllerAvailable: true,
      memorySwapBehavior: 'LimitedSwap',
      swapCapacityBytes: SWAP,
    }).config.linux!.resources!.unified['memory.swap.max'];
  assert.equal(swapMax('1.29'), '0');
  assert.equal(swapMax('1.30'), String(share(GiB)));
  assert.equal(swapMax('1.37'), String(share(GiB)));
});
