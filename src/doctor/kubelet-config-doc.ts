// The KubeletConfiguration the running kubelet merged (its --config file, then each drop-in as a
// JSON merge patch), read through the doctor's node view, for the settings the node profile does
// not carry (eviction thresholds, image GC, swap). Read once per run.
import { mergePatch, parseConfigDocument, type ConfigDocument } from '../node/kubelet-config';
import type { Json } from '../cni/types';
import type { DoctorEnv } from './types';

export interface MergedKubeletConfig {
  /** Undefined when no kubelet (or no --config) was found: kubelet's defaults apply. */
  doc?: ConfigDocument;
  /** The files merged, for evidence. */
  files: string[];
}

const cache = new WeakMap<DoctorEnv, Promise<MergedKubeletConfig>>();

export function mergedKubeletConfig(env: DoctorEnv): Promise<MergedKubeletConfig> {
  let p = cache.get(env);
  if (!p) cache.set(env, (p = read(env)));
  return p;
}

async function read(env: DoctorEnv): Promise<MergedKubeletConfig> {
  const k = env.profile.kubelet;
  const paths = [...(k?.configFile ? [k.configFile] : []), ...(k?.dropIns ?? [])];
  if (paths.length === 0) return { files: [] };
  const { parse } = await import('yaml');
  let merged: Json | undefined;
  for (const path of paths) {
    const doc = parseConfigDocument({ path, text: await env.readNodeFile(path) }, (t) => parse(t));
    merged = merged === undefined ? doc : mergePatch(merged, doc);
  }
  return { doc: merged as ConfigDocument, files: paths };
}
