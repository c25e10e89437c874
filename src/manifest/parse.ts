// Text -> pods: YAML/JSON documents, pod selection from Pods, workload templates and Lists,
// API-server defaults, validation. Pure (the text is given; load.ts reads files).

import type { Pod } from '../kubelet/api-types';
import { parseAllDocuments } from 'yaml';
import { SyncpodError } from '../errors';
import { applyPodDefaults } from './defaults';
import type { LoadedPod, PodSource } from './types';
import { validatePod, type PodPaths } from './validate';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Kinds that carry a pod template: where the template is, and the API groups that serve them. */
const WORKLOADS: Record<string, { template: string[]; groups: string[] }> = {
  Deployment: { template: ['spec', 'template'], groups: ['apps', 'extensions'] },
  ReplicaSet: { template: ['spec', 'template'], groups: ['apps', 'extensions'] },
  StatefulSet: { template: ['spec', 'template'], groups: ['apps'] },
  DaemonSet: { template: ['spec', 'template'], groups: ['apps', 'extensions'] },
  Job: { template: ['spec', 'template'], groups: ['batch'] },
  CronJob: { template: ['spec', 'jobTemplate', 'spec', 'template'], groups: ['batch'] },
  ReplicationController: { template: ['spec', 'template'], groups: [''] },
  PodTemplate: { template: ['template'], groups: [''] },
};
const ACCEPTED = ['Pod', 'List', ...Object.keys(WORKLOADS)].join(', ');

/**
 * YAML 1.1 as kubectl reads it (sigs.k8s.io/yaml on go-yaml v2): `0644` is octal 420,
 * yes/no/on/off are booleans; but no sexagesimal numbers or timestamps (go-yaml v2 keeps them
 * as strings).
 */
export const YAML_OPTIONS = {
  version: '1.1' as const,
  customTags: (tags: unknown[]): unknown[] =>
    tags.filter((t) => {
      const tag = t as { format?: string; tag?: string };
      return tag.format !== 'TIME' && tag.tag !== 'tag:yaml.org,2002:timestamp';
    }),
};

interface Candidate {
  pod: Pod;
  from: string;
  paths: PodPaths;
  notes: string[];
}

/**
 * Every pod in a YAML or JSON text (one or many documents), defaulted and validated.
 * `fileLabel` names the text in errors and sources (`<stdin>` for standard input).
 */
export function parseManifestText(text: string, fileLabel: string): LoadedPod[] {
  const docs = parseAllDocuments(text, YAML_OPTIONS as never);
  const list = Array.isArray(docs) ? docs : [docs];
  // Syntax first: a broken file is reported as such before any document is looked at.
  for (const doc of list) {
    const error = doc.errors[0];
    if (error) {
      const pos = error.linePos?.[0];
      const message = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
      throw new SyncpodError(pos ? `${fileLabel}: line ${pos.line}, column ${pos.col}: ${message}` : `${fileLabel}: ${message}`);
    }
  }
  const out: LoadedPod[] = [];
  list.forEach((doc, i) => {
    const documentIndex = i + 1;
    const value: unknown = doc.toJS({ maxAliasCount: 1000 });
    if (value === null || value === undefined) return; // an empty document (e.g. a trailing `---`)
    const where = `${fileLabel}: document ${documentIndex}`;
    for (const cand of selectPods(value, where, '')) {
      const pod = applyPodDefaults(cand.pod);
      const problems = validatePod(pod, cand.paths);
      if (problems.length > 0) {
        const p = problems[0]!;
        const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
        throw new SyncpodError(`${where}: ${p.path}: ${p.message}${more}`);
      }
      const source: PodSource = {
        file: fileLabel,
        document: documentIndex,
        from: cand.from,
        specPath: cand.paths.spec,
        notes: cand.notes,
      };
      out.push({ pod, source });
    }
  });
  return out;
}

