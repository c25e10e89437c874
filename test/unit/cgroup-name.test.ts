// kubelet's cgroup naming (src/kubelet/cgroup-name.ts). The first tables restate kubelet's own cases
// of pkg/kubelet/cm/cgroup_manager_linux_test.go (TestNewCgroupName, TestCgroupNameToSystemdBasename,
// TestCgroupNameToSystemd, TestCgroupNameWithEmptyPartToSystemd, TestCgroupNameToCgroupfs,
// TestParseSystemdToCgroupName; kubernetes@02e089c0) and pod_container_manager_linux_test.go
// (TestGetPodContainerName; kubernetes@02466af0) in our own words; the last ones are the node
// layouts kubelet composes from cgroupRoot and cgroupsPerQOS (NewContainerManager, the QoS manager).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  expandSlice,
  getPodContainerName,
  newCgroupName,
  parseCgroupfsToCgroupName,
  parseSystemdToCgroupName,
  podCgroupName,
  qosContainersInfo,
  RootCgroupName,
  toCgroupfs,
  toSystemd,
  type CgroupLayout,
  type CgroupName,
} from '../../src/kubelet/cgroup-name';
import { generatePodSandboxConfig, podCgroupParent } from '../../src/kubelet/sandbox-config';
import { GATES_133 } from '../fixtures/gates';
import type { Pod } from '../../src/kubelet/api-types';

const baseName = (p: string): string => p.slice(p.lastIndexOf('/') + 1) || '/';

test('a name built on a parsed "/a/" keeps its empty component, and extending it never changes the base', () => {
  const a = parseCgroupfsToCgroupName('/a/');
  const ab = newCgroupName(a, 'b');
  assert.deepEqual(ab, ['a', '', 'b']);
  const abc = newCgroupName(ab, 'c');
  newCgroupName(ab, 'd');
  assert.deepEqual(abc, ['a', '', 'b', 'c']);
  assert.deepEqual(ab, ['a', '', 'b']);
});

test('components with "/" or "_" are refused (the systemd mapping must stay reversible)', () => {
  assert.throws(() => newCgroupName(RootCgroupName, 'a/b'), /invalid character in component "a\/b"/);
  assert.throws(() => newCgroupName(RootCgroupName, 'a_b'), /invalid character in component "a_b"/);
});

const systemdBase: Array<[string, CgroupName, string]> = [
  ['the root', RootCgroupName, '/'],
  ['one component', ['system'], 'system.slice'],
  ['two components joined by "-"', ['system', 'Burstable'], 'system-Burstable.slice'],
  ['a "-" inside a component becomes "_"', ['Burstable', 'pod-123'], 'Burstable-pod_123.slice'],
  ['three components', ['test', 'a', 'b'], 'test-a-b.slice'],
  ['four components', ['test', 'a', 'b', 'Burstable'], 'test-a-b-Burstable.slice'],
  ['a QoS class alone', ['Burstable'], 'Burstable.slice'],
  [
    'a pod uid with every "-" escaped',
    ['BestEffort', 'pod-6c1a4e95-6bb6-11e6-bc26-28d2444e470d'],
    'BestEffort-pod_6c1a4e95_6bb6_11e6_bc26_28d2444e470d.slice',
  ],
];
for (const [name, input, want] of systemdBase) {
  test(`systemd unit name: ${name}`, () => assert.equal(baseName(toSystemd(input)), want));
}

const systemdFull: Array<[string, CgroupName, string]> = [
  ['the root is "/"', RootCgroupName, '/'],
  ['one level', ['Burstable'], '/Burstable.slice'],
  ['two levels nest as slices', ['Burstable', 'pod-123'], '/Burstable.slice/Burstable-pod_123.slice'],
  [
    'a pod uid',
    ['BestEffort', 'pod-6c1a4e95-6bb6-11e6-bc26-28d2444e470d'],
    '/BestEffort.slice/BestEffort-pod_6c1a4e95_6bb6_11e6_bc26_28d2444e470d.slice',
  ],
  ['kubepods', ['kubepods'], '/kubepods.slice'],
  // empty components are skipped
  ['a trailing empty component', ['Burstable', ''], '/Burstable.slice'],
  ['a leading empty component', ['', 'Burstable', 'pod-123'], '/Burstable.slice/Burstable-pod_123.slice'],
  [
    'empty components inside and at the end',
    ['BestEffort', '', 'pod-6c1a4e95-6bb6-11e6-bc26-28d2444e470d', ''],
    '/BestEffort.slice/BestEffort-pod_6c1a4e95_6bb6_11e6_bc26_28d2444e470d.slice',
  ],
  ['kubepods with an empty component', ['kubepods', ''], '/kubepods.slice'],
];
for (const [name, input, want] of systemdFull) {
  test(`systemd path: ${name}`, () => assert.equal(toSystemd(input), want));
}

