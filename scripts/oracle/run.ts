// Runs scenarios through both sides for one kubelet release: kubelet's own code (the Go oracle,
// one long-lived process reading JSON lines) and syncpod unchanged (`sync --dry-run -o json`, run
// in this process by the CLI's own main(), reading the scenario's state over gRPC from a CRI
// stand-in on a private unix socket). Returns the report the CLI prints.
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { main } from '../../src/main';
import { GATE_NAMES } from '../../src/kubelet/features';
import { resolveKubeletRules } from '../../src/kubelet/kubelet-version';
import { CriStandIn, type RuntimeState } from './stand-in';
import { oracleInput, type Scenario } from './scenario';
import { kubeletLines, sameCalls, syncpodLines, type KubeletCall, type RecordedRequest } from './compare';
import { classify } from './known';

export interface OracleResult {
  name: string;
  sandboxes: Array<Record<string, any>> | null;
  containers: Array<{ podSandboxId: string; status: Record<string, any> }> | null;
  calls: KubeletCall[];
  actions?: string;
  /** The gates kubelet ran with that differ from the release's defaults. */
  gates?: Record<string, boolean>;
  error?: string;
  /**
   * A panic in one of kubelet's goroutines (recovered by its HandleCrash, which a real kubelet
   * turns into a crash of the process); the calls are those kubelet's code made.
   */
  panic?: string;
}

export interface Disagreement {
  scenario: Scenario;
  syncpod: string[];
  kubelet: string[];
  /** computePodActions' own summary (kubelet's podActions.String()). */
  kubeletActions?: string;
  error?: string;
}

export interface Report {
  kubelet: string;
  scenarios: number;
  agree: number;
  disagree: Disagreement[];
  known: Array<{ class: string; count: number; example: string }>;
  /** Milliseconds per scenario, both sides (median). */
  medianMs: number;
  /** Where syncpod's feature-gate table differs from the release's (each one a disagreement). */
  gateTable: string[];
  /** Milliseconds per scenario, in scenario order: kubelet's side, syncpod's side, both (bench/oracle.ts). */
  timing: { kubelet: number[]; syncpod: number[]; total: number[] };
  /** Per group of scenarios (runScenarios' `group`): how many ran, agreed, fell in a class, disagreed. */
  groups?: Record<string, { scenarios: number; agreed: number; known: number; disagreed: number }>;
}

/** The Go oracle as a long-lived process: one scenario line in, one result line out. */
export class OracleProcess {
  private child: ChildProcessWithoutNullStreams;
  private waiting: Array<(line: string) => void> = [];
  private stderr = '';
  /** Set once the process has ended (a kubelet panic, a kill): it answers no more scenarios. */
  exited: string | undefined;

  constructor(bin: string) {
    this.child = spawn(bin, [], { stdio: ['pipe', 'pipe', 'pipe'] });
    createInterface({ input: this.child.stdout }).on('line', (line) => this.waiting.shift()?.(line));
    this.child.stderr.on('data', (d) => {
      this.stderr = (this.stderr + d).slice(-4000);
    });
    this.child.on('exit', (code, signal) => {
      // A Go panic's first line names it (e.g. "close of closed channel"); the last is a frame.
      const panic = /panic(?:="|: )([^"\n]+)/.exec(this.stderr)?.[1];
      const last = this.stderr.trim().split('\n').pop() ?? '';
      this.exited = `oracle exited (${code ?? signal}): ${panic ? `panic: ${panic}` : last}`;
      for (const w of this.waiting.splice(0)) w(JSON.stringify({ error: this.exited }));
    });
    // A closed pipe of a killed oracle is reported through 'exit'.
    this.child.stdin.on('error', () => undefined);
  }

  /**
   * One scenario through kubelet's code. With timeoutMs, an oracle that gives no answer in time
   * (a kubelet code path that hangs) is killed and the result is an error saying so (`timedOut`);
   * this process then answers no more scenarios (runScenarios starts another).
   */
  run(line: string, timeoutMs?: number): Promise<OracleResult & { timedOut?: boolean }> {
    if (this.exited)
      return Promise.resolve({ name: '', sandboxes: null, containers: null, calls: [], error: this.exited });
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const answer = (out: string) => {
        if (timer) clearTimeout(timer);
        resolve(JSON.parse(out));
      };
      this.waiting.push(answer);
      if (timeoutMs !== undefined)
        timer = setTimeout(() => {
          this.waiting = this.waiting.filter((w) => w !== answer);
          this.child.kill('SIGKILL');
          resolve({
            name: '',
            sandboxes: null,
            containers: null,
            calls: [],
            error: `no answer within ${timeoutMs / 1000} s (kubelet's code did not return; the oracle was killed)`,
            timedOut: true,
          });
        }, timeoutMs);
      this.child.stdin.write(`${line}\n`);
    });
  }

  close(): void {
    this.child.stdin.end();
  }
}

