// Observation: the live state of pods read from CRI the way kubelet's GetPodStatus builds it
// (kubelet 1.33: sandboxes and containers found by the io.kubernetes.pod.uid label, statuses read
// one by one, NotFound between list and status tolerated, newest first).
//
// Unlike kubelet (one ListPodSandbox + one ListContainers per pod), one invocation makes one List
// per kind for all the pods it plans, then one status call per relevant sandbox and container,
// with a bounded number in flight.
import type { RuntimeService } from '../cri/grpc-runtime-service';
import { CriCallError } from '../cri/grpc-runtime-service';
import { allInOrder } from '../cri/together';
import { compareInt64Strings } from '../cri/int64';
import type * as T from '../cri/types';
import { recordedConfigOf } from './recorded-config';
import { inKubeletSandboxOrder, type SandboxOrder } from '../kubelet/sandbox-order';
import type { MatchBy } from '../plan/plan';
import {
  ANNOTATION_CONTAINER_HASH,
  ANNOTATION_CONTAINER_RESTART_COUNT,
  LABEL_CONTAINER_NAME,
  LABEL_POD_NAME,
  LABEL_POD_NAMESPACE,
  LABEL_POD_UID,
  type ContainerResources,
  type ContainerState,
  type ContainerStatus,
  type PodStatus,
  type SandboxStatus,
} from '../kubelet/types';

export interface PodRef {
  namespace: string;
  name: string;
  /** The manifest's uid; empty when the manifest has none. */
  uid: string;
}

export interface PodMatch {
  /** How the live pod was found (the plan's vocabulary). */
  by: MatchBy;
  /** The uid the live state belongs to ('' when nothing was found). */
  uid: string;
  /** Every uid seen for this namespace/name, newest first (more than one: earlier pods of that name). */
  candidates: string[];
}

export interface ObservedPod {
  ref: PodRef;
  match: PodMatch;
  status: PodStatus;
  /** The raw CRI statuses, newest first, for renderers that want more than kubelet keeps. */
  sandboxes: T.PodSandboxStatus[];
  containers: T.ContainerStatus[];
}

/** Nanosecond CRI timestamps (decimal strings) to fractional milliseconds. */
export function nsToMs(ns: string | undefined): number {
  if (!ns || ns === '0') return 0;
  return Number(ns) / 1e6;
}

const CONTAINER_STATES: Record<string, ContainerState> = {
  CONTAINER_CREATED: 'created',
  CONTAINER_RUNNING: 'running',
  CONTAINER_EXITED: 'exited',
};

/** The CPU and memory values of a reported LinuxContainerResources. */
function linuxResources(l: T.LinuxContainerResources): ContainerResources {
  return {
    cpuShares: Number(l.cpuShares),
    cpuQuota: Number(l.cpuQuota),
    cpuPeriod: Number(l.cpuPeriod),
    memoryLimitInBytes: Number(l.memoryLimitInBytes),
  };
}

/** kubelet's toKubeContainerStatus: a CRI ContainerStatus in kubelet's terms. */
export function toContainerStatus(s: T.ContainerStatus, info?: Record<string, string>): ContainerStatus {
  const state = CONTAINER_STATES[s.state] ?? 'unknown';
  const restart = Number.parseInt(s.annotations?.[ANNOTATION_CONTAINER_RESTART_COUNT] ?? '', 10);
  const exited = state === 'exited';
  return {
    id: s.id,
    name: s.labels?.[LABEL_CONTAINER_NAME] ?? '',
    state,
    createdAt: nsToMs(s.createdAt),
    startedAt: state === 'created' ? 0 : nsToMs(s.startedAt),
    finishedAt: exited ? nsToMs(s.finishedAt) : 0,
    exitCode: exited ? s.exitCode : 0,
    reason: exited ? s.reason : '',
    message: exited ? s.message : '',
    image: s.image?.image ?? '',
    imageRef: s.imageRef,
    hash: s.annotations?.[ANNOTATION_CONTAINER_HASH] ?? '',
    restartCount: Number.isFinite(restart) ? restart : 0,
    podSandboxId: '',
    logPath: s.logPath,
    ...(s.resources?.linux ? { resources: linuxResources(s.resources.linux) } : {}),
    ...(info ? { recorded: recordedConfigOf(s.annotations, info) } : {}),
  };
}

