// In-place resize as kubelet does it (InPlacePodVerticalScaling), read in k8s.io/kubernetes v1.37.2
// pkg/kubelet/kuberuntime/kuberuntime_manager.go: computePodResizeAction (what changed, restart or
// update, decreases ordered before increases), startingResizedContainer, and doPodResizeAction
// (memory then CPU; the pod cgroup raised before and lowered after the containers; from 1.34 each
// pod cgroup change announced to the runtime with UpdatePodSandboxResources; each container update
// sends one resource's new values with the other resource's current ones).
//
// Kubelet compares the allocated resources with its actuated checkpoint (actuated_pods_state) and
// reads the pod cgroup from cgroupfs; syncpod cannot read the checkpoint and takes both from what
// the runtime reports: a container's actuated resources are its spec with the values the runtime
// reports in their place (CRI ContainerStatus.resources), and the pod cgroup holds what kubelet
// writes for the pod with those resources. A change of the memory request alone (not in CRI's
// resources) is therefore not seen. Pod-level actuated resources are taken to be the spec's. Pure.

import type { Container, Pod, ResourceRequirements } from './api-types';
import type { Changes, ContainerToUpdate, ResizeCall, ResizeEntry, ResizeUpdates, ResizeValues } from './pod-actions';
import { parseQuantity, toBytes, toMilliCPU } from './quantity';
import {
  getPodQOS,
  isPodLevelResourcesSet,
  MIN_SHARES,
  milliCPUToQuota,
  milliCPUToShares,
  podResourceTotals,
  QUOTA_PERIOD_US,
} from './resources';
import type { ContainerResources, ContainerStatus, PodStatus } from './types';

/** What the resize decision needs of the pod: the pod itself and the gates that shape it. */
export interface ResizeContext {
  pod: Pod;
  /** The PodLevelResources gate: a container without limits was created with the pod's. */
  podLevelResources: boolean;
  /** InPlacePodLevelResourcesVerticalScaling: the compared limits take the pod-level ones too. */
  podLevelResize: boolean;
}

/** The resize context of a plan: its pod and the gates of its rules. */
export function resizeContextOf(ctx: {
  pod: Pod;
  rules: { gates: { PodLevelResources: boolean; InPlacePodLevelResourcesVerticalScaling?: boolean } };
}): ResizeContext {
  return {
    pod: ctx.pod,
    podLevelResources: ctx.rules.gates.PodLevelResources,
    podLevelResize: ctx.rules.gates.InPlacePodLevelResourcesVerticalScaling === true,
  };
}

const milli = (v: unknown): number => (v === undefined || v === null ? 0 : toMilliCPU(parseQuantity(v as string)));
const bytes = (v: unknown): number => (v === undefined || v === null ? 0 : toBytes(parseQuantity(v as string)));

/** kubeutil.GetLimits: container limits, a missing (zero) cpu/memory limit taking the pod-level one. */
function limitsWithPod(pod: ResourceRequirements | undefined, c: ResourceRequirements): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(c.limits ?? {}) };
  const pl = pod?.limits;
  if (!pl || Object.keys(pl).length === 0) return out;
  if (milli(out.cpu) === 0 && milli(pl.cpu) !== 0) out.cpu = pl.cpu;
  if (bytes(out.memory) === 0 && bytes(pl.memory) !== 0) out.memory = pl.memory;
  return out;
}

/** containerResourcesFromRequirements. */
export function resizeValues(
  podResources: ResourceRequirements | undefined,
  c: ResourceRequirements,
  podLevelResize: boolean,
): ResizeValues {
  const limits = podLevelResize ? limitsWithPod(podResources, c) : (c.limits ?? {});
  return {
    memoryLimit: bytes(limits.memory),
    memoryRequest: bytes(c.requests?.memory),
    cpuLimit: milli(limits.cpu),
    cpuRequest: milli(c.requests?.cpu),
  };
}

/**
 * A container's actuated resources as syncpod takes them: the spec when the runtime reports what
 * kubelet writes for the spec (a missing limit taken from the pod-level one with PodLevelResources,
 * a missing CPU request from the limit), else the spec with the reported CPU request, CPU limit and
 * memory limit in place of its own (no report: the spec).
 */