/** Resolves with the promise's value, or with `onTimeout()` when it takes longer than ms. */
function within<T>(p: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<T>((resolve) => {
      timer = setTimeout(() => resolve(onTimeout()), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function capture(): { stream: Writable; text: () => string } {
  let text = '';
  return {
    stream: new Writable({
      write: (chunk, _enc, done) => {
        text += chunk;
        done();
      },
    }),
    text: () => text,
  };
}

/** syncpod's side of one scenario: the requests `sync --dry-run` records, or its error line. */
export async function syncpodSide(
  scenario: Scenario,
  release: string,
  socket: string,
  dir: string,
  effectiveGates: Record<string, boolean> = scenario.gates ?? {},
): Promise<{ requests: any[]; pullPolicies: Map<string, string>; error?: string }> {
  const podFile = join(dir, 'pod.json');
  writeFileSync(podFile, JSON.stringify(scenario.pod));
  const gates = Object.entries(effectiveGates)
    .filter(([k]) => (GATE_NAMES as string[]).includes(k))
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  const probes: string[] = [];
  for (const [name, r] of Object.entries(scenario.liveness ?? {}))
    if (r === 'failure') probes.push('--liveness-failed', name);
  for (const [name, r] of Object.entries(scenario.startup ?? {}))
    probes.push(r === 'failure' ? '--startup-failed' : '--startup-succeeded', name);
  const out = capture();
  const err = capture();
  const code = await main(
    [
      '--no-node-profile',
      '-r',
      `unix://${socket}`,
      'sync',
      '--dry-run',
      '--yes',
      '-o',
      'json',
      '--kubelet-version',
      release.replace(/^v/, ''),
      ...(gates ? ['--feature-gates', gates] : []),
      ...probes,
      '--pod-logs-root',
      join(dir, 'logs'),
      '--pod-dir-root',
      join(dir, 'pods'),
      podFile,
    ],
    { stdout: out.stream, stderr: err.stream, stdin: process.stdin, env: { NO_COLOR: '1' } },
  );
  const pullPolicies = new Map<string, string>();
  // A sync whose step fails (kubelet's SyncPod fails the same way, e.g. ErrImageNeverPull) exits 1
  // with its JSON result: the requests made up to the failure are compared. Anything else (a refused
  // manifest, a crash) is an error of syncpod's side.
  let doc: { requests?: RecordedRequest[]; failures?: string[] } | undefined;
  try {
    doc = JSON.parse(out.text());
  } catch {
    doc = undefined;
  }
  if (!doc || (code !== 0 && !(code === 1 && doc.failures?.length))) {
    const why = err.text().trim().split('\n').pop() || out.text().trim().split('\n')[0];
    return { requests: [], pullPolicies, error: `syncpod exit ${code}: ${why}` };
  }
  // The pull policy of each container as syncpod defaulted it (the plan's pod is not in the output:
  // the CreateContainer requests name the image; the spec's policy or the API default decides).
  for (const c of [...(scenario.pod.spec?.initContainers ?? []), ...(scenario.pod.spec?.containers ?? [])]) {
    const tag = /:([\w][\w.-]*)$/.exec(String(c.image).split('@')[0].split('/').pop() ?? '')?.[1];
    pullPolicies.set(c.name, c.imagePullPolicy ?? (!tag || tag === 'latest' ? 'Always' : 'IfNotPresent'));
  }
  return { requests: doc.requests ?? [], pullPolicies };
}

/** The release's feature gates as its oracle reports them. */
export function oracleGates(bin: string): Record<string, { default: boolean; locked: boolean; preRelease: string }> {
  return JSON.parse(execFileSync(bin, ['--gates'], { encoding: 'utf8' }));
}

/**
 * syncpod's gate table against the release's: every gate syncpod consults must exist with the
 * same default and lock (a difference is a disagreement named after the gate).
 */
export function gateTableDifferences(minor: string, specs: ReturnType<typeof oracleGates>): string[] {
  const rules = resolveKubeletRules(minor);
  const out: string[] = [];
  for (const name of GATE_NAMES) {
    const ours = (rules.gateOrigins as Record<string, { enabled: boolean; locked: boolean } | undefined>)[name];
    const theirs = specs[name];
    if (!ours && !theirs) continue;
    if (!ours || !theirs) {
      out.push(`${name}: syncpod ${ours ? 'has' : 'lacks'} it, kubelet ${theirs ? 'has' : 'lacks'} it`);
      continue;
    }
    if (ours.enabled !== theirs.default || ours.locked !== theirs.locked)
      out.push(
        `${name}: syncpod default ${ours.enabled}${ours.locked ? ' (locked)' : ''}, kubelet default ${theirs.default}${theirs.locked ? ' (locked)' : ''}`,
      );
  }
  return out;
}

/** Default limit per scenario and side: a scenario takes milliseconds, under heavy load about a second. */
export const SCENARIO_TIMEOUT_MS = 60_000;

export interface RunOptions {
  /** Limit for each side of one scenario (default SCENARIO_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Where the line naming a scenario that timed out goes (default stderr). */
  log?: (line: string) => void;
}

/**
 * Runs every scenario through both sides. A side that gives no answer within the time limit makes
 * that scenario a disagreement whose error says so, with one line naming it on the log; a hung
 * oracle is killed and a fresh one runs the scenarios after it.
 */
export async function runScenarios(
  release: string,
  bin: string,
  scenarios: Scenario[],
  progress: (done: number) => void = () => undefined,
  group: (s: Scenario) => string = () => 'all',
  opts: RunOptions = {},
): Promise<Report> {
  const timeoutMs = opts.timeoutMs ?? SCENARIO_TIMEOUT_MS;
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const dir = mkdtempSync(join(tmpdir(), 'syncpod-oracle-'));
  const socket = join(dir, 'cri.sock');
  const standIn = new CriStandIn();
  await standIn.listen(socket);
  let oracle = new OracleProcess(bin);
  const report: Report = {
    kubelet: release,
    scenarios: scenarios.length,
    agree: 0,
    disagree: [],
    known: [],
    medianMs: 0,
    gateTable: [],
    timing: { kubelet: [], syncpod: [], total: [] },
  };
  const known = new Map<string, { count: number; example: string }>();
  const times: number[] = [];
  try {
    for (const [i, scenario] of scenarios.entries()) {
      const t0 = performance.now();
      const now = Date.now();
      const k = await oracle.run(oracleInput(scenario, now), timeoutMs);
      if (k.timedOut || oracle.exited) {
        // A hung oracle was killed, or kubelet's code crashed it (a panic): this scenario says so in
        // one line; the next gets a fresh oracle at once.
        log(`oracle ${release}: scenario ${scenario.name}: kubelet's side: ${k.error}`);
        oracle = new OracleProcess(bin);
      }
      const t1 = performance.now();
      let t2 = t1;
      let syncpod: string[] = [];
      let kubelet: string[] = [];
      let error = k.error ? `kubelet: ${k.error}` : undefined;
      if (!k.error) {
        const state: RuntimeState = {
          sandboxes: k.sandboxes ?? [],
          containers: k.containers ?? [],
          images: scenario.images ?? [],
        };
        standIn.state = state;
        const ids = new Set<string>([...state.sandboxes.map((s) => s.id), ...state.containers.map((c) => c.status.id)]);
        const names = new Map(state.containers.map((c) => [c.status.id as string, c.status.metadata?.name as string]));
        kubelet = kubeletLines(k.calls ?? [], ids);
        const s = await within(syncpodSide(scenario, release, socket, dir, k.gates ?? {}), timeoutMs, () => {
          const why = `no answer within ${timeoutMs / 1000} s (syncpod's plan did not return)`;
          log(`oracle ${release}: scenario ${scenario.name}: syncpod's side: ${why}`);
          return { requests: [], pullPolicies: new Map<string, string>(), error: `syncpod: ${why}` };
        });
        t2 = performance.now();
        if (s.error) error = s.error;
        else syncpod = syncpodLines(s.requests, names, ids, (c) => s.pullPolicies.get(c) === 'Always');
      }
      times.push(performance.now() - t0);
      report.timing.kubelet.push(t1 - t0);
      report.timing.syncpod.push(t2 - t1);
      report.timing.total.push(times[times.length - 1]);
      report.groups ??= {};
      const counts = (report.groups[group(scenario)] ??= { scenarios: 0, agreed: 0, known: 0, disagreed: 0 });
      counts.scenarios++;
      // A kubelet that panicked never agrees: at best its calls match and the scenario is in the class
      // of that panic (known.ts).
      if (!error && k.panic) log(`oracle ${release}: scenario ${scenario.name}: kubelet's side: panic: ${k.panic}`);
      if (!error && !k.panic && sameCalls(syncpod, kubelet)) {
        report.agree++;
        counts.agreed++;
      } else {
        const cls = error ? undefined : classify(scenario, syncpod, kubelet, k.panic);
        if (!cls && k.panic) error ??= `kubelet: panic: ${k.panic}`;
        if (cls) {
          const e = known.get(cls) ?? { count: 0, example: scenario.name };
          e.count++;
          known.set(cls, e);
          counts.known++;
        } else {
          report.disagree.push({ scenario, syncpod, kubelet, kubeletActions: k.actions, error });
          counts.disagreed++;
        }
      }
      progress(i + 1);
    }
  } finally {
    oracle.close();
    standIn.close();
    rmSync(dir, { recursive: true, force: true });
  }
  report.known = [...known]
    .map(([c, v]) => ({ class: c, count: v.count, example: v.example }))
    .sort((a, b) => a.class.localeCompare(b.class));
  times.sort((a, b) => a - b);
  report.medianMs = Math.round((times[Math.floor(times.length / 2)] ?? 0) * 10) / 10;
  return report;
}
