// The attacks of issue 27 on a real containerd: a pod's own init container plants a symbolic link
// to a host directory or file in an emptyDir, and another container reaches it through subPath or
// fileKeyRef; a uid shaped like a path. Each must end with kubelet's answer or one clear line, and
// the host directory or file (made by this test in a temp dir) is never exposed, read or written.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUSYBOX_IMAGE, startLab, type Lab } from '../harness/lab';
import { assertOneLineError, createdWith, syncpod } from './helpers';
import { LOOP, nodeFlags } from './sync-helpers';

let lab: Lab;
let dir: string;
/** Stands for a host directory and a host file the pod must never reach. */
let hostDir: string;
let hostFile: string;
const HOST_SECRET = 'host-only-value-5f1c';
const run = (args: string[]) => syncpod(args, { env: lab.env, netns: lab.netns, timeoutMs: 120000 });

before(async () => {
  lab = await startLab();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-paths-e2e-'));
  hostDir = path.join(dir, 'host-dir');
  fs.mkdirSync(hostDir);
  fs.writeFileSync(path.join(hostDir, 'marker'), 'host directory\n');
  hostFile = path.join(dir, 'host.env');
  fs.writeFileSync(hostFile, `PASSWORD='${HOST_SECRET}'\n`);
});
after(async () => {
  await lab?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function manifest(name: string, spec: object, meta: object = {}): string {
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'e2e', ...meta },
      spec: { restartPolicy: 'Always', terminationGracePeriodSeconds: 1, ...spec },
    }),
  );
  return file;
}

const ctr = (name: string, script: string, extra: object = {}) => ({
  name,
  image: BUSYBOX_IMAGE,
  imagePullPolicy: 'IfNotPresent',
  command: ['sh', '-c', script],
  ...extra,
});

