// The demo: a private containerd under .lab/demo, then what an operator does with syncpod:
// look (version, images), plan a pod that does not exist yet, sync it, plan again (no changes),
// look at it (pods, ps, logs), change its image and plan (one container replaced), sync again.
// Pass --keep to leave containerd running afterwards (the next demo run replaces it).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BUSYBOX_IMAGE, BUSYBOX_IMAGE_2, startLab } from '../test/harness/lab';

const root = path.join(__dirname, '..');
const labDir = path.join(root, '.lab', 'demo');
const keep = process.argv.includes('--keep');

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
    command: ["sh", "-c", "trap 'exit 0' TERM; echo serving on $(hostname); while true; do sleep 1; done"]
    ports: [{containerPort: 8080}]
  - name: sidecar-log
    image: ${BUSYBOX_IMAGE}
    imagePullPolicy: IfNotPresent
    command: ["sh", "-c", "trap 'exit 0' TERM; while true; do echo tick; sleep 1; done"]
`;
}

async function main(): Promise<void> {
  const lab = await startLab({ dir: labDir, keepDir: true });
  // Interrupted (Ctrl+C, or the reader of our output went away): take the containerd down anyway.
  const bail = (): void => {
    void lab.stop().finally(() => process.exit(130));
  };
  process.once('SIGINT', bail);
  process.once('SIGTERM', bail);
  process.stdout.on('error', bail);
  const env = { ...process.env, ...lab.env, NO_COLOR: process.env.NO_COLOR ?? '' };
  const nodeOpts = ['--pod-logs-root', lab.podLogsRoot, '--pod-dir-root', lab.podDirRoot];
  const podFile = path.join(labDir, 'web.yaml');
  const sh = (title: string, args: string[], allowed: number[] = [0]): void => {
    process.stdout.write(`\n\x1b[1m$ syncpod ${args.join(' ')}\x1b[0m   # ${title}\n`);
    const r = spawnSync(process.execPath, [path.join(root, 'bin', 'syncpod'), ...args], { env, stdio: 'inherit' });
    if (!allowed.includes(r.status ?? -1)) throw new Error(`syncpod ${args.join(' ')} exited ${r.status}`);
  };
  try {
    process.stdout.write(`A private containerd runs at ${lab.endpoint} (CONTAINER_RUNTIME_ENDPOINT is set to it).\n`);
    fs.writeFileSync(podFile, manifest(BUSYBOX_IMAGE));
    sh('which runtime, which CRI API', ['version']);
    sh('the images the lab imported', ['images']);
    sh('what kubelet would do for a pod that does not exist yet', ['plan', ...nodeOpts, podFile], [0, 2]);
    sh('do it: sandbox, init container (waited for), then the containers', [
      'sync',
      '--yes',
      '--wait',
      ...nodeOpts,
      podFile,
    ]);
    sh('converged: nothing left to do', ['plan', '--detailed-exitcode', ...nodeOpts, podFile]);
    sh('the pod and its containers, as crictl shows them', ['pods']);
    sh('', ['ps', '-a']);
    sh("the init container's log", ['logs', '--tail', '5', firstId(env, 'migrate')]);
    fs.writeFileSync(podFile, manifest(BUSYBOX_IMAGE_2));
    sh('after changing the image of app: only app is replaced', ['plan', ...nodeOpts, podFile], [0, 2]);
    sh('apply it', ['sync', '--yes', ...nodeOpts, podFile]);
    sh('and the plan is empty again (exit code 0 with --detailed-exitcode)', [
      'plan',
      '--detailed-exitcode',
      '-o',
      'json',
      ...nodeOpts,
      podFile,
    ]);
  } finally {
    if (keep) {
      process.stdout.write(`\ncontainerd keeps running: export CONTAINER_RUNTIME_ENDPOINT=${lab.endpoint}\n`);
    } else {
      await lab.stop();
      process.stdout.write('\nThe demo containerd was stopped and its pods removed (run with -- --keep to keep it).\n');
    }
  }
}

function firstId(env: NodeJS.ProcessEnv, name: string): string {
  const r = spawnSync(process.execPath, [path.join(root, 'bin', 'syncpod'), 'ps', '-a', '-q', '--name', `^${name}$`], {
    env,
    encoding: 'utf8',
  });
  return r.stdout.split('\n')[0] || name;
}

main().catch((err) => {
  process.stderr.write(`demo: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
