// stats/statsp tables: CPU % from two samples, crictl's columns and sizes, idle containers left out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpuPercent, formatContainerStatsTable, formatPodStatsTable } from '../../src/render/stats-view';
import type { ContainerStats, PodSandboxStats } from '../../src/cri/types';

const v = (n: number | bigint) => ({ value: String(n) });

function cs(id: string, name: string, cpuNs: bigint, tsNs: bigint, mem: number): ContainerStats {
  return {
    attributes: { id, metadata: { name, attempt: 0 }, labels: {}, annotations: {} },
    cpu: { timestamp: String(tsNs), usageCoreNanoSeconds: v(cpuNs), usageNanoCores: v(0) },
    memory: { timestamp: String(tsNs), workingSetBytes: v(mem) },
    writableLayer: { timestamp: String(tsNs), usedBytes: v(8192), inodesUsed: v(5) },
    swap: { timestamp: String(tsNs), swapUsageBytes: v(name === 'web' ? 1_500_000 : 0) },
  } as unknown as ContainerStats;
}

test('CPU % is the usage delta over the timestamp delta; 0 without usage', () => {
  assert.equal(cpuPercent(1_500_000_000n, 2_000_000_000n, 1_000_000_000n, 1_000_000_000n), 50);
  assert.equal(cpuPercent(0n, 2n, 0n, 1n), 0);
});

test("the container table: sorted by ID, 13-character IDs, 2 decimals, go-units sizes, crictl 1.37's SWAP column; idle ones only with -a", () => {
  const before = [
    cs('b'.repeat(64), 'web', 1_000_000_000n, 1_000_000_000n, 0),
    cs('a'.repeat(64), 'idle', 0n, 1_000_000_000n, 0),
  ];
  const after = [
    cs('b'.repeat(64), 'web', 1_250_000_000n, 2_000_000_000n, 413_696),
    cs('a'.repeat(64), 'idle', 0n, 2_000_000_000n, 0),
  ];
  assert.equal(
    formatContainerStatsTable(before, after, { all: false }),
    'CONTAINER           NAME                CPU %               MEM                 DISK                INODES              SWAP\n' +
      'bbbbbbbbbbbbb       web                 25.00               413.7kB             8.192kB             5                   1.5MB\n',
  );
  const all = formatContainerStatsTable(before, after, { all: true }).split('\n');
  assert.equal(all[1]!.split(/\s+/)[0], 'aaaaaaaaaaaaa');
  assert.equal(all[1]!.split(/\s+/)[6], '0B', 'no swap in use is 0B');
});

test('the pod table: POD, POD ID, CPU %, MEM', () => {
  const pod = (cpu: bigint, ts: bigint): PodSandboxStats =>
    ({
      attributes: {
        id: 'c'.repeat(64),
        metadata: { name: 'web', namespace: 'default', uid: 'u', attempt: 0 },
        labels: {},
        annotations: {},
      },
      linux: {
        cpu: { timestamp: String(ts), usageCoreNanoSeconds: v(cpu) },
        memory: { timestamp: String(ts), workingSetBytes: v(2_000_000) },
        containers: [],
      },
    }) as unknown as PodSandboxStats;
  assert.equal(
    formatPodStatsTable([pod(0n, 1_000_000_000n)], [pod(100_000_000n, 2_000_000_000n)]),
    'POD                 POD ID              CPU %               MEM\nweb                 ccccccccccccc       10.00               2MB\n',
  );
});
