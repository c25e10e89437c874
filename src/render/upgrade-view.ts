// Table text for an upgrade preview: one section per pod (CONTAINER, STATE, UPGRADE, REASON),
// pod notes, the feature gates whose values differ, then the summary line. Only from the data.

import type { UpgradePlan, UpgradePod, UpgradeVerdict } from '../plan/upgrade';
import { plainColours, type Colours } from './colour';
import { tableLines } from './table';
import { yamlText } from './yaml';

const HEADERS = ['CONTAINER', 'STATE', 'UPGRADE', 'REASON'] as const;

function paint(v: UpgradeVerdict, c: Colours): (s: string) => string {
  if (v === 'restart') return c.bad;
  if (v === 'start' || v === 'pending') return c.pending;
  return (s) => s;
}

function renderPod(p: UpgradePod, colors: Colours): string[] {
  const lines = [`Pod ${p.pod.namespace}/${p.pod.name}${p.pod.uid ? ` (uid ${p.pod.uid})` : ''}: ${p.restarts} restart${p.restarts === 1 ? '' : 's'}`];
  const rows = p.containers.map((c) => [c.kind === 'init' ? `${c.name} (init)` : c.name, c.state, c.verdict, c.reason]);
  const [header, ...body] = tableLines([[...HEADERS], ...rows]);
  lines.push(header!);
  p.containers.forEach((c, i) => lines.push(paint(c.verdict, colors)(body[i]!)));
  for (const n of p.notes) lines.push(colors.pending(`Note: ${n}`));
  return lines;
}

const onOff = (v: boolean | null): string => (v === null ? 'absent' : v ? 'on' : 'off');

/** The preview as text (no trailing newline). */
export function renderUpgradePlan(plan: UpgradePlan, colors: Colours = plainColours): string {
  const sections = plan.pods.map((p) => renderPod(p, colors).join('\n'));
  const tail: string[] = [];
  if (plan.gateChanges.length > 0) {
    tail.push(`Feature gates that differ (${plan.from} → ${plan.to}):`);
    for (const g of plan.gateChanges) tail.push(`  ${g.gate}: ${onOff(g.current)} → ${onOff(g.target)}`);
  }
  tail.push(plan.changes ? plan.summary.text : colors.good(plan.summary.text));
  return [...sections, tail.join('\n')].join('\n\n');
}

/** `plan --upgrade-to -o table|json|yaml`. */
export function formatUpgradePlan(plan: UpgradePlan, output: 'table' | 'json' | 'yaml', colors: Colours = plainColours): string {
  if (output === 'table') return renderUpgradePlan(plan, colors);
  return output === 'json' ? JSON.stringify(plan, null, 2) : yamlText(plan, { sortKeys: false });
}
