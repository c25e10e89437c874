// What changed in a container, in words: the spec against what the runtime recorded when the running
// container was created (its CRI config, kubelet's annotations, the status' image and resources), field
// by field, old → new, and whether kubelet acts on it (restarts it for its hash, resizes it in place,
// starts it anyway) or keeps the old container running. Kubelet itself only compares a hash; this is
// the operator's view beside it. Pure.

import type { Container, Pod } from '../kubelet/api-types';
import { encodeLifecycleHandler } from '../kubelet/go-json';
import { formatHash, hashContainer, hashContainerLegacy } from '../kubelet/hash';
import { parseNormalizedImage, repositoryName } from '../kubelet/image-ref';
import type { KubeletRules } from '../kubelet/kubelet-version';
import type { PodActions } from '../kubelet/pod-actions';
import {
  isKubeletOwnMount,
  isServiceLinkEnv,
  portText,
  recordedPorts,
  specCpuMemory,
  specEnv,
} from '../kubelet/recorded-config';
import type { ContainerStatus } from '../kubelet/types';
import { milliCPUToShares } from '../kubelet/resources';
import { bytesQuantityText } from '../kubelet/quantity';

/** One field of a container, old → new. */
export interface FieldDifference {
  /** image, command, args, workingDir, env, ports, resources, volumeMounts, tty, stdin. */
  field: string;
  /** The field and its old and new value in words, e.g. "env MODE green → red". */
  text: string;
}

/** How kubelet treats a container's differences. */
export type DifferenceVerdict =
  | 'restarts' // killed and started again with the new spec
  | 'kills' // killed and not started again (restart policy)
  | 'starts' // not running; its next start uses the new spec
  | 'recreates-pod' // the whole pod starts again in a new sandbox
  | 'resizes' // CPU/memory updated in place
  | 'keeps-running'; // nothing happens: the running container keeps its old spec

export interface ContainerDifference {
  container: string;
  containerId: string;
  differences: FieldDifference[];
  verdict: DifferenceVerdict;
  /** Whether kubelet acts on these differences (false: they are ignored while the container runs). */
  applied: boolean;
  /** What kubelet does, in words, e.g. "kubelet restarts it (name+image hash)". */
  kubelet: string;
}

const clip = (s: string, n = 48): string => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);
const list = (xs: string[]): string => (xs.length === 0 ? '(none)' : clip(JSON.stringify(xs)));

/**
 * Two long texts, old and new, cut to where they differ (with a little context) so that the change
 * shows: `…sleep 1; done"] → …sleep 3; done"]`, not two identical-looking beginnings.
 */
export function changedParts(a: string, b: string, max = 48, context = 12): [string, string] {
  if (a.length <= max && b.length <= max) return [a, b];
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const cut = (t: string): string => {
    const from = Math.max(0, pre - context);
    const to = Math.min(t.length, t.length - suf + context);
    const mid = t.slice(from, to);
    const body = mid.length > max ? `${mid.slice(0, max - 1)}…` : mid;
    return `${from > 0 ? '…' : ''}${body}${to < t.length && !body.endsWith('…') ? '…' : ''}`;
  };
  return [cut(a), cut(b)];
}

const listChange = (was: string[], now: string[]): string => {
  if (was.length === 0 || now.length === 0) return `${list(was)} → ${list(now)}`;
  const [a, b] = changedParts(JSON.stringify(was), JSON.stringify(now));
  return `${a} → ${b}`;
};
const quoted = (v: string): string => (v === '' ? '""' : /\s/.test(v) ? JSON.stringify(clip(v, 40)) : clip(v, 40));

function fullImage(image: string): string | null {
  try {
    const r = parseNormalizedImage(image);
    const tag = r.tag === '' && r.digest === '' ? 'latest' : r.tag;
    return `${repositoryName(r)}${tag ? `:${tag}` : ''}${r.digest ? `@${r.digest}` : ''}`;
  } catch {
    return null;
  }
}

/** "busybox:1.36 → 1.37" when only the tag differs, else both names in full. */
function imageText(from: string, to: string): string {
  const a = from.split(/[:@]/)[0];
  const b = to.split(/[:@]/)[0];
  const tag = to.slice(b.length + 1);
  return a === b && to.includes(':') && !to.includes('@') ? `image ${from} → ${tag}` : `image ${from} → ${to}`;
}

