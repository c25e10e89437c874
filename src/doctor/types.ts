// `syncpod doctor` as data: a check is a stable id, a group and a function from what the doctor
// observed of the node (DoctorEnv) to a result. Checks only read; results are rendered elsewhere
// (src/render/doctor-view.ts) in the human, JSON/YAML, NPD and Prometheus formats.
import type * as T from '../cri/types';
import type { NodeProfile, RuntimeCgroupDriver } from '../node/types';
import type { NodePlan } from '../plan/node-plan';
import type { StartupVerdict } from '../kubelet/startup-checks';

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export type CheckGroup = 'runtime' | 'kubelet' | 'network' | 'resources' | 'pods' | 'dns' | 'upgrade';

export const CHECK_GROUPS: readonly CheckGroup[] = [
  'runtime',
  'kubelet',
  'network',
  'resources',
  'pods',
  'dns',
  'upgrade',
];

/** One value a check read, and where from: a CRI call, a file path, a /proc or /sys entry. */
export interface Evidence {
  /** What the value is, e.g. "NetworkReady", "net.ipv4.ip_forward", "leases in 10.88.0.0/16". */
  name: string;
  value: string;
  /** Where it was read: "CRI Status", "/proc/sys/net/ipv4/ip_forward", "/var/lib/cni/networks/lab". */
  from: string;
}

/** What a check returns. `summary` is one sentence; `remedy` says what an operator can do (absent for ok/skip). */
export interface CheckOutcome {
  status: CheckStatus;
  summary: string;
  evidence: Evidence[];
  remedy?: string;
  /**
   * A skip whose reason is another check's finding (no kubelet: kubelet.found): the report leaves the
   * row out and that check's row names it (`skips`), unless that check did not run.
   */
  coveredBy?: string;
}

/** A check's result as reported (JSON contract, schemaVersion in the report). */
export interface CheckResult extends CheckOutcome {
  id: string;
  group: CheckGroup;
  /** Milliseconds the check took. */
  durationMs: number;
  /** The checks this one's finding skips (left out of the report as rows of their own). */
  skips?: string[];
}

/**
 * What the doctor observed of the node, read once and shared by every check. Accessors that call
 * the runtime or read the node are memoised (each CRI list is called at most once per run); a
 * failed read rejects, and the check that needed it reports `skip` (or `fail` where the failure is
 * the finding, e.g. runtime.reachable).
 */
export interface DoctorEnv {
  /** The node settings syncpod uses (flags > runtime > kubelet > defaults), with what was detected of the kubelet. */
  profile: NodeProfile;
  /** Why the kubelet's configuration could not be read (the profile then holds defaults); absent when it was. */
  profileError?: string;
  /** A node file's text (under --host-root); rejects with the errno code (ENOENT, EACCES) when unreadable. */
  readNodeFile(path: string): Promise<string>;
  /** A node path as seen from here (under --host-root). */
  nodePath(path: string): string;
  /** Now, in milliseconds since the epoch (a port: tests pass their own clock). */
  now(): number;
  /** CRI reads, memoised. Filled in by the doctor workflow (src/workflows/doctor.ts). */
  cri: DoctorCri;
  /**
   * What `plan --node` finds for this node (static pods, the Pods API, --pods files; orphans),
   * planned from the same two lists as `cri.sandboxes()`/`cri.containers()`. Memoised.
   */
  nodePlan(): Promise<DoctorNodePlan>;
  /** Bounds the checks use, with their defaults in src/workflows/doctor.ts. */
  bounds: DoctorBounds;
  /** With --upgrade-to: whether the target kubelet would start on this node (memoised). */
  upgrade?: () => Promise<StartupVerdict>;
}

export interface DoctorBounds {
  /** A container in Created or Unknown for longer than this is stuck (ms). */
  stuckAfterMs: number;
  /** Each check's deadline (ms); runtime.reachable reports a runtime slower than this as its finding. */
  deadlineMs: number;
}

export interface DoctorNodePlan {
  plan: NodePlan;
  /** Whether the kubelet's Pods API answered (else the desired pods are static pods and --pods files only). */
  podsApiRead: boolean;
  /** Pod uids this node should run or knows (desired, finished, mirror). */
  desiredUids: ReadonlySet<string>;
}

/** The CRI answers checks use. */
export interface DoctorCri {
  /** The runtime endpoint, for evidence. */
  endpoint: string;
  version(): Promise<T.VersionResponse>;
  /** Status with verbose info (the runtime's configuration as it reports it). */
  status(): Promise<T.StatusResponse>;
  /** The runtime's RuntimeConfig answer (cgroup driver), or why it gave none. */
  runtimeConfig(): Promise<RuntimeCgroupDriver>;
  sandboxes(): Promise<T.PodSandbox[]>;
  containers(): Promise<T.Container[]>;
  /** ContainerStatus of one container (exit code, reason, times); undefined when it is gone. */
  containerStatus(id: string): Promise<T.ContainerStatus | undefined>;
  images(): Promise<T.Image[]>;
  imageFsInfo(): Promise<T.ImageFsInfoResponse>;
}

export interface DoctorCheck {
  id: string;
  group: CheckGroup;
  /** A few words for help and listings, e.g. "IPAM leases no sandbox holds". */
  title: string;
  run(env: DoctorEnv): Promise<CheckOutcome>;
}
