import type { SysctlNode } from '../plan/plan';
import type { RuntimeService } from '../cri/grpc-runtime-service';
import { SyncpodError } from '../errors';
import type { ProbeResults } from '../kubelet/compute-pod-actions';
import { probeInputs } from '../plan/probe-inputs';
import { probeFlagResults, type ProbeFlags } from './probe-flags';
import { parseFeatureGates, type FeatureGates } from '../kubelet/features';
import {
  DEFAULT_KUBELET_VERSION,
  resolveKubeletRules,
  type DetectedKubelet,
  type KubeletRules,
} from '../kubelet/kubelet-version';
import { loadManifests, parseOrdinalFlag, skippedNote } from '../manifest/load';
import { apiRulesOfKubelet } from '../manifest/api-rules';
import type { LoadedPod } from '../manifest/types';
import { addAssumption, buildPlan, splitNote, type Plan, type PlanSource } from '../plan/plan';
import { buildUpgradePlan, gatesTargetAccepts, type UpgradePlan } from '../plan/upgrade';
import { listRuntime, observePods, type ObservedPod } from '../state/pod-status';
import { matchWorkloadPod } from '../state/workload-match';
import { adoptLivePod } from '../manifest/controllers';
import { findDuplicates } from '../kubelet/orphans';
import { planNode, type NodePlanDeps, type NodePlanRequest } from './node-plan';
import type { VolumeData } from '../kubelet/volumes';
import type { StartupVerdict } from '../kubelet/startup-checks';
import type { PathKind, PreflightFacts } from '../plan/preflight';

/** What is at each hostPath volume's path now, for the plan's type checks. */
export function hostPathFacts(
  pod: LoadedPod['pod'],
  kind: (path: string) => string | undefined,
): PreflightFacts['hostPaths'] {
  return (pod.spec?.volumes ?? [])
    .filter((v) => v.hostPath)
    .map((v) => ({ volume: v.name, path: v.hostPath!.path, kind: kind(v.hostPath!.path) as PathKind | undefined }));
}

/** The kubelet being mirrored: the flags as given, what was detected, and the rules resolved from them once per invocation. */
export interface KubeletSelection {
  version: string | undefined;
  gates: FeatureGates;
  detected: DetectedKubelet;
  rules: KubeletRules;
}

/**
 * `--kubelet-version` and `--feature-gates` over the running kubelet's (node profile), parsed and
 * resolved once; a bad value is refused before any runtime call.
 */
export function resolveRules(
  kubeletVersion: string | undefined,
  featureGates: string | undefined,
  detected: DetectedKubelet = {},
): KubeletSelection {
  const gates = parseFeatureGates(featureGates);
  return { version: kubeletVersion, gates, detected, rules: resolveKubeletRules(kubeletVersion, gates, detected) };
}

export interface PlanDeps {
  runtime: Pick<RuntimeService, 'call'>;
  /** Standard input as bytes (manifests are checked to be UTF-8). */
  readStdin(): Promise<string | Uint8Array>;
  /** A line of information for stderr (skipped documents). */
  note(line: string): void;
  /** Milliseconds since the epoch (back-off estimates). */
  now(): number;
  /** What is at a node path (hostPath type checks of a new pod); absent: not checked. */
  pathKind?(path: string): string | undefined;
}

export interface PlanRequest extends ProbeFlags {
  files: string[];
  kubelet: KubeletSelection;
  /** `-l/--selector` */
  selector?: string;
  /** `--ordinal` as given */
  ordinal?: string;
  /** --configmap/--secret/--service-account-token data and --skip-volume (default: none). */
  volumeData?: VolumeData;
  /** What kubelet's sysctl admission reads on the node (default: none allowed, kernel unknown). */
  sysctlNode?: SysctlNode;
}

export interface PlannedPod {
  loaded: LoadedPod;
  observed: ObservedPod;
  probeResults: ProbeResults;
  plan: Plan;
}

/** The plan's source for a loaded manifest pod. */
export function manifestSource(l: LoadedPod): PlanSource {
  const s = l.source;
  return {
    kind: 'manifest',
    file: s.file,
    document: s.document,
    from: s.from,
    notes: s.notes,
    controller: s.controller ?? null,
    skipped: s.skipped,
  };
}

