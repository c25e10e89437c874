// The pod a workload controller would create from its template, as far as kubelet and the runtime
// see it: name, namespace, the labels the controller adds (they end up on the sandbox), the volumes
// a StatefulSet adds from volumeClaimTemplates, a StatefulSet pod's hostname/subdomain, an Indexed
// Job's completion index. Follows kube-controller-manager 1.33–1.36 (pkg/controller/deployment,
// replicaset, statefulset/stateful_set_utils.go, daemon, job; apps/v1 and batch/v1 label keys). Pure.
//
// Values the controller derives from state a manifest does not hold (the pod-template-hash a
// Deployment computes, a revision's hash, the Job's uid) are left for the live pod to supply: the
// plan adopts them from the matching sandbox, or says they are unknown.

import type { Pod } from '../kubelet/api-types';
import type { FieldPath } from './schema';
import type { ControllerShape } from './types';
import { isObj, type Obj } from '../json-object';

// Label keys (k8s.io/api apps/v1 and batch/v1).
export const POD_TEMPLATE_HASH = 'pod-template-hash';
export const CONTROLLER_REVISION_HASH = 'controller-revision-hash';
export const DAEMONSET_TEMPLATE_GENERATION = 'pod-template-generation';
export const STATEFULSET_POD_NAME = 'statefulset.kubernetes.io/pod-name';
export const POD_INDEX = 'apps.kubernetes.io/pod-index';
export const JOB_NAME = 'batch.kubernetes.io/job-name';
export const JOB_NAME_LEGACY = 'job-name';
export const JOB_CONTROLLER_UID = 'batch.kubernetes.io/controller-uid';
export const JOB_CONTROLLER_UID_LEGACY = 'controller-uid';
export const JOB_COMPLETION_INDEX = 'batch.kubernetes.io/job-completion-index';
export const JOB_COMPLETION_INDEX_ENV = 'JOB_COMPLETION_INDEX';