function imageDifference(
  c: Container,
  s: ContainerStatus,
  rules: Pick<KubeletRules, 'hashScheme'>,
): FieldDifference | null {
  // Since 1.31 the hash covers name and image only: the same hash is the same image. The status'
  // image is not proof of the contrary: a runtime that keeps no user-specified image (containerd
  // 1.6) names the image by one of its tags, another tag of the same ID than the spec's maybe.
  if (rules.hashScheme === 'name+image' && s.hash !== '' && s.hash === formatHash(hashContainer(c))) return null;
  const old = s.recorded?.userImage || s.image;
  if (!old || old.startsWith('sha256:')) {
    if (rules.hashScheme !== 'name+image' || s.hash === '' || s.hash === formatHash(hashContainer(c))) return null;
    return { field: 'image', text: `image (the runtime does not say which) → ${c.image}` };
  }
  const same = fullImage(old) !== null && fullImage(old) === fullImage(c.image ?? '');
  if (same) {
    // The name+image hash differs with the same name and the same image as the runtime reports it:
    // the container was made from another tag of that image ID (the runtime names the image by one
    // of its tags), unless an older kubelet's whole-spec hash is what it carries.
    if (rules.hashScheme !== 'name+image' || s.hash === '' || s.hash === formatHash(hashContainerLegacy(c)))
      return null;
    return {
      field: 'image',
      text: `image → ${c.image} (it runs another tag of the same image ID, which the runtime reports as ${old})`,
    };
  }
  return { field: 'image', text: imageText(old, c.image ?? '') };
}

/**
 * lifecycle.preStop against kubelet's preStopHandler annotation (Go's JSON of the handler, the one
 * hook the runtime keeps). Compared as the JSON kubelet would write for the spec's handler.
 */
function preStopDifference(c: Container, was: string | undefined): FieldDifference | null {
  if (was === undefined) return null;
  let want = '';
  try {
    want = c.lifecycle?.preStop ? encodeLifecycleHandler(c.lifecycle.preStop) : '';
  } catch {
    return null; // a handler kubelet could not write either
  }
  if (want === was) return null;
  const [a, b] = changedParts(was || '(none)', want || '(none)');
  return { field: 'lifecycle', text: `lifecycle.preStop ${a} → ${b}` };
}

/** Which $(VAR)s of command/args come from a reference (their expansion is not shown). */
function usesReference(values: string[], c: Container): boolean {
  const refs = (c.env ?? []).filter((e) => e.valueFrom).map((e) => e.name);
  return values.some((v) => refs.some((r) => v.includes(`$(${r})`)));
}

function expandWith(values: string[], env: Map<string, string>): string[] {
  return values.map((v) => v.replace(/\$\(([^)]*)\)/g, (m, name: string) => env.get(name) ?? m));
}

function envDifferences(c: Container, s: ContainerStatus): FieldDifference[] {
  const recorded = s.recorded?.envs;
  if (!recorded) return [];
  const old = new Map(recorded.map((e) => [e.key, e.value]));
  const out: FieldDifference[] = [];
  const wanted = specEnv(c);
  const names = new Set(wanted.map((e) => e.key));
  for (const e of wanted) {
    const was = old.get(e.key);
    if (e.value === undefined) {
      if (was === undefined) out.push({ field: 'env', text: `env ${e.key} added (from a reference)` });
      continue;
    }
    if (was === undefined) out.push({ field: 'env', text: `env ${e.key} added (${quoted(e.value)})` });
    else if (was !== e.value) {
      const [a, b] = was.length > 40 || e.value.length > 40 ? changedParts(was, e.value, 40) : [was, e.value];
      out.push({ field: 'env', text: `env ${e.key} ${quoted(a)} → ${quoted(b)}` });
    }
  }
  if ((c.envFrom ?? []).length === 0) {
    for (const key of old.keys()) {
      if (!names.has(key) && !isServiceLinkEnv(key)) out.push({ field: 'env', text: `env ${key} removed` });
    }
  }
  return out;
}

const cpuText = (m: number | undefined): string =>
  m === undefined ? 'none' : m % 1000 === 0 ? String(m / 1000) : `${m}m`;
