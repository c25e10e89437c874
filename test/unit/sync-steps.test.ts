// Each executor step function alone (src/sync/steps/), with a hand-written fake CRI, filesystem and
// clock: what it calls, what it returns, what it notes, which kubelet error code it fails with.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CriCallError } from '../../src/cri/grpc-runtime-service';
import { generatePodSandboxConfig } from '../../src/kubelet/sandbox-config';
import { runPodSandbox, sandboxPodIPs } from '../../src/sync/steps/create-sandbox';
import { killContainer, killPod, resetContainer } from '../../src/sync/steps/kill';
import { runLifecycleHook } from '../../src/sync/steps/lifecycle-hook';
import { removeContainer } from '../../src/sync/steps/remove-container';
import { startContainer } from '../../src/sync/steps/start-container';
import { runStep, type StepContext } from '../../src/sync/steps/step-context';
import { updateContainerResources } from '../../src/sync/steps/update-resources';
import { StepError } from '../../src/sync/types';
import { GATES_133 } from '../fixtures/gates';
import { FakeClock } from '../fixtures/fake-clock';
import { FakeCri, FakeFs } from '../fixtures/fake-cri';
import { T0, basePod } from '../fixtures/planner/base';

const NODE = {
  podLogsRoot: '/logs',
  kubeletRoot: '/kubelet',
  resolvConf: null,
  clusterDomain: 'cluster.local',
  hugePageSizes: [],
  gates: GATES_133,
};
const SANDBOX_OPTIONS = { ...NODE, configSeen: '2025-01-01T12:00:00.000000000Z' };

function ctx(cri = new FakeCri(), fs = new FakeFs(), clock = new FakeClock(T0)): StepContext {
  return { rt: cri as any, img: cri as any, fs, clock, requestTimeoutMs: 120000, notes: [] };
}

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return err instanceof StepError ? err.code : `not a StepError: ${err}`;
  }
  return 'no error';
}

test('runLifecycleHook: exec through ExecSync with the limit as timeout; a non-zero exit throws with its stderr', async () => {
  const cri = new FakeCri();
  const c = ctx(cri);
  const handler = { exec: { command: ['sh', '-c', 'true'] } };
  assert.equal(
    await runLifecycleHook(c, { containerId: 'c1', handler, which: 'preStop', limitSeconds: 9 }),
    'preStop hook ran',
  );
  assert.deepEqual(cri.calls[0], {
    method: 'ExecSync',
    req: { containerId: 'c1', cmd: ['sh', '-c', 'true'], timeout: '9' },
    timeoutMs: 129000,
  });
  cri.handlers.ExecSync = () => ({ exitCode: 3, stdout: Buffer.from('out\n'), stderr: new Uint8Array() });
  await assert.rejects(runLifecycleHook(c, { containerId: 'c1', handler, which: 'postStart' }), {
    message: 'postStart hook exited with code 3: out',
  });
});

test('runLifecycleHook: sleep waits its seconds on the clock, cut to the limit when one is given', async () => {
  const clock = new FakeClock();
  const c = ctx(new FakeCri(), new FakeFs(), clock);
  const handler = { sleep: { seconds: 20 } } as any;
  assert.equal(await runLifecycleHook(c, { containerId: 'c1', handler, which: 'postStart' }), 'postStart sleep 20s');
  assert.equal(
    await runLifecycleHook(c, { containerId: 'c1', handler, which: 'preStop', limitSeconds: 4 }),
    'preStop sleep 20s cut to 4s (grace period)',
  );
  assert.deepEqual(clock.slept, [20000, 4000]);
  const http = { httpGet: { path: '/', port: 80 } } as any;
  assert.match(
    await runLifecycleHook(c, { containerId: 'c1', handler: http, which: 'postStart' }),
    /httpGet handler not run/,
  );
});

test('killContainer: the grace period left after preStop, at least 2 s; NotFound is done; other errors are KillContainerError', async () => {
  const pod = basePod();
  pod.spec!.terminationGracePeriodSeconds = 5;
  (pod.spec!.containers[0] as any).lifecycle = { preStop: { sleep: { seconds: 2 } } };
  const cri = new FakeCri();
  const clock = new FakeClock();
  const c = ctx(cri, new FakeFs(), clock);
  const note = await killContainer(c, { pod, containerId: 'id-app', name: 'app', reason: '' });
  assert.equal(note, 'stopped app id-app (grace 3s)');
  assert.deepEqual(c.notes, ['app: preStop sleep 2s']);
  assert.deepEqual(cri.calls.at(-1)!.req, { containerId: 'id-app', timeout: '3' });
  assert.equal(cri.calls.at(-1)!.timeoutMs, 123000, 'the call may take the grace period on top of the deadline');

  cri.handlers.StopContainer = () => {
    throw new CriCallError('StopContainer: not found', 5, 'not found');
  };
  assert.equal(await code(killContainer(c, { pod, containerId: 'id-log', name: 'log', reason: '' })), 'no error');
  cri.fail.set('StopContainer', () => true);
  assert.equal(
    await code(killContainer(c, { pod, containerId: 'id-log', name: 'log', reason: '' })),
    'KillContainerError',
  );
});

