// The human view of plans, changes first: per pod its steps (STEP, ACTION, TARGET, REASON in SyncPod
// order, the reasons wrapped to the width), duplicates, waiting and hash notes; a pod without changes
// in one line; then the assumptions, those every pod shares once under one heading and the others
// with the pods they belong to, each one short sentence (the detail with -v; always whole in
// -o json|yaml); the summary line last. Rendered only from the Plan data; colour is an injected port.

import { assumptionText, type Plan, type PlanAssumption, type PlanStep } from '../plan/plan';
import { summarizePlans } from '../plan/summary';
import { plainColours, type Colours } from './colour';
import { DEFAULT_TABLE_WIDTH, wrapText, wrappedTableRows } from './wrapped-table';
import { yamlText } from './yaml';
import { orphanTable } from './orphans-view';

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

function stepReason(s: PlanStep): string {
  if (!s.backOff || s.backOff.delaySeconds === 0) return s.reason;
  return `${s.reason}; back-off (estimate): ${s.backOff.note}`;
}

/** The steps table, each row painted by its action, REASON wrapped to the width. */
export function stepLines(plan: Plan, view: PlanView): string[] {
  if (plan.steps.length === 0) return [];
  const c = view.colours ?? plainColours;
  const rows = plan.steps.map((s) => [String(s.step), s.action, s.target, stepReason(s)]);
  const [header, ...body] = wrappedTableRows(HEADERS, rows, { width: view.width, wrap: [3] });
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
  for (const h of plan.hashNotes) lines.push(...wrapText(`Hash: ${h}`, width, '  ').map(c.pending));
  return lines;
}

/** A plan's assumptions as data, also for plans read from JSON written before assumptionNotes existed. */
export function notesOf(plan: Pick<Plan, 'assumptions'> & { assumptionNotes?: PlanAssumption[] }): PlanAssumption[] {
  return plan.assumptionNotes ?? plan.assumptions.map((a) => ({ id: a, short: a, detail: '' }));
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

/** The hint that -v shows more, when some assumption has a detail to show. */
function verboseHint(notes: PlanAssumption[], view: PlanView): string[] {
  if (view.verbose || !notes.some((a) => a.detail)) return [];
  return [
    (view.colours ?? plainColours).dim('  (-v shows the detail behind each assumption; -o json has them in full)'),
  ];
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

/** A plan's header line, its blocking cause, its steps and its notes: what every view of a pod with changes starts with. */
function planLines(plan: Plan, view: PlanView): string[] {
  const c = view.colours ?? plainColours;
  const width = view.width ?? DEFAULT_TABLE_WIDTH;
  return [
    `Pod ${plan.pod.namespace}/${plan.pod.name} (${plan.pod.uid ? `uid ${plan.pod.uid}` : 'no uid: not on this node'}), kubelet ${plan.kubeletVersion}, ${plan.initPath} init path`,
    ...(plan.blocked ? wrapText(`BLOCKED: ${plan.blocked}`, width, '  ').map(c.bad) : []),
    ...stepLines(plan, view),
    ...volumeLines(plan, view),
    ...noteLines(plan, view),
  ];
}

/** One plan as text (no trailing newline): header, steps, notes, its assumptions, the summary line. */
export function renderPlan(plan: Plan, view: PlanView = {}): string {
  const c = view.colours ?? plainColours;
  const lines = planLines(plan, view);
  const notes = notesOf(plan);
  if (notes.length > 0) {
    lines.push(c.dim('Assumptions:'));
    for (const a of notes) lines.push(...bullet(shown(a, view), view));
    lines.push(...verboseHint(notes, view));
  }
  lines.push(plan.blocked ? c.bad(plan.summary.text) : plan.changes ? plan.summary.text : c.good(plan.summary.text));
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
  for (const e of entries) {
    const seen = new Set<string>();
    for (const a of notesOf(e.plan)) {
      const k = key(a);
      if (seen.has(k)) continue;
      seen.add(k);
      const g = byKey.get(k) ?? { a, pods: [] };
      g.pods.push(podRef(e.plan));
      byKey.set(k, g);
    }
  }
  const groups = [...byKey.values()];
  const common = groups.filter((g) => g.pods.length === entries.length);
  const particular = groups.filter((g) => g.pods.length < entries.length);
  const lines: string[] = [];
  if (particular.length > 0) {
    lines.push(c.dim('Assumptions for some pods:'));
    for (const g of particular) lines.push(...bullet(`${key(g.a)} (${podList(g.pods, view)})`, view));
  }
  if (common.length > 0) {
    lines.push(c.dim(entries.length === 1 ? 'Assumptions:' : `Assumptions for every pod (${entries.length}):`));
    for (const g of common) lines.push(...bullet(key(g.a), view));
  }
  lines.push(
    ...verboseHint(
      groups.map((g) => g.a),
      view,
    ),
  );
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
    attention: p.changes || p.blocked !== null,
    lines: [...planLines(p, view), p.summary.text],
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
