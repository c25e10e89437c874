// The kubelet oracle's speed target: one scenario through both sides (kubelet's SyncPod in the Go
// oracle, syncpod's `sync --dry-run` against the CRI stand-in), median per scenario.
//
//   npm run bench:oracle                         (builds the oracle of the minor if needed; Go)
//   BENCH_MINOR=1.34 BENCH_COUNT=300 npm run bench:oracle
//
// kubelet's cases plus BENCH_COUNT (default 200) seeded random scenarios run once as a warm-up
// (discarded: the first scenarios load syncpod's modules and fill V8's caches), then again timed.
// Printed: median, p90 and max per scenario for both sides together and for each side alone.
// Target: <= 50 ms median for both sides. It never fails on the target, it prints PASS or MISS.
import { buildOracle, ORACLE_RELEASES } from '../scripts/oracle-build';
import { kubeletCases } from '../scripts/oracle/cases';
import { randomScenarios } from '../scripts/oracle/random';
import { oracleGates, runScenarios } from '../scripts/oracle/run';

const MINOR = process.env.BENCH_MINOR ?? '1.37';
const COUNT = Number(process.env.BENCH_COUNT ?? 200);
const TARGET_MS = 50;

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function main(): Promise<void> {
  const release = ORACLE_RELEASES[MINOR];
  if (!release) throw new Error(`BENCH_MINOR=${MINOR}: no oracle for it`);
  const bin = buildOracle(MINOR, (l) => process.stderr.write(`${l}\n`));
  const scenarios = [...kubeletCases(MINOR), ...randomScenarios(MINOR, 1, COUNT, oracleGates(bin))];
  await runScenarios(release, bin, scenarios);
  const report = await runScenarios(release, bin, scenarios);
  const { kubelet, syncpod, total } = report.timing;
  console.log(`oracle bench: kubelet ${release}, ${scenarios.length} scenarios (after a warm-up pass)`);
  for (const [side, xs] of [
    ['both sides', total],
    ['kubelet (Go oracle, one process)', kubelet],
    ['syncpod (sync --dry-run in process)', syncpod],
  ] as const)
    console.log(
      `  ${side.padEnd(38)} median ${ms(quantile(xs, 0.5))}  p90 ${ms(quantile(xs, 0.9))}  max ${ms(Math.max(...xs))}`,
    );
  const median = quantile(total, 0.5);
  console.log(
    `${median <= TARGET_MS ? 'PASS' : 'MISS'}: median ${ms(median)} per scenario (target <= ${TARGET_MS} ms)`,
  );
}

main().catch((e) => {
  console.error(`bench:oracle: ${(e as Error).message}`);
  process.exit(1);
});
