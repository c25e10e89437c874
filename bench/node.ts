// The node-wide speed target, against a private real containerd (test/harness/lab.ts):
//
//   npm run bench:node        (= npm run build && node --import tsx bench/node.ts; needs root)
//   BENCH_ROUNDS=5 npm run bench:node
//   BENCH_HOLD=FILE npm run bench:node   after filling the runtime, write the environment and the plan
//                                        command to FILE (a shell script) and keep the lab until
//                                        SIGINT/SIGTERM, to profile or compare builds by hand
//
// 100 desired pods with 3 running containers each (300 containers) are made by `syncpod sync --node`
// itself from one kubectl-style List, plus 10 orphan pods (kubelet's labels, not in the List). Then
// `syncpod plan --node -o json LIST` (the built CLI, spawned as a user runs it, stdout to a file) is
// timed interleaved with `node -e 0`, after one discarded warm-up round; medians with min–max, and
// the CPU time (user + system) of each, which a loaded machine inflates far less than wall time.
// Each run is checked: 100 plans, none with changes, 10 orphans. Target: <= 700 ms. It never fails
// on the target, it prints PASS or MISS.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUSYBOX_IMAGE, labToolVersions, startLab, type Lab } from '../test/harness/lab';

const ROOT = path.join(__dirname, '..');
const SYNCPOD = path.join(ROOT, 'bin', 'syncpod');
const ROUNDS = Math.max(3, Number(process.env.BENCH_ROUNDS ?? 11));
const PODS = 100;
const ORPHANS = 10;
const TARGET_MS = 700;

const t0 = performance.now();
const say = (line: string) =>
  process.stderr.write(`[${((performance.now() - t0) / 1000).toFixed(1).padStart(6)}s] ${line}\n`);
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

let lab: Lab | undefined;
let work = '';
let env: Record<string, string> = {};
const OUT = path.join(os.tmpdir(), `syncpod-bench-node-${process.pid}`);

const SLEEPER = "trap 'exit 0' TERM; while true; do sleep 3600 & wait; done";
const pod = (i: number, ns: string, uidPrefix: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: `pod-${String(i).padStart(3, '0')}`,
    namespace: ns,
    uid: `${uidPrefix}-0000-4000-8000-${String(i).padStart(12, '0')}`,
  },
  spec: {
    nodeName: 'bench-node',
    terminationGracePeriodSeconds: 1,
    containers: ['app', 'side', 'log'].map((name) => ({
      name,
      image: BUSYBOX_IMAGE,
      imagePullPolicy: 'IfNotPresent',
      command: ['sh', '-c', SLEEPER],
    })),
  },
});

/**
 * CPU time (user + system, ms) of this process's waited-for children so far (/proc/self/stat
 * cutime + cstime, in USER_HZ = 100 ticks a second): a spawned run's CPU is the difference.
 * Unlike wall time it hardly grows with the machine's load.
 */
function childCpuMs(): number {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): cutime and cstime are fields 16 and 17.
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/** The last run's CPU time (ms), set by run(). */
let lastCpuMs = 0;

function run(args: string[], check?: (stdout: string) => void): number {
  const fd = fs.openSync(OUT, 'w');
  const cpu0 = childCpuMs();
  const start = performance.now();
  const r = spawnSync(args[0], args.slice(1), {
    env,
    encoding: 'utf8',
    stdio: ['ignore', fd, 'pipe'],
    maxBuffer: 256 << 20,
  });
  const ms = performance.now() - start;
  lastCpuMs = childCpuMs() - cpu0;
  fs.closeSync(fd);
  if (r.error) throw r.error;
  if (r.status !== 0)
    throw new Error(
      `${args.slice(1).join(' ')} exited ${r.status}: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`,
    );
  check?.(fs.readFileSync(OUT, 'utf8'));
  return ms;
}

