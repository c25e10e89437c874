// Property: whatever path-shaped value a manifest puts in a field that becomes part of a host path
// (uid, namespace, name, container and volume names, subPath, subPathExpr and the variable it
// expands, fileKeyRef.path, terminationMessagePath), loading refuses it or the executor (fake CRI,
// real filesystem under temp roots) creates nothing outside its roots. Seeded, so a failure names
// the seed and case that reproduce it.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseManifestText } from '../../src/manifest/parse';
import { apiRulesOfKubelet } from '../../src/manifest/api-rules';
import { resolveKubeletRules } from '../../src/kubelet/kubelet-version';
import { buildPlan } from '../../src/plan/plan';
import { executePlan } from '../../src/sync/execute';
import { nodeFs } from '../../src/sync/node-fs';
import { pathWithinBase, safeOpen } from '../../src/sync/subpath';
import type { SyncFs } from '../../src/sync/types';
import { SyncpodError } from '../../src/errors';
import { seeded } from '../fixtures/seeded';
import { gatesAt } from '../fixtures/gates';
import { FakeCri } from '../fixtures/fake-cri';
import { FakeClock } from '../fixtures/fake-clock';

const outer = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-path-fields-'));
// Deep enough that a value climbing out with '..' lands inside `outer`, where the test sees it.
const base = path.join(outer, 'a', 'b', 'c', 'd', 'e', 'f');
const roots = { kubelet: `${base}/kubelet`, logs: `${base}/logs`, legacy: `${base}/containers` };
after(() => fs.rmSync(outer, { recursive: true, force: true }));

const HOSTILE = [
  '..',
  '.',
  '../x',
  '../../../../../../../x',
  '/',
  '/x',
  'a/b',
  'a/../../x',
  'x/..',
  'a\0b',
  '\0',
  'x'.repeat(300),
  'ü/../..',
  '\u2025',
  '..\u2215x',
  ' ',
  '',
  '~',
  'link',
];

type Field =
  | 'uid'
  | 'namespace'
  | 'name'
  | 'container'
  | 'init'
  | 'volume'
  | 'subPath'
  | 'subPathExprVar'
  | 'subPathExpr'
  | 'fileKeyRefPath'
  | 'terminationMessagePath';
const FIELDS: Field[] = [
  'uid',
  'namespace',
  'name',
  'container',
  'init',
  'volume',
  'subPath',
  'subPathExprVar',
  'subPathExpr',
  'fileKeyRefPath',
  'terminationMessagePath',
];

function manifest(field: Field, value: string): object {
  const set = (f: Field, dflt: string) => (f === field ? value : dflt);
  const volume = set('volume', 'v');
  const mount: Record<string, unknown> = { name: volume, mountPath: '/v' };
  if (field === 'subPath') mount.subPath = value;
  if (field === 'subPathExpr') mount.subPathExpr = value;
  if (field === 'subPathExprVar') mount.subPathExpr = '$(SUB)';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: set('name', 'web'),
      namespace: set('namespace', 'shop'),
      uid: set('uid', '11111111-2222-4333-8444-555555555555'),
    },
    spec: {
      volumes: [{ name: volume, emptyDir: {} }],
      initContainers: [{ name: set('init', 'init'), image: 'busybox:1.36', imagePullPolicy: 'IfNotPresent' }],
      containers: [
        {
          name: set('container', 'app'),
          image: 'busybox:1.36',
          imagePullPolicy: 'IfNotPresent',
          terminationMessagePath: set('terminationMessagePath', '/dev/termination-log'),
          env: [
            { name: 'SUB', value: field === 'subPathExprVar' ? value : 'ok' },
            ...(field === 'fileKeyRefPath'
              ? [{ name: 'TOKEN', valueFrom: { fileKeyRef: { volumeName: volume, path: value, key: 'TOKEN' } } }]
              : []),
          ],
          volumeMounts: [mount],
        },
      ],
    },
  };
}