async function containersOf(pod: string): Promise<Array<{ id: string; name: string }>> {
  const r = await run(['ps', '-a', '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout)
    .containers.filter((c: any) => c.labels['io.kubernetes.pod.name'] === pod)
    .map((c: any) => ({ id: c.id, name: c.metadata.name }));
}

/** Every path below `root`, as a sorted list (symbolic links not followed). */
function tree(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    let names: string[] = [];
    try {
      names = fs.readdirSync(d);
    } catch {
      return;
    }
    for (const n of names.sort()) {
      const p = path.join(d, n);
      out.push(p);
      if (fs.lstatSync(p).isDirectory()) walk(p);
    }
  };
  walk(root);
  return out;
}

const mountsUnder = (root: string): string[] =>
  fs
    .readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((l) => l.split(' ')[4] ?? '')
    .filter((m) => m.startsWith(root));

test('subPath through a symlink an init container planted: CreateContainerConfigError with kubelet words, no app container, the host directory untouched', async () => {
  const before = tree(hostDir);
  const file = manifest('subpath-escape', {
    volumes: [{ name: 'v', emptyDir: {} }],
    initContainers: [
      ctr('plant', `ln -s ${hostDir} /v/link && ln -s ${hostDir}/made-by-pod /v/dangling`, {
        volumeMounts: [{ name: 'v', mountPath: '/v' }],
      }),
    ],
    containers: [
      ctr('app', `touch /data/written-by-pod; ${LOOP}`, {
        volumeMounts: [{ name: 'v', mountPath: '/data', subPath: 'link' }],
      }),
      ctr('other', `touch /data/written-by-pod; ${LOOP}`, {
        volumeMounts: [{ name: 'v', mountPath: '/data', subPath: 'dangling' }],
      }),
    ],
  });
  const r = await run(['sync', '-y', '--wait', ...nodeFlags(lab), file]);
  assert.notEqual(r.code, 0, r.stdout + r.stderr);
  const all = r.stdout + r.stderr;
  assert.match(all, /CreateContainerConfigError/);
  assert.match(all, /failed to prepare subPath for volumeMount "v" of container "app"/);
  assert.match(all, /failed to prepare subPath for volumeMount "v" of container "other"/);
  const made = await containersOf('subpath-escape');
  assert.deepEqual(
    made.map((c) => c.name),
    ['plant'],
    'only the init container was created',
  );
  assert.deepEqual(tree(hostDir), before, 'nothing made in the host directory');
  assert.equal(fs.existsSync(path.join(hostDir, 'made-by-pod')), false);
  assert.deepEqual(
    mountsUnder(lab.podDirRoot).filter((m) => m.includes('volume-subpaths')),
    [],
    'no subPath bind mount left',
  );
});

test('a subPath inside the volume is bind-mounted under volume-subpaths with the volume mode, remounted when it changes, and unmounted with the pod', async () => {
  const spec = (sub: string) => ({
    volumes: [{ name: 'v', emptyDir: {} }],
    initContainers: [
      ctr(
        'prepare',
        'mkdir -p /v/real /v/other && echo inside > /v/real/f && echo other > /v/other/f && ln -sfn real /v/inner-link',
        {
          volumeMounts: [{ name: 'v', mountPath: '/v' }],
        },
      ),
    ],
    containers: [
      ctr('app', LOOP, {
        volumeMounts: [
          { name: 'v', mountPath: '/a', subPath: sub },
          { name: 'v', mountPath: '/b', subPath: 'new/deeper' },
        ],
      }),
    ],
  });
  const uidA = '6f1d2c3b-0a9e-4c1d-8e2f-3a4b5c6d7e8f';
  const podDir = path.join(lab.podDirRoot, 'pods', uidA);
  const subpaths = `${podDir}/volume-subpaths`;
  // As kubelet 1.30, whose container hash covers the mounts: a changed subPath restarts the container.
  const v130 = ['--kubelet-version', '1.30'];
  const r = await run([
    'sync',
    '-y',
    '--wait',
    ...v130,
    ...nodeFlags(lab),
    manifest('subpath-ok', spec('inner-link'), { uid: uidA }),
  ]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const appOf = async () => (await containersOf('subpath-ok')).filter((c) => c.name === 'app');
  const [app] = await appOf();
  const insp = JSON.parse((await run(['inspect', app!.id])).stdout);
  const hostPaths = insp.status.mounts.map((m: any) => m.hostPath);
  assert.ok(hostPaths.includes(`${subpaths}/v/app/0`), hostPaths.join(' '));
  assert.ok(hostPaths.includes(`${subpaths}/v/app/1`), hostPaths.join(' '));
  assert.equal((await run(['exec', app!.id, 'cat', '/a/f'])).stdout.trim(), 'inside');
  const emptyDir = `${podDir}/volumes/kubernetes.io~empty-dir/v`;
  assert.equal(fs.statSync(`${emptyDir}/new/deeper`).mode & 0o7777, 0o777, 'made with the volume mode');
  assert.equal(fs.statSync(`${emptyDir}/new`).mode & 0o7777, 0o777, 'each level made with the volume mode');
  assert.deepEqual(mountsUnder(`${subpaths}/`).sort(), [`${subpaths}/v/app/0`, `${subpaths}/v/app/1`]);

  // The same mount index now names another subPath: the new container sees the new one.
  const changed = await run([
    'sync',
    '-y',
    '--wait',
    ...v130,
    ...nodeFlags(lab),
    manifest('subpath-ok', spec('other'), { uid: uidA }),
  ]);
  assert.equal(changed.code, 0, changed.stdout + changed.stderr);
  const running = [];
  for (const c of await appOf()) {
    const st = JSON.parse((await run(['inspect', c.id])).stdout).status;
    if (st.state === 'CONTAINER_RUNNING') running.push(c.id);
  }
  assert.equal(running.length, 1);
  assert.equal((await run(['exec', running[0]!, 'cat', '/a/f'])).stdout.trim(), 'other');

  // Another uid of the same namespace/name: the old pod is removed as a duplicate, its subPath mounts with it.
  const uidB = '0b7c9d1e-2f3a-4b5c-9d6e-7f8a9b0c1d2e';
  const replaced = await run([
    'sync',
    '-y',
    '--wait',
    ...nodeFlags(lab),
    manifest('subpath-ok', spec('real'), { uid: uidB }),
  ]);
  assert.equal(replaced.code, 0, replaced.stdout + replaced.stderr);
  assert.deepEqual(mountsUnder(`${subpaths}/`), [], "the duplicate pod's subPath mounts are gone");
  assert.equal(fs.existsSync(subpaths), false);

  // rmp removes the last sandbox of uidB: its subPath mounts go too.
  const subpathsB = path.join(lab.podDirRoot, 'pods', uidB, 'volume-subpaths');
  assert.equal(mountsUnder(`${subpathsB}/`).length, 2);
  const pods = JSON.parse((await run(['pods', '-o', 'json'])).stdout).items.filter((p: any) => p.metadata.uid === uidB);
  assert.equal(pods.length, 1);
  const rmp = await run(['rmp', '-f', pods[0].id]);
  assert.equal(rmp.code, 0, rmp.stderr);
  assert.deepEqual(mountsUnder(`${subpathsB}/`), []);
  assert.equal(fs.existsSync(subpathsB), false);
});

test('fileKeyRef through a symlink to a host file: an error naming container, variable and volume; the value never reaches a container', async () => {
  const file = manifest('envfile-escape', {
    volumes: [{ name: 'v', emptyDir: {} }],
    initContainers: [ctr('plant', `ln -s ${hostFile} /v/env`, { volumeMounts: [{ name: 'v', mountPath: '/v' }] })],
    containers: [
      ctr('app', LOOP, {
        env: [{ name: 'PASSWORD', valueFrom: { fileKeyRef: { volumeName: 'v', path: 'env', key: 'PASSWORD' } } }],
      }),
    ],
  });
  const r = await run(['sync', '-y', '--wait', '--kubelet-version', '1.35', ...nodeFlags(lab), file]);
  assert.notEqual(r.code, 0, r.stdout + r.stderr);
  const all = r.stdout + r.stderr;
  assert.match(all, /CreateContainerConfigError/);
  assert.match(all, /container app: env PASSWORD: fileKeyRef of volume "v": .*outside the volume/);
  assert.ok(!all.includes(HOST_SECRET), 'the host value is not printed');
  assert.deepEqual(
    (await containersOf('envfile-escape')).map((c) => c.name),
    ['plant'],
  );
  const ps = await run(['ps', '-a', '-q']);
  for (const id of ps.stdout.split('\n').filter(Boolean)) {
    const insp = JSON.parse((await run(['inspect', id])).stdout);
    const envs = createdWith(insp).env.map((kv) => kv.slice(kv.indexOf('=') + 1));
    assert.ok(!envs.includes(HOST_SECRET), `container ${id} holds the host value`);
  }
});

test('uid shaped like a path: refused with one line naming the field, nothing created', async () => {
  const outside = path.join(dir, 'outside');
  const deep = `${'../'.repeat(30)}${outside.slice(1)}/x`;
  for (const uid of ['..', '../../../../../tmp/x', deep]) {
    const beforeRoot = tree(lab.podDirRoot).concat(tree(lab.podLogsRoot));
    const file = manifest('uid-escape', { containers: [ctr('app', LOOP)] }, { uid });
    const r = await run(['sync', '-y', '--cgroups-per-qos=false', ...nodeFlags(lab), file]);
    assertOneLineError(r, /uid-escape\.json: document 1: metadata\.uid: invalid value/);
    assert.deepEqual(tree(lab.podDirRoot).concat(tree(lab.podLogsRoot)), beforeRoot, `uid ${uid}: nothing created`);
    assert.equal(fs.existsSync(outside), false, `uid ${uid}: nothing outside`);
    assert.deepEqual(await containersOf('uid-escape'), []);
  }
});

test('what a sync killed before RunPodSandbox left (pods/<uid> skeleton, empty log directory) goes on the next sync of the same manifest; anything holding a file stays', async () => {
  // The state a sync leaves when killed after makePodDataDirs and the log directory, before RunPodSandbox.
  const killed = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
  const kept = '9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f';
  for (const uid of [killed, kept]) {
    for (const sub of ['volumes', 'plugins'])
      fs.mkdirSync(path.join(lab.podDirRoot, 'pods', uid, sub), { recursive: true, mode: 0o750 });
    fs.mkdirSync(path.join(lab.podLogsRoot, `e2e_residue_${uid}`), { recursive: true, mode: 0o755 });
  }
  // A log file: not residue of a kill before the sandbox, never removed.
  fs.mkdirSync(path.join(lab.podLogsRoot, `e2e_residue_${kept}`, 'app'));
  fs.writeFileSync(path.join(lab.podLogsRoot, `e2e_residue_${kept}`, 'app', '0.log'), 'log\n');
  const r = await run(['sync', '-y', ...nodeFlags(lab), manifest('residue', { containers: [ctr('app', LOOP)] })]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stderr, /removed what an interrupted earlier sync of e2e\/residue left/);
  assert.equal(fs.existsSync(path.join(lab.podDirRoot, 'pods', killed)), false);
  assert.equal(fs.existsSync(path.join(lab.podLogsRoot, `e2e_residue_${killed}`)), false);
  assert.equal(fs.existsSync(path.join(lab.podLogsRoot, `e2e_residue_${kept}`, 'app', '0.log')), true);
  assert.equal(fs.existsSync(path.join(lab.podDirRoot, 'pods', kept)), true);
});
