// `syncpod doctor`: choose the checks (--check/--skip, refused before anything runs when an id is
// unknown), build what they read once (DoctorEnv: the node profile, host-root paths, memoised CRI
// reads), and run them concurrently, each within its own deadline. The runtime is listed at most
// once per kind (one ListPodSandbox, one ListContainers) for the whole run: the node plan that
// finds orphans and static pods is made from the same memoised lists the pod checks read.
import type { ImageService, RuntimeService } from '../cri/grpc-runtime-service';
import type * as T from '../cri/types';
import { SyncpodError, errorLine } from '../errors';
import type { NodeProfile, RuntimeCgroupDriver } from '../node/types';
import {
  CHECK_GROUPS,
  type CheckResult,
  type DoctorBounds,
  type DoctorCheck,
  type DoctorCri,
  type DoctorEnv,
  type DoctorNodePlan,
} from '../doctor/types';
import type { NodePlanResult } from './node-plan';
import type { StartupVerdict } from '../kubelet/startup-checks';

/** Each check's deadline unless --check-timeout says otherwise. */
export const DEFAULT_CHECK_DEADLINE_MS = 10_000;
/**
 * With -o npd: node-problem-detector kills a custom plugin after its timeout (5 s by default,
 * pluginGlobalConfig.timeout), so every check must have answered well before.
 */
export const NPD_CHECK_DEADLINE_MS = 3_000;
/** A container in Created/Unknown longer than kubelet's runtime request timeout (2 min) is stuck. */
export const DEFAULT_STUCK_AFTER_MS = 2 * 60_000;

/**
 * The checks --check and --skip leave, in registry order. Each value is a check id or a group name;
 * an unknown one is refused (before anything runs), naming the flag and the value.
 */
export function selectChecks(
  all: readonly DoctorCheck[],
  only: readonly string[],
  skip: readonly string[],
): DoctorCheck[] {
  const known = new Set(all.map((c) => c.id));
  const groups = new Set<string>(CHECK_GROUPS);
  const matches = (flag: string, values: readonly string[]) => {
    for (const v of values) {
      if (!known.has(v) && !groups.has(v)) {
        throw new SyncpodError(
          `${flag}: unknown check "${v}" (a check id such as runtime.ready, or a group: ${CHECK_GROUPS.join(', ')}; syncpod doctor --list shows them)`,
        );
      }
    }
    return (c: DoctorCheck) => values.includes(c.id) || values.includes(c.group);
  };
  const onlyMatch = only.length ? matches('--check', only) : () => true;
  const skipMatch = matches('--skip', skip);
  return all.filter((c) => onlyMatch(c) && !skipMatch(c));
}

export interface RunChecksOptions {
  deadlineMs: number;
  /** A monotonic clock in ms, for durations. */
  clock(): number;
}

/**
 * Runs every check at once; each gets `deadlineMs`. A check that does not answer in time is
 * `skip: timed out` and the others still answer; a check that throws is `skip` with the reason
 * (what it needed could not be read). Results keep the order of `checks`.
 */
export async function runChecks(
  checks: readonly DoctorCheck[],
  env: DoctorEnv,
  opts: RunChecksOptions,
): Promise<CheckResult[]> {
  return Promise.all(
    checks.map(async (check): Promise<CheckResult> => {
      const started = opts.clock();
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), opts.deadlineMs);
      });
      try {
        const outcome = await Promise.race([check.run(env), deadline]);
        const durationMs = Math.round(opts.clock() - started);
        if (outcome === 'timeout') {
          return {
            id: check.id,
            group: check.group,
            status: 'skip',
            summary: `timed out: no answer within ${opts.deadlineMs / 1000}s`,
            evidence: [],
            durationMs,
          };
        }
        return { id: check.id, group: check.group, ...outcome, durationMs };
      } catch (err) {
        return {
          id: check.id,
          group: check.group,
          status: 'skip',
          summary: `could not run: ${errorLine(err)}`,
          evidence: [],
          durationMs: Math.round(opts.clock() - started),
        };
      } finally {
        clearTimeout(timer);
      }
    }),
  );
}

type Caller = Pick<RuntimeService, 'call'>;
type ImageCaller = Pick<ImageService, 'call'>;

export interface DoctorEnvDeps {
  profile: NodeProfile;
  profileError?: string;
  runtime: Caller;
  image: ImageCaller;
  endpoint: string;
  runtimeConfig(): Promise<RuntimeCgroupDriver>;
  readNodeFile(path: string): Promise<string>;
  nodePath(path: string): string;
  now(): number;
  /** `plan --node` over the callers given (the memoised ones, so the lists are shared). */
  planNode(runtime: Caller, image: ImageCaller): Promise<NodePlanResult>;
  bounds?: Partial<DoctorBounds>;
  /** With --upgrade-to: the target kubelet's start-up verdict for this node. */
  upgrade?: () => Promise<StartupVerdict>;
}

