// crictl's list filters (crictl cmd/crictl sandbox.go, container.go, image.go as of cri-tools 1.3x):
// what goes to the runtime as a CRI filter, and what is applied here afterwards, in crictl's order.
//
//   pods:   CRI  id, state, labelSelector      client  name/namespace regex, newest first, --latest/--last
//   ps:     CRI  id, podSandboxId, state (RUNNING unless -a/--state; none with --latest/--last),
//                labelSelector
//           client  --image (same image id), name regex, namespace regex on the pod-namespace label,
//                   newest first, --latest/--last
//   images: CRI  image ref (positional REPOSITORY[:TAG]); client  sort, --filter conditions
//
// Pure: image ids for --image are resolved by the caller (ImageStatus) and passed in.

import { SyncpodError } from '../errors';
import type {
  Container,
  ContainerFilter,
  ContainerState,
  Image,
  ImageFilter,
  PodSandbox,
  PodSandboxFilter,
  PodSandboxState,
} from '../cri/types';
import { compareInt64Strings } from '../cri/int64';

/** The pod-namespace label kubelet puts on containers (crictl shows "unknown" without it). */
export const POD_NAMESPACE_LABEL = 'io.kubernetes.pod.namespace';
export const POD_NAME_LABEL = 'io.kubernetes.pod.name';

/** `--label k=v` values into a selector; exactly one "=" per value, as crictl requires. */
export function parseLabelSelector(values: readonly string[] | undefined): Record<string, string> {
  const selector: Record<string, string> = {};
  for (const value of values ?? []) {
    const parts = value.split('=');
    if (parts.length !== 2) throw new SyncpodError(`incorrectly specified label: ${value}`);
    selector[parts[0]] = parts[1];
  }
  return selector;
}

/**
 * Compiles a Go (RE2) pattern for name/namespace matching: unanchored search; a leading
 * `(?flags)` group with i, m or s becomes the JavaScript flag. Empty pattern: match everything.
 */
export function compileNameRegex(pattern: string | undefined): RegExp | undefined {
  if (pattern === undefined || pattern === '') return undefined;
  let source = pattern;
  let flags = '';
  const inline = /^\(\?([ims]+)\)/.exec(source);
  if (inline) {
    flags = [...new Set(inline[1])].join('');
    source = source.slice(inline[0].length);
  }
  try {
    return new RegExp(source, flags);
  } catch (err) {
    const reason = err instanceof Error ? err.message.replace(/^Invalid regular expression: /, '') : String(err);
    throw new SyncpodError(`invalid regular expression ${JSON.stringify(pattern)}: ${reason}`);
  }
}

const matches = (re: RegExp | undefined, text: string): boolean => re === undefined || re.test(text);

/** How many of `total` items crictl keeps: 1 with --latest, N with --last N (N > 0 wins). */
export function truncateCount(total: number, latest: boolean | undefined, last: number | undefined): number {
  let n = total;
  if (latest) n = 1;
  if (last !== undefined && last > 0) n = last;
  return Math.min(n, total);
}

function compareNewestFirst(a: { createdAt: string }, b: { createdAt: string }): number {
  return compareInt64Strings(b.createdAt, a.createdAt);
}

// ---- pods ----------------------------------------------------------------------------------------

export interface PodListFlags {
  /** --id: sent to the runtime; runtimes resolve a prefix. */
  id?: string;
  /** --name: regular expression on the pod name. */
  name?: string;
  /** --namespace: regular expression on the pod namespace. */
  namespace?: string;
  /** --state / -s: ready or notready (any case). */
  state?: string;
  /** --label k=v, repeatable. */
  labels?: readonly string[];
  /** --latest / -l. */
  latest?: boolean;
  /** --last / -n (0 = unlimited). */
  last?: number;
}

export function parsePodState(state: string): PodSandboxState {
  switch (state.toLowerCase()) {
    case 'ready':
      return 'SANDBOX_READY';
    case 'notready':
      return 'SANDBOX_NOTREADY';
    default:
      throw new SyncpodError('--state should be ready or notready');
  }
}

/** The ListPodSandbox filter crictl sends for these flags. */
export function podSandboxFilter(flags: PodListFlags): PodSandboxFilter {
  const filter: PodSandboxFilter = { id: flags.id ?? '', labelSelector: parseLabelSelector(flags.labels) };
  if (flags.state) filter.state = { state: parsePodState(flags.state) };
  return filter;
}

/**
 * What crictl does with the runtime's answer: name/namespace regex, newest first, then
 * --latest/--last. Also re-checks id prefix, state and labels, so a runtime that ignores a filter
 * gives the same result (a no-op for runtimes that honour it). Pods without metadata are dropped.
 */
