// Text -> pods: YAML/JSON documents read as kubectl reads them, the kinds that carry a pod (Pods,
// workload templates, Lists of them) checked against the API schema and turned into the pod their
// controller would create, API-server defaults, validation. Documents of other kinds are skipped
// and recorded. Pure (the text is given; load.ts reads files).

import type { Pod, PodStatus } from '../kubelet/api-types';
import { Composer, LineCounter, Parser, type CST, type Document } from 'yaml';
import { SyncpodError } from '../errors';
import { podFromWorkload, WORKLOAD_KINDS, type ControllerOptions } from './controllers';
import { applyPodDefaults } from './defaults';
import { formatPath, servedApiVersion, validateSchema, type FieldPath } from './schema';
import type { LoadedPod, PodSource, SkippedDocument } from './types';
import { validatePod, type PodPaths } from './validate';
import { DEFAULT_API_RULES, type ApiRules } from './api-rules';
import { dropDisabledFields } from './drop-disabled';
import { KUBECTL_YAML_OPTIONS, firstControlCharacter, firstDuplicateKey, templateLine, yamlProblem } from './yaml-read';
import { isObj, type Obj } from '../json-object';
import { expandedSizeProblem, sizeProblemLine, textTooLong, type ObjectCount } from './yaml-size';

/** More aliases than this in one document is refused (the "billion laughs" expansion). */
export const MAX_ALIAS_COUNT = 1000;

const POD_KINDS = ['Pod', ...WORKLOAD_KINDS];

/** YAML options for reading manifests as kubectl does (go-yaml v2 scalars; see yaml-read.ts). */
export const YAML_OPTIONS = KUBECTL_YAML_OPTIONS;

export interface ParsedText {
  pods: LoadedPod[];
  skipped: SkippedDocument[];
  /** Documents that held something (empty ones, e.g. after a trailing `---`, are not counted). */
  documents?: number;
}

export interface ParseOptions extends ControllerOptions {
  /**
   * The API server the manifests are read for (the planned kubelet's minor and gates): its schema,
   * the disabled fields it drops and its validation. Default: the newest mirrored minor, default gates.
   */
  api?: ApiRules;
  /** The objects the other texts of this invocation held (loadManifests shares one count): the bound is for all. */
  objectCount?: ObjectCount;
}

interface Candidate {
  pod: Pod;
  /** A Pod document's status (a `kubectl get pod -o yaml` dump), as read. */
  apiStatus?: PodStatus;
  from: string;
  paths: PodPaths;
  notes: string[];
  controller: PodSource['controller'];
}

/** Where each document's problems point: `file: document N` and a line/column finder. */
interface DocContext {
  where: string;
  position(path: FieldPath): string;
}

/**
 * The documents of a YAML or JSON text read as kubectl reads it, refused with one line naming the
 * text (and the document, line and column) when it holds control characters, is a Helm template
 * or has a syntax error anywhere: a broken file is reported as such before any document is used.
 */
function parseYamlDocuments(
  text: string,
  fileLabel: string,
  lineCounter?: LineCounter,
  count?: ObjectCount,
): Document[] {
  const control = firstControlCharacter(text);
  if (control) {
    throw new SyncpodError(
      `${fileLabel}: line ${control.line}, column ${control.column}: control character ${control.code} is not allowed in YAML or JSON text`,
    );
  }
  const tmpl = templateLine(text);
  if (tmpl !== undefined) {
    throw new SyncpodError(
      `${fileLabel}: line ${tmpl}: looks like a Helm/Go template: render it first (helm template …)`,
    );
  }
  const lines = lineCounter ?? new LineCounter();
  const list = yamlDocuments(text, fileLabel, lines, count);
  list.forEach((doc, i) => {
    const error = doc.errors[0];
    const where = list.length > 1 ? `${fileLabel}: document ${i + 1}` : fileLabel;
    if (error) {
      const pos = error.pos ? lines.linePos(error.pos[0]) : undefined;
      const message = yamlProblem(error.message);
      throw new SyncpodError(
        pos ? `${where}: line ${pos.line}, column ${pos.col}: ${message}` : `${where}: ${message}`,
      );
    }
    const dup = firstDuplicateKey(doc);
    if (dup !== undefined) {
      const pos = lines.linePos(dup);
      throw new SyncpodError(`${where}: line ${pos.line}, column ${pos.col}: Map keys must be unique`);
    }
  });
  return list;
}

/**
 * The documents of a YAML (or JSON) text, refused with one line naming the text (and document)
 * when the text is too long or an object would expand past its limit (yaml-size.ts): measured on
 * the parser's syntax tree, before the documents are composed or any value is built. Parse errors
 * are left in each document's `errors` (positions via `lines`).
 */
