// The doctor's report in every format: the human view (grouped by group, what needs attention
// first: status symbol, id, the finding, the remedy; colour only through the palette), JSON and YAML (the DoctorReport contract),
// node-problem-detector's one line, and the node-exporter textfile-collector format.
import { CHECK_GROUPS, type CheckResult, type CheckStatus } from '../doctor/types';
import { npdStatus, type DoctorReport } from '../doctor/report';
import type { Colours } from './colour';
import { plainColours } from './colour';
import { yamlText } from './yaml';
import { wrappedTable } from './wrapped-table';

export const DOCTOR_OUTPUTS = ['table', 'json', 'yaml', 'npd', 'prometheus'] as const;
export type DoctorOutput = (typeof DOCTOR_OUTPUTS)[number];

const SYMBOL: Record<CheckStatus, string> = { ok: '✔', warn: '!', fail: '✘', skip: '-' };

function paintStatus(status: CheckStatus, colours: Colours): string {
  const text = `${SYMBOL[status]} ${status}`;
  if (status === 'ok') return colours.good(text);
  if (status === 'fail') return colours.bad(text);
  if (status === 'warn') return colours.pending(text);
  return colours.dim(text);
}

/** fail, warn, skip (could not run), ok: what needs attention first. */
const ATTENTION: Record<CheckStatus, number> = { fail: 0, warn: 1, skip: 2, ok: 3 };

/**
 * The human view, what needs attention first: the groups with a fail or warn before the others
 * (each set in the registry's order), in each group its checks by status (fail, warn, skip, ok;
 * the registry's order within a status), FINDING and REMEDY wrapped to the width; the summary last.
 */
export function renderDoctorTable(report: DoctorReport, colours: Colours = plainColours, width?: number): string {
  const sections: string[] = [];
  const groups = CHECK_GROUPS.map((group) => ({
    group,
    checks: report.checks.filter((c) => c.group === group),
  })).filter((g) => g.checks.length > 0);
  const alarming = (g: (typeof groups)[number]) => g.checks.some((c) => c.status === 'fail' || c.status === 'warn');
  for (const { group, checks } of [...groups.filter(alarming), ...groups.filter((g) => !alarming(g))]) {
    const ordered = checks
      .map((c, i) => ({ c, i }))
      .sort((a, b) => ATTENTION[a.c.status] - ATTENTION[b.c.status] || a.i - b.i)
      .map((x) => x.c);
    const rows = ordered.map((c) => [paintStatus(c.status, colours), c.id, c.summary, c.remedy ?? '']);
    sections.push(
      `${colours.header(group.toUpperCase())}\n${wrappedTable(['STATUS', 'CHECK', 'FINDING', 'REMEDY'], rows, { width, wrap: [2, 3] })}`,
    );
  }
  const s = report.summary;
  const line =
    s.status === 'fail' ? colours.bad(s.text) : s.status === 'warn' ? colours.pending(s.text) : colours.good(s.text);
  sections.push(line);
  return `${sections.join('\n\n')}\n`;
}

export function renderDoctorJson(report: DoctorReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

export function renderDoctorYaml(report: DoctorReport): string {
  return yamlText(JSON.parse(JSON.stringify(report)));
}

/** node-problem-detector's custom plugin: one line on stdout, the exit code is the status. */
export function renderDoctorNpd(report: DoctorReport): { text: string; exitCode: 0 | 1 | 2 } {
  const s = npdStatus(report);
  return { text: `${s.line}\n`, exitCode: s.exitCode };
}

const PROM_VALUE: Record<Exclude<CheckStatus, 'skip'>, number> = { ok: 0, warn: 1, fail: 2 };

/** A label value in the Prometheus text format: backslash, double quote and newline escaped. */
export function promLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/**
 * The node-exporter textfile-collector format (Prometheus text exposition 0.0.4): one gauge per
 * check that ran (0 ok, 1 warn, 2 fail), one for each skipped check, and when the run ended.
 * Timestamps are not written per sample (the textfile collector refuses them).
 */
export function renderDoctorPrometheus(report: DoctorReport, nowMs: number): string {
  const node = promLabel(report.node);
  const lines = [
    '# HELP syncpod_doctor_check Result of a syncpod doctor check: 0 ok, 1 warn, 2 fail.',
    '# TYPE syncpod_doctor_check gauge',
  ];
  const ran = report.checks.filter((c): c is CheckResult & { status: 'ok' | 'warn' | 'fail' } => c.status !== 'skip');
  for (const c of ran)
    lines.push(
      `syncpod_doctor_check{check="${promLabel(c.id)}",group="${c.group}",node="${node}"} ${PROM_VALUE[c.status]}`,
    );
  lines.push(
    '# HELP syncpod_doctor_check_skipped 1 when a syncpod doctor check could not run on this node (the JSON output says why).',
  );
  lines.push('# TYPE syncpod_doctor_check_skipped gauge');
  for (const c of report.checks)
    lines.push(
      `syncpod_doctor_check_skipped{check="${promLabel(c.id)}",group="${c.group}",node="${node}"} ${c.status === 'skip' ? 1 : 0}`,
    );
  lines.push(
    '# HELP syncpod_doctor_last_run_timestamp_seconds When syncpod doctor last finished on this node, in seconds since the epoch.',
  );
  lines.push('# TYPE syncpod_doctor_last_run_timestamp_seconds gauge');
  lines.push(`syncpod_doctor_last_run_timestamp_seconds{node="${node}"} ${Math.floor(nowMs / 1000)}`);
  return `${lines.join('\n')}\n`;
}
