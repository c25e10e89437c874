// The human view of plans, the verdict first: per pod a header (the init path only for a pod with
// init containers), the summary line, what changed in words (and what kubelet ignores), the steps
// (STEP, ACTION, TARGET, REASON in SyncPod order, reasons wrapped to the width), duplicates and
// waits; hash comparisons with -v. Then only the assumptions that could change the plan's outcome,
// one short sentence each (every assumption and its detail with -v; always whole in -o json|yaml).
// Rendered only from the Plan data; colour is an injected port.

import { assumptionText, type Plan, type PlanAssumption, type PlanStep } from '../plan/plan';
import { summarizePlans } from '../plan/summary';
import { plainColours, type Colours } from './colour';
import { DEFAULT_TABLE_WIDTH, wrapText, wrappedTableRows } from './wrapped-table';
import { yamlText } from './yaml';
import { orphanTable } from './orphans-view';
import { differenceLine, type ContainerDifference } from '../plan/container-differences';

/** How a plan view is drawn: palette, terminal width, and whether assumptions show their detail (-v). */
export interface PlanView {
  colours?: Colours;
  width?: number;
  verbose?: boolean;
}

const HEADERS = ['STEP', 'ACTION', 'TARGET', 'REASON'];

/** More pods without changes than this are counted in one line unless -v lists them. */
export const UNCHANGED_LISTED = 10;

function paint(action: PlanStep['action'], c: Colours): (s: string) => string {
  if (action === 'kill-pod' || action === 'kill-container') return c.bad;
  if (action === 'remove-init-container') return c.pending;
  return c.good;
}

export function stepReasonText(s: PlanStep): string {
  if (!s.backOff || s.backOff.delaySeconds === 0) return s.reason;
  return `${s.reason}; back-off (estimate): ${s.backOff.note}`;
}

/** The steps table, each row painted by its action, REASON wrapped to the width. */
export function stepLines(plan: Plan, view: PlanView): string[] {
  if (plan.steps.length === 0) return [];
  const c = view.colours ?? plainColours;
  const ref = `${plan.pod.namespace}/${plan.pod.name} `;
  const rows = plan.steps.map((s) => [
    String(s.step),
    s.action,
    s.target.startsWith(ref) ? s.target.slice(ref.length) : s.target,
    stepReasonText(s),
  ]);
  const [header, ...body] = wrappedTableRows(HEADERS, rows, { width: view.width, wrap: [3], moveLong: [2] });
  return [...header!, ...body.flatMap((lines, i) => lines.map((l) => paint(plan.steps[i]!.action, c)(l)))];
}

/** What needs attention in one plan besides its steps: duplicates, waiting and hash notes. */
function noteLines(plan: Plan, view: PlanView): string[] {
  const c = view.colours ?? plainColours;
  const width = view.width ?? DEFAULT_TABLE_WIDTH;
  const lines: string[] = [];
  if (plan.duplicates.length > 0) {
    const n = plan.duplicates.length;
    lines.push(
      c.bad(
        `Duplicates: ${n} other uid${n === 1 ? '' : 's'} of ${plan.pod.namespace}/${plan.pod.name} on this node; no desired pod owns ${n === 1 ? 'it' : 'them'}, so kubelet cleans ${n === 1 ? 'it' : 'them'} up (sync does so first)`,
      ),
    );
    lines.push(...orphanTable(plan.duplicates, width));
  }
  for (const w of plan.waiting) lines.push(...wrapText(`Waiting: ${w}`, width, '  ').map(c.pending));
  if (view.verbose) for (const h of plan.hashNotes) lines.push(...wrapText(`Hash: ${h}`, width, '  ').map(c.dim));
  return lines;
}

/** What changed in words, and what kubelet ignores (not changes: the containers keep running). */
export function differenceLines(
  plan: { differences?: ContainerDifference[]; ignoredDifferences?: ContainerDifference[] },
  view: PlanView,
): string[] {
  const c = view.colours ?? plainColours;
  const width = view.width ?? DEFAULT_TABLE_WIDTH;
  const lines: string[] = [];
  const applied = plan.differences ?? [];
  const ignored = plan.ignoredDifferences ?? [];
  if (applied.length) {
    lines.push('What changed:');
    for (const d of applied) lines.push(...wrapText(`  ${differenceLine(d)}`, width, '    '));
  }
  if (ignored.length) {
    lines.push(c.pending('Ignored by kubelet (not changes):'));
    for (const d of ignored) lines.push(...wrapText(`  ${differenceLine(d)}`, width, '    ').map(c.pending));
  }
  return lines;
}

/** A plan's assumptions as data, also for plans read from JSON written before assumptionNotes existed. */
export function notesOf(plan: Pick<Plan, 'assumptions'> & { assumptionNotes?: PlanAssumption[] }): PlanAssumption[] {
  return (
    plan.assumptionNotes?.map((a) => ({ ...a, affectsOutcome: a.affectsOutcome ?? true })) ??
    plan.assumptions.map((a) => ({ id: a, short: a, detail: '', affectsOutcome: true }))
  );
}

