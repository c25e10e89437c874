// Volumes syncpod provides: kubelet's payloads of configMap, secret, projected and downwardAPI
// volumes (keys, items, modes, optional), the atomic writer's path rules and layout, the tmpfs size
// of memory-backed emptyDirs, which volumes block a pod, and reading the operator's data.
import { test } from 'node:test';
import { withInputFlags } from '../fixtures/input-flags';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Pod, Volume } from '../../src/kubelet/api-types';
import {
  classifyVolumes,
  emptyDirMemorySize,
  NO_VOLUME_DATA,
  sizeMemoryBackedVolumes,
  timestampDirName,
  tmpfsNoswap,
  userVisibleNames,
  validatePayloadPath,
  volumePayload,
  volumesBlocked,
  type VolumeData,
} from '../../src/kubelet/volumes';
import { makeMounts, type MountInputs } from '../../src/kubelet/mounts';
import { atomicWrite, parseMountInfo, volumeOwnership } from '../../src/sync/volume-fs';
import { dryRunFs } from '../../src/sync/dry-run';
import { describeEffect } from '../../src/sync/fs-effects';
import { buildPreflight } from '../../src/plan/preflight';
import { envValuesOf, readVolumeData, type VolumeDataReader } from '../../src/workflows/volume-data';
import { inUserNamespace, kernelAtLeast } from '../../src/workflows/node-settings';
import { GATES_133 } from '../fixtures/gates';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

function pod(volumes: Volume[], extra: Partial<Pod['spec']> = {}): Pod {
  return {
    metadata: {
      name: 'web',
      namespace: 'shop',
      uid: '11111111-2222-3333-4444-555555555555',
      labels: { app: 'web', tier: 'front' },
      annotations: { note: 'say "hi"\n' },
    },
    spec: {
      serviceAccountName: 'builder',
      containers: [
        {
          name: 'app',
          image: 'busybox',
          resources: { requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '1', memory: '128Mi' } },
        },
      ],
      volumes,
      ...extra,
    },
  };
}

/** The refusal's message (the one line a user sees) matches. */
function throwsLine(f: () => unknown, re: RegExp, label: string): void {
  assert.throws(f, (e: unknown) => re.test((e as Error).message), label);
}

const data = (d: Partial<VolumeData>): VolumeData => ({ ...NO_VOLUME_DATA, ...d });
const files = (p: Pod, v: Volume, d: VolumeData = NO_VOLUME_DATA) =>
  volumePayload(p, v, d, { nodeAllocatable: { cpu: '4', memory: '8Gi' } }).map((f) => [
    f.path,
    dec(f.data),
    f.mode.toString(8),
  ]);

const CFG = { 'app.conf': enc('a=1\n'), 'log.conf': enc('level=info\n') };

