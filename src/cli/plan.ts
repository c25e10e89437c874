// `syncpod plan FILE...`: manifests + live CRI state -> kubelet's plan per pod, changing nothing.
import type { Context } from './context';
import { listOutput } from './output';
import { SyncpodError } from '../errors';
import type { Pod } from '../kubelet/api-types';
import { buildPlan, type Plan } from '../plan/plan';
import { loadManifests, parseOrdinalFlag, skippedNote } from '../manifest/load';
import { resolveKubeletRules } from '../kubelet/kubelet-version';
import { observePods } from '../state/pod-status';
import { renderPlans } from '../render/plan-view';
import type { PlanOptions } from './commands';
import { planNodeCommand } from './node';
import { buildUpgradePlan } from '../plan/upgrade';
import { renderUpgradePlan } from '../render/upgrade-view';
import { parseFeatureGates as parseGates } from '../kubelet/features';
import type { ObservedPod } from '../state/pod-status';
import type { LoadedPod } from '../manifest/types';
import type { ComputePodActionsOptions, ProbeResults } from '../kubelet/compute-pod-actions';
import type { FeatureGates } from '../kubelet/features';

/** Parses `--feature-gates A=true,B=false` (kubelet's syntax); the gate table lives in kubelet/features.ts. */
export function parseFeatureGates(text: string | undefined): FeatureGates {
  return parseGates(text);
}

/**
 * `--liveness-failed NAME`: a Failure for the newest instance of that container, as kubelet's prober
 * would hold it. A name the pod does not have is an error (a typo must not silently plan nothing).
 */
function probeResults(pod: Pod, observed: ObservedPod, liveness: string[], startup: string[]): ProbeResults {
  const names = new Set([...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].map((c) => c.name));
  const toIds = (flag: string, list: string[]): Record<string, 'Failure'> => {
    const out: Record<string, 'Failure'> = {};
    for (const name of list) {
      if (!names.has(name)) {
        throw new SyncpodError(`${flag}: pod ${pod.metadata?.namespace}/${pod.metadata?.name} has no container named "${name}"`);
      }
      const s = observed.status.containerStatuses.find((c) => c.name === name);
      if (s) out[s.id] = 'Failure';
    }
    return out;
  };
  return { liveness: toIds('--liveness-failed', liveness), startup: toIds('--startup-failed', startup) };
}

export interface PlannedPod {
  loaded: LoadedPod;
  observed: ObservedPod;
  plan: Plan;
}

export interface PlanRequest {
  files: string[];
  kubeletVersion?: string;
  featureGates?: string;
  livenessFailed?: string[];
  startupFailed?: string[];
  /** `-l/--selector` */
  selector?: string;
  /** `--ordinal` as given */
  ordinal?: string;
}

/** Loads, observes and plans; shared by `plan` and `sync`. */
export async function planPods(ctx: Context, req: PlanRequest): Promise<PlannedPod[]> {
  const featureGates = parseFeatureGates(req.featureGates);
  // Refuse an unsupported kubelet version before touching the runtime.
  resolveKubeletRules(req.kubeletVersion, featureGates);
  const loaded = await loadManifests(req.files, () => ctx.readStdinBytes(), { selector: req.selector, ordinal: parseOrdinalFlag(req.ordinal) });
  const note = skippedNote(loaded);
  if (note !== undefined) ctx.io.stderr.write(`${note}\n`);
  const seen = new Map<string, string>();
  for (const l of loaded) {
    const key = `${l.pod.metadata?.namespace}/${l.pod.metadata?.name}`;
    const where = `${l.source.file}: document ${l.source.document}`;
    if (seen.has(key)) throw new SyncpodError(`${where}: pod ${key} is also in ${seen.get(key)}; plan each pod once`);
    seen.set(key, where);
  }
  const observed = await observePods(
    ctx.cri().runtime,
    loaded.map((l) => ({ namespace: l.pod.metadata?.namespace ?? 'default', name: l.pod.metadata?.name ?? '', uid: l.pod.metadata?.uid ?? '' })),
  );
  const now = ctx.now();
  return loaded.map((l, i) => {
    const o = observed[i];
    const options: ComputePodActionsOptions = {
      kubeletVersion: req.kubeletVersion,
      featureGates,
      probeResults: probeResults(l.pod, o, req.livenessFailed ?? [], req.startupFailed ?? []),
    };
    const plan = buildPlan({
      pod: l.pod,
      podStatus: o.status,
      now,
      options,
      matchedBy: o.match.by === 'uid' ? 'uid-label' : 'namespace-name',
      podSource: l.pod.metadata?.uid ? 'api-server' : 'manifest',
    });
    const withSource = plan as Plan & { source: unknown; matchCandidates: string[] };
    withSource.source = {
      file: l.source.file,
      document: l.source.document,
      from: l.source.from,
      notes: l.source.notes,
      controller: l.source.controller ?? null,
      skipped: l.source.skipped,
    };
    withSource.matchCandidates = o.match.candidates;
    if (o.match.by === 'namespace+name' && o.match.candidates.length > 1) {
      plan.assumptions.push(
        `the manifest has no uid; ${o.match.candidates.length} uids were found for ${l.pod.metadata?.namespace}/${l.pod.metadata?.name}, the newest (${o.match.uid}) was taken`,
      );
    }
    if (o.match.by === 'none' && !l.pod.metadata?.uid) {
      plan.assumptions.push('the manifest has no uid and no pod of that namespace/name exists: sync would give the new pod a fresh uid');
    }
    return { loaded: l, observed: o, plan };
  });
}

