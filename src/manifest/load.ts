// Reading manifests: files, directories (their .yaml/.yml/.json files, sorted, like kubectl -f)
// and `-` for standard input. The only file I/O of the manifest layer.

import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SyncpodError } from '../errors';
import { parseManifest, type ParseOptions, type ParsedText } from './parse';
import type { LoadedPod, SkippedDocument } from './types';
import { parseSelector } from './selector';
import { inputText } from '../utf8';
import { readInputFileSync } from '../read-input';
import { inputsTooLong, MANIFEST_LIMIT_WHY, MAX_MANIFEST_BYTES } from './yaml-size';

export const STDIN_LABEL = '<stdin>';
const MANIFEST_EXTENSIONS = ['.yaml', '.yml', '.json'];

export interface LoadOptions extends ParseOptions {
  /** `-l/--selector`: only pods whose labels match (kubectl's label selector syntax). */
  selector?: string;
}

/** `--ordinal N` as given on the command line (undefined when not given). */
export function parseOrdinalFlag(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) > 2147483647)
    throw new SyncpodError(`--ordinal: "${text}" is not a non-negative integer`);
  return Number(text);
}

/**
 * Every pod in the given files, in argument order, then document order. Fails on the first bad
 * document, when a named file or stdin holds no pod, when a directory holds none, and when two
 * documents describe the same namespace/name. Documents of kinds that carry no pod are skipped;
 * each pod's source lists those of its file, and `skippedDocuments` lists them all.
 */
export async function loadManifests(
  paths: string[],
  readStdin: () => Promise<string | Uint8Array>,
  options: LoadOptions = {},
): Promise<LoadedPod[]> {
  if (paths.length === 0) throw new SyncpodError('no manifest given (name a file, a directory or - for stdin)');
  const pods: LoadedPod[] = [];
  let stdinRead = false;
  // One budget for the whole invocation (yaml-size.ts): bytes of all texts, objects of all documents.
  const parseOptions: ParseOptions = { ...options, objectCount: { objects: 0 } };
  let bytes = 0;
  const counted = (text: string | Uint8Array, label: string): string | Uint8Array => {
    bytes += text.length;
    // A text over the limit by itself is refused by its own check (textTooLong), which says so.
    const over = text.length <= MAX_MANIFEST_BYTES ? inputsTooLong(bytes) : undefined;
    if (over) throw new SyncpodError(`${label}: ${over}`);
    return text;
  };
  for (const path of paths) {
    if (path === '-') {
      if (stdinRead) throw new SyncpodError('- (stdin) given more than once');
      stdinRead = true;
      pods.push(...withPods(parse(counted(await readStdin(), STDIN_LABEL), STDIN_LABEL, parseOptions), STDIN_LABEL));
      continue;
    }
    const files = await expand(path);
    if (files.length === 1 && files[0] === path) {
      pods.push(...withPods(parse(counted(await read(path), path), path, parseOptions), path));
      continue;
    }
    // A directory: a file of Services or ConfigMaps beside the workloads is fine; no pod at all is not.
    const found: LoadedPod[] = [];
    const skipped: SkippedDocument[] = [];
    let documents = 0;
    for (const file of files) {
      const parsed = parse(counted(await read(file), file), file, parseOptions);
      found.push(...parsed.pods);
      skipped.push(...parsed.skipped);
      documents += parsed.documents ?? 0;
    }
    // Every pod of the directory names what the directory's files skipped (files without pods too).
    const refs = skipped.map((s) => s.ref);
    for (const p of found) p.source.skipped = refs;
    pods.push(...withPods({ pods: found, skipped, documents }, path));
  }
  if (options.selector !== undefined) {
    const matches = parseSelector(options.selector);
    const selected = pods.filter((p) => matches(p.pod.metadata?.labels ?? {}));
    if (selected.length === 0)
      throw new SyncpodError(`no pod in ${paths.join(', ')} matches the selector "${options.selector}"`);
    pods.splice(0, pods.length, ...selected);
  }
  const seen = new Map<string, LoadedPod>();
  for (const p of pods) {
    const key = `${p.pod.metadata?.namespace}/${p.pod.metadata?.name}`;
    const first = seen.get(key);
    if (first) {
      throw new SyncpodError(
        `${p.source.file}: document ${p.source.document}: pod ${key} is also in ${first.source.file} document ${first.source.document}`,
      );
    }
    seen.set(key, p);
  }
  return pods;
}

/** The `Kind/name` of every skipped document, once each, in load order. */
export function skippedDocuments(pods: LoadedPod[]): string[] {
  // Pods of one input (a file, a directory, stdin) share one list.
  const lists = new Set(pods.map((p) => p.source.skipped));
  return [...lists].flat();
}

/** The one stderr note about skipped documents, or undefined when none were skipped. */
export function skippedNote(pods: LoadedPod[]): string | undefined {
  const refs = skippedDocuments(pods);
  if (refs.length === 0) return undefined;
  return `skipped ${refs.length} document${refs.length === 1 ? '' : 's'}: ${refs.join(', ')}`;
}

function parse(bytes: string | Uint8Array, label: string, options: ParseOptions): ParsedText {
  return parseManifest(inputText(bytes, label), label, options);
}

function withPods(parsed: ParsedText, label: string): LoadedPod[] {
  if (parsed.pods.length > 0) return parsed.pods;
  if (parsed.skipped.length === 0) {
    const what = parsed.documents ? 'its Lists have no items' : 'the input has no documents';
    throw new SyncpodError(`${label}: no pod found (${what})`);
  }
  const refs = parsed.skipped.map((s) => s.ref);
  throw new SyncpodError(`${label}: no pod found: no Pod, workload or List of them, only ${refs.join(', ')}`);
}

async function expand(path: string): Promise<string[]> {
  let isDir: boolean;
  try {
    isDir = (await stat(path)).isDirectory();
  } catch (err) {
    throw readError(path, err);
  }
  if (!isDir) return [path];
  const names = (await readdir(path)).filter((n) => MANIFEST_EXTENSIONS.some((e) => n.endsWith(e))).sort();
  if (names.length === 0) throw new SyncpodError(`${path}: no .yaml, .yml or .json files in this directory`);
  return names.map((n) => join(path, n));
}

async function read(file: string): Promise<Uint8Array> {
  try {
    return readInputFileSync(file, file, MAX_MANIFEST_BYTES, MANIFEST_LIMIT_WHY);
  } catch (err) {
    if (err instanceof SyncpodError) throw err;
    throw readError(file, err);
  }
}

function readError(file: string, err: unknown): SyncpodError {
  const code = (err as NodeJS.ErrnoException).code;
  const reason =
    code === 'ENOENT' ? 'no such file or directory' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
  return new SyncpodError(`${file}: cannot read: ${reason}`, { cause: err });
}
