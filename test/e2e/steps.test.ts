// The step commands against a real containerd: runp + create + start from a manifest give what
// kubelet would (plan then reports no changes), --dry-run prints the request then sent, crictl's
// outputs for stop/rm/stopp/rmp/pull/rmi, and one-line errors.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUSYBOX_IMAGE, labRuntime, startLab, type Lab } from '../harness/lab';
import { assertCreatedAsSent, assertOneLineError, createdWith, syncpod } from './helpers';
import { nodeFlags, writeManifest } from './sync-helpers';

let lab: Lab;
let dir: string;
const run = (args: string[]) => syncpod(args, { env: lab.env, timeoutMs: 120000 });
const UID = '5b0c1f7e-0000-4000-8000-0000000005e5';
let manifest: string;
const ids = { pod: '', app: '' };

before(async () => {
  lab = await startLab();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-steps-e2e-'));
  manifest = writeManifest(dir, {
    name: 'steps',
    uid: UID,
    containers: [{ name: 'app', image: BUSYBOX_IMAGE, env: { MODE: 'steps' } }],
  });
});
after(async () => {
  await lab?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('runp, create, start from a manifest', () => {
  test('runp --dry-run prints the RunPodSandbox request that runp then sends; runp prints the id', async () => {
    const d = await run(['runp', '--dry-run', ...nodeFlags(lab), manifest]);
    assert.equal(d.code, 0, d.stderr);
    const req = JSON.parse(d.stdout);
    assert.deepEqual(Object.keys(req), ['config', 'runtimeHandler']);
    assert.deepEqual(req.config.metadata, { name: 'steps', uid: UID, namespace: 'e2e', attempt: 0 });
    assert.equal(req.config.logDirectory, path.join(lab.podLogsRoot, `e2e_steps_${UID}`));
    const r = await run(['runp', ...nodeFlags(lab), manifest]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^[0-9a-f]{64}\n$/);
    ids.pod = r.stdout.trim();
    assert.ok(fs.statSync(req.config.logDirectory).isDirectory(), 'the pod log directory was created');
    const insp = JSON.parse((await run(['inspectp', ids.pod])).stdout);
    assert.deepEqual(insp.status.metadata, req.config.metadata);
    // CRI-O adds io.kubernetes.container.name=POD to a sandbox's labels (kubelet and syncpod send none).
    assert.equal(req.config.labels['io.kubernetes.container.name'], undefined);
    assert.deepEqual(
      insp.status.labels,
      labRuntime().kind === 'crio'
        ? { ...req.config.labels, 'io.kubernetes.container.name': 'POD' }
        : req.config.labels,
    );
    const strip = (a: Record<string, string>) =>
      Object.fromEntries(Object.entries(a).filter(([k]) => k !== 'kubernetes.io/config.seen'));
    assert.deepEqual(strip(insp.status.annotations), strip(req.config.annotations));
    if (labRuntime().kind === 'crio') {
      // CRI-O shows the OCI spec it made: the hostname, and the sandbox log under the log directory.
      const spec = insp.info.runtimeSpec;
      assert.equal(spec.annotations['io.kubernetes.cri-o.LogPath'], `${req.config.logDirectory}/${ids.pod}.log`);
      assert.equal(spec.hostname, req.config.hostname);
    } else {
      const cfg = insp.info.config;
      assert.equal(cfg.log_directory ?? cfg.logDirectory, req.config.logDirectory);
      assert.equal(cfg.hostname, req.config.hostname);
    }
  });

  test('create --container --dry-run prints the CreateContainer request that create then sends', async () => {
    const d = await run([
      'create',
      '--dry-run',
      ...nodeFlags(lab),
      '--container',
      'app',
      ids.pod.slice(0, 8),
      manifest,
    ]);
    assert.equal(d.code, 0, d.stderr);
    const req = JSON.parse(d.stdout);
    assert.equal(req.podSandboxId, ids.pod);
    const r = await run(['create', ...nodeFlags(lab), '--container', 'app', ids.pod.slice(0, 8), manifest]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^[0-9a-f]{64}\n$/);
    ids.app = r.stdout.trim();
    const insp = JSON.parse((await run(['inspect', ids.app])).stdout);
    const sent = req.config;
    assert.deepEqual(insp.status.metadata, sent.metadata);
    assert.deepEqual(insp.status.labels, sent.labels);
    assert.deepEqual(insp.status.annotations, sent.annotations);
    assert.equal(insp.status.logPath, `${req.sandboxConfig.logDirectory}/${sent.logPath}`);
    assert.equal(insp.status.state, 'CONTAINER_CREATED');
    // The termination-log file name is random per instance (as in kubelet): compared up to it.
    assertCreatedAsSent(insp, sent, (p) => p.replace(/\/[0-9a-f]{8}$/, '/<random>'));
    assert.ok(createdWith(insp).env.includes('MODE=steps'));
  });

  test('create --dry-run hides values that came from Secrets unless --show-secrets', async () => {
    const secretPod = path.join(dir, 'secret-pod.json');
    const doc = JSON.parse(fs.readFileSync(manifest, 'utf8'));
    doc.spec.containers[0].env = [
      { name: 'MODE', value: 'steps' },
      { name: 'PW', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
    ];
    fs.writeFileSync(secretPod, JSON.stringify(doc));
    const envFile = path.join(dir, 'values.env');
    fs.writeFileSync(envFile, 'e2e/db/password=hunter2-not-for-terminals\n');
    const b64 = Buffer.from('hunter2-not-for-terminals').toString('base64');
    const args = [
      'create',
      '--dry-run',
      ...nodeFlags(lab),
      '--env-file',
      envFile,
      '--container',
      'app',
      ids.pod,
      secretPod,
    ];
    const hidden = await run(args);
    assert.equal(hidden.code, 0, hidden.stderr);
    assert.ok(!hidden.stdout.includes(b64) && !hidden.stdout.includes('hunter2'), 'the secret is not printed');
    const envs = JSON.parse(hidden.stdout).config.envs.map(
      (e: any) => `${e.key}=${Buffer.from(e.value, 'base64').toString()}`,
    );
    assert.ok(envs.includes('MODE=steps'));
    assert.ok(envs.includes('PW=<redacted: from a Secret; --show-secrets shows it>'), envs.join(' '));
    assert.match(hidden.stderr, /1 value from Secrets redacted; --show-secrets prints them/);
    const shown = await run([...args, '--show-secrets']);
    assert.equal(shown.code, 0, shown.stderr);
    assert.ok(shown.stdout.includes(b64), 'with --show-secrets the value is printed');

    // Expanded into the arguments ($(PW)), the secret is hidden there too.
    doc.spec.containers[0].args = ['--password=$(PW)', '--mode=$(MODE)'];
    fs.writeFileSync(secretPod, JSON.stringify(doc));
    const expanded = await run(args);
    assert.equal(expanded.code, 0, expanded.stderr);
    assert.doesNotMatch(expanded.stdout, /hunter2/);
    assert.deepEqual(JSON.parse(expanded.stdout).config.args, [
      '--password=<redacted: from a Secret; --show-secrets shows it>',
      '--mode=steps',
    ]);
  });

  test('--debug logs the CreateContainer request without environment values (a Secret among them)', async () => {
    const podFile = path.join(dir, 'debug-secret.json');
    const doc = JSON.parse(fs.readFileSync(manifest, 'utf8'));
    doc.metadata = { name: 'debug-secret', namespace: 'e2e-debug', uid: 'debug-secret-uid' };
    doc.spec.containers[0].env = [{ name: 'PW', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } }];
    fs.writeFileSync(podFile, JSON.stringify(doc));
    const envFile = path.join(dir, 'debug.env');
    fs.writeFileSync(envFile, 'e2e-debug/db/password=hunter2-not-for-logs\n');
    const r = await run(['--debug', 'sync', '--yes', ...nodeFlags(lab), '--env-file', envFile, podFile]);
    try {
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stderr, /CreateContainerRequest: .*"key":"PW","value":"<not logged/);
      assert.doesNotMatch(r.stderr, /hunter2|aHVudGVyMi1ub3QtZm9yLWxvZ3/);
    } finally {
      for (const id of (await run(['pods', '-q', '--namespace', 'e2e-debug'])).stdout.split('\n').filter(Boolean))
        await run(['rmp', '-f', id]);
    }
  });

  test('start prints the id; then plan reports no changes', async () => {
    const r = await run(['start', ids.app.slice(0, 10)]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${ids.app}\n`);
    const p = await run(['plan', '--detailed-exitcode', ...nodeFlags(lab), manifest]);
    assert.equal(p.code, 0, p.stdout + p.stderr);
    assert.match(p.stdout, /No changes/);
  });

  test('a second create computes restart count 1 (newest status + 1)', async () => {
    const d = await run(['create', '--dry-run', ...nodeFlags(lab), '--container', 'app', ids.pod, manifest]);
    assert.equal(d.code, 0, d.stderr);
    const req = JSON.parse(d.stdout);
    assert.equal(req.config.metadata.attempt, 1);
    assert.equal(req.config.logPath, 'app/1.log');
    assert.equal(req.config.annotations['io.kubernetes.container.restartCount'], '1');
  });
});

describe('stop, rm, stopp, rmp', () => {
  test('rm of a running container refuses without -f', async () => {
    assertOneLineError(await run(['rm', ids.app]), /container ".*" is running, please stop it first/);
  });
  test('stop -t prints the id; rm removes the container and its log', async () => {
    const d = await run(['stop', '--dry-run', '-t', '3', ids.app]);
    assert.deepEqual(JSON.parse(d.stdout), { containerId: ids.app, timeout: '3' });
    const s = await run(['stop', '-t', '1', ids.app]);
    assert.equal(s.code, 0, s.stderr);
    assert.equal(s.stdout, `${ids.app}\n`);
    const log = path.join(lab.podLogsRoot, `e2e_steps_${UID}`, 'app', '0.log');
    assert.ok(fs.existsSync(log));
    const r = await run(['rm', ids.app]);
    assert.equal(r.stdout, `${ids.app}\n`);
    assert.ok(!fs.existsSync(log), 'crictl rm removes the log file');
    assert.equal((await run(['ps', '-a', '-q', '--pod', ids.pod])).stdout, '');
  });
  test('stopp and rmp print crictl lines', async () => {
    assertOneLineError(await run(['rmp', ids.pod]), /pod sandbox ".*" is running, please stop it first/);
    assert.equal((await run(['stopp', ids.pod])).stdout, `Stopped sandbox ${ids.pod}\n`);
    assert.equal((await run(['rmp', ids.pod])).stdout, `Removed sandbox ${ids.pod}\n`);
    assert.equal((await run(['pods', '-q', '--name', '^steps$'])).stdout, '');
  });
  test('unknown ids are one-line errors', async () => {
    assertOneLineError(await run(['start', 'zzzz']), /no container matches ID prefix "zzzz"/);
    assertOneLineError(await run(['stopp', 'zzzz']), /no pod sandbox matches ID prefix "zzzz"/);
  });
});

describe('crictl-style configs, pull, rmi', () => {
  test('runp and create with crictl JSON files are sent as they are', async () => {
    const sandbox = {
      metadata: { name: 'raw', namespace: 'e2e', uid: 'raw-uid', attempt: 0 },
      log_directory: path.join(dir, 'raw-logs'),
      linux: {},
    };
    const sbFile = path.join(dir, 'raw-sandbox.json');
    fs.writeFileSync(sbFile, JSON.stringify(sandbox));
    const ctrFile = path.join(dir, 'raw-container.yaml');
    fs.writeFileSync(
      ctrFile,
      `metadata:\n  name: raw\nimage:\n  image: ${BUSYBOX_IMAGE}\ncommand: [sh, -c, "sleep 1"]\nlog_path: raw/0.log\n`,
    );
    const d = await run(['runp', '--dry-run', sbFile]);
    assert.equal(JSON.parse(d.stdout).config.logDirectory, sandbox.log_directory);
    const p = await run(['runp', sbFile]);
    assert.equal(p.code, 0, p.stderr);
    const pod = p.stdout.trim();
    const c = await run(['create', pod, ctrFile, sbFile]);
    assert.equal(c.code, 0, c.stderr);
    const insp = JSON.parse((await run(['inspect', c.stdout.trim()])).stdout);
    assert.equal(insp.status.metadata.name, 'raw');
    assert.equal(insp.status.logPath, `${sandbox.log_directory}/raw/0.log`);
    assert.deepEqual(insp.status.labels, {});
    assert.equal((await run(['rmp', '-f', pod])).stdout, `Removed sandbox ${pod}\n`);
  });
  test('a bad field in a config file is a one-line error naming file and field', async () => {
    const bad = path.join(dir, 'bad-sandbox.json');
    fs.writeFileSync(bad, JSON.stringify({ metadata: { name: 'x' }, linux: { nonsense: 1 } }));
    assertOneLineError(await run(['runp', bad]), /bad-sandbox\.json.*linux\.nonsense/);
  });
  // The lab has no registry and containerd's PullImage always resolves the reference remotely, so
  // a successful pull ("Image is up to date for ...") cannot be shown here; the request and the
  // error path can.
  test('pull: --dry-run request with credentials; a registry failure is a one-line error', async () => {
    const d = await run(['pull', '--dry-run', '--creds', 'me:secret', BUSYBOX_IMAGE]);
    const req = JSON.parse(d.stdout);
    assert.equal(req.image.image, BUSYBOX_IMAGE);
    assert.equal(req.auth.username, 'me');
    assert.match(req.auth.password, /^<redacted/, 'the password is not printed without --show-secrets');
    const shown = JSON.parse(
      (await run(['pull', '--dry-run', '--show-secrets', '--creds', 'me:secret', BUSYBOX_IMAGE])).stdout,
    );
    assert.equal(shown.auth.password, 'secret');
    assertOneLineError(
      await run(['pull', '--creds', 'a:b', '--auth', 'eA==', BUSYBOX_IMAGE]),
      /both --creds and --auth/,
    );
    assertOneLineError(await run(['pull', 'localhost/syncpod/absent:1']), /^syncpod: pulling image: /);
  });
  test('rmi removes an image by reference and prints its tags', async () => {
    lab.tagImage(BUSYBOX_IMAGE, 'localhost/syncpod/extra:1');
    const before = JSON.parse((await run(['images', '-o', 'json'])).stdout).images.length;
    const r = await run(['rmi', 'localhost/syncpod/extra:1']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Deleted: localhost\/syncpod\/extra:1/);
    assertOneLineError(await run(['rmi', 'localhost/syncpod/extra:1']), /no such image/);
    assert.ok(JSON.parse((await run(['images', '-o', 'json'])).stdout).images.length <= before);
  });
});
