// Linux cgroup resources kubelet puts in CRI configs, mirroring kubelet 1.33
// (kuberuntime_container_linux.go calculateLinuxResources / generateLinuxContainerResources,
// kuberuntime_sandbox_linux.go, cm/helpers_linux.go, qos/policy.go, apis/core/v1/helper/qos,
// component-helpers resource.PodRequests/PodLimits). Pure: node facts are inputs.
//
// Pod-level resources (PodLevelResources, 1.34+ on): container limits fall back to the pod's,
// the sandbox takes the pod-level values, QoS is computed from them.
// Swap (configureContainerSwapResources, NodeSwap): NoSwap values when the host has a swap
// controller; with memorySwap.swapBehavior LimitedSwap on cgroup v2, Burstable containers that
// request memory (below their limit) get swap in proportion to that request.
// Not mirrored: MemoryQoS (alpha), the CPU manager's exclusive CPUs (cpu_quota -1), in-place
// resize's allocated resources.

import type { Container, Pod, ResourceRequirements } from './api-types';
import type { HugepageLimit, LinuxContainerResources } from '../cri/types';
import { SyncpodError } from '../errors';
import { parseQuantity, toBytes, toMilliCPU, type Quantity } from './quantity';

export const MIN_SHARES = 2;
export const MAX_SHARES = 262144;
export const SHARES_PER_CPU = 1024;
export const MILLI_CPU_TO_CPU = 1000;
/** Default CFS period in microseconds (100 ms). */
export const QUOTA_PERIOD_US = 100000;
/** Smallest CFS quota kubelet writes, in microseconds (1 ms). */
export const MIN_QUOTA_PERIOD_US = 1000;

/** Node/kubelet facts that change the cgroup values. */
export interface CgroupSettings {
  /** 2 = unified hierarchy (memory.oom.group is written), 1 = legacy. */
  cgroupVersion: 1 | 2;
  /** kubelet --cpu-cfs-quota (default true). */
  cpuCFSQuota: boolean;
  /** kubelet --cpu-cfs-quota-period in microseconds, honoured only with the CPUCFSQuotaPeriod gate (default 100000). */
  cpuCFSQuotaPeriodUs: number;
  /** kubelet singleProcessOOMKill: when true, no memory.oom.group on cgroup v2 (default false). */
  singleProcessOOMKill: boolean;
  /** The host has a swap controller (memory.swap.max / memsw): kubelet then writes "no swap" values. */
  swapControllerAvailable: boolean;
  /** kubelet memorySwap.swapBehavior: "" and NoSwap give no swap; LimitedSwap (NodeSwap gate) swap per request. */
  memorySwapBehavior?: '' | 'NoSwap' | 'LimitedSwap';
  /** The node's swap capacity in bytes (SwapTotal); needed for LimitedSwap. */
  swapCapacityBytes?: number;
}

export const DEFAULT_CGROUP_SETTINGS: CgroupSettings = {
  cgroupVersion: 2,
  cpuCFSQuota: true,
  cpuCFSQuotaPeriodUs: QUOTA_PERIOD_US,
  singleProcessOOMKill: false,
  swapControllerAvailable: false,
};

export type QOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

/** MilliCPUToShares: 0 -> 2, clamped to [2, 262144]. */
export function milliCPUToShares(milliCPU: number): number {
  if (milliCPU === 0) return MIN_SHARES;
  const shares = Math.trunc((milliCPU * SHARES_PER_CPU) / MILLI_CPU_TO_CPU);
  return Math.min(MAX_SHARES, Math.max(MIN_SHARES, shares));
}

/** milliCPUToQuota: 0 -> 0 (unlimited), else limit × period / 1000, at least 1000. */
export function milliCPUToQuota(milliCPU: number, periodUs: number): number {
  if (milliCPU === 0) return 0;
  return Math.max(MIN_QUOTA_PERIOD_US, Math.trunc((milliCPU * periodUs) / MILLI_CPU_TO_CPU));
}

