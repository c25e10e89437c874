// `syncpod sync` on manifests the API would refuse, against a real containerd: each exits 1 with
// one line naming the file, and no sandbox appears. Documents of other kinds are skipped with one
// note; a StatefulSet plans as its controller's pod.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUSYBOX_IMAGE, startLab, type Lab } from '../harness/lab';
import { assertOneLineError, syncpod } from './helpers';
import { LOOP, nodeFlags } from './sync-helpers';

let lab: Lab;
let dir: string;
const corpus = path.join(__dirname, '..', 'fixtures', 'manifests', 'refused');
const run = (args: string[], input?: string) => syncpod(args, { env: lab.env, timeoutMs: 60000, input });
const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

before(async () => {
  lab = await startLab();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-corpus-e2e-'));
});
after(async () => {
  await lab?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function sandboxCount(): Promise<number> {
  const r = await run(['pods', '-q']);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout.split('\n').filter((l) => l !== '').length;
}

describe('manifests the API would refuse', () => {
  test('sync refuses each with one line naming the file, and creates no sandbox', async () => {
    const files = fs.readdirSync(corpus).sort();
    assert.ok(files.length >= 25, `corpus has ${files.length} files`);
    for (const f of files) {
      const file = path.join(corpus, f);
      const r = await run(['sync', '--yes', ...nodeFlags(lab), file]);
      assertOneLineError(r, new RegExp(`^syncpod: ${escapeRegex(file)}: `));
    }
    assert.equal(await sandboxCount(), 0, 'no sandbox was created');
  });
});

describe('tricky but valid manifests', () => {
  test('names and values that look like numbers or booleans (e5, E1, -E1, 1e3, "on") plan, sync and reach the container as strings', async () => {
    const file = path.join(dir, 'e1.yaml');
    fs.writeFileSync(
      file,
      `apiVersion: v1
kind: Pod
metadata: {name: e1, namespace: e2e, labels: {v: E5, app: e5}}
spec:
  terminationGracePeriodSeconds: 2
  containers:
  - name: e5
    image: ${BUSYBOX_IMAGE}
    command: [sh, -c, '${LOOP}']
    env: [{name: E1, value: -E1}, {name: E5, value: e5}, {name: MODE, value: "on"}, {name: NUM, value: "1e3"}]
  - name: 1e3x
    image: ${BUSYBOX_IMAGE}
    command: [sh, -c, '${LOOP}']
`,
    );
    const plan = await run(['plan', '-o', 'json', ...nodeFlags(lab), file]);
    assert.equal(plan.code, 0, plan.stderr);
    const p = JSON.parse(plan.stdout);
    assert.equal(p.pod.name, 'e1');
    assert.deepEqual(
      p.actions.containersToStart.map((c: any) => c.name),
      ['e5', '1e3x'],
    );
    const r = await run(['sync', '--yes', ...nodeFlags(lab), file]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const env = await run([
      'exec',
      '-s',
      '--pod',
      'e1',
      '-n',
      'e2e',
      '--container',
      'e5',
      'sh',
      '-c',
      'echo "$E1 $E5 $MODE $NUM"',
    ]);
    assert.equal(env.code, 0, env.stderr);
    assert.equal(env.stdout, '-E1 e5 on 1e3\n');
    const again = await run(['plan', '--detailed-exitcode', ...nodeFlags(lab), file]);
    assert.equal(again.code, 0, again.stdout + again.stderr);
  });
});

describe('real-world shapes', () => {
  test('an all-in-one file: other kinds skipped with one note, the Deployment plans', async () => {
    const file = path.join(dir, 'checkout.yaml');
    fs.writeFileSync(
      file,
      `apiVersion: v1
kind: ServiceAccount
metadata: {name: checkout}
---
apiVersion: v1
kind: Service
metadata: {name: checkout}
spec: {selector: {app: checkout}, ports: [{port: 5050, targetPort: 5050}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: checkout}
spec:
  selector: {matchLabels: {app: checkout}}
  template:
    metadata: {labels: {app: checkout}}
    spec:
      serviceAccountName: checkout
      containers: [{name: server, image: ${BUSYBOX_IMAGE}, ports: [{containerPort: 5050}]}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: checkout}
spec: {minAvailable: 1, selector: {matchLabels: {app: checkout}}}
`,
    );
    const r = await run(['plan', '-o', 'json', ...nodeFlags(lab), file]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stderr,
      'skipped 3 documents: ServiceAccount/checkout, Service/checkout, PodDisruptionBudget/checkout\n',
    );
    const plan = JSON.parse(r.stdout);
    assert.equal(plan.pod.name, 'checkout');
    assert.deepEqual(plan.source.skipped, [
      'ServiceAccount/checkout',
      'Service/checkout',
      'PodDisruptionBudget/checkout',
    ]);
    assert.equal(plan.source.controller.kind, 'Deployment');
  });

  test('a StatefulSet with claim templates plans pod N with its PVC volumes; --ordinal picks another', async () => {
    const file = path.join(dir, 'cassandra.yaml');
    fs.writeFileSync(
      file,
      `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: cassandra}
spec:
  serviceName: cassandra
  replicas: 3
  selector: {matchLabels: {app: cassandra}}
  template:
    metadata: {labels: {app: cassandra}}
    spec:
      containers:
      - name: cassandra
        image: ${BUSYBOX_IMAGE}
        volumeMounts: [{name: data, mountPath: /var/lib/cassandra}]
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`,
    );
    const r = await run(['plan', '-o', 'json', '--ordinal', '2', ...nodeFlags(lab), file]);
    // syncpod cannot attach a claim: the pod is blocked (exit 1), the plan says which claim.
    assert.equal(r.code, 1, r.stderr);
    const plan = JSON.parse(r.stdout);
    assert.equal(plan.pod.name, 'cassandra-2');
    assert.equal(plan.source.controller.ordinal, 2);
    assert.match(plan.source.notes.join('\n'), /data -> PVC data-cassandra-2/);
    assert.match(
      plan.blocked,
      /^cannot provide volume data \(persistentVolumeClaim\): persistentVolumeClaim data-cassandra-2 /,
    );
    const skipped = await run([
      'plan',
      '-o',
      'json',
      '--ordinal',
      '2',
      '--skip-volume',
      'data',
      ...nodeFlags(lab),
      file,
    ]);
    assert.equal(skipped.code, 0, skipped.stderr);
    assert.equal(JSON.parse(skipped.stdout).blocked, null);
    const bad = await run(['plan', '--ordinal', '3', ...nodeFlags(lab), file]);
    assertOneLineError(bad, /--ordinal 3 is not a pod of this StatefulSet \(ordinals 0\.\.2\)/);
  });

  test("a Deployment's template finds its live replica by the controller's labels and name, and plans against it", async () => {
    const container = `{name: app, image: ${BUSYBOX_IMAGE}, command: [sh, -c, '${LOOP}']}`;
    const livePod = path.join(dir, 'live.yaml');
    fs.writeFileSync(
      livePod,
      `apiVersion: v1
kind: Pod
metadata:
  name: web-7b6c5d4f8-k9m2p
  namespace: shop
  labels: {app: web, pod-template-hash: 7b6c5d4f8}
spec:
  terminationGracePeriodSeconds: 1
  containers: [${container}]
`,
    );
    const created = await run(['sync', '--yes', ...nodeFlags(lab), livePod]);
    assert.equal(created.code, 0, created.stderr);
    const deploy = path.join(dir, 'web-deployment.yaml');
    fs.writeFileSync(
      deploy,
      `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      terminationGracePeriodSeconds: 1
      containers: [${container}]
`,
    );
    const r = await run(['plan', '-o', 'json', '--detailed-exitcode', ...nodeFlags(lab), deploy]);
    assert.equal(r.code, 0, `the live replica runs the template: no changes\n${r.stdout}${r.stderr}`);
    const plan = JSON.parse(r.stdout);
    assert.equal(plan.pod.name, 'web-7b6c5d4f8-k9m2p');
    assert.equal(plan.match.by, 'controller-labels');
    assert.match(
      plan.source.notes.join('\n'),
      /live pod web-7b6c5d4f8-k9m2p \(uid [0-9a-f-]+\) taken as the Deployment's pod.*labels taken from it: pod-template-hash=7b6c5d4f8/,
    );
  });
});
