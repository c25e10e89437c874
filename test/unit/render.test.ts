// Golden files for every read view: what `crictl pods|ps|images|inspect*|info|version` print.
// Regenerate with UPDATE_GOLDEN=1 after checking the difference by eye.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { runtimeV1 } from '../../src/cri/gen/runtime-v1';
import { toProtoJSON } from '../../src/cri/json';
import { ansiColours, plainColours } from '../../src/render/colour';
import { formatPods } from '../../src/render/pods-view';
import { formatContainers } from '../../src/render/containers-view';
import { formatImages } from '../../src/render/images-view';
import {
  formatInfo,
  formatInspectContainers,
  formatInspectImages,
  formatInspectPods,
  formatVersion,
} from '../../src/render/inspect-view';
import type { JsonObject } from '../../src/render/json';
import { utcZone } from '../../src/render/text';
import type { ContainerStatus, PodSandboxStatus } from '../../src/cri/types';
import { NOW_NS, containers, images, pods } from '../fixtures/render/inputs';
import { parse as parseYaml } from 'yaml';
import { yamlText } from '../../src/render/yaml';

const GOLDEN = join(__dirname, '..', 'fixtures', 'render');
const toJSON = (typeName: string, message: unknown) => toProtoJSON(runtimeV1, typeName, message) as JsonObject;
const base = { nowNs: NOW_NS, colours: plainColours, toJSON };

const podStatus: PodSandboxStatus = {
  id: pods[0].id,
  metadata: pods[0].metadata,
  state: 'SANDBOX_READY',
  createdAt: '1700000000123456000',
  network: { ip: '10.88.0.4', additionalIps: [] },
  labels: { app: 'nginx' },
  annotations: {},
  runtimeHandler: '',
} as unknown as PodSandboxStatus;

const containerStatus = (state: ContainerStatus['state'], finishedAt: string): ContainerStatus =>
  ({
    id: containers[0].id,
    metadata: { name: 'nginx', attempt: 1 },
    state,
    createdAt: '1700000000000000000',
    startedAt: '1700000001500000000',
    finishedAt,
    exitCode: state === 'CONTAINER_EXITED' ? 137 : 0,
    image: containers[0].image,
    imageRef: containers[0].imageRef,
    reason: state === 'CONTAINER_EXITED' ? 'OOMKilled' : '',
    message: '',
    labels: {},
    annotations: { 'io.kubernetes.container.hash': 'abc' },
    mounts: [],
    logPath: '/var/log/pods/default_nginx/nginx/1.log',
    imageId: '',
  }) as unknown as ContainerStatus;

