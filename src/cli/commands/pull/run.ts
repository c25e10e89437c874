// `syncpod pull IMAGE`: PullImage, crictl-compatible; --pod-config sends a sandbox config with it
// (kubelet's, for a pod manifest).
import type { Context } from '../../context';
import type { PullOptions } from './command';
import { profiledNode, stepDeps } from '../../../workflows/invocation-deps';
import { printRequest } from '../../output';
import { registryAuth } from './registry-auth';
import type * as T from '../../../cri/types';
import { SyncpodError, errorLine } from '../../../errors';
import { parseLabelSelector } from '../../../state/filters';
import { resolveRules } from '../../../workflows/plan-pods';
import { PULL_TIMEOUT_MS } from '../../../workflows/runtime-deps';
import { pullSandboxConfig, readConfigDocument, shownPullRequest } from '../../../workflows/step-requests';

export async function pull(ctx: Context, args: string[], opts: PullOptions): Promise<number> {
  const imageName = args[0];
  if (!imageName) throw new SyncpodError('image name cannot be empty');
  const auth = await registryAuth(ctx, opts);
  let sandboxConfig: T.PodSandboxConfig | undefined;
  if (opts.podConfig) {
    const deps = stepDeps(ctx);
    const doc = await readConfigDocument(opts.podConfig, 'pod config', deps);
    const node = doc.isManifest ? await profiledNode(ctx, {}) : undefined;
    sandboxConfig = await pullSandboxConfig(
      doc,
      { node: node?.opts ?? {}, kubelet: resolveRules(undefined, undefined, node?.detected) },
      deps,
    );
  }
  const annotations = parseLabelSelector(opts.annotation);
  const request = {
    image: { image: imageName, annotations },
    ...(auth ? { auth } : {}),
    ...(sandboxConfig ? { sandboxConfig } : {}),
  };
  if (opts.dryRun) {
    const shown = shownPullRequest(request, !!opts.showSecrets);
    printRequest(ctx, 'PullImageRequest', shown.request);
    const note = shown.note;
    if (note) ctx.io.stderr.write(`${note}\n`);
    return 0;
  }
  const res = await ctx.image.call('PullImage', request, { timeoutMs: PULL_TIMEOUT_MS }).catch((err) => {
    throw new SyncpodError(`pulling image: ${errorLine(err)}`);
  });
  ctx.out(`Image is up to date for ${res.imageRef}`);
  return 0;
}