/** A LinuxContainerResources with every field at its proto default. */
export function emptyLinuxResources(): LinuxContainerResources {
  return {
    cpuPeriod: '0',
    cpuQuota: '0',
    cpuShares: '0',
    memoryLimitInBytes: '0',
    oomScoreAdj: '0',
    cpusetCpus: '',
    cpusetMems: '',
    hugepageLimits: [],
    unified: {},
    memorySwapLimitInBytes: '0',
  };
}

/**
 * calculateLinuxResources: shares from the CPU request (from the limit when the request key is
 * absent), CFS quota/period from the limit, memory limit, memory.oom.group on cgroup v2.
 */
export function calculateLinuxResources(
  cpuRequestMilli: number | undefined,
  cpuLimitMilli: number,
  memoryLimitBytes: number,
  s: CgroupSettings,
): LinuxContainerResources {
  const r = emptyLinuxResources();
  r.cpuShares = String(milliCPUToShares(cpuRequestMilli === undefined ? cpuLimitMilli : cpuRequestMilli));
  if (memoryLimitBytes !== 0) r.memoryLimitInBytes = String(memoryLimitBytes);
  if (s.cpuCFSQuota) {
    r.cpuQuota = String(milliCPUToQuota(cpuLimitMilli, s.cpuCFSQuotaPeriodUs));
    r.cpuPeriod = String(s.cpuCFSQuotaPeriodUs);
  }
  if (s.cgroupVersion === 2 && !s.singleProcessOOMKill) r.unified = { 'memory.oom.group': '1' };
  return r;
}

type Amounts = Map<string, Quantity>;

