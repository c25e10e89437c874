// Volumes on a real containerd: a `kubectl get pod -o yaml` dump with the projected service-account
// volume every API pod has and a configMap volume is refused before anything happens without the
// data (plan blocked, exit 1; sync creates nothing), and syncs with --configmap/--secret/
// --service-account-token, the container reading the files kubelet's atomic writer lays out; an
// emptyDir of medium Memory is a tmpfs of its sizeLimit inside the container and is unmounted by rmp.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUSYBOX_IMAGE, startLab, type Lab } from '../harness/lab';
import { syncpod } from './helpers';
import { LOOP, nodeFlags } from './sync-helpers';

let lab: Lab;
let dir: string;
const run = (args: string[]) => syncpod(args, { env: lab.env, timeoutMs: 120000 });

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.e2e-token-value-never-printed';
const UID = '6b0f4a52-3f0c-4d8e-9d55-0c9a1f2e7b10';

before(async () => {
  lab = await startLab();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-volumes-e2e-'));
});
after(async () => {
  await lab?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A pod as `kubectl get pod -o yaml` prints it: server fields, the admission-added SA volume, a status. */
function dumpYaml(name: string, uid: string): string {
  return `apiVersion: v1
kind: Pod
metadata:
  creationTimestamp: "2026-11-20T10:00:00Z"
  labels:
    app: ${name}
  name: ${name}
  namespace: e2e
  resourceVersion: "48213"
  uid: ${uid}
spec:
  containers:
  - command: ["sh", "-c", ${JSON.stringify(LOOP)}]
    image: ${BUSYBOX_IMAGE}
    imagePullPolicy: IfNotPresent
    name: app
    resources: {}
    terminationMessagePath: /dev/termination-log
    terminationMessagePolicy: File
    volumeMounts:
    - mountPath: /etc/app
      name: app-config
    - mountPath: /var/run/secrets/kubernetes.io/serviceaccount
      name: kube-api-access-x7k2p
      readOnly: true
  dnsPolicy: ClusterFirst
  enableServiceLinks: true
  nodeName: e2e-node
  preemptionPolicy: PreemptLowerPriority
  priority: 0
  restartPolicy: Always
  schedulerName: default-scheduler
  securityContext: {}
  serviceAccount: default
  serviceAccountName: default
  terminationGracePeriodSeconds: 2
  tolerations:
  - effect: NoExecute
    key: node.kubernetes.io/not-ready
    operator: Exists
    tolerationSeconds: 300
  volumes:
  - configMap:
      defaultMode: 420
      items:
      - key: app.conf
        path: conf/app.conf
        mode: 256
      name: app-config
    name: app-config
  - name: kube-api-access-x7k2p
    projected:
      defaultMode: 420
      sources:
      - serviceAccountToken:
          expirationSeconds: 3607
          path: token
      - configMap:
          items:
          - key: ca.crt
            path: ca.crt
          name: kube-root-ca.crt
      - downwardAPI:
          items:
          - fieldRef:
              apiVersion: v1
              fieldPath: metadata.namespace
            path: namespace
status:
  phase: Pending
  qosClass: BestEffort
`;
}

function writeDump(name: string, uid: string): string {
  const file = path.join(dir, `${name}.yaml`);
  fs.writeFileSync(file, dumpYaml(name, uid));
  return file;
}

function dataFlags(): string[] {
  const cm = path.join(dir, 'app-config');
  const ca = path.join(dir, 'kube-root-ca');
  fs.mkdirSync(cm, { recursive: true });
  fs.mkdirSync(ca, { recursive: true });
  fs.writeFileSync(path.join(cm, 'app.conf'), 'listen = 8080\n');
  fs.writeFileSync(path.join(cm, 'unused.conf'), 'not selected by items\n');
  fs.writeFileSync(path.join(ca, 'ca.crt'), '-----BEGIN CERTIFICATE-----\nE2E\n-----END CERTIFICATE-----\n');
  const token = path.join(dir, 'token');
  fs.writeFileSync(token, TOKEN);
  return [
    '--configmap',
    `app-config=${cm}`,
    '--configmap',
    `kube-root-ca.crt=${ca}`,
    '--service-account-token',
    `e2e/default=${token}`,
  ];
}

async function sandboxesOf(name: string): Promise<Array<{ id: string }>> {
  const r = await run(['pods', '-o', 'json', '--name', `^${name}$`]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).items;
}

async function containerOf(pod: string, name: string): Promise<string> {
  const ps = JSON.parse((await run(['ps', '-a', '-o', 'json', '--name', `^${name}$`])).stdout).containers.filter(
    (c: { labels: Record<string, string> }) => c.labels['io.kubernetes.pod.name'] === pod,
  );
  assert.equal(ps.length, 1, `one ${name} container of ${pod}`);
  return ps[0].id;
}

async function sh(id: string, script: string): Promise<string> {
  const r = await run(['exec', '-s', id, 'sh', '-c', script]);
  assert.equal(r.code, 0, `${script}: ${r.stderr}`);
  return r.stdout;
}

function mountsUnder(prefix: string): string[] {
  return fs
    .readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((l) => l.split(' ')[4] ?? '')
    .filter((p) => p.startsWith(prefix));
}

test('without the data: plan marks the pod blocked and exits 1, sync refuses with one line and creates nothing', async () => {
  const file = writeDump('vol-nodata', '0c7d1f0e-8a43-4a8e-a0f4-9b2d4d7e1c01');
  const plan = await run(['plan', '-o', 'json', ...nodeFlags(lab), file]);
  assert.equal(plan.code, 1, plan.stderr);
  const p = JSON.parse(plan.stdout);
  assert.match(p.blocked, /cannot provide volumes app-config \(configMap\): ConfigMap e2e\/app-config was not given/);
  assert.match(p.blocked, /kube-api-access-x7k2p \(projected\): .*ServiceAccount e2e\/default/);
  assert.deepEqual(
    p.volumes.map((v: { name: string; provision: string }) => [v.name, v.provision]),
    [
      ['app-config', 'unsupported'],
      ['kube-api-access-x7k2p', 'unsupported'],
    ],
  );
  assert.match(plan.stderr, /pod e2e\/vol-nodata is blocked/);
  const detailed = await run(['plan', '--detailed-exitcode', ...nodeFlags(lab), file]);
  assert.equal(detailed.code, 1, detailed.stderr);
  assert.match(detailed.stdout, /Blocked: cannot provide volumes .*Nothing will be done for this pod\./);

  const sync = await run(['sync', '-y', ...nodeFlags(lab), file]);
  assert.equal(sync.code, 1, sync.stdout);
  assert.equal(sync.stderr.trim().split('\n').length, 1, sync.stderr);
  assert.match(sync.stderr, /vol-nodata\.yaml: document 1: pod e2e\/vol-nodata is blocked: .*nothing was done/);
  assert.deepEqual(await sandboxesOf('vol-nodata'), []);
  assert.equal(fs.existsSync(path.join(lab.podDirRoot, 'pods', '0c7d1f0e-8a43-4a8e-a0f4-9b2d4d7e1c01')), false);
  assert.equal(fs.readdirSync(lab.podLogsRoot).filter((d) => d.includes('vol-nodata')).length, 0);
});

test('with --configmap and --service-account-token the container reads the files as kubelet lays them out; the token is never printed', async () => {
  const file = writeDump('vol-data', UID);
  const flags = [...nodeFlags(lab), ...dataFlags()];
  const plan = await run(['plan', '--detailed-exitcode', '-o', 'json', ...flags, file]);
  assert.equal(plan.code, 2, plan.stderr);
  assert.equal(JSON.parse(plan.stdout).blocked, null);

  const dry = await run(['sync', '--dry-run', ...flags, file]);
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /token \(644\)/);
  const sync = await run(['sync', '-y', '--wait', ...flags, file]);
  assert.equal(sync.code, 0, sync.stderr);
  for (const out of [plan, dry, sync]) assert.ok(!`${out.stdout}${out.stderr}`.includes(TOKEN), 'token printed');

  const app = await containerOf('vol-data', 'app');
  const sa = '/var/run/secrets/kubernetes.io/serviceaccount';
  assert.equal(await sh(app, `cat ${sa}/token`), TOKEN);
  assert.equal(await sh(app, `cat ${sa}/namespace`), 'e2e');
  assert.match(await sh(app, `cat ${sa}/ca.crt`), /BEGIN CERTIFICATE-----\nE2E/);
  assert.equal(await sh(app, 'cat /etc/app/conf/app.conf'), 'listen = 8080\n');
  // items select keys: the other key of the ConfigMap is not there.
  assert.equal(await sh(app, 'ls /etc/app'), 'conf\n');
  // The atomic writer's layout: ..data -> ..<timestamp>, user-visible entries link into ..data.
  assert.match(await sh(app, `readlink ${sa}/..data`), /^\.\.\d{4}_\d\d_\d\d_\d\d_\d\d_\d\d\.\d+\n$/);
  assert.equal(await sh(app, `readlink ${sa}/token`), '..data/token\n');
  assert.equal(await sh(app, 'readlink /etc/app/conf'), '..data/conf\n');
  // Modes: defaultMode 0644 (420), the item's mode 0400 (256).
  assert.equal(await sh(app, `stat -L -c %a ${sa}/token /etc/app/conf/app.conf`), '644\n400\n');
  // The plugin's mounts are read-only.
  assert.notEqual((await run(['exec', '-s', app, 'sh', '-c', 'echo x > /etc/app/new'])).code, 0);
  // The projected volume (it holds a token) is on a tmpfs on the node, the configMap on disk.
  const podDir = path.join(lab.podDirRoot, 'pods', UID);
  const mounted = mountsUnder(fs.realpathSync(podDir));
  assert.deepEqual(mounted, [
    path.join(fs.realpathSync(podDir), 'volumes/kubernetes.io~projected/kube-api-access-x7k2p'),
  ]);

  // A second sync with unchanged data rewrites nothing (the same ..data target).
  const before = await sh(app, `readlink ${sa}/..data`);
  const again = await run(['sync', '-y', ...flags, file]);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(await sh(app, `readlink ${sa}/..data`), before);

  const [sandbox] = await sandboxesOf('vol-data');
  const rmp = await run(['rmp', '-f', sandbox!.id]);
  assert.equal(rmp.code, 0, rmp.stderr);
  assert.deepEqual(mountsUnder(fs.realpathSync(podDir)), []);
});

test('an emptyDir of medium Memory is a tmpfs of its sizeLimit in the container, and rmp unmounts it', async () => {
  const uid = '2d1c9a4e-5b7f-4c3a-8e6d-1f0a9b8c7d62';
  const file = path.join(dir, 'vol-tmpfs.json');
  fs.writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'vol-tmpfs', namespace: 'e2e', uid },
      spec: {
        terminationGracePeriodSeconds: 2,
        securityContext: { fsGroup: 2000 },
        volumes: [{ name: 'cache', emptyDir: { medium: 'Memory', sizeLimit: '16Mi' } }],
        containers: [
          {
            name: 'app',
            image: BUSYBOX_IMAGE,
            imagePullPolicy: 'IfNotPresent',
            command: ['sh', '-c', LOOP],
            volumeMounts: [{ name: 'cache', mountPath: '/cache' }],
          },
        ],
      },
    }),
  );
  const sync = await run(['sync', '-y', '--wait', ...nodeFlags(lab), file]);
  assert.equal(sync.code, 0, sync.stderr);
  const app = await containerOf('vol-tmpfs', 'app');
  const line = await sh(app, "grep ' /cache ' /proc/mounts");
  assert.match(line, /^tmpfs \/cache tmpfs .*size=16384k/);
  // fsGroup: the volume's group, setgid and group-writable (SetVolumeOwnership).
  assert.equal(await sh(app, 'stat -c "%g %a" /cache'), '2000 3777\n');
  const hostDir = path.join(fs.realpathSync(lab.podDirRoot), 'pods', uid, 'volumes/kubernetes.io~empty-dir/cache');
  assert.deepEqual(mountsUnder(hostDir), [hostDir]);
  const [sandbox] = await sandboxesOf('vol-tmpfs');
  const rmp = await run(['rmp', '-f', sandbox!.id]);
  assert.equal(rmp.code, 0, rmp.stderr);
  assert.deepEqual(mountsUnder(hostDir), []);
});

