// The container image: `npm run image`'s archive imported into a real runtime (ctr; skopeo for CRI-O), run as a
// pod by syncpod's own sync with the lab's socket mounted, its output against syncpod on the host.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { labRuntime, startLab, type Lab } from '../harness/lab';
import { syncpod } from './helpers';
import { nodeFlags } from './sync-helpers';

const ROOT = path.join(__dirname, '..', '..');
const ARCHIVE = path.join(ROOT, 'dist', 'syncpod-image.tar');
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;
const IMAGE = `docker.io/library/syncpod:${VERSION}`;

let lab: Lab;
let dir: string;

/**
 * CRI-O bind-mounts a host path that holds its storage root (here the node's /) with HostToContainer
 * propagation and refuses it unless that path's mount is shared or slave (containerd does not ask).
 * Nodes under systemd have / shared; this test machine's / is private, so on CRI-O here the pods
 * that mount / are refused, and the tests assert what syncpod then reports.
 */
function crioRefusesHostRoot(): boolean {
  if (labRuntime().kind !== 'crio') return false;
  const root = fs
    .readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .find((l) => l.split(' ')[4] === '/');
  return !!root && !/ (shared|master):\d+/.test(root.split(' - ')[0]);
}
const HOST_ROOT_REFUSED = /CreateContainerError .*path "\/" is mounted on "\/" but it is not a shared or slave mount/s;
const run = (args: string[]) => syncpod(args, { env: lab.env, timeoutMs: 120000 });

/**
 * A pod running the image once: the lab's socket at the containerd-default path under /host, or
 * (wholeHost) the node's / at /host, as deploy/ mounts it.
 */
function imagePod(name: string, args: string[], wholeHost = false): string {
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'e2e-image' },
      spec: {
        restartPolicy: 'Never',
        terminationGracePeriodSeconds: 1,
        containers: [
          {
            name: 'syncpod',
            image: `syncpod:${VERSION}`,
            imagePullPolicy: 'Never',
            args,
            env: wholeHost
              ? []
              : [{ name: 'CONTAINER_RUNTIME_ENDPOINT', value: 'unix:///host/run/containerd/containerd.sock' }],
            volumeMounts: wholeHost
              ? [{ name: 'host', mountPath: '/host', readOnly: true }]
              : [{ name: 'cri', mountPath: '/host/run/containerd/containerd.sock' }],
          },
        ],
        volumes: wholeHost
          ? [{ name: 'host', hostPath: { path: '/', type: 'Directory' } }]
          : [{ name: 'cri', hostPath: { path: lab.socket, type: 'Socket' } }],
      },
    }),
  );
  return file;
}

