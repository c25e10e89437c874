// Version-dependent config generation on a real containerd: an env file written by an init
// container into an emptyDir and read through fileKeyRef (EnvFiles, on from 1.35), planned as
// kubelet 1.35 and as 1.34 (gate off: the variable is empty, as kubelet leaves it).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUSYBOX_IMAGE, startLab, type Lab } from '../harness/lab';
import { createdWith, syncpod } from './helpers';
import { LOOP, nodeFlags } from './sync-helpers';

let lab: Lab;
let dir: string;
const run = (args: string[]) => syncpod(args, { env: lab.env, timeoutMs: 120000 });

before(async () => {
  lab = await startLab();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-gates-e2e-'));
});
after(async () => {
  await lab?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function envFilePod(name: string): string {
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'e2e' },
      spec: {
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 2,
        volumes: [{ name: 'cfg', emptyDir: {} }],
        initContainers: [
          {
            name: 'write-env',
            image: BUSYBOX_IMAGE,
            imagePullPolicy: 'IfNotPresent',
            command: ['sh', '-c', 'printf "# made by init\\nTOKEN=\'tok-123\'\\n" > /cfg/app.env'],
            volumeMounts: [{ name: 'cfg', mountPath: '/cfg' }],
          },
        ],
        containers: [
          {
            name: 'app',
            image: BUSYBOX_IMAGE,
            imagePullPolicy: 'IfNotPresent',
            command: ['sh', '-c', LOOP],
            env: [{ name: 'TOKEN', valueFrom: { fileKeyRef: { volumeName: 'cfg', path: 'app.env', key: 'TOKEN' } } }],
            volumeMounts: [{ name: 'cfg', mountPath: '/cfg' }],
          },
        ],
      },
    }),
  );
  return file;
}

async function appEnv(pod: string): Promise<Record<string, string>> {
  const ps = JSON.parse((await run(['ps', '-a', '-o', 'json', '--name', '^app$'])).stdout).containers.filter(
    (c: any) => c.labels['io.kubernetes.pod.name'] === pod,
  );
  assert.equal(ps.length, 1, `one app container of ${pod}`);
  const insp = JSON.parse((await run(['inspect', ps[0].id])).stdout);
  // (on CRI-O the spec's env also holds the image's and CRI-O's variables: the tests look up names)
  return Object.fromEntries(
    createdWith(insp).env.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
}

test('EnvFiles: as kubelet 1.35 the app gets the value from the file the init container wrote; as 1.34 the API server refuses the pod unless the gate is on', async () => {
  const on = await run([
    'sync',
    '--yes',
    '--wait',
    '--kubelet-version',
    '1.35',
    ...nodeFlags(lab),
    envFilePod('envfile-on'),
  ]);
  assert.equal(on.code, 0, on.stderr);
  assert.equal((await appEnv('envfile-on')).TOKEN, 'tok-123');
  // The API server of 1.34 (EnvFiles alpha, off) drops fileKeyRef and then refuses the empty valueFrom.
  const off = await run([
    'sync',
    '--yes',
    '--wait',
    '--kubelet-version',
    '1.34',
    ...nodeFlags(lab),
    envFilePod('envfile-off'),
  ]);
  assert.equal(off.code, 1, off.stderr);
  assert.match(
    off.stderr,
    /envfile-off\.json: document 1: spec\.containers\[0\]\.env\[0\]\.valueFrom: must specify one of: .*`fileKeyRef`/,
  );
  assert.equal(off.stderr.trim().split('\n').length, 1, 'one line');
  // With the gate on, 1.34 reads the file as 1.35 does.
  const on134 = await run([
    'sync',
    '--yes',
    '--wait',
    '--kubelet-version',
    '1.34',
    '--feature-gates',
    'EnvFiles=true',
    ...nodeFlags(lab),
    envFilePod('envfile-on-134'),
  ]);
  assert.equal(on134.code, 0, on134.stderr);
  assert.equal((await appEnv('envfile-on-134')).TOKEN, 'tok-123');
});
