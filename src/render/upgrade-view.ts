// Table text for an upgrade preview, what the upgrade does first: each pod the target kubelet would
// restart or start something in (CONTAINER, STATE, UPGRADE, REASON, the reason wrapped to the width),
// with its notes; then each pod it leaves as it is in one line (counted when there are many, unless
// -v); the feature gates whose values differ; the summary line last. Only from the data.

import type { UpgradePlan, UpgradePod, UpgradeVerdict } from '../plan/upgrade';
import { plainColours, type Colours } from './colour';
import { UNCHANGED_LISTED, type PlanView } from './plan-view';
import { DEFAULT_TABLE_WIDTH, wrapText, wrappedTableRows } from './wrapped-table';
import { yamlText } from './yaml';

const HEADERS = ['CONTAINER', 'STATE', 'UPGRADE', 'REASON'];

function paint(v: UpgradeVerdict, c: Colours): (s: string) => string {
  if (v === 'restart') return c.bad;
  if (v === 'start' || v === 'pending') return c.pending;
  return (s) => s;
}

/** A pod the upgrade touches (or notes something about): every container, the notes. */
function renderPod(p: UpgradePod, view: PlanView): string[] {
  const colors = view.colours ?? plainColours;
  const lines = [
    `Pod ${p.pod.namespace}/${p.pod.name}${p.pod.uid ? ` (uid ${p.pod.uid})` : ''}: ${p.restarts} restart${p.restarts === 1 ? '' : 's'}`,
  ];
  const rows = p.containers.map((c) => [c.kind === 'init' ? `${c.name} (init)` : c.name, c.state, c.verdict, c.reason]);
  const [header, ...body] = wrappedTableRows(HEADERS, rows, { width: view.width, wrap: [3], moveLong: [2] });
  lines.push(...header!);
  body.forEach((row, i) => lines.push(...row.map(paint(p.containers[i]!.verdict, colors))));
  for (const n of p.notes)
    lines.push(...wrapText(`Note: ${n}`, view.width ?? DEFAULT_TABLE_WIDTH, '  ').map(colors.pending));
  return lines;
}

/** The upgrade changes nothing in this pod and has nothing to say about it. */
const untouched = (p: UpgradePod): boolean => p.notes.length === 0 && p.containers.every((c) => c.verdict === 'keep');

const keptLine = (p: UpgradePod): string =>
  `${p.pod.namespace}/${p.pod.name}  no restarts  (${p.containers.length} container${p.containers.length === 1 ? '' : 's'} kept)`;

const onOff = (v: boolean | null): string => (v === null ? 'absent' : v ? 'on' : 'off');

/** The preview as text (no trailing newline). */
export function renderUpgradePlan(plan: UpgradePlan, view: PlanView = {}): string {
  const colors = view.colours ?? plainColours;
  // Pods with restarts first, then those with starts, pending work or notes (each group in the data's order).
  const touched = plan.pods.filter((p) => !untouched(p));
  const sections = [...touched.filter((p) => p.restarts > 0), ...touched.filter((p) => p.restarts === 0)].map((p) =>
    renderPod(p, view).join('\n'),
  );
  const kept = plan.pods.filter(untouched);
  if (kept.length > 0) {
    sections.push(
      view.verbose || kept.length <= UNCHANGED_LISTED
        ? kept.map((p) => colors.good(keptLine(p))).join('\n')
        : colors.good(`${kept.length} pods with no restarts  (-v lists them)`),
    );
  }
  const tail: string[] = [];
  if (plan.gateChanges.length > 0) {
    tail.push(`Feature gates that differ (${plan.from} → ${plan.to}):`);
    for (const g of plan.gateChanges) tail.push(`  ${g.gate}: ${onOff(g.current)} → ${onOff(g.target)}`);
  }
  tail.push(plan.changes ? plan.summary.text : colors.good(plan.summary.text));
  return [...sections, tail.join('\n')].join('\n\n');
}

/** `plan --upgrade-to -o table|json|yaml`. */
export function formatUpgradePlan(plan: UpgradePlan, output: 'table' | 'json' | 'yaml', view: PlanView = {}): string {
  if (output === 'table') return renderUpgradePlan(plan, view);
  return output === 'json' ? JSON.stringify(plan, null, 2) : yamlText(plan, { sortKeys: false });
}
