// `rmi --prune` that knows kubelet: every image is judged by src/kubelet/image-gc.ts (pinned, used
// by any container in any state, the runtime's sandbox image from its verbose Status, and — with
// --node — the images the desired pods name), then the removable ones are removed, or only shown.
import type { ImageService, RuntimeService } from '../cri/grpc-runtime-service';
import { errorLine } from '../errors';
import { sandboxImageFromInfo, selectPrunableImages, type ImageVerdict } from '../kubelet/image-gc';
import { loadNodeInputs, type NodeInputDeps, type NodeInputRequest } from './node-inputs';
import { allInOrder } from '../cri/together';

export interface PruneRequest {
  /** The node's desired pods (plan --node's inputs); undefined: no desired pods considered. */
  node?: NodeInputRequest;
  dryRun: boolean;
  requestTimeoutMs: number;
}

export interface PruneDeps {
  runtime: Pick<RuntimeService, 'call'>;
  image: Pick<ImageService, 'call'>;
  inputs: NodeInputDeps;
}

export interface PruneResult {
  sandboxImage: string;
  verdicts: ImageVerdict[];
  /** Images removed (empty with dryRun), with the tags that went. */
  removed: Array<{ id: string; tags: string[] }>;
  failures: string[];
  /** Input problems of --node (desired pods that could not be read). */
  problems: string[];
}

export async function pruneImages(req: PruneRequest, deps: PruneDeps): Promise<PruneResult> {
  const [images, containers, status] = await allInOrder([
    deps.image.call('ListImages', {}),
    deps.runtime.call('ListContainers', {}),
    deps.runtime.call('Status', { verbose: true }),
  ]);
  const sandboxImage = sandboxImageFromInfo(status.info);
  const desired: Array<{ image: string; pod: string }> = [];
  let problems: string[] = [];
  if (req.node) {
    const inputs = await loadNodeInputs(req.node, deps.inputs);
    problems = inputs.problems;
    for (const d of inputs.desired) {
      const spec = d.pod.spec;
      const pod = `${d.pod.metadata?.namespace}/${d.pod.metadata?.name}`;
      for (const c of [
        ...(spec?.initContainers ?? []),
        ...(spec?.containers ?? []),
        ...(spec?.ephemeralContainers ?? []),
      ]) {
        if (c.image) desired.push({ image: c.image, pod });
      }
    }
  }
  const verdicts = selectPrunableImages({
    images: images.images,
    containers: containers.containers.map((c) => ({ id: c.id, image: c.image?.image ?? '', imageRef: c.imageRef })),
    desired,
    sandboxImage,
  });
  const removed: PruneResult['removed'] = [];
  const failures: string[] = [];
  // With problems in the desired pods, an image they need might go: remove nothing then.
  if (!req.dryRun && problems.length === 0) {
    for (const v of verdicts.filter((x) => !x.keep)) {
      try {
        await deps.image.call('RemoveImage', { image: { image: v.id } }, { timeoutMs: req.requestTimeoutMs });
        removed.push({ id: v.id, tags: v.repoTags });
      } catch (err) {
        failures.push(`error of removing image "${v.id}": ${errorLine(err)}`);
      }
    }
  }
  return { sandboxImage, verdicts, removed, failures, problems };
}