function groupOf(apiVersion: unknown): string | undefined {
  if (apiVersion === undefined) return undefined;
  if (typeof apiVersion !== 'string') return '?';
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** The pods a document (or a List item at `prefix`) stands for. */
function selectPods(value: unknown, where: string, prefix: string, impliedKind?: string): Candidate[] {
  const at = (p: string): string => (prefix === '' ? p : `${prefix}.${p}`);
  if (!isObj(value)) {
    throw new SyncpodError(`${where}: ${prefix === '' ? '' : `${prefix}: `}not a Kubernetes object (expected a mapping with apiVersion and kind)`);
  }
  const kind = value.kind ?? impliedKind;
  if (kind === undefined || kind === '') throw new SyncpodError(`${where}: ${at('kind')}: required`);
  if (typeof kind !== 'string') throw new SyncpodError(`${where}: ${at('kind')}: must be a string`);
  const group = groupOf(value.apiVersion);
  const name = isObj(value.metadata) && typeof value.metadata.name === 'string' ? value.metadata.name : '';
  const label = `${kind}/${name}`;
  const wrongGroup = (groups: string[]): boolean => group !== undefined && !groups.includes(group);
  const unsupported = (): SyncpodError =>
    new SyncpodError(`${where}: ${at('kind')}: ${kind} of apiVersion ${String(value.apiVersion)} is not a pod, a workload with a pod template or a List (accepted: ${ACCEPTED})`);

  if (kind === 'List' || (kind.endsWith('List') && Array.isArray(value.items))) {
    if (wrongGroup(['', ...Object.values(WORKLOADS).flatMap((w) => w.groups)])) throw unsupported();
    if (!Array.isArray(value.items)) throw new SyncpodError(`${where}: ${at('items')}: must be a list`);
    const itemKind = kind === 'List' ? undefined : kind.slice(0, -'List'.length);
    return value.items.flatMap((item, i) => {
      const itemPrefix = at(`items[${i}]`);
      return selectPods(item, where, itemPrefix, itemKind).map((c) => ({ ...c, from: `List item ${i + 1}: ${c.from}` }));
    });
  }

  if (kind === 'Pod') {
    if (wrongGroup([''])) throw unsupported();
    const { status: _status, ...pod } = value;
    return [{ pod: pod as Pod, from: label, paths: { metadata: at('metadata'), spec: at('spec') }, notes: [] }];
  }

  const workload = WORKLOADS[kind];
  if (workload === undefined || wrongGroup(workload.groups)) throw unsupported();
  let template: unknown = value;
  for (const key of workload.template) {
    template = isObj(template) ? template[key] : undefined;
    if (template === undefined) throw new SyncpodError(`${where}: ${at(workload.template.join('.'))}: required`);
  }
  const templatePath = at(workload.template.join('.'));
  if (!isObj(template)) throw new SyncpodError(`${where}: ${templatePath}: must be an object`);
  return [podFromTemplate(value, template, kind, name, templatePath, at)];
}

/**
 * A pod made from a workload's template, as its controller would create it, except for the
 * name: the workload's name without the controller's random suffix (said so in the notes).
 */
function podFromTemplate(
  workload: Obj,
  template: Obj,
  kind: string,
  name: string,
  templatePath: string,
  at: (p: string) => string,
): Candidate {
  const wmeta = isObj(workload.metadata) ? workload.metadata : {};
  const tmeta = isObj(template.metadata) ? { ...template.metadata } : {};
  const notes: string[] = [];
  let metadataPath = `${templatePath}.metadata`;
  if (typeof tmeta.name !== 'string' || tmeta.name === '') {
    tmeta.name = name;
    metadataPath = at('metadata');
    notes.push(`pod name "${name}" is the ${kind}'s name; its controller would add a generated suffix`);
  }
  if (tmeta.namespace === undefined && wmeta.namespace !== undefined) {
    tmeta.namespace = wmeta.namespace;
    notes.push(`namespace "${String(wmeta.namespace)}" is the ${kind}'s namespace`);
  }
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: tmeta, spec: template.spec } as Pod;
  return {
    pod,
    from: `${kind}/${name}: pod template`,
    paths: { metadata: metadataPath, spec: `${templatePath}.spec` },
    notes,
  };
}
