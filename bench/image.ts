// The image's size and `syncpod pods` start-up inside a container against on the host.
//
//   npm run bench:image      (builds dist/syncpod-image.tar first; needs root)
//
// Size: the archive, each gzip layer, and the layers uncompressed (what a node stores). Start-up: one container of the image runs a small Node script (node is in the
// image) that spawns `/usr/local/bin/syncpod pods` ROUNDS times against the runtime socket mounted
// into it, and `node -e 0` as often, interleaved, timing each spawnSync with the monotonic clock;
// the host does the same with bin/syncpod. Medians with min/max (a shared 2-core machine is noisy).
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startLab, type Lab } from '../test/harness/lab';

const ROOT = path.join(__dirname, '..');
const ARCHIVE = path.join(ROOT, 'dist', 'syncpod-image.tar');
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;
const ROUNDS = Math.max(5, Number(process.env.BENCH_ROUNDS ?? 15));
const PODS = 20;
const _say = (line: string) => process.stderr.write(`${line}\n`);

/** Runs inside and outside: time `node -e 0` and `SYNCPOD pods` spawned alternately; prints JSON. */
const TIMER = `
const { spawnSync } = require('node:child_process');
const [syncpod, rounds] = [process.argv[1], Number(process.argv[2])];
const env = { ...process.env, NO_COLOR: '1' };
const t = { node: [], pods: [] };
const once = (cmd, args) => { const s = performance.now(); const r = spawnSync(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'] }); if (r.status !== 0) throw new Error(cmd + ' ' + args.join(' ') + ': ' + r.stderr); return performance.now() - s; };
once(process.execPath, ['-e', '0']); once(syncpod, ['pods']);
for (let i = 0; i < rounds; i++) { t.node.push(once(process.execPath, ['-e', '0'])); t.pods.push(once(syncpod, ['pods'])); }
console.log(JSON.stringify(t));
`;

function stats(xs: number[]): { median: number; min: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return { median: s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2, min: s[0]!, max: s[s.length - 1]! };
}
const ms = (x: { median: number; min: number; max: number }) =>
  `${x.median.toFixed(1)} ms (${x.min.toFixed(1)}–${x.max.toFixed(1)})`;
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

function syncpod(lab: Lab, args: string[], input?: string): string {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'syncpod'), ...args], {
    env: { ...process.env, ...lab.env },
    input,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`syncpod ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

async function main(): Promise<void> {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'image.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
  const archive = fs.statSync(ARCHIVE).size;
  const index = JSON.parse(execFileSync('tar', ['-xOf', ARCHIVE, 'index.json'], { encoding: 'utf8' }));
  const manifest = JSON.parse(
    execFileSync('tar', ['-xOf', ARCHIVE, `blobs/sha256/${index.manifests[0].digest.slice(7)}`], { encoding: 'utf8' }),
  );
  const layers = (manifest.layers as Array<{ size: number; digest: string }>).map((l) => l.size);
  const unpackedBytes = (manifest.layers as Array<{ digest: string }>)
    .map((l) =>
      Number(
        execFileSync('sh', ['-c', `tar -xOf "${ARCHIVE}" blobs/sha256/${l.digest.slice(7)} | gunzip -c | wc -c`], {
          encoding: 'utf8',
        }).trim(),
      ),
    )
    .reduce((a, b) => a + b, 0);
  const lab = await startLab();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-bench-image-'));
  try {
    lab.ctr(['images', 'import', ARCHIVE]);
    for (let i = 0; i < PODS; i++) {
      const f = path.join(dir, `p${i}.json`);
      fs.writeFileSync(
        f,
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: `bench-${i}`, namespace: 'bench-image' },
          spec: { containers: [{ name: 'c', image: 'localhost/syncpod/busybox:1.36' }] },
        }),
      );
      syncpod(lab, ['runp', '--pod-logs-root', lab.podLogsRoot, '--pod-dir-root', lab.podDirRoot, f]);
    }
    // Host: the same script, with bin/syncpod.
    const host = JSON.parse(
      execFileSync(process.execPath, ['-e', TIMER, path.join(ROOT, 'bin', 'syncpod'), String(ROUNDS)], {
        env: { ...process.env, ...lab.env },
        encoding: 'utf8',
      }),
    );
    // Container: the script run by the image's node, the socket mounted where containerd's default is.
    const pod = path.join(dir, 'timer.json');
    fs.writeFileSync(
      pod,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'timer', namespace: 'bench-image' },
        spec: {
          restartPolicy: 'Never',
          containers: [
            {
              name: 'timer',
              image: `syncpod:${VERSION}`,
              imagePullPolicy: 'Never',
              command: ['/usr/local/bin/node', '-e', TIMER, '/usr/local/bin/syncpod', String(ROUNDS)],
              env: [{ name: 'CONTAINER_RUNTIME_ENDPOINT', value: 'unix:///run/containerd/containerd.sock' }],
              volumeMounts: [{ name: 'cri', mountPath: '/run/containerd/containerd.sock' }],
            },
          ],
          volumes: [{ name: 'cri', hostPath: { path: lab.socket, type: 'Socket' } }],
        },
      }),
    );
    syncpod(lab, ['sync', '-y', '--pod-logs-root', lab.podLogsRoot, '--pod-dir-root', lab.podDirRoot, pod]);
    let inside: { node: number[]; pods: number[] } | undefined;
    for (const deadline = Date.now() + 300_000; !inside && Date.now() < deadline; ) {
      const c = JSON.parse(syncpod(lab, ['ps', '-a', '-o', 'json', '--label', 'io.kubernetes.pod.name=timer']))
        .containers[0];
      if (c?.state === 'CONTAINER_EXITED') inside = JSON.parse(syncpod(lab, ['logs', c.id]).trim().split('\n').at(-1)!);
      else await new Promise((r) => setTimeout(r, 500));
    }
    if (!inside) throw new Error('the timer container did not finish');
    const rows: Array<[string, string]> = [
      ['archive dist/syncpod-image.tar', mb(archive)],
      ['layers (gzip): runtime / app', layers.map(mb).join(' / ')],
      ['uncompressed layers', mb(unpackedBytes)],
      [`host: node -e 0`, ms(stats(host.node))],
      [
        `host: syncpod pods (${PODS} sandboxes)`,
        `${ms(stats(host.pods))}, ${(stats(host.pods).median / stats(host.node).median).toFixed(2)} × node`,
      ],
      [`container: node -e 0`, ms(stats(inside.node))],
      [
        `container: syncpod pods (${PODS} sandboxes)`,
        `${ms(stats(inside.pods))}, ${(stats(inside.pods).median / stats(inside.node).median).toFixed(2)} × node`,
      ],
      ['container / host, pods', `${(stats(inside.pods).median / stats(host.pods).median).toFixed(2)} ×`],
    ];
    const w = Math.max(...rows.map((r) => r[0].length));
    for (const [k, v] of rows) console.log(`${k.padEnd(w)}  ${v}`);
  } finally {
    await lab.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
