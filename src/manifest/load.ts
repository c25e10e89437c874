// Reading manifests: files, directories (their .yaml/.yml/.json files, sorted, like kubectl -f)
// and `-` for standard input. The only file I/O of the manifest layer.

import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SyncpodError } from '../errors';
import { parseManifestText } from './parse';
import type { LoadedPod } from './types';

export const STDIN_LABEL = '<stdin>';
const MANIFEST_EXTENSIONS = ['.yaml', '.yml', '.json'];

/**
 * Every pod in the given files, in argument order, then document order. Fails on the first bad
 * document, when nothing was found, and when two documents describe the same namespace/name.
 */
export async function loadManifests(paths: string[], readStdin: () => Promise<string>): Promise<LoadedPod[]> {
  if (paths.length === 0) throw new SyncpodError('no manifest given (name a file, a directory or - for stdin)');
  const pods: LoadedPod[] = [];
  let stdinRead = false;
  for (const path of paths) {
    if (path === '-') {
      if (stdinRead) throw new SyncpodError('- (stdin) given more than once');
      stdinRead = true;
      pods.push(...parseNonEmpty(await readStdin(), STDIN_LABEL));
      continue;
    }
    for (const file of await expand(path)) pods.push(...parseNonEmpty(await read(file), file));
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

function parseNonEmpty(text: string, label: string): LoadedPod[] {
  const pods = parseManifestText(text, label);
  if (pods.length === 0) throw new SyncpodError(`${label}: no pod found (the input has no documents)`);
  return pods;
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

async function read(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw readError(file, err);
  }
}

function readError(file: string, err: unknown): SyncpodError {
  const code = (err as NodeJS.ErrnoException).code;
  const reason =
    code === 'ENOENT' ? 'no such file or directory' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
  return new SyncpodError(`${file}: cannot read: ${reason}`, { cause: err });
}
