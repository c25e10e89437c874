// sync --node's workflow with a fake CRI and filesystem: a pod-network pod is refused while the
// runtime network is not ready (nothing sent for it), a host-network pod still syncs; orphans are
// removed only with removeOrphans and in kubelet's order; the kill confirmation comes first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { syncNode, type NodeSyncDeps, type NodeSyncRequest } from '../../src/workflows/node-sync';
import type { SyncFs } from '../../src/sync/types';
import { nodeSettings } from '../../src/workflows/node-settings';
import { localHost } from '../../src/workflows/host-facts';
import { resolveRules } from '../../src/workflows/plan-pods';

const NOW = 1_700_000_000_000;
const ns = (ms: number): string => String(BigInt(ms) * 1_000_000n);

class FakeCri {
  calls: string[] = [];
  sandboxes: any[] = [];
  containers: any[] = [];
  networkReady = false;
  async call(method: string, req: any): Promise<any> {
    this.calls.push(
      `${method}${req?.podSandboxId ? ` ${req.podSandboxId}` : req?.containerId ? ` ${req.containerId}` : ''}`,
    );
    switch (method) {
      case 'ListPodSandbox':
        return { items: this.sandboxes };
      case 'ListContainers':
        return { containers: this.containers };
      case 'Status':
        return {
          status: {
            conditions: [
              {
                type: 'NetworkReady',
                status: this.networkReady,
                reason: 'NetworkPluginNotReady',
                message: 'cni plugin not initialized',
              },
            ],
          },
          info: {},
        };
      case 'ListImages':
        return { images: [{ id: 'sha256:1', repoTags: ['docker.io/library/busybox:1.36'], repoDigests: [] }] };
      case 'PodSandboxStatus':
        return {
          status: { ...this.sandboxes.find((s) => s.id === req.podSandboxId), network: { ip: '', additionalIps: [] } },
        };
      case 'ContainerStatus': {
        const c = this.containers.find((x) => x.id === req.containerId);
        return {
          status: {
            ...c,
            startedAt: c.createdAt,
            finishedAt: '0',
            exitCode: 0,
            reason: '',
            message: '',
            image: { image: 'busybox:1.36' },
            imageRef: 'sha256:1',
            logPath: '',
          },
        };
      }
      case 'ImageStatus':
        return {
          image: {
            id: 'sha256:1',
            repoTags: ['docker.io/library/busybox:1.36'],
            repoDigests: [],
            size: '1',
            username: '',
            pinned: false,
          },
        };
      case 'RunPodSandbox':
        return { podSandboxId: 'new-sandbox' };
      case 'CreateContainer':
        return { containerId: `new-${req.config.metadata.name}` };
      case 'StartContainer':
      case 'StopContainer':
      case 'StopPodSandbox':
      case 'RemoveContainer':
      case 'RemovePodSandbox':
        return {};
    }
    throw new Error(`fake: unexpected ${method}`);
  }
}

class FakeFs implements SyncFs {
  made: string[] = [];
  exists = () => false;
  mkdirAll = (p: string) => void this.made.push(p);
  touch = () => {};
  writeFile = () => {};
  chmod = () => {};
  kind = (p: string) => (p === '/sys/fs/cgroup/memory' ? 'dir' : undefined);
  mode = () => 0o755;
  readdir = (_p: string): string[] | undefined => undefined;
  destroyCgroup?: (dirs: string[]) => Promise<number[]>;
  readInVolume = () => undefined;
  safeMakeDir = () => {};
  bindSubPath = () => {};
  cleanSubPaths = () => [];
  remove = () => {};
  removeDir = () => {};
  symlink = () => {};
}

