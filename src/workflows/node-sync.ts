// `sync --node`: converge every desired pod of the node in one pass, the way kubelet's pod workers
// do — at most `concurrency` pods at once, one lock per pod, each pod re-observed under its lock,
// its init containers waited for and the pod planned again until its app containers start —
// with kubelet.syncPod's preflight executed first (a pod-network pod is refused while the network
// is not ready; the pod cgroup, the pod data directories and ...OrCreate hostPaths are created).
// Only with `removeOrphans`: orphans are killed and removed as kubelet's HandlePodCleanups and
// garbage collector would (never anything without kubelet's labels: findOrphans only sees those).
import type { Pod } from '../kubelet/api-types';
import { SyncpodError, errorLine } from '../errors';
import type { Orphan } from '../kubelet/orphans';
import { buildPodLogsDirectory } from '../kubelet/labels';
import { rulesOf } from '../kubelet/compute-pod-actions';
import { podChanges, type NodePlan } from '../plan/node-plan';
import { buildPlan, type Plan } from '../plan/plan';
import { buildPreflight, type PreflightStep } from '../plan/preflight';
import { mountedV1Subsystems, podFsFacts, runtimeNetwork } from '../state/node-facts';
import { mapBounded, observePods } from '../state/pod-status';
import type { RuntimeService } from '../cri/grpc-runtime-service';
import type * as T from '../cri/types';
import type { ExecuteDeps, ExecuteInput } from '../sync/execute';
import { syncPod } from '../sync/sync-pod';
import type { SyncHooks } from '../sync/types';
import { removeOrphan, type OrphanRemoval } from '../sync/remove-orphan';
import type { NodeSyncReport, PodSyncReport, PreflightResult } from '../sync/node-sync-report';
import { planNode, type NodePlanDeps, type NodePlanRequest, type PlannedNodePod } from './node-plan';

export interface NodeSyncRequest extends NodePlanRequest {
  removeOrphans: boolean;
  /** Pods synced at once. */
  concurrency: number;
  /** How long one init container is waited for before its pod's sync gives up (--wait-timeout). */
  waitTimeoutMs: number;
  /** kubelet's podLogsDir: a removed orphan's log directory there goes too (kubelet's log GC). */
  podLogsRoot?: string;
}

export interface PodSyncSettings {
  sandboxOptions: ExecuteInput['sandboxOptions'];
  containerOptions: ExecuteInput['containerOptions'];
  legacyLogDir: string;
}

export interface NodeSyncDeps extends NodePlanDeps {
  execute: ExecuteDeps;
  /** Generator settings for one pod (node flags + the pod). */
  settingsFor(pod: Pod, sandboxes: T.PodSandboxStatus[]): PodSyncSettings;
  /** Takes the pod's lock; the returned function releases it. */
  lock(namespace: string, name: string): Promise<() => void>;
  /** Asked once before anything is done when the plans kill something or orphans are removed; throws to refuse. */
  confirm(what: string): Promise<void>;
  newUid(): string;
  hooks?(pod: string): SyncHooks;
  /**
   * Removes a removed orphan's pod log directory and the /var/log/containers links of its
   * containers (kubelet's container GC: evictPodLogsDirectories); returns what went.
   */
  removeOrphanLogs?(podLogsDir: string, containerIds: string[]): string[];
}

export type { NodeSyncReport, PodSyncReport, PreflightResult } from '../sync/node-sync-report';

function killsIn(plan: NodePlan, removeOrphans: boolean): string {
  const parts: string[] = [];
  for (const p of plan.plans) {
    const kills = p.steps.filter((s) => s.action === 'kill-pod' || s.action === 'kill-container');
    if (kills.length)
      parts.push(
        `${p.pod.namespace}/${p.pod.name} (${kills.map((k) => (k.action === 'kill-pod' ? 'the pod' : `container ${k.target}`)).join(', ')})`,
      );
  }
  if (removeOrphans) for (const o of plan.orphans) parts.push(`orphan ${o.namespace}/${o.name} (uid ${o.uid})`);
  return parts.join(', ');
}