async function main(): Promise<void> {
  say(
    `syncpod node bench — node ${process.version}; ${labToolVersions()}; ${os.cpus().length} cores; load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  lab = await startLab();
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-bench-node-'));
  env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', ...lab.env };
  const flags = [
    '--pod-logs-root',
    lab.podLogsRoot,
    '--pod-dir-root',
    lab.podDirRoot,
    '--node-name',
    'bench-node',
    '--pods-api-socket',
    'none',
  ];
  const list = path.join(work, 'pods.json');
  fs.writeFileSync(
    list,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: Array.from({ length: PODS }, (_, i) => pod(i, 'bench', 'b0000000')),
    }),
  );
  const orphans = path.join(work, 'orphans.json');
  fs.writeFileSync(
    orphans,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: Array.from({ length: ORPHANS }, (_, i) => pod(i, 'bench-orphan', 'c0000000')),
    }),
  );

  say(`sync --node: ${PODS} pods × 3 containers, then ${ORPHANS} more that will be orphans`);
  const syncMs = run(['node', SYNCPOD, 'sync', '--node', '--yes', '--parallel', '8', ...flags, list]);
  run(['node', SYNCPOD, 'sync', '--node', '--yes', '--parallel', '8', ...flags, orphans]);
  say(`  synced ${PODS} pods in ${(syncMs / 1000).toFixed(1)} s`);

  const check = (stdout: string): void => {
    const v = JSON.parse(stdout);
    if (v.plans.length !== PODS) throw new Error(`${v.plans.length} plans`);
    const changed = v.plans.filter(
      (p: { changes: boolean; preflight: { steps: unknown[] } }) => p.changes || p.preflight.steps.length,
    );
    if (changed.length)
      throw new Error(
        `${changed.length} pods with changes, e.g. ${JSON.stringify(changed[0].steps[0] ?? changed[0].preflight.steps[0])}`,
      );
    if (v.orphans.length !== ORPHANS) throw new Error(`${v.orphans.length} orphans`);
  };
  const plan = ['node', SYNCPOD, 'plan', '--node', '-o', 'json', ...flags, list];
  const zero = ['node', '-e', '0'];
  run(plan, check);
  if (process.env.BENCH_HOLD) return hold(process.env.BENCH_HOLD, plan);
  run(zero);
  const ms = { plan: [] as number[], zero: [] as number[] };
  const cpu = { plan: [] as number[], zero: [] as number[] };
  for (let i = 0; i < ROUNDS; i++) {
    ms.plan.push(run(plan, check));
    cpu.plan.push(lastCpuMs);
    ms.zero.push(run(zero));
    cpu.zero.push(lastCpuMs);
  }
  const m = median(ms.plan);
  const line = (what: string, xs: number[], target = '', verdict = '') =>
    `| ${what} | ${median(xs).toFixed(0)} ms | ${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)} ms | ${target} | ${verdict} |`;
  process.stdout.write(
    [
      '| measurement | median | min–max | target | |',
      '|---|---|---|---|---|',
      line(
        `syncpod plan --node (${PODS} pods, ${PODS * 3} containers, ${ORPHANS} orphans)`,
        ms.plan,
        `<= ${TARGET_MS} ms`,
        m <= TARGET_MS ? 'PASS' : 'MISS',
      ),
      line('node -e 0 (interleaved)', ms.zero),
      line('CPU time (user + system) of plan --node', cpu.plan),
      line('CPU time (user + system) of node -e 0', cpu.zero),
      `| syncpod sync --node (${PODS} pods from nothing, --parallel 8) | ${(syncMs / 1000).toFixed(1)} s | one run | | |`,
      '',
    ].join('\n'),
  );
  if (process.env.BENCH_CPU_PROF) {
    // One more run with V8's CPU profiler, written to $BENCH_CPU_PROF (a directory) for inspection.
    run(['node', '--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`, ...plan.slice(1)], check);
  }
}

/** BENCH_HOLD=FILE: the lab's environment and the plan command as a shell script; the lab stays until a signal. */
async function hold(file: string, plan: string[]): Promise<void> {
  const q = (v: string) => `'${v.replace(/'/g, `'\\''`)}'`;
  fs.writeFileSync(
    file,
    [
      ...Object.entries(env).map(([k, v]) => `export ${k}=${q(v)}`),
      `PLAN=(${plan.slice(1).map(q).join(' ')})`,
      '# e.g.: . FILE; time node "${PLAN[@]}" >/dev/null',
      '',
    ].join('\n'),
  );
  say(`holding the lab (environment and PLAN in ${file}); SIGINT or SIGTERM stops it`);
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => undefined, 60_000);
    const stop = () => {
      clearInterval(timer);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

async function cleanup(): Promise<void> {
  if (lab) {
    say('stopping the lab');
    await lab.stop();
  }
  if (work) fs.rmSync(work, { recursive: true, force: true });
  fs.rmSync(OUT, { force: true });
}

let exitCode = 0;
main()
  .catch((err) => {
    process.stderr.write(`bench failed: ${(err as Error).stack ?? err}\n`);
    exitCode = 1;
  })
  .finally(() => cleanup())
  .finally(() => process.exit(exitCode));
