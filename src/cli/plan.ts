// `syncpod plan FILE...`: manifests + live CRI state -> kubelet's plan per pod, changing nothing.
import type { Context } from './context';
import { listOutput } from './output';
import { SyncpodError } from '../errors';
import { buildPlan, type Plan } from '../plan/plan';
import { loadManifests, parseOrdinalFlag, skippedNote } from '../manifest/load';
import { DEFAULT_KUBELET_VERSION, resolveKubeletRules, type DetectedKubelet } from '../kubelet/kubelet-version';
import { detectedForRules, withNodeProfile } from '../workflows/node-profile';
import { listRuntime, observePods } from '../state/pod-status';
import { matchWorkloadPod } from '../state/workload-match';
import { adoptLivePod } from '../manifest/controllers';
import { renderPlans } from '../render/plan-view';
import type { PlanOptions } from './commands';
import { planNodeCommand } from './node';
import { buildUpgradePlan } from '../plan/upgrade';
import { renderUpgradePlan } from '../render/upgrade-view';
import { parseFeatureGates as parseGates } from '../kubelet/features';
import type { ObservedPod } from '../state/pod-status';
import type { LoadedPod } from '../manifest/types';
import type { ComputePodActionsOptions } from '../kubelet/compute-pod-actions';
import { probeInputs } from '../plan/probe-inputs';
import type { FeatureGates } from '../kubelet/features';

/** Parses `--feature-gates A=true,B=false` (kubelet's syntax); the gate table lives in kubelet/features.ts. */
export function parseFeatureGates(text: string | undefined): FeatureGates {
  return parseGates(text);
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
  startupSucceeded?: string[];
  /** The running kubelet's version and gates (node profile); flags win over them. */
  detected?: DetectedKubelet;
}

/** Loads, observes and plans; shared by `plan` and `sync`. */
export async function planPods(ctx: Context, req: PlanRequest): Promise<PlannedPod[]> {
  // The kubelet rules, resolved once; an unsupported version or gate is refused before touching the runtime.
  const rules = resolveKubeletRules(req.kubeletVersion, parseFeatureGates(req.featureGates), req.detected);
  for (const w of rules.warnings) ctx.warn(`warning: ${w}`);
  const fromFiles = await loadManifests(req.files, () => ctx.readStdinBytes(), { selector: req.selector, ordinal: parseOrdinalFlag(req.ordinal) });
  const note = skippedNote(fromFiles);
  if (note !== undefined) ctx.io.stderr.write(`${note}\n`);
  // A workload's template without a uid: its live pod is found by the controller's labels and
  // naming (a Deployment's pods are <name>-<hash>-<suffix>), and planned under that pod's name.
  const lists = await listRuntime(ctx.cri().runtime);
  const byController = new Map<LoadedPod, string>();
  const loaded = fromFiles.map((l) => {
    const shape = l.source.controller;
    if (!shape || l.pod.metadata?.uid) return l;
    const live = matchWorkloadPod(lists, l.pod.metadata?.namespace ?? 'default', shape);
    if (!live) return l;
    const adopted = adoptLivePod(l, live);
    byController.set(adopted, live.how);
    return adopted;
  });
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
    { lists },
  );
  const now = ctx.now();
  return loaded.map((l, i) => {
    const o = observed[i];
    const probes = probeInputs(l.pod, o.status, req, l.apiStatus);
    const options: ComputePodActionsOptions = { rules, probeResults: probes.results, ...(l.apiStatus ? { apiStatus: l.apiStatus } : {}) };
    const plan = buildPlan({
      probeInputs: probes.inputs,
      pod: l.pod,
      podStatus: o.status,
      now,
      options,
      matchedBy: o.match.by === 'uid' ? 'uid-label' : byController.has(l) ? 'controller-labels' : 'namespace-name',
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
    const how = byController.get(l);
    if (how !== undefined) plan.assumptions.push(how);
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
  const profile = ctx.nodeProfile(opts);
  const detected = detectedForRules(profile);
  if (opts.node) return planNodeCommand(ctx, args, withNodeProfile(opts, profile), planColours(ctx));
  const output = listOutput(opts.output);
  if (opts.upgradeTo !== undefined) return upgradePreview(ctx, args, { ...opts, upgradeTo: opts.upgradeTo }, output, detected);
  const planned = await planPods(ctx, {
    files: args,
    kubeletVersion: opts.kubeletVersion,
    featureGates: opts.featureGates,
    livenessFailed: opts.livenessFailed,
    startupFailed: opts.startupFailed,
    selector: opts.selector,
    ordinal: opts.ordinal,
    startupSucceeded: opts.startupSucceeded,
    detected,
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
async function upgradePreview(ctx: Context, args: string[], opts: PlanOptions & { upgradeTo: string }, output: string, detected: DetectedKubelet): Promise<number> {
  const featureGates = { ...detected.featureGates, ...parseFeatureGates(opts.featureGates) };
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
    detected,
  });
  const upgrade = buildUpgradePlan(
    planned.map((p) => ({
      pod: p.loaded.pod,
      podStatus: p.observed.status,
      probeResults: probeInputs(p.loaded.pod, p.observed.status, opts, p.loaded.apiStatus).results,
    })),
    { current: { kubeletVersion: opts.kubeletVersion ?? detected.version ?? DEFAULT_KUBELET_VERSION, featureGates }, targetVersion: opts.upgradeTo },
  );
  if (output === 'table') {
    ctx.out(renderUpgradePlan(upgrade, planColours(ctx)));
  } else {
    ctx.out(output === 'json' ? JSON.stringify(upgrade, null, 2) : (require('yaml') as typeof import('yaml')).stringify(upgrade));
  }
  return opts.detailedExitcode && upgrade.changes ? 2 : 0;
}
