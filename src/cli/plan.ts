// `syncpod plan FILE...`: manifests + live CRI state -> kubelet's plan per pod, changing nothing.
// Wiring only: the flow is src/workflows/plan-pods.ts, the views src/render/plan-view.ts.
import type { Context } from './context';
import { outputWidth, parseOutput, LIST_OUTPUTS } from './output';
import type { PlanOptions } from './pod-defs';
import { requireNodeFor } from './command-flags';
import { planNodeUpgrade, planPods, planUpgrade, resolveRules } from '../workflows/plan-pods';
import { formatPlans } from '../render/plan-view';
import { formatUpgradePlan } from '../render/upgrade-view';
import { nodeRequest, planNodeCommand } from './node';
import { nodeDeps } from '../workflows/invocation-deps';
import { detectedForRules, withNodeProfile } from '../workflows/node-profile';

export async function plan(ctx: Context, args: string[], opts: PlanOptions): Promise<number> {
  requireNodeFor(opts, {
    '--every': opts.every,
    '--static-pod-path': opts.staticPodPath,
    '--pods-api-socket': opts.podsApiSocket,
  });
  const profile = ctx.nodeProfile(opts);
  const view = { colours: ctx.colours, width: outputWidth(ctx), verbose: !!opts.verbose };
  if (opts.node && opts.upgradeTo === undefined)
    return planNodeCommand(ctx, args, withNodeProfile(opts, profile), view);
  const output = parseOutput(opts.output, LIST_OUTPUTS);
  const kubelet = resolveRules(opts.kubeletVersion, opts.featureGates, detectedForRules(profile));
  if (opts.node && opts.upgradeTo !== undefined) {
    const upgrade = await planNodeUpgrade(
      { node: nodeRequest(ctx, args, withNodeProfile(opts, profile)), kubelet, targetVersion: opts.upgradeTo },
      { ...nodeDeps(ctx), note: (l) => ctx.warn(l) },
    );
    ctx.out(formatUpgradePlan(upgrade, output, view));
    return opts.detailedExitcode && upgrade.changes ? 2 : 0;
  }
  const req = {
    files: args,
    kubelet,
    selector: opts.selector,
    ordinal: opts.ordinal,
    livenessFailed: opts.livenessFailed,
    startupFailed: opts.startupFailed,
    startupSucceeded: opts.startupSucceeded,
  };
  const deps = {
    runtime: ctx.runtime,
    readStdin: () => ctx.readStdinBytes(),
    now: () => ctx.now(),
    note: (l: string) => void ctx.io.stderr.write(`${l}\n`),
  };
  if (opts.upgradeTo !== undefined) {
    const upgrade = await planUpgrade({ ...req, targetVersion: opts.upgradeTo }, deps);
    ctx.out(formatUpgradePlan(upgrade, output, view));
    return opts.detailedExitcode && upgrade.changes ? 2 : 0;
  }
  const plans = (await planPods(req, deps)).map((p) => p.plan);
  ctx.out(formatPlans(plans, output, view));
  return opts.detailedExitcode && plans.some((p) => p.changes) ? 2 : 0;
}
