// The read commands against a real containerd: what an operator sees in tables and what a script
// reads from -o json (crictl's shapes: protobuf JSON names, enum names, int64 as strings, empty maps).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BUSYBOX_IMAGE, BUSYBOX_IMAGE_2, PAUSE_IMAGE, labRuntime, startLab, type Lab } from '../harness/lab';
import { CriService, type ImageMethods, type RuntimeMethods } from '../../src/cri/grpc-runtime-service';
import { assertOneLineError, syncpod } from './helpers';
import { kubeletSandboxConfig, runKubeletContainer, waitFor, type KubeletSandboxConfig } from './cri-pods';

let lab: Lab;
let rt: CriService<RuntimeMethods>;
const ids: { podA: string; podB: string; running: string; exited: string; logger: string } = {
  podA: '',
  podB: '',
  running: '',
  exited: '',
  logger: '',
};

const sandboxConfig = (name: string, uid: string, labels: Record<string, string> = {}) =>
  kubeletSandboxConfig(lab, { name, namespace: 'team-a', uid }, { labels });

const runContainer = (podId: string, sb: KubeletSandboxConfig, name: string, command: string[], attempt = 0) =>
  runKubeletContainer(rt, podId, sb, name, command, { attempt });

const run = (args: string[]) => syncpod(args, { env: lab.env });

before(async () => {
  lab = await startLab();
  rt = new CriService<RuntimeMethods>(lab.endpoint, 'RuntimeService', { timeoutMs: 30000 });
  const a = sandboxConfig('web', 'uid-web-1', { app: 'web', tier: 'front' });
  const b = sandboxConfig('db', 'uid-db-1', { app: 'db' });
  ids.podA = (await rt.call('RunPodSandbox', { config: a }, { timeoutMs: 60000 })).podSandboxId;
  ids.podB = (await rt.call('RunPodSandbox', { config: b }, { timeoutMs: 60000 })).podSandboxId;
  ids.running = await runContainer(ids.podA, a, 'app', ['sh', '-c', 'sleep 3600']);
  ids.exited = await runContainer(ids.podA, a, 'once', ['sh', '-c', 'echo done; exit 3']);
  ids.logger = await runContainer(ids.podB, b, 'logger', [
    'sh',
    '-c',
    'echo first; echo to-stderr >&2; printf "partial-"; sleep 0.2; echo joined; for i in 1 2 3 4 5; do echo line-$i; done; sleep 3600',
  ]);
  await waitFor(
    async () => (await rt.call('ContainerStatus', { containerId: ids.exited })).status?.state === 'CONTAINER_EXITED',
    'the once container to exit',
  );
  const logPath = path.join(b.logDirectory, 'logger/0.log');
  await waitFor(
    async () => fs.existsSync(logPath) && fs.readFileSync(logPath, 'utf8').includes('line-5'),
    'the logger output',
  );
  await rt.call('StopPodSandbox', { podSandboxId: ids.podB }, { timeoutMs: 30000 });
});

after(async () => {
  rt?.close();
  await lab?.stop();
});

describe('version and info', () => {
  test("version prints crictl's four lines (the CRI API in use only on stderr, and only when not v1)", async () => {
    const r = await run(['version']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      labRuntime().kind === 'crio'
        ? /^Version:  0\.1\.0\nRuntimeName:  cri-o\nRuntimeVersion:  1\.34\.0\nRuntimeApiVersion:  v1\n$/
        : /^Version:  0\.1\.0\nRuntimeName:  containerd\nRuntimeVersion:  \S+\nRuntimeApiVersion:  v1\n$/,
    );
    assert.equal(r.stderr, '');
  });

  test('info reports the runtime conditions', async () => {
    const r = await run(['info']);
    assert.equal(r.code, 0, r.stderr);
    const info = JSON.parse(r.stdout);
    const types = info.status.conditions.map((c: { type: string }) => c.type);
    // containerd 2.x adds a condition of its own: false here, as it warns of cgroup v1 on this host.
    const extra = labRuntime().kind === 'containerd2' ? ['ContainerdHasNoDeprecationWarnings'] : [];
    assert.deepEqual(types.slice().sort(), [...extra, 'NetworkReady', 'RuntimeReady']);
    assert.ok(info.config, 'containerd verbose info has its config');
  });
});

