// Text for the node-wide plan and the node-wide sync, rendered only from their data, what needs
// attention first: input problems; each pod with changes (its source, the preflight steps, the
// runtime plan); the orphans; the pods without changes one line each (counted in one line when
// there are many, unless -v); the assumptions grouped; the summary line last.
import type { NodePlan, NodePodPlan } from '../plan/node-plan';
import { podChanges } from '../plan/node-plan';
import type { NodeSyncReport } from '../sync/node-sync-report';
import { plainColours } from './colour';
import {
  differenceLines,
  groupedAssumptions,
  stepLines,
  stepReasonText,
  unchangedLines,
  type PlanView,
  type PodEntry,
} from './plan-view';
import { orphanTable } from './orphans-view';
import { renderSyncReport } from './sync-view';
import { DEFAULT_TABLE_WIDTH, wrapText, wrappedTableRows } from './wrapped-table';

function sourceLine(p: NodePodPlan): string {
  const s = p.source;
  if (s.kind === 'static-pod') {
    const uid =
      s.uidSource === 'computed'
        ? 'uid computed by syncpod'
        : s.uidSource === 'manifest'
          ? 'uid from the file'
          : s.uidSource === 'mirror-pod'
            ? "kubelet's uid from its mirror pod"
            : "kubelet's uid from the Pods API";
    return `Static pod from ${s.file} (${uid})`;
  }
  return `From ${s.file}${s.document ? ` document ${s.document}` : ''}${s.from ? `: ${s.from}` : ''}`;
}

/** A step's target inside its pod's entry: `ns/name attempt 1` reads `attempt 1` there. */
function inPod(p: Pick<NodePodPlan, 'pod'>, target: string): string {
  const ref = `${p.pod.namespace}/${p.pod.name} `;
  return target.startsWith(ref) ? target.slice(ref.length) : target;
}

/**
 * One table in kubelet's order: a replaced static pod's old uid (terminated first), the preflight
 * (kubelet.syncPod before the runtime), then the runtime sync's steps, each row painted by its kind.
 */
function stepTableLines(p: NodePodPlan, view: PlanView): string[] {
  const c = view.colours ?? plainColours;
  const rows: Array<{ cells: string[]; paint: (s: string) => string }> = [
    ...(p.replaces?.steps ?? []).map((s) => ({ cells: ['old', s.action, s.target, s.reason], paint: c.bad })),
    ...p.preflight.steps.map((s) => ({
      cells: ['pre', s.action, s.target, s.reason],
      paint: s.blocking ? c.bad : c.good,
    })),
  ];
  if (rows.length === 0) return stepLines(p, view);
  for (const s of p.steps) {
    rows.push({
      cells: [String(s.step), s.action, inPod(p, s.target), stepReasonText(s)],
      paint: s.action === 'kill-pod' || s.action === 'kill-container' ? c.bad : c.good,
    });
  }
  const [header, ...body] = wrappedTableRows(
    ['STEP', 'ACTION', 'TARGET', 'REASON'],
    rows.map((r) => r.cells),
    { width: view.width, wrap: [3], moveLong: [2] },
  );
  return [...header!, ...body.flatMap((lines, i) => lines.map(rows[i]!.paint))];
}

export function renderOrphans(plan: NodePlan, view: PlanView = {}): string[] {
  // The old uid of a replaced static pod is shown with the pod that replaces it.
  const replaced = new Set(plan.plans.flatMap((p) => (p.replaces ? [p.replaces.uid] : [])));
  const orphans = plan.orphans.filter((o) => !replaced.has(o.uid));
  if (orphans.length === 0) return [];
  const c = view.colours ?? plainColours;
  return [
    c.pending(
      `Orphans: ${orphans.length} pod${orphans.length === 1 ? '' : 's'} with kubelet's labels that no desired pod owns`,
    ),
    ...orphanTable(orphans, view.width),
  ];
}