export function actuatedResources(
  c: Container,
  reported: ContainerResources | undefined,
  ctx: ResizeContext,
): ResourceRequirements {
  const spec = c.resources ?? {};
  if (!reported) return spec;
  const requests: Record<string, unknown> = { ...(spec.requests ?? {}) };
  const limits: Record<string, unknown> = { ...(spec.limits ?? {}) };
  let cpuLimit = milli(spec.limits?.cpu);
  let memoryLimit = bytes(spec.limits?.memory);
  if (ctx.podLevelResources && isPodLevelResourcesSet(ctx.pod)) {
    const pl = ctx.pod.spec?.resources?.limits;
    if (cpuLimit === 0) cpuLimit = milli(pl?.cpu);
    if (memoryLimit === 0) memoryLimit = bytes(pl?.memory);
  }
  const wantRequest = spec.requests?.cpu !== undefined ? milli(spec.requests.cpu) : cpuLimit;
  if (milliCPUToShares(wantRequest) !== reported.cpuShares)
    requests.cpu = `${Math.trunc((reported.cpuShares * 1000) / 1024)}m`;
  const period = reported.cpuPeriod > 0 ? reported.cpuPeriod : QUOTA_PERIOD_US;
  if (milliCPUToQuota(cpuLimit, period) !== reported.cpuQuota) {
    if (reported.cpuQuota > 0) limits.cpu = `${Math.trunc((reported.cpuQuota * 1000) / period)}m`;
    else delete limits.cpu;
  }
  if (memoryLimit !== reported.memoryLimitInBytes) {
    if (reported.memoryLimitInBytes > 0) limits.memory = String(reported.memoryLimitInBytes);
    else delete limits.memory;
  }
  return {
    ...(Object.keys(requests).length ? { requests: requests as ResourceRequirements['requests'] } : {}),
    ...(Object.keys(limits).length ? { limits: limits as ResourceRequirements['limits'] } : {}),
  };
}

/** The CRI values kubelet writes for these resource values (getCPULimit/getMemoryLimit, 100 ms period). */
export function criValues(v: ResizeValues, ctx: ResizeContext, periodUs = QUOTA_PERIOD_US): ContainerResources {
  let cpuLimit = v.cpuLimit;
  let memoryLimit = v.memoryLimit;
  if (ctx.podLevelResources && isPodLevelResourcesSet(ctx.pod)) {
    const pl = ctx.pod.spec?.resources?.limits;
    if (cpuLimit === 0) cpuLimit = milli(pl?.cpu);
    if (memoryLimit === 0) memoryLimit = bytes(pl?.memory);
  }
  return {
    cpuShares: milliCPUToShares(v.cpuRequest),
    cpuQuota: milliCPUToQuota(cpuLimit, periodUs),
    cpuPeriod: periodUs,
    memoryLimitInBytes: memoryLimit,
  };
}

/** The CRI values kubelet would write for the container's spec (the plan's "desired"). */
export function desiredResources(c: Container, periodUs: number, ctx: ResizeContext): ContainerResources {
  return criValues(resizeValues(ctx.pod.spec?.resources, c.resources ?? {}, ctx.podLevelResize), ctx, periodUs);
}

const sameValues = (a: ResizeValues, b: ResizeValues) =>
  a.memoryLimit === b.memoryLimit &&
  a.memoryRequest === b.memoryRequest &&
  a.cpuLimit === b.cpuLimit &&
  a.cpuRequest === b.cpuRequest;

/**
 * computePodResizeAction for a running container. Returns whether the container is kept
 * (kubelet's keepContainer); fills changes.resize and changes.containersToUpdate, or (a
 * RestartContainer policy for a changed resource) containersToKill and the start list.
 */
