// What the executor works with and what it hands back: its dependencies (CRI services, clock,
// filesystem, randomness, questions to the operator) as interfaces passed in, the progress hooks,
// and the results it records for every side effect (kubelet's SyncResult idea), as data.
import type { FileProjection } from '../kubelet/volumes';
import type { ImageMethods, Request, Response, RuntimeMethods } from '../cri/grpc-runtime-service';
import type { ContainerOptions } from '../kubelet/container-config';
import type { PlanStep, StepAction } from '../plan/plan';
import type { SubPathMount } from './subpath';

/** Per-instance fields are filled by the executor; everything else comes from the node flags. */
export type ContainerNodeOptions = Omit<
  ContainerOptions,
  'restartCount' | 'imageRef' | 'imageUser' | 'podIPs' | 'terminationLogName' | 'targetContainerId'
>;

/** The one method of a CRI service the executor uses (CriService satisfies it; tests pass fakes). */
export interface CriCaller<M> {
  call<K extends keyof M & string>(
    method: K,
    request: Request<M, K>,
    opts?: { timeoutMs?: number },
  ): Promise<Response<M, K>>;
}
export type RuntimeCaller = CriCaller<RuntimeMethods>;
export type ImageCaller = CriCaller<ImageMethods>;

/** The filesystem work the executor does (kubelet's fs effects, log files, symlinks). */
export interface SyncFs {
  exists(path: string): boolean;
  /** mkdir -p; the mode is applied to the directories it creates. */
  mkdirAll(path: string, mode: number): void;
  /** Creates an empty file with that mode if missing; an existing file is left as it is (kubelet's O_CREATE); a symlink there is refused. */
  touch(path: string, mode: number): void;
  /** Replaces the file whole with a new regular file of that mode; a symlink there is replaced, not followed. */
  writeFile(path: string, content: string, mode: number): void;
  /** Sets the mode of the file or directory itself; a symlink there is refused, never followed. */
  chmod(path: string, mode: number): void;
  /** 'dir' | 'file' | 'socket' | 'char' | 'block' | 'other', or undefined when missing. */
  kind(path: string): string | undefined;
  /** Mode bits (0o7777) of an existing path. */
  mode(path: string): number;
  /** Entry names, or undefined when the directory is missing or unreadable. */
  readdir(path: string): string[] | undefined;
  /**
   * Text of a file of a pod volume read on the pod's behalf (env files of fileKeyRef), resolved
   * inside the volume without following a symbolic link out of it; undefined when missing; throws
   * when the path leads outside the volume.
   */
  readInVolume(volumePath: string, rel: string): string | undefined;
  /** kubelet's SafeMakeDir: the missing levels of `subPath` made inside the volume with `mode`, no symlink followed. */
  safeMakeDir(volumePath: string, subPath: string, mode: number): void;
  /** kubelet's PrepareSafeSubpath: the subPath resolved inside the volume and bind-mounted at `m.target`. */
  bindSubPath(m: SubPathMount): void;
  /**
   * kubelet's CleanSubPaths: the subPath bind mounts of pod `uid` (or of one of its containers),
   * found in the mount table, unmounted and removed; returns them.
   */
  cleanSubPaths(uid: string, containerName?: string): string[];
  /** Removes a file or symlink; missing is fine. */
  remove(path: string): void;
  /** Removes an empty directory (never a link, never a directory with entries); missing is fine. */
  removeDir(path: string): void;
  symlink(target: string, path: string): void;
  /**
   * Mounts a tmpfs on the directory `path` with these options (size=N, noswap) unless a tmpfs is
   * mounted there already; says which. Absent on filesystems that cannot mount (tests' fakes).
   */
  mountTmpfs?(path: string, options: string[]): 'mounted' | 'already';
  /** kubelet's AtomicWriter.Write of `files` into the existing directory `dir` (see FsEffect atomicWrite). */
  atomicWrite?(dir: string, files: FileProjection[], timestampDir: string): 'written' | 'unchanged';
  /** SetVolumeOwnership: group `gid` and the fsGroup mode bits on everything below `path` (see FsEffect). */
  volumeOwnership?(path: string, gid: number, readOnly: boolean): void;
  /** Unmounts the volume mounts (tmpfs) of the pod with this uid; returns the mount points. */
  unmountPodVolumes?(uid: string): string[];
  /**
   * kubelet's pod container manager Destroy: kills every process left in the cgroup directories
   * (and the cgroups below them), then removes them children first; returns the pids killed.
   */
  destroyCgroup?(dirs: string[]): Promise<number[]>;
}

export interface Clock {
  /** Milliseconds since the epoch (timestamps, back-off). */
  now(): number;
  /** A monotonic millisecond counter (durations). */
  monotonic(): number;
  sleep(ms: number): Promise<void>;
}

/** One RPC made during a step, for --timings. */
export interface CallTiming {
  rpc: string;
  ms: number;
  ok: boolean;
}

/** What happened in one plan step: kubelet's SyncResult plus timings. */
export interface StepResult {
  /** Which plan of this sync (1 for the first; --wait re-plans after each init container). */
  round: number;
  step: number;
  action: StepAction | 'wait-init-container';
  target: string;
  ok: boolean;
  /** Kubelet's error code (CreateContainerError, ErrImagePull, KillPodSandboxError, ...). */
  error?: string;
  message: string;
  durationMs: number;
  /** Time inside runtime RPCs during this step (parallel kills add up). */
  rpcMs: number;
  calls: CallTiming[];
  containerId?: string;
  sandboxId?: string;
}

export interface SyncHooks {
  planned?(round: number, steps: PlanStep[]): void;
  stepStarted?(round: number, step: PlanStep | { step: number; action: 'wait-init-container'; target: string }): void;
  stepFinished?(result: StepResult): void;
  /** A line of progress that is not a step (waiting for a lock, for an init container...). */
  note?(line: string): void;
}

/** A step failure with kubelet's error code. */
export class StepError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