export function filterPods(pods: readonly PodSandbox[], flags: PodListFlags): PodSandbox[] {
  const nameRe = compileNameRegex(flags.name);
  const nsRe = compileNameRegex(flags.namespace);
  const state = flags.state ? parsePodState(flags.state) : undefined;
  const selector = parseLabelSelector(flags.labels);
  const kept = pods.filter(
    (p) =>
      p.metadata !== undefined &&
      (!flags.id || p.id.startsWith(flags.id)) &&
      (state === undefined || p.state === state) &&
      hasLabels(p.labels, selector) &&
      matches(nameRe, p.metadata.name) &&
      matches(nsRe, p.metadata.namespace),
  );
  kept.sort(compareNewestFirst);
  return kept.slice(0, truncateCount(kept.length, flags.latest, flags.last));
}

function hasLabels(labels: Record<string, string> | undefined, selector: Record<string, string>): boolean {
  for (const [k, v] of Object.entries(selector)) if (labels?.[k] !== v) return false;
  return true;
}

// ---- containers ----------------------------------------------------------------------------------

export interface ContainerListFlags {
  /** -a / --all: every state instead of only running containers. */
  all?: boolean;
  /** --id: sent to the runtime. */
  id?: string;
  /** --pod / -p: pod sandbox id, sent to the runtime. */
  pod?: string;
  /** --name: regular expression on the container name. */
  name?: string;
  /** --namespace: regular expression on the io.kubernetes.pod.namespace label ("unknown" if absent). */
  namespace?: string;
  /** --state / -s: created, running, exited or unknown (any case). */
  state?: string;
  /** --image: keep containers whose image resolves to the same image id. */
  image?: string;
  labels?: readonly string[];
  latest?: boolean;
  last?: number;
}

export function parseContainerState(state: string): ContainerState {
  switch (state.toLowerCase()) {
    case 'created':
      return 'CONTAINER_CREATED';
    case 'running':
      return 'CONTAINER_RUNNING';
    case 'exited':
      return 'CONTAINER_EXITED';
    case 'unknown':
      return 'CONTAINER_UNKNOWN';
    default:
      throw new SyncpodError('--state should be one of created, running, exited or unknown');
  }
}

/**
 * The ListContainers filter crictl sends: state RUNNING by default, the given --state, none with
 * -a; --latest/--last drop the state filter so they look at every state.
 */
export function containerFilter(flags: ContainerListFlags): ContainerFilter {
  const filter: ContainerFilter = {
    id: flags.id ?? '',
    podSandboxId: flags.pod ?? '',
    labelSelector: parseLabelSelector(flags.labels),
  };
  if (flags.state) filter.state = { state: parseContainerState(flags.state) };
  else if (!flags.all) filter.state = { state: 'CONTAINER_RUNNING' };
  if (flags.latest || (flags.last ?? 0) > 0) delete filter.state;
  return filter;
}

/**
 * Image references the caller must resolve with ImageStatus for --image (the flag's value and each
 * distinct container image), sorted; empty when --image is not given.
 */
export function imageRefsToResolve(containers: readonly Container[], image: string | undefined): string[] {
  if (!image) return [];
  const refs = new Set<string>([image]);
  for (const c of containers) refs.add(c.image?.image ?? '');
  return [...refs].sort();
}

/**
 * crictl's client-side steps for ps. `imageIdOf` maps an image reference to its image id, or
 * undefined when the runtime does not know it (then nothing matches, as in crictl).
 */
export function filterContainers(
  containers: readonly Container[],
  flags: ContainerListFlags,
  imageIdOf?: (ref: string) => string | undefined,
): Container[] {
  const nameRe = compileNameRegex(flags.name);
  const nsRe = compileNameRegex(flags.namespace);
  const cri = containerFilter(flags);
  let wantedImageId: string | undefined;
  if (flags.image) {
    if (!imageIdOf) throw new SyncpodError('--image needs the image ids resolved by the caller');
    wantedImageId = imageIdOf(flags.image);
  }
  const kept = containers.filter((c) => {
    if (flags.image) {
      const id = imageIdOf!(c.image?.image ?? '');
      if (wantedImageId === undefined || id === undefined || id !== wantedImageId) return false;
    }
    if (c.metadata === undefined) return false;
    if (cri.id && !c.id.startsWith(cri.id)) return false;
    if (cri.podSandboxId && !c.podSandboxId.startsWith(cri.podSandboxId)) return false;
    if (cri.state && c.state !== cri.state.state) return false;
    if (!hasLabels(c.labels, cri.labelSelector)) return false;
    return matches(nameRe, c.metadata.name) && matches(nsRe, c.labels?.[POD_NAMESPACE_LABEL] ?? 'unknown');
  });
  kept.sort(compareNewestFirst);
  return kept.slice(0, truncateCount(kept.length, flags.latest, flags.last));
}

// ---- images --------------------------------------------------------------------------------------