test('payloads: keys, items, modes and optional as kubelet makes them', () => {
  const cases: Array<{ name: string; v: Volume; d?: VolumeData; want: string[][] | RegExp }> = [
    {
      name: 'configMap without items: every key at its name with defaultMode',
      v: { name: 'c', configMap: { name: 'cfg', defaultMode: 0o640 } },
      d: data({ configMaps: { cfg: CFG } }),
      want: [
        ['app.conf', 'a=1\n', '640'],
        ['log.conf', 'level=info\n', '640'],
      ],
    },
    {
      name: 'configMap with items: only those keys, at their paths, the item mode over defaultMode',
      v: {
        name: 'c',
        configMap: { name: 'cfg', defaultMode: 0o644, items: [{ key: 'app.conf', path: 'etc/app.conf', mode: 0o400 }] },
      },
      d: data({ configMaps: { cfg: CFG } }),
      want: [['etc/app.conf', 'a=1\n', '400']],
    },
    {
      name: 'an item naming a missing key is kubelet error',
      v: { name: 'c', configMap: { name: 'cfg', items: [{ key: 'nope', path: 'x' }] } },
      d: data({ configMaps: { cfg: CFG } }),
      want: /^configmap references non-existent config key: nope$/,
    },
    {
      name: 'optional: a missing key is left out',
      v: { name: 'c', configMap: { name: 'cfg', optional: true, items: [{ key: 'nope', path: 'x' }] } },
      d: data({ configMaps: { cfg: CFG } }),
      want: [],
    },
    {
      name: 'optional and not given: an empty volume',
      v: { name: 'c', configMap: { name: 'absent', optional: true } },
      want: [],
    },
    {
      name: 'not optional and not given: refused, naming the flag',
      v: { name: 'c', configMap: { name: 'absent' } },
      want: /^ConfigMap shop\/absent was not given \(--configmap absent=DIR\)$/,
    },
    {
      name: 'secret: a namespace-qualified object wins over an unqualified one',
      v: { name: 's', secret: { secretName: 'db' } },
      d: data({ secrets: { db: { password: enc('other') }, 'shop/db': { password: enc('s3cret') } } }),
      want: [['password', 's3cret', '644']],
    },
    {
      name: 'secret of another namespace is not taken',
      v: { name: 's', secret: { secretName: 'db' } },
      d: data({ secrets: { 'other/db': { password: enc('x') } } }),
      want: /^Secret shop\/db was not given/,
    },
    {
      name: 'downwardAPI: pod fields, labels and annotations as key="value" lines, resources with divisors',
      v: {
        name: 'd',
        downwardAPI: {
          defaultMode: 0o444,
          items: [
            { path: 'name', fieldRef: { fieldPath: 'metadata.name' } },
            { path: 'ns', fieldRef: { fieldPath: 'metadata.namespace' } },
            { path: 'uid', fieldRef: { fieldPath: 'metadata.uid' } },
            { path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } },
            { path: 'annotations', fieldRef: { fieldPath: 'metadata.annotations' } },
            { path: 'tier', fieldRef: { fieldPath: "metadata.labels['tier']" } },
            { path: 'mem', resourceFieldRef: { containerName: 'app', resource: 'limits.memory', divisor: '1Mi' } },
            { path: 'cpu', resourceFieldRef: { containerName: 'app', resource: 'requests.cpu', divisor: '1m' } },
            { path: 'cpu-limit', mode: 0o400, resourceFieldRef: { containerName: 'app', resource: 'limits.cpu' } },
          ],
        },
      },
      want: [
        ['annotations', 'note="say \\"hi\\"\\n"', '444'],
        ['cpu', '250', '444'],
        ['cpu-limit', '1', '400'],
        ['labels', 'app="web"\ntier="front"', '444'],
        ['mem', '128', '444'],
        ['name', 'web', '444'],
        ['ns', 'shop', '444'],
        ['tier', 'front', '444'],
        ['uid', '11111111-2222-3333-4444-555555555555', '444'],
      ],
    },
    {
      name: 'projected: sources in order (a later path replaces an earlier one), the token from the data',
      v: {
        name: 'kube-api-access-abcde',
        projected: {
          defaultMode: 0o644,
          sources: [
            { serviceAccountToken: { path: 'token', expirationSeconds: 3607 } },
            { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            { downwardAPI: { items: [{ path: 'namespace', fieldRef: { fieldPath: 'metadata.namespace' } }] } },
            { secret: { name: 'db', items: [{ key: 'password', path: 'ca.crt' }] } },
          ],
        },
      },
      d: data({
        configMaps: { 'kube-root-ca.crt': { 'ca.crt': enc('CA') } },
        secrets: { db: { password: enc('pw') } },
        serviceAccountTokens: { 'shop/builder': enc('tok') },
      }),
      want: [
        ['ca.crt', 'pw', '644'],
        ['namespace', 'shop', '644'],
        ['token', 'tok', '644'],
      ],
    },
    {
      name: 'projected without a token for the pod service account: refused, saying syncpod cannot request one',
      v: { name: 'p', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } },
      d: data({ serviceAccountTokens: { default: enc('tok') } }),
      want: /^syncpod cannot request a token for ServiceAccount shop\/builder; give one \(--service-account-token builder=FILE\)$/,
    },
    {
      name: 'projected: every failing source is named',
      v: {
        name: 'p',
        projected: { sources: [{ configMap: { name: 'a' } }, { secret: { name: 'b' } }] },
      },
      want: /^\[ConfigMap shop\/a was not given .*, Secret shop\/b was not given .*\]$/,
    },
    {
      name: 'a path leaving the volume is the atomic writer error',
      v: { name: 'c', configMap: { name: 'cfg', items: [{ key: 'app.conf', path: '../x' }] } },
      d: data({ configMaps: { cfg: CFG } }),
      want: /^invalid path: must not contain '\.\.': \.\.\/x$/,
    },
  ];
  for (const c of cases) {
    const p = pod([c.v]);
    // with the command line's names for the inputs installed, as main installs them
    if (c.want instanceof RegExp) withInputFlags(() => throwsLine(() => files(p, c.v, c.d), c.want as RegExp, c.name));
    else assert.deepEqual(files(p, c.v, c.d), c.want, c.name);
  }
});

