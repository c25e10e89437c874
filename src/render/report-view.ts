// Table text for the fleet report: one row per node, then the pending pods, orphans and errors of
// each node that has any, then the summary line. Only from the FleetReport data. A DOCTOR column
// (the newest doctor report's worst status) and its findings appear when some node logged one.

import type { FleetReport } from '../fleet/report';
import { plainColours, type Colours } from './colour';
import { tableLines } from './table';

const HEADERS = ['NODE', 'PODS', 'CHANGES', 'BLOCKED', 'ORPHANS', 'ERRORS', 'RUNS', 'AT'] as const;

/** The report as text (no trailing newline). */
export function renderFleetReport(r: FleetReport, colors: Colours = plainColours): string {
  const out: string[] = [];
  if (r.nodes.length > 0) {
    const doctored = r.nodes.some((n) => n.doctor);
    const rows = r.nodes.map((n) => [
      n.node,
      String(n.pods),
      String(n.podsWithChanges),
      String(n.podsBlocked),
      String(n.orphans),
      String(n.errors.length + n.problems.length),
      String(n.runs),
      n.at ?? '-',
      ...(doctored ? [n.doctor ? (n.doctor.findings.length ? `${n.doctor.status} (${n.doctor.fail + n.doctor.warn})` : 'ok') : '-'] : []),
    ]);
    const [header, ...body] = tableLines([[...HEADERS, ...(doctored ? ['DOCTOR'] : [])], ...rows]);
    out.push(colors.header(header!));
    r.nodes.forEach((n, i) => {
      const paint = n.errors.length + n.problems.length > 0 || n.doctor?.status === 'fail' ? colors.bad : n.changes || n.doctor?.status === 'warn' ? colors.pending : (s: string) => s;
      out.push(paint(body[i]!));
    });
    const details: string[] = [];
    for (const n of r.nodes) {
      const lines = [
        ...n.pendingPods.map((p) => `  would change: ${p}`),
        ...n.orphanPods.map((p) => `  orphan: ${p}`),
        ...n.problems.map((p) => `  problem: ${p}`),
        ...n.errors.map((e) => `  error: ${e}`),
        ...(n.doctor?.findings ?? []).map((f) => `  doctor: ${f}`),
      ];
      if (lines.length > 0) details.push(`${n.node} (${n.source}):`, ...lines);
    }
    if (details.length > 0) out.push('', ...details);
    out.push('');
  }
  out.push(r.summary.nodesWithChanges + r.summary.nodesWithErrors + r.summary.nodesWithDoctorFindings > 0 ? r.summary.text : colors.good(r.summary.text));
  return out.join('\n');
}