export function yamlDocuments(text: string, fileLabel: string, lines: LineCounter, count?: ObjectCount): Document[] {
  const tooLong = textTooLong(text.length);
  if (tooLong) throw new SyncpodError(`${fileLabel}: ${tooLong}`);
  // The parser yields a document's tokens when it ends: they are measured as they come, so a
  // bound is met after parsing that far, not the whole text. The iterator has no return(): a
  // measure that stops early leaves the parser where it was, to be read to the end (below).
  const parsing = new Parser(lines.addNewLine).parse(text);
  const tokens: CST.Token[] = [];
  const measuredTokens: Iterable<CST.Token> = {
    [Symbol.iterator]: () => ({
      next: () => {
        const r = parsing.next();
        if (!r.done) tokens.push(r.value);
        return r;
      },
    }),
  };
  let measured = true;
  try {
    const problem = expandedSizeProblem(measuredTokens, count);
    if (problem) throw new SyncpodError(`${fileLabel}: ${sizeProblemLine(problem)}`);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    measured = false; // nested past the stack: the composer names where (below)
  }
  for (let r = parsing.next(); !r.done; r = parsing.next()) tokens.push(r.value);
  const docs = Array.from(new Composer(KUBECTL_YAML_OPTIONS as never).compose(tokens)) as Document[];
  if (!measured && !docs.some((d) => d.errors.length > 0))
    throw new SyncpodError(`${fileLabel}: ${yamlProblem('Maximum call stack size exceeded')}`);
  return docs;
}

/** A document's value, aliases bounded ("billion laughs"). */
function documentValue(doc: Document, where: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    if (err instanceof ReferenceError && /alias/i.test(err.message)) {
      throw new SyncpodError(
        `${where}: YAML aliases expand too far (over ${MAX_ALIAS_COUNT} uses; a "billion laughs" document): refused`,
      );
    }
    throw new SyncpodError(`${where}: ${yamlProblem((err as Error).message)}`);
  }
}

/**
 * The values of the non-empty documents of a YAML or JSON text (a crictl config file, a manifest
 * before its kind is known), read and checked as parseManifest reads them.
 */
export function readYamlValues(text: string, fileLabel: string): unknown[] {
  const list = parseYamlDocuments(text, fileLabel);
  return list
    .map((doc, i) => documentValue(doc, list.length > 1 ? `${fileLabel}: document ${i + 1}` : fileLabel))
    .filter((v) => v !== null && v !== undefined);
}

/**
 * Every pod in a YAML or JSON text (one or many documents), defaulted and validated, and the
 * documents of other kinds that were skipped. `fileLabel` names the text in errors and sources
 * (`<stdin>` for standard input).
 */
export function parseManifest(text: string, fileLabel: string, options: ParseOptions = {}): ParsedText {
  const lineCounter = new LineCounter();
  const list = parseYamlDocuments(text, fileLabel, lineCounter, options.objectCount);
  const out: ParsedText = { pods: [], skipped: [] };
  list.forEach((doc, i) => {
    const documentIndex = i + 1;
    const where = `${fileLabel}: document ${documentIndex}`;
    const value = documentValue(doc, where);
    if (value !== null && value !== undefined) out.documents = (out.documents ?? 0) + 1;
    if (value === null || value === undefined) return; // an empty document (e.g. a trailing `---`)
    const ctx: DocContext = {
      where,
      position(path) {
        // The node at the path, or its nearest ancestor present in the document (a missing field).
        for (let n = path.length; n >= 0; n--) {
          const node = doc.getIn(path.slice(0, n), true) as { range?: [number, number, number] } | undefined;
          if (node?.range) {
            const { line, col } = lineCounter.linePos(node.range[0]);
            return ` (line ${line}, column ${col})`;
          }
        }
        return '';
      },
    };
    for (const cand of selectPods(value, ctx, [], out.skipped, fileLabel, documentIndex, options)) {
      const api = options.api ?? DEFAULT_API_RULES;
      const pod = applyPodDefaults(cand.pod);
      const dropped = dropDisabledFields(pod, api, cand.paths.spec);
      const problems = validatePod(pod, cand.paths, api);
      if (problems.length > 0) throw problemError(ctx, problems);
      const source: PodSource = {
        file: fileLabel,
        document: documentIndex,
        from: cand.from,
        specPath: cand.paths.spec,
        notes: [...cand.notes, ...dropped],
        controller: cand.controller,
        skipped: [],
      };
      out.pods.push({ pod, source, ...(cand.apiStatus ? { apiStatus: cand.apiStatus } : {}) });
    }
  });
  // Each pod's source names the documents of other kinds its file held.
  const skippedRefs = out.skipped.map((s) => s.ref);
  for (const p of out.pods) p.source.skipped = skippedRefs;
  return out;
}

