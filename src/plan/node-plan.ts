// The node-wide plan: one plan per desired pod (with kubelet.syncPod's preflight), the orphans, the
// input problems, a summary, and the node-problem-detector reading of it. Pure data.

import type { Pod } from '../kubelet/api-types';
import type { KubeletRules } from '../kubelet/kubelet-version';
import type { Orphan } from '../kubelet/orphans';
import type { ContainerStatus } from '../kubelet/types';
import { fieldDifferences, type ContainerDifference } from './container-differences';
import type { Plan, PlanSource } from './plan';
import type { Preflight } from './preflight';

export const NODE_PLAN_SCHEMA_VERSION = 1;

/** Where a desired pod came from (the plan's own source type). */
export type DesiredPodSource = PlanSource;

export interface NodePodPlan extends Plan {
  source: DesiredPodSource;
  preflight: Preflight;
  /**
   * A static pod whose file changed: kubelet gives it a new uid, terminates the pod of the old uid
   * (one of the node's orphans) and then syncs the new one (pod workers start a static pod only
   * when the old one of the same name has terminated).
   */
  replaces?: StaticPodReplacement;
}

/** The old half of a replaced static pod: its uid and the steps kubelet takes for it, in order. */
export interface StaticPodReplacement {
  uid: string;
  /** "replaced: file changed, kubelet starts uid NEW and kills uid OLD". */
  text: string;
  steps: Array<{ action: 'kill-pod' | 'remove-pod'; target: string; reason: string }>;
  /**
   * What changed in the file, in words: each container of the new file against the old uid's
   * running one, field by field, as the runtime recorded it (verdict recreates-pod: the new pod
   * starts it so); containers added to or gone from the file.
   */
  differences: ContainerDifference[];
  /** Whether the old uid's running containers were read (false: nothing could be compared). */
  compared: boolean;
}

/** The old pod's running containers, as observed, to compare the new file with. */
export interface ReplacedContainers {
  statuses: ContainerStatus[];
  rules: Pick<KubeletRules, 'hashScheme'>;
}

const NEW_POD = 'the new pod starts it so';

/** The new file's containers against the old uid's running ones (see StaticPodReplacement.differences). */
export function replacementDifferences(pod: Pod, old: ReplacedContainers): ContainerDifference[] {
  const spec = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  const running = old.statuses.filter((s) => s.state === 'running');
  const out: ContainerDifference[] = [];
  for (const c of spec) {
    const s = running.find((x) => x.name === c.name);
    if (!s) {
      if (!old.statuses.some((x) => x.name === c.name))
        out.push({
          container: c.name,
          containerId: '',
          differences: [{ field: 'container', text: 'added to the file' }],
          verdict: 'recreates-pod',
          applied: true,
          kubelet: NEW_POD,
        });
      continue;
    }
    const differences = fieldDifferences(c, s, old.rules);
    if (differences.length)
      out.push({
        container: c.name,
        containerId: s.id,
        differences,
        verdict: 'recreates-pod',
        applied: true,
        kubelet: NEW_POD,
      });
  }
  const names = new Set(spec.map((c) => c.name));
  for (const s of running)
    if (!names.has(s.name))
      out.push({
        container: s.name,
        containerId: s.id,
        differences: [{ field: 'container', text: 'gone from the file' }],
        verdict: 'recreates-pod',
        applied: true,
        kubelet: 'it ends with the old pod',
      });
  return out;
}

/** The replacement of the orphan `old` by the static pod `plan` (a new uid of the same namespace/name). */
export function staticPodReplacement(
  plan: Pick<Plan, 'pod'>,
  old: Orphan,
  compare?: { pod: Pod; containers: ReplacedContainers },
): StaticPodReplacement {
  const running = old.containers.filter((c) => c.state === 'running').length;
  const target = old.uid.slice(0, 13);
  const cgroup = old.podCgroup ? `, then its pod cgroup ${old.podCgroup.name}` : '';
  const steps: StaticPodReplacement['steps'] =
    old.kubelet === 'kill'
      ? [
          {
            action: 'kill-pod',
            target,
            reason: `terminated first (${running} running, grace ${old.gracePeriodSeconds ?? 30}s), then removed${cgroup}`,
          },
        ]
      : [{ action: 'remove-pod', target, reason: `nothing runs: its containers and sandbox are removed${cgroup}` }];
  return {
    uid: old.uid,
    text: `replaced: file changed, kubelet starts uid ${plan.pod.uid} and kills uid ${old.uid}`,
    steps,
    differences: compare ? replacementDifferences(compare.pod, compare.containers) : [],
    compared: compare?.containers.statuses.some((s) => s.state === 'running') ?? false,
  };
}

