// The desired pods of a node: the static pods of the kubelet's staticPodPath (as its file source
// reads them: one Pod per file), pods given as files or stdin (typically `kubectl get pods -A
// --field-selector spec.nodeName=NODE -o yaml`, a List), and what the kubelet's Pods API knows.
// Bad input never stops the rest: each bad file or List item is one problem line.
//
// Rules kept from kubelet: mirror pods (kubernetes.io/config.mirror) are not pods to run — they
// carry the static pod's real uid, which is used for the static pod of that name; pods that have
// finished (phase Succeeded or Failed) are not run again, but their uid is known (not an orphan);
// a pod bound to another node is not this node's.
import type { Pod } from 'kubernetes-types/core/v1';
import { LineCounter, type Document } from 'yaml';
import { SyncpodError, errorLine } from '../errors';
import {
  applyStaticPodDefaults,
  generatePodName,
  isMirrorPod,
  staticPodFiles,
  type DirEntry,
} from '../kubelet/static-pods';
import { ANNOTATION_CONFIG_MIRROR } from '../kubelet/static-pods';
import { applyPodDefaults } from '../manifest/defaults';
import { MAX_ALIAS_COUNT, yamlDocuments } from '../manifest/parse';
import { formatPath, validateSchema, type FieldPath } from '../manifest/schema';
import { validatePod, type PodPaths } from '../manifest/validate';
import { firstControlCharacter, firstDuplicateKey, yamlProblem } from '../manifest/yaml-read';
import {
  inputsTooLong,
  MAX_MANIFEST_OBJECTS,
  sizeProblemLine,
  textTooLong,
  type ObjectCount,
} from '../manifest/yaml-size';
import type { DesiredPodSource } from '../plan/node-plan';
import type { PodIdentity } from '../state/pods-api';
import { isObj, type Obj } from '../json-object';

export interface DesiredPod {
  pod: Pod;
  source: DesiredPodSource;
}

export interface NodeInputs {
  desired: DesiredPod[];
  /** Uids kubelet knows without running them (finished pods, Pods API pods without a spec here). */
  knownUids: Set<string>;
  problems: string[];
  /** Facts worth a line on stderr (skipped mirror pods, finished pods...). */
  notes: string[];
}

export interface NodeInputDeps {
  /** Directory entries with their kinds; undefined when the directory does not exist. */
  readDir(path: string): DirEntry[] | undefined;
  readFile(path: string): string;
  /** Reads a node file (a static pod manifest); a node path, taken under --host-root by the adapter. Default: readFile. */
  readNodeFile?(path: string): string;
  readStdin(): Promise<string>;
}

export interface NodeInputRequest {
  nodeName: string;
  /** kubelet's staticPodPath; '' or undefined: none configured. */
  staticPodPath?: string;
  /** Files or `-`. */
  files: string[];
  /** Pods the kubelet's Pods API reported (undefined: not read). */
  podsApi?: PodIdentity[];
  podsApiSocket?: string;
}

const key = (ns: string | undefined, name: string | undefined): string => `${ns || 'default'}/${name ?? ''}`;

/**
 * YAML/JSON documents of a text; a syntax error is one problem for the whole text. JSON (what
 * `kubectl get -o json` writes) is read with JSON.parse: YAML 1.1 readings do not apply to it and
 * the YAML parser is two orders of magnitude slower on a 100-pod List.
 */
function documents(text: string, label: string, count: ObjectCount): { docs: unknown[]; problem?: string } {
  const control = firstControlCharacter(text);
  if (control)
    return {
      docs: [],
      problem: `${label}: line ${control.line}, column ${control.column}: control character ${control.code} is not allowed in YAML or JSON text`,
    };
  const start = text.trimStart()[0];
  if (start === '{' || start === '[') {
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      // not JSON after all (a YAML flow mapping): the YAML parser reads it and names the error
    }
    if (v !== undefined) {
      countJsonObjects(v, label, count);
      return { docs: v === null ? [] : [v] };
    }
  }
  const lines = new LineCounter();
  let list: Document[];
  try {
    list = yamlDocuments(text, label, lines, count);
  } catch (err) {
    // Too many objects for one invocation refuses the whole run (as sync and plan refuse it), not one input.
    if (count.objects > MAX_MANIFEST_OBJECTS) throw err;
    if (err instanceof SyncpodError) return { docs: [], problem: err.message };
    throw err;
  }
  for (const doc of list) {
    const e = doc.errors[0];
    if (e) {
      const pos = e.pos ? lines.linePos(e.pos[0]) : undefined;
      return {
        docs: [],
        problem: `${label}: ${pos ? `line ${pos.line}, column ${pos.col}: ` : ''}${yamlProblem(e.message)}`,
      };
    }
    const dup = firstDuplicateKey(doc);
    if (dup !== undefined) {
      const pos = lines.linePos(dup);
      return { docs: [], problem: `${label}: line ${pos.line}, column ${pos.col}: Map keys must be unique` };
    }
  }
  const docs: unknown[] = [];
  for (const [i, doc] of list.entries()) {
    try {
      docs.push(doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }));
    } catch (err) {
      const where = list.length > 1 ? `${label}: document ${i + 1}` : label;
      const why =
        err instanceof ReferenceError && /alias/i.test(err.message)
          ? `YAML aliases expand too far (over ${MAX_ALIAS_COUNT} uses; a "billion laughs" document): refused`
          : yamlProblem((err as Error).message);
      return { docs: [], problem: `${where}: ${why}` };
    }
  }
  return { docs: docs.filter((v) => v !== null && v !== undefined) };
}