export function computePodResizeAction(
  c: Container,
  idx: number,
  kind: 'regular' | 'init',
  s: ContainerStatus,
  changes: Changes,
  ctx: ResizeContext,
): boolean {
  if (s.state !== 'running') return true;
  const podResources = ctx.pod.spec?.resources;
  const desired = resizeValues(podResources, c.resources ?? {}, ctx.podLevelResize);
  const current = resizeValues(podResources, actuatedResources(c, s.resources, ctx), ctx.podLevelResize);
  if (sameValues(desired, current)) return true;
  const policy = (r: string) => c.resizePolicy?.find((p) => p.resourceName === r)?.restartPolicy ?? 'NotRequired';
  const differs = (d: number, cur: number, r: 'cpu' | 'memory') => ({
    resize: d !== cur,
    restart: d !== cur && policy(r) === 'RestartContainer',
  });
  const memLim = differs(desired.memoryLimit, current.memoryLimit, 'memory');
  const memReq = differs(desired.memoryRequest, current.memoryRequest, 'memory');
  const cpuLim = differs(desired.cpuLimit, current.cpuLimit, 'cpu');
  const cpuReq = differs(desired.cpuRequest, current.cpuRequest, 'cpu');
  const resized: Array<'cpu' | 'memory'> = [];
  if (cpuLim.resize || cpuReq.resize) resized.push('cpu');
  if (memLim.resize || memReq.resize) resized.push('memory');
  if (memLim.restart || memReq.restart || cpuLim.restart || cpuReq.restart) {
    changes.containersToKill.set(s.id, {
      containerId: s.id,
      name: c.name,
      kind,
      message: `Container ${c.name} resize requires restart`,
      reason: '',
      why: 'resize-restart',
    });
    const decision = { index: idx, name: c.name, reason: { code: 'resize-restart' as const, resized } };
    if (kind === 'init') changes.initContainersToStart.push(decision);
    else changes.containersToStart.push(decision);
    changes.updatePodResources = true;
    return false;
  }
  const entry: ResizeEntry = { name: c.name, containerId: s.id, kind, container: c, desired, current };
  const updates = changes.resize ?? { memory: [], cpu: [] };
  changes.resize = updates;
  // Decreases go first (prepended), increases last (appended), per resource.
  const mark = (list: ResizeEntry[], d: number, cur: number) => {
    if (d > cur) list.push(entry);
    else if (d < cur) list.unshift(entry);
  };
  if (memLim.resize) mark(updates.memory, desired.memoryLimit, current.memoryLimit);
  else if (memReq.resize) mark(updates.memory, desired.memoryRequest, current.memoryRequest);
  if (cpuLim.resize) mark(updates.cpu, desired.cpuLimit, current.cpuLimit);
  else if (cpuReq.resize) mark(updates.cpu, desired.cpuRequest, current.cpuRequest);
  const period = s.resources?.cpuPeriod && s.resources.cpuPeriod > 0 ? s.resources.cpuPeriod : QUOTA_PERIOD_US;
  const update: ContainerToUpdate = {
    index: idx,
    name: c.name,
    kind,
    containerId: s.id,
    resources: resized,
    current: s.resources ?? criValues(current, ctx, period),
    desired: criValues(desired, ctx, period),
  };
  changes.containersToUpdate.push(update);
  return true;
}

/**
 * startingResizedContainer: whether a container about to be started has resources other than its
 * actuated ones (a container never started has none recorded: zero).
 */
export function startingResizedContainer(
  containers: Container[],
  indexes: number[],
  status: PodStatus,
  ctx: ResizeContext,
): boolean {
  const podResources = ctx.pod.spec?.resources;
  for (const i of indexes) {
    const c = containers[i];
    const s = newestStatus(status, c.name);
    const actuated = s ? actuatedResources(c, s.resources, ctx) : {};
    const desired = resizeValues(podResources, c.resources ?? {}, ctx.podLevelResize);
    if (!sameValues(desired, resizeValues(podResources, actuated, ctx.podLevelResize))) return true;
  }
  return false;
}

function newestStatus(status: PodStatus, name: string): ContainerStatus | undefined {
  let best: ContainerStatus | undefined;
  for (const s of status.containerStatuses) if (s.name === name && (!best || s.createdAt > best.createdAt)) best = s;
  return best;
}

/** The pod cgroup values kubelet computes (cm.ResourceConfigForPod; absent = not written). */
export interface PodCgroupConfig {
  cpuShares?: number;
  cpuQuota?: number;
  cpuPeriod?: number;
  memory?: number;
}

/**
 * cm.ResourceConfigForPod with CFS quota enforced at kubelet's default 100 ms period (no MemoryQoS).
 * Whether every container declares a limit: from 1.37 each container's own limits; up to 1.36
 * (`initLimitsWithSidecars`) a regular init container counts with the limits of the sidecars
 * before it (resourcehelper.PodLimits' ContainerFn), so one without limits after a limited
 * sidecar still declares them (measured with the v1.36.3 and v1.34.4 oracles).
 */
