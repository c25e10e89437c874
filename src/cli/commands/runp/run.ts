// `syncpod runp CONFIG`: RunPodSandbox from a pod manifest (kubelet's config) or a crictl
// PodSandboxConfig file. Wiring only: the request comes from src/workflows/step-requests.ts.
import type { Context } from '../../context';
import type { RunpOptions } from './command';
import { profiledNode, stepDeps, stepTimeoutMs } from '../../../workflows/invocation-deps';
import { printRequest } from '../../output';
import { SyncpodError, errorLine } from '../../../errors';
import { resolveRules } from '../../../workflows/plan-pods';
import { readConfigDocument, sandboxRequest, applySandboxEffects } from '../../../workflows/step-requests';

export async function runp(ctx: Context, args: string[], given: RunpOptions): Promise<number> {
  const { opts, detected } = await profiledNode(ctx, given);
  const deps = stepDeps(ctx);
  const doc = await readConfigDocument(args[0], 'pod config', deps);
  const kubelet = resolveRules(opts.kubeletVersion, undefined, detected);
  const { request, effects } = await sandboxRequest(
    doc,
    {
      attempt: opts.attempt,
      ordinal: opts.ordinal,
      runtimeHandler: opts.runtime ?? opts.runtimeHandler,
      node: opts,
      kubelet,
    },
    deps,
  );
  if (opts.dryRun) {
    printRequest(ctx, 'RunPodSandboxRequest', request);
    return 0;
  }
  applySandboxEffects(effects, deps.fs);
  const res = await ctx.runtime.call('RunPodSandbox', request, { timeoutMs: stepTimeoutMs(ctx) }).catch((err) => {
    throw new SyncpodError(`run pod sandbox: ${errorLine(err)}`);
  });
  ctx.out(res.podSandboxId);
  return 0;
}
