// The lists behind the look commands, as crictl builds them (cri-tools cmd/crictl 1.31-1.36):
// the CRI filter sent, then crictl's client-side filters and order. `pods`, `ps` and `images`
// print them; `inspectp`, `inspect` and `inspecti` without ids inspect what they return.
import type { ImageService, RuntimeService } from '../cri/grpc-runtime-service';
import type { Container, Image, PodSandbox } from '../cri/types';
import {
  containerFilter,
  filterContainers,
  filterImages,
  filterPods,
  imageFilter,
  imageRefsToResolve,
  podSandboxFilter,
  sortImages,
  type ContainerListFlags,
  type PodListFlags,
} from '../state/filters';

/** ListPodSandbox with crictl's filter, then name/namespace regex, newest first, --latest/--last. */
export async function listPods(runtime: RuntimeService, flags: PodListFlags): Promise<PodSandbox[]> {
  const res = await runtime.call('ListPodSandbox', { filter: podSandboxFilter(flags) });
  return filterPods(res.items, flags);
}

/**
 * ListContainers with crictl's filter (running only unless -a/--state; every state with
 * --latest/--last), then --image (same image id through ImageStatus), name/namespace regex,
 * newest first, --latest/--last.
 */
export async function listContainers(
  runtime: RuntimeService,
  image: ImageService,
  flags: ContainerListFlags,
): Promise<Container[]> {
  const res = await runtime.call('ListContainers', { filter: containerFilter(flags) });
  const refs = imageRefsToResolve(res.containers, flags.image);
  let imageIdOf: ((ref: string) => string | undefined) | undefined;
  if (refs.length) {
    const ids = new Map<string, string | undefined>();
    for (const ref of refs)
      ids.set(ref, (await image.call('ImageStatus', { image: { image: ref } })).image?.id || undefined);
    imageIdOf = (ref) => ids.get(ref);
  }
  return filterContainers(res.containers, flags, imageIdOf);
}

/** ListImages for REPOSITORY[:TAG] (empty: all), crictl's order, then the --filter conditions. */
export async function listImages(
  image: ImageService,
  ref: string | undefined,
  conditions: readonly string[],
): Promise<Image[]> {
  const res = await image.call('ListImages', { filter: imageFilter(ref) });
  return filterImages(sortImages(res.images), conditions);
}

/**
 * `ps -r`: each container image's first repo tag, as crictl's getRepoImage asks ImageStatus;
 * an image the runtime does not know (or one without tags) keeps its reference.
 */
export async function repoTagsOf(
  image: ImageService,
  containers: readonly Container[],
): Promise<Map<string, string | undefined>> {
  const tags = new Map<string, string | undefined>();
  for (const ref of new Set(containers.map((c) => c.image?.image ?? ''))) {
    if (ref === '') continue;
    tags.set(ref, (await image.call('ImageStatus', { image: { image: ref } })).image?.repoTags[0]);
  }
  return tags;
}
