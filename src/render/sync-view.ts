// What `syncpod sync` shows: progress (an interface with two implementations: an ora spinner per
// step on a terminal, plain lines otherwise — both on stderr) and the result summary (a table or
// JSON on stdout), rendered from the same SyncReport data.
import type { Plan, PlanStep } from '../plan/plan';
import type { ProtoJSON } from './list-output';
import { renderPlans } from './plan-view';
import { DEFAULT_TABLE_WIDTH, wrapText, wrappedTable } from './wrapped-table';
import type { StepResult, SyncHooks } from '../sync/types';
import type { OrphanRemoval } from '../sync/remove-orphan';

export interface SyncTimings {
  /** Wall time of the whole command. */
  totalMs: number;
  /** Observing and planning (before and between executions). */
  planMs: number;
  /** Time inside runtime/image RPCs (observation and steps). */
  rpcMs: number;
  /** totalMs - rpcMs: syncpod's own time (loading, config generation, fs work, process start excluded). */
  ownMs: number;
}

export interface SyncReport {
  pod: { namespace: string; name: string; uid: string };
  ok: boolean;
  /** '' when the sync ran to its end. */
  stopped: string;
  rounds: number;
  results: StepResult[];
  /** Other uids of the pod's namespace/name killed and removed first (single-pod sync; absent in node syncs). */
  duplicates?: OrphanRemoval[];
  timings?: SyncTimings;
}

export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  return `${(ms / 1000).toFixed(2)}s`;
}

export function stepLabel(r: { round: number; step: number }, multi: boolean): string {
  if (r.step === 0) return multi ? `${r.round}.w` : 'w';
  return multi ? `${r.round}.${r.step}` : String(r.step);
}

/** The summary table (ends with a newline): MESSAGE wraps to the width, never cut. */
export function renderSyncReport(report: SyncReport, opts: { timings?: boolean; width?: number } = {}): string {
  const width = opts.width ?? DEFAULT_TABLE_WIDTH;
  const multi = report.rounds > 1;
  const head = ['STEP', 'ACTION', 'TARGET', 'RESULT', 'DURATION', ...(opts.timings ? ['RPC'] : []), 'MESSAGE'];
  const rows = report.results.map((r) => [
    stepLabel(r, multi),
    r.action,
    r.target,
    r.ok ? 'ok' : (r.error ?? 'failed'),
    formatMs(r.durationMs),
    ...(opts.timings ? [formatMs(r.rpcMs)] : []),
    r.message,
  ]);
  const lines: string[] = [`Pod ${report.pod.namespace}/${report.pod.name} (uid ${report.pod.uid})`];
  const duplicates = report.duplicates ?? [];
  for (const d of duplicates) {
    lines.push(
      ...wrapText(
        `Duplicate ${d.namespace}/${d.name} (uid ${d.uid}): ${d.ok ? 'removed' : `failed: ${d.error}`}${d.done.length ? ` (${d.done.join(', ')})` : ''}`,
        width,
        '  ',
      ),
    );
  }
  if (rows.length) lines.push(wrappedTable(head, rows, { width, wrap: [head.length - 1] }));
  const failed = report.results.filter((r) => !r.ok).length;
  const removed = duplicates.filter((d) => d.ok).length;
  const dupText = duplicates.length
    ? `${removed} of ${duplicates.length} duplicate${duplicates.length === 1 ? '' : 's'} removed`
    : '';
  const stepText = `${rows.length} step${rows.length === 1 ? '' : 's'}${multi ? ` in ${report.rounds} plans` : ''}`;
  if (rows.length === 0 && duplicates.length === 0)
    lines.push('No changes. The pod is in the state kubelet would keep it in.');
  else if (report.ok)
    lines.push(
      `Sync done: ${[...(rows.length || !duplicates.length ? [stepText] : []), dupText].filter(Boolean).join(', ')}.`,
    );
  else {
    const parts = [
      ...(failed || !duplicates.length ? [`${failed} of ${rows.length} steps failed`] : []),
      ...(removed < duplicates.length ? [dupText] : []),
    ];
    lines.push(
      ...wrapText(`Sync failed: ${parts.join(', ')}${report.stopped ? `; ${report.stopped}` : ''}.`, width, '  '),
    );
  }
  if (opts.timings && report.timings) {
    const t = report.timings;
    lines.push(
      `Timings: total ${formatMs(t.totalMs)}, in runtime RPCs ${formatMs(t.rpcMs)}, syncpod's own ${formatMs(t.ownMs)} (observe+plan ${formatMs(t.planMs)}).`,
    );
  }
  return lines.join('\n') + '\n';
}

