// Golden files for every read view: what `crictl pods|ps|images|inspect*|info|version` print.
// Regenerate with UPDATE_GOLDEN=1 after checking the difference by eye.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
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
  // In this process: before each output, the views and the packages are taken out of the module
  // cache (this file has loaded them itself), so the views are evaluated afresh and a package shows
  // in the cache again only when the output requires it. crictl's lists (pods, ps, images) are laid
  // out by the tabwriter mirror: cli-table3 (syncpod's own views) never loads.
  const PACKAGE = /node_modules\/(cli-table3|yaml|chalk)\//;
  const root = join(__dirname, '..', '..');
  const fresh = () => {
    for (const key of Object.keys(require.cache))
      if (PACKAGE.test(key) || key.startsWith(join(root, 'src') + '/')) delete require.cache[key];
    return {
      views: {
        ...(require('../../src/render/pods-view') as typeof import('../../src/render/pods-view')),
        ...(require('../../src/render/containers-view') as typeof import('../../src/render/containers-view')),
        ...(require('../../src/render/images-view') as typeof import('../../src/render/images-view')),
      },
      colour: require('../../src/render/colour') as typeof import('../../src/render/colour'),
    };
  };
  const loaded = () =>
    [
      ...new Set(
        Object.keys(require.cache)
          .map((p) => PACKAGE.exec(p)?.[1])
          .filter(Boolean),
      ),
    ].sort();
  type Fresh = ReturnType<typeof fresh>;
  const cases: Array<[string, (f: Fresh) => string, string[]]> = [
    ['pods -q', (f) => f.views.formatPods(pods, { ...base, output: 'table', quiet: true }), []],
    ['pods -o json', (f) => f.views.formatPods(pods, { ...base, output: 'json' }), []],
    ['pods', (f) => f.views.formatPods(pods, { ...base, output: 'table' }), []],
    ['ps', (f) => f.views.formatContainers(containers, { ...base, output: 'table' }), []],
    ['images', (f) => f.views.formatImages(images, { ...base, output: 'table' }), []],
    [
      'ps in colour',
      (f) => f.views.formatContainers(containers, { ...base, output: 'table', colours: f.colour.ansiColours }),
      ['chalk'],
    ],
    ['pods -o yaml', (f) => f.views.formatPods(pods, { ...base, output: 'yaml' }), ['yaml']],
    [
      'pods in colour',
      (f) => f.views.formatPods(pods, { ...base, output: 'table', colours: f.colour.ansiColours }),
      ['chalk'],
    ],
  ];
  // The other test files of this process keep their module instances: the cache is put back after.
  const saved = { ...require.cache };
  try {
    for (const [what, call, want] of cases) {
      const f = fresh();
      assert.deepEqual(loaded(), [], `${what}: the cache was emptied`);
      assert.ok(call(f).length > 0, what);
      assert.deepEqual(loaded(), want, what);
    }
  } finally {
    for (const key of Object.keys(require.cache)) delete require.cache[key];
    Object.assign(require.cache, saved);
  }
});

const importsOf = new Map<string, { files: string[]; packages: string[] }>();

/**
 * One file's top-level value imports: project files (resolved) and packages / node built-ins. The
 * files are in the project's format (biome): a top-level import or re-export starts a line and ends
 * with `from '...';` (or is `import '...';`).
 */
function topLevelImports(file: string): { files: string[]; packages: string[] } {
  const known = importsOf.get(file);
  if (known) return known;
  const found = { files: [] as string[], packages: [] as string[] };
  const text = readFileSync(file, 'utf8');
  const statement = /^(import|export)\b([^;]*?)\bfrom '([^']+)';|^import '([^']+)';/gms;
  for (const m of text.matchAll(statement)) {
    const clause = (m[2] ?? '').trim();
    const spec = m[3] ?? m[4]!;
    if (m[1] === 'export' && !clause.startsWith('{') && !clause.startsWith('*')) continue;
    // `import type …`, `export type …`, and `{ type A, type B }` load nothing.
    if (/^type\b/.test(clause)) continue;
    const names = /^\{([^}]*)\}$/.exec(clause)?.[1];
    if (names !== undefined) {
      const list = names
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean);
      if (list.length > 0 && list.every((n) => n.startsWith('type '))) continue;
    }
    if (spec.startsWith('.')) {
      const base = resolve(dirname(file), spec);
      const target = [`${base}.ts`, join(base, 'index.ts'), base].find((f) => existsSync(f));
      if (!target) throw new Error(`${file}: cannot resolve ${spec}`);
      if (target.endsWith('.ts')) found.files.push(target); // data (a .json schema) imports nothing
    } else if (spec.startsWith('node:') || builtinModules.includes(spec)) {
      found.packages.push(`node:${spec.replace(/^node:/, '')}`);
    } else {
      found.packages.push(
        spec
          .split('/')
          .slice(0, spec.startsWith('@') ? 2 : 1)
          .join('/'),
      );
    }
  }
  importsOf.set(file, found);
  return found;
}

/**
 * What evaluating these modules evaluates: the modules they import at their top level, transitively
 * (an `import type`, an import whose names are all types, and a `require()` or `import()` inside a
 * function load nothing when the module loads). Returns the packages and node built-ins reached.
 */
function loadedBy(entries: string[]): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const todo = [...entries];
  while (todo.length) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const { files, packages: p } = topLevelImports(file);
    todo.push(...files);
    for (const x of p) packages.add(x);
  }
  return packages;
}

test('loading a command loads no heavy package beyond what its flow always needs (yaml for manifests)', async () => {
  // Heavy packages stay behind their adapters: the command table, a command's run.ts (and everything
  // they import at their top level) evaluate none of them, nor node:http2; they load when an output
  // or a runtime call needs them. Read from the import graph, in this process.
  const { COMMANDS } = await import('../../src/cli/command-table');
  const src = join(__dirname, '..', '..', 'src');
  const HEAVY = new Set(['yaml', 'cli-table3', 'chalk', 'ora', 'ws', '@grpc/grpc-js', 'node:http2']);
  const heavy = (files: string[]) => [...loadedBy(files)].filter((p) => HEAVY.has(p)).sort();
  assert.deepEqual(heavy([join(src, 'main.ts')]), [], 'the core (main and the command table)');
  // rmi (--prune --node) and stop/rm/rmp (-a --node) read the desired pods' manifests; doctor reads the static
  // pods'. start and stopp take IDs only (each command's own run.ts, so they no longer share the others' imports).
  const MANIFEST_COMMANDS = new Set(['plan', 'sync', 'runp', 'create', 'pull', 'rmi', 'stop', 'rm', 'rmp', 'doctor']);
  assert.ok(COMMANDS.length >= 25, 'the table lists every command');
  const got: Record<string, string[]> = {};
  const wanted: Record<string, string[]> = {};
  for (const c of COMMANDS) {
    // The row loads the command's own run.ts, found by its name.
    const loader = /import\(["']\.\/commands\/([^/"']+)\/run["']\)/.exec(c.load.toString());
    assert.equal(loader?.[1], c.name, `the row of ${c.name} loads src/cli/commands/${c.name}/run.ts`);
    // __warm (the build's warm-up run) serves its calls from a node:http2 server of its own.
    const want = MANIFEST_COMMANDS.has(c.name) ? ['yaml'] : c.name === '__warm' ? ['node:http2'] : [];
    got[c.name] = heavy([join(src, 'main.ts'), join(src, 'cli', 'commands', c.name, 'run.ts')]);
    wanted[c.name] = want;
  }
  assert.deepEqual(got, wanted);
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