export function resourceConfigForPod(
  pod: Pod,
  podLevelResources: boolean,
  initLimitsWithSidecars = false,
): PodCgroupConfig {
  const reqs = podResourceTotals(pod, 'requests');
  const lims = podResourceTotals(pod, 'limits');
  const toMilli = (m: bigint | undefined) => Number(m ?? 0n);
  let cpuRequests = Math.ceil(toMilli(reqs.get('cpu')));
  let cpuLimits = Math.ceil(toMilli(lims.get('cpu')));
  let memoryLimits = Math.ceil(toMilli(lims.get('memory')) / 1000);
  let cpuLimitsDeclared = true;
  let memoryLimitsDeclared = true;
  let sidecarCpu = 0;
  let sidecarMemory = 0;
  for (const c of pod.spec?.initContainers ?? []) {
    let cpu = milli(c.resources?.limits?.cpu);
    let memory = bytes(c.resources?.limits?.memory);
    if (initLimitsWithSidecars) {
      if (c.restartPolicy === 'Always') {
        sidecarCpu += cpu;
        sidecarMemory += memory;
        cpu = sidecarCpu;
        memory = sidecarMemory;
      } else {
        cpu += sidecarCpu;
        memory += sidecarMemory;
      }
    }
    if (cpu === 0) cpuLimitsDeclared = false;
    if (memory === 0) memoryLimitsDeclared = false;
  }
  for (const c of pod.spec?.containers ?? []) {
    if (milli(c.resources?.limits?.cpu) === 0) cpuLimitsDeclared = false;
    if (bytes(c.resources?.limits?.memory) === 0) memoryLimitsDeclared = false;
  }
  const pl = pod.spec?.resources;
  if (podLevelResources && isPodLevelResourcesSet(pod)) {
    if (pl?.requests?.cpu !== undefined) cpuRequests = milli(pl.requests.cpu);
    if (pl?.limits?.cpu !== undefined) cpuLimits = milli(pl.limits.cpu);
    if (pl?.limits?.memory !== undefined) memoryLimits = bytes(pl.limits.memory);
    if (milli(pl?.limits?.cpu) !== 0) cpuLimitsDeclared = true;
    if (bytes(pl?.limits?.memory) !== 0) memoryLimitsDeclared = true;
  }
  // Overhead: added to the requests, and to the limits that are set (not zero).
  const overhead = pod.spec?.overhead;
  if (overhead) {
    cpuRequests += milli(overhead.cpu);
    if (cpuLimits !== 0) cpuLimits += milli(overhead.cpu);
    if (memoryLimits !== 0) memoryLimits += bytes(overhead.memory);
  }
  const shares = milliCPUToShares(cpuRequests);
  const quota = milliCPUToQuota(cpuLimits, QUOTA_PERIOD_US);
  const qos = getPodQOS(pod, podLevelResources);
  if (qos === 'Guaranteed')
    return { cpuShares: shares, cpuQuota: quota, cpuPeriod: QUOTA_PERIOD_US, memory: memoryLimits };
  if (qos === 'Burstable')
    return {
      cpuShares: shares,
      ...(cpuLimitsDeclared ? { cpuQuota: quota, cpuPeriod: QUOTA_PERIOD_US } : {}),
      ...(memoryLimitsDeclared ? { memory: memoryLimits } : {}),
    };
  return { cpuShares: MIN_SHARES };
}

/** What the resize needs besides the pod: the gates and whether pod-level calls exist (1.33+). */
export interface ResizeCallOptions extends ResizeContext {
  podSandboxResourceUpdates: boolean;
  /** Up to 1.36: whether the pod declares limits counts a regular init container with the sidecars before it. */
  initLimitsWithSidecars?: boolean;
}

/**
 * The pod as the last sync left it: every container with a status at its actuated resources
 * (the newest status of each name).
 */
export function actuatedPod(pod: Pod, status: PodStatus, ctx: ResizeContext): Pod {
  const swap = (c: Container): Container => {
    const s = newestStatus(status, c.name);
    return s?.resources ? { ...c, resources: actuatedResources(c, s.resources, ctx) } : c;
  };
  const spec = pod.spec!;
  return {
    ...pod,
    spec: {
      ...spec,
      containers: spec.containers.map(swap),
      ...(spec.initContainers ? { initContainers: spec.initContainers.map(swap) } : {}),
    },
  };
}

function overheadValues(pod: Pod): ContainerResources {
  const o = pod.spec?.overhead;
  if (!o) return { cpuShares: 0, cpuQuota: 0, cpuPeriod: 0, memoryLimitInBytes: 0 };
  const cpu = milli(o.cpu);
  return {
    cpuShares: milliCPUToShares(cpu),
    cpuQuota: milliCPUToQuota(cpu, QUOTA_PERIOD_US),
    cpuPeriod: QUOTA_PERIOD_US,
    memoryLimitInBytes: bytes(o.memory),
  };
}

/** subtractOverheadFromResourceConfig + convertResourceConfigToLinuxContainerResources. */
function withoutOverhead(rc: PodCgroupConfig, pod: Pod): ContainerResources {
  const out = { ...rc };
  const o = pod.spec?.overhead;
  if (o?.cpu !== undefined) {
    const cpu = milli(o.cpu);
    if (out.cpuPeriod !== undefined) out.cpuQuota = (out.cpuQuota ?? 0) - milliCPUToQuota(cpu, out.cpuPeriod);
    if (out.cpuShares !== undefined) out.cpuShares = milliCPUToShares(sharesToMilliCPU(out.cpuShares) - cpu);
  }
  if (o?.memory !== undefined && out.memory !== undefined) out.memory -= bytes(o.memory);
  return {
    cpuShares: out.cpuShares ?? 0,
    cpuQuota: out.cpuQuota ?? 0,
    cpuPeriod: out.cpuPeriod ?? 0,
    memoryLimitInBytes: out.memory ?? 0,
  };
}