function quantityOf(value: unknown, where: string): Quantity {
  if (typeof value !== 'string' && typeof value !== 'number') {
    throw new SyncpodError(`${where}: expected a quantity, got ${JSON.stringify(value)}`);
  }
  try {
    return parseQuantity(value);
  } catch (err) {
    throw new SyncpodError(`${where}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function amounts(list: Record<string, unknown> | undefined, where: string): Amounts {
  const out: Amounts = new Map();
  for (const [name, v] of Object.entries(list ?? {})) out.set(name, quantityOf(v, `${where}.${name}`));
  return out;
}

/** Requests and limits of a container, parsed, with a clear error naming the field. */
export function containerAmounts(c: { name: string; resources?: ResourceRequirements }): {
  requests: Amounts;
  limits: Amounts;
} {
  return {
    requests: amounts(c.resources?.requests, `container ${c.name}: resources.requests`),
    limits: amounts(c.resources?.limits, `container ${c.name}: resources.limits`),
  };
}

/** Exact value × 1000 of a quantity (rounded up), for adding and comparing quantities of any resource. */
function milliOf(q: Quantity): bigint {
  const e = q.exponent + 3;
  if (e >= 0) return q.mantissa * 10n ** BigInt(e);
  const d = 10n ** BigInt(-e);
  const t = q.mantissa / d;
  return q.mantissa % d !== 0n && q.mantissa > 0n ? t + 1n : t;
}

function milliQuantity(m: bigint): Quantity {
  return { mantissa: m, exponent: -3, format: 'DecimalSI' };
}

function add(into: Map<string, bigint>, from: Amounts): void {
  for (const [k, q] of from) into.set(k, (into.get(k) ?? 0n) + milliOf(q));
}

function addMilli(into: Map<string, bigint>, from: Map<string, bigint>): void {
  for (const [k, v] of from) into.set(k, (into.get(k) ?? 0n) + v);
}

function maxInto(into: Map<string, bigint>, from: Map<string, bigint>): void {
  for (const [k, v] of from) {
    const cur = into.get(k);
    if (cur === undefined || v > cur) into.set(k, v);
  }
}

function isSidecar(c: Container): boolean {
  return c.restartPolicy === 'Always';
}

/**
 * resource.PodRequests / PodLimits without overhead: regular containers summed, restartable init
 * containers (sidecars) added, and the maximum with each classic init container plus the sidecars
 * started before it. Keys stay present even when their value is zero.
 */
export function podResourceTotals(pod: Pod, which: 'requests' | 'limits'): Map<string, bigint> {
  const total = new Map<string, bigint>();
  for (const c of pod.spec?.containers ?? []) add(total, containerAmounts(c)[which]);
  const sidecars = new Map<string, bigint>();
  const init = new Map<string, bigint>();
  for (const c of pod.spec?.initContainers ?? []) {
    const own = new Map<string, bigint>();
    add(own, containerAmounts(c)[which]);
    if (isSidecar(c)) {
      addMilli(total, own);
      addMilli(sidecars, own);
      maxInto(init, sidecars);
    } else {
      addMilli(own, sidecars);
      maxInto(init, own);
    }
  }
  maxInto(total, init);
  return total;
}

/** Milli-CPU of a summed total (already in milli units). */
function totalMilliCPU(total: Map<string, bigint>): number {
  const v = total.get('cpu') ?? 0n;
  return toMilliCPU(milliQuantity(v));
}

function totalBytes(total: Map<string, bigint>, name: string): number {
  return toBytes(milliQuantity(total.get(name) ?? 0n));
}

/** IsPodLevelResourcesSet: spec.resources requests or limits name cpu or memory. */
export function isPodLevelResourcesSet(pod: Pod): boolean {
  const r = pod.spec?.resources;
  const has = (l: Record<string, unknown> | undefined) => l !== undefined && ('cpu' in l || 'memory' in l);
  return has(r?.requests) || has(r?.limits);
}

/** Pod-level cpu/memory requests and limits (PodLevelResources), parsed. */
function podLevelAmounts(pod: Pod): { requests: Amounts; limits: Amounts } {
  const pick = (a: Amounts) => new Map([...a].filter(([k]) => k === 'cpu' || k === 'memory'));
  return {
    requests: pick(amounts(pod.spec?.resources?.requests, 'spec.resources.requests')),
    limits: pick(amounts(pod.spec?.resources?.limits, 'spec.resources.limits')),
  };
}

/**
 * GetPodQOS over cpu and memory of init and regular containers; with PodLevelResources on and
 * pod-level cpu/memory set, over the pod-level values instead.
 */
export function getPodQOS(pod: Pod, podLevelResources = false): QOSClass {
  if (podLevelResources && isPodLevelResourcesSet(pod)) {
    const { requests, limits } = podLevelAmounts(pod);
    const req = new Map([...requests].map(([k, q]) => [k, milliOf(q)] as const).filter(([, v]) => v > 0n));
    const lim = new Map([...limits].map(([k, q]) => [k, milliOf(q)] as const).filter(([, v]) => v > 0n));
    if (req.size === 0 && lim.size === 0) return 'BestEffort';
    const guaranteed = lim.has('cpu') && lim.has('memory') && [...req].every(([k, v]) => lim.get(k) === v);
    return guaranteed && req.size === lim.size ? 'Guaranteed' : 'Burstable';
  }
  const requests = new Map<string, bigint>();
  const limits = new Map<string, bigint>();
  let guaranteed = true;
  const all = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  for (const c of all) {
    const { requests: req, limits: lim } = containerAmounts(c);
    for (const name of ['cpu', 'memory']) {
      const r = req.get(name);
      if (r && milliOf(r) > 0n) requests.set(name, (requests.get(name) ?? 0n) + milliOf(r));
    }
    const found = new Set<string>();
    for (const name of ['cpu', 'memory']) {
      const l = lim.get(name);
      if (l && milliOf(l) > 0n) {
        found.add(name);
        limits.set(name, (limits.get(name) ?? 0n) + milliOf(l));
      }
    }
    if (!found.has('cpu') || !found.has('memory')) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, r] of requests) if (limits.get(name) !== r) guaranteed = false;
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}

/** kubelet's critical-pod test: static/mirror pods, or priority >= 2000000000. */
export function isCriticalPod(pod: Pod, configSource: string): boolean {
  if (configSource !== 'api') return true;
  if (pod.metadata?.annotations?.['kubernetes.io/config.mirror'] !== undefined) return true;
  return (pod.spec?.priority ?? 0) >= 2000000000;
}

export interface OomInputs {
  qos: QOSClass;
  /** Critical (see isCriticalPod) and priorityClassName system-node-critical. */
  nodeCritical: boolean;
  /** Machine memory capacity in bytes; needed for Burstable pods only. */
  memoryCapacityBytes?: number;
  /**
   * PodLevelResources gate: a pod-level memory request not given to any container is shared out
   * for the OOM score, and a container without a cpu/memory limit gets the pod-level one.
   */
  podLevelResources?: boolean;
}

/** GetContainerOOMScoreAdjust (including the 1.33 sidecar rule). */
export function containerOOMScoreAdjust(pod: Pod, container: Container, o: OomInputs): number {
  if (o.nodeCritical || o.qos === 'Guaranteed') return -997;
  if (o.qos === 'BestEffort') return 1000;
  const cap = o.memoryCapacityBytes;
  if (cap === undefined || !(cap > 0)) {
    throw new SyncpodError(
      `container ${container.name}: the OOM score of a Burstable pod needs the node's memory capacity (not given)`,
    );
  }
  const score = (request: bigint): bigint => 1000n - (1000n * request) / BigInt(cap);
  // PodLevelResources with a pod-level request: what the pod requests beyond its containers'
  // aggregate is divided equally over every container (init containers included).
  const share = o.podLevelResources && isPodLevelRequestsSet(pod) ? remainingPodMemReqPerContainer(pod) : 0n;
  let adj = score(BigInt(memoryRequestBytes(container)) + share);
  if (isSidecar(container) && (pod.spec?.initContainers ?? []).some((c) => c.name === container.name)) {
    const regular = pod.spec?.containers ?? [];
    if (regular.length > 0) {
      const min = Math.min(...regular.map(memoryRequestBytes));
      const minAdj = score(BigInt(min) + share);
      if (adj > minAdj) adj = minAdj;
    }
  }
  if (adj < 3n) return 3;
  if (adj === 1000n) return 999;
  return Number(adj);
}

