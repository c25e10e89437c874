// stats / statsp: one List*Stats call for -o json|yaml; for the table, two samples `sampleMs`
// apart (CPU % needs both); -w repeats every 500 ms (crictl's ticker) until Ctrl-C.
import type { RuntimeService } from '../cri/grpc-runtime-service';
import type { ContainerStatsFilter, PodSandboxStatsFilter } from '../cri/types';
import type { DeepPartial } from '../cri/types';
import type { ProtoJSON } from '../render/list-output';
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
  toJSON: ProtoJSON;
  /** Clear the screen before each redraw of -w (stdout is a terminal). */
  redraw: boolean;
}

export interface StatsOptions {
  output: StatsOutput;
  sampleMs: number;
  watch: boolean;
  signal?: AbortSignal;
}

const CLEAR = '\u001b[2J\u001b[H';
const WATCH_INTERVAL_MS = 500;

async function repeat(deps: StatsDeps, opts: StatsOptions, once: () => Promise<string>): Promise<number> {
  for (;;) {
    const text = await once();
    if (opts.signal?.aborted) return 0;
    deps.write((opts.watch && deps.redraw && opts.output === 'table' ? CLEAR : '') + text);
    if (!opts.watch) return 0;
    await deps.sleep(WATCH_INTERVAL_MS, opts.signal);
    if (opts.signal?.aborted) return 0;
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