const bytesText = (b: number | undefined): string => (b === undefined ? 'none' : bytesQuantityText(b));

function resourceDifferences(c: Container, s: ContainerStatus): FieldDifference[] {
  const r = s.resources;
  if (!r) return [];
  const want = specCpuMemory(c);
  const out: FieldDifference[] = [];
  const oldLimit = r.cpuQuota > 0 && r.cpuPeriod > 0 ? Math.round((r.cpuQuota * 1000) / r.cpuPeriod) : undefined;
  if (
    oldLimit !== want.cpuLimit &&
    !(want.cpuLimit !== undefined && oldLimit !== undefined && Math.abs(oldLimit - want.cpuLimit) < 10)
  )
    out.push({ field: 'resources', text: `cpu limit ${cpuText(oldLimit)} → ${cpuText(want.cpuLimit)}` });
  const wantShares = milliCPUToShares(want.cpuRequest ?? 0);
  if (r.cpuShares > 0 && wantShares !== r.cpuShares) {
    const oldReq = r.cpuShares <= 2 ? undefined : Math.ceil((r.cpuShares * 1000) / 1024);
    out.push({ field: 'resources', text: `cpu request ${cpuText(oldReq)} → ${cpuText(want.cpuRequest)}` });
  }
  const oldMem = r.memoryLimitInBytes > 0 ? r.memoryLimitInBytes : undefined;
  if (oldMem !== want.memoryLimit)
    out.push({ field: 'resources', text: `memory limit ${bytesText(oldMem)} → ${bytesText(want.memoryLimit)}` });
  return out;
}

function mountDifferences(c: Container, s: ContainerStatus): FieldDifference[] {
  const recorded = s.recorded?.mounts;
  if (!recorded) return [];
  const text = (p: string, ro: boolean) => `${p}${ro ? ' (read-only)' : ''}`;
  const old = new Set(
    recorded.filter((m) => !isKubeletOwnMount(m.containerPath, c)).map((m) => text(m.containerPath, m.readonly)),
  );
  const want = new Set((c.volumeMounts ?? []).map((m) => text(m.mountPath, m.readOnly === true)));
  const added = [...want].filter((x) => !old.has(x)).sort();
  const removed = [...old].filter((x) => !want.has(x)).sort();
  const out: FieldDifference[] = [];
  if (added.length) out.push({ field: 'volumeMounts', text: `volumeMounts added ${added.join(', ')}` });
  if (removed.length) out.push({ field: 'volumeMounts', text: `volumeMounts removed ${removed.join(', ')}` });
  return out;
}

/** Every recorded field of the running container `s` that differs from the spec `c`. */
export function fieldDifferences(
  c: Container,
  s: ContainerStatus,
  rules: Pick<KubeletRules, 'hashScheme'>,
): FieldDifference[] {
  const out: FieldDifference[] = [];
  const image = imageDifference(c, s, rules);
  if (image) out.push(image);
  const rec = s.recorded;
  if (rec?.command && rec.args) {
    const env = new Map([...(rec.envs ?? []).map((e) => [e.key, e.value] as const)]);
    for (const e of specEnv(c)) if (e.value !== undefined) env.set(e.key, e.value);
    for (const [field, want, was] of [
      ['command', c.command ?? [], rec.command],
      ['args', c.args ?? [], rec.args],
    ] as const) {
      const expanded = expandWith(want, env);
      if (JSON.stringify(expanded) === JSON.stringify(was)) continue;
      out.push({
        field,
        text: usesReference(want, c)
          ? `${field} changed (not shown: it expands a variable from a reference)`
          : `${field} ${listChange(was, expanded)}`,
      });
    }
  }
  if (rec?.workingDir !== undefined && rec.workingDir !== (c.workingDir ?? ''))
    out.push({ field: 'workingDir', text: `workingDir ${quoted(rec.workingDir)} → ${quoted(c.workingDir ?? '')}` });
  out.push(...envDifferences(c, s));
  if (rec?.portsAnnotation !== undefined) {
    const was = recordedPorts(rec.portsAnnotation);
    const want = (c.ports ?? []).map(portText);
    if (was && JSON.stringify([...was].sort()) !== JSON.stringify([...want].sort()))
      out.push({ field: 'ports', text: `ports ${was.join(', ') || '(none)'} → ${want.join(', ') || '(none)'}` });
  }
  const preStop = preStopDifference(c, rec?.preStopAnnotation);
  if (preStop) out.push(preStop);
  out.push(...resourceDifferences(c, s));
  out.push(...mountDifferences(c, s));
  for (const f of ['tty', 'stdin'] as const) {
    const was = rec?.[f];
    if (was !== undefined && was !== (c[f] === true)) out.push({ field: f, text: `${f} ${was} → ${c[f] === true}` });
  }
  return out;
}

