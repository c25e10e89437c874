// `syncpod sync` against a real containerd: from nothing, image change, stopped sandbox, failing
// init containers, missing images, --dry-run fidelity, concurrency (one pod and four pods) and the kill confirmation.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUSYBOX_IMAGE, BUSYBOX_IMAGE_2, labRuntime, podCgroupsOf, startLab, type Lab } from '../harness/lab';
import { assertCreatedAsSent, assertOneLineError, cliEnv, createdWith, SYNCPOD, syncpod } from './helpers';
import { nodeFlags, podManifest, writeManifest, type PodSpecInput } from './sync-helpers';
import { DEFAULT_LOCK_DIR, lockPath } from '../../src/sync/lock';

let lab: Lab;
let dir: string;
const run = (args: string[], timeoutMs = 120000) => syncpod(args, { env: lab.env, timeoutMs });
const flags = () => nodeFlags(lab);

async function psJson(name: string): Promise<any[]> {
  const r = await run(['ps', '-a', '-o', 'json', '--namespace', '^e2e$']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).containers.filter((c: any) => c.labels['io.kubernetes.pod.name'] === name);
}
async function podsJson(name: string): Promise<any[]> {
  const r = await run(['pods', '-o', 'json', '--name', `^${name}$`]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).items;
}
/** Kills `pid` and every process below it (a hung sync under script(1) and its shell). */
function killTree(pid: number): void {
  const below = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean);
  try {
    process.kill(pid, 'SIGSTOP');
  } catch {
    /* gone */
  }
  for (const p of below) killTree(Number(p));
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* gone */
  }
}

/** A word quoted for sh. */
const shq = (a: string) => `'${a.replace(/'/g, "'\\''")}'`;

/**
 * `syncpod ARGS` on a terminal of `cols` columns (script(1) makes the pty; 0 is a pty nobody sized),
 * stdout to `out` when given. Its terminal output so far (the last 64 KiB), and its end.
 */