const cases: Array<[string, () => string]> = [
  ['pods-table.txt', () => formatPods(pods, { ...base, output: 'table' })],
  ['pods-table-no-trunc.txt', () => formatPods(pods, { ...base, output: 'table', noTrunc: true })],
  ['pods-quiet.txt', () => formatPods(pods, { ...base, output: 'table', quiet: true })],
  ['pods-empty.txt', () => formatPods([], { ...base, output: 'table' })],
  ['pods-colour.txt', () => formatPods(pods, { ...base, output: 'table', colours: ansiColours })],
  ['pods.json', () => formatPods(pods, { ...base, output: 'json' })],
  ['pods-empty.json', () => formatPods([], { ...base, output: 'json' })],
  ['pods.yaml', () => formatPods(pods, { ...base, output: 'yaml' })],
  ['ps-table.txt', () => formatContainers(containers, { ...base, output: 'table' })],
  ['ps-table-no-trunc.txt', () => formatContainers(containers, { ...base, output: 'table', noTrunc: true })],
  ['ps-quiet.txt', () => formatContainers(containers, { ...base, output: 'table', quiet: true })],
  ['ps-empty.txt', () => formatContainers([], { ...base, output: 'table' })],
  ['ps.json', () => formatContainers(containers, { ...base, output: 'json' })],
  ['ps-empty.json', () => formatContainers([], { ...base, output: 'json' })],
  ['ps.yaml', () => formatContainers(containers, { ...base, output: 'yaml' })],
  ['images-table.txt', () => formatImages(images, { ...base, output: 'table' })],
  ['images-digests.txt', () => formatImages(images, { ...base, output: 'table', digests: true })],
  [
    'images-digests-no-trunc.txt',
    () => formatImages(images, { ...base, output: 'table', digests: true, noTrunc: true }),
  ],
  ['images-pinned.txt', () => formatImages(images, { ...base, output: 'table', pinned: true })],
  ['images-quiet.txt', () => formatImages(images, { ...base, output: 'table', quiet: true })],
  ['images-empty.txt', () => formatImages([], { ...base, output: 'table' })],
  ['images.json', () => formatImages(images, { ...base, output: 'json' })],
  ['images.yaml', () => formatImages(images, { ...base, output: 'yaml' })],
  [
    'inspectp.json',
    () =>
      formatInspectPods(
        [
          {
            status: podStatus,
            info: { info: '{"pid":4242,"image":"registry.k8s.io/pause:3.9","runtimeSpec":{"ociVersion":"1.1.0"}}' },
            containersStatuses: [],
            timestamp: '0',
          },
        ],
        {
          output: 'json',
          toJSON,
          zone: utcZone,
        },
      ),
  ],
  [
    'inspectp-offset.yaml',
    () =>
      formatInspectPods([{ status: podStatus, info: {}, containersStatuses: [], timestamp: '0' }], {
        output: 'yaml',
        toJSON,
        zone: { offsetMinutes: () => 120 },
      }),
  ],
  [
    'inspect-two.json',
    () =>
      formatInspectContainers(
        [
          { status: containerStatus('CONTAINER_RUNNING', '0'), info: { sandboxID: '"abc"' } },
          { status: containerStatus('CONTAINER_EXITED', '1700000100000000000'), info: {} },
        ],
        { output: 'json', toJSON, zone: utcZone },
      ),
  ],
  [
    'inspect-created.yaml',
    () =>
      formatInspectContainers([{ status: containerStatus('CONTAINER_CREATED', '0'), info: {} }], {
        output: 'yaml',
        toJSON,
        zone: utcZone,
      }),
  ],
  [
    'inspecti.json',
    () =>
      formatInspectImages([{ image: images[1], info: { info: '{"chainID":"sha256:abc"}' } }], ['pause'], {
        output: 'json',
        toJSON,
      }),
  ],
  [
    'info.json',
    () =>
      formatInfo(
        {
          status: {
            conditions: [
              { type: 'RuntimeReady', status: true, reason: '', message: '' },
              {
                type: 'NetworkReady',
                status: false,
                reason: 'NetworkPluginNotReady',
                message: 'cni plugin not initialized',
              },
            ],
          },
          info: {
            config: '{"enableSelinux":false,"cni":{"binDir":"/opt/cni/bin"}}',
            golang: '"go1.22.5"',
            lastCNILoadStatus: 'OK',
          },
          runtimeHandlers: [
            { name: '', features: { recursiveReadOnlyMounts: true, userNamespaces: true } },
            { name: 'runc', features: { recursiveReadOnlyMounts: false, userNamespaces: false } },
          ],
          features: { supplementalGroupsPolicy: true, userNamespacesHostNetwork: false, mountOptions: false },
        },
        { output: 'json', toJSON },
      ),
  ],
  [
    'info-quiet.yaml',
    () =>
      formatInfo(
        {
          status: { conditions: [{ type: 'RuntimeReady', status: true, reason: '', message: '' }] },
          info: {},
          runtimeHandlers: [],
        },
        { output: 'yaml', toJSON },
      ),
  ],
  [
    'version.txt',
    () =>
      formatVersion({
        version: '0.1.0',
        runtimeName: 'containerd',
        runtimeVersion: 'v1.7.22',
        runtimeApiVersion: 'v1',
      }),
  ],
];

for (const [name, render] of cases) {
  test(`golden ${name}`, () => {
    const actual = render();
    const path = join(GOLDEN, name);
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(path, actual);
    assert.equal(actual, readFileSync(path, 'utf8'));
  });
}

