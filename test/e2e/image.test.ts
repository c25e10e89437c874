// The container image: `npm run image`'s archive imported into a real containerd with ctr, run as a
// pod by syncpod's own sync with the lab's socket mounted, its output against syncpod on the host.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startLab, type Lab } from '../harness/lab';
import { syncpod } from './helpers';
import { nodeFlags } from './sync-helpers';

const ROOT = path.join(__dirname, '..', '..');
const ARCHIVE = path.join(ROOT, 'dist', 'syncpod-image.tar');
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;
const IMAGE = `docker.io/library/syncpod:${VERSION}`;

let lab: Lab;
let dir: string;
const run = (args: string[]) => syncpod(args, { env: lab.env, timeoutMs: 120000 });

/** A pod running the image once with the lab's socket at the kubelet-default path under /host. */
function imagePod(name: string, args: string[]): string {
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'e2e-image' },
      spec: {
        restartPolicy: 'Never',
        terminationGracePeriodSeconds: 1,
        containers: [
          {
            name: 'syncpod',
            image: `syncpod:${VERSION}`,
            imagePullPolicy: 'Never',
            args,
            env: [{ name: 'CONTAINER_RUNTIME_ENDPOINT', value: 'unix:///host/run/containerd/containerd.sock' }],
            volumeMounts: [{ name: 'cri', mountPath: '/host/run/containerd/containerd.sock' }],
          },
        ],
        volumes: [{ name: 'cri', hostPath: { path: lab.socket, type: 'Socket' } }],
      },
    }),
  );
  return file;
}

/** Syncs the pod, waits for its container to exit and returns its log text and exit code. */
async function runInImage(name: string, args: string[]): Promise<{ log: string; exitCode: number }> {
  const file = imagePod(name, args);
  const s = await run(['sync', '-y', ...nodeFlags(lab), file]);
  assert.equal(s.code, 0, s.stdout + s.stderr);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ps = JSON.parse((await run(['ps', '-a', '-o', 'json', '--label', `io.kubernetes.pod.name=${name}`])).stdout).containers;
    assert.equal(ps.length, 1);
    if (ps[0].state === 'CONTAINER_EXITED') {
      const insp = JSON.parse((await run(['inspect', ps[0].id])).stdout);
      const logs = await run(['logs', ps[0].id]);
      return { log: logs.stdout, exitCode: insp.status.exitCode };
    }
    assert.ok(Date.now() < deadline, 'the image container did not exit within 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
}

before(async () => {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'image.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
  lab = await startLab();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-image-e2e-'));
});
after(async () => {
  await lab?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('image', () => {
  test('the archive is an OCI image that ctr imports under syncpod:VERSION, well under 100 MB', () => {
    assert.ok(fs.statSync(ARCHIVE).size < 60e6, `archive is ${fs.statSync(ARCHIVE).size} bytes`);
    lab.ctr(['images', 'import', ARCHIVE]);
    assert.match(lab.ctr(['images', 'ls', '-q']), new RegExp(`^${IMAGE.replace(/[.]/g, '\\.')}$`, 'm'));
  });

  test('run as a pod with the runtime socket mounted, `pods -o json` equals the host run', async () => {
    const inside = await runInImage('lister', ['pods', '-o', 'json']);
    assert.equal(inside.exitCode, 0, inside.log);
    const host = await run(['pods', '-o', 'json']);
    assert.equal(host.code, 0, host.stderr);
    assert.deepEqual(JSON.parse(inside.log), JSON.parse(host.stdout));
    assert.ok(JSON.parse(host.stdout).items.some((p: any) => p.metadata.name === 'lister'), 'it lists its own pod');
  });

  test('syncpod --version inside the image is the package version', async () => {
    const v = await runInImage('version', ['--version']);
    assert.equal(v.exitCode, 0);
    assert.equal(v.log.trim(), VERSION);
  });
});
