// kubelet's view of one pod's runtime state (kubecontainer.PodStatus), mirroring kubelet 1.33.
// Built from CRI lists/statuses by src/state/; consumed by the pure planner and config generators.
// Times are milliseconds since the epoch as (possibly fractional) numbers; 0 means "not set".

import type { RecordedConfig } from './recorded-config';

export type ContainerState = 'created' | 'running' | 'exited' | 'unknown';
export type SandboxState = 'ready' | 'notready';
/** CRI NamespaceMode names as they appear in PodSandboxStatus.linux.namespaces.options. */
export type NamespaceMode = 'POD' | 'CONTAINER' | 'NODE' | 'TARGET';

export interface ContainerStatus {
  /** CRI container id. */
  id: string;
  /** From the label io.kubernetes.container.name (not CRI metadata.name). */
  name: string;
  state: ContainerState;
  createdAt: number;
  startedAt: number;
  finishedAt: number;
  exitCode: number;
  reason: string;
  message: string;
  /** status.image.image */
  image: string;
  /** status.image_ref */
  imageRef: string;
  /** Annotation io.kubernetes.container.hash exactly as written (lowercase hex), '' when absent. */
  hash: string;
  /** Annotation io.kubernetes.container.restartCount, 0 when absent or unparsable. */
  restartCount: number;
  /** The sandbox this container belongs to (CRI pod_sandbox_id). */
  podSandboxId: string;
  /** CRI log path from ContainerStatus.log_path. */
  logPath: string;
  /** ContainerStatus.resources.linux as the runtime reports it (toKubeContainerStatus's Resources); absent when not reported. */
  resources?: ContainerResources;
  /** What the runtime kept of the config kubelet sent (ContainerStatus verbose info); absent when not reported. */
  recorded?: RecordedConfig;
}

/** The Linux resources a runtime reports for a running container (CRI units). */
export interface ContainerResources {
  cpuShares: number;
  cpuQuota: number;
  cpuPeriod: number;
  memoryLimitInBytes: number;
}

export interface SandboxStatus {
  id: string;
  name: string;
  namespace: string;
  uid: string;
  attempt: number;
  state: SandboxState;
  createdAt: number;
  /** linux.namespaces.options.network; undefined when the runtime did not report it. */
  networkNamespaceMode?: NamespaceMode;
  /** Whether PodSandboxStatus.network was present at all. */
  hasNetwork: boolean;
  ip: string;
  additionalIps: string[];
}

export interface PodStatus {
  uid: string;
  name: string;
  namespace: string;
  /** Pod IPs: only from the newest sandbox and only when it is ready. */
  ips: string[];
  /** Newest first (by createdAt). */
  sandboxStatuses: SandboxStatus[];
  /** Newest first (by createdAt); containers of every sandbox of the pod, current and dead. */
  containerStatuses: ContainerStatus[];
}

/** Kubelet's identity labels and annotations (labels.go). */
export const LABEL_POD_NAME = 'io.kubernetes.pod.name';
export const LABEL_POD_NAMESPACE = 'io.kubernetes.pod.namespace';
export const LABEL_POD_UID = 'io.kubernetes.pod.uid';
export const LABEL_CONTAINER_NAME = 'io.kubernetes.container.name';
export const ANNOTATION_CONTAINER_HASH = 'io.kubernetes.container.hash';
export const ANNOTATION_CONTAINER_HASH_WITHOUT_RESOURCES = 'io.kubernetes.container.hashWithoutResources';
export const ANNOTATION_CONTAINER_RESTART_COUNT = 'io.kubernetes.container.restartCount';
export const ANNOTATION_TERMINATION_MESSAGE_PATH = 'io.kubernetes.container.terminationMessagePath';
export const ANNOTATION_TERMINATION_MESSAGE_POLICY = 'io.kubernetes.container.terminationMessagePolicy';
export const ANNOTATION_POD_DELETION_GRACE_PERIOD = 'io.kubernetes.pod.deletionGracePeriod';
export const ANNOTATION_POD_TERMINATION_GRACE_PERIOD = 'io.kubernetes.pod.terminationGracePeriod';
export const ANNOTATION_PRESTOP_HANDLER = 'io.kubernetes.container.preStopHandler';
export const ANNOTATION_CONTAINER_PORTS = 'io.kubernetes.container.ports';