test('killPod: containers first, then every sandbox; a sandbox failure is KillPodSandboxError after all were tried', async () => {
  const cri = new FakeCri();
  cri.fail.set('StopPodSandbox', (r) => r.podSandboxId === 'sb1');
  const c = ctx(cri);
  const err = await code(
    killPod(c, {
      pod: basePod(),
      containers: [
        { id: 'id-app', name: 'app' },
        { id: 'id-log', name: 'log' },
      ],
      sandboxIds: ['sb1', 'sb2'],
    }),
  );
  assert.equal(err, 'KillPodSandboxError');
  assert.deepEqual(cri.methods(), ['StopContainer', 'StopContainer', 'StopPodSandbox', 'StopPodSandbox']);
  assert.deepEqual(c.notes, ['stopped app id-app (grace 2s)', 'stopped log id-log (grace 2s)', 'stopped sandbox sb2']);
});

test('removeContainer: rotated log files and the legacy symlink first, then RemoveContainer', async () => {
  const cri = new FakeCri();
  const fs = new FakeFs();
  const removed: string[] = [];
  fs.remove = (p: string) => void removed.push(p);
  fs.dirs.set('/logs/p/app', ['0.log', '0.log.20250101-000000.gz', '1.log']);
  const c = ctx(cri, fs);
  await removeContainer(c, {
    pod: basePod(),
    containerId: 'id-app',
    name: 'app',
    logPath: '/logs/p/app/0.log',
    legacyLogDir: '/containers',
  });
  assert.deepEqual(removed, [
    '/logs/p/app/0.log',
    '/logs/p/app/0.log.20250101-000000.gz',
    '/containers/web_shop_app-id-app.log',
  ]);
  assert.deepEqual(cri.methods(), ['RemoveContainer']);
  cri.fail.set('RemoveContainer', () => true);
  const again = { pod: basePod(), containerId: 'x', name: 'app', logPath: '', legacyLogDir: '/c' };
  assert.equal(await code(removeContainer(c, again)), 'RemoveContainerError');
});

test('resetContainer: StopContainer with no grace period and no preStop, then removal; kill=false only removes', async () => {
  const pod = basePod();
  (pod.spec!.containers[0] as any).lifecycle = { preStop: { exec: { command: ['x'] } } };
  const cri = new FakeCri();
  const r = { pod, containerId: 'id-app', name: 'app', logPath: '', legacyLogDir: '/c' };
  await resetContainer(ctx(cri), { ...r, kill: true });
  assert.deepEqual(cri.methods(), ['StopContainer', 'RemoveContainer']);
  assert.equal(cri.calls[0].req.timeout, '0');
  const cri2 = new FakeCri();
  await resetContainer(ctx(cri2), { ...r, kill: false });
  assert.deepEqual(cri2.methods(), ['RemoveContainer']);
});

test('runPodSandbox and sandboxPodIPs: the new id, then the IPs of its status (a host-network pod keeps its own)', async () => {
  const cri = new FakeCri();
  cri.handlers.PodSandboxStatus = (r) => ({
    status: { id: r.podSandboxId, network: { ip: '10.1.2.3', additionalIps: [{ ip: 'fd00::3' }] } },
  });
  const c = ctx(cri);
  const pod = basePod();
  const id = await runPodSandbox(c, { pod, attempt: 2, sandboxOptions: SANDBOX_OPTIONS });
  assert.equal(id, 'sb-new');
  assert.equal(cri.calls[0].req.config.metadata.attempt, 2);
  assert.deepEqual(await sandboxPodIPs(c, id, pod, []), ['10.1.2.3', 'fd00::3']);
  pod.spec!.hostNetwork = true;
  assert.deepEqual(await sandboxPodIPs(c, id, pod, ['192.168.0.9']), ['192.168.0.9']);
  cri.handlers.PodSandboxStatus = () => ({});
  assert.equal(await code(sandboxPodIPs(c, id, pod, [])), 'FailedPodSandBoxStatus');
  cri.fail.set('RunPodSandbox', () => true);
  assert.equal(
    await code(runPodSandbox(c, { pod, attempt: 0, sandboxOptions: SANDBOX_OPTIONS })),
    'CreatePodSandboxError',
  );
});

