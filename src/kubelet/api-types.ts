// The Kubernetes core/v1 types syncpod reads, in ONE place: kubernetes-types 1.30 (the newest on
// npm) extended with the fields kubelets 1.31 … 1.37 read. Import Pod, Container, … from here, never
// from kubernetes-types directly. Every added field is optional, so a 1.30 object is assignable.
// Field names and shapes follow k8s.io/api core/v1 types.go (1.31–1.36 trees; see each comment).

import type * as k from 'kubernetes-types/core/v1';

export type {
  Capabilities,
  ConfigMapKeySelector,
  ContainerPort,
  ContainerResizePolicy,
  EnvFromSource,
  ExecAction,
  HostAlias,
  LifecycleHandler,
  ObjectFieldSelector,
  PodDNSConfig,
  Probe,
  ResourceFieldSelector,
  ResourceRequirements,
  SecretKeySelector,
  SELinuxOptions,
  SeccompProfile,
  Sysctl,
  Toleration,
  VolumeMount,
} from 'kubernetes-types/core/v1';
export type { ObjectMeta } from 'kubernetes-types/meta/v1';

/** ContainerRestartRuleOnExitCodes (1.34+, ContainerRestartRules). */
export interface ContainerRestartRuleOnExitCodes {
  /** 'In' or 'NotIn'. */
  operator: string;
  values?: number[];
}

/** ContainerRestartRule (1.34+): action 'Restart', or 'RestartAllContainers' (1.35+). */
export interface ContainerRestartRule {
  action: string;
  exitCodes?: ContainerRestartRuleOnExitCodes;
}

/** Lifecycle with stopSignal (1.33+, ContainerStopSignals). */
export interface Lifecycle extends k.Lifecycle {
  stopSignal?: string;
}

/** FileKeySelector (1.34+, EnvFiles): a key of an env file in an emptyDir volume. */
export interface FileKeySelector {
  volumeName: string;
  path: string;
  key: string;
  optional?: boolean;
}

export interface EnvVarSource extends k.EnvVarSource {
  fileKeyRef?: FileKeySelector;
}

export interface EnvVar extends k.EnvVar {
  valueFrom?: EnvVarSource;
}

export interface Container extends k.Container {
  env?: EnvVar[];
  lifecycle?: Lifecycle;
  /** Container-level restart policy: 'Always' (sidecar init containers), and 1.34+ 'Never'/'OnFailure'. */
  restartPolicy?: string;
  /** 1.34+ (ContainerRestartRules). */
  restartPolicyRules?: ContainerRestartRule[];
}

export interface EphemeralContainer extends k.EphemeralContainer {
  env?: EnvVar[];
  lifecycle?: Lifecycle;
  restartPolicy?: string;
  restartPolicyRules?: ContainerRestartRule[];
}

/** ImageVolumeSource (1.31+, ImageVolume). */
export interface ImageVolumeSource {
  reference?: string;
  pullPolicy?: string;
}

export interface Volume extends k.Volume {
  image?: ImageVolumeSource;
}

export interface PodSecurityContext extends k.PodSecurityContext {
  /** 1.31+ (SupplementalGroupsPolicy): 'Merge' or 'Strict'. */
  supplementalGroupsPolicy?: string;
  /** 1.32+ (SELinuxChangePolicy). */
  seLinuxChangePolicy?: string;
}

export type SecurityContext = k.SecurityContext;

export interface PodSpec extends k.PodSpec {
  containers: Container[];
  initContainers?: Container[];
  ephemeralContainers?: EphemeralContainer[];
  volumes?: Volume[];
  securityContext?: PodSecurityContext;
  /** Pod-level resources (1.32+, PodLevelResources). */
  resources?: k.ResourceRequirements;
  /** 1.34+ (HostnameOverride). */
  hostnameOverride?: string;
}

/** ContainerStatus as the API server reports it (`kubectl get pod -o yaml`), 1.31+ fields added. */
export interface ContainerStatus extends k.ContainerStatus {
  /** 1.33+ (ContainerStopSignals). */
  stopSignal?: string;
}

export interface PodCondition extends k.PodCondition {}

export interface PodStatus extends k.PodStatus {
  containerStatuses?: ContainerStatus[];
  initContainerStatuses?: ContainerStatus[];
  ephemeralContainerStatuses?: ContainerStatus[];
  /** 1.32+ (pod-level resources actuated by kubelet). */
  resources?: k.ResourceRequirements;
  /** 1.33+ (PodObservedGenerationTracking). */
  observedGeneration?: number;
}

export interface Pod extends k.Pod {
  spec?: PodSpec;
  status?: PodStatus;
}

/** Any container of a pod: regular, init or ephemeral. */
export type AnyContainer = Container | EphemeralContainer;
