// `syncpod plan FILE...`: manifests + live CRI state -> kubelet's plan per pod, changing nothing.
// Wiring only: the flow is src/workflows/plan-pods.ts, the views src/render/plan-view.ts.
import type { Context } from '../../context';
import { outputWidth, parseOutput, LIST_OUTPUTS } from '../../output';
import type { PlanOptions } from './command';
import { refuseWithNode, requireNodeFor } from '../../command-flags';
import { planNodeUpgrade, planPods, planUpgrade, resolveRules } from '../../../workflows/plan-pods';
import { formatPlans } from '../../../render/plan-view';
import { formatUpgradePlan } from '../../../render/upgrade-view';
import { nodeRequest, planNodeCommand } from '../../whole-node';
import { nodeDeps, nodePathKind, upgradeNodeDeps } from '../../../workflows/invocation-deps';
import { upgradeNodeVerdict } from '../../../workflows/upgrade-node';
import { detectedForRules, withNodeProfile, withProfile } from '../../../workflows/node-profile';
import { readVolumeData } from '../../../workflows/volume-data';
import { localHost, localVolumeDataReader } from '../../../workflows/host-facts';
import { readEnvFile, sysctlNodeOf } from '../../../workflows/node-settings';
import type { UpgradePlan } from '../../../plan/upgrade';

/** --detailed-exitcode: 1 when the target kubelet would not start on this node, 2 when something restarts. */
function upgradeExitCode(u: UpgradePlan, detailed: boolean): number {
  if (!detailed) return 0;
  if (u.node && !u.node.starts) return 1;
  return u.changes ? 2 : 0;
}

export async function plan(ctx: Context, args: string[], opts: PlanOptions): Promise<number> {
  requireNodeFor(opts, {
    '--every': opts.every,
    '--static-pod-path': opts.staticPodPath,
    '--pods-api-socket': opts.podsApiSocket,
  });
  refuseWithNode(opts, {
    '--liveness-failed': opts.livenessFailed,
    '--startup-failed': opts.startupFailed,
    '--startup-succeeded': opts.startupSucceeded,
  });
  // The plan needs no env value, but an --env-file that sync would refuse is refused here too.
  if (opts.envFile !== undefined) readEnvFile(opts.envFile, localHost);
  const profile = ctx.nodeProfile(opts);
  const view = { colours: ctx.colours, width: outputWidth(ctx), verbose: !!opts.verbose };
  if (opts.node && opts.upgradeTo === undefined)
    return planNodeCommand(ctx, args, withNodeProfile(opts, profile), view);
  const output = parseOutput(opts.output, LIST_OUTPUTS);
  const kubelet = resolveRules(opts.kubeletVersion, opts.featureGates, detectedForRules(profile));
  const target = opts.upgradeTo;
  const startup = target === undefined ? undefined : () => upgradeNodeVerdict(upgradeNodeDeps(ctx, profile), target);
  if (opts.node && target !== undefined) {
    const upgrade = await planNodeUpgrade(
      { node: nodeRequest(ctx, args, withNodeProfile(opts, profile)), kubelet, targetVersion: target, startup },
      { ...nodeDeps(ctx), note: (l) => ctx.warn(l) },
    );
    ctx.out(formatUpgradePlan(upgrade, output, view));
    return upgradeExitCode(upgrade, !!opts.detailedExitcode);
  }
  const req = {
    files: args,
    kubelet,
    selector: opts.selector,
    ordinal: opts.ordinal,
    livenessFailed: opts.livenessFailed,
    startupFailed: opts.startupFailed,
    startupSucceeded: opts.startupSucceeded,
    volumeData: readVolumeData(opts, localVolumeDataReader),
    sysctlNode: sysctlNodeOf(withProfile(opts, profile), localHost),
  };
  const deps = {
    runtime: ctx.runtime,
    readStdin: () => ctx.readStdinBytes(),
    now: () => ctx.now(),
    note: (l: string) => void ctx.io.stderr.write(`${l}\n`),
    pathKind: nodePathKind(ctx.settings().hostRoot),
  };
  if (target !== undefined) {
    const upgrade = await planUpgrade({ ...req, targetVersion: target, node: startup }, deps);
    ctx.out(formatUpgradePlan(upgrade, output, view));
    return upgradeExitCode(upgrade, !!opts.detailedExitcode);
  }
  const plans = (await planPods(req, deps)).map((p) => p.plan);
  ctx.out(formatPlans(plans, output, view));
  // A pod syncpod cannot sync (a volume it cannot provide) is an error, with or without --detailed-exitcode.
  const blocked = plans.filter((p) => p.blocked !== null);
  for (const p of blocked) ctx.warn(`pod ${p.pod.namespace}/${p.pod.name} is blocked: ${p.blocked}`);
  if (blocked.length > 0) return 1;
  return opts.detailedExitcode && plans.some((p) => p.changes) ? 2 : 0;
}
