// Hostile input found by an outside check of the host guards (issue 27), on a real containerd:
// each is refused in one line naming the file/document/field or flag, exit 1, and nothing is
// made: no sandbox or container, no pod directory under the kubelet root, no pod log directory.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUSYBOX_IMAGE, podCgroupsOf, startLab, type Lab } from '../harness/lab';
import { assertOneLineError, syncpod } from './helpers';
import { nodeFlags } from './sync-helpers';

let lab: Lab;
let dir: string;
let hostDir: string;

const run = (args: string[]) => syncpod(args, { env: lab.env, netns: lab.netns, timeoutMs: 60000 });

function file(name: string, content: string): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, content);
  return p;
}

/** A pod manifest (JSON) with one sleeping busybox container. */
function pod(meta: object, spec: object = {}, container: object = {}): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta,
    spec: {
      terminationGracePeriodSeconds: 1,
      containers: [
        { name: 'app', image: BUSYBOX_IMAGE, imagePullPolicy: 'IfNotPresent', command: ['sleep', '600'], ...container },
      ],
      ...spec,
    },
  });
}

/** What the runtime and the node's pod roots hold: ids of sandboxes and containers, pod and log dirs. */
async function nodeState(): Promise<string> {
  const pods = await run(['pods', '-q']);
  const ctrs = await run(['ps', '-a', '-q']);
  assert.equal(pods.code, 0, pods.stderr);
  assert.equal(ctrs.code, 0, ctrs.stderr);
  const list = (d: string) => (fs.existsSync(d) ? fs.readdirSync(d).sort().join(' ') : '');
  return [
    `pods: ${pods.stdout.split('\n').sort().join(' ')}`,
    `containers: ${ctrs.stdout.split('\n').sort().join(' ')}`,
    `pod dirs: ${list(path.join(lab.podDirRoot, 'pods'))}`,
    `log dirs: ${list(lab.podLogsRoot)}`,
  ].join('; ');
}