test('the pure layer names the missing object, not a flag: the command line adds how to give it', () => {
  const absent: Volume = { name: 'c', configMap: { name: 'absent' } };
  throwsLine(() => files(pod([absent]), absent), /^ConfigMap shop\/absent was not given$/, 'without the CLI');
  const token: Volume = { name: 'p', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } };
  throwsLine(
    () => files(pod([token]), token),
    /^syncpod cannot request a token for ServiceAccount shop\/builder; give one$/,
    'without the CLI',
  );
  const verdicts = classifyVolumes(pod([{ name: 'nfs', nfs: { server: 'x', path: '/' } }]), data({}), {
    imageVolume: false,
  });
  assert.equal(verdicts[0].detail, 'volume type nfs is not supported by syncpod');
  const flagged = withInputFlags(() =>
    classifyVolumes(pod([{ name: 'nfs', nfs: { server: 'x', path: '/' } }]), data({}), { imageVolume: false }),
  );
  assert.equal(flagged[0].detail, 'volume type nfs is not supported by syncpod (use --skip-volume nfs)');
});

test('the projected token is 0600 when the pod has an fsGroup', () => {
  const v: Volume = { name: 'p', projected: { defaultMode: 0o644, sources: [{ serviceAccountToken: { path: 't' } }] } };
  const p = pod([v], { securityContext: { fsGroup: 2000 } });
  assert.deepEqual(files(p, v, data({ serviceAccountTokens: { builder: enc('x') } })), [['t', 'x', '600']]);
});

test('atomic writer paths: the rules of validatePath, then cleaned', () => {
  const ok: Array<[string, string]> = [
    ['a', 'a'],
    ['a/b/c', 'a/b/c'],
    ['a//b/./c', 'a/b/c'],
    ['a..b/..c', 'a..b/..c'],
  ];
  for (const [p, want] of ok) assert.equal(validatePayloadPath(p), want, p);
  const bad: Array<[string, RegExp]> = [
    ['', /must not be empty/],
    ['/etc/passwd', /must be relative path/],
    ['a/../b', /must not contain '\.\.'/],
    ['..data', /must not start with '\.\.'/],
    ['..a/b', /must not start with '\.\.'/],
    ['x'.repeat(256), /filenames must be less than or equal to 255/],
    [`${'a/'.repeat(2100)}b`, /must be less than or equal to 4096 characters/],
  ];
  for (const [p, re] of bad) throwsLine(() => validatePayloadPath(p), re, p.slice(0, 20));
});

test('the timestamped directory is named as os.MkdirTemp names it from the UTC time', () => {
  assert.equal(timestampDirName(Date.UTC(2026, 10, 27, 9, 5, 3, 999), '4711'), '..2026_11_27_09_05_03.4711');
  assert.deepEqual(userVisibleNames([{ path: 'b/x' }, { path: 'a' }, { path: 'b/y' }]), ['a', 'b']);
});

