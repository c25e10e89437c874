// The workflows with the hand-written fakes: node settings from host facts, the sync flow's order
// (lock before a uid is chosen, one observation and one plan per round, every runtime call timed),
// plan-pods' plan data, and the one prepare-container path (the ephemeral target drift).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { HostFacts } from '../../src/workflows/host-facts';
import { nodeSettings } from '../../src/workflows/node-settings';
import { planPods, resolveRules } from '../../src/workflows/plan-pods';
import { dryRunSync, runSync, type SyncFlowDeps } from '../../src/workflows/sync-flow';
import { prepareContainer } from '../../src/sync/prepare-container';
import type { ExecuteDeps } from '../../src/sync/execute';
import { StepError } from '../../src/sync/types';
import { basePod } from '../fixtures/planner/base';
import { FakeCri, FakeFs } from '../fixtures/fake-cri';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-workflows-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const kubelet = resolveRules('1.33', undefined);

function host(given: Record<string, string> = {}): HostFacts & { read: string[] } {
  const read: string[] = [];
  const files: Record<string, string> = { '/etc/resolv.conf': 'nameserver 192.0.2.53\n', ...given };
  return {
    read,
    readFile(p) {
      read.push(p);
      if (!(p in files))
        throw Object.assign(new Error(`ENOENT: no such file or directory, open '${p}'`), { code: 'ENOENT' });
      return files[p];
    },
    cgroupVersion: () => 2,
    hostname: () => 'node-a',
    nodeIPs: () => ['192.0.2.10'],
    cpuCount: () => 4,
    memoryBytes: () => 8 * 2 ** 30,
    hugePageSizes: () => ['2Mi'],
  };
}

function manifest(name: string, body: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, body);
  return file;
}

const WEB = `apiVersion: v1
kind: Pod
metadata: {name: web, namespace: shop}
spec:
  containers:
  - {name: app, image: nginx:1.25, imagePullPolicy: IfNotPresent}
`;

test('node settings come from the flags and the host facts, nothing else', () => {
  const h = host({ '/etc/hosts': '127.0.0.1 localhost\n' });
  const pod = basePod();
  pod.spec!.hostNetwork = true;
  const s = nodeSettings(
    { resolvConf: '/etc/resolv.conf', clusterDns: '10.0.0.10, 10.0.0.11', podLogsRoot: '/logs/pods/' },
    pod,
    kubelet.rules,
    h,
  );
  assert.deepEqual(s.sandbox.clusterDNS, ['10.0.0.10', '10.0.0.11']);
  assert.equal(s.sandbox.cgroupVersion, 2);
  assert.deepEqual(s.container.nodeIPs, ['192.0.2.10']);
  assert.equal(s.container.nodeHostsFile, '127.0.0.1 localhost\n', 'a host-network pod gets the node /etc/hosts');
  assert.deepEqual(s.container.nodeAllocatable, { cpu: '4', memory: String(8 * 2 ** 30) });
  assert.deepEqual(s.container.hugePageSizes, ['2Mi']);
  assert.equal(s.podLogsRoot, '/logs/pods');
  assert.equal(s.legacyLogDir, '/logs/containers');
  assert.deepEqual(h.read, ['/etc/resolv.conf', '/etc/hosts']);
  assert.throws(() => nodeSettings({ resolvConf: '/nope' }, basePod(), kubelet.rules, host()), {
    message: '--resolv-conf /nope: no such file or directory',
  });
  assert.throws(
    () => nodeSettings({ cgroupDriver: 'cgroup' }, basePod(), kubelet.rules, host()),
    /--cgroup-driver: must be cgroupfs or systemd/,
  );
});

function flowDeps(cri: FakeCri, events: string[], t = { now: 0 }): SyncFlowDeps {
  const execute: ExecuteDeps = {
    runtime: cri as never,
    image: cri as never,
    fs: new FakeFs(),
    // Every runtime call takes 5 ms of the monotonic clock (see the FakeCri wrapper below).
    clock: { now: () => 1_700_000_000_000, monotonic: () => t.now, sleep: async () => undefined },
    randomHex: () => '0badc0de',
    requestTimeoutMs: 120_000,
    pullTimeoutMs: 600_000,
  };
  const call = cri.call.bind(cri);
  cri.call = async (method: string, req: any) => {
    events.push(method);
    t.now += 5;
    return call(method, req);
  };
  return {
    execute,
    host: host(),
    readStdin: async () => '',
    lockPod: async (ns, name) => {
      events.push(`lock ${ns}/${name}`);
      return { release: () => void events.push('unlock') };
    },
    newUid: () => {
      events.push('new uid');
      return 'uid-fresh';
    },
    note: (l) => void events.push(`note: ${l}`),
  };
}