/** IsPodLevelRequestsSet: spec.resources.requests names cpu or memory. */
function isPodLevelRequestsSet(pod: Pod): boolean {
  const r = pod.spec?.resources?.requests;
  return r !== undefined && ('cpu' in r || 'memory' in r);
}

/** remainingPodMemReqPerContainer: (pod memory request - aggregated container requests) / number of containers. */
function remainingPodMemReqPerContainer(pod: Pod): bigint {
  const podRequest = podLevelAmounts(pod).requests.get('memory');
  if (!podRequest || milliOf(podRequest) === 0n) return 0n;
  const count = (pod.spec?.containers ?? []).length + (pod.spec?.initContainers ?? []).length;
  if (count === 0) return 0n;
  const aggregated = BigInt(totalBytes(podResourceTotals(pod, 'requests'), 'memory'));
  return (BigInt(toBytes(podRequest)) - aggregated) / BigInt(count);
}

function memoryRequestBytes(c: Container): number {
  const q = containerAmounts(c).requests.get('memory');
  return q ? toBytes(q) : 0;
}

const HUGEPAGE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

/** HugePageUnitSizeFromByteSize: 2097152 -> "2MB", 1073741824 -> "1GB". */
export function hugePageUnitSize(bytes: number): string {
  let size = bytes;
  let idx = 0;
  while (size % 1024 === 0 && idx < HUGEPAGE_UNITS.length - 1 && size !== 0) {
    size /= 1024;
    idx++;
  }
  if (size > 1024 && idx < HUGEPAGE_UNITS.length - 1) {
    throw new SyncpodError(`huge page size ${bytes} bytes does not divide into a whole unit`);
  }
  return `${size}${HUGEPAGE_UNITS[idx]}`;
}

