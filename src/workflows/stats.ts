// stats / statsp: one List*Stats call for -o json|yaml; for the table, two samples `sampleMs`
// apart (CPU % needs both). -w repeats on crictl 1.37's schedule until Ctrl-C: a 500 ms ticker whose
// first tick draws the first frame; a frame that outlasts a tick starts the next at once when it
// ends, ticks missed meanwhile are dropped (Go's ticker keeps one). Each table frame starts with the
// clear-screen sequence, on a terminal or not (crictl's frames are cut by it in a log too); json and
// yaml frames follow one another.
import type { RuntimeService } from '../cri/grpc-runtime-service';
import type { ContainerStatsFilter, PodSandboxStatsFilter } from '../cri/types';
import type { DeepPartial } from '../cri/types';
import type { ProtoJSON } from '../render/list-output';
import { formatEnvelope } from '../render/list-output';
import {
  formatContainerStatsTable,
  formatPodStatsTable,
  formatStatsEnvelope,
  sortStats,
  type StatsOutput,
} from '../render/stats-view';

export interface StatsDeps {
  runtime: RuntimeService;
  write(text: string): void;
  /** Resolves after `ms`, or early when `signal` fires. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A monotonic clock in milliseconds (the -w ticker's). */
  now(): number;
  toJSON: ProtoJSON;
}

export interface StatsOptions {
  output: StatsOutput;
  sampleMs: number;
  watch: boolean;
  signal?: AbortSignal;
}

const CLEAR = '\u001b[2J\u001b[H';
export const WATCH_INTERVAL_MS = 500;

/** When the frame after one that started at `start` starts: the first tick after `start` (ticks at t0 + k × 500 ms). */
export function nextTick(t0: number, start: number): number {
  return t0 + (Math.floor((start - t0) / WATCH_INTERVAL_MS) + 1) * WATCH_INTERVAL_MS;
}

/** Runs `once` and writes its text; with -w on the ticker's schedule until the signal fires. */
export async function repeat(deps: StatsDeps, opts: StatsOptions, once: () => Promise<string>): Promise<number> {
  if (!opts.watch) {
    const text = await once();
    if (!opts.signal?.aborted) deps.write(text);
    return 0;
  }
  const t0 = deps.now();
  let tick = t0 + WATCH_INTERVAL_MS;
  for (;;) {
    const wait = tick - deps.now();
    if (wait > 0) await deps.sleep(wait, opts.signal);
    if (opts.signal?.aborted) return 0;
    const start = deps.now();
    const text = await once();
    if (opts.signal?.aborted) return 0;
    deps.write((opts.output === 'table' ? CLEAR : '') + text);
    tick = nextTick(t0, start);
  }
}

export function containerStats(
  deps: StatsDeps,
  filter: DeepPartial<ContainerStatsFilter>,
  opts: StatsOptions & { all: boolean },
): Promise<number> {
  const list = async () => sortStats((await deps.runtime.call('ListContainerStats', { filter })).stats);
  return repeat(deps, opts, async () => {
    const first = await list();
    if (opts.output !== 'table')
      return formatStatsEnvelope(opts.output, 'ListContainerStatsResponse', first, deps.toJSON);
    await deps.sleep(opts.sampleMs, opts.signal);
    return formatContainerStatsTable(first, await list(), { all: opts.all });
  });
}

export function podStats(
  deps: StatsDeps,
  filter: DeepPartial<PodSandboxStatsFilter>,
  opts: StatsOptions,
): Promise<number> {
  const list = async () => sortStats((await deps.runtime.call('ListPodSandboxStats', { filter })).stats);
  return repeat(deps, opts, async () => {
    const first = await list();
    if (opts.output !== 'table')
      return formatStatsEnvelope(opts.output, 'ListPodSandboxStatsResponse', first, deps.toJSON);
    await deps.sleep(opts.sampleMs, opts.signal);
    return formatPodStatsTable(first, await list());
  });
}

/** metricsp: the ListPodSandboxMetrics response as it comes (crictl sorts nothing there); -w as stats -w. */
export function podMetrics(
  deps: StatsDeps,
  opts: { output: 'json' | 'yaml'; watch: boolean; signal?: AbortSignal },
): Promise<number> {
  return repeat(deps, { ...opts, sampleMs: 0 }, async () =>
    formatEnvelope(
      opts.output,
      'ListPodSandboxMetricsResponse',
      await deps.runtime.call('ListPodSandboxMetrics', {}),
      deps.toJSON,
    ),
  );
}