/** The pods of a text (see parseManifest); documents of other kinds are skipped silently. */
export function parseManifestText(text: string, fileLabel: string, options: ParseOptions = {}): LoadedPod[] {
  return parseManifest(text, fileLabel, options).pods;
}

function problemError(ctx: DocContext, problems: Array<{ path: string | FieldPath; message: string }>): SyncpodError {
  const p = problems[0]!;
  const path = typeof p.path === 'string' ? p.path : formatPath(p.path);
  const position = typeof p.path === 'string' ? ctx.position(pathSegments(p.path)) : ctx.position(p.path);
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  return new SyncpodError(`${ctx.where}: ${path}: ${p.message}${more}${position}`);
}

/** `spec.containers[0].image` -> segments. */
function pathSegments(path: string): FieldPath {
  const out: FieldPath = [];
  for (const part of path.split('.')) {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) {
      out.push(part);
      continue;
    }
    if (m[1]) out.push(m[1]);
    for (const idx of m[2]!.matchAll(/\[(\d+)\]/g)) out.push(Number(idx[1]));
  }
  return out;
}

/** The pods a document (or a List item at `prefix`) stands for; other kinds go to `skipped`. */
function selectPods(
  value: unknown,
  ctx: DocContext,
  prefix: FieldPath,
  skipped: SkippedDocument[],
  file: string,
  document: number,
  options: ParseOptions,
  impliedKind?: string,
): Candidate[] {
  const at = (...p: FieldPath): FieldPath => [...prefix, ...p];
  const fail = (path: FieldPath, message: string): never => {
    throw new SyncpodError(
      `${ctx.where}: ${path.length ? `${formatPath(path)}: ` : ''}${message}${ctx.position(path)}`,
    );
  };
  if (!isObj(value)) fail(prefix, 'not a Kubernetes object (expected a mapping with apiVersion and kind)');
  const obj = value as Obj;
  const kind = obj.kind ?? impliedKind;
  if (kind === undefined || kind === null || kind === '') fail(at('kind'), 'required');
  if (typeof kind !== 'string') fail(at('kind'), 'must be a string');
  const k = kind as string;
  const apiVersion = obj.apiVersion ?? (impliedKind !== undefined ? undefined : null);
  if (apiVersion === null || apiVersion === '') fail(at('apiVersion'), 'required');
  if (apiVersion !== undefined && typeof apiVersion !== 'string') fail(at('apiVersion'), 'must be a string');
  const metadata = isObj(obj.metadata) ? obj.metadata : {};
  const name =
    typeof metadata.name === 'string'
      ? metadata.name
      : typeof metadata.generateName === 'string'
        ? `${metadata.generateName}*`
        : '';

  if (k === 'List' || (k.endsWith('List') && Array.isArray(obj.items))) {
    if (!Array.isArray(obj.items)) fail(at('items'), 'must be a list');
    const itemKind = k === 'List' ? undefined : k.slice(0, -'List'.length);
    return (obj.items as unknown[]).flatMap((item, i) =>
      selectPods(item, ctx, at('items', i), skipped, file, document, options, itemKind).map((c) => ({
        ...c,
        from: `List item ${i + 1}: ${c.from}`,
      })),
    );
  }

  if (!POD_KINDS.includes(k)) {
    // Services, ConfigMaps, RBAC, custom resources…: well-formed objects that carry no pod.
    skipped.push({
      file,
      document,
      ...(prefix.length ? { item: formatPath(prefix) } : {}),
      kind: k,
      name,
      ref: name === '' ? k : `${k}/${name}`,
    });
    return [];
  }
  const served = servedApiVersion(k)!;
  const version = (apiVersion as string | undefined) ?? served;
  if (version !== served)
    fail(at('apiVersion'), `no matches for kind "${k}" in version "${version}" (the API serves ${k} as ${served})`);
  const problems = validateSchema(k, obj, prefix, (options.api ?? DEFAULT_API_RULES).minor);
  if (problems.length > 0) throw problemError(ctx, problems);

  if (k === 'Pod') {
    const { status, ...pod } = obj;
    return [
      {
        pod: pod as Pod,
        ...(isObj(status) ? { apiStatus: status as PodStatus } : {}),
        from: `Pod/${name}`,
        paths: { metadata: formatPath(at('metadata')), spec: formatPath(at('spec')) },
        notes: [],
        controller: undefined,
      },
    ];
  }
  const made = podFromWorkload(k, obj, prefix, options, (path, message) => fail(path, message));
  return [{ ...made, paths: { metadata: formatPath(made.metadataPath), spec: formatPath(made.specPath) } }];
}