export interface NodePlanSummary {
  pods: number;
  podsWithChanges: number;
  podsBlocked: number;
  orphans: number;
  problems: number;
  /** Something would change: a pod's plan or preflight work, or an orphan to remove. */
  changes: boolean;
  text: string;
}

export interface NodePlan {
  schemaVersion: number;
  node: string;
  /** When the runtime was read (RFC 3339, UTC); null when the plan was not made from a live runtime. */
  observedAt: string | null;
  plans: NodePodPlan[];
  orphans: Orphan[];
  /** One line per input kubelet would reject or that could not be read; the rest is planned. */
  problems: string[];
  summary: NodePlanSummary;
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** A pod changes when its runtime plan does or when the preflight has work or a refusal. */
export function podChanges(p: Pick<NodePodPlan, 'changes' | 'preflight'>): boolean {
  return p.changes || p.preflight.steps.length > 0;
}

export function summarizeNodePlan(
  node: string,
  plans: NodePodPlan[],
  orphans: Orphan[],
  problems: string[],
): NodePlanSummary {
  const withChanges = plans.filter(podChanges).length;
  const blocked = plans.filter((p) => p.preflight.blocked !== null).length;
  const replaced = new Set(plans.flatMap((p) => (p.replaces ? [p.replaces.uid] : [])));
  const parts = [
    `${plural(plans.length, 'pod', 'pods')}: ${withChanges} with changes${replaced.size ? ` (${replaced.size} replaced)` : ''}, ${plans.length - withChanges} without`,
  ];
  if (blocked) parts.push(`${blocked} blocked`);
  const others = orphans.filter((o) => !replaced.has(o.uid)).length;
  const other = replaced.size ? 'other ' : '';
  parts.push(others ? `${plural(others, `${other}orphan`, `${other}orphans`)}` : `no ${other}orphans`);
  if (problems.length) parts.push(plural(problems.length, 'input problem', 'input problems'));
  return {
    pods: plans.length,
    podsWithChanges: withChanges,
    podsBlocked: blocked,
    orphans: orphans.length,
    problems: problems.length,
    changes: withChanges > 0 || orphans.length > 0,
    text: `Node ${node}: ${parts.join('; ')}.`,
  };
}

export function buildNodePlan(
  node: string,
  plans: NodePodPlan[],
  orphans: Orphan[],
  problems: string[],
  observedAt: string | null = null,
): NodePlan {
  return {
    schemaVersion: NODE_PLAN_SCHEMA_VERSION,
    node,
    observedAt,
    plans,
    orphans,
    problems,
    summary: summarizeNodePlan(node, plans, orphans, problems),
  };
}

/** `--detailed-exitcode`: 1 when an input was bad, 2 when something would change (orphans count), else 0. */
export function detailedExitCode(plan: NodePlan): 0 | 1 | 2 {
  if (plan.problems.length > 0) return 1;
  return plan.summary.changes ? 2 : 0;
}

/** node-problem-detector custom plugin conditions: 0 OK, 1 NonOK, 2 Unknown. */
export const NPD_OK = 0;
export const NPD_NON_OK = 1;
export const NPD_UNKNOWN = 2;

/** NPD truncates plugin output (max_output_length, 80 by default): keep the line within it. */
export const NPD_MAX_LINE = 80;

function clip(line: string): string {
  return line.length <= NPD_MAX_LINE ? line : `${line.slice(0, NPD_MAX_LINE - 3)}...`;
}

/**
 * The node-problem-detector reading: NonOK when a pod would change or is blocked, or an orphan runs
 * or lingers; Unknown when nothing is wrong but some input could not be read; OK otherwise.
 */
export function npdStatus(plan: NodePlan): { exitCode: 0 | 1 | 2; line: string } {
  const s = plan.summary;
  if (s.changes || s.podsBlocked > 0) {
    const bits: string[] = [];
    if (s.podsBlocked) bits.push(`${s.podsBlocked} blocked`);
    if (s.podsWithChanges) bits.push(`${s.podsWithChanges}/${s.pods} pods would change`);
    if (s.orphans) bits.push(plural(s.orphans, 'orphan pod', 'orphan pods'));
    const first = plan.plans.find((p) => p.preflight.blocked !== null) ?? plan.plans.find(podChanges);
    const which = first
      ? ` (${first.pod.namespace}/${first.pod.name})`
      : plan.orphans[0]
        ? ` (${plan.orphans[0].namespace}/${plan.orphans[0].name})`
        : '';
    return { exitCode: NPD_NON_OK, line: clip(`NonOK: ${bits.join(', ')}${which}`) };
  }
  if (s.problems > 0) return { exitCode: NPD_UNKNOWN, line: clip(`Unknown: ${plan.problems[0]}`) };
  return {
    exitCode: NPD_OK,
    line: clip(`OK: ${plural(s.pods, 'pod', 'pods')} as kubelet would keep them, no orphans`),
  };
}
