// The sync flow: load -> lock -> observe -> plan (once) -> confirm -> execute -> the report.
//
// The pod lock is keyed by namespace/name and taken BEFORE a uid is chosen, so concurrent syncs of
// a manifest without a uid meet at the lock: the second one observes what the first created and
// takes that uid instead of making a second pod. Observation and planning happen once under the
// lock (and again only when --wait goes on after an init container). Every runtime call of the
// flow is timed, observation included, for --timings. Dependencies come in as interfaces.
import { SyncpodError } from '../errors';
import type { Pod } from '../kubelet/api-types';
import type { PodStatus } from '../kubelet/types';
import { loadManifests, parseOrdinalFlag, skippedNote } from '../manifest/load';
import { apiRulesOfKubelet } from '../manifest/api-rules';
import type { LoadedPod } from '../manifest/types';
import { buildPlan, killsSomething, podSysctlRejection, type Plan, type SysctlNode } from '../plan/plan';
import { probeInputs } from '../plan/probe-inputs';
import { probeFlagResults, type ProbeFlags } from './probe-flags';
import { findDuplicates, type Orphan } from '../kubelet/orphans';
import { listRuntime, observePods, type ObservedPod } from '../state/pod-status';
import { orphansWithCgroups } from '../state/node-facts';
import { removeOrphan, type OrphanRemoval } from '../sync/remove-orphan';
import { clearKilledSyncResidue } from '../sync/residue';
import { DEFAULT_KUBELET_ROOT, DEFAULT_POD_LOGS_ROOT } from '../kubelet/labels';
import { dryRunCri, dryRunFs, type RecordedRequest } from '../sync/dry-run';
import { executePlan, type ExecuteDeps, type ExecuteInput } from '../sync/execute';
import { redactRecorded, redactionNote } from '../sync/redact';
import { syncPod, type SyncPodOutcome } from '../sync/sync-pod';
import type { RuntimeCaller, SyncFs, SyncHooks } from '../sync/types';
import type { HostFacts } from './host-facts';
import { configSeenFor, nodeSettings, setUid, sysctlNodeOf, withNodeName, type NodeFlags } from './node-settings';
import { hostPathFacts, manifestSource, type KubeletSelection } from './plan-pods';
import { classifyVolumes, volumesBlocked, type VolumeData } from '../kubelet/volumes';
import { hostPathSteps } from '../plan/preflight';
import { readVolumeData, type VolumeDataReader } from './volume-data';
import { localVolumeDataReader } from './host-facts';
import { killConfirmation } from '../render/confirm-view';

export interface SyncRequest {
  file: string;
  /** `-l/--selector` and `--ordinal` as given. */
  selector?: string;
  ordinal?: string;
  kubelet: KubeletSelection;
  node: NodeFlags;
  /** --yes: kills need no confirmation. */
  yes: boolean;
  wait: boolean;
  waitTimeoutMs: number;
  /** --liveness-failed / --startup-failed / --startup-succeeded: container names, as plan takes them. */
  probes?: ProbeFlags;
}

export interface SyncLock {
  release(): void;
}

export interface SyncFlowDeps {
  /** The executor's dependencies (runtime, image, fs, clock, randomness, deadlines). */
  execute: ExecuteDeps;
  host: HostFacts;
  readStdin(): Promise<string | Uint8Array>;
  /** The pod lock (namespace/name); `onWait` is told the owner's pid when it is held. */
  lockPod(namespace: string, name: string, onWait: (pid: number) => void): Promise<SyncLock>;
  /** Asks the operator a yes/no question; undefined when nobody can be asked (stdin is not a terminal). */
  ask?: (question: string) => Promise<boolean>;
  newUid(): string;
  /** A line of information for stderr. */
  note(line: string): void;
  /** Reads --configmap/--secret directories and token files (default: this machine's files). */
  volumeReader?: VolumeDataReader;
}

