// `pods -v`, `ps -v` and `images -v`: crictl's blocks of "Key: value" lines, one blank line after each.
import type { Container, Image, PodSandbox } from '../cri/types';
import { formatRFC3339Nano, humanDuration, parseNs, type Zone } from './text';

/** A map the runtime sent with no entries decodes to nil in Go, and crictl skips it. */
function mapBlock(title: string, m: Record<string, string>): string {
  if (Object.keys(m).length === 0) return '';
  return (
    `${title}:\n` +
    Object.keys(m)
      .sort()
      .map((k) => `\t${k} -> ${m[k]}\n`)
      .join('')
  );
}

/** Go's %v of a time.Time (2006-01-02 15:04:05.999999999 -0700 MST; UTC when the offset is 0). */
export function goTimeString(ns: bigint, zone: Zone): string {
  const rfc = formatRFC3339Nano(ns, zone);
  const m = /^(\d{4}-\d{2}-\d{2})T([\d:.]+)(Z|[+-]\d{2}:\d{2})$/.exec(rfc);
  if (!m) return rfc;
  if (m[3] === 'Z') return `${m[1]} ${m[2]} +0000 UTC`;
  const off = m[3]!.replace(':', '');
  return `${m[1]} ${m[2]} ${off} ${off}`;
}

const POD_STATE: Record<string, string> = { SANDBOX_READY: 'Ready', SANDBOX_NOTREADY: 'NotReady' };
const CONTAINER_STATE: Record<string, string> = {
  CONTAINER_CREATED: 'Created',
  CONTAINER_RUNNING: 'Running',
  CONTAINER_EXITED: 'Exited',
  CONTAINER_UNKNOWN: 'Unknown',
};

export function formatPodsVerbose(pods: readonly PodSandbox[], zone: Zone): string {
  let out = '';
  for (const p of pods) {
    out += `ID: ${p.id}\n`;
    if (p.metadata) {
      if (p.metadata.name) out += `Name: ${p.metadata.name}\n`;
      if (p.metadata.uid) out += `UID: ${p.metadata.uid}\n`;
      if (p.metadata.namespace) out += `Namespace: ${p.metadata.namespace}\n`;
      if (p.metadata.attempt) out += `Attempt: ${p.metadata.attempt}\n`;
    }
    out += `Status: ${POD_STATE[p.state] ?? 'Unknown'}\n`;
    out += `Created: ${goTimeString(parseNs(p.createdAt), zone)}\n`;
    out += mapBlock('Labels', p.labels) + mapBlock('Annotations', p.annotations);
    out += `Runtime: ${p.runtimeHandler || '(default)'}\n\n`;
  }
  return out;
}

export function formatContainersVerbose(containers: readonly Container[], nowNs: bigint): string {
  let out = '';
  for (const c of containers) {
    // crictl 1.37 names the pod's namespace (from the label; "unknown" without it).
    out += `ID: ${c.id}\nPodID: ${c.podSandboxId}\nNamespace: ${c.labels['io.kubernetes.pod.namespace'] ?? 'unknown'}\n`;
    if (c.metadata) {
      if (c.metadata.name) out += `Name: ${c.metadata.name}\n`;
      out += `Attempt: ${c.metadata.attempt}\n`;
    }
    out += `State: ${CONTAINER_STATE[c.state] ?? 'Unknown'}\n`;
    if (c.image) out += `Image: ${c.image.image}\n`;
    out += `Created: ${humanDuration(nowNs - parseNs(c.createdAt))} ago\n`;
    out += mapBlock('Labels', c.labels) + mapBlock('Annotations', c.annotations) + '\n';
  }
  return out;
}

export function formatImagesVerbose(images: readonly Image[]): string {
  let out = '';
  for (const i of images) {
    out += `ID: ${i.id}\n`;
    for (const t of i.repoTags) out += `RepoTags: ${t}\n`;
    for (const d of i.repoDigests) out += `RepoDigests: ${d}\n`;
    if (i.size !== '0' && i.size !== '') out += `Size: ${i.size}\n`;
    // crictl prints the Int64Value wrapper with Go's %v of the generated message: since crictl 1.31
    // (protobuf-go) its one-line text format, "value:N", and nothing for 0 (the default is left out).
    // protobuf-go may add one space after the colon in some builds (its detrand, keyed on the binary);
    // crictl 1.37 as built here prints none.
    if (i.uid) out += `Uid: ${i.uid.value === '0' || i.uid.value === '' ? '' : `value:${i.uid.value}`}\n`;
    if (i.username) out += `Username: ${i.username}\n`;
    if (i.pinned) out += 'Pinned: true\n';
    out += '\n';
  }
  return out;
}
