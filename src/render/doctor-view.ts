// The doctor's report in every format: the human view (grouped by group: status symbol, id, the
// finding, the remedy; colour only through the palette), JSON and YAML (the DoctorReport contract),
// node-problem-detector's one line, and the node-exporter textfile-collector format.
import { CHECK_GROUPS, type CheckResult, type CheckStatus } from '../doctor/types';
import { npdStatus, type DoctorReport } from '../doctor/report';
import type { Colours } from './colour';
import { plainColours } from './colour';
import { yamlText } from './yaml';

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

/** Words of `text` in lines of at most `width` characters (a longer word stands alone). */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

/**
 * Columns padded to their widest cell; the wrapped columns share what the terminal width leaves.
 * (The same contract as wrappedTable in src/render/wrapped-table.ts, kept here until that lands.)
 */
function doctorTable(head: string[], rows: string[][], opts: { width?: number; wrap?: string[] }): string {
  const width = opts.width ?? 100;
  const wrapped = head.map((h) => (opts.wrap ?? []).includes(h));
  const visible = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '').length;
  const widths = head.map((h, i) => Math.max(visible(h), ...rows.map((r) => visible(r[i] ?? ''))));
  const fixed = widths.reduce((n, w, i) => n + (wrapped[i] ? 0 : w + 3), 0);
  // The wrapped columns share what is left: the narrow ones keep their width, the rest split the remainder.
  let left = width - fixed - 3 * Math.max(0, wrapped.filter(Boolean).length - 1);
  const open = head.map((_, i) => i).filter((i) => wrapped[i]).sort((a, b) => widths[a] - widths[b]);
  open.forEach((i, k) => {
    const share = Math.max(20, Math.floor(left / (open.length - k)));
    widths[i] = Math.min(widths[i], share);
    left -= widths[i];
  });
  const out: string[] = [];
  const emit = (cells: string[]) => {
    const split = cells.map((c, i) => (wrapped[i] ? wrapWords(c, widths[i]) : [c]));
    const height = Math.max(...split.map((s) => s.length));
    for (let l = 0; l < height; l++) {
      const parts = split.map((s, i) => {
        const cell = s[l] ?? '';
        return i === split.length - 1 ? cell : cell + ' '.repeat(Math.max(0, widths[i] - visible(cell)));
      });
      out.push(parts.join('   ').trimEnd());
    }
  };
  emit(head);
  for (const r of rows) emit(r);
  return out.join('\n');
}

/** The human view: one section per group in the registry's order, the summary last. */
export function renderDoctorTable(report: DoctorReport, colours: Colours = plainColours, width?: number): string {
  const sections: string[] = [];
  for (const group of CHECK_GROUPS) {
    const checks = report.checks.filter((c) => c.group === group);
    if (checks.length === 0) continue;
    const rows = checks.map((c) => [paintStatus(c.status, colours), c.id, c.summary, c.remedy ?? '']);
    sections.push(`${colours.header(group.toUpperCase())}\n${doctorTable(['STATUS', 'CHECK', 'FINDING', 'REMEDY'], rows, { width, wrap: ['FINDING', 'REMEDY'] })}`);
  }
  const s = report.summary;
  const line = s.status === 'fail' ? colours.bad(s.text) : s.status === 'warn' ? colours.pending(s.text) : colours.good(s.text);
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
  for (const c of ran) lines.push(`syncpod_doctor_check{check="${promLabel(c.id)}",group="${c.group}",node="${node}"} ${PROM_VALUE[c.status]}`);
  lines.push('# HELP syncpod_doctor_check_skipped 1 when a syncpod doctor check could not run on this node (the JSON output says why).');
  lines.push('# TYPE syncpod_doctor_check_skipped gauge');
  for (const c of report.checks) lines.push(`syncpod_doctor_check_skipped{check="${promLabel(c.id)}",group="${c.group}",node="${node}"} ${c.status === 'skip' ? 1 : 0}`);
  lines.push('# HELP syncpod_doctor_last_run_timestamp_seconds When syncpod doctor last finished on this node, in seconds since the epoch.');
  lines.push('# TYPE syncpod_doctor_last_run_timestamp_seconds gauge');
  lines.push(`syncpod_doctor_last_run_timestamp_seconds{node="${node}"} ${Math.floor(nowMs / 1000)}`);
  return `${lines.join('\n')}\n`;
}