const request = (file: string) => ({
  file,
  kubelet,
  node: { podLogsRoot: '/logs' },
  yes: true,
  wait: false,
  waitTimeoutMs: 1000,
});

test('sync takes the namespace/name lock before it observes and chooses a uid, then observes and plans once', async () => {
  const cri = new FakeCri();
  const events: string[] = [];
  const done = await runSync(request(manifest('web.yaml', WEB)), flowDeps(cri, events), {});
  assert.equal(done.outcome.ok, true);
  assert.equal(done.pod.uid, 'uid-fresh');
  const lock = events.indexOf('lock shop/web');
  assert.equal(lock, 0, 'the lock comes first');
  assert.ok(
    events.indexOf('new uid') > events.indexOf('ListPodSandbox'),
    'the uid is chosen after observing under the lock',
  );
  assert.equal(events.filter((e) => e === 'ListPodSandbox').length, 1, 'one observation: the pod is planned once');
  assert.equal(events.at(-1), 'unlock');
});

test('a sync that finds the pod by namespace/name under the lock takes its uid (no second pod)', async () => {
  const cri = new FakeCri();
  cri.sandboxes = [
    {
      id: 'sb-1',
      metadata: { name: 'web', namespace: 'shop', uid: 'uid-first', attempt: 0 },
      state: 'SANDBOX_READY',
      createdAt: '1',
      labels: {
        'io.kubernetes.pod.name': 'web',
        'io.kubernetes.pod.namespace': 'shop',
        'io.kubernetes.pod.uid': 'uid-first',
      },
      annotations: {},
    },
  ];
  cri.handlers.PodSandboxStatus = () => ({
    status: {
      ...cri.sandboxes[0],
      network: { ip: '10.1.2.3', additionalIps: [] },
      linux: { namespaces: { options: { network: 'POD' } } },
    },
  });
  const events: string[] = [];
  const done = await runSync(request(manifest('web.yaml', WEB)), flowDeps(cri, events), {});
  assert.equal(done.pod.uid, 'uid-first');
  assert.ok(!events.includes('new uid'));
  assert.ok(!events.includes('RunPodSandbox'), 'the existing sandbox is used');
});

test('--timings: every runtime call is counted, the first observation included', async () => {
  const cri = new FakeCri();
  const events: string[] = [];
  const done = await runSync(request(manifest('web.yaml', WEB)), flowDeps(cri, events), {});
  const steps = done.outcome.results.reduce((sum, r) => sum + r.rpcMs, 0);
  assert.equal(steps, 25, 'five step calls of 5 ms');
  // The observation (ListPodSandbox and ListContainers, in parallel) is part of the RPC time.
  assert.ok(done.times.rpcMs - steps >= 10, `observation counted: ${done.times.rpcMs} - ${steps}`);
  assert.ok(done.times.planMs >= 10);
});

test('sync --dry-run takes no lock, sends nothing that changes the node, and lists the requests', async () => {
  const cri = new FakeCri();
  const events: string[] = [];
  const d = await dryRunSync({ ...request(manifest('web.yaml', WEB)), showSecrets: false }, flowDeps(cri, events));
  assert.ok(!events.some((e) => e.startsWith('lock')));
  assert.ok(!events.includes('RunPodSandbox') && !events.includes('CreateContainer'));
  assert.deepEqual(
    d.requests.map((r) => r.rpc),
    ['RunPodSandbox', 'CreateContainer', 'StartContainer'],
  );
  assert.equal(d.plan.source?.file.endsWith('web.yaml'), true);
});

test('plan data owns its source and match fields; one vocabulary for how the pod was found', async () => {
  const cri = new FakeCri();
  const [p] = await planPods(
    { files: [manifest('web.yaml', WEB)], kubelet },
    { runtime: cri as never, readStdin: async () => '', now: () => 0, note: () => undefined },
  );
  assert.deepEqual(p.plan.match, { by: 'none', uid: '' });
  assert.deepEqual(p.plan.matchCandidates, []);
  assert.deepEqual(p.plan.source, {
    kind: 'manifest',
    file: path.join(dir, 'web.yaml'),
    document: 1,
    from: 'Pod/web',
    notes: [],
    controller: null,
    skipped: [],
  });
  assert.ok(p.plan.assumptions.some((a) => a.includes('sync would give the new pod a fresh uid')));
});

test('prepare-container: an ephemeral container whose target does not run is an error (create --container and sync alike)', async () => {
  const pod = basePod();
  const debug = { name: 'debug', image: 'busybox:1.36', targetContainerName: 'nope' };
  await assert.rejects(
    prepareContainer(
      {
        pod,
        container: debug,
        kind: 'ephemeral',
        sandboxConfig: {} as never,
        podIPs: [],
        statuses: [],
        containerOptions: {
          podLogsRoot: '/logs',
          kubeletRoot: '/k',
          resolvConf: null,
          clusterDomain: 'cluster.local',
          hugePageSizes: [],
          gates: kubelet.rules.gates,
        },
      },
      { img: new FakeCri() as never, fs: new FakeFs(), randomHex: () => '0badc0de', pullTimeoutMs: 1000 },
      [],
    ),
    (err: unknown) =>
      err instanceof StepError &&
      err.code === 'CreateContainerConfigError' &&
      err.message === 'unable to find target container nope',
  );
});