test('the table lines up the same with and without colour', () => {
  const strip = (s: string) => s.replace(/\u001b\[\d+m/g, '');
  const plain = formatPods(pods, { ...base, output: 'table' });
  const coloured = formatPods(pods, { ...base, output: 'table', colours: ansiColours });
  assert.notEqual(coloured, plain);
  assert.equal(strip(coloured), plain);
});

test('-o yaml and -o json carry the same data with the same field names', () => {
  const pairs: Array<[string, (output: 'json' | 'yaml') => string]> = [
    ['pods', (output) => formatPods(pods, { ...base, output })],
    ['no pods', (output) => formatPods([], { ...base, output })],
    ['ps', (output) => formatContainers(containers, { ...base, output })],
    ['images', (output) => formatImages(images, { ...base, output })],
    [
      'inspectp',
      (output) =>
        formatInspectPods(
          [{ status: podStatus, info: { info: '{"pid":4242,"flag":"y"}' }, containersStatuses: [], timestamp: '0' }],
          { output, toJSON, zone: utcZone },
        ),
    ],
    [
      'inspect',
      (output) =>
        formatInspectContainers([{ status: containerStatus('CONTAINER_EXITED', '1700000100000000000'), info: {} }], {
          output,
          toJSON,
          zone: utcZone,
        }),
    ],
    ['inspecti', (output) => formatInspectImages([{ image: images[1], info: {} }], ['pause'], { output, toJSON })],
  ];
  for (const [name, render] of pairs) {
    const json = JSON.parse(render('json'));
    const yamlOut = render('yaml');
    assert.deepEqual(parseYaml(yamlOut), json, `${name}: read as YAML 1.2`);
    assert.deepEqual(parseYaml(yamlOut, { version: '1.1' }), json, `${name}: read as YAML 1.1 (go-yaml, kubectl)`);
  }
});

test('each output loads only the package it needs: -q, JSON and tables none, YAML yaml, colour chalk', () => {
  // A fresh process per output, since this file has loaded the packages itself. crictl's lists
  // (pods, ps, images) are laid out by the tabwriter mirror: cli-table3 (syncpod's own views) never loads.
  const script = (call: string) => `
    const { formatPods } = require('./src/render/pods-view.ts');
    const { formatContainers } = require('./src/render/containers-view.ts');
    const { formatImages } = require('./src/render/images-view.ts');
    const { ansiColours, plainColours } = require('./src/render/colour.ts');
    const { toProtoJSON } = require('./src/cri/json.ts');
    const { runtimeV1 } = require('./src/cri/gen/runtime-v1.ts');
    const { pods, containers, images, NOW_NS } = require('./test/fixtures/render/inputs.ts');
    const base = { nowNs: NOW_NS, colours: plainColours, toJSON: (t, m) => toProtoJSON(runtimeV1, t, m) };
    ${call};
    const names = Object.keys(require.cache).map((p) => /node_modules\\/(cli-table3|yaml|chalk)\\//.exec(p)?.[1]).filter(Boolean);
    process.stdout.write(JSON.stringify([...new Set(names)].sort()));`;
  const cases: Array<[string, string[]]> = [
    ["formatPods(pods, { ...base, output: 'table', quiet: true })", []],
    ["formatPods(pods, { ...base, output: 'json' })", []],
    ["formatPods(pods, { ...base, output: 'table' })", []],
    ["formatContainers(containers, { ...base, output: 'table' })", []],
    ["formatImages(images, { ...base, output: 'table' })", []],
    ["formatContainers(containers, { ...base, output: 'table', colours: ansiColours })", ['chalk']],
    ["formatPods(pods, { ...base, output: 'yaml' })", ['yaml']],
    ["formatPods(pods, { ...base, output: 'table', colours: ansiColours })", ['chalk']],
  ];
  for (const [call, want] of cases) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', script(call)], {
      cwd: join(__dirname, '..', '..'),
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), want, call);
  }
});