test('cgroupfs path: the root is "/", components join with "/"', () => {
  assert.equal(toCgroupfs(RootCgroupName), '/');
  assert.equal(toCgroupfs(['Burstable']), '/Burstable');
  assert.equal(toCgroupfs(['a', '', 'b']), '/a/b');
});

test('a systemd name parses back from its last element, with or without ".slice"', () => {
  assert.deepEqual(parseSystemdToCgroupName('/test'), ['test']);
  assert.deepEqual(parseSystemdToCgroupName('/test.slice'), ['test']);
  assert.deepEqual(
    parseSystemdToCgroupName('/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-poda_b.slice'),
    ['kubepods', 'burstable', 'poda-b'],
  );
});

test('cgroupfs names parse at "/"; "/" and "" are the root', () => {
  assert.deepEqual(parseCgroupfsToCgroupName('/'), []);
  assert.deepEqual(parseCgroupfsToCgroupName(''), []);
  assert.deepEqual(parseCgroupfsToCgroupName('/a/b'), ['a', 'b']);
});

test('slices expand as runc does; malformed slice names are refused', () => {
  assert.equal(expandSlice('-.slice'), '/');
  assert.equal(expandSlice('a-b-c.slice'), '/a.slice/a-b.slice/a-b-c.slice');
  for (const bad of ['.slice', 'a', 'a/b.slice', 'a--b.slice', '-a.slice'])
    assert.throws(() => expandSlice(bad), /invalid slice name/, bad);
});

// The pod container manager's tables: QoS cgroups rooted at the root itself, one pod per QoS class and driver.
const rootQos = qosContainersInfo(RootCgroupName);
const podNames: Array<
  [string, 'Guaranteed' | 'Burstable' | 'BestEffort', 'cgroupfs' | 'systemd', string, CgroupName, string]
> = [
  ['guaranteed, cgroupfs', 'Guaranteed', 'cgroupfs', 'fake-uid-1', ['podfake-uid-1'], '/podfake-uid-1'],
  ['guaranteed, systemd', 'Guaranteed', 'systemd', 'fake-uid-2', ['podfake-uid-2'], '/podfake_uid_2.slice'],
  [
    'burstable, cgroupfs',
    'Burstable',
    'cgroupfs',
    'fake-uid-3',
    ['burstable', 'podfake-uid-3'],
    '/burstable/podfake-uid-3',
  ],
  [
    'burstable, systemd',
    'Burstable',
    'systemd',
    'fake-uid-4',
    ['burstable', 'podfake-uid-4'],
    '/burstable.slice/burstable-podfake_uid_4.slice',
  ],
  [
    'best-effort, cgroupfs',
    'BestEffort',
    'cgroupfs',
    'fake-uid-5',
    ['besteffort', 'podfake-uid-5'],
    '/besteffort/podfake-uid-5',
  ],
  [
    'best-effort, systemd',
    'BestEffort',
    'systemd',
    'fake-uid-6',
    ['besteffort', 'podfake-uid-6'],
    '/besteffort.slice/besteffort-podfake_uid_6.slice',
  ],
];
for (const [name, qos, driver, uid, wantName, wantLiteral] of podNames) {
  test(`pod container name: ${name}`, () => {
    const got = getPodContainerName(uid, qos, rootQos, driver);
    assert.deepEqual(got.name, wantName);
    assert.equal(got.literal, wantLiteral);
  });
}

