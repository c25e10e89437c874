// Races a hostile container against the host-side work syncpod does inside a pod's writable volume.
// A worker thread of this test stands in for a container writing into its own emptyDir: in a tight
// loop it swaps a path component between a directory inside the volume and a symbolic link to a
// host directory this test made, while `sync` sets up subPath bind mounts, reads fileKeyRef files
// and applies the pod's fsGroup. Over many containers the host directory must never be what a
// container gets, its files never change owner or mode, and nothing is written outside the pod.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { BUSYBOX_IMAGE, startLab, type Lab } from '../harness/lab';
import { createdWith, syncpod } from './helpers';
import { LOOP, nodeFlags } from './sync-helpers';

let lab: Lab;
let dir: string;
const HOST_SECRET = 'host-only-value-9c2e';
const INSIDE_VALUE = 'inside-value-41d7';
const run = (args: string[]) => syncpod(args, { env: lab.env, netns: lab.netns, timeoutMs: 180000 });

before(async () => {
  lab = await startLab();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-race-e2e-'));
});
after(async () => {
  await lab?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

// The stand-in for a hostile container, as plain JavaScript for a worker thread. `retarget`: `name`
// is always a symbolic link, atomically replaced (rename over it) by one to `inside` or `outside`.
// `flip`: `name` is a directory, renamed away for a symbolic link to `outside`, then put back; each
// state is held ~0.2 ms. `chase`: `name` is a directory; the moment its group becomes `gid` (an
// fsGroup walk reached it) it is renamed away and a link to `outside` renamed into its place, kept
// 20 ms, then the directory is put back with its old group for the next walk. It counts its swaps in
// shared memory and stops when the test sets the flag. `appear`: the moment `name` appears as a
// directory it is renamed aside and a link to `outside` renamed into its place (kept 20 ms, then
// removed, so the next sync makes the directory again).
const SWAPPER = `
const fs = require('node:fs');
const { workerData } = require('node:worker_threads');
const { name, mode, inside, outside, gid, shared } = workerData;
const flag = new Int32Array(shared);
const hold = () => Atomics.wait(flag, 1, 0, 0.2);
const quiet = (f) => { try { f(); return true; } catch { return false; } };
let n = 0;
while (Atomics.load(flag, 0) === 0) {
  if (mode === 'chase') {
    let seen = -1;
    try { seen = fs.lstatSync(name).gid; } catch {}
    if (seen === gid) {
      quiet(() => fs.unlinkSync(name + '.lnk'));
      quiet(() => fs.symlinkSync(outside, name + '.lnk'));
      quiet(() => fs.renameSync(name, name + '.away'));
      quiet(() => fs.renameSync(name + '.lnk', name));
      n++;
      Atomics.wait(flag, 1, 0, 20);
      quiet(() => fs.unlinkSync(name));
      quiet(() => fs.renameSync(name + '.away', name));
      quiet(() => fs.lchownSync(name, -1, 0));
    }
  } else if (mode === 'appear') {
    let st;
    try { st = fs.lstatSync(name); } catch {}
    if (st && st.isDirectory()) {
      quiet(() => fs.unlinkSync(name + '.lnk'));
      quiet(() => fs.symlinkSync(outside, name + '.lnk'));
      quiet(() => fs.renameSync(name, name + '.made-' + n));
      quiet(() => fs.renameSync(name + '.lnk', name));
      n++;
      Atomics.wait(flag, 1, 0, 20);
      quiet(() => fs.unlinkSync(name));
    }
  } else if (mode === 'retarget') {
    const tmp = name + '.tmp';
    const target = n % 2 === 0 ? outside : inside;
    quiet(() => fs.unlinkSync(tmp));
    if (quiet(() => fs.symlinkSync(target, tmp)) && quiet(() => fs.renameSync(tmp, name))) n++;
    hold();
  } else {
    const away = name + '.away';
    if (!quiet(() => fs.renameSync(name, away))) { hold(); continue; }
    quiet(() => fs.symlinkSync(outside, name));
    n++;
    hold();
    quiet(() => fs.unlinkSync(name));
    if (!quiet(() => fs.renameSync(away, name))) {
      // syncpod made a directory there meanwhile (a missing subPath level): keep it inside, aside.
      quiet(() => fs.renameSync(name, name + '.made-' + n));
      quiet(() => fs.renameSync(away, name));
    }
    n++;
    hold();
  }
  Atomics.store(flag, 2, n);
}
`;

interface Swapper {
  stop(): Promise<number>;
}

function startSwapper(
  name: string,
  mode: 'retarget' | 'flip' | 'chase' | 'appear',
  inside: string,
  outside: string,
  gid = 0,
): Swapper {
  const shared = new SharedArrayBuffer(12);
  const flag = new Int32Array(shared);
  const w = new Worker(SWAPPER, { eval: true, workerData: { name, mode, inside, outside, gid, shared } });
  const done = new Promise<void>((resolve, reject) => {
    w.on('exit', () => resolve());
    w.on('error', reject);
  });
  return {
    async stop() {
      Atomics.store(flag, 0, 1);
      await done;
      return Atomics.load(flag, 2);
    },
  };
}

/** Every path below `root` with its type, owner group and mode (symbolic links not followed). */
function snapshot(root: string): string[] {
  const out: string[] = [];
  const walk = (p: string): void => {
    const st = fs.lstatSync(p);
    out.push(
      `${path.relative(root, p) || '.'} ${st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : 'file'} gid=${st.gid} mode=${(st.mode & 0o7777).toString(8)} size=${st.size}`,
    );
    if (st.isDirectory()) for (const n of fs.readdirSync(p).sort()) walk(path.join(p, n));
  };
  walk(root);
  return out;
}

/** device:inode of every directory below `root` (symbolic links not followed). */
function dirInodes(root: string): Set<string> {
  const out = new Set<string>();
  const walk = (p: string): void => {
    const st = fs.lstatSync(p);
    if (!st.isDirectory()) return;
    out.add(`${st.dev}:${st.ino}`);
    for (const n of fs.readdirSync(p)) walk(path.join(p, n));
  };
  walk(root);
  return out;
}

const inode = (p: string): string => {
  const st = fs.statSync(p);
  return `${st.dev}:${st.ino}`;
};

const emptyDirOf = (uid: string) => path.join(lab.podDirRoot, 'pods', uid, 'volumes', 'kubernetes.io~empty-dir', 'v');

function manifest(name: string, uid: string, spec: object): string {
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'e2e', uid },
      spec: { restartPolicy: 'Always', terminationGracePeriodSeconds: 1, ...spec },
    }),
  );
  return file;
}