// Issue 9 item 1: a second uid of the same namespace/name (an older pod object, or an earlier sync of
// a manifest without a uid) is a pod kubelet would clean up: plan lists it, sync clears it first.
const kubeletLabels = (uid: string) => ({
  'io.kubernetes.pod.name': 'web',
  'io.kubernetes.pod.namespace': 'shop',
  'io.kubernetes.pod.uid': uid,
});
function nodeWithTwoWebs(cri: FakeCri): void {
  cri.sandboxes = [
    {
      id: 'sb-old',
      metadata: { name: 'web', namespace: 'shop', uid: 'uid-old', attempt: 0 },
      state: 'SANDBOX_READY',
      createdAt: '1000000',
      labels: kubeletLabels('uid-old'),
      annotations: {},
    },
    {
      id: 'sb-new',
      metadata: { name: 'web', namespace: 'shop', uid: 'uid-new', attempt: 0 },
      state: 'SANDBOX_READY',
      createdAt: '2000000',
      labels: kubeletLabels('uid-new'),
      annotations: {},
    },
  ];
  cri.containers = [
    {
      id: 'c-old',
      podSandboxId: 'sb-old',
      metadata: { name: 'app', attempt: 0 },
      state: 'CONTAINER_RUNNING',
      createdAt: '1000001',
      labels: { ...kubeletLabels('uid-old'), 'io.kubernetes.container.name': 'app' },
      annotations: {},
      image: { image: 'nginx:1.25' },
      imageRef: 'sha256:nginx:1.25',
    },
  ];
  cri.handlers.PodSandboxStatus = (r) => ({
    status: {
      ...cri.sandboxes.find((s) => s.id === r.podSandboxId),
      network: { ip: '10.1.2.3', additionalIps: [] },
      linux: { namespaces: { options: { network: 'POD' } } },
    },
  });
}
const WEB_WITH_UID = WEB.replace('namespace: shop}', 'namespace: shop, uid: uid-new}');

test('plan: another uid of the same namespace/name is listed as a duplicate kubelet kills, and counts as a change', async () => {
  const cri = new FakeCri();
  nodeWithTwoWebs(cri);
  const [p] = await planPods(
    { files: [manifest('web-uid.yaml', WEB_WITH_UID)], kubelet },
    { runtime: cri as never, readStdin: async () => '', now: () => 0, note: () => undefined },
  );
  assert.equal(p.plan.match.uid, 'uid-new');
  assert.deepEqual(
    p.plan.duplicates.map((d) => [d.uid, d.kubelet, d.sandboxes.map((s) => s.id), d.containers.map((c) => c.id)]),
    [['uid-old', 'kill', ['sb-old'], ['c-old']]],
  );
  assert.equal(p.plan.changes, true);
  assert.equal(p.plan.summary.counts.duplicatePods, 1);
  assert.match(p.plan.summary.text, /^Plan: kill and remove 1 duplicate pod \(another uid\), start 1 container\.$/);
});

test('plan without a uid: the newest uid is the pod, the older one a duplicate', async () => {
  const cri = new FakeCri();
  nodeWithTwoWebs(cri);
  const [p] = await planPods(
    { files: [manifest('web.yaml', WEB)], kubelet },
    { runtime: cri as never, readStdin: async () => '', now: () => 0, note: () => undefined },
  );
  assert.deepEqual([p.plan.match.by, p.plan.match.uid], ['namespace-name', 'uid-new']);
  assert.deepEqual(
    p.plan.duplicates.map((d) => d.uid),
    ['uid-old'],
  );
});

test('sync kills and removes the duplicate before the pod is synced, and the report says so', async () => {
  const cri = new FakeCri();
  nodeWithTwoWebs(cri);
  const events: string[] = [];
  const done = await runSync(request(manifest('web-uid.yaml', WEB_WITH_UID)), flowDeps(cri, events), {});
  assert.equal(done.pod.uid, 'uid-new');
  assert.deepEqual(
    done.duplicates.map((d) => [d.uid, d.ok, d.done]),
    [
      [
        'uid-old',
        true,
        ['stopped container c-old', 'stopped sandbox sb-old', 'removed container c-old', 'removed sandbox sb-old'],
      ],
    ],
  );
  const acting = cri.calls
    .filter((c) => !/^(List|PodSandboxStatus|ContainerStatus|ImageStatus)/.test(c.method))
    .map((c) => `${c.method} ${c.req.containerId ?? c.req.podSandboxId ?? ''}`.trim());
  assert.deepEqual(
    acting.slice(0, 4),
    ['StopContainer c-old', 'StopPodSandbox sb-old', 'RemoveContainer c-old', 'RemovePodSandbox sb-old'],
    'the duplicate goes first',
  );
  assert.ok(
    acting.slice(4).some((a) => a.startsWith('StartContainer')),
    'then the pod is synced',
  );
  assert.ok(!acting.some((a) => a.endsWith('sb-new') && a.startsWith('Stop')), 'the pod itself is kept');
});