test('updateContainerResources: the Linux values as CRI strings; a failure is UpdateContainerResourcesError', async () => {
  const cri = new FakeCri();
  cri.handlers.UpdateContainerResources = () => ({});
  const c = ctx(cri);
  const resources = { cpuShares: 512, cpuQuota: 50000, cpuPeriod: 100000, memoryLimitInBytes: 268435456 };
  await updateContainerResources(c, { containerId: 'id-app', name: 'app', resources });
  const linux = cri.calls[0].req.linux;
  assert.deepEqual(
    [linux.cpuShares, linux.cpuQuota, linux.cpuPeriod, linux.memoryLimitInBytes],
    ['512', '50000', '100000', '268435456'],
  );
  assert.deepEqual(c.notes, ['resized app id-app']);
  cri.fail.set('UpdateContainerResources', () => true);
  assert.equal(
    await code(updateContainerResources(c, { containerId: 'id-app', name: 'app', resources })),
    'UpdateContainerResourcesError',
  );
});

/** startContainer's arguments for the container `app` of `pod` in sandbox sb1. */
function startContainerInput(pod: ReturnType<typeof basePod>) {
  const sandboxConfig = generatePodSandboxConfig(pod, 0, SANDBOX_OPTIONS).config;
  const base = {
    pod,
    name: 'app',
    kind: 'regular' as const,
    sandboxId: 'sb1',
    sandboxConfig,
    podIPs: ['10.1.2.3'],
    statuses: [],
    containerOptions: NODE,
    legacyLogDir: '/containers',
  };
  const deps = { randomHex: () => '0badc0de', pullTimeoutMs: 1000, pulledImageVolumes: new Map() };
  return { base, deps };
}

test('startContainer: back-off, no sandbox, create, start, the postStart sleep waited; a failed create stays failed', async () => {
  const pod = basePod();
  (pod.spec!.containers[0] as any).lifecycle = { postStart: { sleep: { seconds: 4 } } };
  const { base, deps } = startContainerInput(pod);
  const cri = new FakeCri();
  const clock = new FakeClock();
  const c = ctx(cri, new FakeFs(), clock);
  assert.deepEqual(await startContainer(c, base, deps), { containerId: 'c1-app' });
  assert.deepEqual(cri.methods(), ['ImageStatus', 'CreateContainer', 'StartContainer']);
  assert.deepEqual(clock.slept, [4000]);
  assert.equal(c.notes.at(-1), 'postStart sleep 4s');

  const held = { ...base, backOff: { container: 'app', heldBack: true, delaySeconds: 80 } as any };
  assert.equal(await code(startContainer(ctx(), held, deps)), 'CrashLoopBackOff');
  assert.equal(await code(startContainer(ctx(), { ...base, sandboxId: '' }, deps)), 'CreateContainerError');
  const failing = new FakeCri();
  failing.fail.set('StartContainer', () => true);
  assert.equal(await code(startContainer(ctx(failing), base, deps)), 'RunContainerError');
  assert.ok(!failing.methods().includes('RemoveContainer'), 'the created container is left, as kubelet leaves it');
});

test('runStep: a body that throws a StepError gives its code and what was done before; calls are timed', async () => {
  const cri = new FakeCri();
  const services = {
    runtime: cri as any,
    image: cri as any,
    fs: new FakeFs(),
    clock: new FakeClock(),
    requestTimeoutMs: 1,
  };
  const step = { step: 3, action: 'kill-container' as const, target: 'app' };
  const failed = await runStep(services, 2, step, async (c) => {
    await c.rt.call('StopContainer', { containerId: 'x', timeout: '2' });
    c.notes.push('first');
    throw new StepError('KillContainerError', 'it broke');
  });
  assert.equal(failed.ok, false);
  assert.equal(failed.round, 2);
  assert.equal(failed.error, 'KillContainerError');
  assert.equal(failed.message, 'it broke (done before: first)');
  assert.deepEqual(
    failed.calls.map((x) => `${x.rpc}:${x.ok}`),
    ['StopContainer:true'],
  );
  const ok = await runStep(services, 1, step, async (c) => {
    c.notes.push('a');
    c.notes.push('b');
    return { containerId: 'x' };
  });
  assert.deepEqual([ok.ok, ok.message, ok.containerId], [true, 'a; b', 'x']);
});

test('startContainer: a hostPath that fails its type check at container start is CreateContainerConfigError saying it once', async () => {
  const pod = basePod();
  pod.spec!.volumes = [{ name: 'h', hostPath: { path: '/run/app.sock', type: 'Socket' } }];
  (pod.spec!.containers[0] as any).volumeMounts = [{ name: 'h', mountPath: '/h' }];
  const { base, deps } = startContainerInput(pod);
  let err: unknown;
  try {
    await startContainer(ctx(), base, deps); // FakeFs: every path is a directory
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof StepError);
  assert.equal(err.code, 'CreateContainerConfigError');
  assert.equal(err.message, 'hostPath volume h: hostPath type check failed: /run/app.sock is not a Socket');
});