describe('pods', () => {
  test('the table lists both pods newest first with crictl columns', async () => {
    const r = await run(['pods']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.match(lines[0], /^POD ID\s+CREATED\s+STATE\s+NAME\s+NAMESPACE\s+ATTEMPT\s+RUNTIME$/);
    assert.equal(lines.length, 3);
    assert.ok(lines[1].startsWith(ids.podB.slice(0, 13) + ' '), 'newest (db) first');
    assert.match(lines[1], /NotReady\s+db\s+team-a\s+0\s+\(default\)/);
    assert.match(lines[2], /Ready\s+web\s+team-a\s+0\s+\(default\)/);
  });

  test('-o json has the protobuf JSON shape crictl prints', async () => {
    const r = await run(['pods', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(out), ['items']);
    const web = out.items.find((p: any) => p.id === ids.podA);
    assert.deepEqual(Object.keys(web), [
      'id',
      'metadata',
      'state',
      'createdAt',
      'labels',
      'annotations',
      'runtimeHandler',
    ]);
    assert.deepEqual(web.metadata, { name: 'web', uid: 'uid-web-1', namespace: 'team-a', attempt: 0 });
    assert.equal(web.state, 'SANDBOX_READY');
    assert.match(web.createdAt, /^\d{19}$/);
    assert.deepEqual(web.annotations, {});
    assert.equal(web.runtimeHandler, '');
    assert.equal(web.labels.app, 'web');
  });

  test('-o yaml carries the same fields', async () => {
    const r = await run(['pods', '-o', 'yaml', '--name', '^web$']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^items:\n- annotations: \{\}\n/);
    assert.match(r.stdout, /state: SANDBOX_READY/);
    assert.match(r.stdout, /createdAt: "\d{19}"/);
  });

  test('filters: state, label, name and namespace regex, id prefix, -q, --latest, --no-trunc', async () => {
    assert.equal((await run(['pods', '-q', '--state', 'ready'])).stdout, `${ids.podA}\n`);
    assert.equal((await run(['pods', '-q', '--label', 'app=db'])).stdout, `${ids.podB}\n`);
    assert.equal((await run(['pods', '-q', '--label', 'app=web', '--label', 'tier=front'])).stdout, `${ids.podA}\n`);
    assert.equal((await run(['pods', '-q', '--label', 'app=web', '--label', 'tier=back'])).stdout, '');
    assert.equal(
      (await run(['pods', '-q', '--label', 'app=web, tier=front'])).stdout,
      `${ids.podA}\n`,
      "crictl's string slices split on commas",
    );
    assert.equal((await run(['pods', '-q', '--label', 'app=web,tier=back'])).stdout, '');
    assert.equal((await run(['pods', '-q', '--name', 'w.b'])).stdout, `${ids.podA}\n`);
    assert.equal((await run(['pods', '-q', '--namespace', '^team-b$'])).stdout, '');
    assert.equal((await run(['pods', '-q', '--id', ids.podB.slice(0, 6)])).stdout, `${ids.podB}\n`);
    assert.equal((await run(['pods', '-q', '--latest'])).stdout, `${ids.podB}\n`);
    assert.equal((await run(['pods', '-q', '--last', '2'])).stdout, `${ids.podB}\n${ids.podA}\n`);
    const wide = await run(['pods', '--no-trunc', '--name', 'web']);
    assert.ok(wide.stdout.includes(ids.podA));
  });

  test('a bad --state is a one-line error', async () => {
    assertOneLineError(await run(['pods', '--state', 'sleepy']), /--state/);
  });
});

describe('inspectp', () => {
  test('by unique prefix: status with RFC 3339 times and containerd verbose info', async () => {
    const r = await run(['inspectp', ids.podA.slice(0, 8)]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.status.id, ids.podA);
    assert.equal(out.status.state, 'SANDBOX_READY');
    assert.match(out.status.createdAt, /^\d{4}-\d\d-\d\dT/);
    assert.match(out.status.network.ip, /^10\.231\./);
    // containerd 1.6 and CRI-O report the namespace options they ran the sandbox with; 2.x leaves them out.
    if (labRuntime().kind !== 'containerd2') assert.equal(out.status.linux.namespaces.options.network, 'POD');
    else assert.deepEqual(out.status.linux, { namespaces: {} });
    assert.equal(typeof out.info.pid, 'number');
    assert.ok(out.info.pid > 0, 'the verbose info names the sandbox process');
  });

  test('several ids print an array; -q leaves out the verbose info', async () => {
    const r = await run(['inspectp', '-q', ids.podA, ids.podB]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.length, 2);
    // containerd 1.6 and CRI-O send no info without verbose; 2.x sends its info keys with empty values.
    if (labRuntime().kind !== 'containerd2') assert.deepEqual(Object.keys(out[0]), ['status']);
    else
      assert.deepEqual([Object.keys(out[0]), out[0].info.pid, out[0].info.runtimeSpec], [['info', 'status'], 0, null]);
  });

  test('an unknown or ambiguous prefix is a one-line error', async () => {
    assertOneLineError(await run(['inspectp', 'zzzz']), /no pod sandbox matches ID prefix "zzzz"/);
    const common = [...ids.podA].findIndex((ch, i) => ids.podB[i] !== ch);
    if (common > 0) assertOneLineError(await run(['inspectp', ids.podA.slice(0, common)]), /ambiguous/);
    assertOneLineError(await run(['inspectp', '']), /ID cannot be empty/);
  });

  test('no id and no filter flag is crictl 1.26\'s "ID cannot be empty", not help with exit 0', async () => {
    for (const cmd of ['inspectp', 'inspect', 'inspecti']) assertOneLineError(await run([cmd]), /ID cannot be empty/);
    assertOneLineError(await run(['rmp']), /^syncpod: ID cannot be empty \(name pod sandboxes, or -a for all\)$/);
  });

  test('without ids the filter flags choose the pods (crictl >= 1.31); nothing kept is an error', async () => {
    const names = async (args: string[]) => {
      const r = await run(['inspectp', '-q', '-o', 'go-template', '--template', '{{.status.metadata.name}}', ...args]);
      assert.equal(r.code, 0, r.stderr);
      return r.stdout;
    };
    assert.equal(await names(['--namespace', '^team-a$', '--latest']), 'db\n');
    assert.equal(await names(['--state', 'ready']), 'web\n');
    assert.equal(await names(['--label', 'app=db']), 'db\n');
    assert.equal(await names(['--name', 'w.b']), 'web\n');
    assert.equal(await names(['--last', '2']), 'db\nweb\n', 'newest first, one result per pod');
    assertOneLineError(await run(['inspectp', '--name', '^nobody$']), /nothing found per filter/);
  });
});

describe('ps', () => {
  test('running containers by default, all with -a, crictl columns', async () => {
    const r = await run(['ps']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.match(lines[0], /^CONTAINER\s+IMAGE\s+CREATED\s+STATE\s+NAME\s+ATTEMPT\s+POD ID\s+POD\s+NAMESPACE$/);
    assert.equal(lines.length, 2, r.stdout);
    assert.match(lines[1], /Running\s+app\s+0\s+\S+\s+web\s+team-a$/);
    const all = await run(['ps', '-a']);
    assert.equal(all.stdout.trimEnd().split('\n').length, 4, all.stdout);
    assert.match(all.stdout, /Exited\s+once/);
  });

  test('-o json: {"containers": [...]} with crictl field names', async () => {
    const r = await run(['ps', '-a', '-o', 'json']);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(out), ['containers']);
    const once = out.containers.find((c: any) => c.id === ids.exited);
    assert.deepEqual(Object.keys(once), [
      'id',
      'podSandboxId',
      'metadata',
      'image',
      'imageRef',
      'state',
      'createdAt',
      'labels',
      'annotations',
      'imageId',
    ]);
    assert.equal(once.state, 'CONTAINER_EXITED');
    assert.equal(once.metadata.attempt, 0);
    assert.equal(once.image.image, BUSYBOX_IMAGE.replace(/^localhost\//, 'localhost/'));
  });

  test('filters: --pod prefix, --name, --state, --label, --image, -q', async () => {
    assert.equal((await run(['ps', '-a', '-q', '--pod', ids.podB.slice(0, 7)])).stdout, `${ids.logger}\n`);
    assert.equal((await run(['ps', '-a', '-q', '--name', '^once$'])).stdout, `${ids.exited}\n`);
    assert.equal((await run(['ps', '-q', '--state', 'exited'])).stdout.split('\n').filter(Boolean).length, 2);
    assert.equal(
      (await run(['ps', '-a', '-q', '--label', 'io.kubernetes.container.name=app'])).stdout,
      `${ids.running}\n`,
    );
    assert.equal(
      (await run(['ps', '-a', '-q', '--label', 'io.kubernetes.container.name=app,io.kubernetes.pod.name=web'])).stdout,
      `${ids.running}\n`,
    );
    const byImage = (await run(['ps', '-a', '-q', '--image', BUSYBOX_IMAGE])).stdout.split('\n').filter(Boolean);
    assert.equal(byImage.length, 3);
    assert.equal((await run(['ps', '-a', '-q', '--image', PAUSE_IMAGE])).stdout, '');
  });
});

describe('ps -r and inspect by filters', () => {
  test('ps -r shows the first repo tag where the image id was (kubelet creates containers by image id)', async () => {
    const img = await new CriService<ImageMethods>(lab.endpoint, 'ImageService', { timeoutMs: 30000 }).call(
      'ImageStatus',
      { image: { image: BUSYBOX_IMAGE_2 } },
    );
    const sb = sandboxConfig('web', 'uid-web-1', { app: 'web', tier: 'front' });
    const { containerId } = await rt.call(
      'CreateContainer',
      {
        podSandboxId: ids.podA,
        config: {
          metadata: { name: 'by-id', attempt: 0 },
          image: { image: img.image!.id, userSpecifiedImage: BUSYBOX_IMAGE_2 },
          command: ['true'],
        },
        sandboxConfig: sb,
      },
      { timeoutMs: 30000 },
    );
    try {
      const cell = async (args: string[]) => {
        const r = await run(['ps', '-a', '--id', containerId, ...args]);
        assert.equal(r.code, 0, r.stderr);
        return r.stdout
          .trimEnd()
          .split('\n')[1]
          .split(/\s{3,}/)[1];
      };
      // crictl shortens a digest (containerd's sha256:… id) and shows CRI-O's bare id whole.
      const id = img.image!.id;
      assert.equal(await cell([]), id.startsWith('sha256:') ? id.slice('sha256:'.length, 'sha256:'.length + 13) : id);
      assert.equal(await cell(['--no-trunc']), img.image!.id);
      assert.equal(await cell(['-r']), img.image!.repoTags[0]);
      assert.equal(await cell(['--no-trunc', '--resolve-image-path']), img.image!.repoTags[0]);
    } finally {
      await rt.call('RemoveContainer', { containerId }, { timeoutMs: 30000 });
    }
  });

  test('inspect without ids: running by default, -a every state, --latest, --pod, --state (crictl >= 1.31)', async () => {
    const ids_ = async (args: string[]) => {
      const r = await run(['inspect', '-q', '-o', 'go-template', '--template', '{{.status.id}}', ...args]);
      assert.equal(r.code, 0, r.stderr);
      return r.stdout.trimEnd().split('\n').sort();
    };
    assert.deepEqual(await ids_(['--pod', ids.podA.slice(0, 8)]), [ids.running]);
    assert.deepEqual(await ids_(['--pod', ids.podA.slice(0, 8), '-a']), [ids.running, ids.exited].sort());
    assert.deepEqual(await ids_(['--state', 'exited']), [ids.exited, ids.logger].sort());
    assert.deepEqual(await ids_(['--latest']), [ids.logger], 'the newest container in any state');
    assert.deepEqual(await ids_(['-a', '--name', '^once$']), [ids.exited]);
    assert.deepEqual(
      await ids_(['-a', '--image', BUSYBOX_IMAGE, '--namespace', 'team-a', '--label', 'io.kubernetes.pod.name=db']),
      [ids.logger],
    );
    assertOneLineError(await run(['inspect', '-a', '--image', PAUSE_IMAGE]), /nothing found per filter/);
  });

  test('inspecti without arguments: the images --filter keeps', async () => {
    const r = await run(['inspecti', '-q', '-f', 'dangling=false']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    const listed = JSON.parse((await run(['images', '-o', 'json'])).stdout).images.map((i: any) => i.id);
    assert.deepEqual(
      out.map((o: any) => o.status.id),
      listed,
    );
    assertOneLineError(await run(['inspecti', '-f', 'dangling=true']), /nothing found per filter/);
  });
});

describe('inspect and logs', () => {
  test('inspect shows exit code and finish time of an exited container', async () => {
    const r = await run(['inspect', ids.exited.slice(0, 10)]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.status.state, 'CONTAINER_EXITED');
    assert.equal(out.status.exitCode, 3);
    assert.match(out.status.finishedAt, /^\d{4}-/);
    assert.ok(out.status.logPath.endsWith('once/0.log'));
  });

  test('logs: stdout and stderr to their streams, partial lines joined', async () => {
    const r = await run(['logs', ids.logger]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'first\npartial-joined\nline-1\nline-2\nline-3\nline-4\nline-5\n');
    assert.equal(r.stderr, 'to-stderr\n');
  });

  test('logs --tail and --timestamps', async () => {
    const r = await run(['logs', '--tail', '2', '--timestamps', ids.logger]);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 2);
    assert.match(lines[0], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z line-4$/);
    assert.match(lines[1], / line-5$/);
  });

  test('logs --since in the future prints nothing', async () => {
    const r = await run(['logs', '--since', new Date(Date.now() + 3600_000).toISOString(), ids.logger]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
  });

  test('logs -f follows a running container and returns when it exits', async () => {
    const a = sandboxConfig('web', 'uid-web-1', { app: 'web', tier: 'front' });
    const id = await runContainer(ids.podA, a, 'counter', [
      'sh',
      '-c',
      'for i in 1 2 3 4; do echo tick-$i; sleep 0.4; done',
    ]);
    const r = await run(['logs', '-f', id]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'tick-1\ntick-2\ntick-3\ntick-4\n');
    assert.equal((await rt.call('ContainerStatus', { containerId: id })).status?.state, 'CONTAINER_EXITED');
  });

  test('a large log arrives whole', async () => {
    const a = sandboxConfig('web', 'uid-web-1', { app: 'web', tier: 'front' });
    const id = await runContainer(ids.podA, a, 'bulk', [
      'sh',
      '-c',
      'i=0; while [ $i -lt 6000 ]; do echo "line $i of a long log that fills more than one pipe buffer"; i=$((i+1)); done',
    ]);
    await waitFor(
      async () => (await rt.call('ContainerStatus', { containerId: id })).status?.state === 'CONTAINER_EXITED',
      'bulk to exit',
    );
    const r = await run(['logs', id]);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.equal(lines.length, 6001, `got ${r.stdout.length} bytes`);
    assert.equal(lines[5999], 'line 5999 of a long log that fills more than one pipe buffer');
  });

  test('logs --previous reads the earlier instance of the same container in the pod', async () => {
    const a = sandboxConfig('web', 'uid-web-1', { app: 'web', tier: 'front' });
    const first = await runContainer(ids.podA, a, 'again', ['sh', '-c', 'echo first run']);
    await waitFor(
      async () => (await rt.call('ContainerStatus', { containerId: first })).status?.state === 'CONTAINER_EXITED',
      'first run',
    );
    const second = await runContainer(ids.podA, a, 'again', ['sh', '-c', 'echo second run'], 1);
    await waitFor(
      async () => (await rt.call('ContainerStatus', { containerId: second })).status?.state === 'CONTAINER_EXITED',
      'second run',
    );
    assert.equal((await run(['logs', second])).stdout, 'second run\n');
    assert.equal((await run(['logs', '--previous', second])).stdout, 'first run\n');
    assertOneLineError(await run(['logs', '--previous', first]), /has no previous instance in its pod/);
    // The earlier container removed (its log file stays, as kubelet leaves it until GC): crictl's <attempt-1>.log.
    await rt.call('RemoveContainer', { containerId: first }, { timeoutMs: 30000 });
    assert.equal((await run(['logs', '--previous', second])).stdout, 'first run\n');
  });

  test('logs --pod NAME -n NS --container NAME, as exec resolves names; --previous by names; errors in one line', async () => {
    const a = sandboxConfig('web', 'uid-web-1', { app: 'web', tier: 'front' });
    const first = await runContainer(ids.podA, a, 'named', ['sh', '-c', 'echo named first']);
    await waitFor(
      async () => (await rt.call('ContainerStatus', { containerId: first })).status?.state === 'CONTAINER_EXITED',
      'named first',
    );
    const second = await runContainer(ids.podA, a, 'named', ['sh', '-c', 'echo named second'], 1);
    await waitFor(
      async () => (await rt.call('ContainerStatus', { containerId: second })).status?.state === 'CONTAINER_EXITED',
      'named second',
    );
    const byNames = ['--pod', 'web', '-n', 'team-a', '--container', 'named'];
    let r = await run(['logs', ...byNames]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'named second\n', 'the newest instance');
    assert.equal((await run(['logs', '--previous', ...byNames])).stdout, 'named first\n');
    // The earlier container removed: the <attempt-1> log file, as by ID.
    await rt.call('RemoveContainer', { containerId: first }, { timeoutMs: 30000 });
    r = await run(['logs', '-p', ...byNames]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'named first\n');
    // The running container of the pod, and a pod whose sandbox is stopped (db): its logs stay readable.
    r = await run(['logs', '--tail', '1', '--pod', 'db', '--namespace', 'team-a', '--container', 'logger']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'line-5\n');
    r = await run(['logs', '--pod', 'db', '-n', 'team-a']);
    assert.equal(r.code, 0, 'one container: --container may be left out');
    assert.match(r.stdout, /^first\n/);
    // One line each: no such pod, no such container, several containers, names mixed with an ID.
    assertOneLineError(
      await run(['logs', '--pod', 'nope', '-n', 'team-a']),
      /^syncpod: no pod sandbox named team-a\/nope$/,
    );
    assertOneLineError(await run(['logs', '--pod', 'web']), /^syncpod: no pod sandbox named default\/web$/);
    assertOneLineError(
      await run(['logs', '--pod', 'web', '-n', 'team-a', '--container', 'nope']),
      /^syncpod: pod team-a\/web has no container named "nope"$/,
    );
    assertOneLineError(
      await run(['logs', '--pod', 'web', '-n', 'team-a']),
      /^syncpod: pod team-a\/web has several containers; choose one with --container \(.*\bapp\b.*\bnamed\b.*\)$/,
    );
    assertOneLineError(await run(['logs', '--container', 'app']), /--container needs --pod/);
    assertOneLineError(await run(['logs', '-n', 'team-a', ids.running]), /--namespace needs --pod/);
    assertOneLineError(await run(['logs']), /a container ID \(or --pod NAME --container NAME\) is required/);
    assertOneLineError(
      await run(['logs', '--pod', 'web', '-n', 'team-a', ids.running]),
      /give a container ID or --pod NAME --container NAME, not both/,
    );
  });

  test('logs -f of an exited container returns after the last line', async () => {
    const r = await run(['logs', '-f', ids.exited]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'done\n');
  });
});

describe('images', () => {
  test('the table and the JSON list the lab images', async () => {
    const r = await run(['images']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout.split('\n')[0], /^IMAGE\s+TAG\s+IMAGE ID\s+SIZE$/);
    assert.match(r.stdout, /localhost\/syncpod\/busybox\s+1\.36\s+[0-9a-f]{13}\s+\S+/);
    const j = JSON.parse((await run(['images', '-o', 'json'])).stdout);
    assert.deepEqual(Object.keys(j), ['images']);
    const bb = j.images.find((i: any) => i.repoTags.includes(BUSYBOX_IMAGE));
    assert.match(bb.id, labRuntime().kind === 'crio' ? /^[0-9a-f]{64}$/ : /^sha256:[0-9a-f]{64}$/);
    assert.match(bb.size, /^\d+$/);
  });

  test('images --filter dangling and reference (crictl matches the repo-digest name); a bad filter is one line', async () => {
    const all = (await run(['images', '-q'])).stdout;
    assert.ok(all.length > 0);
    assert.equal((await run(['images', '-q', '--filter', 'dangling=false'])).stdout, all, 'every lab image is tagged');
    assert.equal((await run(['images', '-q', '--filter', 'dangling=true'])).stdout, '');
    assert.equal((await run(['images', '-q', '--filter', 'reference=^no-such-repo$'])).stdout, '');
    assertOneLineError(await run(['images', '--filter', 'colour=blue']), /unknown filter flag: colour=blue/);
  });

  test('inspecti by reference, and a missing image is a one-line error', async () => {
    const r = await run(['inspecti', PAUSE_IMAGE]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.ok(out.status.repoTags.includes(PAUSE_IMAGE));
    assertOneLineError(await run(['inspecti', 'localhost/nope:1']), /no such image/);
  });
});
