// kubelet's podActions (pkg/kubelet/kuberuntime/kuberuntime_manager.go, kubelet 1.29–1.37) and
// what computePodActions records beside it so a plan can explain itself: every decision carries a
// reason code and the facts behind it; the words live in src/plan/reasons.ts. Pure data.

import type { HashScheme } from './kubelet-version';
import type { Container } from './api-types';
import type { ContainerResources } from './types';

export type ProbeResult = 'Success' | 'Failure' | 'Unknown';

/** Probe results as kubelet's prober managers hold them, keyed by CRI container id. */
export interface ProbeResults {
  liveness?: Record<string, ProbeResult>;
  startup?: Record<string, ProbeResult>;
}

/** kubelet's containerKillReason values ('' when kubelet sets none). */
export type KillReason = 'StartupProbe' | 'LivenessProbe' | 'FailedPostStartHook' | 'Unknown' | '';

export type SandboxChangeCode = 'no-sandbox' | 'multiple-ready' | 'not-ready' | 'network-namespace-changed' | 'no-ip';

/** Why PodSandboxChanged wants a new sandbox: kubelet's log message and the facts. */
export interface SandboxChange {
  code: SandboxChangeCode;
  /** kubelet's own log message for this case. */
  message: string;
  /** The sandbox the decision looked at ('' for no-sandbox). */
  sandboxId: string;
  readyCount?: number;
  /** network-namespace-changed: the mode the sandbox has and the one the pod wants. */
  mode?: string;
  wanted?: string;
  hostNetwork?: boolean;
}

export type HashVerdict = 'match' | 'changed' | 'other-scheme' | 'missing' | 'unparsable';

/** The comparison of a running container's hash annotation with the spec. */
export interface HashCheck {
  name: string;
  containerId: string;
  scheme: HashScheme;
  expected: string;
  observed: string;
  verdict: HashVerdict;
  /** Set when verdict is other-scheme: the scheme the observed hash matches. */
  matchedScheme?: HashScheme;
}

export type StartReasonCode =
  | 'never-started'
  | 'exited'
  | 'created-not-started'
  | 'unknown-state'
  | 'definition-changed'
  | 'liveness-probe-failed'
  | 'startup-probe-failed'
  | 'sandbox-recreated'
  | 'first-init-container'
  | 'previous-init-completed'
  | 'sidecar-started'
  | 'sidecar-exited'
  | 'init-container-failed'
  | 'resize-restart';

/** Which policy decided a restart: the pod's restartPolicy, the container's, or one of its rules. */
export interface RestartDecisionSource {
  level: 'pod' | 'container' | 'rule';
  /** The policy value (Always, OnFailure, Never) or, for a rule, its action. */
  policy: string;
  /** For a rule: its index in restartPolicyRules, operator and values. */
  rule?: { index: number; operator: string; values: number[] };
}

export interface StartReason {
  code: StartReasonCode;
  exitCode?: number;
  /** The runtime's reason for the exit (OOMKilled, Error, ...). */
  exitReason?: string;
  restartPolicy?: string;
  /** ContainerRestartRules: which policy decided (absent when the pod policy decided as before 1.34). */
  decidedBy?: RestartDecisionSource;
  hash?: HashCheck;
  sandboxChange?: SandboxChange;
  /** previous-init-completed / sidecar-started: the init container before this one. */
  previous?: string;
  /** resize-restart: the resources whose resizePolicy is RestartContainer. */
  resized?: Array<'cpu' | 'memory'>;
}

export interface StartDecision {
  /** Index into spec.containers / initContainers / ephemeralContainers. */
  index: number;
  name: string;
  reason: StartReason;
}

export type KillWhy =
  | 'definition-changed'
  | 'liveness-probe-failed'
  | 'startup-probe-failed'
  | 'unknown-state'
  | 'resize-restart';

/** kubelet's containerToKillInfo, plus the container's kind and why. */
export interface ContainerToKill {
  containerId: string;
  name: string;
  kind: 'init' | 'regular';
  /** kubelet's message (the Killing event text). */
  message: string;
  reason: KillReason;
  why: KillWhy;
  hash?: HashCheck;
}

/**
 * RestartAllContainersOnContainerExits (1.35+): a container kubelet kills (grace 0, no preStop)
 * when running, then removes, so the pod starts again from its first init container.
 */
export interface ContainerToReset {
  containerId: string;
  name: string;
  kind: 'init' | 'regular';
  /** Running or created: stopped first. */
  kill: boolean;
  /** It exited with a rule whose action is RestartAllContainers (the trigger). */
  source: boolean;
  exitCode?: number;
}

/** In-place resize (InPlacePodVerticalScaling): a running container whose CPU or memory is updated. */
export interface ContainerToUpdate {
  index: number;
  name: string;
  kind: 'init' | 'regular';
  containerId: string;
  resources: Array<'cpu' | 'memory'>;
  /** What the runtime reports now. */
  current: ContainerResources;
  /** What kubelet would write for the spec. */
  desired: ContainerResources;
}