function onTerminal(args: string[], cols: number, out?: string) {
  const cmd = `stty cols ${cols} rows ${cols ? 40 : 0}; ${[process.execPath, SYNCPOD, ...args].map(shq).join(' ')}${out ? ` >${shq(out)}` : ''}`;
  const child = spawn('script', ['-qec', cmd, '/dev/null'], {
    env: cliEnv(lab.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const t = { text: '', code: null as number | null, done: false };
  const add = (d: Buffer) => (t.text = (t.text + d).slice(-65536));
  child.stdout.on('data', add);
  child.stderr.on('data', add);
  const closed = new Promise<void>((resolve) =>
    child.on('close', (c) => {
      Object.assign(t, { code: c, done: true });
      resolve();
    }),
  );
  /** Waits up to `ms` for the end; then kills it (and what it runs). */
  const end = async (ms: number) => {
    for (const until = Date.now() + ms; !t.done && Date.now() < until; ) await new Promise((r) => setTimeout(r, 100));
    if (!t.done) killTree(child.pid!);
    await closed;
  };
  return { t, end };
}

async function planExit(file: string): Promise<number | null> {
  const r = await run(['plan', '--detailed-exitcode', ...flags(), file]);
  return r.code;
}

before(async () => {
  lab = await startLab();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-sync-e2e-'));
});
after(async () => {
  await lab?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const webPod = (image2 = BUSYBOX_IMAGE): PodSpecInput => ({
  name: 'web',
  inits: [
    { name: 'init-a', image: BUSYBOX_IMAGE, script: 'echo a > /dev/termination-log; sleep 0.3' },
    { name: 'init-b', image: BUSYBOX_IMAGE, script: 'echo b' },
  ],
  containers: [
    { name: 'app', image: BUSYBOX_IMAGE },
    { name: 'side', image: image2 },
  ],
});

describe('sync', () => {
  test('from nothing with --wait: inits in order, then both containers; plan after shows no changes', async () => {
    const file = writeManifest(dir, webPod());
    const r = await run(['sync', '--wait', '--timings', ...flags(), file]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stderr, /has no uid and none exists on this node: using the fresh uid/);
    assert.match(r.stdout, /^STEP\s+ACTION\s+TARGET\s+RESULT\s+DURATION\s+RPC\s+MESSAGE$/m);
    assert.match(r.stdout, /Sync done: \d+ steps in 3 plans\./);
    assert.match(r.stdout, /Timings: total \S+, in runtime RPCs \S+, syncpod's own \S+/);
    const cs = await psJson('web');
    const byName = (n: string) => cs.filter((c) => c.labels['io.kubernetes.container.name'] === n);
    assert.equal(byName('init-a').length, 1);
    assert.equal(byName('init-b').length, 1);
    assert.equal(byName('init-a')[0].state, 'CONTAINER_EXITED');
    assert.ok(
      BigInt(byName('init-a')[0].createdAt) < BigInt(byName('init-b')[0].createdAt),
      'init-a ran before init-b',
    );
    assert.ok(
      BigInt(byName('init-b')[0].createdAt) < BigInt(byName('app')[0].createdAt),
      'inits before regular containers',
    );
    assert.equal(byName('app')[0].state, 'CONTAINER_RUNNING');
    assert.equal(byName('side')[0].state, 'CONTAINER_RUNNING');
    assert.equal(await planExit(file), 0);
    // A second sync converges: nothing to do.
    const again = await run(['sync', ...flags(), file]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /No changes\./);
  });

  test('without a TTY and without --yes, a sync that kills refuses and does nothing', async () => {
    const file = writeManifest(dir, webPod(BUSYBOX_IMAGE_2));
    const before = (await psJson('web')).map((c) => `${c.id}:${c.state}`).sort();
    const r = await run(['sync', ...flags(), file]);
    assertOneLineError(r, /the plan kills container side; stdin is not a terminal, so pass --yes/);
    assert.deepEqual((await psJson('web')).map((c) => `${c.id}:${c.state}`).sort(), before);
  });

  test('on a terminal that reports no width (a pty nobody sized: script(1), ssh -tt from a script) sync prints plain progress and ends', async () => {
    const file = writeManifest(dir, { name: 'narrow', containers: [{ name: 'app', image: BUSYBOX_IMAGE }] });
    // It hung: ora took 0 columns as the width and cleared lines without end after the first frame.
    const sync = onTerminal(['sync', '--yes', ...flags(), file], 0);
    await sync.end(60000);
    assert.equal(sync.t.code, 0, sync.t.text.slice(-2000));
    assert.match(sync.t.text, /^1 create-sandbox e2e\/narrow attempt 0: ok /m);
    assert.deepEqual(
      (await psJson('narrow')).map((c) => c.state),
      ['CONTAINER_RUNNING'],
    );
  });

  test('an image change replaces only that container', async () => {
    const file = writeManifest(dir, webPod(BUSYBOX_IMAGE_2));
    const before = await psJson('web');
    const app0 = before.find(
      (c) => c.labels['io.kubernetes.container.name'] === 'app' && c.state === 'CONTAINER_RUNNING',
    );
    const r = await run(['sync', '--yes', '-o', 'json', ...flags(), file]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = JSON.parse(r.stdout);
    assert.deepEqual(
      report.results.map((x: any) => `${x.action} ${x.target} ${x.ok}`),
      ['kill-container side true', 'start-container side true'],
    );
    const after = await psJson('web');
    const running = after.filter((c) => c.state === 'CONTAINER_RUNNING');
    assert.deepEqual(running.map((c) => c.labels['io.kubernetes.container.name']).sort(), ['app', 'side']);
    assert.equal(running.find((c) => c.labels['io.kubernetes.container.name'] === 'app').id, app0.id);
    const side = running.find((c) => c.labels['io.kubernetes.container.name'] === 'side');
    assert.equal(side.image.userSpecifiedImage || side.imageRef ? side.metadata.attempt : -1, 1);
    assert.equal(await planExit(file), 0);
  });

  test('after stopp the sandbox is recreated with attempt + 1 (1 init, 2 containers; --timings)', async () => {
    const file = writeManifest(dir, {
      name: 'again',
      inits: [{ name: 'setup', image: BUSYBOX_IMAGE, script: 'true' }],
      containers: [
        { name: 'one', image: BUSYBOX_IMAGE },
        { name: 'two', image: BUSYBOX_IMAGE_2 },
      ],
    });
    const first = await run(['sync', '--wait', '--timings', ...flags(), file]);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const timing = /Timings: total (\S+), in runtime RPCs (\S+), syncpod's own (\S+)/.exec(first.stdout);
    assert.ok(timing, first.stdout);
    process.stderr.write(`# sync --timings (1 init + 2 containers, from nothing): ${timing[0]}\n`);
    const [sb] = await podsJson('again');
    assert.equal((await run(['stopp', sb.id])).stdout, `Stopped sandbox ${sb.id}\n`);
    const r = await run(['sync', '--yes', '--wait', '-o', 'json', ...flags(), file]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = JSON.parse(r.stdout);
    // KillPod stops the stopped sandbox again first (kubelet v1.37.2 does; containerd accepts it).
    assert.deepEqual(
      report.results.map((x: any) => `${x.action} ${x.target}`),
      [
        'kill-pod e2e/again',
        'remove-init-container setup',
        'create-sandbox e2e/again attempt 1',
        'start-init-container setup',
        'wait-init-container setup',
        'start-container one',
        'start-container two',
      ],
    );
    const pods = await podsJson('again');
    const ready = pods.filter((p) => p.state === 'SANDBOX_READY');
    assert.equal(ready.length, 1);
    assert.equal(ready[0].metadata.attempt, sb.metadata.attempt + 1);
    const running = (await psJson('again')).filter((c) => c.state === 'CONTAINER_RUNNING');
    assert.deepEqual(
      running
        .map(
          (c) => `${c.labels['io.kubernetes.container.name']}:${c.metadata.attempt}:${c.podSandboxId === ready[0].id}`,
        )
        .sort(),
      ['one:1:true', 'two:1:true'],
    );
    assert.equal(await planExit(file), 0);
  });

  test('--wait after an interrupted sync waits for the init container still running, then starts the app', async () => {
    const file = writeManifest(dir, {
      name: 'resume',
      // slow ends only when the test tells it to (a file in its /tmp): it is still running when the
      // second sync looks, however loaded the machine (a `sleep 3` could end before that sync started).
      inits: [{ name: 'slow', image: BUSYBOX_IMAGE, script: 'until [ -e /tmp/done ]; do sleep 0.1; done' }],
      containers: [{ name: 'app', image: BUSYBOX_IMAGE }],
    });
    const env = cliEnv(lab.env);
    const child = spawn(process.execPath, [SYNCPOD, 'sync', '--wait', ...flags(), file], { env, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.on('close', resolve));
    const deadline = Date.now() + 60000;
    let slow = '';
    for (;;) {
      const cs = await psJson('resume');
      slow =
        cs.find((c) => c.labels['io.kubernetes.container.name'] === 'slow' && c.state === 'CONTAINER_RUNNING')?.id ??
        '';
      if (slow) break;
      assert.ok(Date.now() < deadline, 'the init container never ran');
      await new Promise((r) => setTimeout(r, 100));
    }
    child.kill('SIGKILL');
    await exited;
    // The second sync runs on a terminal (script(1)), where its progress names each step as it begins
    // (its report goes to a file): once it says it waits for slow, slow is told to end.
    const out = path.join(dir, 'resume-sync.out');
    const second = onTerminal(['sync', '--yes', '--wait', ...flags(), file], 120, out);
    try {
      for (const end = Date.now() + 60000; !second.t.text.includes('waiting for init container slow'); ) {
        assert.ok(Date.now() < end && !second.t.done, `the second sync never waited for slow:\n${second.t.text}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const told = await run(['exec', '-s', slow, 'touch', '/tmp/done']);
      assert.equal(told.code, 0, told.stderr);
    } finally {
      await second.end(120000);
    }
    assert.equal(second.t.code, 0, second.t.text);
    // The report's rows: STEP ACTION TARGET …, between the header and the "Sync …" line.
    const report = fs.readFileSync(out, 'utf8').split('\n');
    const head = report.findIndex((l) => /^STEP\s+ACTION\s+TARGET\s/.test(l));
    assert.ok(head > 0, report.join('\n'));
    const acts = report
      .slice(head + 1)
      .filter((l) => /^\S/.test(l) && !l.startsWith('Sync '))
      .map((l) => l.split(/\s+/).slice(1, 3).join(' '));
    assert.deepEqual(acts, ['wait-init-container slow', 'start-container app'], report.join('\n'));
    const cs = await psJson('resume');
    const state = (n: string) => cs.filter((c) => c.labels['io.kubernetes.container.name'] === n).map((c) => c.state);
    assert.deepEqual(state('slow'), ['CONTAINER_EXITED']);
    assert.deepEqual(state('app'), ['CONTAINER_RUNNING']);
    assert.equal(await planExit(file), 0);
  });

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    test(`${signal} during sync --wait: the report of what was done, exit ${code}, the lock released`, async () => {
      const name = `halt-${signal.toLowerCase()}`;
      const file = writeManifest(dir, {
        name,
        inits: [{ name: 'slow', image: BUSYBOX_IMAGE, script: 'sleep 600' }],
        containers: [{ name: 'app', image: BUSYBOX_IMAGE }],
      });
      const child = spawn(process.execPath, [SYNCPOD, 'sync', '--yes', '--wait', ...flags(), file], {
        env: cliEnv(lab.env),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      const exited = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      for (let i = 0; ; i++) {
        const cs = await psJson(name);
        if (cs.some((c) => c.labels['io.kubernetes.container.name'] === 'slow' && c.state === 'CONTAINER_RUNNING'))
          break;
        assert.ok(i < 300, `the init container never ran: ${err}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      child.kill(signal);
      assert.equal(await exited, code, out + err);
      assert.match(err, new RegExp(`${signal}: finishing the step under way, then stopping`));
      const said = out.replace(/\s+/g, ' ');
      assert.match(
        said,
        new RegExp(`Sync failed: .*interrupted by ${signal} while waiting for init container slow to finish`),
      );
      assert.match(out, /start-init-container/);
      assert.equal(fs.existsSync(lockPath(DEFAULT_LOCK_DIR, `e2e/${name}`)), false, 'the lock was released');
      // The app was never started; a later sync takes the pod over without waiting for a lock.
      assert.deepEqual(
        (await psJson(name)).map((c) => c.labels['io.kubernetes.container.name']),
        ['slow'],
      );
      const again = await run(['sync', '--yes', '--dry-run', ...flags(), file]);
      assert.equal(again.code, 0, again.stderr);
      assert.doesNotMatch(again.stderr, /waiting for pid/);
    });
  }

  test('a failing init container under restartPolicy Never: the pod is killed, nothing restarted', async () => {
    const file = writeManifest(dir, {
      name: 'never',
      restartPolicy: 'Never',
      inits: [{ name: 'boom', image: BUSYBOX_IMAGE, script: 'exit 3' }],
      containers: [{ name: 'app', image: BUSYBOX_IMAGE }],
    });
    const r = await run(['sync', '--wait', '--yes', '-o', 'json', ...flags(), file]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const report = JSON.parse(r.stdout);
    const acts = report.results.map((x: any) => `${x.action}:${x.ok ? 'ok' : x.error}`);
    assert.deepEqual(acts, [
      'create-sandbox:ok',
      'start-init-container:ok',
      'wait-init-container:InitContainerFailed',
      'kill-pod:ok',
    ]);
    const cs = await psJson('never');
    assert.deepEqual(
      cs.map((c) => `${c.labels['io.kubernetes.container.name']}:${c.state}:${c.metadata.attempt}`),
      ['boom:CONTAINER_EXITED:0'],
    );
    assert.deepEqual(
      (await podsJson('never')).map((p) => p.state),
      ['SANDBOX_NOTREADY'],
    );
  });

  test('a failing init container under restartPolicy OnFailure is restarted (then held back by back-off)', async () => {
    const file = writeManifest(dir, {
      name: 'onfail',
      restartPolicy: 'OnFailure',
      inits: [{ name: 'flaky', image: BUSYBOX_IMAGE, script: 'exit 1' }],
      containers: [{ name: 'app', image: BUSYBOX_IMAGE }],
    });
    const r = await run(['sync', '--wait', '-o', 'json', ...flags(), file]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const report = JSON.parse(r.stdout);
    const starts = report.results.filter((x: any) => x.action === 'start-init-container');
    assert.ok(starts.length >= 2, JSON.stringify(report.results));
    assert.ok(starts[0].ok && starts[1].ok);
    assert.match(starts[1].message, /restart count 1/);
    const last = report.results[report.results.length - 1];
    assert.equal(last.error, 'CrashLoopBackOff');
    assert.match(last.message, /^back-off 10s restarting failed container=flaky pod=onfail_e2e\(/);
    const cs = await psJson('onfail');
    assert.ok(
      cs.every((c) => c.labels['io.kubernetes.container.name'] === 'flaky'),
      'no regular container was started',
    );
  });

  test('an image that does not exist: a clear error, the rest as kubelet leaves it', async () => {
    const file = writeManifest(dir, {
      name: 'noimg',
      containers: [
        { name: 'good', image: BUSYBOX_IMAGE },
        { name: 'never', image: 'localhost/syncpod/absent:1', pull: 'Never' },
        { name: 'ifnp', image: 'localhost/syncpod/absent:2', pull: 'IfNotPresent' },
      ],
    });
    const r = await run(['sync', '-o', 'json', ...flags(), file]);
    assert.equal(r.code, 1);
    const report = JSON.parse(r.stdout);
    const by = (t: string) => report.results.find((x: any) => x.target === t);
    assert.equal(by('good').ok, true);
    assert.equal(by('never').error, 'ErrImageNeverPull');
    assert.equal(
      by('never').message,
      'Container image "localhost/syncpod/absent:1" is not present with pull policy of Never',
    );
    assert.equal(by('ifnp').error, 'ErrImagePull');
    assert.match(by('ifnp').message, /^Failed to pull image "localhost\/syncpod\/absent:2": /);
    // kubelet leaves the sandbox and the started container; nothing was created for the missing images.
    const cs = await psJson('noimg');
    assert.deepEqual(
      cs.map((c) => `${c.labels['io.kubernetes.container.name']}:${c.state}`),
      ['good:CONTAINER_RUNNING'],
    );
    assert.equal((await podsJson('noimg')).length, 1);
  });

  test('--feature-gates reaches the sync: the plan it executes uses the gate as given, with origin flag', async () => {
    const file = writeManifest(dir, {
      name: 'gates',
      uid: '6a1e0d4c-0000-4000-8000-00000000a7e5',
      containers: [{ name: 'app', image: BUSYBOX_IMAGE }],
    });
    const d = await run([
      'sync',
      '--dry-run',
      '-o',
      'json',
      '--kubelet-version',
      '1.35',
      '--feature-gates',
      'ContainerRestartRules=false',
      ...flags(),
      file,
    ]);
    assert.equal(d.code, 0, d.stderr);
    const text = d.stdout;
    const m = /"ContainerRestartRules":\s*(\{[^}]*\})/.exec(text);
    assert.ok(m, 'the plan lists the ContainerRestartRules gate');
    const gate = JSON.parse(m![1]!);
    assert.equal(gate.value ?? gate.enabled, false);
    assert.equal(gate.origin, 'flag');
    const bad = await run(['sync', '--dry-run', '--feature-gates', 'NoSuchGate=true', ...flags(), file]);
    assertOneLineError(bad, /NoSuchGate/);
    assert.equal((await podsJson('gates')).length, 0, 'nothing was created');
  });

  test('--dry-run prints the requests that a real sync then sends', async () => {
    const file = writeManifest(dir, {
      name: 'dry',
      uid: '6a1e0d4c-0000-4000-8000-00000000d1d1',
      containers: [{ name: 'app', image: BUSYBOX_IMAGE, env: { GREETING: 'hello', ECHO: '$(GREETING) world' } }],
    });
    const d = await run(['sync', '--dry-run', '-o', 'json', ...flags(), file]);
    assert.equal(d.code, 0, d.stderr);
    const dry = JSON.parse(d.stdout);
    assert.deepEqual(
      dry.requests.map((x: any) => x.rpc),
      ['RunPodSandbox', 'CreateContainer', 'StartContainer'],
    );
    assert.equal((await podsJson('dry')).length, 0, 'dry run created nothing');
    const r = await run(['sync', ...flags(), file]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const [sb] = await podsJson('dry');
    const sentSandbox = dry.requests[0].request.config;
    assert.deepEqual(sb.metadata, sentSandbox.metadata);
    const { 'kubernetes.io/config.seen': seen, ...otherAnn } = sb.annotations;
    const { 'kubernetes.io/config.seen': drySeen, ...dryAnn } = sentSandbox.annotations;
    assert.deepEqual(otherAnn, dryAnn);
    assert.match(seen, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}(Z|[+-]\d\d:\d\d)$/);
    assert.match(drySeen, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}(Z|[+-]\d\d:\d\d)$/);
    // kubelet's sandbox labels: the pod's own and its name, namespace and uid, no container name
    // (generatePodSandboxConfig); syncpod sends the same. CRI-O adds io.kubernetes.container.name=POD
    // to every sandbox it runs (its infra container's label); containerd adds nothing.
    assert.equal(sentSandbox.labels['io.kubernetes.container.name'], undefined, 'kubelet sends no container name');
    assert.deepEqual(
      sb.labels,
      labRuntime().kind === 'crio'
        ? { ...sentSandbox.labels, 'io.kubernetes.container.name': 'POD' }
        : sentSandbox.labels,
    );
    const [c] = await psJson('dry');
    const insp = JSON.parse((await run(['inspect', c.id])).stdout);
    const sent = dry.requests[1].request.config;
    assert.deepEqual(insp.status.metadata, sent.metadata);
    assert.deepEqual(insp.status.labels, sent.labels);
    assert.deepEqual(insp.status.annotations, sent.annotations);
    assert.equal(insp.status.logPath, `${sentSandbox.logDirectory}/${sent.logPath}`);
    // The termination-log file name is random per instance (as in kubelet): compared up to it.
    assertCreatedAsSent(insp, sent, (p) => p.replace(/\/[0-9a-f]{8}$/, '/<random>'));
    assert.ok(createdWith(insp).env.includes('ECHO=hello world'), 'the $(GREETING) reference expanded');
  });

  test('two concurrent syncs of one pod leave exactly one sandbox', async () => {
    const file = writeManifest(dir, {
      name: 'race',
      uid: '6a1e0d4c-0000-4000-8000-0000000000ac',
      containers: [{ name: 'app', image: BUSYBOX_IMAGE }],
    });
    const [a, b] = await Promise.all([run(['sync', ...flags(), file]), run(['sync', ...flags(), file])]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    assert.equal((await podsJson('race')).length, 1);
    assert.equal((await psJson('race')).length, 1);
    assert.ok(
      [a.stdout, b.stdout].some((o) => /No changes\./.test(o)),
      'the second sync found nothing to do',
    );
  });

  test('five concurrent syncs of one manifest without a uid leave exactly one sandbox', async () => {
    const file = writeManifest(dir, { name: 'race-nouid', containers: [{ name: 'app', image: BUSYBOX_IMAGE }] });
    const runs = await Promise.all(Array.from({ length: 5 }, () => run(['sync', '--yes', ...flags(), file])));
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    const pods = await podsJson('race-nouid');
    assert.equal(pods.length, 1, JSON.stringify(pods.map((p) => p.metadata)));
    assert.equal((await psJson('race-nouid')).length, 1);
    assert.equal(
      runs.filter((r) => /No changes\./.test(r.stdout)).length,
      4,
      'four syncs found the pod the first one made',
    );
  });

  test('concurrent syncs of four different pods all converge, each with one sandbox and its own IP', async () => {
    const names = ['multi-a', 'multi-b', 'multi-c', 'multi-d'];
    const files = names.map((name) =>
      writeManifest(dir, { name, containers: [{ name: 'app', image: BUSYBOX_IMAGE }] }),
    );
    const runs = await Promise.all(files.map((f) => run(['sync', '--yes', '-o', 'json', ...flags(), f])));
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    const ips = new Set<string>();
    for (const name of names) {
      const pods = await podsJson(name);
      assert.equal(pods.length, 1, name);
      assert.deepEqual(
        (await psJson(name)).map((c) => c.state),
        ['CONTAINER_RUNNING'],
        name,
      );
      const r = await run(['inspectp', '-o', 'json', pods[0].id]);
      ips.add(JSON.parse(r.stdout).status.network.ip);
    }
    assert.equal(ips.size, 4, [...ips].join(', '));
    for (const f of files) assert.equal(await planExit(f), 0);
  });

  test('a sync whose stderr reader goes away after one line still starts every container and releases the lock', async () => {
    const names = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'];
    const file = writeManifest(dir, {
      name: 'epipe',
      containers: names.map((name) => ({ name, image: BUSYBOX_IMAGE })),
    });
    // As in `syncpod sync --yes pod.yaml 2>&1 >/dev/null | head -1`: the reader leaves after the first line.
    const cmd = `${[process.execPath, SYNCPOD, 'sync', '--yes', ...flags(), file].map((a) => `'${a}'`).join(' ')} 2>&1 >/dev/null | head -1`;
    const child = spawn('sh', ['-c', cmd], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', CRI_CONFIG_FILE: '', ...lab.env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let first = '';
    child.stdout.on('data', (d) => (first += d));
    await new Promise((resolve) => child.on('close', resolve));
    assert.notEqual(first, '', 'head saw a line of progress');
    // The shell returns when head leaves; syncpod goes on, holding the lock, until the pod is synced.
    const lockFile = lockPath(DEFAULT_LOCK_DIR, 'e2e/epipe');
    for (let i = 0; i < 600 && fs.existsSync(lockFile); i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(fs.existsSync(lockFile), false, 'the lock was released');
    const states = (await psJson('epipe')).map((c) => `${c.metadata.name}=${c.state}`).sort();
    assert.deepEqual(
      states,
      names.map((n) => `${n}=CONTAINER_RUNNING`),
    );
  });

  test('another uid of the same namespace/name: plan lists it as a duplicate, sync kills and removes it first', async () => {
    // First a manifest without a uid (syncpod picks one), then the pod object "recreated" with its own uid.
    const spec = { name: 'dup', containers: [{ name: 'app', image: BUSYBOX_IMAGE }] };
    const noUid = writeManifest(dir, spec);
    const withUid = path.join(dir, 'dup-uid.json');
    fs.writeFileSync(withUid, podManifest({ ...spec, uid: '6a1e0d4c-0000-4000-8000-0000000000d2' }));
    assert.equal((await run(['sync', '--yes', ...flags(), noUid])).code, 0);
    const [old] = await podsJson('dup');
    const oldUid: string = old.metadata.uid;
    assert.notEqual(oldUid, '6a1e0d4c-0000-4000-8000-0000000000d2');

    const plan = await run(['plan', '-o', 'json', '--detailed-exitcode', ...flags(), withUid]);
    assert.equal(plan.code, 2, plan.stderr);
    const p = JSON.parse(plan.stdout);
    assert.deepEqual(
      p.duplicates.map((d: any) => [d.uid, d.kubelet, d.sandboxes.map((s: any) => s.id)]),
      [[oldUid, 'kill', [old.id]]],
    );
    const table = await run(['plan', ...flags(), withUid]);
    assert.match(table.stdout, /^Duplicates: 1 other uid of e2e\/dup on this node/m);
    // KUBELET WOULD wraps to the width (100 columns off a terminal): "then remove" may be on the next line.
    assert.match(
      table.stdout,
      new RegExp(`^e2e +dup +${oldUid} +${old.id.slice(0, 13)} +ready .*kill \\(grace 1s\\),\\s+then remove$`, 'm'),
    );

    assertOneLineError(
      await run(['sync', ...flags(), withUid]),
      /^syncpod: the plan kills the duplicate pod e2e\/dup \(uid [0-9a-f-]+\); stdin is not a terminal, so pass --yes/,
    );
    assert.deepEqual(
      (await podsJson('dup')).map((x) => x.metadata.uid),
      [oldUid],
      'refused: nothing was done',
    );

    // The old uid's pod cgroup (the runtime made it for its sandbox): kubelet destroys it once that pod is gone.
    assert.ok(podCgroupsOf([oldUid]).length > 0, 'the old uid has its pod cgroup');
    const r = await run(['sync', '--yes', ...flags(), withUid]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^Duplicate e2e/dup \\(uid ${oldUid}\\): removed \\(stopped container\\s`, 'm'));
    assert.match(r.stdout, new RegExp(`removed pod cgroup /kubepods/besteffort/pod${oldUid}\\b`));
    assert.deepEqual(podCgroupsOf([oldUid]), [], "the old uid's pod cgroup is gone in every hierarchy");
    const pods = await podsJson('dup');
    assert.deepEqual(
      pods.map((x) => [x.metadata.uid, x.state]),
      [['6a1e0d4c-0000-4000-8000-0000000000d2', 'SANDBOX_READY']],
      'one sandbox: the new uid',
    );
    assert.deepEqual(
      (await psJson('dup')).map((c) => [c.labels['io.kubernetes.pod.uid'], c.state]),
      [['6a1e0d4c-0000-4000-8000-0000000000d2', 'CONTAINER_RUNNING']],
    );
    assert.equal(await planExit(withUid), 0);
    assert.equal(await planExit(noUid), 0, 'the uid-less manifest now finds the one pod, no duplicate');
  });

  test('a container started by a later sync gets its pod directory back (kubelet makes the pod data dirs on every sync)', async () => {
    const uid = '6a1e0d4c-0000-4000-8000-0000000000d1';
    const podDir = path.join(lab.podDirRoot, 'pods', uid);
    const first = writeManifest(dir, { name: 'dirs', uid, containers: [{ name: 'app', image: BUSYBOX_IMAGE }] });
    assert.equal((await run(['sync', ...flags(), first])).code, 0);
    assert.ok(fs.existsSync(path.join(podDir, 'etc-hosts')));
    // The pod directory is gone (another --pod-dir-root made the sandbox, or it was cleaned away).
    fs.rmSync(podDir, { recursive: true, force: true });
    const second = writeManifest(dir, { name: 'dirs', uid, containers: [{ name: 'app', image: BUSYBOX_IMAGE_2 }] });
    const r = await run(['sync', '--yes', '-o', 'json', ...flags(), second]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(
      JSON.parse(r.stdout).results.map((x: any) => `${x.action} ${x.target} ${x.ok}`),
      ['kill-container app true', 'start-container app true'],
    );
    assert.ok(fs.existsSync(path.join(podDir, 'etc-hosts')), 'etc-hosts written again');
    for (const d of [podDir, path.join(podDir, 'volumes'), path.join(podDir, 'plugins')])
      assert.equal(fs.statSync(d).mode & 0o777, 0o750, d);
    assert.equal((await psJson('dirs')).filter((c) => c.state === 'CONTAINER_RUNNING').length, 1);
    assert.equal(await planExit(second), 0);
  });

  test('a write error on stdout is exit 1 with one line naming the cause', async () => {
    const out = fs.openSync('/dev/full', 'w');
    const child = spawn(process.execPath, [SYNCPOD, 'pods', '-o', 'json'], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', CRI_CONFIG_FILE: '', ...lab.env },
      stdio: ['ignore', out, 'pipe'],
    });
    fs.closeSync(out);
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const code = await new Promise((resolve) => child.on('close', resolve));
    assertOneLineError({ code: code as number, stdout: '', stderr }, /^syncpod: .*ENOSPC/);
  });
});