/** What was decided under the lock: the pod as kubelet holds it, its first plan and what it was computed from. */
export interface PreparedSync {
  loaded: LoadedPod;
  pod: Pod;
  plan: Plan;
  status: PodStatus;
  base: Omit<ExecuteInput, 'plan' | 'status'>;
  /** The runtime, its calls timed into the sync's RPC time. */
  runtime: RuntimeCaller;
}

export interface SyncTimes {
  /** Observing and planning, all rounds. */
  planMs: number;
  /** Inside runtime calls: observation and steps. */
  rpcMs: number;
}

export interface SyncDone {
  pod: { namespace: string; name: string; uid: string };
  /** Other uids of the pod's namespace/name, killed and removed before the pod was synced. */
  duplicates: OrphanRemoval[];
  outcome: SyncPodOutcome;
  times: SyncTimes;
}

export interface DryRunDone {
  plan: Plan;
  requests: RecordedRequest[];
  filesystem: string[];
  failures: string[];
}

const killsDuplicate = (d: Orphan) => d.kubelet === 'kill';
const isKill = (p: Plan) => p.steps.some(killsSomething) || p.duplicates.some(killsDuplicate);

function killSummary(plan: Plan): string {
  const kills = plan.steps.filter(killsSomething);
  return [
    ...plan.duplicates.filter(killsDuplicate).map((d) => `the duplicate pod ${d.namespace}/${d.name} (uid ${d.uid})`),
    ...kills.map((s) =>
      s.action === 'kill-pod'
        ? `the pod ${s.target}`
        : s.action === 'reset-container'
          ? `container ${s.target} (removed: restart all)`
          : `container ${s.target}`,
    ),
  ].join(', ');
}

/** A runtime whose calls add their time to `times.rpcMs`. */
function timedRuntime(runtime: RuntimeCaller, monotonic: () => number, times: SyncTimes): RuntimeCaller {
  return {
    call: async (method, req, o) => {
      const c0 = monotonic();
      try {
        return await runtime.call(method, req, o);
      } finally {
        times.rpcMs += monotonic() - c0;
      }
    },
  };
}

async function loadOne(req: SyncRequest, deps: SyncFlowDeps): Promise<LoadedPod> {
  const file = req.file;
  const loaded = await loadManifests([file], () => deps.readStdin(), {
    selector: req.selector,
    ordinal: parseOrdinalFlag(req.ordinal),
    api: apiRulesOfKubelet(req.kubelet.rules),
  });
  const skipped = skippedNote(loaded);
  if (skipped !== undefined) deps.note(skipped);
  if (loaded.length !== 1)
    throw new SyncpodError(`${file}: holds ${loaded.length} pods; sync takes one pod (run one sync per pod)`);
  return loaded[0];
}

/** One line, exit 1: the pod has a volume syncpod cannot provide (nothing was done). */
export function refuseBlockedVolumes(loaded: LoadedPod, data: VolumeData, kubelet: KubeletSelection): void {
  const pod = loaded.pod;
  const verdicts = classifyVolumes(pod, data, { imageVolume: kubelet.rules.gates.ImageVolume });
  const blocked = volumesBlocked(verdicts);
  if (blocked === null) return;
  const ref = `${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name ?? ''}`;
  throw new SyncpodError(
    `${loaded.source.file}: document ${loaded.source.document}: pod ${ref} is blocked: ${blocked}; nothing was done`,
  );
}

/** One line, exit 1: kubelet's sysctl admission rejects the pod (SysctlForbidden; nothing was done). */
export function refuseRejectedSysctls(loaded: LoadedPod, kubelet: KubeletSelection, node: SysctlNode): void {
  const r = podSysctlRejection(loaded.pod, kubelet.rules.minor, node);
  if (r === null) return;
  const pod = loaded.pod;
  const ref = `${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name ?? ''}`;
  throw new SyncpodError(
    `${loaded.source.file}: document ${loaded.source.document}: spec.securityContext.sysctls: ${r.sysctl}: kubelet rejects pod ${ref} (${r.reason}: ${r.message}); nothing was done`,
  );
}