/** A Pod object checked against the API schema, defaulted and validated, or the problem line. */
function toPod(value: Obj, where: string, paths: PodPaths, at: FieldPath = []): Pod | string {
  const wrong = validateSchema('Pod', value, at);
  if (wrong.length > 0) {
    const more = wrong.length > 1 ? ` (and ${wrong.length - 1} more)` : '';
    return `${where}: ${formatPath(wrong[0]!.path)}: ${wrong[0]!.message}${more}`;
  }
  const { status: _status, ...raw } = value;
  const pod = applyPodDefaults(raw as Pod);
  const problems = validatePod(pod, paths);
  if (problems.length > 0) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    return `${where}: ${problems[0].path}: ${problems[0].message}${more}`;
  }
  return pod;
}

function kindOf(v: Obj): string {
  return typeof v.kind === 'string' ? v.kind : '';
}

interface GivenPod {
  pod: Pod;
  source: DesiredPodSource;
  phase: string;
}

/** A JSON text's objects (its List items, or itself) added to `count`; refused one past the bound. */
function countJsonObjects(v: unknown, label: string, count: ObjectCount): void {
  if (v === null) return;
  const items = isObj(v) && Array.isArray(v.items) ? v.items.length : 0;
  const before = count.objects;
  count.objects += isObj(v) && Array.isArray(v.items) ? items : 1;
  if (count.objects <= MAX_MANIFEST_OBJECTS) return;
  const item = items > 0 ? MAX_MANIFEST_OBJECTS - before + 1 : undefined;
  const line = sizeProblemLine({
    document: 1,
    offset: 0,
    size: count.objects,
    limit: MAX_MANIFEST_OBJECTS,
    what: 'objects',
    ...(item ? { item } : {}),
  });
  throw new SyncpodError(`${label}: ${line}`);
}

/**
 * Pods of one given text: Pods and Lists of Pods; anything else is a problem per item. `count`
 * is shared by the texts of one invocation: past MAX_MANIFEST_OBJECTS the run is refused (thrown).
 */
export function parseGivenPods(
  text: string,
  label: string,
  count: ObjectCount = { objects: 0 },
): { pods: GivenPod[]; problems: string[] } {
  const { docs, problem } = documents(text, label, count);
  if (problem) return { pods: [], problems: [problem] };
  const pods: GivenPod[] = [];
  const problems: string[] = [];
  const take = (
    v: unknown,
    where: string,
    prefix: string,
    from: string,
    document: number,
    segments: FieldPath = [],
  ): void => {
    const at = (p: string): string => (prefix ? `${prefix}.${p}` : p);
    if (!isObj(v)) return void problems.push(`${where}: ${prefix ? `${prefix}: ` : ''}not a Kubernetes object`);
    const kind = kindOf(v);
    if (kind !== 'Pod') {
      const name = isObj(v.metadata) ? String(v.metadata.name ?? '') : '';
      return void problems.push(
        `${where}: ${prefix ? `${prefix}: ` : ''}${kind || 'an object without kind'}${name ? `/${name}` : ''} is not a Pod; a node runs pods only`,
      );
    }
    const pod = toPod(v, where, { metadata: at('metadata'), spec: at('spec') }, segments);
    if (typeof pod === 'string') return void problems.push(pod);
    const phase = isObj(v.status) && typeof v.status.phase === 'string' ? v.status.phase : '';
    pods.push({
      pod,
      phase,
      source: { kind: 'manifest', file: label, document, from: `${from}Pod/${pod.metadata?.name ?? ''}` },
    });
  };
  docs.forEach((doc, i) => {
    const where = `${label}: document ${i + 1}`;
    if (isObj(doc) && (kindOf(doc) === 'List' || kindOf(doc) === 'PodList')) {
      if (!Array.isArray(doc.items)) return void problems.push(`${where}: items: must be a list`);
      doc.items.forEach((item, j) =>
        take(
          kindOf(doc) === 'PodList' && isObj(item) && !item.kind ? { ...item, kind: 'Pod' } : item,
          where,
          `items[${j}]`,
          `List item ${j + 1}: `,
          i + 1,
          ['items', j],
        ),
      );
      return;
    }
    take(doc, where, '', '', i + 1);
  });
  return { pods, problems };
}

