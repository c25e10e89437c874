// kubelet.syncPod's checks before the runtime's SyncPod, as preflight steps; pod cgroup naming.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../src/kubelet/api-types';
import { buildPreflight, type PreflightFacts } from '../../src/plan/preflight';
import { podCgroup } from '../../src/kubelet/pod-cgroup';

const UID = '1f2e3d4c-aaaa-bbbb-cccc-000000000001';
const pod = (over: Partial<Pod['spec']> = {}): Pod => ({
  metadata: { name: 'web', namespace: 'default', uid: UID },
  spec: { containers: [{ name: 'app', image: 'busybox:1', imagePullPolicy: 'IfNotPresent' }], ...over },
});
const facts = (over: Partial<PreflightFacts> = {}): PreflightFacts => ({
  network: { ready: true, reason: '', message: '' },
  podCgroup: { name: '/kubepods/besteffort/podx', missing: [] },
  podDirs: [{ path: `/var/lib/kubelet/pods/${UID}`, exists: true }],
  hostPaths: [],
  images: [],
  ...over,
});

const cases: Array<{ name: string; pod: Pod; facts: PreflightFacts; want: string[]; blocked?: RegExp }> = [
  { name: 'nothing to do when everything is there', pod: pod(), facts: facts(), want: [] },
  {
    name: 'a pod-network pod does not sync while the network is not ready',
    pod: pod(),
    facts: facts({
      network: { ready: false, reason: 'NetworkPluginNotReady', message: 'cni plugin not initialized' },
      podDirs: [{ path: '/x', exists: false }],
    }),
    want: ['network-not-ready'],
    blocked:
      /^network is not ready: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:cni plugin not initialized$/,
  },
  {
    name: 'no NetworkReady condition at all is not ready either',
    pod: pod(),
    facts: facts({ network: null }),
    want: ['network-not-ready'],
    blocked: /NetworkReady|<nil>/,
  },
  {
    name: 'a host-network pod syncs without the pod network',
    pod: pod({ hostNetwork: true }),
    facts: facts({ network: null }),
    want: [],
  },
  {
    name: 'missing pod cgroup and pod directories are created',
    pod: pod(),
    facts: facts({
      podCgroup: { name: '/kubepods/besteffort/podx', missing: ['/sys/fs/cgroup/memory/kubepods/besteffort/podx'] },
      podDirs: [
        { path: '/a', exists: false },
        { path: '/a/volumes', exists: true },
      ],
    }),
    want: ['create-pod-cgroup', 'make-pod-data-dirs'],
  },
  {
    name: 'hostPath: a Directory that does not exist blocks, DirectoryOrCreate is created, untyped is not checked',
    pod: pod({
      volumes: [
        { name: 'd', hostPath: { path: '/nope', type: 'Directory' } },
        { name: 'c', hostPath: { path: '/mk', type: 'DirectoryOrCreate' } },
        { name: 'u', hostPath: { path: '/any' } },
      ],
    }),
    facts: facts({
      hostPaths: [
        { volume: 'd', path: '/nope' },
        { volume: 'c', path: '/mk' },
        { volume: 'u', path: '/any' },
      ],
    }),
    want: ['host-path-missing'],
    blocked: /hostPath type check failed: \/nope does not exist/,
  },
  {
    name: 'hostPath: a refused type check comes before the pod cgroup and directories, so a refused pod leaves none',
    pod: pod({ volumes: [{ name: 's', hostPath: { path: '/etc', type: 'Socket' } }] }),
    facts: facts({
      podCgroup: { name: '/kubepods/besteffort/podx', missing: ['/sys/fs/cgroup/memory/kubepods/besteffort/podx'] },
      podDirs: [{ path: `/var/lib/kubelet/pods/${UID}`, exists: false }],
      hostPaths: [{ volume: 's', path: '/etc', kind: 'dir' }],
    }),
    want: ['host-path-missing'],
    blocked: /volume s: hostPath type check failed: \/etc is not a Socket/,
  },
  {
    name: 'hostPath: a File that is a directory blocks',
    pod: pod({ volumes: [{ name: 'f', hostPath: { path: '/etc', type: 'File' } }] }),
    facts: facts({ hostPaths: [{ volume: 'f', path: '/etc', kind: 'dir' }] }),
    want: ['host-path-missing'],
    blocked: /is not a File/,
  },
  {
    name: 'images per pull policy: absent IfNotPresent pulls, Always always pulls, absent Never refuses the container',
    pod: pod({
      containers: [
        { name: 'a', image: 'x:1', imagePullPolicy: 'IfNotPresent' },
        { name: 'b', image: 'y:1', imagePullPolicy: 'Always' },
        { name: 'c', image: 'z:1', imagePullPolicy: 'Never' },
        { name: 'd', image: 'w:1', imagePullPolicy: 'IfNotPresent' },
      ],
    }),
    facts: facts({
      images: [
        { container: 'a', image: 'x:1', present: false },
        { container: 'b', image: 'y:1', present: true },
        { container: 'c', image: 'z:1', present: false },
        { container: 'd', image: 'w:1', present: true },
      ],
    }),
    want: ['pull-image', 'pull-image', 'image-never-pull'],
  },
];

for (const c of cases) {
  test(`preflight: ${c.name}`, () => {
    const got = buildPreflight(c.pod, c.facts);
    assert.deepEqual(
      got.steps.map((s) => s.action),
      c.want,
    );
    if (c.blocked) assert.match(got.blocked ?? '', c.blocked);
    else assert.equal(got.blocked, null);
  });
}

test('pod cgroup: QoS class, cgroupfs and systemd spelling, v1 subsystems and v2', () => {
  const burstable = pod({ containers: [{ name: 'a', image: 'x', resources: { requests: { cpu: '100m' } } }] });
  const guaranteed = pod({
    containers: [
      {
        name: 'a',
        image: 'x',
        resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } },
      },
    ],
  });
  const u = UID.replace(/-/g, '_');
  const rows: Array<[Pod, 'cgroupfs' | 'systemd', 1 | 2, string, string[]]> = [
    [pod(), 'cgroupfs', 2, `/kubepods/besteffort/pod${UID}`, [`/sys/fs/cgroup/kubepods/besteffort/pod${UID}`]],
    [
      burstable,
      'systemd',
      2,
      `/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod${u}.slice`,
      [`/sys/fs/cgroup/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod${u}.slice`],
    ],
    [
      guaranteed,
      'cgroupfs',
      1,
      `/kubepods/pod${UID}`,
      [`/sys/fs/cgroup/cpu/kubepods/pod${UID}`, `/sys/fs/cgroup/memory/kubepods/pod${UID}`],
    ],
  ];
  for (const [p, driver, version, name, paths] of rows) {
    const cg = podCgroup(p, { driver, version, v1Subsystems: ['cpu', 'memory'] });
    assert.equal(cg.name, name);
    assert.deepEqual(cg.paths, paths);
  }
});