/** The assumptions a view shows: those that could change the outcome, or every one with -v. */
export function shownNotes(notes: PlanAssumption[], view: PlanView): PlanAssumption[] {
  return view.verbose ? notes : notes.filter((a) => a.affectsOutcome);
}

/** What an assumption shows: its short sentence, or with -v the whole text. */
function shown(a: PlanAssumption, view: PlanView): string {
  return view.verbose ? assumptionText(a) : a.short;
}

/** A bullet line wrapped to the width, continued under its text. */
function bullet(text: string, view: PlanView, indent = '  '): string[] {
  const c = view.colours ?? plainColours;
  return wrapText(`${indent}- ${text}`, view.width ?? DEFAULT_TABLE_WIDTH, `${indent}  `).map(c.dim);
}

/** The hint that -v shows more: the assumptions left out, the detail behind the others. */
function verboseHint(notes: PlanAssumption[], view: PlanView, indent = '  '): string[] {
  if (view.verbose) return [];
  const hidden = notes.filter((a) => !a.affectsOutcome).length;
  const detail = notes.some((a) => a.affectsOutcome && a.detail);
  if (!hidden && !detail) return [];
  const what = hidden
    ? `${hidden} more assumption${hidden === 1 ? '' : 's'}${detail ? ' and the detail of each' : ''}`
    : 'the detail behind each assumption';
  return [(view.colours ?? plainColours).dim(`${indent}(-v shows ${what}; -o json has them in full)`)];
}

/** Volumes that are more than a host path or a disk emptyDir: how each is provided, or why it cannot be. */
function volumeLines(plan: Plan, view: PlanView): string[] {
  const c = view.colours ?? plainColours;
  const width = view.width ?? DEFAULT_TABLE_WIDTH;
  const shown = (plan.volumes ?? []).filter((v) => v.provision !== 'host-path' && v.provision !== 'empty-dir');
  if (shown.length === 0) return [];
  const lines = ['Volumes:'];
  for (const v of shown) {
    const paint = v.provision === 'unsupported' ? c.bad : v.provision === 'skipped' ? c.pending : (s: string) => s;
    lines.push(...wrapText(`  - ${v.name} (${v.type}): ${v.provision}: ${v.detail}`, width, '    ').map(paint));
  }
  return lines;
}

/** `Pod ns/name (uid …), kubelet 1.37`, with the init path when the pod has init containers (or -v). */
export function headerLine(
  plan: Pick<Plan, 'pod' | 'kubeletVersion' | 'initPath'> & { outcome?: { initContainers: boolean } },
  view: PlanView,
): string {
  const init = plan.outcome?.initContainers !== false || view.verbose ? `, ${plan.initPath} init path` : '';
  return `Pod ${plan.pod.namespace}/${plan.pod.name} (${plan.pod.uid ? `uid ${plan.pod.uid}` : 'no uid: not on this node'}), kubelet ${plan.kubeletVersion}${init}`;
}

/** The verdict line: the plan's summary (a blocked pod's says why nothing will be done). */
function verdictLine(plan: Plan, view: PlanView): string {
  const c = view.colours ?? plainColours;
  if (plan.blocked) return c.bad(plan.summary.text);
  return plan.changes ? plan.summary.text : c.good(plan.summary.text);
}

/** A plan's header, verdict, differences, steps, volumes and notes: what every view of a pod starts with. */
function planLines(plan: Plan, view: PlanView): string[] {
  return [
    headerLine(plan, view),
    verdictLine(plan, view),
    ...differenceLines(plan, view),
    ...stepLines(plan, view),
    ...volumeLines(plan, view),
    ...noteLines(plan, view),
  ];
}

/** One plan as text (no trailing newline): header, verdict, changes in words, steps, notes, the assumptions that matter. */
export function renderPlan(plan: Plan, view: PlanView = {}): string {
  const c = view.colours ?? plainColours;
  const lines = planLines(plan, view);
  const notes = notesOf(plan);
  const shownOnes = shownNotes(notes, view);
  if (shownOnes.length > 0) {
    lines.push(c.dim(view.verbose ? 'Assumptions:' : 'Assumptions that could change this plan:'));
    for (const a of shownOnes) lines.push(...bullet(shown(a, view), view));
  }
  lines.push(...verboseHint(notes, view, shownOnes.length ? '  ' : ''));
  return lines.join('\n');
}

/** A pod of a multi-pod view: its plan, whether it needs attention, and its lines when it does. */
export interface PodEntry {
  plan: Pick<Plan, 'pod' | 'kubeletVersion' | 'assumptions' | 'waiting'> & { assumptionNotes?: PlanAssumption[] };
  /** The pod changes (or is blocked): shown with its lines, before every pod that does not. */
  attention: boolean;
  /** The pod's lines when it needs attention. */
  lines: string[];
}

const podRef = (p: PodEntry['plan']): string => `${p.pod.namespace}/${p.pod.name}`;

/** "a, b, c and 5 more" (every name with -v). */
function podList(refs: string[], view: PlanView): string {
  if (view.verbose || refs.length <= 3) return refs.join(', ');
  return `${refs.slice(0, 3).join(', ')} and ${refs.length - 3} more`;
}