/** Syncs the pod, waits for its container to exit and returns its log text and exit code. */
async function runInImage(name: string, args: string[], wholeHost = false): Promise<{ log: string; exitCode: number }> {
  const file = imagePod(name, args, wholeHost);
  const s = await run(['sync', '-y', ...nodeFlags(lab), file]);
  assert.equal(s.code, 0, s.stdout + s.stderr);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ps = JSON.parse(
      (await run(['ps', '-a', '-o', 'json', '--label', `io.kubernetes.pod.name=${name}`])).stdout,
    ).containers;
    assert.equal(ps.length, 1);
    if (ps[0].state === 'CONTAINER_EXITED') {
      const insp = JSON.parse((await run(['inspect', ps[0].id])).stdout);
      const logs = await run(['logs', ps[0].id]);
      const why = `${insp.status.reason ?? ''} ${insp.status.message ?? ''}`.trim();
      const failed = insp.status.exitCode !== 0;
      return { log: failed ? `${logs.stdout}${logs.stderr}\n(${why})` : logs.stdout, exitCode: insp.status.exitCode };
    }
    assert.ok(Date.now() < deadline, 'the image container did not exit within 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
}

before(async () => {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'image.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
  lab = await startLab();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-image-e2e-'));
});
after(async () => {
  await lab?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('image', () => {
  test('the archive is an OCI image that ctr (CRI-O: skopeo) imports under syncpod:VERSION, well under 100 MB', async () => {
    assert.ok(fs.statSync(ARCHIVE).size < 60e6, `archive is ${fs.statSync(ARCHIVE).size} bytes`);
    lab.importOciArchive(ARCHIVE, IMAGE);
    if (labRuntime().kind !== 'crio')
      assert.match(lab.ctr(['images', 'ls', '-q']), new RegExp(`^${IMAGE.replace(/[.]/g, '\\.')}$`, 'm'));
    // Asked of the runtime by the short name the pods use (CRI-O resolves it through registries.conf).
    const i = await run(['inspecti', '-o', 'json', `syncpod:${VERSION}`]);
    assert.equal(i.code, 0, i.stderr);
    assert.ok(JSON.parse(i.stdout).status.repoTags.includes(IMAGE), i.stdout);
  });

  test('run as a pod with the runtime socket mounted, `pods -o json` equals the host run', async () => {
    const inside = await runInImage('lister', ['pods', '-o', 'json']);
    assert.equal(inside.exitCode, 0, inside.log);
    const host = await run(['pods', '-o', 'json']);
    assert.equal(host.code, 0, host.stderr);
    assert.deepEqual(JSON.parse(inside.log), JSON.parse(host.stdout));
    assert.ok(
      JSON.parse(host.stdout).items.some((p: any) => p.metadata.name === 'lister'),
      'it lists its own pod',
    );
  });

  test('syncpod --version inside the image is the package version', async () => {
    const v = await runInImage('version', ['--version']);
    assert.equal(v.exitCode, 0);
    assert.equal(v.log.trim(), VERSION);
  });
});

describe('image with --host-root', () => {
  test("the node's / at /host: the socket (a node path) and a log file the runtime reports are read under it", async () => {
    const ps = JSON.parse(
      (await run(['ps', '-a', '-o', 'json', '--label', 'io.kubernetes.pod.name=version'])).stdout,
    ).containers;
    assert.equal(ps.length, 1, 'the version pod of the test before');
    const root = ['--host-root', '/host', '-r', lab.endpoint];
    if (crioRefusesHostRoot()) {
      const s = await run([
        'sync',
        '-y',
        ...nodeFlags(lab),
        imagePod('hostroot-logs', [...root, 'logs', ps[0].id], true),
      ]);
      assert.equal(s.code, 1, s.stdout + s.stderr);
      assert.match(s.stdout.replace(/\s+/g, ' '), HOST_ROOT_REFUSED);
      return;
    }
    const logs = await runInImage('hostroot-logs', [...root, 'logs', ps[0].id], true);
    assert.equal(logs.exitCode, 0, logs.log);
    assert.equal(logs.log.trim(), VERSION);
    const pods = await runInImage('hostroot-pods', [...root, 'pods', '-o', 'json'], true);
    assert.equal(pods.exitCode, 0, pods.log);
    const host = await run(['pods', '-o', 'json']);
    assert.deepEqual(JSON.parse(pods.log), JSON.parse(host.stdout));
  });
});

describe('deploy/', () => {
  const DEPLOY = path.join(ROOT, 'deploy');
  const manifests = fs
    .readdirSync(DEPLOY)
    .filter((f) => f.endsWith('.yaml'))
    .sort();

  test("every manifest in deploy/ plans cleanly and names this version's image", async () => {
    assert.deepEqual(manifests, ['daemonset.yaml', 'debug-pod.yaml']);
    for (const f of manifests) {
      const r = await run(['plan', ...nodeFlags(lab), path.join(DEPLOY, f)]);
      assert.equal(r.code, 0, `${f}: ${r.stderr}`);
      assert.equal(r.stderr, '', f);
      assert.match(
        fs.readFileSync(path.join(DEPLOY, f), 'utf8'),
        new RegExp(`image: syncpod:${VERSION.replace(/\./g, '\\.')}\\n`),
        f,
      );
    }
    assert.match(
      fs.readFileSync(path.join(DEPLOY, 'kubectl-syncpod'), 'utf8'),
      new RegExp(`SYNCPOD_IMAGE:-syncpod:${VERSION.replace(/\./g, '\\.')}\\}`),
    );
  });

  test("the DaemonSet's pod template, synced onto the runtime, logs a node plan that report reads", async () => {
    // The template as shipped, plus what an operator with a non-default socket adds: the endpoint
    // (a node path, read under --host-root /host).
    const { parseDocument } = await import('yaml');
    const doc = parseDocument(fs.readFileSync(path.join(DEPLOY, 'daemonset.yaml'), 'utf8')).toJS();
    for (const c of doc.spec.template.spec.containers)
      c.env.push({ name: 'CONTAINER_RUNTIME_ENDPOINT', value: lab.endpoint });
    const file = path.join(dir, 'daemonset.json');
    fs.writeFileSync(file, JSON.stringify(doc));
    const s = await run(['sync', '-y', ...nodeFlags(lab), file]);
    if (crioRefusesHostRoot()) {
      assert.equal(s.code, 1, s.stdout + s.stderr);
      assert.match(s.stdout.replace(/\s+/g, ' '), HOST_ROOT_REFUSED);
      return;
    }
    assert.equal(s.code, 0, s.stdout + s.stderr);
    const all = JSON.parse(
      (await run(['ps', '-o', 'json', '--label', 'io.kubernetes.pod.namespace=kube-system'])).stdout,
    ).containers;
    assert.deepEqual(all.map((c: any) => c.metadata.name).sort(), ['doctor', 'syncpod']);
    for (const c of all)
      assert.equal(c.state, 'CONTAINER_RUNNING', `${c.metadata.name}: --every keeps the container running`);
    const ps = all.filter((c: any) => c.metadata.name === 'syncpod');
    const podName = JSON.parse((await run(['inspectp', ps[0].podSandboxId])).stdout).status.metadata.name;
    // As kubectl logs --all-containers --prefix prints both containers' lines.
    const prefixed: string[] = [];
    for (const c of all) {
      let line = '';
      for (const deadline = Date.now() + 60_000; line === '' && Date.now() < deadline; ) {
        line = (await run(['logs', c.id])).stdout.split('\n').find((l) => l.startsWith('{')) ?? '';
        if (line === '') await new Promise((r) => setTimeout(r, 300));
      }
      assert.notEqual(line, '', `${c.metadata.name}: a JSON line in the container log within 60 s`);
      const logs = (await run(['logs', c.id])).stdout;
      prefixed.push(
        ...logs
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => `[pod/${podName}/${c.metadata.name}] ${l}`),
      );
    }
    const rep = await syncpod(['report', '-o', 'json', '-'], { env: lab.env, input: `${prefixed.join('\n')}\n` });
    assert.equal(rep.code, 0, rep.stderr);
    const fleet = JSON.parse(rep.stdout);
    assert.equal(fleet.nodes.length, 1);
    const n = fleet.nodes[0];
    assert.equal(n.node, 'e2e-node', 'the node name came through the downward API and $(NODE_NAME)');
    assert.deepEqual(n.errors, []);
    assert.ok(
      n.orphanPods.some((o: string) => o.startsWith(`kube-system/${podName} `)),
      `its own pod is an orphan (no static pods, no Pods API): ${n.orphanPods}`,
    );
    assert.ok(n.doctor, "the doctor container's report is merged beside the plan");
    assert.ok(
      n.doctor.findings.some((f: string) => /^warn pods\.orphans: /.test(f)),
      `doctor found the same orphan: ${n.doctor.findings}`,
    );
  });
});
