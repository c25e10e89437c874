// `stats` and `statsp` as crictl prints them: -o json|yaml is the List*StatsResponse (sorted by
// ID); the table compares two samples for CPU % (usage delta over timestamp delta).
import type { ContainerStats, PodSandboxStats } from '../cri/types';
import { formatEnvelope, type ProtoJSON } from './list-output';
import { crictlTable } from './table';
import { humanSize, truncateId } from './text';

export type StatsOutput = 'table' | 'json' | 'yaml';

const byId = <T extends { attributes?: { id: string } }>(a: T, b: T) => {
  const x = a.attributes?.id ?? '';
  const y = b.attributes?.id ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
};

export function sortStats<T extends { attributes?: { id: string } }>(stats: readonly T[]): T[] {
  return [...stats].sort(byId);
}

const big = (v: { value: string } | undefined) => BigInt(v?.value ?? '0');

/** CPU % between two samples of one cumulative counter (crictl: 0 when there is no usage). */
export function cpuPercent(usageNs: bigint, timestampNs: bigint, oldUsageNs: bigint, oldTimestampNs: bigint): number {
  if (usageNs === 0n) return 0;
  const duration = timestampNs - oldTimestampNs;
  if (duration <= 0n) return 0;
  return (Number(usageNs - oldUsageNs) / Number(duration)) * 100;
}

export function formatContainerStatsTable(
  before: readonly ContainerStats[],
  after: readonly ContainerStats[],
  opts: { all: boolean },
): string {
  const old = new Map(before.map((s) => [s.attributes?.id ?? '', s]));
  const rows: string[][] = [['CONTAINER', 'NAME', 'CPU %', 'MEM', 'DISK', 'INODES', 'SWAP']];
  for (const s of sortStats(after)) {
    const id = s.attributes?.id ?? '';
    const cpu = big(s.cpu?.usageCoreNanoSeconds);
    const mem = big(s.memory?.workingSetBytes);
    if (!opts.all && cpu === 0n && mem === 0n) continue;
    const o = old.get(id);
    if (!o) continue;
    const perc = cpuPercent(
      cpu,
      BigInt(s.cpu?.timestamp ?? '0'),
      big(o.cpu?.usageCoreNanoSeconds),
      BigInt(o.cpu?.timestamp ?? '0'),
    );
    rows.push([
      truncateId(id),
      s.attributes?.metadata?.name ?? '',
      perc.toFixed(2),
      humanSize(Number(mem), 4),
      humanSize(Number(big(s.writableLayer?.usedBytes)), 4),
      big(s.writableLayer?.inodesUsed).toString(),
      humanSize(Number(big(s.swap?.swapUsageBytes)), 4),
    ]);
  }
  return crictlTable(rows);
}

export function formatPodStatsTable(before: readonly PodSandboxStats[], after: readonly PodSandboxStats[]): string {
  const old = new Map(before.map((s) => [s.attributes?.id ?? '', s]));
  const rows: string[][] = [['POD', 'POD ID', 'CPU %', 'MEM']];
  for (const s of sortStats(after)) {
    const id = s.attributes?.id ?? '';
    const linux = s.linux ?? s.windows;
    const cpu = big(linux?.cpu?.usageCoreNanoSeconds);
    const mem = big(linux?.memory?.workingSetBytes);
    if (cpu === 0n && mem === 0n) continue;
    const o = old.get(id);
    if (!o) continue;
    const ol = o.linux ?? o.windows;
    const perc = cpuPercent(
      cpu,
      BigInt(linux?.cpu?.timestamp ?? '0'),
      big(ol?.cpu?.usageCoreNanoSeconds),
      BigInt(ol?.cpu?.timestamp ?? '0'),
    );
    rows.push([s.attributes?.metadata?.name ?? '', truncateId(id), perc.toFixed(2), humanSize(Number(mem), 4)]);
  }
  return crictlTable(rows);
}

export function formatStatsEnvelope(
  output: 'json' | 'yaml',
  typeName: 'ListContainerStatsResponse' | 'ListPodSandboxStatsResponse',
  stats: readonly unknown[],
  toJSON: ProtoJSON,
): string {
  return formatEnvelope(output, typeName, { stats }, toJSON);
}
