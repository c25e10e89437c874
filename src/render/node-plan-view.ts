// Text for the node-wide plan and the node-wide sync, rendered only from their data: per pod its
// source, the preflight steps and the runtime plan; the orphans table; the summary line.
import type { NodePlan, NodePodPlan } from '../plan/node-plan';
import type { NodeSyncReport } from '../workflows/node-sync';
import { plainColours, type Colours } from './colour';
import { renderPlan } from './plan-view';
import { renderSyncReport } from './sync-view';
import { tableLines } from './table';
import { orphanTable } from './orphans-view';

function sourceLine(p: NodePodPlan): string {
  const s = p.source;
  if (s.kind === 'static-pod') {
    const uid = s.uidSource === 'computed' ? 'uid computed by syncpod' : s.uidSource === 'mirror-pod' ? "kubelet's uid from its mirror pod" : "kubelet's uid from the Pods API";
    return `Static pod from ${s.file} (${uid})`;
  }
  return `From ${s.file}${s.document ? ` document ${s.document}` : ''}${s.from ? `: ${s.from}` : ''}`;
}

function preflightLines(p: NodePodPlan, c: Colours): string[] {
  if (p.preflight.steps.length === 0) return [];
  const rows = p.preflight.steps.map((s) => ['pre', s.action, s.target, s.reason]);
  const [header, ...lines] = tableLines([['STEP', 'ACTION', 'TARGET', 'REASON'], ...rows]);
  return [c.dim('Before the runtime sync (kubelet.syncPod):'), header, ...lines.map((l, i) => (p.preflight.steps[i].blocking ? c.bad(l) : c.good(l)))];
}

export function renderOrphans(plan: NodePlan, c: Colours = plainColours): string[] {
  if (plan.orphans.length === 0) return [];
  return [c.pending(`Orphans: ${plan.orphans.length} pod${plan.orphans.length === 1 ? '' : 's'} with kubelet's labels that no desired pod owns`), ...orphanTable(plan.orphans)];
}

/** The whole node plan as text (ends with a newline). */
export function renderNodePlan(plan: NodePlan, c: Colours = plainColours): string {
  const sections: string[] = [];
  for (const p of plan.plans) {
    const lines = [c.dim(sourceLine(p)), ...preflightLines(p, c)];
    if (p.preflight.blocked) lines.push(c.bad(`Blocked: ${p.preflight.blocked}`));
    lines.push(renderPlan(p, c));
    sections.push(lines.join('\n'));
  }
  const orphans = renderOrphans(plan, c);
  if (orphans.length) sections.push(orphans.join('\n'));
  if (plan.problems.length) sections.push([c.bad('Input problems (not planned):'), ...plan.problems.map((x) => c.bad(`  ${x}`))].join('\n'));
  sections.push(plan.summary.changes ? plan.summary.text : c.good(plan.summary.text));
  return sections.join('\n\n') + '\n';
}

/** The node sync report as text (ends with a newline). */
export function renderNodeSync(report: NodeSyncReport): string {
  const out: string[] = [];
  for (const p of report.pods) {
    let text = '';
    if (p.preflight.length) {
      text += p.preflight.map((r) => `pre ${r.action} ${r.target}: ${r.ok ? 'ok' : 'refused'}${r.message ? ` ${r.message}` : ''}`).join('\n') + '\n';
    }
    if (p.results.length || !p.stopped) text += renderSyncReport({ pod: p.pod, ok: p.ok, stopped: p.stopped, rounds: 1, results: p.results });
    else text += `Pod ${p.pod.namespace}/${p.pod.name} (uid ${p.pod.uid}): not synced: ${p.stopped}\n`;
    out.push(text.trimEnd());
  }
  for (const o of report.orphans) {
    out.push(`Orphan ${o.namespace}/${o.name} (uid ${o.uid}): ${o.ok ? 'removed' : `failed: ${o.error}`}${o.done.length ? ` (${o.done.join(', ')})` : ''}`);
  }
  const synced = report.pods.length;
  const failed = report.pods.filter((p) => !p.ok).length;
  const parts = [`${synced} pod${synced === 1 ? '' : 's'} synced${failed ? ` (${failed} failed)` : ''}`, `${report.unchanged} unchanged`];
  if (report.orphans.length) parts.push(`${report.orphans.filter((o) => o.ok).length} of ${report.orphans.length} orphans removed`);
  if (report.orphansKept) parts.push(`${report.orphansKept} orphan${report.orphansKept === 1 ? '' : 's'} left (--remove-orphans removes them)`);
  if (report.problems.length) parts.push(`${report.problems.length} input problem${report.problems.length === 1 ? '' : 's'}`);
  out.push(`Node ${report.node}: ${parts.join(', ')}.`);
  return out.join('\n\n') + '\n';
}