/**
 * The first field of a static pod file's spec that its mirror pod shows otherwise, or undefined.
 * Kubelet's uid for a file without one hashes the whole pod: once the file changed, kubelet gives it a
 * new uid when it reads it again, and the mirror pod, made from the old file, names the old uid. Both
 * specs get the API defaults; every field the file sets must have the same value in the mirror pod,
 * which may carry more (its release's defaults and admission changes, spec.nodeName, the toleration
 * kubelet adds). A field removed from the file is not seen.
 */
export function staleMirrorField(mirror: Pod, file: Pod): string | undefined {
  const m = applyPodDefaults({ ...mirror, metadata: {} }).spec as unknown;
  const f = applyPodDefaults({ ...file, metadata: {} }).spec as unknown;
  const empty = (v: unknown): boolean =>
    (Array.isArray(v) && v.length === 0) || (isObj(v) && Object.keys(v).length === 0);
  const walk = (fv: unknown, mv: unknown, at: string): string | undefined => {
    if (Array.isArray(fv)) {
      if (!Array.isArray(mv) || mv.length !== fv.length) return at;
      for (let i = 0; i < fv.length; i++) {
        const d = walk(fv[i], mv[i], `${at}[${i}]`);
        if (d) return d;
      }
      return undefined;
    }
    if (isObj(fv)) {
      if (!isObj(mv)) return empty(fv) && mv === undefined ? undefined : at;
      for (const [k, v] of Object.entries(fv)) {
        if (at === 'spec' && (k === 'nodeName' || k === 'tolerations')) continue;
        if (v === undefined || (empty(v) && mv[k] === undefined)) continue;
        const d = walk(v, mv[k], `${at}.${k}`);
        if (d) return d;
      }
      return undefined;
    }
    return fv === mv ? undefined : at;
  };
  return walk(f, m, 'spec');
}

/** One static pod file as kubelet's file source decodes it: exactly one Pod with a name. */
export function parseStaticPodFile(text: string, path: string): Pod | string {
  let parsed: { docs: unknown[]; problem?: string };
  try {
    // Each file is kubelet's own input: too many documents in one is that file's problem, not the run's.
    parsed = documents(text, path, { objects: 0 });
  } catch (err) {
    if (err instanceof SyncpodError) return err.message;
    throw err;
  }
  const { docs, problem } = parsed;
  if (problem) return problem;
  if (docs.length === 0) return `${path}: empty file: a static pod manifest holds one Pod`;
  const doc = docs[0];
  if (!isObj(doc))
    return `${path}: not a Kubernetes object (${Array.isArray(doc) ? 'a list' : typeof doc === 'string' ? 'text' : `a ${typeof doc}`}): kubelet's file source accepts one Pod per file`;
  if (kindOf(doc) !== 'Pod')
    return `${path}: ${kindOf(doc) || 'an object without kind'} is not a Pod: kubelet's file source accepts one Pod per file`;
  if (doc.apiVersion !== 'v1')
    return `${path}: apiVersion ${JSON.stringify(doc.apiVersion ?? '')} is not v1: kubelet's file source decodes core/v1 Pods`;
  if (!isObj(doc.metadata) || !doc.metadata.name) return `${path}: invalid pod: name is needed for the pod`;
  if (docs.length > 1) return `${path}: ${docs.length} documents: kubelet's file source accepts one Pod per file`;
  return toPod(doc, path, { metadata: 'metadata', spec: 'spec' });
}