/**
 * One line, exit 1: a new pod (nothing of its uid in the runtime) whose hostPath volume fails its
 * type check. Kubelet mounts a pod's volumes before its first sandbox (syncPod waits for
 * WaitForAttachAndMount), so it never creates the sandbox of such a pod; neither does sync.
 */
export function refuseHostPathTypes(loaded: LoadedPod, fs: Pick<SyncFs, 'kind'>): void {
  const pod = loaded.pod;
  const hostPaths = hostPathFacts(pod, (p) => fs.kind(p));
  const failed = hostPathSteps(pod, { network: null, podDirs: [], hostPaths, images: [] }).filter(
    (s) => s.blocking === 'pod',
  );
  if (failed.length === 0) return;
  const ref = `${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name ?? ''}`;
  const why = failed.map((s) => `${s.target}: ${s.reason}`).join('; ');
  throw new SyncpodError(
    `${loaded.source.file}: document ${loaded.source.document}: pod ${ref}: ${why} (kubelet mounts volumes before it creates the sandbox, so it would not start this pod); nothing was done`,
  );
}

/**
 * Runs `body` with the pod loaded, locked, observed and planned once. `dryRun` takes no lock (it
 * changes nothing). The lock is released however `body` ends.
 */
async function withPreparedSync<R>(
  req: SyncRequest,
  deps: SyncFlowDeps,
  times: SyncTimes,
  dryRun: boolean,
  body: (p: PreparedSync, replan: (pod: Pod) => Promise<{ plan: Plan; status: PodStatus }>) => Promise<R>,
): Promise<R> {
  const loaded = await loadOne(req, deps);
  const pod = loaded.pod;
  const ns = pod.metadata?.namespace ?? 'default';
  const name = pod.metadata?.name ?? '';
  // A volume syncpod cannot provide is refused before the lock, the observation and any side effect.
  const volumeData = readVolumeData(req.node, deps.volumeReader ?? localVolumeDataReader);
  refuseBlockedVolumes(loaded, volumeData, req.kubelet);
  // So is a pod kubelet's sysctl admission rejects.
  const sysctlNode = sysctlNodeOf(req.node, deps.host);
  refuseRejectedSysctls(loaded, req.kubelet, sysctlNode);
  const hadUid = !!pod.metadata?.uid;
  const clock = deps.execute.clock;
  const runtime = timedRuntime(deps.execute.runtime, () => clock.monotonic(), times);
  const podSource = hadUid ? 'api-server' : 'manifest';
  const source = manifestSource(loaded);

  const lock = dryRun
    ? undefined
    : await deps.lockPod(ns, name, (pid) => deps.note(`waiting for pid ${pid}, which is syncing ${ns}/${name}`));
  try {
    // One listing per observation: the pod's state and its duplicates (other uids of namespace/name) come from it.
    const observe = async (uid: string): Promise<ObservedPod & { duplicates: Orphan[] }> => {
      const lists = await listRuntime(runtime);
      const [o] = await observePods(runtime, [{ namespace: ns, name, uid }], {
        lists,
        sandboxOrder: req.kubelet.rules.sandboxOrder,
      });
      return {
        ...o,
        duplicates: findDuplicates(
          { namespace: ns, name, uid: o.match.uid },
          lists.sandboxes,
          lists.containers,
          clock.now(),
        ),
      };
    };
    // The prober results (flags, a pod status dump's started: true) are read at the first
    // observation: they are keyed by container id, so a later plan (--wait) applies them only to an
    // instance that is still the newest, as kubelet's prober caches would.
    let probes: ReturnType<typeof probeInputs> | undefined;
    // The duplicates' pod cgroups, which kubelet's housekeeping destroys once they are gone (known
    // once the node settings are read, before the first plan).
    let withCgroups = (ds: Orphan[]): Orphan[] => ds;
    const plan = (p: Pod, o: ObservedPod & { duplicates: Orphan[] }): Plan => {
      probes ??= probeInputs(p, o.status, probeFlagResults(req.probes ?? {}), loaded.apiStatus);
      return buildPlan({
        pod: p,
        podStatus: o.status,
        now: clock.now(),
        options: { rules: req.kubelet.rules, probeResults: probes.results },
        probeInputs: probes.inputs,
        matchedBy: o.match.by,
        matchCandidates: o.match.candidates,
        duplicates: withCgroups(o.duplicates),
        podSource,
        source,
        volumeData,
        sysctlNode,
      });
    };

    const p0 = clock.monotonic();
    // Under the lock: a uid chosen by a sync that held it before is seen here.
    const first = await observe(pod.metadata?.uid ?? '');
    let freshUid = false;
    if (!hadUid) {
      freshUid = !first.match.uid;
      setUid(pod, first.match.uid || deps.newUid());
    }
    withNodeName(pod, req.node.nodeName, deps.host);
    // A bad node flag (--resolv-conf, --env-file, ...) is the one line, before any note.
    const settings = nodeSettings(req.node, pod, req.kubelet.rules, deps.host, volumeData);
    const sb = settings.sandbox;
    withCgroups = (ds) =>
      orphansWithCgroups(deps.execute.fs, ds, {
        cgroupsPerQOS: sb.cgroupsPerQOS !== false,
        cgroupDriver: sb.cgroupDriver ?? 'cgroupfs',
        cgroupRoot: sb.cgroupRoot,
        cgroupVersion: sb.cgroupVersion ?? 1,
      });
    if (first.sandboxes.length === 0 && first.containers.length === 0) refuseHostPathTypes(loaded, deps.execute.fs);
    if (freshUid)
      deps.note(`pod ${ns}/${name} has no uid and none exists on this node: using the fresh uid ${pod.metadata!.uid}`);
    if (!dryRun) {
      // Directories of an earlier sync of this pod killed before RunPodSandbox, for a uid nothing carries.
      const gone = clearKilledSyncResidue(deps.execute.fs, {
        namespace: ns,
        name,
        kubeletRoot: settings.container.kubeletRoot ?? DEFAULT_KUBELET_ROOT,
        podLogsRoot: settings.container.podLogsRoot ?? DEFAULT_POD_LOGS_ROOT,
        liveUids: new Set([first.match.uid, ...first.duplicates.map((d) => d.uid)].filter((u) => u !== '')),
        uid: pod.metadata!.uid!,
      });
      if (gone.length > 0)
        deps.note(`removed what an interrupted earlier sync of ${ns}/${name} left: ${gone.join(', ')}`);
    }
    const firstPlan = plan(pod, first);
    times.planMs += clock.monotonic() - p0;

    let lastSandboxes = first.sandboxes;
    const replan = async (p: Pod): Promise<{ plan: Plan; status: PodStatus }> => {
      const r0 = clock.monotonic();
      const o = await observe(p.metadata!.uid!);
      lastSandboxes = o.sandboxes.length ? o.sandboxes : lastSandboxes;
      const next = plan(p, o);
      times.planMs += clock.monotonic() - r0;
      return { plan: next, status: o.status };
    };
    const base = {
      pod,
      sandboxOptions: { ...settings.sandbox, configSeen: configSeenFor(clock.now(), lastSandboxes) },
      containerOptions: settings.container,
      legacyLogDir: settings.legacyLogDir,
    };
    return await body({ loaded, pod, plan: firstPlan, status: first.status, base, runtime }, replan);
  } finally {
    lock?.release();
  }
}

