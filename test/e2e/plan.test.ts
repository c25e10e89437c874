// `syncpod plan` against a real containerd, for pods that carry kubelet's labels and annotations
// (started with `syncpod sync`, which uses kubelet's configs), in the situations an operator asks about.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUSYBOX_IMAGE, BUSYBOX_IMAGE_2, labRuntime, startLab, type Lab } from '../harness/lab';
import { CriService, type RuntimeMethods } from '../../src/cri/grpc-runtime-service';
import { assertOneLineError, syncpod } from './helpers';

let lab: Lab;
let rt: CriService<RuntimeMethods>;
let dir: string;

interface PodSpec {
  name: string;
  restartPolicy?: string;
  inits?: Array<{ name: string; script: string }>;
  containers: Array<{ name: string; script: string; image?: string }>;
}

function manifest(p: PodSpec): string {
  const c = (x: { name: string; script: string; image?: string }) =>
    `  - name: ${x.name}\n    image: ${x.image ?? BUSYBOX_IMAGE}\n    imagePullPolicy: IfNotPresent\n    command: ["sh", "-c", ${JSON.stringify(x.script)}]\n`;
  return (
    `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${p.name}\n  namespace: plans\nspec:\n` +
    (p.restartPolicy ? `  restartPolicy: ${p.restartPolicy}\n` : '') +
    (p.inits?.length ? `  initContainers:\n${p.inits.map(c).join('')}` : '') +
    `  containers:\n${p.containers.map(c).join('')}`
  );
}

function write(p: PodSpec): string {
  const file = path.join(dir, `${p.name}.yaml`);
  fs.writeFileSync(file, manifest(p));
  return file;
}

const nodeFlags = () => ['--pod-logs-root', lab.podLogsRoot, '--pod-dir-root', lab.podDirRoot];
const run = (args: string[]) => syncpod(args, { env: lab.env, timeoutMs: 120_000 });