const POD = (name: string, extra = '') =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  namespace: kube-system\nspec:\n${extra}  containers:\n  - name: main\n    image: busybox:1.36\n    imagePullPolicy: IfNotPresent\n`;

function setup(removeOrphans: boolean) {
  const cri = new FakeCri();
  const fs = new FakeFs();
  const asked: string[] = [];
  const files: Record<string, string> = {
    '/m/net.yaml': POD('net'),
    '/m/host.yaml': POD('host', '  hostNetwork: true\n'),
  };
  const deps: NodeSyncDeps = {
    runtime: cri as any,
    image: cri as any,
    fs,
    inputs: {
      readDir: () => [
        { name: 'net.yaml', kind: 'file' },
        { name: 'host.yaml', kind: 'file' },
      ],
      readFile: (p) => files[p],
      readStdin: async () => '',
    },
    podsApi: async () => undefined,
    now: () => NOW,
    execute: {
      runtime: cri as any,
      image: cri as any,
      fs,
      clock: { now: () => NOW, monotonic: () => performance.now(), sleep: async () => {} },
      randomHex: () => 'abcdef01',
      requestTimeoutMs: 1000,
      pullTimeoutMs: 1000,
    },
    settingsFor: (pod) => {
      const n = nodeSettings(
        { podLogsRoot: '/var/log/pods', podDirRoot: '/var/lib/kubelet', runtimeClass: [] },
        pod,
        resolveRules('1.33', undefined).rules,
        localHost,
      );
      return {
        sandboxOptions: { ...n.sandbox, configSeen: '2023-11-14T22:13:20.000000000Z' },
        containerOptions: n.container,
        legacyLogDir: n.legacyLogDir,
      };
    },
    lock: async () => () => {},
    confirm: async (what) => void asked.push(what),
    newUid: () => 'fresh',
  };
  const req: NodeSyncRequest = {
    nodeName: 'n1',
    staticPodPath: '/m',
    files: [],
    kubeletRoot: '/var/lib/kubelet',
    cgroup: { cgroupsPerQOS: true, cgroupDriver: 'cgroupfs', cgroupVersion: 1 },
    options: { kubeletVersion: '1.33' },
    removeOrphans,
    concurrency: 2,
    waitTimeoutMs: 60_000,
  };
  cri.sandboxes = [
    {
      id: 'orph',
      state: 'SANDBOX_READY',
      createdAt: ns(NOW - 5000),
      metadata: { name: 'old', namespace: 'default', uid: 'u-old', attempt: 0 },
      labels: {
        'io.kubernetes.pod.uid': 'u-old',
        'io.kubernetes.pod.name': 'old',
        'io.kubernetes.pod.namespace': 'default',
      },
      annotations: {},
    },
    {
      id: 'bare',
      state: 'SANDBOX_READY',
      createdAt: ns(NOW - 5000),
      metadata: { name: 'bare', namespace: 'x', uid: 'u-bare', attempt: 0 },
      labels: {},
      annotations: {},
    },
  ];
  cri.containers = [
    {
      id: 'orph-c',
      podSandboxId: 'orph',
      state: 'CONTAINER_RUNNING',
      createdAt: ns(NOW - 4000),
      labels: { 'io.kubernetes.pod.uid': 'u-old', 'io.kubernetes.container.name': 'c' },
      annotations: {},
      imageRef: 'sha256:1',
      image: { image: 'busybox:1.36' },
    },
  ];
  return { cri, fs, deps, req, asked };
}

test("network not ready: the pod-network pod is refused with kubelet's reason, the host-network pod syncs", async () => {
  const { cri, fs, deps, req } = setup(false);
  const { report } = await syncNode(req, deps);
  const net = report.pods.find((p) => p.pod.name === 'net-n1')!;
  const host = report.pods.find((p) => p.pod.name === 'host-n1')!;
  assert.equal(net.ok, false);
  assert.match(
    net.stopped,
    /^network is not ready: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:cni plugin not initialized$/,
  );
  assert.equal(net.results.length, 0);
  assert.equal(host.ok, true, JSON.stringify(host.results.filter((r) => !r.ok)));
  assert.deepEqual(
    host.preflight.map((r) => r.action),
    ['create-pod-cgroup', 'make-pod-data-dirs'],
  );
  assert.ok(fs.made.some((p) => p.startsWith('/sys/fs/cgroup/memory/kubepods/besteffort/pod')));
  assert.equal(cri.calls.filter((c) => c === 'RunPodSandbox').length, 1, 'only the host-network pod got a sandbox');
  assert.equal(report.orphansKept, 1);
  assert.ok(
    !cri.calls.some((c) => c.includes('orph') && /^(Stop|Remove)/.test(c)),
    'orphans untouched without removeOrphans',
  );
  assert.equal(report.ok, false);
});

test('removeOrphans: confirmation first, then containers stopped, sandboxes stopped, both removed; unlabelled never touched', async () => {
  const { cri, deps, req, asked } = setup(true);
  cri.networkReady = true;
  const { report } = await syncNode(req, deps);
  assert.deepEqual(asked, ['orphan default/old (uid u-old)']);
  const orphanCalls = cri.calls.filter((c) => /^(Stop|Remove)/.test(c));
  assert.deepEqual(orphanCalls, [
    'StopContainer orph-c',
    'StopPodSandbox orph',
    'RemoveContainer orph-c',
    'RemovePodSandbox orph',
  ]);
  assert.ok(!cri.calls.some((c) => c.endsWith(' bare') && /^(Stop|Remove)/.test(c)));
  assert.deepEqual(
    report.orphans.map((o) => [o.uid, o.ok]),
    [['u-old', true]],
  );
  assert.equal(report.ok, true, JSON.stringify(report.pods.map((p) => p.stopped)));
});

test('a refused confirmation does nothing at all', async () => {
  const { cri, deps, req } = setup(true);
  deps.confirm = async () => {
    throw new Error('not confirmed');
  };
  await assert.rejects(syncNode(req, deps), /not confirmed/);
  assert.ok(!cri.calls.some((c) => /^(Run|Create|Start|Stop|Remove)/.test(c)));
});

test('--remove-orphans refuses, doing nothing, when an input could not be read or no desired pods were given', async () => {
  const a = setup(true);
  a.cri.networkReady = true;
  const files: Record<string, string> = { '/m/net.yaml': 'kind: Pod\nmetadata: [' };
  a.deps.inputs = { ...a.deps.inputs, readDir: () => [{ name: 'net.yaml', kind: 'file' }], readFile: (p) => files[p] };
  await assert.rejects(
    syncNode(a.req, a.deps),
    /^SyncpodError: --remove-orphans: 1 input\(s\) could not be read \(\/m\/net\.yaml: line .*nothing was done$/,
  );
  const b = setup(true);
  b.req.staticPodPath = undefined;
  await assert.rejects(syncNode(b.req, b.deps), /no desired pods were given/);
  for (const x of [a, b]) assert.ok(!x.cri.calls.some((c) => /^(Run|Create|Start|Stop|Remove)/.test(c)));
});

/** The orphan's pod cgroup on a v1 node: in cpu and memory (not in pids), none in the unified tree. */
function withOrphanCgroup(s: ReturnType<typeof setup>, driver: 'cgroupfs' | 'systemd' = 'cgroupfs') {
  const name =
    driver === 'systemd'
      ? '/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-podu_old.slice'
      : '/kubepods/burstable/podu-old';
  const dirs = new Set([
    '/sys/fs/cgroup/cpu',
    '/sys/fs/cgroup/memory',
    '/sys/fs/cgroup/pids',
    '/sys/fs/cgroup/unified',
    `/sys/fs/cgroup/cpu${name}`,
    `/sys/fs/cgroup/memory${name}`,
  ]);
  s.req.cgroup = { ...s.req.cgroup, cgroupDriver: driver };
  s.fs.kind = (p: string) => (dirs.has(p) ? 'dir' : undefined);
  s.fs.readdir = (p: string) =>
    p === '/sys/fs/cgroup' ? ['unified', 'pids', 'memory', 'cpu', 'cgroup.procs'] : undefined;
  const destroyed: string[][] = [];
  s.fs.destroyCgroup = async (d: string[]) => {
    destroyed.push(d);
    s.cri.calls.push('destroyCgroup');
    return [4242];
  };
  return { name, destroyed };
}

test("removeOrphans: the orphan's pod cgroup is planned and destroyed in every hierarchy it is in, after the pod is removed", async () => {
  for (const driver of ['cgroupfs', 'systemd'] as const) {
    const s = setup(true);
    s.cri.networkReady = true;
    const { name, destroyed } = withOrphanCgroup(s, driver);
    const { report, plan } = await syncNode(s.req, s.deps);
    const o = plan.orphans.find((x) => x.uid === 'u-old')!;
    assert.deepEqual(o.podCgroup, {
      qosClass: 'Burstable',
      name,
      paths: [`/sys/fs/cgroup/cpu${name}`, `/sys/fs/cgroup/memory${name}`],
    });
    assert.match(o.reason, /; once it is terminated and its volumes are unmounted, its pod cgroup \S+ is destroyed/);
    assert.deepEqual(destroyed, [o.podCgroup!.paths], driver);
    const calls = s.cri.calls.filter((c) => /^(Stop|Remove|destroy)/.test(c));
    assert.equal(calls.at(-1), 'destroyCgroup', 'the cgroup goes after the sandbox');
    assert.equal(calls.at(-2), 'RemovePodSandbox orph');
    assert.ok(
      report.orphans[0].done.includes(`removed pod cgroup ${name} (killed 1 process left in it)`),
      JSON.stringify(report.orphans[0].done),
    );
    assert.equal(report.ok, true);
  }
});

test("the orphan's pod cgroup stays while the pod could not be removed, and with cgroupsPerQOS off none is looked for", async () => {
  const s = setup(true);
  s.cri.networkReady = true;
  const { destroyed } = withOrphanCgroup(s);
  const call = s.cri.call.bind(s.cri);
  s.cri.call = async (method: string, req: any) => {
    if (method === 'RemovePodSandbox') throw new Error('sandbox busy');
    return call(method, req);
  };
  const { report } = await syncNode(s.req, s.deps);
  assert.equal(report.orphans[0].ok, false);
  assert.match(report.orphans[0].error ?? '', /sandbox busy/);
  assert.deepEqual(destroyed, []);

  const off = setup(true);
  off.cri.networkReady = true;
  const o = withOrphanCgroup(off);
  off.req.cgroup = { ...off.req.cgroup, cgroupsPerQOS: false };
  const r = await syncNode(off.req, off.deps);
  assert.equal(r.plan.orphans[0].podCgroup, undefined);
  assert.deepEqual(o.destroyed, []);
});

test('a pod kubelet rejects at admission (SysctlForbidden) is not synced; the others are', async () => {
  const { cri, deps, req } = setup(false);
  cri.networkReady = true;
  const read = deps.inputs.readFile;
  deps.inputs.readFile = (p) =>
    p === '/m/net.yaml'
      ? POD('net', '  securityContext:\n    sysctls:\n    - name: kernel.msgmax\n      value: "65536"\n')
      : read(p);
  const { report } = await syncNode(req, deps);
  const net = report.pods.find((p) => p.pod.name === 'net-n1')!;
  const host = report.pods.find((p) => p.pod.name === 'host-n1')!;
  assert.equal(net.ok, false);
  assert.equal(net.stopped, 'rejected by kubelet: SysctlForbidden: forbidden sysctl: "kernel.msgmax" not allowlisted');
  assert.deepEqual(net.preflight, []);
  assert.equal(host.ok, true, JSON.stringify(host.results.filter((r) => !r.ok)));
  assert.equal(cri.calls.filter((c) => c === 'RunPodSandbox').length, 1, 'only the admitted pod got a sandbox');
});