const KILL_WHY: Record<PodActions['containersToKill'][number]['why'], string> = {
  'definition-changed': 'definition changed',
  'liveness-probe-failed': 'liveness probe failed',
  'startup-probe-failed': 'startup probe failed',
  'unknown-state': 'its state is unknown',
  'resize-restart': 'resizePolicy RestartContainer',
};

const SINCE_131 = 'only name and image count since 1.31';

/**
 * The differences of each running container of the pod, with kubelet's verdict on them, in spec
 * order (init containers first). `version` is the kubelet version the plan mirrors.
 */
export function containerDifferences(
  pod: Pod,
  statuses: ContainerStatus[],
  actions: PodActions,
  rules: Pick<KubeletRules, 'hashScheme' | 'version'>,
): ContainerDifference[] {
  const spec = pod.spec;
  const all = [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])];
  const scheme = rules.hashScheme === 'name+image' ? 'name+image hash' : 'whole-container hash';
  const out: ContainerDifference[] = [];
  for (const c of all) {
    const s = statuses.find((x) => x.name === c.name);
    if (s?.state !== 'running') continue;
    const diffs = fieldDifferences(c, s, rules);
    const kill = actions.containersToKill.find((k) => k.containerId === s.id);
    const started =
      actions.containerStarts.some((d) => d.name === c.name) ||
      actions.initContainerStarts.some((d) => d.name === c.name) ||
      actions.nextInitContainerToStart === c.name;
    if (diffs.length === 0) {
      // The hash says changed but no recorded field differs: a field the runtime does not keep.
      if (kill?.why === 'definition-changed' && rules.hashScheme === 'whole-spec')
        diffs.push({
          field: 'unrecorded',
          text: 'a field the runtime does not record (probes, lifecycle, securityContext, …)',
        });
      else continue;
    }
    const base = { container: c.name, containerId: s.id, differences: diffs };
    if (actions.killPod) {
      out.push({
        ...base,
        verdict: 'recreates-pod',
        applied: true,
        kubelet: 'kubelet recreates the pod, so it starts anew',
      });
    } else if (kill) {
      const why = kill.why === 'definition-changed' ? scheme : KILL_WHY[kill.why];
      out.push(
        started
          ? { ...base, verdict: 'restarts', applied: true, kubelet: `kubelet restarts it (${why})` }
          : {
              ...base,
              verdict: 'kills',
              applied: true,
              kubelet: `kubelet kills it (${why}) and does not start it again`,
            },
      );
    } else if (started) {
      out.push({ ...base, verdict: 'starts', applied: true, kubelet: 'applied when kubelet starts it again' });
    } else {
      const update = actions.containersToUpdate.find((u) => u.containerId === s.id);
      const resized = update ? diffs.filter((d) => d.field === 'resources') : [];
      if (resized.length)
        out.push({
          ...base,
          differences: resized,
          verdict: 'resizes',
          applied: true,
          kubelet: 'kubelet resizes it in place',
        });
      const rest = diffs.filter((d) => !resized.includes(d));
      if (rest.length)
        out.push({
          ...base,
          differences: rest,
          verdict: 'keeps-running',
          applied: false,
          kubelet:
            rules.hashScheme === 'name+image'
              ? `kubelet ${rules.version} keeps the container running (${SINCE_131}); delete the pod to apply`
              : `kubelet ${rules.version} keeps the container running (its hash matches); delete the pod to apply`,
        });
    }
  }
  return out;
}

/** One line for a container's differences: "app: image busybox:1.36 → 1.37: kubelet restarts it (name+image hash)". */
export function differenceLine(d: ContainerDifference): string {
  return `${d.container}: ${d.differences.map((x) => x.text).join('; ')}: ${d.kubelet}`;
}
