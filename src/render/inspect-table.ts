// `inspect`, `inspectp` and `inspecti` with `-o table`: crictl's "Key: value" lines per object.
import type { ContainerStatusResponse, ImageStatusResponse, PodSandboxStatusResponse } from '../cri/types';
import { SyncpodError } from '../errors';
import { humanDuration, humanSize, parseNs } from './text';

function mapLines(title: string, m: Record<string, string> | undefined): string {
  if (!m || Object.keys(m).length === 0) return ''; // empty decodes to nil in Go: crictl skips it
  const keys = Object.keys(m).sort();
  return `${title}:\n` + keys.map((k) => `\t${k} -> ${m[k]}\n`).join('');
}

/** Go's %v of a map[string]string: map[k:v k2:v2] with sorted keys. */
function goMap(m: Record<string, string> | undefined): string {
  const o = m ?? {};
  return `map[${Object.keys(o)
    .sort()
    .map((k) => `${k}:${o[k]}`)
    .join(' ')}]`;
}

const ago = (atNs: string, nowNs: bigint) => `${humanDuration(nowNs - parseNs(atNs))} ago`;

export function formatContainerStatusTable(
  responses: readonly ContainerStatusResponse[],
  opts: { nowNs: bigint; verbose: boolean },
): string {
  let out = '';
  for (const r of responses) {
    const s = r.status;
    if (!s) continue;
    out += `ID: ${s.id}\n`;
    if (s.metadata?.name) out += `Name: ${s.metadata.name}\n`;
    if (s.metadata?.attempt) out += `Attempt: ${s.metadata.attempt}\n`;
    out += `State: ${s.state}\n`;
    out += `Created: ${ago(s.createdAt, opts.nowNs)}\n`;
    if (s.state !== 'CONTAINER_CREATED') out += `Started: ${ago(s.startedAt, opts.nowNs)}\n`;
    if (s.state === 'CONTAINER_EXITED') {
      if (parseNs(s.finishedAt) > 0n) out += `Finished: ${ago(s.finishedAt, opts.nowNs)}\n`;
      out += `Exit Code: ${s.exitCode}\n`;
    }
    out += mapLines('Labels', s.labels) + mapLines('Annotations', s.annotations);
    if (opts.verbose) out += `Info: ${goMap(r.info)}\n`;
  }
  return out;
}

export function formatPodStatusTable(
  responses: readonly PodSandboxStatusResponse[],
  opts: { nowNs: bigint; verbose: boolean },
): string {
  let out = '';
  for (const r of responses) {
    const s = r.status;
    if (!s) continue;
    out += `ID: ${s.id}\n`;
    if (s.metadata) {
      if (s.metadata.name) out += `Name: ${s.metadata.name}\n`;
      if (s.metadata.uid) out += `UID: ${s.metadata.uid}\n`;
      if (s.metadata.namespace) out += `Namespace: ${s.metadata.namespace}\n`;
      out += `Attempt: ${s.metadata.attempt}\n`;
    }
    out += `Status: ${s.state}\n`;
    // crictl 1.37 says how long ago (1.26 printed Go's time.Time).
    out += `Created: ${ago(s.createdAt, opts.nowNs)}\n`;
    if (s.network) {
      out += `IP Addresses: ${s.network.ip}\n`;
      for (const ip of s.network.additionalIps) out += `Additional IP: ${ip.ip}\n`;
    }
    out += mapLines('Labels', s.labels) + mapLines('Annotations', s.annotations);
    if (opts.verbose) out += `Info: ${goMap(r.info)}\n`;
  }
  return out;
}

export function formatImageStatusTable(
  responses: readonly ImageStatusResponse[],
  refs: readonly string[],
  opts: { verbose: boolean },
): string {
  let out = '';
  responses.forEach((r, i) => {
    const image = r.image;
    if (!image) throw new SyncpodError(`no such image ${JSON.stringify(refs[i] ?? '')} present`);
    out += `ID: ${image.id}\n`;
    for (const tag of image.repoTags) out += `Tag: ${tag}\n`;
    for (const digest of image.repoDigests) out += `Digest: ${digest}\n`;
    out += `Size: ${humanSize(Number(image.size || '0'), 3)}\n`;
    if (opts.verbose) out += `Info: ${goMap(r.info)}\n`;
  });
  return out;
}
