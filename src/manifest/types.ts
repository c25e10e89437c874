// What the manifest layer hands to the rest of syncpod.

import type { Pod, PodStatus } from '../kubelet/api-types';

/** The controller whose pod shape was assumed for a workload's template. */
export interface ControllerShape {
  /** Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob, ReplicationController. */
  kind: string;
  /** The workload's name. */
  name: string;
  /** The pod's name as the controller makes it (`web-0`, `web-<hash>-<suffix>`). */
  podName: string;
  /** StatefulSet ordinal or Indexed Job completion index planned. */
  ordinal?: number;
  /** Labels the controller adds to the template's, with the values syncpod knows. */
  labelsAdded: Record<string, string>;
  /** Labels the controller adds whose values depend on cluster state (taken from a live pod). */
  unknownLabels: string[];
  /** The template's own labels: every pod of the workload carries them (live-pod matching). */
  matchLabels: Record<string, string>;
}

/** A well-formed document of a kind that carries no pod (Service, ConfigMap, …), not planned. */
export interface SkippedDocument {
  file: string;
  document: number;
  /** The List item's path when the object was inside a List (`items[2]`). */
  item?: string;
  kind: string;
  name: string;
  /** `Kind/name`. */
  ref: string;
}

export interface PodSource {
  /** The file as the user named it; `<stdin>` for `-`. */
  file: string;
  /** 1-based index of the YAML document in that file. */
  document: number;
  /** What the pod was taken from, e.g. `Pod/web`, `Deployment/web: pod template`, `List item 2: Pod/web`. */
  from: string;
  /** Field path of the pod's spec inside the document (`spec`, `spec.template.spec`, `items[1].spec`). */
  specPath: string;
  /** Facts an operator should know about the selection (e.g. where the pod name came from). */
  notes: string[];
  /** For a workload's template: the controller shape assumed. */
  controller: ControllerShape | undefined;
  /** `Kind/name` of the documents of other kinds in the same file, which were skipped. */
  skipped: string[];
}

export interface LoadedPod {
  /** The pod with API-server defaults applied (no admission mutations), validated. */
  pod: Pod;
  source: PodSource;
  /** The status of a Pod document (a `kubectl get pod -o yaml` dump), as read; probe results come from it. */
  apiStatus?: PodStatus;
}
