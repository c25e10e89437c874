// Which images a prune may remove without hurting kubelet, mirroring kubelet 1.33's image garbage
// collector (images/image_gc_manager.go detectImages/freeSpace: pinned images and images used by
// any container, running or not, are never candidates) plus what crictl's `rmi --prune` ignores:
// images that desired pods still need (their containers may not exist yet) and the runtime's
// sandbox (pause) image, which every new pod needs (cri-tools issue 839). Pure.

import { parseNormalizedImage, repositoryName } from './image-ref';

/** The parts of a CRI Image this needs. */
export interface RuntimeImage {
  id: string;
  repoTags: string[];
  repoDigests: string[];
  pinned?: boolean;
  size?: string;
}

export type KeepReason = 'pinned' | 'in-use' | 'desired' | 'sandbox-image';

export interface ImageVerdict {
  id: string;
  repoTags: string[];
  /** Why it stays; absent when it can go. */
  keep?: KeepReason;
  /** Who needs it (container ids, pod names or the sandbox image reference). */
  by?: string[];
}

export interface PruneInput {
  images: RuntimeImage[];
  /** For each container (any state): its id and the image it uses (image id or reference). */
  containers: Array<{ id: string; image: string; imageRef?: string }>;
  /** Images desired pods name, with the pod that needs each ("ns/name"). */
  desired: Array<{ image: string; pod: string }>;
  /** The runtime's sandbox image reference ('' when unknown). */
  sandboxImage: string;
}

/** The forms under which a reference can appear in repoTags/repoDigests (docker.io/library/x:tag...). */
export function referenceForms(ref: string): string[] {
  const forms = new Set<string>([ref]);
  try {
    const r = parseNormalizedImage(ref);
    const repo = repositoryName(r);
    if (r.digest) forms.add(`${repo}@${r.digest}`);
    else forms.add(`${repo}:${r.tag || 'latest'}`);
  } catch {
    // an unparsable reference can only match literally
  }
  return [...forms];
}

/** Finds the image a reference or id names, as the runtime would resolve it. */
export function matchImage(images: RuntimeImage[], ref: string): RuntimeImage | undefined {
  if (ref === '') return undefined;
  const forms = referenceForms(ref);
  const bare = ref.startsWith('sha256:') ? ref : `sha256:${ref}`;
  return images.find(
    (i) => i.id === ref || i.id === bare || forms.some((f) => i.repoTags.includes(f) || i.repoDigests.includes(f)),
  );
}

/** One verdict per image, in the order given: kept with the first reason that applies, or removable. */
export function selectPrunableImages(input: PruneInput): ImageVerdict[] {
  const by = new Map<string, { keep: KeepReason; by: string[] }>();
  const mark = (img: RuntimeImage | undefined, keep: KeepReason, who: string): void => {
    if (!img) return;
    const cur = by.get(img.id);
    if (cur && cur.keep !== keep) return;
    if (cur) {
      if (!cur.by.includes(who)) cur.by.push(who);
    } else by.set(img.id, { keep, by: [who] });
  };
  for (const i of input.images) if (i.pinned) mark(i, 'pinned', 'runtime');
  for (const c of input.containers)
    mark(matchImage(input.images, c.imageRef ?? '') ?? matchImage(input.images, c.image), 'in-use', c.id);
  for (const d of input.desired) mark(matchImage(input.images, d.image), 'desired', d.pod);
  if (input.sandboxImage) mark(matchImage(input.images, input.sandboxImage), 'sandbox-image', input.sandboxImage);
  // By id: runtimes list images in no particular order (containerd from a map).
  const ordered = [...input.images].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return ordered.map((i) => {
    const v = by.get(i.id);
    return v
      ? { id: i.id, repoTags: i.repoTags, keep: v.keep, by: [...v.by].sort() }
      : { id: i.id, repoTags: i.repoTags };
  });
}

/**
 * The sandbox image from the runtime's verbose Status info: containerd 1.x puts its CRI config
 * under "config" with "sandboxImage"; containerd 2.x pins it under "pinnedImages"."sandbox".
 */
export function sandboxImageFromInfo(info: Record<string, string> | undefined): string {
  const raw = info?.config;
  if (!raw) return '';
  try {
    const cfg = JSON.parse(raw) as { sandboxImage?: string; pinnedImages?: { sandbox?: string } };
    return cfg.sandboxImage ?? cfg.pinnedImages?.sandbox ?? '';
  } catch {
    return '';
  }
}
