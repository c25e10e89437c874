// plan --node's workflow with a hand-written fake CRI and filesystem: static pods named <name>-<node>,
// orphans found in the lists planning makes anyway (the call count says so), bad inputs as one
// line each while the rest is planned, mirror pods giving kubelet's uid; the Pods API client
// against a grpc-js server standing in for kubelet's socket.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { planNode, type NodePlanDeps, type NodePlanRequest } from '../../src/workflows/node-plan';
import type { SyncFs } from '../../src/sync/types';
import { PODS_API_PROTO, encodePodIdentity, listPodsApi, podsApiSocket } from '../../src/state/pods-api';
import { decodeMessage, encodeMessage } from '../../src/cri/codec';

const NOW = 1_700_000_000_000;
const ns = (ms: number): string => String(BigInt(ms) * 1_000_000n);

class FakeCri {
  calls: string[] = [];
  sandboxes: any[] = [];
  containers: any[] = [];
  images: any[] = [];
  networkReady = true;
  async call(method: string, req: any): Promise<any> {
    this.calls.push(method);
    switch (method) {
      case 'ListPodSandbox':
        return { items: this.sandboxes };
      case 'ListContainers':
        return { containers: this.containers };
      case 'Status':
        return {
          status: {
            conditions: [
              { type: 'RuntimeReady', status: true, reason: '', message: '' },
              {
                type: 'NetworkReady',
                status: this.networkReady,
                reason: this.networkReady ? '' : 'NetworkPluginNotReady',
                message: this.networkReady ? '' : 'cni plugin not initialized',
              },
            ],
          },
          info: {},
        };
      case 'ListImages':
        return { images: this.images };
      case 'PodSandboxStatus': {
        const s = this.sandboxes.find((x) => x.id === req.podSandboxId);
        return {
          status: {
            ...s,
            network: { ip: '10.0.0.2', additionalIps: [] },
            linux: { namespaces: { options: { network: 'POD' } } },
          },
        };
      }
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
            image: c.image,
            imageRef: c.imageRef,
            logPath: '',
          },
        };
      }
    }
    throw new Error(`fake: unexpected ${method}`);
  }
}

class FakeFs implements SyncFs {
  kinds = new Map<string, string>();
  exists = (p: string) => this.kinds.has(p);
  mkdirAll = () => {};
  touch = () => {};
  writeFile = () => {};
  chmod = () => {};
  kind = (p: string) => this.kinds.get(p);
  mode = () => 0o755;
  readdir = () => undefined;
  readInVolume = () => undefined;
  safeMakeDir = () => {};
  bindSubPath = () => {};
  cleanSubPaths = () => [];
  remove = () => {};
  removeDir = () => {};
  symlink = () => {};
}