before(async () => {
  lab = await startLab();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-hostile-guards-'));
  hostDir = path.join(dir, 'host-dir');
  fs.mkdirSync(hostDir);
  // Something already running, so "nothing made" is checked against a non-empty node.
  const r = await run(['sync', '-y', ...nodeFlags(lab), file('ok.json', pod({ name: 'ok', namespace: 'guards' }))]);
  assert.equal(r.code, 0, r.stderr);
});
after(async () => {
  await lab?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('refused in one line, nothing made on the node', () => {
  // A valid namespace (63) and name (253) whose log directory <ns>_<name>_<uid> has 354 bytes:
  // before, sync failed on its own lock file name (ENAMETOOLONG) and runp left pods/<uid> behind.
  const longName = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
  const longPod = () => file('long.json', pod({ name: longName, namespace: 'n'.repeat(63) }));
  const tooLong =
    /^syncpod: \S+long\.json: document 1: metadata\.name: too long with its namespace and uid: the pod's log directory <namespace>_<name>_<uid> would have 354 bytes, over the 255 one file name may have/;

  // A new pod whose hostPath volume fails its type check: kubelet mounts volumes before the first
  // sandbox and never creates it; before, sync made the sandbox (and its IP) and then failed the container.
  const hostPathPod = (type: string, at: string) =>
    file(
      `hostpath-${type}.json`,
      pod(
        { name: `hostpath-${type.toLowerCase()}`, namespace: 'guards' },
        { volumes: [{ name: 'h', hostPath: { path: at, type } }] },
        { volumeMounts: [{ name: 'h', mountPath: '/h' }] },
      ),
    );
  const typeCheck = (type: string, why: string) =>
    new RegExp(
      `^syncpod: \\S+hostpath-${type}\\.json: document 1: pod guards/hostpath-${type.toLowerCase()}: volume h: hostPath type check failed: \\S+ ${why} \\(kubelet mounts volumes before it creates the sandbox, so it would not start this pod\\); nothing was done$`,
    );

  const rows: Array<[string, () => string[], RegExp]> = [
    ['sync: a log directory name over 255 bytes', () => ['sync', '-y', ...nodeFlags(lab), longPod()], tooLong],
    ['runp: a log directory name over 255 bytes', () => ['runp', ...nodeFlags(lab), longPod()], tooLong],
    [
      'sync: a hostPath of type Socket that is a directory',
      () => ['sync', '-y', ...nodeFlags(lab), hostPathPod('Socket', hostDir)],
      typeCheck('Socket', 'is not a Socket'),
    ],
    [
      'sync --dry-run says the same',
      () => ['sync', '--dry-run', ...nodeFlags(lab), hostPathPod('Socket', hostDir)],
      typeCheck('Socket', 'is not a Socket'),
    ],
    [
      'sync: a hostPath of type File that does not exist',
      () => ['sync', '-y', ...nodeFlags(lab), hostPathPod('File', path.join(hostDir, 'missing'))],
      typeCheck('File', 'does not exist \\(type File\\)'),
    ],
    [
      'plan --env-file with a line that is no assignment (plan took any --env-file unread, exit 0)',
      () => [
        'plan',
        ...nodeFlags(lab),
        '--env-file',
        file('bad.env', 'guards/db/password=fine\nno assignment here\n'),
        file('plain.json', pod({ name: 'plain', namespace: 'guards' })),
      ],
      /^syncpod: \S+bad\.env:2: expected NAMESPACE\/NAME\/KEY=VALUE or KEY=VALUE$/,
    ],
    [
      'plan --env-file that does not exist',
      () => [
        'plan',
        ...nodeFlags(lab),
        '--env-file',
        path.join(dir, 'missing.env'),
        file('plain.json', pod({ name: 'plain', namespace: 'guards' })),
      ],
      /^syncpod: --env-file \S+missing\.env: no such file or directory$/,
    ],
    [
      '--env-file over the input size limit names the flag',
      () => [
        'sync',
        '--dry-run',
        ...nodeFlags(lab),
        '--env-file',
        '/dev/zero',
        file('plain.json', pod({ name: 'plain', namespace: 'guards' })),
      ],
      /^syncpod: --env-file \/dev\/zero: larger than \d+ MiB/,
    ],
    [
      "--secret NAME=DIR that does not exist (was Node's ENOENT text with the syscall)",
      () => [
        'plan',
        ...nodeFlags(lab),
        '--secret',
        `db=${path.join(dir, 'missing')}`,
        file('plain.json', pod({ name: 'plain', namespace: 'guards' })),
      ],
      /^syncpod: --secret db=\S+missing: no such file or directory$/,
    ],
    [
      'logs --since with a bad time: the flag is refused before the runtime is asked (it said no container matches)',
      () => ['logs', '--since', 'yesterday', 'no-such-container'],
      /^syncpod: (invalid --since value "yesterday"|failed to parse value as time or duration: "yesterday")/,
    ],
  ];

  for (const [what, argv, pattern] of rows) {
    test(what, async () => {
      const before = await nodeState();
      const r = await run(argv());
      assertOneLineError(r, pattern);
      assert.equal(r.stdout, '', 'nothing on stdout');
      assert.equal(await nodeState(), before, 'the node holds what it held before');
    });
  }
});

test('sync --node: a static pod whose hostPath fails its type check is not synced and leaves no pod directory or cgroup', async () => {
  const staticDir = path.join(dir, 'static');
  fs.mkdirSync(staticDir, { recursive: true });
  fs.writeFileSync(
    path.join(staticDir, 'socket.json'),
    pod(
      { name: 'static-socket', namespace: 'guards' },
      { volumes: [{ name: 'h', hostPath: { path: hostDir, type: 'Socket' } }] },
      { volumeMounts: [{ name: 'h', mountPath: '/h' }] },
    ),
  );
  const before = await nodeState();
  const r = await run([
    'sync',
    '--node',
    '-y',
    ...nodeFlags(lab),
    '--static-pod-path',
    staticDir,
    '--pods-api-socket',
    'none',
  ]);
  const all = r.stdout + r.stderr;
  assert.match(
    all,
    /static-socket-e2e-node \(uid ([0-9a-f]{32})\): not synced: hostPath type check failed: \S+ is not a Socket/,
  );
  const uid = /static-socket-e2e-node \(uid ([0-9a-f]{32})\)/.exec(all)![1]!;
  assert.doesNotMatch(all, /create-pod-cgroup|make-pod-data-dirs/, 'nothing made before the refusal');
  assert.deepEqual(podCgroupsOf([uid]), [], 'no pod cgroup left');
  assert.equal(await nodeState(), before, 'the node holds what it held before');
});

test('plan: a new pod whose hostPath fails its type check is blocked, exit 1, as sync refuses it (plan said 2 changes, exit 0)', async () => {
  const f = file(
    'plan-hostpath.json',
    pod(
      { name: 'plan-hostpath', namespace: 'guards' },
      { volumes: [{ name: 'h', hostPath: { path: hostDir, type: 'Socket' } }] },
      { volumeMounts: [{ name: 'h', mountPath: '/h' }] },
    ),
  );
  for (const flags of [[], ['--detailed-exitcode']]) {
    const r = await run(['plan', ...flags, ...nodeFlags(lab), f]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /^Blocked: volume h: hostPath type check failed: \S+ is not a Socket\. Nothing will be done for this pod\.$/m,
    );
    assert.match(r.stderr, /pod guards\/plan-hostpath is blocked: volume h: hostPath type check failed/);
  }
});

test('hostPath FileOrCreate/DirectoryOrCreate leave an existing host file or directory as it was (an existing file was chmod 0644: /etc/shadow-like files became world-readable)', async () => {
  // Kubelet opens the file with O_CREATE and makes the directory with MkdirAll: what exists keeps its mode.
  const secretFile = path.join(dir, 'shadow-like');
  fs.writeFileSync(secretFile, 'root:$6$hash:19000::::::\n', { mode: 0o600 });
  fs.chmodSync(secretFile, 0o600);
  const privateDir = path.join(dir, 'private-dir');
  fs.mkdirSync(privateDir, { mode: 0o700 });
  fs.chmodSync(privateDir, 0o700);
  const newFile = path.join(dir, 'made-file');
  const newDir = path.join(dir, 'made-dir');
  const f = file(
    'hostpath-modes.json',
    pod(
      { name: 'hostpath-modes', namespace: 'guards' },
      {
        volumes: [
          { name: 'f', hostPath: { path: secretFile, type: 'FileOrCreate' } },
          { name: 'd', hostPath: { path: privateDir, type: 'DirectoryOrCreate' } },
          { name: 'nf', hostPath: { path: newFile, type: 'FileOrCreate' } },
          { name: 'nd', hostPath: { path: newDir, type: 'DirectoryOrCreate' } },
        ],
      },
      {
        volumeMounts: [
          { name: 'f', mountPath: '/f' },
          { name: 'd', mountPath: '/d' },
          { name: 'nf', mountPath: '/nf' },
          { name: 'nd', mountPath: '/nd' },
        ],
      },
    ),
  );
  const r = await run(['sync', '-y', ...nodeFlags(lab), f]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(fs.statSync(secretFile).mode & 0o7777, 0o600, 'the existing file keeps 0600');
  assert.equal(fs.statSync(privateDir).mode & 0o7777, 0o700, 'the existing directory keeps 0700');
  assert.equal(fs.statSync(newFile).mode & 0o7777, 0o644, 'a file made for the volume is 0644');
  assert.equal(fs.statSync(newDir).mode & 0o7777, 0o755, 'a directory made for the volume is 0755');
  assert.equal(fs.readFileSync(secretFile, 'utf8'), 'root:$6$hash:19000::::::\n', 'not truncated');
  const rm = await run(['pods', '--name', '^hostpath-modes$', '-q']);
  for (const id of rm.stdout.split('\n').filter(Boolean)) assert.equal((await run(['rmp', '-f', id])).code, 0);
});
