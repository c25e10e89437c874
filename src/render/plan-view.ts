// Table text for plans: STEP, ACTION, TARGET, REASON in SyncPod order, then waiting notes,
// assumptions and the summary line. Rendered only from the Plan data; colour is an injected port.

import type { Plan, PlanStep } from '../plan/plan';
import { summarizePlans } from '../plan/summary';
import { plainColours, type Colours } from './colour';
import { tableLines } from './table';
import { yamlText } from './yaml';
import { orphanTable } from './orphans-view';

const HEADERS = ['STEP', 'ACTION', 'TARGET', 'REASON'] as const;

function paint(action: PlanStep['action'], c: Colours): (s: string) => string {
  if (action === 'kill-pod' || action === 'kill-container') return c.bad;
  if (action === 'remove-init-container') return c.pending;
  return c.good;
}

function stepReason(s: PlanStep): string {
  if (!s.backOff || s.backOff.delaySeconds === 0) return s.reason;
  return `${s.reason}; back-off (estimate): ${s.backOff.note}`;
}

/** One plan as text (no trailing newline). */
export function renderPlan(plan: Plan, colors: Colours = plainColours): string {
  const lines: string[] = [];
  lines.push(
    `Pod ${plan.pod.namespace}/${plan.pod.name} (${plan.pod.uid ? `uid ${plan.pod.uid}` : "no uid: not on this node"}), kubelet ${plan.kubeletVersion}, ${plan.initPath} init path`,
  );
  if (plan.steps.length > 0) {
    const rows = plan.steps.map((s) => [String(s.step), s.action, s.target, stepReason(s)]);
    const [header, ...stepLines] = tableLines([[...HEADERS], ...rows]);
    lines.push(header);
    plan.steps.forEach((s, i) => lines.push(paint(s.action, colors)(stepLines[i])));
  }
  if (plan.duplicates.length > 0) {
    const n = plan.duplicates.length;
    lines.push(colors.bad(`Duplicates: ${n} other uid${n === 1 ? '' : 's'} of ${plan.pod.namespace}/${plan.pod.name} on this node; no desired pod owns ${n === 1 ? 'it' : 'them'}, so kubelet cleans ${n === 1 ? 'it' : 'them'} up (sync does so first)`));
    lines.push(...orphanTable(plan.duplicates));
  }
  for (const w of plan.waiting) lines.push(colors.pending(`Waiting: ${w}`));
  for (const h of plan.hashNotes) lines.push(colors.pending(`Hash: ${h}`));
  if (plan.assumptions.length > 0) {
    lines.push(colors.dim('Assumptions:'));
    for (const a of plan.assumptions) lines.push(colors.dim(`  - ${a}`));
  }
  lines.push(plan.changes ? plan.summary.text : colors.good(plan.summary.text));
  return lines.join('\n');
}

/** Several plans: one section each, separated by a blank line, then the overall summary. */
export function renderPlans(plans: Plan[], colors: Colours = plainColours): string {
  if (plans.length === 1) return renderPlan(plans[0], colors);
  return [...plans.map((p) => renderPlan(p, colors)), summarizePlans(plans)].join('\n\n');
}

/** `plan -o table|json|yaml`: one plan as itself, several as `{"plans": [...]}` (no trailing newline for the table). */
export function formatPlans(plans: Plan[], output: 'table' | 'json' | 'yaml', colors: Colours = plainColours): string {
  if (output === 'table') return renderPlans(plans, colors);
  const value = plans.length === 1 ? plans[0] : { plans };
  return output === 'json' ? JSON.stringify(value, null, 2) : yamlText(value, { sortKeys: false });
}