const POD = (name: string, extra = '') =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  namespace: kube-system\nspec:\n  containers:\n  - name: main\n    image: busybox:1.36\n${extra}`;

function setup(
  files: Record<string, string>,
  dirs: Record<string, Array<{ name: string; kind: 'file' | 'dir' | 'other' }>>,
) {
  const cri = new FakeCri();
  const fsys = new FakeFs();
  const deps: NodePlanDeps = {
    runtime: cri as any,
    image: cri as any,
    fs: fsys,
    inputs: {
      readDir: (p) => dirs[p],
      readFile: (p) => {
        if (!(p in files)) throw new Error('ENOENT: no such file');
        return files[p];
      },
      readStdin: async () => '',
    },
    podsApi: async () => undefined,
    now: () => NOW,
  };
  const req: NodePlanRequest = {
    nodeName: 'Node-1',
    staticPodPath: '/etc/kubernetes/manifests',
    files: [],
    kubeletRoot: '/var/lib/kubelet',
    cgroup: { cgroupsPerQOS: true, cgroupDriver: 'cgroupfs', cgroupVersion: 2 },
    options: { kubeletVersion: '1.33' },
  };
  return { cri, fsys, deps, req };
}

const kubeletSandbox = (id: string, uid: string, name: string, namespace = 'default', state = 'SANDBOX_READY') => ({
  id,
  state,
  createdAt: ns(NOW - 60_000),
  metadata: { name, namespace, uid, attempt: 0 },
  annotations: {},
  runtimeHandler: '',
  labels: { 'io.kubernetes.pod.uid': uid, 'io.kubernetes.pod.name': name, 'io.kubernetes.pod.namespace': namespace },
});

test('static pods are planned as <name>-<node>; an orphan with kubelet labels is reported; one without is not', async () => {
  const { cri, deps, req } = setup(
    { '/etc/kubernetes/manifests/etcd.yaml': POD('etcd'), '/etc/kubernetes/manifests/api.yaml': POD('api') },
    {
      '/etc/kubernetes/manifests': [
        { name: 'etcd.yaml', kind: 'file' },
        { name: 'api.yaml', kind: 'file' },
        { name: '.hidden', kind: 'file' },
      ],
    },
  );
  cri.sandboxes = [
    kubeletSandbox('sb-orphan', 'u-orphan', 'leftover'),
    { ...kubeletSandbox('sb-hand', 'u-hand', 'mine'), labels: {} },
  ];
  const r = await planNode(req, deps);
  assert.deepEqual(
    r.plan.plans.map((p) => `${p.pod.namespace}/${p.pod.name}`),
    ['kube-system/api-node-1', 'kube-system/etcd-node-1'],
  );
  for (const p of r.plan.plans) {
    assert.match(p.pod.uid, /^[0-9a-f]{32}$/);
    assert.equal(p.source.kind, 'static-pod');
    assert.deepEqual(
      p.steps.map((s) => s.action),
      ['create-sandbox', 'start-container'],
    );
    assert.deepEqual(
      p.preflight.steps.map((s) => s.action),
      ['create-pod-cgroup', 'make-pod-data-dirs', 'pull-image'],
    );
  }
  assert.deepEqual(
    r.plan.orphans.map((o) => [o.namespace, o.name, o.uid, o.kubelet, o.sandboxes[0].id]),
    [['default', 'leftover', 'u-orphan', 'kill', 'sb-orphan']],
  );
  assert.equal(r.plan.summary.orphans, 1);
});

test('orphan detection adds no CRI call: the same calls with and without orphans', async () => {
  const calls = async (withOrphans: boolean): Promise<string[]> => {
    const { cri, deps, req } = setup({ '/m/a.yaml': POD('a') }, { '/m': [{ name: 'a.yaml', kind: 'file' }] });
    req.staticPodPath = '/m';
    if (withOrphans) {
      cri.sandboxes = Array.from({ length: 20 }, (_, i) => kubeletSandbox(`s${i}`, `u${i}`, `p${i}`));
      cri.containers = Array.from({ length: 20 }, (_, i) => ({
        id: `c${i}`,
        podSandboxId: `s${i}`,
        state: 'CONTAINER_RUNNING',
        createdAt: ns(NOW - 1000),
        labels: { 'io.kubernetes.pod.uid': `u${i}`, 'io.kubernetes.container.name': 'x' },
        annotations: {},
        imageRef: '',
        image: { image: 'x' },
      }));
    }
    const r = await planNode(req, deps);
    assert.equal(r.plan.orphans.length, withOrphans ? 20 : 0);
    return cri.calls.sort();
  };
  const without = await calls(false);
  assert.deepEqual(without, ['ListContainers', 'ListImages', 'ListPodSandbox', 'Status']);
  assert.deepEqual(await calls(true), without);
});

test('bad inputs are one line each and the rest is still planned', async () => {
  const { deps, req } = setup(
    {
      '/m/good.yaml': POD('good'),
      '/m/deploy.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n',
      '/m/broken.yaml': 'kind: Pod\nmetadata: [',
      '/tmp/list.yaml': `apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: cm\n- ${POD('listed').replace(/\n/g, '\n  ').replace('namespace: kube-system', 'namespace: default\n    uid: 0b1e0000-0000-0000-0000-000000000001')}\n`,
    },
    {
      '/m': [
        { name: 'good.yaml', kind: 'file' },
        { name: 'deploy.yaml', kind: 'file' },
        { name: 'broken.yaml', kind: 'file' },
        { name: 'sub', kind: 'dir' },
      ],
    },
  );
  req.staticPodPath = '/m';
  req.files = ['/tmp/list.yaml'];
  const r = await planNode(req, deps);
  assert.deepEqual(r.plan.plans.map((p) => p.pod.name).sort(), ['good-node-1', 'listed']);
  assert.equal(r.plan.problems.length, 3, r.plan.problems.join('\n'));
  assert.match(
    r.plan.problems.find((p) => p.includes('ConfigMap'))!,
    /^\/tmp\/list\.yaml: document 1: items\[0\]: ConfigMap\/cm is not a Pod/,
  );
  assert.match(r.plan.problems.find((p) => p.includes('deploy'))!, /^\/m\/deploy\.yaml: Deployment is not a Pod/);
  assert.match(r.plan.problems.find((p) => p.includes('broken'))!, /^\/m\/broken\.yaml: line/);
  for (const p of r.plan.problems) assert.ok(!p.includes('\n'));
  assert.ok(r.notes.some((n) => n.includes('/m/sub: not recursing')));
});

test('a missing staticPodPath is a problem line, given pods are still planned', async () => {
  const { deps, req } = setup({ '/tmp/p.yaml': POD('web') }, {});
  req.files = ['/tmp/p.yaml'];
  const r = await planNode(req, deps);
  assert.deepEqual(r.plan.problems, [
    'staticPodPath /etc/kubernetes/manifests: no such directory (kubelet ignores a missing path and runs no static pods from it)',
  ]);
  assert.deepEqual(
    r.plan.plans.map((p) => p.pod.name),
    ['web'],
  );
});

test("a mirror pod in the given list gives the static pod kubelet's uid and is not planned itself", async () => {
  const mirror = `apiVersion: v1\nkind: Pod\nmetadata:\n  name: etcd-node-1\n  namespace: kube-system\n  uid: 11111111-2222-3333-4444-555555555555\n  annotations:\n    kubernetes.io/config.mirror: 0123456789abcdef0123456789abcdef\n    kubernetes.io/config.source: file\nspec:\n  nodeName: Node-1\n  containers:\n  - name: main\n    image: busybox:1.36\n`;
  const { cri, deps, req } = setup(
    { '/etc/kubernetes/manifests/etcd.yaml': POD('etcd'), '/tmp/pods.yaml': mirror },
    { '/etc/kubernetes/manifests': [{ name: 'etcd.yaml', kind: 'file' }] },
  );
  req.files = ['/tmp/pods.yaml'];
  cri.sandboxes = [kubeletSandbox('sb1', '0123456789abcdef0123456789abcdef', 'etcd-node-1', 'kube-system')];
  const r = await planNode(req, deps);
  assert.equal(r.plan.plans.length, 1);
  assert.equal(r.plan.plans[0].pod.uid, '0123456789abcdef0123456789abcdef');
  assert.equal(r.plan.plans[0].source.uidSource, 'mirror-pod');
  assert.deepEqual(r.plan.orphans, []);
});

test('a mirror pod made from an older version of the file: kubelet will give the file a new uid, the old pod is replaced', async () => {
  // found by test:kubelet (image-changed-new-uid): with the mirror's uid the plan restarted the container
  // in place, while kubelet v1.37.2 started a new pod under a new uid and killed the old one
  const mirrorOf = (image: string) =>
    `apiVersion: v1\nkind: Pod\nmetadata:\n  name: etcd-node-1\n  namespace: kube-system\n  uid: 11111111-2222-3333-4444-555555555555\n  annotations:\n    kubernetes.io/config.mirror: 0123456789abcdef0123456789abcdef\n    kubernetes.io/config.source: file\nspec:\n  nodeName: Node-1\n  priority: 2000001000\n  tolerations:\n  - operator: Exists\n    effect: NoExecute\n  containers:\n  - name: main\n    image: ${image}\n    imagePullPolicy: IfNotPresent\n    terminationMessagePath: /dev/termination-log\n`;
  const plan = async (mirror: string) => {
    const { cri, deps, req } = setup(
      { '/etc/kubernetes/manifests/etcd.yaml': POD('etcd'), '/tmp/pods.yaml': mirror },
      { '/etc/kubernetes/manifests': [{ name: 'etcd.yaml', kind: 'file' }] },
    );
    req.files = ['/tmp/pods.yaml'];
    cri.sandboxes = [kubeletSandbox('sb1', '0123456789abcdef0123456789abcdef', 'etcd-node-1', 'kube-system')];
    return planNode(req, deps);
  };
  const stale = await plan(mirrorOf('busybox:1.35'));
  assert.equal(stale.plan.plans.length, 1);
  const p = stale.plan.plans[0];
  assert.notEqual(p.pod.uid, '0123456789abcdef0123456789abcdef');
  assert.equal(p.source.uidSource, 'computed');
  assert.equal(p.replaces?.uid, '0123456789abcdef0123456789abcdef');
  assert.ok(
    stale.notes.some((n) => n.includes('older version of this file (spec.containers[0].image differs)')),
    stale.notes.join('\n'),
  );
  // the same file as the API server shows it (defaults, admission's priority, nodeName, kubelet's
  // toleration): kubelet's uid is taken
  const same = await plan(mirrorOf('busybox:1.36'));
  assert.equal(same.plan.plans[0].pod.uid, '0123456789abcdef0123456789abcdef');
  assert.equal(same.plan.plans[0].source.uidSource, 'mirror-pod');
});

test('network not ready blocks pod-network pods, not host-network ones', async () => {
  const { cri, deps, req } = setup(
    { '/m/a.yaml': POD('a'), '/m/h.yaml': POD('h', '  hostNetwork: true\n') },
    {
      '/m': [
        { name: 'a.yaml', kind: 'file' },
        { name: 'h.yaml', kind: 'file' },
      ],
    },
  );
  req.staticPodPath = '/m';
  cri.networkReady = false;
  const r = await planNode(req, deps);
  const [a, h] = r.plan.plans;
  assert.match(
    a.preflight.blocked ?? '',
    /^network is not ready: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady/,
  );
  assert.equal(h.preflight.blocked, null);
  assert.equal(r.plan.summary.podsBlocked, 1);
});

test('Pods API: ListPods on a stand-in grpc-js server; identities decoded; FAILED_PRECONDITION named', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'podsapi-'));
  const socket = podsApiSocket(dir);
  fs.mkdirSync(path.dirname(socket));
  let initializing = false;
  const server = new grpc.Server();
  server.addService(
    {
      ListPods: {
        path: '/v1alpha1.Pods/ListPods',
        requestStream: false,
        responseStream: false,
        requestSerialize: (v: unknown) => encodeMessage(PODS_API_PROTO, 'ListPodsRequest', v),
        requestDeserialize: (b: Buffer) => decodeMessage(PODS_API_PROTO, 'ListPodsRequest', b),
        responseSerialize: (v: unknown) => encodeMessage(PODS_API_PROTO, 'ListPodsResponse', v),
        responseDeserialize: (b: Buffer) => decodeMessage(PODS_API_PROTO, 'ListPodsResponse', b),
      },
    } as any,
    {
      ListPods: (_call: unknown, cb: (err: any, v?: unknown) => void) => {
        if (initializing) return cb({ code: grpc.status.FAILED_PRECONDITION, details: 'Kubelet is initializing' });
        cb(null, {
          pods: [
            encodePodIdentity({
              namespace: 'kube-system',
              name: 'etcd-n1',
              uid: 'abc',
              nodeName: 'n1',
              phase: 'Running',
              annotations: { 'kubernetes.io/config.source': 'file' },
            }),
            encodePodIdentity({ namespace: 'default', name: 'web', uid: 'def', nodeName: 'n1', phase: 'Pending' }),
          ],
        });
      },
    },
  );
  await new Promise<void>((res, rej) =>
    server.bindAsync(`unix:${socket}`, grpc.ServerCredentials.createInsecure(), (e) => (e ? rej(e) : res())),
  );
  try {
    const pods = await listPodsApi(socket, { timeoutMs: 2000, exists: fs.existsSync });
    assert.deepEqual(pods, [
      { namespace: 'kube-system', name: 'etcd-n1', uid: 'abc', nodeName: 'n1', phase: 'Running', configSource: 'file' },
      { namespace: 'default', name: 'web', uid: 'def', nodeName: 'n1', phase: 'Pending', configSource: '' },
    ]);
    initializing = true;
    await assert.rejects(
      listPodsApi(socket, { timeoutMs: 2000, exists: fs.existsSync }),
      /Pods API .*pods-api\.sock: kubelet has not finished reading its pod sources yet \(Kubelet is initializing\)/,
    );
    assert.equal(await listPodsApi(path.join(dir, 'nope.sock'), { timeoutMs: 2000, exists: fs.existsSync }), undefined);
  } finally {
    server.forceShutdown();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('Pods API pods are known to kubelet: their uids are no orphans and static ones give the uid', async () => {
  const { cri, deps, req } = setup({ '/m/etcd.yaml': POD('etcd') }, { '/m': [{ name: 'etcd.yaml', kind: 'file' }] });
  req.staticPodPath = '/m';
  req.podsApiSocket = '/var/lib/kubelet/pods-api/pods-api.sock';
  deps.podsApi = async () => [
    {
      namespace: 'kube-system',
      name: 'etcd-node-1',
      uid: 'kubelet-uid',
      nodeName: 'Node-1',
      phase: 'Running',
      configSource: 'file',
    },
    {
      namespace: 'default',
      name: 'api-pod',
      uid: 'api-uid',
      nodeName: 'Node-1',
      phase: 'Running',
      configSource: 'api',
    },
  ];
  cri.sandboxes = [kubeletSandbox('s1', 'api-uid', 'api-pod')];
  const r = await planNode(req, deps);
  assert.equal(r.plan.plans[0].pod.uid, 'kubelet-uid');
  assert.equal(r.plan.plans[0].source.uidSource, 'pods-api');
  assert.deepEqual(r.plan.orphans, []);
  assert.ok(r.notes.some((n) => n.includes('default/api-pod') && n.includes('not an orphan')));
});

test('lean observation: status calls for the newest sandbox and every container (a running one verbose, for changes in words), and the same plan as full observation', async () => {
  // found by test:kubelet (resize-same-uid) too: lean observation took running containers from the
  // list, which carries no resources, so plan --node never planned an in-place resize
  const { observePods } = await import('../../src/state/pod-status');
  const { buildPlan } = await import('../../src/plan/plan');
  const { formatHash, kubeletContainerHash } = await import('../../src/kubelet/hash');
  const uid = 'a1a1a1a1-0000-0000-0000-000000000001';
  const cri = new FakeCri();
  cri.sandboxes = [
    { ...kubeletSandbox('old', uid, 'web'), state: 'SANDBOX_NOTREADY', createdAt: ns(NOW - 600_000) },
    { ...kubeletSandbox('new', uid, 'web'), createdAt: ns(NOW - 60_000) },
  ];
  const c = (id: string, name: string, state: string, sandbox: string, created: number) => ({
    id,
    podSandboxId: sandbox,
    state,
    createdAt: ns(created),
    metadata: { name, attempt: 0 },
    image: { image: 'busybox:1.36' },
    imageRef: 'sha256:1',
    imageId: '',
    labels: {
      'io.kubernetes.pod.uid': uid,
      'io.kubernetes.pod.name': 'web',
      'io.kubernetes.pod.namespace': 'default',
      'io.kubernetes.container.name': name,
    },
    annotations: { 'io.kubernetes.container.hash': '0', 'io.kubernetes.container.restartCount': '0' },
  });
  cri.containers = [
    {
      ...c('c-run', 'app', 'CONTAINER_RUNNING', 'new', NOW - 50_000),
      annotations: {
        'io.kubernetes.container.hash': formatHash(kubeletContainerHash(33, { name: 'app', image: 'busybox:1.36' })),
        'io.kubernetes.container.restartCount': '0',
      },
      // as created for 200m CPU and 64Mi
      resources: {
        linux: { cpuPeriod: '100000', cpuQuota: '20000', cpuShares: '204', memoryLimitInBytes: '67108864' },
      },
    },
    c('c-exit', 'job', 'CONTAINER_EXITED', 'new', NOW - 40_000),
  ];
  const cpu300m = { cpu: '300m', memory: '64Mi' };
  const pod = {
    metadata: { name: 'web', namespace: 'default', uid },
    spec: {
      restartPolicy: 'Always',
      containers: [
        { name: 'app', image: 'busybox:1.36', resources: { requests: cpu300m, limits: cpu300m } },
        { name: 'job', image: 'busybox:1.36' },
      ],
    },
  } as any;
  const ref = [{ namespace: 'default', name: 'web', uid }];
  const full = await observePods(cri as any, ref, { sandboxOrder: 'attempt-then-created' });
  cri.calls = [];
  const lean = await observePods(cri as any, ref, { lean: true, sandboxOrder: 'attempt-then-created' });
  assert.deepEqual(cri.calls.filter((x) => x.endsWith('Status')).sort(), [
    'ContainerStatus',
    'ContainerStatus',
    'PodSandboxStatus',
  ]);
  const strip = (p: any) => ({ ...p, summary: p.summary.text });
  const leanPlan = buildPlan({ pod, podStatus: lean[0].status, now: NOW, options: { kubeletVersion: '1.33' } });
  assert.deepEqual(
    leanPlan.steps.map((x) => `${x.action} ${x.target}`),
    // Kubelet 1.33 raises the pod cgroup first (UpdatePodSandboxResources, as the v1.33.13 oracle shows).
    ['update-pod-sandbox-resources default/web', 'update-container-resources app', 'start-container job'],
  );
  assert.deepEqual(
    strip(leanPlan),
    strip(buildPlan({ pod, podStatus: full[0].status, now: NOW, options: { kubeletVersion: '1.33' } })),
  );
});

test("a static pod kubelet rejects at admission (SysctlForbidden) is counted blocked with kubelet's reason", async () => {
  const sysctl = '  securityContext:\n    sysctls:\n    - name: kernel.msgmax\n      value: "65536"\n';
  const { deps, req } = setup(
    { '/etc/kubernetes/manifests/etcd.yaml': POD('etcd', sysctl), '/etc/kubernetes/manifests/api.yaml': POD('api') },
    {
      '/etc/kubernetes/manifests': [
        { name: 'etcd.yaml', kind: 'file' },
        { name: 'api.yaml', kind: 'file' },
      ],
    },
  );
  const r = await planNode(req, deps);
  const etcd = r.plan.plans.find((p) => p.pod.name === 'etcd-node-1')!;
  assert.deepEqual(etcd.rejected, {
    by: 'kubelet',
    reason: 'SysctlForbidden',
    message: 'forbidden sysctl: "kernel.msgmax" not allowlisted',
  });
  assert.match(etcd.preflight.blocked ?? '', /^rejected by kubelet: SysctlForbidden: /);
  assert.equal(r.plan.plans.find((p) => p.pod.name === 'api-node-1')!.rejected, undefined);
  assert.equal(r.plan.summary.podsBlocked, 1);
});