/** HugePageSizeFromResourceName + HugePageUnitSizeFromByteSize; undefined where kubelet logs and skips. */
function hugePageSizeOfResource(name: string): { size: string; bytes: number } | undefined {
  let bytes: number;
  try {
    bytes = toBytes(parseQuantity(name.slice('hugepages-'.length)));
  } catch {
    return undefined;
  }
  if (!(bytes > 0)) return undefined;
  try {
    return { size: hugePageUnitSize(bytes), bytes };
  } catch {
    return undefined;
  }
}

/**
 * GetHugepageLimitsFromResources: one entry per page size of the host (`hostPageSizes`, as
 * /sys/kernel/mm/hugepages lists them, in that order), limit 0 unless the container limits
 * `hugepages-<size>`. A resource name that is not a valid page size is skipped, as kubelet does.
 */
export function hugepageLimits(container: Container, hostPageSizes: string[]): HugepageLimit[] {
  const wanted = new Map<string, number>();
  for (const [name, q] of containerAmounts(container).limits) {
    if (!name.startsWith('hugepages-')) continue;
    const page = hugePageSizeOfResource(name);
    if (page !== undefined) wanted.set(page.size, toBytes(q));
  }
  return hostPageSizes.map((size) => ({ pageSize: size, limit: String(wanted.get(size) ?? 0) }));
}

export interface ContainerResourceInputs extends OomInputs {
  cgroup: CgroupSettings;
  /** IsCriticalPod (static, mirror, or priority >= 2000000000): such pods get no swap. */
  critical?: boolean;
  /** NodeSwap gate (beta on from 1.30, GA 1.34): off, LimitedSwap means no swap. */
  nodeSwap?: boolean;
  /** The host's huge page sizes in /sys/kernel/mm/hugepages order (e.g. ["2MB", "1GB"]); [] = none. */
  hugePageSizes: string[];
}

/**
 * The CPU request and the CPU and memory limits kubelet writes for a container (milli-CPU, bytes;
 * request undefined when absent): getCPULimit / getMemoryLimit let a zero container limit give way
 * to the pod-level one (PodLevelResources).
 */
export function containerCpuMemory(
  pod: Pod,
  container: Container,
  podLevelResources: boolean,
): { cpuRequest?: number; cpuLimit: number; memoryLimit: number } {
  const { requests, limits } = containerAmounts(container);
  const cpuReq = requests.get('cpu');
  let cpuLim = limits.get('cpu');
  let memLim = limits.get('memory');
  if (podLevelResources && isPodLevelResourcesSet(pod)) {
    const pl = podLevelAmounts(pod).limits;
    if (!cpuLim || milliOf(cpuLim) === 0n) cpuLim = pl.get('cpu') ?? cpuLim;
    if (!memLim || milliOf(memLim) === 0n) memLim = pl.get('memory') ?? memLim;
  }
  return {
    ...(cpuReq ? { cpuRequest: toMilliCPU(cpuReq) } : {}),
    cpuLimit: cpuLim ? toMilliCPU(cpuLim) : 0,
    memoryLimit: memLim ? toBytes(memLim) : 0,
  };
}

/** generateLinuxContainerResources for one container (init, regular or ephemeral). */
export function generateLinuxContainerResources(
  pod: Pod,
  container: Container,
  o: ContainerResourceInputs,
): LinuxContainerResources {
  const v = containerCpuMemory(pod, container, o.podLevelResources ?? false);
  const r = calculateLinuxResources(v.cpuRequest, v.cpuLimit, v.memoryLimit, o.cgroup);
  r.oomScoreAdj = String(containerOOMScoreAdjust(pod, container, o));
  r.hugepageLimits = hugepageLimits(container, o.hugePageSizes);
  configureContainerSwapResources(r, container, o);
  return r;
}