/** A pod with changes: what it is and where it came from, preflight, steps, notes, its summary line. */
function podLines(p: NodePodPlan, view: PlanView): string[] {
  const c = view.colours ?? plainColours;
  const width = view.width ?? DEFAULT_TABLE_WIDTH;
  const lines = p.replaces
    ? [
        ...wrapText(`Pod ${p.pod.namespace}/${p.pod.name}: ${p.replaces.text}`, width, '  '),
        ...(view.verbose ? wrapText(`  ${sourceLine(p)}`, width, '    ').map(c.dim) : []),
      ]
    : wrapText(
        `Pod ${p.pod.namespace}/${p.pod.name} (${p.pod.uid ? `uid ${p.pod.uid}` : 'no uid yet'}): ${sourceLine(p).replace(/^[A-Z]/, (x) => x.toLowerCase())}`,
        width,
        '  ',
      );
  if (view.verbose) lines.push(c.dim(`  kubelet ${p.kubeletVersion}, ${p.initPath} init path`));
  lines.push(
    p.changes
      ? p.summary.text
      : p.preflight.steps.length
        ? 'No runtime changes; the preflight below is the work.'
        : c.good(p.summary.text),
  );
  const replaced = p.replaces?.differences ?? [];
  lines.push(
    ...differenceLines(
      replaced.length
        ? { differences: [...replaced, ...(p.differences ?? [])], ignoredDifferences: p.ignoredDifferences }
        : p,
      view,
    ),
  );
  if (p.replaces?.compared && replaced.length === 0)
    lines.push(
      ...wrapText(
        'What changed: no field the runtime records (a probe, a lifecycle hook, securityContext, a label?); kubelet replaces the pod for any change to its file',
        width,
        '  ',
      ),
    );
  if (p.preflight.blocked) lines.push(...wrapText(`Blocked: ${p.preflight.blocked}`, width, '  ').map(c.bad));
  lines.push(...stepTableLines(p, view));
  for (const w of p.waiting) lines.push(...wrapText(`Waiting: ${w}`, width, '  ').map(c.pending));
  if (view.verbose) for (const h of p.hashNotes) lines.push(...wrapText(`Hash: ${h}`, width, '  ').map(c.dim));
  return lines;
}

/** The whole node plan as text (ends with a newline). */
export function renderNodePlan(plan: NodePlan, view: PlanView = {}): string {
  const c = view.colours ?? plainColours;
  const width = view.width ?? DEFAULT_TABLE_WIDTH;
  const sections: string[] = [];
  if (plan.problems.length) {
    sections.push(
      [
        c.bad('Input problems (not planned):'),
        ...plan.problems.flatMap((x) => wrapText(`  ${x}`, width, '    ').map(c.bad)),
      ].join('\n'),
    );
  }
  const entries: PodEntry[] = plan.plans.map((p) => {
    const attention = podChanges(p) || p.preflight.blocked !== null || (p.ignoredDifferences ?? []).length > 0;
    return { plan: p, attention, lines: attention ? podLines(p, view) : [] };
  });
  for (const e of entries) if (e.attention) sections.push(e.lines.join('\n'));
  const orphans = renderOrphans(plan, view);
  if (orphans.length) sections.push(orphans.join('\n'));
  const quiet = unchangedLines(entries, view);
  if (quiet.length) sections.push(quiet.join('\n'));
  const assumptions = groupedAssumptions(entries, view);
  if (assumptions.length) sections.push(assumptions.join('\n'));
  sections.push(plan.summary.changes ? plan.summary.text : c.good(plan.summary.text));
  return sections.join('\n\n') + '\n';
}

/** The node sync report as text (ends with a newline). */
export function renderNodeSync(report: NodeSyncReport, width: number = DEFAULT_TABLE_WIDTH): string {
  const out: string[] = [];
  // The pods whose sync failed first, then the others (each set in the node plan's order).
  for (const p of [...report.pods.filter((x) => !x.ok), ...report.pods.filter((x) => x.ok)]) {
    let text = '';
    if (p.preflight.length) {
      text +=
        p.preflight
          .map((r) => `pre ${r.action} ${r.target}: ${r.ok ? 'ok' : 'refused'}${r.message ? ` ${r.message}` : ''}`)
          .join('\n') + '\n';
    }
    if (p.results.length || !p.stopped)
      text += renderSyncReport({ pod: p.pod, ok: p.ok, stopped: p.stopped, rounds: 1, results: p.results }, { width });
    else text += `Pod ${p.pod.namespace}/${p.pod.name} (uid ${p.pod.uid}): not synced: ${p.stopped}\n`;
    out.push(text.trimEnd());
  }
  for (const o of report.orphans) {
    out.push(
      `Orphan ${o.namespace}/${o.name} (uid ${o.uid}): ${o.ok ? 'removed' : `failed: ${o.error}`}${o.done.length ? ` (${o.done.join(', ')})` : ''}`,
    );
  }
  const synced = report.pods.length;
  const failed = report.pods.filter((p) => !p.ok).length;
  const parts = [
    `${synced} pod${synced === 1 ? '' : 's'} synced${failed ? ` (${failed} failed)` : ''}`,
    `${report.unchanged} unchanged`,
  ];
  if (report.orphans.length)
    parts.push(`${report.orphans.filter((o) => o.ok).length} of ${report.orphans.length} orphans removed`);
  if (report.orphansKept)
    parts.push(
      `${report.orphansKept} orphan${report.orphansKept === 1 ? '' : 's'} left (--remove-orphans removes them)`,
    );
  if (report.problems.length)
    parts.push(`${report.problems.length} input problem${report.problems.length === 1 ? '' : 's'}`);
  out.push(`Node ${report.node}: ${parts.join(', ')}.`);
  return out.join('\n\n') + '\n';
}
