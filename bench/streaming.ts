// Streaming throughput against a private real containerd (test/harness/lab.ts):
//   - exec: `syncpod exec ID head -c 100M /dev/zero` with stdout redirected to a file;
//   - port-forward: a 100 MB file from busybox httpd in the pod, fetched with busybox wget through
//     one `syncpod port-forward` process.
// Both are timed as wall time of the whole transfer (process start included for exec), rounds
// interleaved after one discarded warm-up, median with min/max reported. When a `crictl` binary is
// on PATH, the same transfers go through it and the ratio syncpod/crictl is printed with the
// target (>= 0.8); without it only syncpod's numbers are reported.
//
//   npm run bench:streaming        (needs root; BENCH_STREAM_ROUNDS=5 by default)
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUSYBOX_IMAGE, anchorsEnv, startLab, type Lab } from '../test/harness/lab';
import { CriService, type RuntimeMethods } from '../src/cri/grpc-runtime-service';

const ROOT = path.join(__dirname, '..');
const SYNCPOD = path.join(ROOT, 'bin', 'syncpod');
const ROUNDS = Math.max(3, Number(process.env.BENCH_STREAM_ROUNDS ?? 5));
const BYTES = 100 * 1024 * 1024;
const OUT = path.join(os.tmpdir(), `syncpod-bench-stream-${process.pid}`);
// An empty client config for both tools (crictl otherwise looks for one beside its binary).
const CONFIG = path.join(os.tmpdir(), `syncpod-bench-stream-${process.pid}.yaml`);

const say = (line: string) => process.stderr.write(`${line}\n`);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const mbps = (ms: number) => BYTES / (1024 * 1024) / (ms / 1000);

/** The crictl to compare with: CRICTL, else the crictl 1.37 of `npm run anchors` (.anchors/env), else PATH's. */
function findCrictl(): string | undefined {
  const built = process.env.CRICTL || anchorsEnv('CRICTL');
  if (built && fs.existsSync(built)) return built;
  const r = spawnSync('sh', ['-c', 'command -v crictl'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() || undefined : undefined;
}

interface Tool {
  name: string;
  argv: string[];
}

let lab: Lab;
const inNetns = (argv: string[]) => ['nsenter', `--net=/run/netns/${lab.netns}`, '--', ...argv];
const env = () => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: '/root',
  ...lab.env,
  CONTAINER_RUNTIME_ENDPOINT: lab.endpoint,
  IMAGE_SERVICE_ENDPOINT: lab.endpoint,
  CRI_CONFIG_FILE: CONFIG,
});

function timed(argv: string[], check: () => void): number {
  const start = performance.now();
  const r = spawnSync(argv[0]!, argv.slice(1), {
    env: env(),
    stdio: ['ignore', fs.openSync(OUT, 'w'), 'pipe'],
    encoding: 'utf8',
  });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  check();
  return ms;
}

function checkSize() {
  const size = fs.statSync(OUT).size;
  if (size !== BYTES) throw new Error(`received ${size} bytes, expected ${BYTES}`);
}