const ctr = (name: string, extra: object = {}) => ({
  name,
  image: BUSYBOX_IMAGE,
  imagePullPolicy: 'IfNotPresent',
  command: ['sh', '-c', `touch /data/seen-by-${name} 2>/dev/null; ${LOOP}`],
  ...extra,
});

async function podContainers(pod: string): Promise<any[]> {
  const r = await run(['ps', '-a', '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const out = [];
  for (const c of JSON.parse(r.stdout).containers.filter((c: any) => c.labels['io.kubernetes.pod.name'] === pod)) {
    const insp = await run(['inspect', c.id]);
    assert.equal(insp.code, 0, insp.stderr);
    out.push(JSON.parse(insp.stdout));
  }
  return out;
}

async function removePod(pod: string): Promise<void> {
  const r = await run(['pods', '--name', `^${pod}$`, '-q']);
  for (const id of r.stdout.split('\n').filter(Boolean)) {
    const rm = await run(['rmp', '-f', id]);
    assert.equal(rm.code, 0, rm.stderr);
  }
}

test('subPath and fileKeyRef while a container swaps a path component for a link to a host directory: no container gets the host directory or file, nothing is made outside the volume', async () => {
  const hostDir = path.join(dir, 'host-sub');
  fs.mkdirSync(path.join(hostDir, 'x'), { recursive: true });
  fs.writeFileSync(path.join(hostDir, 'x', 'marker'), 'host directory\n');
  fs.writeFileSync(path.join(hostDir, 'app.env'), `PASSWORD=${HOST_SECRET}\n`);
  const hostBefore = snapshot(hostDir);
  const hostX = inode(path.join(hostDir, 'x'));

  const subPathMount = (subPath: string) => ({ volumeMounts: [{ name: 'v', mountPath: '/data', subPath }] });
  const envFrom = (p: string) => ({
    env: [{ name: 'PASSWORD', valueFrom: { fileKeyRef: { volumeName: 'v', path: p, key: 'PASSWORD' } } }],
    volumeMounts: [{ name: 'v', mountPath: '/v' }],
  });
  const containers = [
    ctr('sw-existing', subPathMount('sw/x')),
    ctr('sw-new', subPathMount('sw/new-sw/deeper')),
    ctr('flip-existing', subPathMount('flip/x')),
    ctr('flip-new', subPathMount('flip/new-flip/deeper')),
    ctr('sw-env', envFrom('sw/app.env')),
    ctr('flip-env', envFrom('flip/app.env')),
  ];

  let created = 0;
  let refused = 0;
  let swaps = 0;
  for (let i = 0; i < 3; i++) {
    const pod = `race-subpath-${i}`;
    const uid = randomUUID();
    // The volume as a container left it: a directory tree, `sw` a link into it, `flip` a directory.
    const vol = emptyDirOf(uid);
    for (const d of ['real/x', 'flip/x']) fs.mkdirSync(path.join(vol, d), { recursive: true, mode: 0o777 });
    for (const d of ['real', 'flip']) fs.writeFileSync(path.join(vol, d, 'app.env'), `PASSWORD=${INSIDE_VALUE}\n`);
    fs.symlinkSync('real', path.join(vol, 'sw'));
    const file = manifest(pod, uid, { volumes: [{ name: 'v', emptyDir: {} }], containers });
    const swappers = [
      startSwapper(path.join(vol, 'sw'), 'retarget', 'real', hostDir),
      startSwapper(path.join(vol, 'flip'), 'flip', '', hostDir),
    ];
    const outputs: string[] = [];
    try {
      // Containers refused in one sync (a link met) are tried again by the next, as kubelet retries.
      for (let s = 0; s < 2; s++) {
        const r = await run(['sync', '-y', '--kubelet-version', '1.35', ...nodeFlags(lab), file]);
        outputs.push(r.stdout + r.stderr);
      }
    } finally {
      for (const sw of swappers) swaps += await sw.stop();
    }
    for (const out of outputs) assert.ok(!out.includes(HOST_SECRET), `the host value was printed:\n${out}`);
    refused += outputs.join('\n').match(/CreateContainerConfigError/g)?.length ?? 0;

    const inside = dirInodes(vol);
    for (const insp of await podContainers(pod)) {
      const name = insp.status.metadata.name as string;
      created++;
      for (const m of insp.status.mounts.filter((m: any) => m.containerPath === '/data')) {
        const got = inode(m.hostPath);
        assert.notEqual(got, hostX, `${pod}/${name} got the host directory`);
        assert.ok(inside.has(got), `${pod}/${name} got ${m.hostPath} (${got}), not a directory of its volume`);
      }
      const envs = createdWith(insp).env;
      assert.ok(!envs.some((e) => e.includes(HOST_SECRET)), `${pod}/${name} holds the host value`);
      if (name.endsWith('-env')) assert.ok(envs.includes(`PASSWORD=${INSIDE_VALUE}`), `${pod}/${name}: ${envs}`);
    }
    assert.deepEqual(snapshot(hostDir), hostBefore, `${pod}: the host directory changed`);
    await removePod(pod);
  }
  // Not vacuous: the swappers ran, some containers were made and some refused on a link.
  assert.ok(swaps > 100, `swaps: ${swaps}`);
  assert.ok(created > 0, 'no container was created');
  assert.ok(refused > 0, 'no container was refused');
});

test('fsGroup ownership while a container swaps a directory of its emptyDir for a link to a host directory: the host files keep their group and mode', async () => {
  const hostDir = path.join(dir, 'host-own');
  const names = Array.from({ length: 300 }, (_, i) => `f${String(i).padStart(3, '0')}`);
  fs.mkdirSync(path.join(hostDir, 'sub'), { recursive: true });
  fs.chmodSync(hostDir, 0o755);
  for (const n of names) fs.writeFileSync(path.join(hostDir, n), 'host file\n', { mode: 0o600 });
  const hostBefore = snapshot(hostDir);
  const FS_GROUP = 4321;

  let swaps = 0;
  for (let i = 0; i < 2; i++) {
    const pod = `race-fsgroup-${i}`;
    const uid = randomUUID();
    const vol = emptyDirOf(uid);
    // The container's own files, named as the host's (an attacker names them after /etc's).
    fs.mkdirSync(path.join(vol, 'd', 'sub'), { recursive: true, mode: 0o777 });
    for (const n of names) fs.writeFileSync(path.join(vol, 'd', n), 'pod file\n', { mode: 0o600 });
    // Each container start applies the fsGroup to the volume while the others (and the swapper) run.
    const containers = Array.from({ length: 6 }, (_, c) =>
      ctr(`c${c}`, { volumeMounts: [{ name: 'v', mountPath: '/data' }] }),
    );
    const file = manifest(pod, uid, {
      securityContext: { fsGroup: FS_GROUP },
      volumes: [{ name: 'v', emptyDir: {} }],
      containers,
    });
    const swapper = startSwapper(path.join(vol, 'd'), 'chase', '', hostDir, FS_GROUP);
    let r;
    try {
      r = await run(['sync', '-y', ...nodeFlags(lab), file]);
    } finally {
      swaps += await swapper.stop();
    }
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal((await podContainers(pod)).length, 6);
    assert.equal(fs.statSync(vol).gid, FS_GROUP, 'the fsGroup was applied to the volume');
    assert.deepEqual(snapshot(hostDir), hostBefore, `${pod}: the host directory changed`);
    await removePod(pod);
  }
  assert.ok(swaps >= 2, `swaps: ${swaps}`); // at least one per pod: the swapper ran
});

test('hostPath DirectoryOrCreate in a directory another pod writes: the directory syncpod makes, swapped for a link the moment it appears, does not carry its mode to the link target', async () => {
  // Another pod mounts `shared` read-write; this pod's hostPath `shared/made` is DirectoryOrCreate.
  // Kubelet makes it with MkdirAll and no chmod; syncpod sets the mode of what it made (0755), and
  // a chmod by path followed a link swapped in between to a host directory (0700 -> 0755).
  const shared = path.join(dir, 'shared');
  const target = path.join(dir, 'host-private');
  fs.mkdirSync(shared, { mode: 0o777 });
  fs.mkdirSync(target, { mode: 0o700 });
  fs.chmodSync(target, 0o700);
  const made = path.join(shared, 'made');
  const containers = Array.from({ length: 6 }, (_, c) =>
    ctr(`c${c}`, { volumeMounts: [{ name: 'h', mountPath: '/data' }] }),
  );
  let swaps = 0;
  for (let i = 0; i < 3; i++) {
    const pod = `race-hostpath-${i}`;
    const file = manifest(pod, randomUUID(), {
      volumes: [{ name: 'h', hostPath: { path: made, type: 'DirectoryOrCreate' } }],
      containers,
    });
    const swapper = startSwapper(made, 'appear', '', target);
    try {
      await run(['sync', '-y', ...nodeFlags(lab), file]);
    } finally {
      swaps += await swapper.stop();
    }
    assert.equal(fs.statSync(target).mode & 0o7777, 0o700, `${pod}: the link target's mode changed`);
    await removePod(pod);
  }
  assert.ok(swaps >= 3, `swaps: ${swaps}`);
});