/** Executes the preflight work kubelet does itself; a refusal ends the pod's sync. */
function runPreflight(steps: PreflightStep[], deps: NodeSyncDeps): { results: PreflightResult[]; stopped: string } {
  const results: PreflightResult[] = [];
  for (const s of steps) {
    if (s.blocking === 'pod') {
      results.push({ action: s.action, target: s.target, ok: false, message: s.reason });
      return { results, stopped: s.reason };
    }
    try {
      switch (s.action) {
        case 'create-pod-cgroup':
          for (const p of s.paths ?? []) deps.fs.mkdirAll(p, 0o755);
          results.push({
            action: s.action,
            target: s.target,
            ok: true,
            message: `created ${(s.paths ?? []).join(', ')}`,
          });
          break;
        case 'make-pod-data-dirs':
          for (const p of s.paths ?? []) {
            deps.fs.mkdirAll(p, s.mode ?? 0o750);
            deps.fs.chmod(p, s.mode ?? 0o750);
          }
          results.push({
            action: s.action,
            target: s.target,
            ok: true,
            message: `created ${(s.paths ?? []).join(', ')}`,
          });
          break;
        case 'create-host-path':
          for (const p of s.paths ?? []) {
            if (s.mode === 0o644) deps.fs.touch(p, 0o644);
            else deps.fs.mkdirAll(p, s.mode ?? 0o755);
          }
          results.push({
            action: s.action,
            target: s.target,
            ok: true,
            message: `created ${(s.paths ?? []).join(', ')}`,
          });
          break;
        default:
          // pull-image and image-never-pull happen (or are refused) at the container's start.
          break;
      }
    } catch (err) {
      results.push({ action: s.action, target: s.target, ok: false, message: errorLine(err) });
      return { results, stopped: `${s.action} failed: ${errorLine(err)}` };
    }
  }
  return { results, stopped: '' };
}

/** Converges one pod under its lock, re-observing it first. */
async function syncOnePod(
  p: PlannedNodePod,
  req: NodeSyncRequest,
  deps: NodeSyncDeps,
  network: NodePlanResultNetwork,
): Promise<PodSyncReport> {
  const pod = structuredClone(p.desired.pod) as Pod;
  const meta = pod.metadata as { uid?: string; namespace?: string; name?: string };
  if (!meta.uid) meta.uid = p.observed.match.uid || deps.newUid();
  pod.spec!.nodeName ||= req.nodeName;
  const ns = meta.namespace ?? 'default';
  const name = meta.name ?? '';
  const ref = { namespace: ns, name, uid: meta.uid };
  const release = await deps.lock(ns, name);
  try {
    const runtime = deps.runtime as RuntimeService;
    const observe = async (): Promise<{
      plan: Plan;
      status: import('../kubelet/types').PodStatus;
      sandboxes: T.PodSandboxStatus[];
    }> => {
      const [o] = await observePods(runtime, [ref], { sandboxOrder: rulesOf(req.options).sandboxOrder });
      const plan = buildPlan({
        pod,
        podStatus: o.status,
        now: deps.now(),
        options: req.options,
        matchedBy: 'uid-label',
        podSource: 'api-server',
        volumeData: req.volumeData,
        sysctlNode: req.sysctlNode,
      });
      return { plan, status: o.status, sandboxes: o.sandboxes };
    };
    const first = await observe();
    // kubelet's admission rejects the pod (SysctlForbidden): nothing is done for it.
    if (first.plan.rejected)
      return { pod: ref, ok: false, stopped: first.plan.blocked ?? 'rejected by kubelet', preflight: [], results: [] };
    const v1Subsystems =
      req.cgroup.cgroupVersion === 1 ? mountedV1Subsystems(deps.fs, req.cgroup.cgroupMount) : undefined;
    const preflight = buildPreflight(pod, {
      network,
      ...podFsFacts(deps.fs, pod, {
        ...req.cgroup,
        kubeletRoot: req.kubeletRoot,
        v1Subsystems,
        podLevelResources: rulesOf(req.options).gates.PodLevelResources,
      }),
      images: [],
      volumes: first.plan.volumes,
    });
    const pre = runPreflight(preflight.steps, deps);
    if (pre.stopped) return { pod: ref, ok: false, stopped: pre.stopped, preflight: pre.results, results: [] };
    const settings = deps.settingsFor(pod, first.sandboxes);
    const sandboxOptions = {
      ...settings.sandboxOptions,
      configSource: p.desired.source.kind === 'static-pod' ? ('file' as const) : settings.sandboxOptions.configSource,
    };
    const outcome = await syncPod(
      {
        pod,
        plan: first.plan,
        status: first.status,
        sandboxOptions,
        containerOptions: settings.containerOptions,
        legacyLogDir: settings.legacyLogDir,
        // kubelet's pod worker syncs the pod again when an init container exits: converging a
        // pod runs its init containers to the app, as `sync --wait` does for one pod.
        wait: true,
        waitTimeoutMs: req.waitTimeoutMs,
      },
      { ...deps.execute, replan: async () => observe(), confirmKill: async () => {} },
      deps.hooks?.(`${ns}/${name}`) ?? {},
    );
    return { pod: ref, ok: outcome.ok, stopped: outcome.stopped, preflight: pre.results, results: outcome.results };
  } catch (err) {
    return { pod: ref, ok: false, stopped: errorLine(err), preflight: [], results: [] };
  } finally {
    release();
  }
}