test('sync --node: a pod whose volume data is missing is refused in its preflight and leaves nothing; with the data it runs', async () => {
  const uid = '9e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a';
  const file = writeDump('vol-node', uid);
  const empty = path.join(dir, 'no-static-pods');
  fs.mkdirSync(empty, { recursive: true });
  const node = [...nodeFlags(lab), '--node', '--static-pod-path', empty, '--pods-api-socket', 'none'];
  const plan = await run(['plan', ...node, '-o', 'json', file]);
  const pod = JSON.parse(plan.stdout).plans.find((x: { pod: { name: string } }) => x.pod.name === 'vol-node');
  assert.match(pod.preflight.blocked, /^volume app-config: configMap: ConfigMap e2e\/app-config was not given/);
  assert.deepEqual(
    pod.preflight.steps.map((s: { action: string }) => s.action),
    ['volume-unavailable', 'volume-unavailable'],
  );
  const refused = await run(['sync', ...node, '--yes', file]);
  assert.equal(refused.code, 1, refused.stdout);
  assert.deepEqual(await sandboxesOf('vol-node'), []);
  assert.equal(fs.existsSync(path.join(lab.podDirRoot, 'pods', uid)), false, 'no pod directory');

  const synced = await run(['sync', ...node, '--yes', ...dataFlags(), file]);
  assert.equal(synced.code, 0, synced.stderr + synced.stdout);
  assert.ok(!`${synced.stdout}${synced.stderr}`.includes(TOKEN), 'token printed');
  const app = await containerOf('vol-node', 'app');
  assert.equal(await sh(app, 'cat /var/run/secrets/kubernetes.io/serviceaccount/token'), TOKEN);
  const [sandbox] = await sandboxesOf('vol-node');
  assert.equal((await run(['rmp', '-f', sandbox!.id])).code, 0);
  assert.deepEqual(mountsUnder(path.join(fs.realpathSync(lab.podDirRoot), 'pods', uid)), []);
});
