// The demo: a private containerd under .lab/demo, then what an operator does with syncpod:
// look (version, images), plan a pod that does not exist yet, sync it, plan again (no changes),
// look at it (pods, ps, logs), change its image and plan (one container replaced), sync again.
//   --keep   leave the lab running and print how to use it from the user's shell (every command,
//            exec/attach/port-forward too: a stream bridge makes containerd's streaming server,
//            which lives in the lab's network namespace, answer at the same address in the host's)
//   --stop   stop a kept lab: its pods, containerd, the bridge, the netns, mounts and .lab/demo
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { BUSYBOX_IMAGE, BUSYBOX_IMAGE_2, STREAM_BRIDGE_SOCKET, startLab, stopLabAt } from '../test/harness/lab';

const root = path.join(__dirname, '..');
const labDir = path.join(root, '.lab', 'demo');
const rel = (p: string): string => path.relative(root, p);
const syncpodBin = path.join(root, 'bin', 'syncpod');
const bold = process.stdout.isTTY && !process.env.NO_COLOR ? (s: string) => `\x1b[1m${s}\x1b[0m` : (s: string) => s;

function manifest(image: string): string {
  return `apiVersion: v1
kind: Pod
metadata:
  name: web
  namespace: demo
  labels: {app: web}
spec:
  restartPolicy: Always
  initContainers:
  - name: migrate
    image: ${BUSYBOX_IMAGE}
    imagePullPolicy: IfNotPresent
    command: ["sh", "-c", "echo migrating; sleep 1; echo migrated"]
  containers:
  - name: app
    image: ${image}
    imagePullPolicy: IfNotPresent
    command: ["sh", "-c", "trap 'exit 0' TERM; echo hello from $(hostname) > /tmp/index.html; httpd -p 8080 -h /tmp; echo serving on :8080; while true; do sleep 1; done"]
    ports: [{containerPort: 8080}]
  - name: sidecar-log
    image: ${BUSYBOX_IMAGE}
    imagePullPolicy: IfNotPresent
    command: ["sh", "-c", "trap 'exit 0' TERM; while true; do echo tick; sleep 1; done"]
`;
}

/** A TCP port nobody listens on at 127.0.0.1 now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen({ host: '127.0.0.1', port: 0 }, () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Starts one half of the stream bridge detached and waits for its "ready" line. */
function startBridgeHalf(argv: string[]): Promise<void> {
  const log = fs.openSync(path.join(labDir, 'stream-bridge.log'), 'a');
  const child = spawn(argv[0]!, argv.slice(1), { detached: true, stdio: ['ignore', 'pipe', log] });
  fs.closeSync(log);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`stream bridge did not start: ${argv.join(' ')}`)), 10_000);
    child.stdout?.once('data', () => {
      clearTimeout(timer);
      child.stdout?.destroy();
      child.unref();
      resolve();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`stream bridge exited ${code}; see ${rel(labDir)}/stream-bridge.log`));
    });
  });
}

