// Version-aware plans on a real containerd: a container restart rule planned and synced as kubelet
// 1.35 (and ignored as 1.34), and RestartAllContainers planned and synced as kubelet 1.36 (all
// containers removed, the sandbox kept, the next sync starting again from the first init container).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUSYBOX_IMAGE, startLab, type Lab } from '../harness/lab';
import { CriService, type RuntimeMethods } from '../../src/cri/grpc-runtime-service';
import { syncpod } from './helpers';
import { LOOP, nodeFlags } from './sync-helpers';

let lab: Lab;
let rt: CriService<RuntimeMethods>;
let dir: string;

const run = (args: string[]) => syncpod(args, { env: lab.env, timeoutMs: 120_000 });

function ctr(name: string, script: string, extra: object = {}) {
  return { name, image: BUSYBOX_IMAGE, imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', script], ...extra };
}

function write(name: string, spec: object): string {
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'versions' },
      spec: { terminationGracePeriodSeconds: 2, ...spec },
    }),
  );
  return file;
}

async function planJSON(file: string, extra: string[]): Promise<any> {
  const r = await run(['plan', '-o', 'json', ...nodeFlags(lab), ...extra, file]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

async function sync(file: string, extra: string[]): Promise<string> {
  const r = await run(['sync', '--yes', ...nodeFlags(lab), ...extra, file]);
  assert.equal(r.code, 0, `sync failed: ${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

async function containersOf(pod: string) {
  const { containers } = await rt.call('ListContainers', {
    filter: { labelSelector: { 'io.kubernetes.pod.name': pod } },
  });
  return containers.sort((a, b) => (BigInt(a.createdAt) < BigInt(b.createdAt) ? -1 : 1));
}

async function sandboxesOf(pod: string) {
  const { items } = await rt.call('ListPodSandbox', { filter: { labelSelector: { 'io.kubernetes.pod.name': pod } } });
  return items;
}

async function waitExited(pod: string, name: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const c = (await containersOf(pod)).filter((x) => x.metadata?.name === name).at(-1);
    if (c?.state === 'CONTAINER_EXITED') return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${pod}/${name} did not exit`);
}

before(async () => {
  lab = await startLab();
  rt = new CriService<RuntimeMethods>(lab.endpoint, 'RuntimeService', { timeoutMs: 30000 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-versions-'));
});

after(async () => {
  rt?.close();
  await lab?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('kubelet versions on containerd', () => {
  test('a Restart rule on exit code 42 restarts a container of a Never pod as 1.35, not as 1.34', async () => {
    const file = write('rules', {
      restartPolicy: 'Never',
      containers: [
        ctr('job', 'exit 42', {
          restartPolicy: 'Never',
          restartPolicyRules: [{ action: 'Restart', exitCodes: { operator: 'In', values: [42] } }],
        }),
        ctr('keeper', LOOP),
      ],
    });
    await sync(file, ['--kubelet-version', '1.35']);
    await waitExited('rules', 'job');

    const as134 = await planJSON(file, ['--kubelet-version', '1.34']);
    assert.deepEqual(
      as134.actions.containersToStart,
      [],
      '1.34 has ContainerRestartRules off: the pod policy Never keeps job down',
    );
    assert.equal(as134.kubelet.gates.ContainerRestartRules.enabled, false);

    const as135 = await planJSON(file, ['--kubelet-version', '1.35']);
    assert.deepEqual(
      as135.actions.containersToStart.map((c: any) => [c.name, c.code]),
      [['job', 'exited']],
    );
    assert.match(
      as135.actions.containersToStart[0].reason,
      /exited with code 42.*restartPolicyRules\[0\] \(exit code In \[42\]\): Restart/,
    );
    assert.deepEqual([as135.kubelet.version, as135.kubelet.origin], ['1.35', 'flag']);
    assert.deepEqual(as135.kubelet.gates.ContainerRestartRules, {
      enabled: true,
      origin: 'default',
      stage: 'beta',
      locked: false,
    });

    await sync(file, ['--kubelet-version', '1.35']);
    const jobs = (await containersOf('rules')).filter((c) => c.metadata?.name === 'job');
    assert.equal(jobs.length, 2, 'the first instance is kept, a second one was started');
    assert.equal(jobs[1].annotations['io.kubernetes.container.restartCount'], '1');
  });

  test('RestartAllContainers as 1.36: every container removed without grace, the sandbox kept, then init 0 again', async () => {
    const file = write('restart-all', {
      restartPolicy: 'Never',
      initContainers: [ctr('prep', 'echo ready')],
      containers: [
        ctr('trigger', 'sleep 1; exit 88', {
          restartPolicy: 'Never',
          restartPolicyRules: [{ action: 'RestartAllContainers', exitCodes: { operator: 'In', values: [88] } }],
        }),
        ctr('worker', LOOP),
      ],
    });
    await sync(file, ['--kubelet-version', '1.36', '--wait']);
    await waitExited('restart-all', 'trigger');
    const [sandbox] = await sandboxesOf('restart-all');

    // The API server of 1.35 (RestartAllContainersOnContainerExits alpha, off) does not admit the action.
    const as135 = await run(['plan', '-o', 'json', ...nodeFlags(lab), '--kubelet-version', '1.35', file]);
    assert.equal(as135.code, 1);
    assert.equal(
      as135.stderr.trim().replace(/ \(line \d+, column \d+\)$/, ''),
      `syncpod: ${file}: document 1: spec.containers[0].restartPolicyRules[0].action: unsupported value "RestartAllContainers": supported values: "Restart"`,
    );
    const as135on = await planJSON(file, [
      '--kubelet-version',
      '1.35',
      '--feature-gates',
      'RestartAllContainersOnContainerExits=true',
    ]);
    assert.equal(as135on.actions.restartAllContainers, true, 'alpha in 1.35, switched on');

    const plan = await planJSON(file, ['--kubelet-version', '1.36']);
    assert.equal(plan.actions.restartAllContainers, true);
    assert.deepEqual([plan.actions.killPod, plan.actions.createSandbox], [false, false]);
    assert.deepEqual(
      plan.actions.containersToReset.map((r: any) => [r.name, r.kill]),
      [
        ['worker', true],
        ['prep', false],
        ['trigger', false],
      ],
    );
    assert.equal(plan.summary.text, 'Plan: reset 3 containers (restart all in place).');

    await sync(file, ['--kubelet-version', '1.36']);
    assert.deepEqual(await containersOf('restart-all'), [], 'every container is removed');
    const after = await sandboxesOf('restart-all');
    assert.deepEqual(
      after.map((s) => [s.id, s.state]),
      [[sandbox.id, 'SANDBOX_READY']],
      'the sandbox is kept',
    );

    const next = await planJSON(file, ['--kubelet-version', '1.36']);
    assert.deepEqual(
      [next.actions.restartAllContainers, next.actions.createSandbox, next.actions.initContainersToStart],
      [false, false, ['prep']],
    );
  });

  test('in-place resize as 1.36: a changed CPU limit is written with UpdateContainerResources, no restart', async () => {
    const spec = (cpu: string) => ({
      containers: [
        ctr('app', LOOP, { resources: { requests: { cpu: '100m', memory: '32Mi' }, limits: { cpu, memory: '64Mi' } } }),
      ],
    });
    const file = write('resize', spec('200m'));
    await sync(file, ['--kubelet-version', '1.36']);
    const [before] = await containersOf('resize');
    assert.equal(
      (await planJSON(file, ['--kubelet-version', '1.36'])).changes,
      false,
      'the runtime reports what the spec wants',
    );

    write('resize', spec('400m'));
    const plan = await planJSON(file, ['--kubelet-version', '1.36']);
    assert.deepEqual(
      plan.actions.containersToUpdate.map((u: any) => [u.name, u.resources]),
      [['app', ['cpu']]],
    );
    assert.deepEqual([plan.actions.containersToKill, plan.actions.containersToStart], [[], []]);
    await sync(file, ['--kubelet-version', '1.36']);

    const [after] = await containersOf('resize');
    assert.equal(after.id, before.id, 'the same container, not restarted');
    const st = await rt.call('ContainerStatus', { containerId: after.id, verbose: false });
    assert.equal(st.status?.resources?.linux?.cpuQuota, '40000');
    assert.equal((await planJSON(file, ['--kubelet-version', '1.36'])).changes, false);
  });
});