function once<V>(f: () => Promise<V>): () => Promise<V> {
  let p: Promise<V> | undefined;
  return () => (p ??= f());
}

const isEmpty = (req: unknown): boolean =>
  req === undefined || (typeof req === 'object' && req !== null && Object.values(req).every((v) => v === undefined));

/**
 * The runtime as the doctor calls it: Version, Status (verbose: a superset of the plain answer),
 * the unfiltered lists, ListImages and ImageFsInfo are each sent once, whoever asks; anything else
 * (statuses of single objects) goes through.
 */
export function memoisedCallers(runtime: Caller, image: ImageCaller): { runtime: Caller; image: ImageCaller } {
  const memo = new Map<string, Promise<unknown>>();
  const remember = (key: string, f: () => Promise<unknown>): Promise<unknown> => {
    let p = memo.get(key);
    if (!p) memo.set(key, (p = f()));
    return p;
  };
  const r: Caller = {
    call: ((method: string, req: unknown, o?: unknown) => {
      if (method === 'Version') return remember('Version', () => runtime.call('Version', {}, o as never));
      if (method === 'Status') return remember('Status', () => runtime.call('Status', { verbose: true }, o as never));
      if (
        (method === 'ListPodSandbox' || method === 'ListContainers') &&
        isEmpty((req as { filter?: unknown } | undefined)?.filter)
      ) {
        return remember(method, () =>
          (runtime.call as (m: string, q: unknown, o?: unknown) => Promise<unknown>)(method, {}, o),
        );
      }
      return (runtime.call as (m: string, q: unknown, o?: unknown) => Promise<unknown>)(method, req, o);
    }) as Caller['call'],
  };
  const i: ImageCaller = {
    call: ((method: string, req: unknown, o?: unknown) => {
      if (
        (method === 'ListImages' && isEmpty((req as { filter?: unknown } | undefined)?.filter)) ||
        method === 'ImageFsInfo'
      ) {
        return remember(method, () =>
          (image.call as (m: string, q: unknown, o?: unknown) => Promise<unknown>)(method, {}, o),
        );
      }
      return (image.call as (m: string, q: unknown, o?: unknown) => Promise<unknown>)(method, req, o);
    }) as ImageCaller['call'],
  };
  return { runtime: r, image: i };
}

/** What every check reads, each part fetched on first use and once. */
export function buildDoctorEnv(deps: DoctorEnvDeps): DoctorEnv {
  const { runtime, image } = memoisedCallers(deps.runtime, deps.image);
  const cri: DoctorCri = {
    endpoint: deps.endpoint,
    version: () => runtime.call('Version', {}) as Promise<T.VersionResponse>,
    status: () => runtime.call('Status', { verbose: true }) as Promise<T.StatusResponse>,
    runtimeConfig: once(deps.runtimeConfig),
    sandboxes: () => runtime.call('ListPodSandbox', {}).then((r) => r.items),
    containers: () => runtime.call('ListContainers', {}).then((r) => r.containers),
    containerStatus: async (id) => {
      try {
        return (await runtime.call('ContainerStatus', { containerId: id })).status;
      } catch (err) {
        if ((err as { code?: number }).code === 5) return undefined; // NotFound: removed since the list
        throw err;
      }
    },
    images: () => image.call('ListImages', {}).then((r) => r.images),
    imageFsInfo: () => image.call('ImageFsInfo', {}) as Promise<T.ImageFsInfoResponse>,
  };
  const nodePlan = once(async (): Promise<DoctorNodePlan> => {
    const r = await deps.planNode(runtime, image);
    const desiredUids = new Set<string>();
    for (const p of r.pods) {
      if (p.desired.pod.metadata?.uid) desiredUids.add(p.desired.pod.metadata.uid);
      if (p.observed.match.uid) desiredUids.add(p.observed.match.uid);
    }
    // Everything not an orphan is known to the node (finished pods, mirror pods, Pods API pods).
    const orphanUids = new Set(r.plan.orphans.map((o) => o.uid));
    for (const s of r.lists.sandboxes) {
      const uid = s.metadata?.uid;
      if (uid && !orphanUids.has(uid)) desiredUids.add(uid);
    }
    return { plan: r.plan, podsApiRead: r.podsApiRead, desiredUids };
  });
  return {
    profile: deps.profile,
    profileError: deps.profileError,
    readNodeFile: deps.readNodeFile,
    nodePath: deps.nodePath,
    now: deps.now,
    cri,
    nodePlan,
    bounds: {
      stuckAfterMs: deps.bounds?.stuckAfterMs ?? DEFAULT_STUCK_AFTER_MS,
      deadlineMs: deps.bounds?.deadlineMs ?? DEFAULT_CHECK_DEADLINE_MS,
    },
    ...(deps.upgrade ? { upgrade: once(deps.upgrade) } : {}),
  };
}