async function planJSON(file: string, extra: string[] = []): Promise<any> {
  const r = await run(['plan', '-o', 'json', ...nodeFlags(), ...extra, file]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

async function sync(file: string, extra: string[] = []): Promise<void> {
  const r = await run(['sync', '--yes', ...nodeFlags(), ...extra, file]);
  assert.equal(r.code, 0, `sync failed: ${r.stderr}\n${r.stdout}`);
}

async function containersOf(pod: string) {
  const { containers } = await rt.call('ListContainers', {
    filter: { labelSelector: { 'io.kubernetes.pod.name': pod } },
  });
  return containers;
}

async function waitExited(pod: string, name: string): Promise<void> {
  for (let i = 0; i < 150; i++) {
    const c = (await containersOf(pod))
      .filter((x) => x.metadata?.name === name)
      .sort((a, b) => (BigInt(b.createdAt) > BigInt(a.createdAt) ? 1 : -1))[0];
    if (c?.state === 'CONTAINER_EXITED') return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${pod}/${name} did not exit`);
}

before(async () => {
  lab = await startLab();
  rt = new CriService<RuntimeMethods>(lab.endpoint, 'RuntimeService', { timeoutMs: 30000 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-plan-'));
});

after(async () => {
  rt?.close();
  await lab?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const twoInits: PodSpec = {
  name: 'staged',
  inits: [
    { name: 'init-a', script: 'echo a' },
    { name: 'init-b', script: 'echo b' },
  ],
  containers: [
    { name: 'app', script: 'sleep 3600' },
    { name: 'helper', script: 'sleep 3600' },
  ],
};

describe('plan against live state', () => {
  test('(f) a pod that does not exist yet: create the sandbox, start the first init container', async () => {
    const file = write(twoInits);
    const plan = await planJSON(file);
    assert.equal(plan.pod.name, 'staged');
    assert.equal(plan.actions.createSandbox, true);
    assert.equal(plan.actions.killPod, true, 'kubelet sets killPod whenever the sandbox is (re)created');
    assert.equal(plan.actions.sandboxId, '');
    assert.equal(plan.actions.attempt, 0);
    assert.deepEqual(plan.actions.initContainersToStart, ['init-a']);
    assert.equal(
      plan.actions.nextInitContainerToStart,
      null,
      'kubelet 1.33 starts init containers through initContainersToStart',
    );
    assert.deepEqual(plan.actions.containersToStart, []);
    assert.deepEqual(
      plan.steps.map((s: any) => s.action),
      ['create-sandbox', 'start-init-container'],
    );
    assert.equal(plan.changes, true);
    const exit = await run(['plan', '--detailed-exitcode', ...nodeFlags(), file]);
    assert.equal(exit.code, 2, 'changes pending');
    assert.match(exit.stdout, /create-sandbox/);
  });

  test('(f) the same with kubelet 1.29.0 rules and SidecarContainers off: the classic init path names nextInitContainerToStart', async () => {
    const plan = await planJSON(write(twoInits), [
      '--kubelet-version',
      '1.29.0',
      '--feature-gates',
      'SidecarContainers=false',
    ]);
    assert.equal(plan.actions.nextInitContainerToStart, 'init-a');
    assert.deepEqual(plan.actions.initContainersToStart, []);
  });

  test('(e) init containers part-way: the next one is planned, the sandbox is kept', async () => {
    const file = write(twoInits);
    await sync(file); // creates the sandbox and starts init-a only, as one kubelet sync does
    await waitExited('staged', 'init-a');
    const plan = await planJSON(file);
    assert.equal(plan.actions.createSandbox, false);
    assert.equal(plan.actions.killPod, false);
    assert.notEqual(plan.actions.sandboxId, '');
    assert.deepEqual(plan.actions.initContainersToStart, ['init-b']);
    assert.deepEqual(plan.actions.containersToStart, []);
    assert.equal(plan.match.uid, plan.pod.uid, 'the uid found by namespace+name is reported');
  });

  test('(a) the converged pod: no changes, exit code 0 with --detailed-exitcode', async () => {
    const file = write(twoInits);
    await sync(file, ['--wait']);
    const r = await run(['plan', '--detailed-exitcode', ...nodeFlags(), file]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /No changes/);
    const plan = await planJSON(file);
    assert.equal(plan.changes, false);
    assert.deepEqual(plan.steps, []);
  });

  test('(b) a changed image: kill and start that container only', async () => {
    const changed = {
      ...twoInits,
      containers: [{ name: 'app', script: 'sleep 3600', image: BUSYBOX_IMAGE_2 }, twoInits.containers[1]],
    };
    const plan = await planJSON(write(changed));
    const app = (await containersOf('staged')).find(
      (c) => c.metadata?.name === 'app' && c.state === 'CONTAINER_RUNNING',
    );
    assert.ok(app);
    assert.equal(plan.actions.killPod, false);
    assert.equal(plan.actions.createSandbox, false);
    assert.deepEqual(
      plan.actions.containersToKill.map((k: any) => [k.name, k.containerId]),
      [['app', app!.id]],
    );
    assert.deepEqual(
      plan.actions.containersToStart.map((s: any) => s.name),
      ['app'],
    );
    assert.match(plan.actions.containersToStart[0].reason, /definition changed|image/i);
    assert.deepEqual(plan.actions.initContainersToStart, []);
    assert.deepEqual(
      plan.steps.map((s: any) => [s.action, s.target]),
      [
        ['kill-container', 'app'],
        ['start-container', 'app'],
      ],
    );
  });

  test('(d) a stopped sandbox: kill the pod and create a sandbox with attempt + 1', async () => {
    const file = write(twoInits);
    const before = await planJSON(file);
    const sandboxId = before.actions.sandboxId;
    await rt.call('StopPodSandbox', { podSandboxId: sandboxId });
    const plan = await planJSON(file);
    assert.equal(plan.actions.killPod, true);
    assert.equal(plan.actions.createSandbox, true);
    assert.equal(plan.actions.sandboxId, sandboxId);
    assert.equal(plan.actions.attempt, before.actions.attempt + 1);
    assert.deepEqual(plan.actions.initContainersToStart, ['init-a'], 'initialization starts again in a new sandbox');
    // StopPodSandbox stopped every container: kubelet's KillPod still sends StopPodSandbox for the
    // stopped sandbox (k8s.io/kubernetes v1.37.2 killPodWithSyncResult, measured by the oracle), which
    // changes nothing; then the old init containers are purged before the new sandbox.
    assert.deepEqual(
      [...new Set(plan.steps.map((s: any) => s.action))],
      ['kill-pod', 'remove-init-container', 'create-sandbox', 'start-init-container'],
    );
    assert.equal(plan.steps[0].alreadyStopped, true);
    assert.deepEqual(plan.steps[0].sandboxIds, [sandboxId]);
  });
});

describe('(c) an exited container under each restart policy', () => {
  const cases: Array<{ policy: string; code: number; restart: boolean; killPod: boolean }> = [
    { policy: 'Always', code: 0, restart: true, killPod: false },
    { policy: 'OnFailure', code: 1, restart: true, killPod: false },
    { policy: 'OnFailure', code: 0, restart: false, killPod: true },
    { policy: 'Never', code: 1, restart: false, killPod: true },
  ];
  for (const c of cases) {
    test(`restartPolicy ${c.policy}, exit code ${c.code}: ${c.restart ? 'restart it' : 'leave it; the pod is done'}`, async () => {
      const name = `exit-${c.policy.toLowerCase()}-${c.code}`;
      const file = write({ name, restartPolicy: c.policy, containers: [{ name: 'job', script: `exit ${c.code}` }] });
      await sync(file);
      await waitExited(name, 'job');
      const plan = await planJSON(file);
      assert.equal(plan.actions.createSandbox, false);
      assert.deepEqual(
        plan.actions.containersToStart.map((s: any) => s.name),
        c.restart ? ['job'] : [],
      );
      assert.equal(plan.actions.killPod, c.killPod);
      if (c.restart) assert.match(plan.actions.containersToStart[0].reason, new RegExp(`exit(ed)? .*${c.code}`, 'i'));
    });
  }
});

describe('plan input errors', () => {
  test('a manifest error names the file, document and field', async () => {
    const file = path.join(dir, 'bad.yaml');
    fs.writeFileSync(
      file,
      manifest({ name: 'ok', containers: [{ name: 'a', script: 'true' }] }) +
        '---\napiVersion: v1\nkind: Pod\nmetadata: {name: bad}\nspec:\n  containers:\n  - name: a\n    image: x\n  - name: b\n',
    );
    assertOneLineError(
      await run(['plan', file]),
      new RegExp(`${file.replace(/[.]/g, '\\.')}: document 2: spec\\.containers\\[1\\]\\.image: required`),
    );
  });

  test('a YAML syntax error gives line and column', async () => {
    const file = path.join(dir, 'syntax.yaml');
    fs.writeFileSync(file, 'apiVersion: v1\nkind: Pod\nmetadata: {name: x\n');
    assertOneLineError(await run(['plan', file]), /line \d+, column \d+/);
  });

  test('--liveness-failed with a container the pod does not have is an error, not ignored', async () => {
    assertOneLineError(
      await run(['plan', '--liveness-failed', 'ap', ...nodeFlags(), write(twoInits)]),
      /--liveness-failed: pod plans\/staged has no container named "ap"/,
    );
  });

  test('a kubelet older than 1.29 is refused with the supported range; an unknown gate is refused', async () => {
    assertOneLineError(
      await run(['plan', '--kubelet-version', '1.28', write(twoInits)]),
      /kubelet 1\.28 is not supported: syncpod mirrors kubelet 1\.29–1\.37/,
    );
    assertOneLineError(
      await run(['plan', '--feature-gates', 'NoSuchGate=true', write(twoInits)]),
      /unknown feature gate NoSuchGate/,
    );
  });

  test('a kubelet newer than 1.37 is planned with 1.37 rules and a warning on stderr', async () => {
    const r = await run(['plan', '-o', 'json', ...nodeFlags(), '--kubelet-version', 'v1.38.0', write(twoInits)]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /warning: kubelet 1\.38\.0 is newer than the newest mirrored kubelet 1\.37/);
    const plan = JSON.parse(r.stdout);
    assert.deepEqual([plan.kubelet.version, plan.kubelet.rulesVersion], ['1.38.0', '1.37']);
    assert.match(plan.assumptions[0], /^WARNING: /);
  });

  test('a large JSON plan written to a pipe arrives whole (exit waits for stdout to drain)', async () => {
    const items = Array.from(
      { length: 150 },
      (_, i) =>
        `  - apiVersion: v1\n    kind: Pod\n    metadata: {name: bulk-${i}, namespace: plans}\n    spec:\n      containers:\n      - {name: app, image: ${BUSYBOX_IMAGE}}\n`,
    ).join('');
    const file = path.join(dir, 'bulk-list.yaml');
    fs.writeFileSync(file, `apiVersion: v1\nkind: List\nitems:\n${items}`);
    const r = await run(['plan', '-o', 'json', ...nodeFlags(), file]);
    assert.equal(r.code, 0, r.stderr);
    let out: any;
    assert.doesNotThrow(() => (out = JSON.parse(r.stdout)), `cut-off JSON: ${r.stdout.length} bytes arrived`);
    assert.equal(out.plans.length, 150);
    assert.ok(r.stdout.length > 256 * 1024, 'the output must exceed a pipe buffer for this test to mean anything');
  });

  test('several pods give {"plans": [...]} and one summary', async () => {
    const a = write({ name: 'multi-a', containers: [{ name: 'x', script: 'sleep 1' }] });
    const b = write({ name: 'multi-b', containers: [{ name: 'x', script: 'sleep 1' }] });
    const r = await run(['plan', '-o', 'json', ...nodeFlags(), a, b]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(
      out.plans.map((p: any) => p.pod.name),
      ['multi-a', 'multi-b'],
    );
    const table = await run(['plan', ...nodeFlags(), a, b]);
    assert.match(table.stdout, /multi-a[\s\S]*multi-b/);
  });

  test('changes in words: an env edit is said as ignored by kubelet 1.37 (exit 0), an image edit as a restart', async () => {
    const yaml = (image: string, mode: string) =>
      `apiVersion: v1\nkind: Pod\nmetadata:\n  name: words\n  namespace: plans\nspec:\n  containers:\n  - name: app\n` +
      `    image: ${image}\n    imagePullPolicy: IfNotPresent\n    command: ["sh", "-c", "sleep 3600"]\n` +
      `    env: [{name: MODE, value: ${mode}}]\n    ports: [{containerPort: 8080}]\n`;
    const file = path.join(dir, 'words.yaml');
    fs.writeFileSync(file, yaml(BUSYBOX_IMAGE, 'green'));
    await sync(file);
    fs.writeFileSync(file, yaml(BUSYBOX_IMAGE, 'red'));
    const json = await planJSON(file);
    assert.equal(json.changes, false);
    assert.deepEqual(json.differences, []);
    if (labRuntime().kind === 'crio') {
      // CRI-O's verbose info holds the OCI spec it made, not the CRI config sent (its env merged with
      // the image's): the old env is not known there, so no difference is said, and nothing changes.
      assert.deepEqual(json.ignoredDifferences, []);
      const table = await run(['plan', '--detailed-exitcode', ...nodeFlags(), file]);
      assert.equal(table.code, 0, table.stdout);
      assert.match(table.stdout.split('\n')[1]!, /^No changes\./);
    } else {
      assert.equal(json.ignoredDifferences.length, 1);
      assert.deepEqual(
        json.ignoredDifferences[0].differences.map((d: any) => d.text),
        ['env MODE green → red'],
      );
      const table = await run(['plan', '--detailed-exitcode', ...nodeFlags(), file]);
      assert.equal(table.code, 0, 'ignored differences are not changes');
      const lines = table.stdout.split('\n');
      assert.match(lines[1]!, /^No changes\./);
      assert.ok(lines.includes('Ignored by kubelet (not changes):'), table.stdout);
      assert.ok(
        table.stdout
          .replace(/\s+/g, ' ')
          .includes(
            'app: env MODE green → red: kubelet 1.37 keeps the container running (only name and image count since 1.31); delete the pod to apply',
          ),
        table.stdout,
      );
    }

    fs.writeFileSync(file, yaml(BUSYBOX_IMAGE_2, 'green'));
    const changed = await run(['plan', '--detailed-exitcode', ...nodeFlags(), file]);
    assert.equal(changed.code, 2);
    assert.match(
      changed.stdout.replace(/\s+/g, ' '),
      labRuntime().kind === 'crio'
        ? // the image name a running container was made from is not in CRI-O's verbose info either
          /app: image → localhost\/syncpod\/busybox:1\.37 \(it runs another tag of the same image ID, which the runtime reports as localhost\/syncpod\/busybox:1\.37\): kubelet restarts it \(name\+image hash\)/
        : /app: image localhost\/syncpod\/busybox:1\.36 → 1\.37: kubelet restarts it \(name\+image hash\)/,
    );
    assert.ok(!changed.stdout.includes('Hash:'), 'the hash comparison is shown with -v only');
    const verbose = await run(['plan', '-v', ...nodeFlags(), file]);
    assert.match(verbose.stdout, /Hash: app: hash \w+ differs from \w+/);
  });
});