test('sync without --yes and no terminal refuses to kill a duplicate; nothing is done', async () => {
  const cri = new FakeCri();
  nodeWithTwoWebs(cri);
  await assert.rejects(
    runSync({ ...request(manifest('web-uid.yaml', WEB_WITH_UID)), yes: false }, flowDeps(cri, []), {}),
    {
      message:
        'the plan kills the duplicate pod shop/web (uid uid-old); stdin is not a terminal, so pass --yes to allow it (nothing was done)',
    },
  );
  assert.ok(!cri.methods().some((m) => /^(Stop|Remove|Create|Start|Run)/.test(m)));
});

test('sync --dry-run lists the duplicate removal among the requests, sends none', async () => {
  const cri = new FakeCri();
  nodeWithTwoWebs(cri);
  const d = await dryRunSync(
    { ...request(manifest('web-uid.yaml', WEB_WITH_UID)), showSecrets: false },
    flowDeps(cri, []),
  );
  assert.deepEqual(d.requests.map((r) => r.rpc).slice(0, 4), [
    'StopContainer',
    'StopPodSandbox',
    'RemoveContainer',
    'RemovePodSandbox',
  ]);
  assert.ok(!cri.methods().some((m) => /^(Stop|Remove)/.test(m)));
});

test('sync takes the prober results plan takes: --liveness-failed restarts a running container, without it nothing happens', async () => {
  const { hashContainer, formatHash } = await import('../../src/kubelet/hash');
  const LIVE = `apiVersion: v1
kind: Pod
metadata: {name: live, namespace: shop, uid: u-live}
spec:
  containers:
  - {name: app, image: nginx:1.25, imagePullPolicy: IfNotPresent, livenessProbe: {exec: {command: ["true"]}}}
`;
  const labels = {
    'io.kubernetes.pod.name': 'live',
    'io.kubernetes.pod.namespace': 'shop',
    'io.kubernetes.pod.uid': 'u-live',
  };
  const state = (cri: FakeCri) => {
    cri.sandboxes = [
      {
        id: 'sb1',
        metadata: { name: 'live', namespace: 'shop', uid: 'u-live', attempt: 0 },
        state: 'SANDBOX_READY',
        createdAt: '1',
        labels,
        annotations: {},
      },
    ];
    cri.containers = [
      {
        id: 'c1',
        podSandboxId: 'sb1',
        metadata: { name: 'app', attempt: 0 },
        image: { image: 'nginx:1.25' },
        imageRef: 'sha256:x',
        state: 'CONTAINER_RUNNING',
        createdAt: '2',
        labels: { ...labels, 'io.kubernetes.container.name': 'app' },
        annotations: {
          'io.kubernetes.container.hash': formatHash(hashContainer({ name: 'app', image: 'nginx:1.25' })),
          'io.kubernetes.container.restartCount': '0',
        },
      },
    ];
    cri.handlers.PodSandboxStatus = (r) => ({
      status: {
        id: r.podSandboxId,
        metadata: { name: 'live', namespace: 'shop', uid: 'u-live', attempt: 0 },
        state: 'SANDBOX_READY',
        createdAt: '1',
        network: { ip: '10.1.2.3', additionalIps: [] },
        linux: { namespaces: { options: { network: 'POD' } } },
        labels,
      },
    });
    cri.handlers.ContainerStatus = (r) => ({ status: { ...cri.containers[0], id: r.containerId, startedAt: '3' } });
  };
  const file = manifest('live.yaml', LIVE);
  const quiet = new FakeCri();
  state(quiet);
  const none = await dryRunSync({ ...request(file), showSecrets: false }, flowDeps(quiet, []));
  assert.deepEqual(none.requests, []);
  const failing = new FakeCri();
  state(failing);
  const d = await dryRunSync(
    { ...request(file), probes: { livenessFailed: ['app'] }, showSecrets: false },
    flowDeps(failing, []),
  );
  assert.deepEqual(
    d.requests.map((r) => r.rpc),
    ['StopContainer', 'CreateContainer', 'StartContainer'],
  );
  assert.deepEqual(
    d.plan.probeInputs.map((p) => [p.container, p.probe, p.result]),
    [['app', 'liveness', 'Failure']],
  );
});