test('tmpfs size: node allocatable, lowered to the pod memory limit, then to sizeLimit; 0 when the gate is off', () => {
  const GiB = 1024 ** 3;
  const lim = (mem?: string) => ({ limits: mem ? { memory: mem } : {}, requests: { memory: '1Mi' } });
  const podWith = (containers: Array<string | undefined>) =>
    ({
      metadata: { name: 'p', namespace: 'n' },
      spec: { containers: containers.map((m, i) => ({ name: `c${i}`, image: 'i', resources: lim(m) })) },
    }) as Pod;
  const none: Pod = { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }] } };
  const cases: Array<[string, Pod, string | undefined, boolean, number]> = [
    ['BestEffort, no sizeLimit: the node allocatable', none, undefined, true, 8 * GiB],
    ['sizeLimit below allocatable', none, '16Mi', true, 16 * 1024 ** 2],
    ['sizeLimit above allocatable: allocatable', none, '16Gi', true, 8 * GiB],
    ['every container limited: the summed pod limit', podWith(['1Gi', '512Mi']), undefined, true, 1.5 * GiB],
    ['pod limit, then a smaller sizeLimit', podWith(['1Gi']), '100Mi', true, 100 * 1024 ** 2],
    ['a container without a limit: no pod limit', podWith(['1Gi', undefined]), undefined, true, 8 * GiB],
    ['SizeMemoryBackedVolumes off: the kernel default', podWith(['1Gi']), '100Mi', false, 0],
  ];
  for (const [name, p, sizeLimit, gate, want] of cases)
    assert.equal(emptyDirMemorySize(p, sizeLimit, 8 * GiB, gate), want, name);
  assert.equal(sizeMemoryBackedVolumes(33, {}), true);
  assert.equal(sizeMemoryBackedVolumes(33, { SizeMemoryBackedVolumes: false }), false);
  assert.equal(sizeMemoryBackedVolumes(35, { SizeMemoryBackedVolumes: false }), true, 'no longer a gate in 1.35');
  assert.equal(tmpfsNoswap(30, true), false, 'kubelet 1.30 never adds noswap');
  assert.equal(tmpfsNoswap(31, true), true);
  assert.equal(kernelAtLeast('6.4.0-1-amd64', 6, 4), true);
  assert.equal(kernelAtLeast('6.18.44-fc', 6, 4), true);
  assert.equal(kernelAtLeast('5.15.0', 6, 4), false);
  assert.equal(inUserNamespace('         0          0 4294967295\n'), false, 'the initial user namespace');
  assert.equal(inUserNamespace('         0     100000      65536\n'), true, 'a mapped range');
  assert.equal(inUserNamespace(''), false, 'unknown');
});

test('which volumes block a pod, and how the others are provided', () => {
  const p = pod([
    { name: 'host', hostPath: { path: '/srv' } },
    { name: 'scratch', emptyDir: {} },
    { name: 'mem', emptyDir: { medium: 'Memory' } },
    { name: 'huge', emptyDir: { medium: 'HugePages' } },
    { name: 'pvc', persistentVolumeClaim: { claimName: 'data' } },
    { name: 'nfs', nfs: { server: 'x', path: '/' } },
    { name: 'cfg', configMap: { name: 'cfg' } },
    { name: 'dapi', downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name' } }] } },
    { name: 'kube-api-access-q1w2e', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } },
  ]);
  const verdicts = withInputFlags(() =>
    classifyVolumes(p, data({ configMaps: { cfg: CFG }, skip: ['kube-api-access-*'] }), {
      imageVolume: false,
    }),
  );
  assert.deepEqual(
    verdicts.map((v) => [v.name, v.provision]),
    [
      ['host', 'host-path'],
      ['scratch', 'empty-dir'],
      ['mem', 'tmpfs'],
      ['huge', 'unsupported'],
      ['pvc', 'unsupported'],
      ['nfs', 'unsupported'],
      ['cfg', 'files'],
      ['dapi', 'files'],
      ['kube-api-access-q1w2e', 'skipped'],
    ],
  );
  assert.equal(
    volumesBlocked(verdicts),
    'cannot provide volumes huge (emptyDir): emptyDir medium HugePages is not supported by syncpod (only "" and Memory); ' +
      'pvc (persistentVolumeClaim): persistentVolumeClaim data needs the API server and a volume attach and mount, which syncpod does not do (use --skip-volume pvc); ' +
      'nfs (nfs): volume type nfs is not supported by syncpod (use --skip-volume nfs)',
  );
  assert.equal(volumesBlocked(verdicts.filter((v) => v.provision !== 'unsupported')), null);
  // The node preflight refuses such a pod first, before making its cgroup or directories.
  const pre = buildPreflight(p, {
    network: { ready: true, reason: '', message: '' },
    podCgroup: { name: '/kubepods/podx', missing: ['/sys/fs/cgroup/kubepods/podx'] },
    podDirs: [{ path: '/var/lib/kubelet/pods/x', exists: false }],
    hostPaths: [],
    images: [],
    volumes: verdicts,
  });
  assert.deepEqual(
    pre.steps.map((s) => [s.action, s.target, s.blocking]),
    [
      ['volume-unavailable', 'volume huge', 'pod'],
      ['volume-unavailable', 'volume pvc', 'pod'],
      ['volume-unavailable', 'volume nfs', 'pod'],
    ],
  );
  assert.match(pre.blocked ?? '', /^volume huge: emptyDir: /);
});