// Node layouts: kubelet's cgroupRoot (default "/" with cgroupsPerQOS), "kubepods" beneath it, the QoS level, the pod.
const layouts: Array<[string, CgroupLayout, 'Guaranteed' | 'Burstable' | 'BestEffort', string]> = [
  [
    'defaults, cgroupfs',
    { cgroupDriver: 'cgroupfs', cgroupRoot: '', cgroupsPerQOS: true },
    'Burstable',
    '/kubepods/burstable/podu-1',
  ],
  [
    'cgroupRoot "/" is the default',
    { cgroupDriver: 'systemd', cgroupRoot: '/', cgroupsPerQOS: true },
    'Guaranteed',
    '/kubepods.slice/kubepods-podu_1.slice',
  ],
  [
    'cgroupRoot /custom, cgroupfs',
    { cgroupDriver: 'cgroupfs', cgroupRoot: '/custom', cgroupsPerQOS: true },
    'BestEffort',
    '/custom/kubepods/besteffort/podu-1',
  ],
  [
    'cgroupRoot /custom, systemd: every level a slice under custom.slice',
    { cgroupDriver: 'systemd', cgroupRoot: '/custom', cgroupsPerQOS: true },
    'Burstable',
    '/custom.slice/custom-kubepods.slice/custom-kubepods-burstable.slice/custom-kubepods-burstable-podu_1.slice',
  ],
  [
    'cgroupRoot with two levels and a trailing "/", cgroupfs',
    { cgroupDriver: 'cgroupfs', cgroupRoot: '/a/b/', cgroupsPerQOS: true },
    'Guaranteed',
    '/a/b/kubepods/podu-1',
  ],
  [
    'cgroupRoot with two levels and a trailing "/", systemd',
    { cgroupDriver: 'systemd', cgroupRoot: '/a/b/', cgroupsPerQOS: true },
    'Guaranteed',
    '/a.slice/a-b.slice/a-b-kubepods.slice/a-b-kubepods-podu_1.slice',
  ],
  [
    'a "-" in cgroupRoot is escaped for systemd',
    { cgroupDriver: 'systemd', cgroupRoot: '/my-root', cgroupsPerQOS: true },
    'BestEffort',
    '/my_root.slice/my_root-kubepods.slice/my_root-kubepods-besteffort.slice/my_root-kubepods-besteffort-podu_1.slice',
  ],
  [
    'cgroupsPerQOS false: no parent, the runtime places the pod',
    { cgroupDriver: 'cgroupfs', cgroupRoot: '', cgroupsPerQOS: false },
    'Burstable',
    '',
  ],
  [
    'cgroupsPerQOS false with a cgroupRoot and systemd: still no parent',
    { cgroupDriver: 'systemd', cgroupRoot: '/custom', cgroupsPerQOS: false },
    'Guaranteed',
    '',
  ],
];
for (const [name, layout, qos, want] of layouts) {
  test(`pod cgroup on the node: ${name}`, () => assert.equal(podCgroupName('u-1', qos, layout).literal, want));
}

test('the sandbox config carries the layout: cgroupRoot under systemd, and an empty parent without cgroupsPerQOS', () => {
  const pod: Pod = {
    metadata: { name: 'web', namespace: 'default', uid: 'u-1' },
    spec: { containers: [{ name: 'app', image: 'x' }] },
  };
  const opts = { resolvConf: 'nameserver 10.0.0.1\n', configSeen: '2024-01-01T00:00:00.000000000Z', gates: GATES_133 };
  const cg = (o: object) => generatePodSandboxConfig(pod, 0, { ...opts, ...o }).config.linux!.cgroupParent;
  assert.equal(cg({}), '/kubepods/besteffort/podu-1');
  assert.equal(
    cg({ cgroupDriver: 'systemd', cgroupRoot: '/custom' }),
    '/custom.slice/custom-kubepods.slice/custom-kubepods-besteffort.slice/custom-kubepods-besteffort-podu_1.slice',
  );
  assert.equal(cg({ cgroupsPerQOS: false }), '');
  assert.equal(cg({ cgroupsPerQOS: false, cgroupParent: '/given' }), '/given');
  assert.equal(podCgroupParent(pod, { cgroupRoot: '/custom' }), '/custom/kubepods/besteffort/podu-1');
});