function planColours(ctx: Context) {
  if (!ctx.colour) return undefined;
  const chalk = (require('chalk') as typeof import('chalk')).default;
  return { red: chalk.red, green: chalk.green, yellow: chalk.yellow, dim: chalk.dim };
}

export async function plan(ctx: Context, args: string[], opts: PlanOptions): Promise<number> {
  if (opts.node) return planNodeCommand(ctx, args, opts, planColours(ctx));
  const output = listOutput(opts.output);
  if (opts.upgradeTo !== undefined) return upgradePreview(ctx, args, { ...opts, upgradeTo: opts.upgradeTo }, output);
  const planned = await planPods(ctx, {
    files: args,
    kubeletVersion: opts.kubeletVersion,
    featureGates: opts.featureGates,
    livenessFailed: opts.livenessFailed,
    startupFailed: opts.startupFailed,
    selector: opts.selector,
    ordinal: opts.ordinal,
  });
  const plans = planned.map((p) => p.plan);
  if (output === 'table') {
    ctx.out(renderPlans(plans, planColours(ctx)));
  } else {
    const value = plans.length === 1 ? plans[0] : { plans };
    ctx.out(output === 'json' ? JSON.stringify(value, null, 2) : (require('yaml') as typeof import('yaml')).stringify(value));
  }
  const changes = plans.some((p) => p.changes);
  return opts.detailedExitcode && changes ? 2 : 0;
}

/** `plan --upgrade-to VERSION`: what the target kubelet's first sync would restart. */
async function upgradePreview(ctx: Context, args: string[], opts: PlanOptions & { upgradeTo: string }, output: string): Promise<number> {
  const featureGates = parseFeatureGates(opts.featureGates);
  // Refuse a target that cannot be planned before touching the runtime.
  resolveKubeletRules(opts.upgradeTo, featureGates);
  const planned = await planPods(ctx, {
    files: args,
    kubeletVersion: opts.kubeletVersion,
    featureGates: opts.featureGates,
    livenessFailed: opts.livenessFailed,
    startupFailed: opts.startupFailed,
    selector: opts.selector,
    ordinal: opts.ordinal,
  });
  const upgrade = buildUpgradePlan(
    planned.map((p) => ({
      pod: p.loaded.pod,
      podStatus: p.observed.status,
      probeResults: probeResults(p.loaded.pod, p.observed, opts.livenessFailed ?? [], opts.startupFailed ?? []),
    })),
    { current: { kubeletVersion: opts.kubeletVersion, featureGates }, targetVersion: opts.upgradeTo },
  );
  if (output === 'table') {
    ctx.out(renderUpgradePlan(upgrade, planColours(ctx)));
  } else {
    ctx.out(output === 'json' ? JSON.stringify(upgrade, null, 2) : (require('yaml') as typeof import('yaml')).stringify(upgrade));
  }
  return opts.detailedExitcode && upgrade.changes ? 2 : 0;
}
