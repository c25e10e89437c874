// Table text for an upgrade preview, what the upgrade does first: each pod the target kubelet would
// restart or start something in (CONTAINER, STATE, UPGRADE, REASON, the reason wrapped to the width),
// with its notes; then each pod it leaves as it is in one line (counted when there are many, unless
// -v); the feature gates whose values differ; the summary line last. Only from the data.

import type { UpgradePlan, UpgradePod, UpgradeVerdict } from '../plan/upgrade';
import type { StartupFinding, StartupVerdict } from '../kubelet/startup-checks';
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

/** One finding: what fails, what the target kubelet does, the evidence, what to change, where the rule was read. */
function renderFinding(f: StartupFinding, width: number, c: Colours): string[] {
  const head = `${f.severity === 'blocker' ? 'BLOCKER' : 'WARNING'} ${f.rule}: ${f.summary}`;
  const lines = wrapText(head, width, '  ').map(f.severity === 'blocker' ? c.bad : c.pending);
  const more = [
    `kubelet: ${f.kubelet}`,
    ...f.evidence.map((e) => `evidence: ${e.name} = ${e.value}  (${e.from})`),
    `change: ${f.change}`,
    `rule read from: ${f.readFrom}`,
  ];
  for (const m of more) lines.push(...wrapText(`  ${m}`, width, '    '));
  return lines;
}

/** The node section: will the target kubelet start here, and why not. */
export function renderStartupVerdict(node: StartupVerdict, view: PlanView = {}): string {
  const colors = view.colours ?? plainColours;
  const width = view.width ?? DEFAULT_TABLE_WIDTH;
  const lines = wrapText(`Node: ${node.summary}`, width, '  ').map(node.starts ? colors.good : colors.bad);
  for (const f of [...node.blockers, ...node.warnings]) lines.push(...renderFinding(f, width, colors));
  const unread = node.unread.map((u) => (u === 'runtime' ? 'the runtime (no answer to Version)' : '/proc/swaps'));
  if (unread.length > 0) lines.push(...wrapText(`Not checked: ${unread.join(', ')}.`, width, '  ').map(colors.pending));
  return lines.join('\n');
}

/** The preview as text (no trailing newline). */
export function renderUpgradePlan(plan: UpgradePlan, view: PlanView = {}): string {
  const colors = view.colours ?? plainColours;
  // Pods with restarts first, then those with starts, pending work or notes (each group in the data's order).
  const touched = plan.pods.filter((p) => !untouched(p));
  const sections = [
    ...(plan.node ? [renderStartupVerdict(plan.node, view)] : []),
    ...[...touched.filter((p) => p.restarts > 0), ...touched.filter((p) => p.restarts === 0)].map((p) =>
      renderPod(p, view).join('\n'),
    ),
  ];
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