/** The ListImages filter crictl always sends: the positional REPOSITORY[:TAG] (possibly empty). */
export function imageFilter(ref: string | undefined): ImageFilter {
  return {
    image: { image: ref ?? '', annotations: {}, userSpecifiedImage: '', runtimeHandler: '', imageRef: '' },
  };
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * crictl's image order: by first repo tag when both have one, else by first repo digest when both
 * have one, else by id. Ties (and crictl's non-transitive cases) keep a stable, input-independent
 * order by id.
 */
export function sortImages(images: readonly Image[]): Image[] {
  const byId = [...images].sort((a, b) => cmpStr(a.id, b.id));
  return byId.sort((a, b) => {
    if (a.repoTags.length > 0 && b.repoTags.length > 0) return cmpStr(a.repoTags[0], b.repoTags[0]);
    if (a.repoDigests.length > 0 && b.repoDigests.length > 0) return cmpStr(a.repoDigests[0], b.repoDigests[0]);
    return cmpStr(a.id, b.id);
  });
}

/** crictl's repository name and digest from the first repo digest ("<none>" when there is none). */
export function splitRepoDigest(repoDigests: readonly string[]): [string, string] {
  if (repoDigests.length === 0) return ['<none>', '<none>'];
  const parts = repoDigests[0].split('@');
  if (parts.length !== 2) return ['errorName', 'errorRepoDigest'];
  return [parts[0], parts[1]];
}

/** crictl's [repository, tag] rows for an image: one per repo tag, or [name, "<none>"]. */
export function repoTagPairs(repoTags: readonly string[], imageName: string): Array<[string, string]> {
  if (repoTags.length === 0) return [[imageName, '<none>']];
  return repoTags.map((repoTag): [string, string] => {
    const idx = repoTag.lastIndexOf(':');
    if (idx === -1) return ['errorRepoTag', 'errorRepoTag'];
    const name = repoTag.slice(0, idx);
    return [name === '<none>' ? imageName : name, repoTag.slice(idx + 1)];
  });
}

function beforeSince(value: string, images: Image[]): Image[] {
  const kept: Image[] = [];
  const hasColon = value.includes(':');
  const hasAt = value.includes('@');
  for (const img of images) {
    if (hasColon && !hasAt) {
      const [name] = splitRepoDigest(img.repoDigests);
      if (repoTagPairs(img.repoTags, name)[0].join(':') === value) break;
      kept.push(img);
    } else if (!hasColon && !hasAt) {
      if (img.id.startsWith(value)) break;
      kept.push(img);
    } else if (hasColon && hasAt) {
      if (img.repoDigests.length > 0) {
        if (img.repoDigests[0].startsWith(value)) break;
        kept.push(img);
      }
    }
  }
  return kept;
}

/**
 * `images --filter` conditions in the order given, on the sorted list: dangling=true|false,
 * reference=<regex on the repository name>, before=<ref|id|name@digest> and since=… (crictl's
 * semantics: the images listed after, resp. before, the one named).
 */
export function filterImages(images: readonly Image[], conditions: readonly string[]): Image[] {
  let kept = [...images];
  for (const condition of conditions) {
    const eq = condition.indexOf('=');
    const key = eq < 0 ? condition : condition.slice(0, eq);
    const value = eq < 0 ? '' : condition.slice(eq + 1);
    switch (eq < 0 ? '' : key) {
      case 'before':
        kept = beforeSince(value, [...kept].reverse()).reverse();
        break;
      case 'since':
        kept = beforeSince(value, kept);
        break;
      case 'dangling':
        kept = kept.filter((img) =>
          value === 'true' ? img.repoTags.length === 0 : value === 'false' ? img.repoTags.length > 0 : false,
        );
        break;
      case 'reference': {
        const re = compileNameRegex(value);
        kept = kept.filter((img) => {
          const [name] = splitRepoDigest(img.repoDigests);
          return re === undefined || re.test(name) || name === value;
        });
        break;
      }
      default:
        throw new SyncpodError(`unknown filter flag: ${condition}`);
    }
  }
  return kept;
}

// ---- id prefixes ---------------------------------------------------------------------------------

export type IdKind = 'pod sandbox' | 'container' | 'image';

const PLURAL: Record<IdKind, string> = { 'pod sandbox': 'pod sandboxes', container: 'containers', image: 'images' };

/**
 * The one full id starting with `prefix`. An exact match wins even if it prefixes others.
 * Errors: `no pod sandbox matches ID prefix "abc": not found` (crictl shows the runtime's NotFound), `ID prefix "ab" is ambiguous: matches 3 containers`.
 */
export function resolveIdPrefix(prefix: string, ids: readonly string[], kind: IdKind): string {
  if (prefix === '') throw new SyncpodError('ID cannot be empty');
  const unique = [...new Set(ids)];
  if (unique.includes(prefix)) return prefix;
  const found = unique.filter((id) => id.startsWith(prefix));
  if (found.length === 1) return found[0];
  if (found.length === 0) throw new SyncpodError(`no ${kind} matches ID prefix ${JSON.stringify(prefix)}: not found`);
  throw new SyncpodError(`ID prefix ${JSON.stringify(prefix)} is ambiguous: matches ${found.length} ${PLURAL[kind]}`);
}
