// `npm run oracle -- ... --record`: a run's counts, kept per minor in src/kubelet/oracle-checked.json,
// the file every plan's "checked against kubelet v1.M.P: N scenarios agree" line is read from. A
// minor's entry is { release, scenariosAgreed, ... , runs }: each run group (kubelet's cases, one
// seed of random scenarios) is kept once, the newest run replacing an older one of the same group,
// and the totals are their sums. A new release of the minor starts its entry afresh.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Report } from './run';

export const CHECKED_FILE = join(__dirname, '..', '..', 'src', 'kubelet', 'oracle-checked.json');

export interface CheckedEntry {
  release: string;
  scenariosAgreed: number;
  scenariosKnown: number;
  scenariosDisagreed: number;
  runs: Record<string, { scenarios: number; agreed: number; known: number; disagreed: number; gateTable: number }>;
}

/** The entry of `minor` after this report, from the entry before it (pure). */
export function recordedEntry(before: CheckedEntry | undefined, report: Report): CheckedEntry {
  const runs = before && before.release === report.kubelet ? { ...before.runs } : {};
  for (const [group, c] of Object.entries(report.groups ?? {}))
    runs[group] = { ...c, disagreed: c.disagreed, gateTable: report.gateTable.length };
  const sum = (k: 'agreed' | 'known' | 'disagreed') => Object.values(runs).reduce((n, r) => n + r[k], 0);
  return {
    release: report.kubelet,
    scenariosAgreed: sum('agreed'),
    scenariosKnown: sum('known'),
    scenariosDisagreed: sum('disagreed') + Object.values(runs).reduce((n, r) => n + r.gateTable, 0),
    runs: Object.fromEntries(Object.entries(runs).sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))),
  };
}

/** Writes the minor's entry; returns the file. */
export function recordRun(minor: string, report: Report, file = CHECKED_FILE): string {
  const all: Record<string, CheckedEntry> = JSON.parse(readFileSync(file, 'utf8'));
  all[minor] = recordedEntry(all[minor], report);
  const sorted = Object.fromEntries(
    Object.entries(all).sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })),
  );
  writeFileSync(file, `${JSON.stringify(sorted, null, 2)}\n`);
  return file;
}