/** configureContainerSwapResources: nothing without a swap controller, else per GetContainerSwapBehavior. */
function configureContainerSwapResources(
  r: LinuxContainerResources,
  container: Container,
  o: ContainerResourceInputs,
): void {
  const s = o.cgroup;
  if (!s.swapControllerAvailable) return;
  if (getContainerSwapBehavior(container, o) !== 'LimitedSwap') {
    configureNoSwap(r, s);
    return;
  }
  const request = BigInt(memoryRequestBytes(container));
  const capacity = o.memoryCapacityBytes;
  const swap = s.swapCapacityBytes;
  if (capacity === undefined || swap === undefined) {
    throw new SyncpodError(
      `container ${container.name}: LimitedSwap needs the node's memory and swap capacity (not given)`,
    );
  }
  // calcSwapForBurstablePods: a request above the node's memory (or no memory) disallows swap.
  if (!(capacity > 0) || request > BigInt(capacity)) {
    configureNoSwap(r, s);
    return;
  }
  const limit = Math.trunc((Number(request) / capacity) * swap);
  r.unified = { ...r.unified, 'memory.swap.max': String(limit) };
}

/** GetContainerSwapBehavior: LimitedSwap only for Burstable, non-critical pods on cgroup v2, for containers that request memory below their limit. */
function getContainerSwapBehavior(container: Container, o: ContainerResourceInputs): 'NoSwap' | 'LimitedSwap' {
  if (o.cgroup.memorySwapBehavior !== 'LimitedSwap') return 'NoSwap';
  if (!o.nodeSwap || o.cgroup.cgroupVersion !== 2 || o.critical || o.qos !== 'Burstable') return 'NoSwap';
  const { requests, limits } = containerAmounts(container);
  const req = requests.get('memory');
  const lim = limits.get('memory');
  const reqMilli = req ? milliOf(req) : 0n;
  const limMilli = lim ? milliOf(lim) : 0n;
  if (reqMilli === 0n && limMilli === 0n) return 'NoSwap';
  if (reqMilli === limMilli) return 'NoSwap';
  return 'LimitedSwap';
}

/** ConfigureNoSwap: memory+swap = memory on cgroup v1, memory.swap.max 0 on v2. */
function configureNoSwap(r: LinuxContainerResources, s: CgroupSettings): void {
  if (s.cgroupVersion === 1) r.memorySwapLimitInBytes = r.memoryLimitInBytes;
  else r.unified = { ...r.unified, 'memory.swap.max': '0' };
}

/**
 * Sandbox-level resources: the pod's summed requests/limits without overhead; with
 * PodLevelResources on, pod-level cpu/memory values take the place of the sums.
 */
export function calculateSandboxResources(
  pod: Pod,
  s: CgroupSettings,
  podLevelResources = false,
): LinuxContainerResources {
  const req = podResourceTotals(pod, 'requests');
  const lim = podResourceTotals(pod, 'limits');
  if (podLevelResources && isPodLevelResourcesSet(pod)) {
    const pl = podLevelAmounts(pod);
    for (const [k, q] of pl.requests) req.set(k, milliOf(q));
    for (const [k, q] of pl.limits) lim.set(k, milliOf(q));
  }
  return calculateLinuxResources(
    req.has('cpu') ? totalMilliCPU(req) : undefined,
    totalMilliCPU(lim),
    totalBytes(lim, 'memory'),
    s,
  );
}

/** Overhead as resources with request = limit; all defaults when the pod has no overhead. */
export function convertOverheadToLinuxResources(pod: Pod, s: CgroupSettings): LinuxContainerResources {
  const overhead = pod.spec?.overhead;
  if (!overhead) return emptyLinuxResources();
  const o = amounts(overhead, 'spec.overhead');
  const cpu = o.get('cpu');
  const mem = o.get('memory');
  const milli = cpu ? toMilliCPU(cpu) : 0;
  return calculateLinuxResources(milli, milli, mem ? toBytes(mem) : 0, s);
}