async function stop(): Promise<void> {
  const had = await stopLabAt(labDir, { ledger: false });
  fs.rmSync(labDir, { recursive: true, force: true });
  process.stdout.write(
    had
      ? `The demo containerd was stopped; its pods, stream bridge, network namespace and ${rel(labDir)} are gone.\n`
      : `No demo lab to stop (nothing in ${rel(labDir)}).\n`,
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => a !== '--keep' && a !== '--stop');
  if (unknown.length > 0 || args.length > 1) {
    throw new Error(`usage: npm run demo [-- --keep | -- --stop] (got ${args.join(' ')})`);
  }
  if (args[0] === '--stop') return stop();
  const keep = args[0] === '--keep';
  const streamPort = await freePort();
  const lab = await startLab({ dir: labDir, streamPort, ledger: false });
  // Interrupted (Ctrl+C, or the reader of our output went away): take the containerd down anyway.
  const bail = (): void => {
    void lab.stop().finally(() => process.exit(130));
  };
  process.once('SIGINT', bail);
  process.once('SIGTERM', bail);
  process.stdout.on('error', bail);
  let done = false;
  try {
    const bridgeSocket = path.join(labDir, STREAM_BRIDGE_SOCKET);
    const bridge = path.join(root, 'scripts', 'demo-stream-bridge.mjs');
    await startBridgeHalf([
      'nsenter',
      `--net=/run/netns/${lab.netns}`,
      '--',
      process.execPath,
      bridge,
      'lab',
      String(streamPort),
      bridgeSocket,
    ]);
    await startBridgeHalf([process.execPath, bridge, 'host', String(streamPort), bridgeSocket]);

    const env = { ...process.env, ...lab.env, NO_COLOR: process.env.NO_COLOR ?? '' };
    const podFile = path.join(labDir, 'web.yaml');
    const nodeOpts = ['--pod-logs-root', rel(lab.podLogsRoot), '--pod-dir-root', rel(lab.podDirRoot)];
    const sh = (title: string, args: string[], allowed: number[] = [0], shown = ''): number => {
      process.stdout.write(`\n${bold(`$ syncpod ${args.join(' ')}${shown}`)}   # ${title}\n`);
      const r = spawnSync(process.execPath, [syncpodBin, ...args], { cwd: root, env, stdio: 'inherit' });
      if (!allowed.includes(r.status ?? -1)) throw new Error(`syncpod ${args.join(' ')} exited ${r.status}`);
      return r.status ?? -1;
    };
    const idOf = (name: string): string => {
      const r = spawnSync(process.execPath, [syncpodBin, 'ps', '-a', '-q', '--name', `^${name}$`], {
        env,
        encoding: 'utf8',
      });
      return (r.stdout.split('\n')[0] ?? '').slice(0, 13) || name;
    };

    process.stdout.write(`A private containerd runs at ${lab.endpoint} (CONTAINER_RUNTIME_ENDPOINT is set to it).\n`);
    fs.writeFileSync(podFile, manifest(BUSYBOX_IMAGE));
    sh('which runtime, which CRI API', ['version']);
    sh('the images the lab imported', ['images']);
    sh('what kubelet would do for a pod that does not exist yet', ['plan', ...nodeOpts, rel(podFile)], [0, 2]);
    sh('do it: sandbox, init container (waited for), then the containers', [
      'sync',
      '--yes',
      '--wait',
      ...nodeOpts,
      rel(podFile),
    ]);
    sh('converged: nothing left to do', ['plan', ...nodeOpts, rel(podFile)]);
    sh('the pod sandbox, as crictl shows it', ['pods']);
    sh('its containers, the finished init container too', ['ps', '-a']);
    sh("the init container's log", ['logs', '--tail', '5', idOf('migrate')]);
    fs.writeFileSync(podFile, manifest(BUSYBOX_IMAGE_2));
    sh('after changing the image of app: only app is replaced', ['plan', ...nodeOpts, rel(podFile)], [0, 2]);
    sh('apply it', ['sync', '--yes', ...nodeOpts, rel(podFile)]);
    const code = sh(
      'converged again: --detailed-exitcode says 0 (2 would mean changes pending)',
      ['plan', '--detailed-exitcode', ...nodeOpts, rel(podFile)],
      [0, 2],
      '; echo "exit code $?"',
    );
    process.stdout.write(`exit code ${code}\n`);
    if (keep) {
      const app = idOf('app');
      const sidecar = idOf('sidecar-log');
      const pod = (
        spawnSync(process.execPath, [syncpodBin, 'pods', '-q', '--name', '^web$'], {
          env,
          encoding: 'utf8',
        }).stdout.split('\n')[0] ?? ''
      ).slice(0, 13);
      const localPort = await freePort();
      const planArgs = `--pod-logs-root ${lab.podLogsRoot} --pod-dir-root ${lab.podDirRoot} ${podFile}`;
      const lines: Array<[string, string]> = [
        ['syncpod ps -a', 'every command reads CONTAINER_RUNTIME_ENDPOINT'],
        [`syncpod logs --tail 3 ${sidecar}`, "sidecar-log's log (-f follows it)"],
        [`syncpod exec ${app} hostname`, 'a command in app'],
        [`syncpod exec -it ${app} sh`, 'a shell in app (exit leaves it)'],
        [`syncpod exec --pod web -n demo --container app cat /tmp/index.html`, 'by pod and container name'],
        [`syncpod attach ${sidecar}`, "sidecar-log's output as it comes (Ctrl-C leaves)"],
        [`syncpod port-forward ${pod} ${localPort}:8080 &`, `app's port 8080 at 127.0.0.1:${localPort}`],
        [`curl -s http://127.0.0.1:${localPort}/`, 'through the port-forward; kill %1 ends it'],
      ];
      const width = Math.max(...lines.map(([c]) => c.length));
      process.stdout.write(
        [
          '',
          'The lab keeps running. From your shell (as root):',
          `  export PATH="${path.join(root, 'bin')}:$PATH" CONTAINER_RUNTIME_ENDPOINT=${lab.endpoint}`,
          ...lines.map(([c, why]) => `  ${c.padEnd(width)}   # ${why}`),
          '  # edit the manifest, plan, then sync (it asks before it kills anything):',
          `  syncpod plan ${planArgs}`,
          `  syncpod sync ${planArgs}`,
          `containerd lives in the network namespace ${lab.netns}; its streaming server (exec, attach,`,
          `port-forward) listens on 127.0.0.1:${streamPort} there, and a bridge (scripts/demo-stream-bridge.mjs)`,
          `answers at the same address in yours.`,
          `Stop it and remove everything: npm run demo -- --stop`,
          '',
        ].join('\n'),
      );
    }
    done = true;
  } finally {
    if (!keep || !done) {
      await lab.stop();
      fs.rmSync(labDir, { recursive: true, force: true });
      process.stdout.write(
        done
          ? '\nThe demo containerd was stopped and its pods removed (npm run demo -- --keep leaves it running).\n'
          : '',
      );
    }
  }
}

main().catch((err) => {
  process.stderr.write(`demo: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
