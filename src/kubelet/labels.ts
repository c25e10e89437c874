// Identity kubelet writes on sandboxes and containers (labels, annotations) and the filesystem
// paths it derives for a pod, mirroring kubelet 1.33 (kuberuntime/labels.go, kubelet_getters.go,
// kuberuntime/helpers.go). Pure: paths are built as strings, nothing is touched.

import type { Container, Pod } from './api-types';
import { SyncpodError } from '../errors';
import { checkPathComponent } from './path-names';
import { formatHash, hashContainer, hashContainerLegacy, hashContainerWithoutResources } from './hash';
import type { HashScheme } from './kubelet-version';
import { encodeContainerPorts, encodeLifecycleHandler } from './go-json';
import {
  ANNOTATION_CONTAINER_HASH,
  ANNOTATION_CONTAINER_HASH_WITHOUT_RESOURCES,
  ANNOTATION_CONTAINER_PORTS,
  ANNOTATION_CONTAINER_RESTART_COUNT,
  ANNOTATION_POD_DELETION_GRACE_PERIOD,
  ANNOTATION_POD_TERMINATION_GRACE_PERIOD,
  ANNOTATION_PRESTOP_HANDLER,
  ANNOTATION_TERMINATION_MESSAGE_PATH,
  ANNOTATION_TERMINATION_MESSAGE_POLICY,
  LABEL_CONTAINER_NAME,
  LABEL_POD_NAME,
  LABEL_POD_NAMESPACE,
  LABEL_POD_UID,
} from './types';

/** Kubelet's --pod-logs-root default (podLogsDirectory). */
export const DEFAULT_POD_LOGS_ROOT = '/var/log/pods';
/** Kubelet's --root-dir default. */
export const DEFAULT_KUBELET_ROOT = '/var/lib/kubelet';

/** Annotations kubelet's pod config layer adds to every pod it receives. */
export const ANNOTATION_CONFIG_SOURCE = 'kubernetes.io/config.source';
export const ANNOTATION_CONFIG_SEEN = 'kubernetes.io/config.seen';
export const ANNOTATION_CONFIG_HASH = 'kubernetes.io/config.hash';

/** Where kubelet got the pod from: the API server, a manifest file, or a manifest URL. */
export type ConfigSource = 'api' | 'file' | 'http';

/** name, namespace and uid of a pod, with a clear error when one is missing. */
export function podIdentity(pod: Pod): { name: string; namespace: string; uid: string } {
  const name = pod.metadata?.name ?? '';
  const namespace = pod.metadata?.namespace ?? '';
  const uid = pod.metadata?.uid ?? '';
  if (name === '') throw new SyncpodError('pod has no metadata.name');
  if (namespace === '') throw new SyncpodError(`pod ${name}: metadata.namespace is empty`);
  if (uid === '') throw new SyncpodError(`pod ${namespace}/${name}: metadata.uid is empty`);
  // Each becomes part of a host path (pods/<uid>, <ns>_<name>_<uid>): the last guard, after validation.
  checkPathComponent('metadata.namespace', namespace);
  checkPathComponent('metadata.name', name);
  checkPathComponent('metadata.uid', uid);
  return { name, namespace, uid };
}

/** kubelet's format.Pod: `<name>_<namespace>(<uid>)`, used in its error messages. */
export function formatPod(pod: Pod): string {
  return `${pod.metadata?.name ?? ''}_${pod.metadata?.namespace ?? ''}(${pod.metadata?.uid ?? ''})`;
}

/** Sandbox labels: every pod label, then the three identity labels. */
export function newPodLabels(pod: Pod): Record<string, string> {
  const { name, namespace, uid } = podIdentity(pod);
  return {
    ...(pod.metadata?.labels ?? {}),
    [LABEL_POD_NAME]: name,
    [LABEL_POD_NAMESPACE]: namespace,
    [LABEL_POD_UID]: uid,
  };
}

/**
 * Sandbox annotations: the pod's annotations as kubelet holds them, i.e. with the config-source
 * annotations kubelet adds on receipt (config.hash, the static-pod UID, only for file/http pods).
 */
export function newPodAnnotations(pod: Pod, source: ConfigSource, seen: string): Record<string, string> {
  const out: Record<string, string> = { ...(pod.metadata?.annotations ?? {}) };
  if (source !== 'api' && out[ANNOTATION_CONFIG_HASH] === undefined) out[ANNOTATION_CONFIG_HASH] = podIdentity(pod).uid;
  out[ANNOTATION_CONFIG_SEEN] = seen;
  out[ANNOTATION_CONFIG_SOURCE] = source;
  return out;
}