type NodePlanResultNetwork = Parameters<typeof buildPreflight>[1]['network'];

/**
 * The orphan's pod log directory as kubelet names it (<podLogsDir>/<namespace>_<name>_<uid>), or
 * undefined when a label would lead outside podLogsDir (labels are anyone's to set).
 */
export function orphanLogsDirectory(
  podLogsRoot: string,
  o: Pick<Orphan, 'namespace' | 'name' | 'uid'>,
): string | undefined {
  const parts = [o.namespace, o.name, o.uid];
  if (parts.some((p) => p === '' || p.includes('/') || p.includes('\0')) || podLogsRoot === '') return undefined;
  return buildPodLogsDirectory(podLogsRoot, { metadata: { namespace: o.namespace, name: o.name, uid: o.uid } });
}

/** After a removed orphan: its pod log directory and its containers' log links, as kubelet's log GC. */
function removeLogsOf(r: OrphanRemoval, o: Orphan, podLogsRoot: string | undefined, deps: NodeSyncDeps): OrphanRemoval {
  const logs = podLogsRoot !== undefined ? orphanLogsDirectory(podLogsRoot, o) : undefined;
  if (!r.ok || !logs || !deps.removeOrphanLogs) return r;
  try {
    for (const gone of deps.removeOrphanLogs(
      logs,
      o.containers.map((c) => c.id),
    ))
      r.done.push(`removed ${gone}`);
    return r;
  } catch (err) {
    return { ...r, ok: false, error: `removing its logs: ${errorLine(err)}` };
  }
}

export async function syncNode(
  req: NodeSyncRequest,
  deps: NodeSyncDeps,
): Promise<{ report: NodeSyncReport; plan: NodePlan }> {
  const planned = await planNode(req, deps);
  const plan = planned.plan;
  if (req.removeOrphans && plan.orphans.length > 0) {
    // An orphan may be the pod of an input that could not be read, or of every input left out.
    if (plan.problems.length > 0) {
      throw new SyncpodError(
        `--remove-orphans: ${plan.problems.length} input(s) could not be read (${plan.problems[0]}); an orphan may be one of their pods, so nothing was done`,
      );
    }
    if (!req.staticPodPath && req.files.length === 0 && !planned.podsApiRead) {
      throw new SyncpodError(
        '--remove-orphans: no desired pods were given (no --static-pod-path, no files, no Pods API): every pod kubelet made would be an orphan; nothing was done',
      );
    }
  }
  const kills = killsIn(plan, req.removeOrphans);
  if (kills) await deps.confirm(kills);
  const network = runtimeNetwork(planned.status);
  const toSync = planned.pods.filter((p) => podChanges(p.plan));
  const pods = await mapBounded(toSync, Math.max(1, req.concurrency), (p) => syncOnePod(p, req, deps, network));
  const orphans = req.removeOrphans
    ? await mapBounded(plan.orphans, Math.max(1, req.concurrency), async (o) =>
        removeLogsOf(
          await removeOrphan(o, deps.execute.runtime, deps.execute.requestTimeoutMs, deps.execute.fs),
          o,
          req.podLogsRoot,
          deps,
        ),
      )
    : [];
  const report: NodeSyncReport = {
    node: req.nodeName,
    ok: pods.every((p) => p.ok) && orphans.every((o) => o.ok) && plan.problems.length === 0,
    pods,
    unchanged: planned.pods.length - toSync.length,
    orphans,
    orphansKept: req.removeOrphans ? 0 : plan.orphans.length,
    problems: plan.problems,
  };
  return { report, plan };
}
