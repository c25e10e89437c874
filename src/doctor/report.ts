// The doctor's report as data (the JSON/YAML contract), its summary, and the readings of it that
// scripts use: --detailed-exitcode, node-problem-detector's plugin status. Pure.
import type { CheckResult, CheckStatus } from './types';

export const DOCTOR_SCHEMA_VERSION = 1;

export interface DoctorSummary {
  /** The worst status of any check: fail > warn > ok; skip alone counts as ok. */
  status: 'ok' | 'warn' | 'fail';
  total: number;
  ok: number;
  warn: number;
  fail: number;
  skip: number;
  /** One sentence, e.g. "Node n1: 2 fail, 1 warn, 14 ok, 3 skipped (20 checks)." */
  text: string;
}

export interface DoctorReport {
  schemaVersion: number;
  node: string;
  /** When the checks ran (RFC 3339, UTC); null when not known. */
  observedAt: string | null;
  checks: CheckResult[];
  summary: DoctorSummary;
}

export function summarizeChecks(node: string, checks: readonly CheckResult[]): DoctorSummary {
  const count = (s: CheckStatus) => checks.filter((c) => c.status === s).length;
  const ok = count('ok');
  const warn = count('warn');
  const fail = count('fail');
  const skip = count('skip');
  const parts: string[] = [];
  if (fail) parts.push(`${fail} fail`);
  if (warn) parts.push(`${warn} warn`);
  parts.push(`${ok} ok`);
  if (skip) parts.push(`${skip} skipped`);
  return {
    status: fail ? 'fail' : warn ? 'warn' : 'ok',
    total: checks.length,
    ok,
    warn,
    fail,
    skip,
    text: `Node ${node}: ${parts.join(', ')} (${checks.length} ${checks.length === 1 ? 'check' : 'checks'}).`,
  };
}

export function buildDoctorReport(
  node: string,
  results: CheckResult[],
  observedAt: string | null = null,
): DoctorReport {
  const checks = foldCovered(results);
  return { schemaVersion: DOCTOR_SCHEMA_VERSION, node, observedAt, checks, summary: summarizeChecks(node, checks) };
}

/**
 * One finding, one row: a skip covered by another check's finding (coveredBy, e.g. no kubelet) is left
 * out, and the covering check's row names the checks it skips. Kept as a row when the covering check
 * did not run (--check kubelet.version alone).
 */
export function foldCovered(results: readonly CheckResult[]): CheckResult[] {
  const ran = new Set(results.map((r) => r.id));
  const skipped = new Map<string, string[]>();
  for (const r of results)
    if (r.coveredBy !== undefined && ran.has(r.coveredBy))
      skipped.set(r.coveredBy, [...(skipped.get(r.coveredBy) ?? []), r.id]);
  return results
    .filter((r) => r.coveredBy === undefined || !ran.has(r.coveredBy))
    .map((r) => {
      const { coveredBy: _covered, ...row } = r;
      const ids = skipped.get(r.id);
      if (!ids) return row;
      return { ...row, summary: `${row.summary.replace(/\.$/, '')} (skips ${ids.join(', ')}).`, skips: ids };
    });
}

/** --detailed-exitcode: 0 every check ok or skipped, 2 one warns or fails (1, syncpod could not run, is the error path). */
export function doctorExitCode(report: DoctorReport, detailed: boolean): 0 | 2 {
  return detailed && report.summary.status !== 'ok' ? 2 : 0;
}

export const NPD_OK = 0;
export const NPD_NON_OK = 1;
export const NPD_UNKNOWN = 2;
/**
 * node-problem-detector's custom plugin protocol keeps the first max_output_length bytes of
 * stdout as the condition message (pluginGlobalConfig.max_output_length, 80 by default).
 */
export const NPD_MAX_OUTPUT = 80;

/** The line cut to NPD's limit in UTF-8 bytes, never inside a character. */
export function clipForNpd(line: string, max = NPD_MAX_OUTPUT): string {
  if (Buffer.byteLength(line, 'utf8') <= max) return line;
  let out = '';
  for (const ch of line) {
    if (Buffer.byteLength(out + ch, 'utf8') > max - 3) break;
    out += ch;
  }
  return `${out}...`;
}

/**
 * The NPD reading: NonOK (exit 1) when a check fails or warns, naming the first; Unknown (2) when
 * every check was skipped (nothing could be read); OK (0) otherwise.
 */
export function npdStatus(report: DoctorReport): { exitCode: 0 | 1 | 2; line: string } {
  const s = report.summary;
  const first = report.checks.find((c) => c.status === 'fail') ?? report.checks.find((c) => c.status === 'warn');
  if (first) {
    const counts = [s.fail ? `${s.fail} fail` : '', s.warn ? `${s.warn} warn` : ''].filter(Boolean).join(', ');
    return { exitCode: NPD_NON_OK, line: clipForNpd(`NonOK: ${counts}: ${first.id}: ${first.summary}`) };
  }
  if (s.total > 0 && s.skip === s.total) {
    return {
      exitCode: NPD_UNKNOWN,
      line: clipForNpd(`Unknown: every check skipped: ${report.checks[0].id}: ${report.checks[0].summary}`),
    };
  }
  return { exitCode: NPD_OK, line: clipForNpd(`OK: ${s.ok} checks ok${s.skip ? `, ${s.skip} skipped` : ''}`) };
}