/** Kills and removes the plan's duplicates (other uids of the pod's namespace/name), one after another. */
async function removeDuplicates(
  plan: Plan,
  runtime: RuntimeCaller,
  timeoutMs: number,
  hooks: SyncHooks,
  fs?: Pick<SyncFs, 'cleanSubPaths' | 'unmountPodVolumes' | 'destroyCgroup'>,
): Promise<OrphanRemoval[]> {
  const out: OrphanRemoval[] = [];
  for (const d of plan.duplicates) {
    const r = await removeOrphan(d, runtime, timeoutMs, fs);
    hooks.note?.(`duplicate ${r.namespace}/${r.name} (uid ${r.uid}): ${r.ok ? 'removed' : `failed: ${r.error}`}`);
    out.push(r);
  }
  return out;
}

/** `sync`: execute the plan in SyncPod's order (and, with --wait, what kubelet's next syncs would do). */
export async function runSync(req: SyncRequest, deps: SyncFlowDeps, hooks: SyncHooks): Promise<SyncDone> {
  const times: SyncTimes = { planMs: 0, rpcMs: 0 };
  return withPreparedSync(req, deps, times, false, async (p, replan) => {
    const confirmKill = async (plan: Plan): Promise<void> => {
      if (req.yes) return;
      const what = killSummary(plan);
      if (!deps.ask)
        throw new SyncpodError(
          `the plan kills ${what}; stdin is not a terminal, so pass --yes to allow it (nothing was done)`,
        );
      if (!(await deps.ask(killConfirmation(plan)))) throw new SyncpodError('not confirmed; nothing was killed');
    };
    if (isKill(p.plan)) await confirmKill(p.plan);
    // The other uids first, as kubelet's housekeeping would clear them (frees host ports, names, IPs).
    const duplicates = await removeDuplicates(p.plan, p.runtime, deps.execute.requestTimeoutMs, hooks, deps.execute.fs);
    const outcome = await syncPod(
      { ...p.base, plan: p.plan, status: p.status, wait: req.wait, waitTimeoutMs: req.waitTimeoutMs },
      { ...deps.execute, replan, confirmKill },
      hooks,
    );
    times.rpcMs += outcome.results.reduce((s, r) => s + r.rpcMs, 0);
    const meta = p.pod.metadata!;
    return {
      pod: { namespace: meta.namespace ?? 'default', name: meta.name ?? '', uid: meta.uid ?? '' },
      duplicates,
      outcome,
      times,
    };
  });
}