export type KillPodCause = 'sandbox-changed' | 'init-container-failed' | 'no-running-containers' | null;

export type WaitingCode = 'init-running' | 'init-created-waits' | 'startup-result-missing' | 'startup-result-unknown';

/** Something kubelet waits for in this sync (not an action). */
export interface Waiting {
  code: WaitingCode;
  container: string;
}

/** kubelet's podActions with kubelet's field names, plus the reasons beside them. */
export interface PodActions {
  /** The mirrored kubelet version ('1.36' or '1.36.2'). */
  kubeletVersion: string;
  /** Which init algorithm ran: the legacy findNextInitContainerToRun or computeInitContainerActions. */
  initPath: 'classic' | 'sidecar';
  killPod: boolean;
  killPodCause: KillPodCause;
  createSandbox: boolean;
  sandboxId: string;
  attempt: number;
  sandboxChange: SandboxChange | null;
  /** Legacy path only; null whenever initContainersToStart is used. */
  nextInitContainerToStart: string | null;
  nextInitContainerReason: StartReason | null;
  initContainersToStart: number[];
  containersToStart: number[];
  ephemeralContainersToStart: number[];
  /** Sorted by kind (init first), then name, then container id (kubelet keeps a map). */
  containersToKill: ContainerToKill[];
  /** RestartAllContainers: the containers to remove, in kubelet's order (others first, then the triggers). */
  containersToReset: ContainerToReset[];
  /** In-place resize: containers whose resources are updated without a restart (SyncPod step 8). */
  containersToUpdate: ContainerToUpdate[];
  /**
   * The resize's CRI calls in kubelet's order (doPodResizeAction): pod-level
   * UpdatePodSandboxResources (1.34+) and per-resource UpdateContainerResources. Empty: no resize.
   */
  resizeCalls: ResizeCall[];
  /** Whether SyncPod ran with restartAllContainers (ShouldAllContainersRestart). */
  restartAllContainers: boolean;
  /** Start reasons aligned with the index lists above. */
  initContainerStarts: StartDecision[];
  containerStarts: StartDecision[];
  ephemeralContainerStarts: StartDecision[];
  waiting: Waiting[];
  /** Every hash comparison kubelet made for a running container. */
  hashChecks: HashCheck[];
  /** Effective feature gates of the mirrored kubelet. */
  featureGates: Record<string, boolean>;
}

/** The `changes` computePodActions accumulates (podActions while it is being built). */
export interface Changes {
  killPod: boolean;
  killPodCause: KillPodCause;
  createSandbox: boolean;
  nextInitContainerToStart: StartDecision | null;
  initContainersToStart: StartDecision[];
  containersToStart: StartDecision[];
  ephemeralContainersToStart: StartDecision[];
  /** Keyed by container id, as kubelet's map. */
  containersToKill: Map<string, ContainerToKill>;
  containersToReset: ContainerToReset[];
  containersToUpdate: ContainerToUpdate[];
  /** kubelet's ContainersToUpdate per resource (the order of the container calls). */
  resize: ResizeUpdates;
  /** kubelet's UpdatePodResources: a container restarts for its resize, or one started was resized (1.37). */
  updatePodResources: boolean;
  waiting: Waiting[];
  hashChecks: HashCheck[];
}

// In-place resize as kubelet tracks it (kuberuntime_manager.go computePodResizeAction, doPodResizeAction).

/** kubelet's resourceRequirements: bytes and milli-CPU. */
export interface ResizeValues {
  memoryLimit: number;
  memoryRequest: number;
  cpuLimit: number;
  cpuRequest: number;
}

/** One entry of kubelet's ContainersToUpdate[resource]. */
export interface ResizeEntry {
  name: string;
  containerId: string;
  kind: 'init' | 'regular';
  container: Container;
  desired: ResizeValues;
  /** Shared by a container's memory and CPU entries: kubelet updates it after each call. */
  current: ResizeValues;
}

/** kubelet's ContainersToUpdate, per resource, in the order the calls are made. */
export interface ResizeUpdates {
  memory: ResizeEntry[];
  cpu: ResizeEntry[];
}

/** One CRI call of the resize, in kubelet's order. */
export type ResizeCall =
  | {
      call: 'UpdatePodSandboxResources';
      /** The pod cgroup value changed by this call: memory limit, CPU limit (quota) or CPU request (shares). */
      resource: 'memory' | 'cpu';
      value: 'limit' | 'request';
      /** Raised (before the containers) or lowered (after them). */
      raise: boolean;
      /** The pod's resources after the change, without overhead (the request's resources). */
      resources: ContainerResources;
      /** The pod's overhead (request = limit), sent beside them. */
      overhead: ContainerResources;
    }
  | {
      call: 'UpdateContainerResources';
      resource: 'memory' | 'cpu';
      name: string;
      containerId: string;
      kind: 'init' | 'regular';
      /** The CRI values sent: this resource's new values, the other resource's current ones. */
      resources: ContainerResources;
    };