/** A CRI PodSandboxStatus in kubelet's terms. */
export function toSandboxStatus(s: T.PodSandboxStatus): SandboxStatus {
  return {
    id: s.id,
    name: s.metadata?.name ?? '',
    namespace: s.metadata?.namespace ?? '',
    uid: s.metadata?.uid ?? '',
    attempt: s.metadata?.attempt ?? 0,
    state: s.state === 'SANDBOX_READY' ? 'ready' : 'notready',
    createdAt: nsToMs(s.createdAt),
    networkNamespaceMode: s.linux?.namespaces?.options?.network,
    hasNetwork: s.network !== undefined,
    ip: s.network?.ip ?? '',
    additionalIps: (s.network?.additionalIps ?? []).map((a) => a.ip),
  };
}

/** What kubelet's sandbox order reads of a listed sandbox or a sandbox status. */
function sandboxOrderKey(s: T.PodSandbox | T.PodSandboxStatus) {
  return { id: s.id, createdAt: s.createdAt, attempt: s.metadata ? (s.metadata.attempt ?? 0) : undefined };
}

export function byNewest<X extends { createdAt: string; id: string }>(a: X, b: X): number {
  const d = compareInt64Strings(b.createdAt, a.createdAt);
  return d !== 0 ? d : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Pod IPs as kubelet takes them: only from the newest sandbox, only when it is ready. */
export function podIPs(sandboxes: SandboxStatus[]): string[] {
  const newest = sandboxes[0];
  if (newest?.state !== 'ready' || !newest.hasNetwork) return [];
  return [newest.ip, ...newest.additionalIps].filter((ip) => ip !== '');
}

/** Runs `fn` over `items` with at most `limit` promises in flight, keeping the order of results. */
export async function mapBounded<I, O>(items: readonly I[], limit: number, fn: (item: I) => Promise<O>): Promise<O[]> {
  const out: O[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

function isNotFound(err: unknown): boolean {
  return err instanceof CriCallError && err.notFound;
}

export interface ObserveOptions {
  /** Status calls in flight at once (default 16). */
  concurrency?: number;
  /** The runtime's sandboxes and containers, already listed (node-wide planning lists once). */
  lists?: RuntimeLists;
  /**
   * Status calls only where the planner reads more than the lists carry: the newest sandbox of each
   * pod (IP, network namespace), every container that is not running (exit code, times, reason,
   * log path) and every running one (verbose: the config it was created with, its resources, for
   * the changes in words). Older sandboxes are taken from the list items. Node-wide planning uses
   * it; kubelet's GetPodStatus reads every status.
   */
  lean?: boolean;
  /**
   * kubelet's order of a pod's sandboxes at the kubelet minor being mirrored (rules.sandboxOrder):
   * the first is the one SyncPod reads as newest.
   */
  sandboxOrder: SandboxOrder;
}

/** A PodSandboxStatus with what a ListPodSandbox item carries (no network, no namespaces). */
function sandboxStatusFromList(s: T.PodSandbox): T.PodSandboxStatus {
  return {
    id: s.id,
    metadata: s.metadata,
    state: s.state,
    createdAt: s.createdAt,
    labels: s.labels,
    annotations: s.annotations,
    runtimeHandler: s.runtimeHandler,
  };
}

/** Every sandbox and container of the runtime, unfiltered, as kubelet's relister reads them. */
export interface RuntimeLists {
  sandboxes: T.PodSandbox[];
  containers: T.Container[];
}

/** One ListPodSandbox and one ListContainers, no filter. */
export async function listRuntime(runtime: Pick<RuntimeService, 'call'>): Promise<RuntimeLists> {
  const [sandboxList, containerList] = await allInOrder([
    runtime.call('ListPodSandbox', {}),
    runtime.call('ListContainers', {}),
  ]);
  return { sandboxes: sandboxList.items, containers: containerList.containers };
}

/**
 * Which live pod each reference is, from the lists alone (no CRI call): by uid when the reference
 * has one, otherwise by namespace + name (newest uid wins); `candidates` are every uid seen under
 * that namespace/name, newest first.
 */
export function matchPods(refs: PodRef[], lists: RuntimeLists): PodMatch[] {
  const sandboxes = [...lists.sandboxes].sort(byNewest);
  const containers = [...lists.containers].sort(byNewest);
  return refs.map((ref) => {
    const byName = sandboxes.filter(
      (s) =>
        (s.metadata?.namespace ?? s.labels[LABEL_POD_NAMESPACE]) === ref.namespace &&
        (s.metadata?.name ?? s.labels[LABEL_POD_NAME]) === ref.name,
    );
    const containerUids = containers
      .filter((c) => c.labels[LABEL_POD_NAMESPACE] === ref.namespace && c.labels[LABEL_POD_NAME] === ref.name)
      .map((c) => c.labels[LABEL_POD_UID] ?? '');
    const candidates = [
      ...new Set(
        [...byName.map((s) => s.labels[LABEL_POD_UID] ?? s.metadata?.uid ?? ''), ...containerUids].filter(
          (u) => u !== '',
        ),
      ),
    ];
    if (ref.uid) return { by: 'uid-label', uid: ref.uid, candidates };
    if (candidates.length) return { by: 'namespace-name', uid: candidates[0], candidates };
    return { by: 'none', uid: '', candidates };
  });
}

/**
 * Reads the live state of each referenced pod. Pods are matched by uid when the reference has
 * one, otherwise by namespace + name (newest uid wins; the match says which).
 */
export async function observePods(
  runtime: Pick<RuntimeService, 'call'>,
  refs: PodRef[],
  opts: ObserveOptions,
): Promise<ObservedPod[]> {
  const concurrency = opts.concurrency ?? 16;
  const lists = opts.lists ?? (await listRuntime(runtime));
  const containers = [...lists.containers].sort(byNewest);
  const matches = matchPods(refs, lists);

  const wantedUids = new Set(matches.map((m) => m.uid).filter((u) => u !== ''));
  // In the runtime's list order, then as kubelet orders them (its sort keeps that order for ties).
  const relevantSandboxes = inKubeletSandboxOrder(
    opts.sandboxOrder,
    lists.sandboxes.filter((s) => wantedUids.has(s.labels[LABEL_POD_UID] ?? '')),
    sandboxOrderKey,
  );
  const relevantContainers = containers.filter((c) => wantedUids.has(c.labels[LABEL_POD_UID] ?? ''));

  const newestOfPod = new Set<string>();
  const seenUid = new Set<string>();
  for (const s of relevantSandboxes) {
    const uid = s.labels[LABEL_POD_UID] ?? '';
    if (!seenUid.has(uid)) newestOfPod.add(s.id);
    seenUid.add(uid);
  }
  const sandboxStatuses = await mapBounded(relevantSandboxes, concurrency, async (s) => {
    if (opts.lean && !newestOfPod.has(s.id)) return sandboxStatusFromList(s);
    try {
      const res = await runtime.call('PodSandboxStatus', { podSandboxId: s.id, verbose: false });
      if (!res.status) throw new CriCallError(`PodSandboxStatus ${s.id}: pod sandbox status is nil`, 2, '');
      return res.status;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  });
  const containerStatuses = await mapBounded(relevantContainers, concurrency, async (c) => {
    try {
      // Verbose for the one that runs: its info holds the config it was created with (the old spec).
      const verbose = c.state === 'CONTAINER_RUNNING';
      const res = await runtime.call('ContainerStatus', { containerId: c.id, verbose });
      if (!res.status) throw new CriCallError(`ContainerStatus ${c.id}: container status is nil`, 2, '');
      return {
        status: res.status,
        info: verbose ? (res.info ?? {}) : undefined,
        podSandboxId: c.podSandboxId,
        uid: c.labels[LABEL_POD_UID] ?? '',
      };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  });

  return refs.map((ref, i) => {
    const match = matches[i];
    const rawSandboxes = sandboxStatuses.filter(
      (s): s is T.PodSandboxStatus => !!s && (s.labels[LABEL_POD_UID] ?? '') === match.uid && match.uid !== '',
    );
    const rawContainers = containerStatuses.filter(
      (c): c is NonNullable<typeof c> => !!c && c.uid === match.uid && match.uid !== '',
    );
    rawContainers.sort((a, b) => byNewest(a.status, b.status));
    const sb = rawSandboxes.map(toSandboxStatus);
    const status: PodStatus = {
      uid: match.uid,
      name: ref.name,
      namespace: ref.namespace,
      ips: podIPs(sb),
      sandboxStatuses: sb,
      containerStatuses: rawContainers.map((c) => ({
        ...toContainerStatus(c.status, 'info' in c ? c.info : undefined),
        podSandboxId: c.podSandboxId,
      })),
    };
    return { ref, match, status, sandboxes: rawSandboxes, containers: rawContainers.map((c) => c.status) };
  });
}