export function syncReportJSON(report: SyncReport): string {
  return JSON.stringify(report, null, 2) + '\n';
}

export interface Spinner {
  start(text: string): Spinner;
  succeed(text: string): Spinner;
  fail(text: string): Spinner;
}

function describeStep(round: number, s: { step: number; action: string; target: string }): string {
  return s.step === 0
    ? `waiting for init container ${s.target}`
    : `${round > 1 ? `[plan ${round}] ` : ''}${s.step} ${s.action} ${s.target}`;
}

function describeResult(r: StepResult): string {
  const base = describeStep(r.round, r);
  return `${base}: ${r.ok ? 'ok' : (r.error ?? 'failed')} (${formatMs(r.durationMs)})${r.message ? ` ${r.message}` : ''}`;
}

/** Plain progress lines on a non-terminal stderr. */
export function plainProgress(write: (line: string) => void): SyncHooks {
  return {
    stepFinished: (r) => write(describeResult(r)),
    note: (l) => write(l),
  };
}

/** One ora spinner per step on a terminal stderr. */
export function spinnerProgress(makeSpinner: () => Spinner): SyncHooks {
  let current: Spinner | undefined;
  return {
    stepStarted: (round, s) => {
      current = makeSpinner().start(describeStep(round, s as PlanStep));
    },
    stepFinished: (r) => {
      const text = describeResult(r);
      if (current) r.ok ? current.succeed(text) : current.fail(text);
      current = undefined;
    },
    note: (l) => {
      makeSpinner().start(l).succeed(l);
    },
  };
}

/** An ora spinner per step on a terminal stream (ora is loaded here, and only for a terminal). */
export function terminalProgress(stream: NodeJS.WritableStream, colour: boolean): SyncHooks {
  const ora = (require('ora') as typeof import('ora')).default;
  return spinnerProgress(
    () => ora({ stream, color: colour ? 'cyan' : undefined, isEnabled: true }) as unknown as Spinner,
  );
}

/** `sync --dry-run`: the plan, then each request (protobuf JSON) and the filesystem work; nothing was done. */
export function renderSyncDryRun(
  d: {
    plan: Plan;
    requests: Array<{ service: string; rpc: string; request: unknown }>;
    filesystem: string[];
    failures: string[];
  },
  output: 'table' | 'json',
  toJSON: ProtoJSON,
): string {
  const requests = d.requests.map((r) => ({
    service: r.service,
    rpc: r.rpc,
    request: toJSON(`${r.rpc}Request`, r.request),
  }));
  if (output === 'json')
    return JSON.stringify({ plan: d.plan, requests, filesystem: d.filesystem, failures: d.failures }, null, 2) + '\n';
  let text = renderPlans([d.plan]);
  if (!text.endsWith('\n')) text += '\n';
  text += `\nRequests (${requests.length}), none sent:\n`;
  for (const r of requests) text += `--- ${r.service}/${r.rpc}\n${JSON.stringify(r.request, null, 2)}\n`;
  if (d.filesystem.length) text += `\nFilesystem work, none done:\n${d.filesystem.map((c) => `  ${c}`).join('\n')}\n`;
  if (d.failures.length) text += `\nWould fail:\n${d.failures.map((f) => `  ${f}`).join('\n')}\n`;
  return text;
}
