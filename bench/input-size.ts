// Input bounded by size (issue 27): how fast a manifest too large to admit is refused, and how
// long `plan` of a very wide pod takes, against a private real containerd.
//
//   npm run build && node --import tsx bench/input-size.ts      (needs root; about a minute)
//
// Wall time around a synchronous spawn of bin/syncpod (median of BENCH_ROUNDS, default 3) and
// peak RSS from /usr/bin/time -f %M. Targets print PASS or MISS, never fail the run.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startLab } from '../test/harness/lab';

const SYNCPOD = path.join(__dirname, '..', 'bin', 'syncpod');
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));

function wide(n: number): string {
  let s = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: wide\n  namespace: bench\nspec:\n  containers:\n';
  for (let i = 0; i < n; i++) s += `  - name: c${i}\n    image: busybox:1.36\n    command: [sleep, "3600"]\n`;
  return s;
}

function laughs(): string {
  let s = `apiVersion: v1\nkind: Pod\nmetadata:\n  name: laughs\n  annotations:\n    a: &a "${'x'.repeat(512 * 1024)}"\n`;
  for (let i = 0; i < 998; i++) s += `    b${i}: *a\n`;
  return `${s}spec:\n  containers:\n  - name: c\n    image: busybox\n`;
}

function measure(args: string[], env: Record<string, string>): { ms: number; rssMiB: number; code: number | null } {
  const times: number[] = [];
  let code: number | null = null;
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    const r = spawnSync(SYNCPOD, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    times.push(performance.now() - t0);
    code = r.status;
  }
  const r = spawnSync('/usr/bin/time', ['-f', '%M', SYNCPOD, ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const kib = Number(r.stderr.trim().split('\n').at(-1));
  times.sort((a, b) => a - b);
  return { ms: times[times.length >> 1]!, rssMiB: kib / 1024, code };
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-bench-size-'));
  const lab = await startLab();
  try {
    const file = (name: string, text: string) => {
      const p = path.join(dir, name);
      fs.writeFileSync(p, text);
      return p;
    };
    const big = file(
      'big50.yaml',
      `apiVersion: v1\nkind: Pod\nmetadata:\n  name: big\n  annotations:\n    a: "${'y'.repeat(50 * 1024 * 1024)}"\nspec:\n  containers:\n  - name: c\n    image: busybox\n`,
    );
    const rows: Array<[string, string[], number | undefined, number | undefined]> = [
      ['refuse a 50 MB manifest (plan)', ['plan', big], 1000, 200],
      ['refuse 512 KiB x 998 aliases (sync -y)', ['sync', '-y', file('laughs.yaml', laughs())], 1000, 200],
      ['plan, 1,000 containers', ['plan', file('wide1000.yaml', wide(1000))], 2000, undefined],
      ['plan -o json, 1,000 containers', ['plan', '-o', 'json', file('wide1000.yaml', wide(1000))], 2000, undefined],
      ['plan, 20,000 containers', ['plan', file('wide20000.yaml', wide(20000))], undefined, undefined],
      [
        'plan -o json, 20,000 containers',
        ['plan', '-o', 'json', file('wide20000.yaml', wide(20000))],
        undefined,
        undefined,
      ],
    ];
    process.stdout.write('| measurement | median | peak RSS | target | |\n|---|---|---|---|---|\n');
    for (const [what, args, msTarget, rssTarget] of rows) {
      const m = measure(args, lab.env);
      const ok = (msTarget === undefined || m.ms <= msTarget) && (rssTarget === undefined || m.rssMiB <= rssTarget);
      const target = [msTarget && `≤ ${msTarget / 1000} s`, rssTarget && `≤ ${rssTarget} MiB`]
        .filter(Boolean)
        .join(', ');
      process.stdout.write(
        `| ${what} (exit ${m.code}) | ${m.ms.toFixed(0)} ms | ${m.rssMiB.toFixed(1)} MiB | ${target} | ${target ? (ok ? 'PASS' : '**MISS**') : ''} |\n`,
      );
    }
  } finally {
    await lab.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main();