/** Everything the node should run, with one problem line per bad input. */
export async function loadNodeInputs(req: NodeInputRequest, deps: NodeInputDeps): Promise<NodeInputs> {
  const problems: string[] = [];
  const notes: string[] = [];
  const knownUids = new Set<string>();
  const given: GivenPod[] = [];
  // One bound for all given texts (yaml-size.ts), as sync and plan have: refused before the runtime is asked.
  const count: ObjectCount = { objects: 0 };
  let bytes = 0;
  for (const file of req.files) {
    let text: string;
    const label = file === '-' ? '<stdin>' : file;
    try {
      text = file === '-' ? await deps.readStdin() : deps.readFile(file);
    } catch (err) {
      // The reader's own refusals (not UTF-8, too large) already name the input.
      problems.push(err instanceof SyncpodError ? err.message : `${label}: cannot read: ${errorLine(err)}`);
      continue;
    }
    // The reader takes any input file up to its general limit; a given pod file has the manifest one
    // (JSON is read without the YAML parser, which would have said so).
    bytes += text.length;
    const over = textTooLong(text.length) ?? inputsTooLong(bytes);
    if (over) throw new SyncpodError(`${label}: ${over}`);
    const r = parseGivenPods(text, label, count);
    given.push(...r.pods);
    problems.push(...r.problems);
  }

  // Kubelet's own uid of each static pod, by namespace/name: mirror pods first, then the Pods API.
  const knownStatic = new Map<string, { uid: string; from: 'mirror-pod' | 'pods-api' }>();
  const mirrors = new Map<string, Pod>();
  for (const p of req.podsApi ?? []) {
    knownUids.add(p.uid);
    if (p.configSource && p.configSource !== 'api')
      knownStatic.set(key(p.namespace, p.name), { uid: p.uid, from: 'pods-api' });
  }
  const desired: DesiredPod[] = [];
  for (const g of given) {
    const m = g.pod.metadata!;
    if (isMirrorPod(g.pod)) {
      const uid = m.annotations![ANNOTATION_CONFIG_MIRROR];
      if (uid) {
        knownStatic.set(key(m.namespace, m.name), { uid, from: 'mirror-pod' });
        mirrors.set(key(m.namespace, m.name), g.pod);
      }
      notes.push(
        `${g.source.file}: ${g.source.from} is a mirror pod: kubelet runs its static pod (uid ${uid}), not the API object`,
      );
      continue;
    }
    if (m.uid) knownUids.add(m.uid);
    if (g.pod.spec?.nodeName && g.pod.spec.nodeName !== req.nodeName) {
      notes.push(
        `${g.source.file}: ${g.source.from} is bound to node ${g.pod.spec.nodeName}, not ${req.nodeName}: not planned`,
      );
      continue;
    }
    if (g.phase === 'Succeeded' || g.phase === 'Failed') {
      notes.push(`${g.source.file}: ${g.source.from} has finished (${g.phase}): kubelet does not run it again`);
      continue;
    }
    desired.push({ pod: g.pod, source: g.source });
  }

  if (req.staticPodPath) {
    const dir = req.staticPodPath.replace(/\/+$/, '') || '/';
    const entries = deps.readDir(dir);
    if (entries === undefined) {
      problems.push(
        `staticPodPath ${dir}: no such directory (kubelet ignores a missing path and runs no static pods from it)`,
      );
    } else {
      const { files, skipped } = staticPodFiles(entries);
      for (const s of skipped) notes.push(`${dir}/${s.name}: ${s.why}`);
      for (const name of files) {
        const path = `${dir === '/' ? '' : dir}/${name}`;
        let text: string;
        try {
          text = (deps.readNodeFile ?? deps.readFile)(path);
        } catch (err) {
          problems.push(`${path}: cannot read: ${errorLine(err)}`);
          continue;
        }
        const parsed = parseStaticPodFile(text, path);
        if (typeof parsed === 'string') {
          problems.push(parsed);
          continue;
        }
        const generated = generatePodName(parsed.metadata?.name ?? '', req.nodeName);
        let known = knownStatic.get(key(parsed.metadata?.namespace, generated));
        const mirror = mirrors.get(key(parsed.metadata?.namespace, generated));
        if (known?.from === 'mirror-pod' && mirror && !parsed.metadata?.uid) {
          const differs = staleMirrorField(mirror, parsed);
          if (differs) {
            notes.push(
              `${path}: the mirror pod ${key(parsed.metadata?.namespace, generated)} (uid ${known.uid}) shows an older version of this file (${differs} differs): kubelet gives the file a new uid when it reads it again; planned with syncpod's own uid`,
            );
            known = undefined;
          }
        }
        const { pod, uidSource } = applyStaticPodDefaults(parsed, {
          nodeName: req.nodeName,
          source: path,
          knownUID: known,
        });
        desired.push({ pod, source: { kind: 'static-pod', file: path, uidSource } });
      }
    }
  }
  if (req.podsApi) {
    const planned = new Set(desired.map((d) => d.pod.metadata?.uid));
    const missing = req.podsApi.filter((p) => !planned.has(p.uid) && p.phase !== 'Succeeded' && p.phase !== 'Failed');
    for (const p of missing)
      notes.push(
        `${req.podsApiSocket ?? 'Pods API'}: pod ${p.namespace}/${p.name} (uid ${p.uid}) is known to kubelet but its spec was not given: not planned, not an orphan`,
      );
  }

  // One plan per pod: a second pod of the same namespace/name is a problem (kubelet's pod manager keys by it).
  const seen = new Map<string, DesiredPod>();
  const unique: DesiredPod[] = [];
  for (const d of desired) {
    const k = key(d.pod.metadata?.namespace, d.pod.metadata?.name);
    const first = seen.get(k);
    if (first) {
      problems.push(`${d.source.file}: pod ${k} is also in ${first.source.file}; planned once, from the first`);
      continue;
    }
    seen.set(k, d);
    unique.push(d);
  }
  return { desired: unique, knownUids, problems, notes };
}