test('loading a command loads no heavy package beyond what its flow always needs (yaml for manifests)', async () => {
  // Heavy packages stay behind their adapters: a command's module (and everything it imports
  // statically) evaluates none of them, nor node:http2; they load when an output or a runtime call
  // needs them.
  // Each command is loaded through the table's own loader, in a fresh process.
  const { COMMANDS } = await import('../../src/cli/command-table');
  // rmi (--prune --node) and the lifecycle commands (stop/rm/rmp -a --node) read the desired pods' manifests; doctor reads the static pods'.
  const MANIFEST_COMMANDS = new Set(['plan', 'sync', 'runp', 'create', 'pull', 'rmi', 'stop', 'rm', 'rmp', 'doctor']);
  const script = `
    const { COMMANDS } = require('./src/cli/command-table.ts');
    COMMANDS.find((c) => c.name === process.env.SYNCPOD_TEST_COMMAND).load().then((handler) => {
      if (typeof handler !== 'function') throw new Error('no handler');
      const names = Object.keys(require.cache).map((p) => /node_modules\\/(yaml|cli-table3|chalk|ora|@grpc\\/grpc-js)\\//.exec(p)?.[1]).filter(Boolean);
      // The CRI client (grpc-js, and node:http2 with tls and crypto under it) loads at the first call, not with the module.
      if (process.moduleLoadList.includes('NativeModule http2')) names.push('node:http2');
      process.stdout.write(JSON.stringify([...new Set(names)].sort()));
    });`;
  const loadIn = (name: string) =>
    new Promise<string[]>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], {
        cwd: join(__dirname, '..', '..'),
        env: { ...process.env, SYNCPOD_TEST_COMMAND: name },
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`${name}: ${err}`))));
    });
  assert.ok(COMMANDS.length >= 25, 'the table lists every command');
  // One process per command module (commands that share a module load the same code).
  const moduleOf = (c: (typeof COMMANDS)[number]) =>
    /import\(["']([^"']+)["']\)/.exec(c.load.toString())?.[1] ?? c.name;
  const groups = new Map<string, string[]>();
  for (const c of COMMANDS) groups.set(moduleOf(c), [...(groups.get(moduleOf(c)) ?? []), c.name]);
  const firsts = [...groups.values()].map((names) => names[0]);
  for (let i = 0; i < firsts.length; i += 2) {
    const pair = firsts.slice(i, i + 2);
    const loaded = await Promise.all(pair.map((name) => loadIn(name)));
    pair.forEach((first, j) => {
      for (const name of [...groups.values()].find((g) => g[0] === first)!) {
        // __warm (the build's warm-up run) serves its calls from a node:http2 server of its own.
        const want = MANIFEST_COMMANDS.has(name) ? ['yaml'] : name === '__warm' ? ['node:http2'] : [];
        assert.deepEqual(loaded[j], want, `syncpod ${name}`);
      }
    });
  }
});

test('-q is ignored with -o json, as crictl does', () => {
  assert.equal(
    formatPods(pods, { ...base, output: 'json', quiet: true }),
    formatPods(pods, { ...base, output: 'json' }),
  );
});

test('inspecti of a missing image is a one-line error naming the reference', () => {
  assert.throws(() => formatInspectImages([{ info: {} }], ['busybox'], { output: 'json', toJSON }), {
    name: 'SyncpodError',
    message: 'no such image "busybox" present',
  });
});

test('an info entry that starts with "{" but is not JSON is a one-line error', () => {
  assert.throws(
    () =>
      formatInspectPods([{ status: podStatus, info: { info: '{oops' }, containersStatuses: [], timestamp: '0' }], {
        output: 'json',
        toJSON,
        zone: utcZone,
      }),
    (err: Error) => err.name === 'SyncpodError' && !err.message.includes('\n') && err.message.includes('"info"'),
  );
});

test('inspect of nothing prints nothing', () => {
  assert.equal(formatInspectContainers([], { output: 'json', toJSON, zone: utcZone }), '');
});

test('the one YAML writer quotes what a YAML 1.1 reader would turn into a bool, number or null (plan, version)', () => {
  const data = {
    pod: { namespace: 'no', name: 'yes' },
    containers: ['on', 'off', 'y', 'N', '1_000', '0x1F', '1:20', '~', 'null', '1.10'],
    version: '0.1.0',
  };
  for (const sortKeys of [true, false]) {
    const text = yamlText(data, { sortKeys });
    assert.deepEqual(
      parseYaml(text, { version: '1.1' }),
      data,
      `YAML 1.1 reads the strings back (sortKeys ${sortKeys})`,
    );
    assert.deepEqual(parseYaml(text), data);
  }
});