/** The real filesystem, except that a subPath is resolved and checked but not bind-mounted (no mounts in unit tests). */
const fsUnderTest: SyncFs = {
  ...nodeFs,
  bindSubPath(m) {
    const volume = fs.realpathSync(m.volumePath);
    const resolved = fs.realpathSync(path.join(m.volumePath, m.subPath));
    if (!pathWithinBase(resolved, volume)) throw new Error('outside the volume');
    fs.closeSync(safeOpen(resolved, volume));
  },
  cleanSubPaths: () => [],
};

function allPaths(dir: string): string[] {
  const out: string[] = [];
  for (const n of fs.readdirSync(dir)) {
    const p = path.join(dir, n);
    out.push(p);
    if (fs.lstatSync(p).isDirectory()) out.push(...allPaths(p));
  }
  return out;
}

const inRoots = (p: string) =>
  Object.values(roots).some((r) => p === r || p.startsWith(`${r}/`)) || base.startsWith(`${p}/`) || p === base;

test('path-shaped values in every field that reaches a host path: refused, or nothing made outside the roots', async () => {
  const seed = 27;
  const random = seeded(seed);
  const rules = resolveKubeletRules('1.35');
  const api = apiRulesOfKubelet(rules);
  const node = {
    podLogsRoot: roots.logs,
    kubeletRoot: roots.kubelet,
    resolvConf: null,
    clusterDomain: 'cluster.local',
    hugePageSizes: [],
    gates: gatesAt(35),
  };
  let refused = 0;
  let executed = 0;
  for (let i = 0; i < 120; i++) {
    const field = FIELDS[Math.floor(random() * FIELDS.length)]!;
    const value = HOSTILE[Math.floor(random() * HOSTILE.length)]!;
    const what = `seed ${seed} case ${i}: ${field} = ${JSON.stringify(value)}`;
    fs.rmSync(base, { recursive: true, force: true });
    for (const r of Object.values(roots)) fs.mkdirSync(r, { recursive: true });
    let pods;
    try {
      pods = parseManifestText(JSON.stringify(manifest(field, value)), 'prop.json', { api });
    } catch (err) {
      assert.ok(err instanceof SyncpodError, `${what}: ${String(err)}`);
      assert.match(err.message, /^prop\.json: document 1: /, what);
      assert.ok(!err.message.includes('\n'), `${what}: one line`);
      refused++;
      assert.deepEqual(
        allPaths(outer).filter((p) => !inRoots(p)),
        [],
        what,
      );
      continue;
    }
    const pod = pods[0]!.pod;
    const status = {
      uid: pod.metadata!.uid!,
      name: pod.metadata!.name!,
      namespace: pod.metadata!.namespace!,
      ips: [],
      sandboxStatuses: [],
      containerStatuses: [],
    };
    try {
      const plan = buildPlan({ pod, podStatus: status, now: Date.now(), options: { rules } });
      // A planted link in the volume: subPath "link" and fileKeyRef "link" must not follow it out.
      const vol = `${roots.kubelet}/pods/${pod.metadata!.uid}/volumes/kubernetes.io~empty-dir`;
      fs.mkdirSync(`${vol}/${pod.spec!.volumes![0]!.name}`, { recursive: true });
      fs.symlinkSync(outer, `${vol}/${pod.spec!.volumes![0]!.name}/link`);
      await executePlan(
        {
          plan,
          pod,
          status,
          sandboxOptions: { ...node, configSeen: '2025-01-01T12:00:00.000000000Z' },
          containerOptions: node,
          legacyLogDir: roots.legacy,
        },
        {
          runtime: new FakeCri() as any,
          image: new FakeCri() as any,
          fs: fsUnderTest,
          clock: new FakeClock(Date.now()),
          randomHex: () => '0badc0de',
          requestTimeoutMs: 1000,
          pullTimeoutMs: 1000,
        },
      );
      executed++;
    } catch (err) {
      assert.ok(err instanceof SyncpodError, `${what}: ${String(err)}`);
    }
    assert.deepEqual(
      allPaths(outer).filter((p) => !inRoots(p)),
      [],
      `${what}: made outside the roots`,
    );
  }
  assert.ok(refused > 0 && executed > 0, `both outcomes seen (refused ${refused}, executed ${executed})`);
});