const MOUNT_BASE: MountInputs = {
  kubeletRoot: '/var/lib/kubelet',
  envs: [],
  podIPs: [],
  hostname: 'web',
  domain: '',
  selinuxEnabled: false,
  supportsRecursiveReadOnly: false,
  terminationLogName: '0000000a',
  gates: GATES_133,
};

test('mounts: file volumes are read-only mounts of their plugin directory, skipped volumes are not mounted', () => {
  const p = pod([
    { name: 'cfg', configMap: { name: 'cfg' } },
    { name: 'tok', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } },
    { name: 'mem', emptyDir: { medium: 'Memory', sizeLimit: '1Mi' } },
    { name: 'gone', persistentVolumeClaim: { claimName: 'x' } },
  ]);
  const c = {
    name: 'app',
    image: 'busybox',
    volumeMounts: [
      { name: 'cfg', mountPath: '/etc/cfg' },
      { name: 'tok', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true },
      { name: 'mem', mountPath: '/cache' },
      { name: 'gone', mountPath: '/data' },
    ],
  };
  const setup = {
    data: data({ configMaps: { cfg: CFG }, serviceAccountTokens: { builder: enc('TOKEN') }, skip: ['gone'] }),
    nowMs: Date.UTC(2026, 0, 2, 3, 4, 5),
    random: '42',
    nodeAllocatableMemory: 1024 ** 3,
    sizeMemoryBackedVolumes: true,
    noswap: true,
  };
  const { mounts, effects } = makeMounts(p, c, { ...MOUNT_BASE, volumeSetup: setup });
  const dir = `/var/lib/kubelet/pods/${p.metadata!.uid}/volumes`;
  assert.deepEqual(
    mounts.map((m) => [m.hostPath, m.containerPath, m.readonly]),
    [
      [`${dir}/kubernetes.io~configmap/cfg`, '/etc/cfg', true],
      [`${dir}/kubernetes.io~projected/tok`, '/var/run/secrets/kubernetes.io/serviceaccount', true],
      [`${dir}/kubernetes.io~empty-dir/mem`, '/cache', false],
    ],
  );
  const lines = effects.map(describeEffect);
  assert.deepEqual(lines, [
    `mkdir ${dir}/kubernetes.io~configmap/cfg (777, configMap volume cfg)`,
    `write 2 file(s) into ${dir}/kubernetes.io~configmap/cfg (atomic writer: app.conf, log.conf, configMap volume cfg)`,
    // The pod limit (128Mi) is below the node's 1Gi: the projected volume's tmpfs gets it.
    `mount tmpfs ${dir}/kubernetes.io~projected/tok (size=134217728,noswap, projected volume tok)`,
    `write 1 file(s) into ${dir}/kubernetes.io~projected/tok (atomic writer: token, projected volume tok)`,
    `mount tmpfs ${dir}/kubernetes.io~empty-dir/mem (size=1048576,noswap, emptyDir volume mem)`,
  ]);
  const write = effects.find((e) => e.kind === 'atomicWrite');
  assert.equal(write?.kind === 'atomicWrite' ? write.timestampDir : '', '..2026_01_02_03_04_05.42');
  // --dry-run describes names and modes, never a file's content.
  const changes: string[] = [];
  const dry = dryRunFs({ exists: () => false, kind: () => undefined } as never, changes);
  for (const e of effects) if (e.kind === 'atomicWrite') dry.atomicWrite!(e.dir, e.files, e.timestampDir);
  assert.ok(changes.every((l) => !l.includes('TOKEN') && !l.includes('a=1')));
  assert.match(changes[1]!, /: 1 file\(s\) token \(644\); .*\/\.\.data -> \.\.2026_01_02_03_04_05\.42$/);
});