/** Kinds that carry a pod template, and where it is. */
const TEMPLATE_PATH: Record<string, string[]> = {
  Deployment: ['spec', 'template'],
  ReplicaSet: ['spec', 'template'],
  StatefulSet: ['spec', 'template'],
  DaemonSet: ['spec', 'template'],
  Job: ['spec', 'template'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template'],
  ReplicationController: ['spec', 'template'],
  PodTemplate: ['template'],
};
export const WORKLOAD_KINDS = Object.keys(TEMPLATE_PATH);

export interface ControllerOptions {
  /** The StatefulSet ordinal (or Indexed Job completion index) to plan; default the first. */
  ordinal?: number;
}

export interface WorkloadPod {
  pod: Pod;
  from: string;
  metadataPath: FieldPath;
  specPath: FieldPath;
  notes: string[];
  controller: ControllerShape | undefined;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * The pod `kind` (a workload) would create. `prefix` is where the workload sits in its document;
 * `fail` reports a problem at a path and does not return. The workload passed schema validation.
 */
export function podFromWorkload(
  kind: string,
  workload: Obj,
  prefix: FieldPath,
  options: ControllerOptions,
  fail: (path: FieldPath, message: string) => never,
): WorkloadPod {
  const templatePath = [...prefix, ...TEMPLATE_PATH[kind]!];
  let template: unknown = workload;
  for (const key of TEMPLATE_PATH[kind]!) template = isObj(template) ? template[key] : undefined;
  if (!isObj(template)) fail(templatePath, 'required');
  const tmpl = template as Obj;
  if (!isObj(tmpl.spec)) fail([...templatePath, 'spec'], 'required');

  const wmeta = isObj(workload.metadata) ? workload.metadata : {};
  const name = str(wmeta.name) ?? '';
  const namespace = str(wmeta.namespace);
  const tmeta: Obj = isObj(tmpl.metadata) ? structuredClone(tmpl.metadata) : {};
  const spec = structuredClone(tmpl.spec) as Obj;
  const labels: Record<string, string> = isObj(tmeta.labels) ? { ...(tmeta.labels as Record<string, string>) } : {};
  const notes: string[] = [];
  let metadataPath: FieldPath = [...templatePath, 'metadata'];

  checkSelector(kind, workload, labels, prefix, fail);

  // The namespace is the workload's (a template's own namespace is ignored by controllers).
  if (namespace !== undefined) tmeta.namespace = namespace;
  else delete tmeta.namespace;

  const shape: ControllerShape = {
    kind,
    name,
    podName: name,
    labelsAdded: {},
    unknownLabels: [],
    matchLabels: { ...labels },
  };
  const setLabel = (key: string, value: string): void => {
    labels[key] = value;
    shape.labelsAdded[key] = value;
  };

  if (kind === 'PodTemplate') {
    if (str(tmeta.name) === undefined || tmeta.name === '') {
      tmeta.name = name;
      notes.push(`pod name "${name}" is the PodTemplate's name`);
    }
    metadataPath = str(tmeta.name) === name ? [...prefix, 'metadata'] : metadataPath;
    return finish(undefined);
  }

  const spec0 = workload.spec as Obj;
  switch (kind) {
    case 'Deployment':
      shape.podName = `${name}-<hash>-<suffix>`;
      shape.unknownLabels.push(POD_TEMPLATE_HASH);
      notes.push(
        `shaped as the Deployment controller creates pods: named ${name}-<pod-template-hash>-<random>, labelled ${POD_TEMPLATE_HASH} (computed by the controller; taken from a live pod when one matches)`,
      );
      break;
    case 'ReplicaSet':
    case 'ReplicationController':
      shape.podName = `${name}-<suffix>`;
      notes.push(
        `shaped as the ${kind} controller creates pods: named ${name}-<random>, labelled with the template's labels`,
      );
      break;
    case 'DaemonSet': {
      shape.podName = `${name}-<suffix>`;
      shape.unknownLabels.push(CONTROLLER_REVISION_HASH);
      const generation = typeof wmeta.generation === 'number' ? wmeta.generation : 1;
      setLabel(DAEMONSET_TEMPLATE_GENERATION, String(generation));
      notes.push(
        `shaped as the DaemonSet controller creates pods: named ${name}-<random>, labelled ${CONTROLLER_REVISION_HASH} (taken from a live pod when one matches) and ${DAEMONSET_TEMPLATE_GENERATION}=${generation}`,
      );
      break;
    }
    case 'StatefulSet':
      statefulSetPod(spec0);
      break;
    case 'Job':
      jobPod(spec0, name);
      break;
    case 'CronJob': {
      const jobSpec = (spec0.jobTemplate as Obj).spec as Obj;
      jobPod(jobSpec, `${name}-<scheduled>`);
      shape.podName = `${name}-<scheduled>-<suffix>`;
      break;
    }
  }
  // Controllers name pods from generateName; syncpod plans under the workload's name unless a live
  // pod matches (then that pod's name is taken). A StatefulSet's pods have exact names.
  if (kind !== 'StatefulSet') {
    tmeta.name = name;
    metadataPath = [...prefix, 'metadata'];
    notes.push(
      `pod name "${name}" is the ${kind}'s name until a live pod matches (its controller adds a generated suffix)`,
    );
  }
  if (namespace !== undefined) notes.push(`namespace "${namespace}" is the ${kind}'s namespace`);
  return finish(shape);

  function statefulSetPod(s: Obj): void {
    const ordinals = isObj(s.ordinals) && typeof s.ordinals.start === 'number' ? s.ordinals.start : 0;
    const replicas = typeof s.replicas === 'number' ? s.replicas : 1;
    const ordinal = options.ordinal ?? ordinals;
    if (ordinal < ordinals || ordinal >= ordinals + Math.max(replicas, 1)) {
      fail(
        [...prefix, 'spec', 'replicas'],
        `--ordinal ${ordinal} is not a pod of this StatefulSet (ordinals ${ordinals}..${ordinals + Math.max(replicas, 1) - 1})`,
      );
    }
    const podName = `${name}-${ordinal}`;
    tmeta.name = podName;
    metadataPath = [...prefix, 'metadata'];
    shape.podName = podName;
    shape.ordinal = ordinal;
    setLabel(STATEFULSET_POD_NAME, podName);
    setLabel(POD_INDEX, String(ordinal));
    shape.unknownLabels.push(CONTROLLER_REVISION_HASH);
    // identity: hostname is the pod name, subdomain the governing service
    spec.hostname = podName;
    if (typeof s.serviceName === 'string' && s.serviceName !== '') spec.subdomain = s.serviceName;
    // storage: one PVC per claim template, replacing a template volume of the same name
    const claims = Array.isArray(s.volumeClaimTemplates) ? s.volumeClaimTemplates.filter(isObj) : [];
    const volumes = Array.isArray(spec.volumes) ? (spec.volumes as Obj[]).filter(isObj) : [];
    const added: string[] = [];
    for (const claim of claims) {
      const claimName = str((claim.metadata as Obj | undefined)?.name) ?? '';
      const pvc = `${claimName}-${name}-${ordinal}`;
      const volume = { name: claimName, persistentVolumeClaim: { claimName: pvc } };
      const at = volumes.findIndex((v) => v.name === claimName);
      if (at >= 0) volumes[at] = volume;
      else volumes.push(volume);
      added.push(`${claimName} -> PVC ${pvc}`);
    }
    if (claims.length > 0) spec.volumes = volumes;
    notes.push(
      `shaped as the StatefulSet controller creates pod ${ordinal} (${podName}; --ordinal N picks another): hostname ${podName}` +
        (spec.subdomain ? `, subdomain ${String(spec.subdomain)}` : '') +
        `, labels ${STATEFULSET_POD_NAME} and ${POD_INDEX}, ${CONTROLLER_REVISION_HASH} from a live pod when one matches` +
        (added.length ? `; volumes from volumeClaimTemplates: ${added.join(', ')}` : ''),
    );
  }

  function jobPod(s: Obj, jobName: string): void {
    shape.podName = `${jobName}-<suffix>`;
    // The API server adds these to a Job's template at creation (the selector it generates).
    if (!/<scheduled>/.test(jobName)) {
      setLabel(JOB_NAME, jobName);
      setLabel(JOB_NAME_LEGACY, jobName);
    }
    shape.unknownLabels.push(JOB_CONTROLLER_UID, JOB_CONTROLLER_UID_LEGACY);
    const parts = [
      `labels ${JOB_NAME}, ${JOB_NAME_LEGACY}`,
      `${JOB_CONTROLLER_UID} (the Job's uid; from a live pod when one matches)`,
    ];
    if (s.completionMode === 'Indexed') {
      const completions = typeof s.completions === 'number' ? s.completions : 1;
      const index = options.ordinal ?? 0;
      if (index < 0 || index >= completions)
        fail(
          [...prefix, 'spec', 'completions'],
          `--ordinal ${index} is not a completion index of this Job (0..${completions - 1})`,
        );
      setLabel(JOB_COMPLETION_INDEX, String(index));
      tmeta.annotations = {
        ...(isObj(tmeta.annotations) ? tmeta.annotations : {}),
        [JOB_COMPLETION_INDEX]: String(index),
      };
      shape.ordinal = index;
      for (const list of ['initContainers', 'containers'] as const) {
        for (const c of Array.isArray(spec[list]) ? (spec[list] as Obj[]).filter(isObj) : []) {
          const env = Array.isArray(c.env) ? (c.env as Obj[]) : [];
          c.env = [
            ...env.filter((e) => e?.name !== JOB_COMPLETION_INDEX_ENV),
            {
              name: JOB_COMPLETION_INDEX_ENV,
              valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${JOB_COMPLETION_INDEX}']` } },
            },
          ];
        }
      }
      if (typeof spec.subdomain === 'string' && spec.subdomain !== '') spec.hostname = `${jobName}-${index}`;
      parts.push(
        `completion index ${index} (--ordinal N picks another; label, annotation and ${JOB_COMPLETION_INDEX_ENV})`,
      );
    }
    notes.push(`shaped as the Job controller creates pods: ${parts.join(', ')}`);
  }

  function finish(controller: ControllerShape | undefined): WorkloadPod {
    if (Object.keys(labels).length > 0) tmeta.labels = labels;
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: tmeta, spec } as unknown as Pod;
    return {
      pod,
      from: `${kind}/${name}: pod template`,
      metadataPath,
      specPath: [...templatePath, 'spec'],
      notes,
      controller,
    };
  }
}

/** The API server refuses a workload whose selector does not select its own template. */
function checkSelector(
  kind: string,
  workload: Obj,
  labels: Record<string, string>,
  prefix: FieldPath,
  fail: (path: FieldPath, message: string) => never,
): void {
  const spec = workload.spec as Obj;
  if (kind === 'ReplicationController') {
    if (isObj(spec.selector)) {
      for (const [k, v] of Object.entries(spec.selector)) {
        if (labels[k] !== v)
          fail(
            [...prefix, 'spec', 'template', 'metadata', 'labels'],
            `selector does not match template labels (${k}=${String(v)})`,
          );
      }
    }
    return;
  }
  if (!['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet'].includes(kind)) return;
  const sel = spec.selector as Obj | undefined;
  if (!isObj(sel)) return; // required: reported by the schema
  const matchLabels = isObj(sel.matchLabels) ? (sel.matchLabels as Record<string, string>) : {};
  const exprs = Array.isArray(sel.matchExpressions) ? (sel.matchExpressions as Obj[]) : [];
  if (Object.keys(matchLabels).length === 0 && exprs.length === 0) {
    fail([...prefix, 'spec', 'selector'], 'invalid value: empty selector is invalid for ' + kind);
  }
  if (!selectorMatches({ matchLabels, matchExpressions: exprs }, labels)) {
    fail([...prefix, 'spec', 'template', 'metadata', 'labels'], '`selector` does not match template `labels`');
  }
}

/** A metav1.LabelSelector against labels (matchLabels and the four operators). */
export function selectorMatches(
  sel: { matchLabels?: Record<string, string>; matchExpressions?: Obj[] },
  labels: Record<string, string>,
): boolean {
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of sel.matchExpressions ?? []) {
    const key = String(e.key);
    const values = Array.isArray(e.values) ? e.values.map(String) : [];
    const has = Object.hasOwn(labels, key);
    switch (e.operator) {
      case 'In':
        if (!has || !values.includes(labels[key]!)) return false;
        break;
      case 'NotIn':
        if (has && values.includes(labels[key]!)) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/**
 * The planned pod as the live pod of its workload that was found on the node: that pod's name,
 * and the labels the controller sets from cluster state (pod-template-hash,
 * controller-revision-hash, the Job's uid) with the live values. Pure; returns new objects.
 */
export function adoptLivePod<
  T extends { pod: Pod; source: { notes: string[]; controller: ControllerShape | undefined } },
>(loaded: T, live: { name: string; labels: Record<string, string>; how: string }): T {
  const shape = loaded.source.controller;
  if (!shape) return loaded;
  const pod = structuredClone(loaded.pod);
  const labels: Record<string, string> = { ...(pod.metadata?.labels ?? {}) };
  const adopted: string[] = [];
  for (const key of shape.unknownLabels) {
    const v = live.labels[key];
    if (v !== undefined) {
      labels[key] = v;
      adopted.push(`${key}=${v}`);
    }
  }
  pod.metadata = { ...pod.metadata, name: live.name, labels };
  const notes = [
    ...loaded.source.notes,
    live.how + (adopted.length ? `; labels taken from it: ${adopted.join(', ')}` : ''),
  ];
  return { ...loaded, pod, source: { ...loaded.source, notes } };
}