/** cm.SharesToMilliCPU. */
function sharesToMilliCPU(shares: number): number {
  return shares >= MIN_SHARES ? Math.ceil((shares * 1000) / 1024) : 0;
}

/**
 * doPodResizeAction's calls: for memory, then CPU (each when a container of that resource is
 * updated, a container restarts for its resize, or a started container's resources changed):
 * the pod cgroup limit raised (and, CPU, its request) before the containers, the containers in
 * kubelet's order, the pod cgroup request and limit lowered after. `updatePodResources` is
 * kubelet's UpdatePodResources. Before 1.34 no pod-level call exists (the cgroup is still written).
 */
export function podResizeCalls(
  pod: Pod,
  status: PodStatus,
  updates: ResizeUpdates,
  updatePodResources: boolean,
  o: ResizeCallOptions,
): ResizeCall[] {
  const calls: ResizeCall[] = [];
  // Entries are copied: kubelet updates a container's current values after each call.
  const currents = new Map<ResizeValues, ResizeValues>();
  const copy = (e: ResizeEntry): ResizeEntry => {
    let cur = currents.get(e.current);
    if (!cur) {
      cur = { ...e.current };
      currents.set(e.current, cur);
    }
    return { ...e, current: cur };
  };
  updates = { memory: updates.memory.map(copy), cpu: updates.cpu.map(copy) };
  const desired = resourceConfigForPod(pod, o.podLevelResources, o.initLimitsWithSidecars);
  const last = resourceConfigForPod(actuatedPod(pod, status, o), o.podLevelResources, o.initLimitsWithSidecars);
  // GetPodCgroupConfig: an unlimited memory.max or cpu.max reads as -1.
  const curMemory = last.memory ?? -1;
  const curCpu = { cpuShares: last.cpuShares, cpuQuota: last.cpuQuota ?? -1, cpuPeriod: last.cpuPeriod };
  let current: PodCgroupConfig = { ...desired, memory: curMemory, ...dropUndefined(curCpu) };
  const setPod = (resource: 'memory' | 'cpu', value: 'limit' | 'request', raise: boolean) => {
    const change: PodCgroupConfig =
      resource === 'memory'
        ? { memory: desired.memory }
        : value === 'limit'
          ? { cpuPeriod: desired.cpuPeriod, cpuQuota: desired.cpuQuota }
          : { cpuShares: desired.cpuShares };
    const merged = { ...current, ...dropUndefined(change) };
    if (o.podSandboxResourceUpdates)
      calls.push({
        call: 'UpdatePodSandboxResources',
        resource,
        value,
        raise,
        resources: withoutOverhead(merged, pod),
        overhead: overheadValues(pod),
      });
    current = merged;
  };
  const containers = (resource: 'memory' | 'cpu') => {
    for (const e of updates[resource]) {
      const v: ResizeValues =
        resource === 'memory'
          ? { ...e.current, memoryLimit: e.desired.memoryLimit, memoryRequest: e.desired.memoryRequest }
          : { ...e.current, cpuLimit: e.desired.cpuLimit, cpuRequest: e.desired.cpuRequest };
      calls.push({
        call: 'UpdateContainerResources',
        resource,
        name: e.name,
        containerId: e.containerId,
        kind: e.kind,
        resources: criValues(v, o),
      });
      Object.assign(e.current, v);
    }
  };
  const run = (resource: 'memory' | 'cpu', curLim: number, newLim: number, curReq: number, newReq: number) => {
    if (newLim > curLim) setPod(resource, 'limit', true);
    if (newReq > curReq) setPod(resource, 'request', true);
    containers(resource);
    if (newReq < curReq) setPod(resource, 'request', false);
    if (newLim < curLim) setPod(resource, 'limit', false);
  };
  if (updates.memory.length > 0 || updatePodResources) {
    if (desired.memory === undefined) desired.memory = curMemory;
    run('memory', curMemory, desired.memory, 0, 0);
  }
  if (updates.cpu.length > 0 || updatePodResources) {
    if (desired.cpuQuota === undefined) desired.cpuQuota = curCpu.cpuQuota;
    run('cpu', curCpu.cpuQuota, desired.cpuQuota, curCpu.cpuShares ?? 0, desired.cpuShares ?? 0);
  }
  return calls;
}

function dropUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