test('the atomic writer on a real directory: layout, modes, no rewrite when unchanged, stale entries removed', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-atomic-'));
  try {
    const old = process.umask(0o077);
    try {
      const first = [
        { path: 'a.conf', data: enc('A'), mode: 0o644 },
        { path: 'sub/b.conf', data: enc('B'), mode: 0o400 },
      ];
      assert.equal(atomicWrite(dir, first, '..2026_01_01_00_00_00.1'), 'written');
      assert.equal(fs.readlinkSync(path.join(dir, '..data')), '..2026_01_01_00_00_00.1');
      assert.equal(fs.readlinkSync(path.join(dir, 'a.conf')), '..data/a.conf');
      assert.equal(fs.readlinkSync(path.join(dir, 'sub')), '..data/sub');
      assert.equal(fs.readFileSync(path.join(dir, 'sub/b.conf'), 'utf8'), 'B');
      assert.equal(fs.statSync(path.join(dir, 'a.conf')).mode & 0o777, 0o644, 'mode despite the umask');
      assert.equal(fs.statSync(path.join(dir, 'sub/b.conf')).mode & 0o777, 0o400);
      assert.equal(fs.statSync(path.join(dir, '..2026_01_01_00_00_00.1')).mode & 0o777, 0o755);
      assert.equal(atomicWrite(dir, first, '..2026_01_01_00_00_01.2'), 'unchanged');
      assert.equal(fs.existsSync(path.join(dir, '..2026_01_01_00_00_01.2')), false);
      // a.conf changes, sub/ goes, c.conf comes: a new directory, old entries and the old directory removed.
      const second = [
        { path: 'a.conf', data: enc('A2'), mode: 0o644 },
        { path: 'c.conf', data: enc('C'), mode: 0o644 },
      ];
      assert.equal(atomicWrite(dir, second, '..2026_01_01_00_00_02.3'), 'written');
      assert.deepEqual(fs.readdirSync(dir).sort(), ['..2026_01_01_00_00_02.3', '..data', 'a.conf', 'c.conf']);
      assert.equal(fs.readFileSync(path.join(dir, 'a.conf'), 'utf8'), 'A2');
    } finally {
      process.umask(old);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('mountinfo: mount points unescaped, the type after the separator', () => {
  const text =
    '36 35 98:0 / /mnt/a\\040b rw,noatime master:1 - tmpfs tmpfs rw,size=1024k\n' +
    '37 35 98:0 / /var/lib/kubelet/pods/u/volumes/x rw shared:2 - ext4 /dev/sda1 rw\n';
  assert.deepEqual(parseMountInfo(text), [
    { mountPoint: '/mnt/a b', fsType: 'tmpfs' },
    { mountPoint: '/var/lib/kubelet/pods/u/volumes/x', fsType: 'ext4' },
  ]);
});

test('the operator data: one regular file per key, names and sizes checked, one line per refusal', () => {
  const tree: Record<string, Array<{ name: string; regular: boolean }>> = {
    '/d/cfg': [
      { name: 'app.conf', regular: true },
      { name: 'sub', regular: false },
      { name: 'link', regular: false },
    ],
    '/d/bad': [{ name: 'white space', regular: true }],
    '/d/big': [
      { name: 'a', regular: true },
      { name: 'b', regular: true },
    ],
  };
  const bytes: Record<string, Uint8Array> = {
    '/d/cfg/app.conf': enc('x=1'),
    '/d/big/a': new Uint8Array(700 * 1024),
    '/d/big/b': new Uint8Array(400 * 1024),
    '/d/token': enc('TOK'),
  };
  const reader: VolumeDataReader = {
    readDir: (d) => {
      const e = tree[d];
      if (!e) throw Object.assign(new Error(`ENOENT: no such file or directory, scandir '${d}'`), { code: 'ENOENT' });
      return e;
    },
    readFile: (p) => {
      const b = bytes[p];
      if (!b) throw new Error(`ENOENT: no such file or directory, open '${p}'`);
      return b;
    },
  };
  const d = readVolumeData(
    {
      configmap: ['cfg=/d/cfg'],
      secret: ['shop/db=/d/cfg'],
      serviceAccountToken: ['builder=/d/token'],
      skipVolume: ['x'],
    },
    reader,
  );
  assert.deepEqual(Object.keys(d.configMaps), ['cfg']);
  assert.deepEqual(Object.keys(d.configMaps.cfg!), ['app.conf']);
  assert.deepEqual(Object.keys(d.secrets), ['shop/db']);
  assert.equal(dec(d.serviceAccountTokens.builder!), 'TOK');
  assert.deepEqual(envValuesOf(d, 'shop'), {
    configMaps: { cfg: { 'app.conf': 'x=1' } },
    secrets: { db: { 'app.conf': 'x=1' } },
  });
  assert.deepEqual(envValuesOf(d, 'other').secrets, {});
  const refused: Array<[Parameters<typeof readVolumeData>[0], RegExp]> = [
    [{ configmap: ['cfg'] }, /^--configmap cfg: expected \[NAMESPACE\/\]NAME=DIR$/],
    [{ configmap: ['Bad_Name=/d/cfg'] }, /^--configmap Bad_Name=\/d\/cfg: "Bad_Name" is not a valid object name$/],
    [{ configmap: ['a/b/c=/d/cfg'] }, /expected \[NAMESPACE\/\]NAME before '='/],
    [{ configmap: ['cfg=/d/none'] }, /^--configmap cfg=\/d\/none: ENOENT/],
    [{ configmap: ['cfg=/d/bad'] }, /file name "white space" is not a valid key/],
    [{ secret: ['big=/d/big'] }, /more than 1048576 bytes, the API's limit/],
    [{ configmap: ['cfg=/d/cfg', 'cfg=/d/cfg'] }, /^--configmap cfg is given twice$/],
    [{ serviceAccountToken: ['builder=/d/none'] }, /^--service-account-token builder=\/d\/none: ENOENT/],
  ];
  for (const [flags, re] of refused) throwsLine(() => readVolumeData(flags, reader), re, JSON.stringify(flags));
});

test('fsGroup: every emptyDir and file volume gets SetVolumeOwnership, file volumes read-only', () => {
  const p = pod(
    [
      { name: 'scratch', emptyDir: {} },
      { name: 'cfg', configMap: { name: 'cfg' } },
    ],
    { securityContext: { fsGroup: 2000 } },
  );
  const c = {
    name: 'app',
    image: 'busybox',
    volumeMounts: [
      { name: 'scratch', mountPath: '/s' },
      { name: 'cfg', mountPath: '/c' },
    ],
  };
  const setup = {
    data: data({ configMaps: { cfg: CFG } }),
    nowMs: 0,
    random: '1',
    nodeAllocatableMemory: 1024 ** 3,
    sizeMemoryBackedVolumes: true,
    noswap: false,
  };
  const { effects } = makeMounts(p, c, { ...MOUNT_BASE, volumeSetup: setup });
  assert.deepEqual(
    effects
      .filter((e) => e.kind === 'volumeOwnership')
      .map((e) =>
        e.kind === 'volumeOwnership' ? [e.path.split('/').slice(-2).join('/'), e.gid, e.readOnly, e.bestEffort] : [],
      ),
    [
      ['kubernetes.io~empty-dir/scratch', 2000, false, true],
      ['kubernetes.io~configmap/cfg', 2000, true, false],
    ],
  );
  // Without fsGroup nothing changes ownership.
  const plain = makeMounts(
    pod([{ name: 'scratch', emptyDir: {} }]),
    { name: 'app', image: 'b', volumeMounts: [{ name: 'scratch', mountPath: '/s' }] },
    MOUNT_BASE,
  );
  assert.ok(plain.effects.every((e) => e.kind !== 'volumeOwnership'));
});

test('SetVolumeOwnership on a real directory: group, g+r (read-only) or g+rw, directories setgid and g+x, symlinks not followed', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-owner-'));
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-owner-outside-'));
  try {
    fs.mkdirSync(path.join(dir, 'sub'), { mode: 0o700 });
    fs.chmodSync(path.join(dir, 'sub'), 0o700);
    fs.writeFileSync(path.join(dir, 'sub', 'f'), 'x', { mode: 0o600 });
    fs.chmodSync(path.join(dir, 'sub', 'f'), 0o600);
    fs.writeFileSync(path.join(outside, 'target'), 'y');
    fs.chmodSync(path.join(outside, 'target'), 0o600);
    fs.symlinkSync(path.join(outside, 'target'), path.join(dir, 'link'));
    volumeOwnership(dir, 2000, true);
    const mode = (p: string) => (fs.lstatSync(p).mode & 0o7777).toString(8);
    assert.equal(mode(path.join(dir, 'sub')), '2750');
    assert.equal(mode(path.join(dir, 'sub', 'f')), '640');
    assert.equal(fs.lstatSync(path.join(dir, 'sub', 'f')).gid, 2000);
    assert.equal(fs.lstatSync(path.join(dir, 'link')).gid, 2000);
    assert.equal(mode(path.join(outside, 'target')), '600', 'the symlink target is left alone');
    assert.notEqual(fs.statSync(path.join(outside, 'target')).gid, 2000);
    volumeOwnership(path.join(dir, 'sub'), 2000, false);
    assert.equal(mode(path.join(dir, 'sub', 'f')), '660');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  }
});