async function startForwarder(tool: Tool, podId: string): Promise<{ child: ChildProcess; port: number }> {
  const args = tool.name === 'syncpod' ? ['port-forward', podId, ':8080'] : ['port-forward', podId, '0:8080'];
  const child = spawn(inNetns([...tool.argv, ...args])[0]!, inNetns([...tool.argv, ...args]).slice(1), {
    env: env(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  for (let i = 0; i < 200; i++) {
    const m = /Forwarding from 127\.0\.0\.1:(\d+)/.exec(out);
    if (m) return { child, port: Number(m[1]) };
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`${tool.name} port-forward did not start: ${out}`);
}

async function main(): Promise<void> {
  fs.writeFileSync(CONFIG, '');
  lab = await startLab({ log: say });
  const rt = new CriService<RuntimeMethods>(lab.endpoint, 'RuntimeService', { timeoutMs: 60000 });
  try {
    const sb = {
      metadata: { name: 'bench-stream', namespace: 'bench', uid: 'bench-stream-uid', attempt: 0 },
      logDirectory: path.join(lab.podLogsRoot, 'bench-stream'),
      labels: {},
      annotations: {},
      linux: {},
    };
    const { podSandboxId } = await rt.call('RunPodSandbox', { config: sb });
    fs.mkdirSync(sb.logDirectory, { recursive: true });
    const { containerId } = await rt.call('CreateContainer', {
      podSandboxId,
      config: {
        metadata: { name: 'httpd' },
        image: { image: BUSYBOX_IMAGE },
        command: [
          'sh',
          '-c',
          `mkdir -p /www && head -c ${BYTES} /dev/zero > /www/big && touch /www/ready && exec httpd -f -p 8080 -h /www`,
        ],
        logPath: 'httpd.log',
      },
      sandboxConfig: sb,
    });
    await rt.call('StartContainer', { containerId });
    for (let i = 0; i < 100; i++) {
      const r = await rt.call('ExecSync', { containerId, cmd: ['test', '-e', '/www/ready'], timeout: '5' });
      if (r.exitCode === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }

    const tools: Tool[] = [{ name: 'syncpod', argv: [process.execPath, SYNCPOD] }];
    const crictl = findCrictl();
    if (crictl) tools.push({ name: 'crictl', argv: [crictl] });
    else say('no crictl on PATH: reporting syncpod alone');

    const exec: Record<string, number[]> = {};
    const pf: Record<string, number[]> = {};
    const forwarders = new Map<string, { child: ChildProcess; port: number }>();
    for (const t of tools) forwarders.set(t.name, await startForwarder(t, podSandboxId));
    for (let round = 0; round <= ROUNDS; round++) {
      for (const t of tools) {
        const e = timed(inNetns([...t.argv, 'exec', containerId, 'head', '-c', String(BYTES), '/dev/zero']), checkSize);
        const port = forwarders.get(t.name)!.port;
        const p = timed(inNetns(['/bin/busybox', 'wget', '-q', '-O', '-', `http://127.0.0.1:${port}/big`]), checkSize);
        if (round === 0) continue; // warm-up
        (exec[t.name] ??= []).push(e);
        (pf[t.name] ??= []).push(p);
      }
      if (round > 0) say(`round ${round}/${ROUNDS} done`);
    }
    for (const f of forwarders.values()) f.child.kill('SIGINT');

    const line = (what: string, samples: Record<string, number[]>) => {
      const s = samples.syncpod!;
      let text = `| ${what} | ${mbps(median(s)).toFixed(0)} MiB/s (${(median(s) / 1000).toFixed(2)} s; min ${(Math.min(...s) / 1000).toFixed(2)}, max ${(Math.max(...s) / 1000).toFixed(2)})`;
      if (samples.crictl) {
        const c = samples.crictl;
        const ratio = median(c) / median(s);
        text += ` | ${mbps(median(c)).toFixed(0)} MiB/s (${(median(c) / 1000).toFixed(2)} s) | ${ratio.toFixed(2)} | ${ratio >= 0.8 ? 'PASS' : 'MISS'} (>= 0.8) |`;
      } else text += ' | no crictl | | |';
      return text;
    };
    process.stdout.write(`\nStreaming throughput, 100 MiB, median of ${ROUNDS} (${os.cpus().length} cores)\n\n`);
    process.stdout.write('| transfer | syncpod | crictl | syncpod/crictl | target |\n|---|---|---|---|---|\n');
    process.stdout.write(line('exec stdout (head -c 100M /dev/zero > file)', exec) + '\n');
    process.stdout.write(line('port-forward (busybox wget of a 100 MiB file from httpd)', pf) + '\n');
  } finally {
    fs.rmSync(OUT, { force: true });
    fs.rmSync(CONFIG, { force: true });
    rt.close();
    await lab.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
