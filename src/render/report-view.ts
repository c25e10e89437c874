// Table text for the fleet report, what needs attention first: one row per node (nodes with errors,
// then nodes with changes or doctor findings, then the quiet ones; by name within each), then the
// pending pods, orphans and errors of each node that has any (wrapped to the width, never cut), then
// the summary line. Only from the FleetReport data. A DOCTOR column (the newest doctor report's
// worst status) and its findings appear when some node logged one.

import type { FleetReport } from '../fleet/report';
import { plainColours, type Colours } from './colour';
import { DEFAULT_TABLE_WIDTH, wrapText, wrappedTableRows } from './wrapped-table';

const HEADERS = ['NODE', 'PODS', 'CHANGES', 'BLOCKED', 'ORPHANS', 'ERRORS', 'RUNS', 'AT'] as const;

/** The report as text (no trailing newline). */
export function renderFleetReport(
  r: FleetReport,
  colors: Colours = plainColours,
  width: number = DEFAULT_TABLE_WIDTH,
): string {
  const out: string[] = [];
  if (r.nodes.length > 0) {
    const doctored = r.nodes.some((n) => n.doctor);
    const failing = (n: FleetReport['nodes'][number]) =>
      n.errors.length + n.problems.length > 0 || n.doctor?.status === 'fail';
    const pending = (n: FleetReport['nodes'][number]) => !failing(n) && (n.changes || n.doctor?.status === 'warn');
    const nodes = [
      ...r.nodes.filter(failing),
      ...r.nodes.filter(pending),
      ...r.nodes.filter((n) => !failing(n) && !pending(n)),
    ];
    const rows = nodes.map((n) => [
      n.node,
      String(n.pods),
      String(n.podsWithChanges),
      String(n.podsBlocked),
      String(n.orphans),
      String(n.errors.length + n.problems.length),
      String(n.runs),
      n.at ?? '-',
      ...(doctored
        ? [n.doctor ? (n.doctor.findings.length ? `${n.doctor.status} (${n.doctor.fail + n.doctor.warn})` : 'ok') : '-']
        : []),
    ]);
    const [header, ...body] = wrappedTableRows([...HEADERS, ...(doctored ? ['DOCTOR'] : [])], rows, { width });
    out.push(...header!.map(colors.header));
    nodes.forEach((n, i) => {
      const paint = failing(n) ? colors.bad : pending(n) ? colors.pending : (s: string) => s;
      out.push(...body[i]!.map(paint));
    });
    const details: string[] = [];
    for (const n of nodes) {
      const lines = [
        ...n.pendingPods.map((p) => `  would change: ${p}`),
        ...n.orphanPods.map((p) => `  orphan: ${p}`),
        ...n.problems.map((p) => `  problem: ${p}`),
        ...n.errors.map((e) => `  error: ${e}`),
        ...(n.doctor?.findings ?? []).map((f) => `  doctor: ${f}`),
      ];
      if (lines.length > 0)
        details.push(`${n.node} (${n.source}):`, ...lines.flatMap((l) => wrapText(l, width, '    ')));
    }
    if (details.length > 0) out.push('', ...details);
    out.push('');
  }
  out.push(
    r.summary.nodesWithChanges + r.summary.nodesWithErrors + r.summary.nodesWithDoctorFindings > 0
      ? r.summary.text
      : colors.good(r.summary.text),
  );
  return out.join('\n');
}