/**
 * The assumptions of several pods: what every pod shares once, under one heading, last; the others
 * once each with the pods they hold for. Without -v they are compared by their short sentence.
 */
export function groupedAssumptions(entries: PodEntry[], view: PlanView): string[] {
  const c = view.colours ?? plainColours;
  if (entries.length === 0) return [];
  const key = (a: PlanAssumption) => shown(a, view);
  const byKey = new Map<string, { a: PlanAssumption; pods: string[] }>();
  const every: PlanAssumption[] = [];
  for (const e of entries) {
    const seen = new Set<string>();
    const notes = notesOf(e.plan);
    every.push(...notes);
    for (const a of shownNotes(notes, view)) {
      const k = key(a);
      if (seen.has(k)) continue;
      seen.add(k);
      const g = byKey.get(k) ?? { a, pods: [] };
      g.pods.push(podRef(e.plan));
      byKey.set(k, g);
    }
  }
  const groups = [...byKey.values()];
  const hidden = new Set(every.filter((a) => !a.affectsOutcome && !byKey.has(key(a))).map(key));
  const common = groups.filter((g) => g.pods.length === entries.length);
  const particular = groups.filter((g) => g.pods.length < entries.length);
  const lines: string[] = [];
  if (particular.length > 0) {
    lines.push(c.dim(view.verbose ? 'Assumptions for some pods:' : 'Assumptions that could change some plans:'));
    for (const g of particular) lines.push(...bullet(`${key(g.a)} (${podList(g.pods, view)})`, view));
  }
  if (common.length > 0) {
    lines.push(
      c.dim(
        view.verbose
          ? entries.length === 1
            ? 'Assumptions:'
            : `Assumptions for every pod (${entries.length}):`
          : entries.length === 1
            ? 'Assumptions that could change this plan:'
            : `Assumptions that could change every plan (${entries.length}):`,
      ),
    );
    for (const g of common) lines.push(...bullet(key(g.a), view));
  }
  const hint = [
    ...groups.map((g) => g.a),
    ...[...hidden].map((k) => ({ id: k, short: k, detail: '', affectsOutcome: false })),
  ];
  lines.push(...verboseHint(hint, view, lines.length ? '  ' : ''));
  return lines;
}

/** The one line of a pod without changes: `ns/name  no changes  (kubelet 1.37)`, or what it waits for. */
export function unchangedLine(p: PodEntry['plan']): string {
  const waits = p.waiting.length > 0 ? `no changes, waits: ${p.waiting.join('; ')}` : 'no changes';
  return `${podRef(p)}  ${waits}  (kubelet ${p.kubeletVersion})`;
}

/**
 * Pods without changes: one line each, or, when there are more than UNCHANGED_LISTED and no -v,
 * the ones that wait listed and the rest counted in one line.
 */
export function unchangedLines(entries: PodEntry[], view: PlanView): string[] {
  const c = view.colours ?? plainColours;
  const quiet = entries.filter((e) => !e.attention);
  if (view.verbose || quiet.length <= UNCHANGED_LISTED) return quiet.map((e) => c.good(unchangedLine(e.plan)));
  const waiting = quiet.filter((e) => e.plan.waiting.length > 0);
  const rest = quiet.filter((e) => e.plan.waiting.length === 0);
  const versions = [...new Set(rest.map((e) => e.plan.kubeletVersion))].join(', ');
  return [
    ...waiting.map((e) => c.pending(unchangedLine(e.plan))),
    ...(rest.length
      ? [
          c.good(
            `${rest.length} ${rest.length === 1 ? 'pod' : 'pods'} with no changes  (kubelet ${versions}; -v lists them)`,
          ),
        ]
      : []),
  ];
}

/** Several plans: the pods with changes in full, the others one line each, assumptions grouped, the overall summary. */
export function renderPlans(plans: Plan[], view: PlanView = {}): string {
  if (plans.length === 1) return renderPlan(plans[0]!, view);
  const c = view.colours ?? plainColours;
  const entries: PodEntry[] = plans.map((p) => ({
    plan: p,
    attention: p.changes || (p.ignoredDifferences ?? []).length > 0 || (p.blocked ?? null) !== null,
    lines: planLines(p, view),
  }));
  const sections = entries.filter((e) => e.attention).map((e) => e.lines.join('\n'));
  const quiet = unchangedLines(entries, view);
  if (quiet.length) sections.push(quiet.join('\n'));
  const assumptions = groupedAssumptions(entries, view);
  if (assumptions.length) sections.push(assumptions.join('\n'));
  const summary = summarizePlans(plans);
  sections.push(plans.some((p) => p.changes) ? summary : c.good(summary));
  return sections.join('\n\n');
}

/** `plan -o table|json|yaml`: one plan as itself, several as `{"plans": [...]}` (no trailing newline for the table). */
export function formatPlans(plans: Plan[], output: 'table' | 'json' | 'yaml', view: PlanView = {}): string {
  if (output === 'table') return renderPlans(plans, view);
  const value = plans.length === 1 ? plans[0] : { plans };
  return output === 'json' ? JSON.stringify(value, null, 2) : yamlText(value, { sortKeys: false });
}