/** Loads the manifests (each pod once), observes all pods with one List per kind, plans each. */
export async function planPods(req: PlanRequest, deps: PlanDeps): Promise<PlannedPod[]> {
  for (const w of req.kubelet.rules.warnings) deps.note(`WARN: warning: ${w}`);
  const fromFiles = await loadManifests(req.files, () => deps.readStdin(), {
    selector: req.selector,
    ordinal: parseOrdinalFlag(req.ordinal),
    api: apiRulesOfKubelet(req.kubelet.rules),
  });
  const skipped = skippedNote(fromFiles);
  if (skipped !== undefined) deps.note(skipped);
  // A workload's template without a uid: its live pod is found by the controller's labels and
  // naming (a Deployment's pods are <name>-<hash>-<suffix>), and planned under that pod's name.
  const lists = await listRuntime(deps.runtime);
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
    deps.runtime,
    loaded.map((l) => ({
      namespace: l.pod.metadata?.namespace ?? 'default',
      name: l.pod.metadata?.name ?? '',
      uid: l.pod.metadata?.uid ?? '',
    })),
    { lists, sandboxOrder: req.kubelet.rules.sandboxOrder },
  );
  const now = deps.now();
  return loaded.map((l, i) => {
    const o = observed[i];
    const probes = probeInputs(l.pod, o.status, probeFlagResults(req), l.apiStatus);
    const plan = buildPlan({
      probeInputs: probes.inputs,
      pod: l.pod,
      podStatus: o.status,
      now,
      options: {
        rules: req.kubelet.rules,
        probeResults: probes.results,
        ...(l.apiStatus ? { apiStatus: l.apiStatus } : {}),
      },
      matchedBy: o.match.by !== 'uid-label' && byController.has(l) ? 'controller-labels' : o.match.by,
      matchCandidates: o.match.candidates,
      duplicates: findDuplicates(
        { namespace: o.ref.namespace, name: o.ref.name, uid: o.match.uid },
        lists.sandboxes,
        lists.containers,
        now,
      ),
      podSource: l.pod.metadata?.uid ? 'api-server' : 'manifest',
      source: manifestSource(l),
      volumeData: req.volumeData,
      hostPaths: deps.pathKind ? hostPathFacts(l.pod, deps.pathKind) : undefined,
      sysctlNode: req.sysctlNode,
    });
    const how = byController.get(l);
    if (how !== undefined) {
      const note = splitNote('controller-pod', how);
      addAssumption(plan, { ...note, short: note.short.charAt(0).toUpperCase() + note.short.slice(1) });
    }
    return { loaded: l, observed: o, probeResults: probes.results, plan };
  });
}

/** `plan --upgrade-to`: the same load and observation, then both kubelets' decisions per container. */
export async function planUpgrade(
  req: PlanRequest & { targetVersion: string; node?: () => Promise<StartupVerdict> },
  deps: PlanDeps,
): Promise<UpgradePlan> {
  // Refuse a target that cannot be planned before touching the runtime.
  const gates = { ...req.kubelet.detected.featureGates, ...req.kubelet.gates };
  resolveKubeletRules(req.targetVersion, gatesTargetAccepts(req.targetVersion, gates));
  const node = await req.node?.();
  const planned = await planPods(req, deps);
  return buildUpgradePlan(
    planned.map((p) => ({ pod: p.loaded.pod, podStatus: p.observed.status, probeResults: p.probeResults })),
    {
      current: {
        kubeletVersion: req.kubelet.version ?? req.kubelet.detected.version ?? DEFAULT_KUBELET_VERSION,
        featureGates: gates,
      },
      targetVersion: req.targetVersion,
      node,
    },
  );
}

/** `plan --node --upgrade-to VERSION`: the upgrade preview for every pod this node should run. */
export async function planNodeUpgrade(
  req: {
    node: NodePlanRequest;
    kubelet: KubeletSelection;
    targetVersion: string;
    startup?: () => Promise<StartupVerdict>;
  },
  deps: NodePlanDeps & { note(line: string): void },
): Promise<UpgradePlan> {
  const gates = { ...req.kubelet.detected.featureGates, ...req.kubelet.gates };
  resolveKubeletRules(req.targetVersion, gatesTargetAccepts(req.targetVersion, gates));
  const startup = await req.startup?.();
  const r = await planNode(req.node, deps);
  for (const p of r.plan.problems) deps.note(p);
  return buildUpgradePlan(
    r.pods.map((p) => ({ pod: p.desired.pod, podStatus: p.observed.status })),
    {
      current: {
        kubeletVersion: req.kubelet.version ?? req.kubelet.detected.version ?? DEFAULT_KUBELET_VERSION,
        featureGates: gates,
      },
      targetVersion: req.targetVersion,
      scope: `on node ${r.plan.node}`,
      node: startup,
    },
  );
}