/** `sync --dry-run`: the plan, then every request the executor would send and the filesystem work it would do. */
export async function dryRunSync(req: SyncRequest & { showSecrets: boolean }, deps: SyncFlowDeps): Promise<DryRunDone> {
  const times: SyncTimes = { planMs: 0, rpcMs: 0 };
  return withPreparedSync(req, deps, times, true, async (p) => {
    const recorded: RecordedRequest[] = [];
    const filesystem: string[] = [];
    const d = deps.execute;
    await removeDuplicates(
      p.plan,
      dryRunCri(d.runtime, 'RuntimeService', recorded),
      d.requestTimeoutMs,
      {},
      dryRunFs(d.fs, filesystem),
    );
    const out = await executePlan(
      { ...p.base, plan: p.plan, status: p.status },
      {
        ...d,
        runtime: dryRunCri(d.runtime, 'RuntimeService', recorded),
        image: dryRunCri(d.image, 'ImageService', recorded),
        fs: dryRunFs(d.fs, filesystem),
      },
    );
    // Printed, not sent: values from Secrets are redacted unless --show-secrets (issue 9 item 7).
    const shown = req.showSecrets
      ? { recorded, redacted: 0 }
      : redactRecorded(recorded, p.base.pod, p.base.containerOptions.values);
    const note = redactionNote(shown.redacted);
    if (note) deps.note(note);
    const failures = out.results
      .filter((r) => !r.ok)
      .map((r) => `step ${r.step} ${r.action} ${r.target}: ${r.error}: ${r.message}`);
    return { plan: p.plan, requests: shown.recorded, filesystem, failures };
  });
}
