// Faults under a sync, on a real containerd of its own (this file kills and restarts it):
// containerd SIGKILLed while an init container runs or between two steps, containerd frozen
// (SIGSTOP) before and under a call, syncpod itself SIGKILLed at three points. syncpod fails without
// a stack and releases its lock, and the next `sync` converges to what kubelet would keep: one
// sandbox, every container once, plan: no changes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUSYBOX_IMAGE, startLab, type Lab } from '../harness/lab';
import { assertOneLineError, cliEnv, SYNCPOD, syncpod, type RunResult } from './helpers';
import { nodeFlags, writeManifest } from './sync-helpers';
import { DEFAULT_LOCK_DIR, lockPath } from '../../src/sync/lock';

let lab: Lab;
let dir: string;
const run = (args: string[], timeoutMs = 120000) => syncpod(args, { env: lab.env, timeoutMs });
const flags = () => nodeFlags(lab);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

before(async () => {
  lab = await startLab();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-faults-e2e-'));
});
after(async () => {
  await lab?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A sync running in the background; `lines` grows with its stderr (plain progress: not a terminal). */
function background(args: string[]): { lines: string[]; done: Promise<RunResult>; kill(): void } {
  const child = spawn(process.execPath, [SYNCPOD, ...args], {
    env: cliEnv(lab.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => {
    stderr += d;
    lines.splice(0, lines.length, ...stderr.split('\n').filter((l) => l !== ''));
  });
  const done = new Promise<RunResult>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { lines, done, kill: () => void child.kill('SIGKILL') };
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 30000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await sleep(50);
  }
}

async function sandboxes(name: string): Promise<any[]> {
  const r = await run(['pods', '-o', 'json', '--name', `^${name}$`]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).items;
}

/** `NAME=STATE` of every container of the pod, sorted. */
async function containerStates(name: string): Promise<string[]> {
  const r = await run(['ps', '-a', '-o', 'json', '--namespace', '^e2e$']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout)
    .containers.filter((c: any) => c.labels['io.kubernetes.pod.name'] === name)
    .map((c: any) => `${c.metadata.name}=${c.state}`)
    .sort();
}

async function planExit(file: string): Promise<number | null> {
  return (await run(['plan', '--detailed-exitcode', ...flags(), file])).code;
}

/**
 * Each container runs exactly once. An instance the crash cut short may stay in Created (cut after
 * CreateContainer) or Exited (cut under StartContainer, then restarted with restart count + 1):
 * kubelet leaves those too (its startContainer removes nothing; its garbage collector keeps one dead
 * or created instance per container), but never more than one per name.
 */
function assertEveryContainerOnce(states: string[], names: string[], story: string): void {
  const why = `${states.join(', ')}\n${story}`;
  assert.deepEqual(
    states.filter((s) => s.endsWith('=CONTAINER_RUNNING')),
    names.map((n) => `${n}=CONTAINER_RUNNING`),
    why,
  );
  const rest = states.filter((s) => !s.endsWith('=CONTAINER_RUNNING'));
  assert.deepEqual(
    rest.filter((s) => !/=CONTAINER_(CREATED|EXITED)$/.test(s)),
    [],
    why,
  );
  assert.equal(new Set(rest.map((s) => s.split('=')[0])).size, rest.length, why);
}

/**
 * Syncs until one exits 0, at most three times. containerd 1.6 SIGKILLed under a CreateContainer can
 * leave an overlayfs snapshot directory behind; its next CreateContainer then fails once with
 * "failed to rename: … file exists" (the runtime's own state, not syncpod's), and kubelet simply
 * retries on its next sync, as this does. Any other failure fails the test.
 */
async function converge(file: string): Promise<string> {
  let story = '';
  for (let n = 1; n <= 3; n++) {
    const r = await run(['sync', '--yes', ...flags(), file]);
    story += `sync ${n}:\n${r.stdout}${r.stderr}\n`;
    if (r.code === 0) return story;
    assert.equal(r.code, 1, story);
    const failed = unwrapped(r.stdout)
      .split('\n')
      .filter((l) => /^\d+\s+\S+\s+\S+\s+[A-Za-z]+Error\s/.test(l));
    assert.ok(
      failed.length > 0 && failed.every((l) => /CreateContainerError .*failed to rename: .* file exists/.test(l)),
      story,
    );
  }
  assert.fail(`the pod did not converge in 3 syncs\n${story}`);
}

/** The results table with each wrapped MESSAGE joined back onto its row (continuation lines are indented to the column). */
const unwrapped = (text: string) => text.replace(/\n {20,}/g, ' ');

const lockGone = (name: string) => !fs.existsSync(lockPath(DEFAULT_LOCK_DIR, `e2e/${name}`));

describe('the runtime fails under a sync', () => {
  test('containerd killed while an init container runs under sync --wait, then restarted: sync --wait starts the app, one sandbox', async () => {
    const file = writeManifest(dir, {
      name: 'crash-init',
      inits: [{ name: 'slow', image: BUSYBOX_IMAGE, script: 'sleep 4' }],
      containers: [{ name: 'app', image: BUSYBOX_IMAGE }],
    });
    const bg = background(['sync', '--wait', ...flags(), file]);
    await until('the init container to run', () => bg.lines.some((l) => /start-init-container slow: ok/.test(l)));
    lab.signalContainerd('SIGKILL');
    const r = await bg.done;
    // The wait ends with the runtime: one line that names the endpoint, exit 1, no stack, no lock left.
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    // (the lab's socket: containerd.sock, or crio.sock on CRI-O)
    assert.match(unwrapped(r.stdout), /wait-init-container\s+slow\s+SyncError .*(containerd|crio)\.sock/);
    assert.ok(lockGone('crash-init'), 'the lock was released');

    await lab.restartContainerd();
    const again = await run(['sync', '--yes', '--wait', '-o', 'json', ...flags(), file]);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    const acts: string[] = JSON.parse(again.stdout).results.map((x: any) => `${x.action} ${x.target}`);
    assert.equal(acts.at(-1), 'start-container app', acts.join(', '));
    assert.ok(
      !acts.some((a) => a.startsWith('create-sandbox')),
      `the sandbox survived the restart: ${acts.join(', ')}`,
    );
    assert.deepEqual(
      (await sandboxes('crash-init')).map((s) => s.state),
      ['SANDBOX_READY'],
    );
    assert.deepEqual(await containerStates('crash-init'), ['app=CONTAINER_RUNNING', 'slow=CONTAINER_EXITED']);
    assert.equal(await planExit(file), 0);
  });

  test('containerd killed between two steps (right after the sandbox), then restarted: sync converges, every container once', async () => {
    const names = ['c1', 'c2', 'c3', 'c4'];
    const file = writeManifest(dir, {
      name: 'crash-steps',
      containers: names.map((name) => ({ name, image: BUSYBOX_IMAGE })),
    });
    const bg = background(['sync', '--yes', ...flags(), file]);
    await until('the sandbox step', () => bg.lines.some((l) => /create-sandbox .*: ok/.test(l)), 60000);
    // Frozen first so that it dies at this point of the sync, not a few calls later.
    lab.signalContainerd('SIGSTOP');
    lab.signalContainerd('SIGKILL');
    const r = await bg.done;
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.ok(lockGone('crash-steps'), 'the lock was released');

    await lab.restartContainerd();
    const story = `killed sync:\n${r.stdout}\n${await converge(file)}`;
    assert.deepEqual(
      (await sandboxes('crash-steps')).map((s) => s.state),
      ['SANDBOX_READY'],
      `one sandbox\n${story}`,
    );
    assertEveryContainerOnce(await containerStates('crash-steps'), names, story);
    assert.equal(await planExit(file), 0);
  });

  test('containerd frozen: before the sync, the first call is cut at --timeout in one line; under a step, the sync waits and finishes once it runs again', async () => {
    const names = ['c1', 'c2', 'c3'];
    const file = writeManifest(dir, {
      name: 'frozen',
      containers: names.map((name) => ({ name, image: BUSYBOX_IMAGE })),
    });
    lab.signalContainerd('SIGSTOP');
    let r: RunResult;
    try {
      r = await run(['--timeout', '1s', 'sync', '--yes', ...flags(), file], 60000);
    } finally {
      lab.signalContainerd('SIGCONT');
    }
    assertOneLineError(
      r,
      /^syncpod: endpoint unix:\/\/.*(containerd|crio)\.sock: no answer to ListPodSandbox within 1s /,
    );
    assert.deepEqual(await sandboxes('frozen'), [], 'nothing was made');

    // Frozen right after the sandbox step, for longer than --timeout: the mutating call in flight has
    // kubelet's runtimeRequestTimeout (2 minutes), so the sync waits and finishes once containerd runs again.
    const bg = background(['--timeout', '1s', 'sync', '--yes', ...flags(), file]);
    await until('the sandbox step', () => bg.lines.some((l) => /create-sandbox .*: ok/.test(l)), 60000);
    lab.signalContainerd('SIGSTOP');
    await sleep(2500);
    lab.signalContainerd('SIGCONT');
    const during = await bg.done;
    assert.equal(during.code, 0, during.stdout + during.stderr);
    assert.match(during.stdout, /^Sync done: 4 steps\.$/m);
    assert.ok(lockGone('frozen'), 'the lock was released');

    assert.deepEqual(
      (await sandboxes('frozen')).map((s) => s.state),
      ['SANDBOX_READY'],
      'one sandbox',
    );
    assert.deepEqual(
      await containerStates('frozen'),
      names.map((n) => `${n}=CONTAINER_RUNNING`),
    );
    assert.equal(await planExit(file), 0);
  });

  test('syncpod itself SIGKILLed at three points of a sync (uid chosen, sandbox made, a container started): each rerun converges', async () => {
    const names = ['c1', 'c2', 'c3'];
    const points: Array<[string, (lines: string[]) => boolean]> = [
      ['once it chose the uid (before or during RunPodSandbox)', (l) => l.some((x) => /using the fresh uid/.test(x))],
      ['after the sandbox step', (l) => l.some((x) => /create-sandbox .*: ok/.test(x))],
      ['after the first container', (l) => l.some((x) => /start-container c1: /.test(x))],
    ];
    for (const [i, [when, ready]] of points.entries()) {
      const file = writeManifest(dir, {
        name: `killed-${i}`,
        containers: names.map((name) => ({ name, image: BUSYBOX_IMAGE })),
      });
      const bg = background(['sync', '--yes', ...flags(), file]);
      await until(`syncpod ${when}`, () => ready(bg.lines));
      bg.kill();
      await bg.done;
      const again = await run(['sync', '--yes', ...flags(), file]);
      const story = `killed ${when}; the rerun:\n${again.stdout}${again.stderr}`;
      assert.equal(again.code, 0, story);
      assert.deepEqual(
        (await sandboxes(`killed-${i}`)).map((s) => s.state),
        ['SANDBOX_READY'],
        `one sandbox: ${story}`,
      );
      assertEveryContainerOnce(await containerStates(`killed-${i}`), names, story);
      assert.equal(await planExit(file), 0, story);
    }
  });
});