/** Container labels: exactly the four identity labels (pod labels are not copied). */
export function newContainerLabels(pod: Pod, container: Container): Record<string, string> {
  const { name, namespace, uid } = podIdentity(pod);
  return {
    [LABEL_POD_NAME]: name,
    [LABEL_POD_NAMESPACE]: namespace,
    [LABEL_POD_UID]: uid,
    [LABEL_CONTAINER_NAME]: container.name,
  };
}

export interface ContainerAnnotationOptions {
  restartCount: number;
  /** 'name+image' for kubelet 1.31+, 'whole-spec' for 1.16–1.30. */
  hashScheme: HashScheme;
  /** Write io.kubernetes.container.hashWithoutResources (kubelet with InPlacePodVerticalScaling, 1.27–1.32). */
  hashWithoutResources: boolean;
}

/** Container annotations in the order kubelet fills its map (newContainerAnnotations). */
export function newContainerAnnotations(
  pod: Pod,
  container: Container,
  o: ContainerAnnotationOptions,
): Record<string, string> {
  const hash = o.hashScheme === 'name+image' ? hashContainer(container) : hashContainerLegacy(container);
  const out: Record<string, string> = { [ANNOTATION_CONTAINER_HASH]: formatHash(hash) };
  if (o.hashWithoutResources) {
    const h = o.hashScheme === 'name+image' ? hash : hashContainerWithoutResources(container);
    out[ANNOTATION_CONTAINER_HASH_WITHOUT_RESOURCES] = formatHash(h);
  }
  out[ANNOTATION_CONTAINER_RESTART_COUNT] = String(o.restartCount);
  out[ANNOTATION_TERMINATION_MESSAGE_PATH] = container.terminationMessagePath ?? '';
  out[ANNOTATION_TERMINATION_MESSAGE_POLICY] = container.terminationMessagePolicy ?? '';
  if (pod.metadata?.deletionGracePeriodSeconds !== undefined && pod.metadata.deletionGracePeriodSeconds !== null) {
    out[ANNOTATION_POD_DELETION_GRACE_PERIOD] = String(Math.trunc(pod.metadata.deletionGracePeriodSeconds));
  }
  if (pod.spec?.terminationGracePeriodSeconds !== undefined && pod.spec.terminationGracePeriodSeconds !== null) {
    out[ANNOTATION_POD_TERMINATION_GRACE_PERIOD] = String(Math.trunc(pod.spec.terminationGracePeriodSeconds));
  }
  const preStop = container.lifecycle?.preStop;
  if (preStop)
    out[ANNOTATION_PRESTOP_HANDLER] = encodeLifecycleHandler(preStop, `container ${container.name}: lifecycle.preStop`);
  if (container.ports && container.ports.length > 0) {
    out[ANNOTATION_CONTAINER_PORTS] = encodeContainerPorts(container.ports, `container ${container.name}: ports`);
  }
  return out;
}

/** `<podLogsRoot>/<namespace>_<name>_<uid>` (BuildPodLogsDirectory). */
export function buildPodLogsDirectory(podLogsRoot: string, pod: Pod): string {
  const { name, namespace, uid } = podIdentity(pod);
  return `${trimSlash(podLogsRoot)}/${checkPathComponent('pod log directory name', `${namespace}_${name}_${uid}`)}`;
}

/** The container's log directory, created 0755 before CreateContainer. */
export function buildContainerLogsDirectory(podLogsRoot: string, pod: Pod, containerName: string): string {
  return `${buildPodLogsDirectory(podLogsRoot, pod)}/${checkPathComponent('container name', containerName)}`;
}

/** ContainerConfig.log_path, relative to the pod log directory: `<name>/<restartCount>.log`. */
export function buildContainerLogsPath(containerName: string, restartCount: number): string {
  return `${containerName}/${restartCount}.log`;
}

/** `<root>/pods/<uid>`. */
export function podDir(kubeletRoot: string, pod: Pod): string {
  return `${trimSlash(kubeletRoot)}/pods/${podIdentity(pod).uid}`;
}

/** `<root>/pods/<uid>/containers/<name>`: parent of the termination-log files. */
export function podContainerDir(kubeletRoot: string, pod: Pod, containerName: string): string {
  return `${podDir(kubeletRoot, pod)}/containers/${checkPathComponent('container name', containerName)}`;
}

/** `<root>/pods/<uid>/etc-hosts`: the managed /etc/hosts file. */
export function podEtcHostsPath(kubeletRoot: string, pod: Pod): string {
  return `${podDir(kubeletRoot, pod)}/etc-hosts`;
}

function trimSlash(p: string): string {
  return p.length > 1 && p.endsWith('/') ? p.replace(/\/+$/, '') : p;
}
