// Issue 8: how each config-generation gate changes the generated sandbox/container configs, per
// kubelet minor 1.29–1.37 with that minor's default gates (features.ts), plus explicit --feature-gates.
// The "on in" column is the expected default per minor (kubelet-versions facts; 1.35 specs pinned).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod } from '../../src/kubelet/api-types';
import type { ContainerConfig, PodSandboxConfig } from '../../src/cri/types';
import { envFileHostPaths, generateContainerConfig, type ContainerOptions } from '../../src/kubelet/container-config';
import { parseEnvFileValue } from '../../src/kubelet/env-file';
import { getPodQOS } from '../../src/kubelet/resources';
import { generatePodSandboxConfig, type SandboxOptions } from '../../src/kubelet/sandbox-config';
import { gatesAt } from '../fixtures/gates';

const UID = 'a1b2c3d4-0000-4000-8000-000000000001';
const MINORS = [29, 30, 31, 32, 33, 34, 35, 36, 37];
const ROOT = '/var/lib/kubelet';
const EMPTYDIR = `${ROOT}/pods/${UID}/volumes/kubernetes.io~empty-dir`;

const podWith = (c: Partial<Container> = {}, spec: Partial<NonNullable<Pod['spec']>> = {}): Pod => ({
  metadata: { name: 'web', namespace: 'shop', uid: UID },
  spec: {
    nodeName: 'n1',
    enableServiceLinks: true,
    securityContext: {},
    containers: [{ name: 'app', image: 'busybox', ...c }],
    ...spec,
  },
});
const baseOpts = (gates: ReturnType<typeof gatesAt>): ContainerOptions => ({
  resolvConf: null,
  clusterDomain: 'cluster.local',
  restartCount: 0,
  imageRef: 'sha256:aaaa',
  podIPs: ['10.1.0.5'],
  nodeIPs: ['192.168.0.2'],
  terminationLogName: 'deadbeef',
  hugePageSizes: [],
  memoryCapacityBytes: 8 * 1024 ** 3,
  supportsRecursiveReadOnly: true,
  gates,
});
const container = (pod: Pod, o: Partial<ContainerOptions> & { gates: ReturnType<typeof gatesAt> }): ContainerConfig =>
  generateContainerConfig(pod, pod.spec!.containers[0]!, 'regular', { ...baseOpts(o.gates), ...o }).config;
const sandbox = (pod: Pod, o: Partial<SandboxOptions> & { gates: ReturnType<typeof gatesAt> }): PodSandboxConfig =>
  generatePodSandboxConfig(pod, 0, { resolvConf: null, clusterDomain: 'cluster.local', configSeen: 'x', ...o }).config;
const envOf = (c: ContainerConfig) => Object.fromEntries(c.envs.map((e) => [e.key, new TextDecoder().decode(e.value)]));
const onIn = (from: number | null) => (m: number) => from !== null && m >= from;

interface GateCase {
  gate: string;
  /** Minor from which the gate is on by default (null: off in every minor). */
  defaultOnFrom: number | null;
  /** What the generated config shows for this minor's gates: true when the gate's effect is there. */
  effect: (gates: ReturnType<typeof gatesAt>) => boolean;
}

const stopPod = podWith({ lifecycle: { stopSignal: 'SIGUSR1' } as Container['lifecycle'] });
const envFilePod = podWith(
  {
    env: [{ name: 'TOKEN', valueFrom: { fileKeyRef: { volumeName: 'cfg', path: 'app.env', key: 'TOKEN' } } }],
    volumeMounts: [{ name: 'cfg', mountPath: '/cfg' }],
  } as Partial<Container>,
  { volumes: [{ name: 'cfg', emptyDir: {} }] },
);
const overridePod = podWith({}, { hostnameOverride: 'custom-host.example', subdomain: 'sub' });
const imagePod = podWith(
  { volumeMounts: [{ name: 'data', mountPath: '/data', readOnly: true, subPath: 'models' }] },
  {
    volumes: [{ name: 'data', image: { reference: 'registry.example/models:v1', pullPolicy: 'IfNotPresent' } }],
  },
);
const podLevelPod = podWith(
  { resources: { requests: { cpu: '250m', memory: '64Mi' } } },
  { resources: { requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '2', memory: '1Gi' } } },
);
const procPod = podWith({ securityContext: { procMount: 'Unmasked' } }, { hostUsers: false });
const rroPod = podWith(
  { volumeMounts: [{ name: 'v', mountPath: '/v', readOnly: true, recursiveReadOnly: 'Enabled' } as never] },
  { volumes: [{ name: 'v', hostPath: { path: '/srv' } }] },
);
const relaxedPod = podWith({ envFrom: [{ configMapRef: { name: 'cfg' } }] });
const strictPod = podWith({}, { securityContext: { supplementalGroupsPolicy: 'Strict' } as never });
const usernsPod = podWith(
  { volumeMounts: [{ name: 'v', mountPath: '/v' }] },
  { hostUsers: false, volumes: [{ name: 'v', emptyDir: {} }] },
);
const RANGE = { hostId: 65536 * 3, length: 65536 };

const CASES: GateCase[] = [
  {
    gate: 'ContainerStopSignals',
    defaultOnFrom: null,
    effect: (g) => container(stopPod, { gates: g }).stopSignal === 'SIGNAL_SIGUSR1',
  },
  {
    gate: 'EnvFiles',
    defaultOnFrom: 35,
    effect: (g) =>
      envOf(container(envFilePod, { gates: g, envFiles: { [`${EMPTYDIR}/cfg/app.env`]: "TOKEN='t0k'\n" } })).TOKEN ===
      't0k',
  },
  {
    gate: 'HostnameOverride',
    defaultOnFrom: 35,
    effect: (g) => sandbox(overridePod, { gates: g }).hostname === 'custom-host.example',
  },
  {
    gate: 'ImageVolume',
    defaultOnFrom: 35,
    effect: (g) => {
      try {
        return container(imagePod, { gates: g, imageVolumes: { data: 'sha256:beef' } }).mounts.some(
          (m) => m.image?.image === 'sha256:beef',
        );
      } catch (err) {
        assert.match((err as Error).message, /volume data: type image needs the ImageVolume feature gate/);
        return false;
      }
    },
  },
  {
    gate: 'PodLevelResources',
    defaultOnFrom: 34,
    effect: (g) => container(podLevelPod, { gates: g }).linux!.resources!.memoryLimitInBytes === String(1024 ** 3),
  },
  {
    gate: 'ProcMountType',
    defaultOnFrom: 33,
    effect: (g) => {
      if (!g.UserNamespacesSupport) return false; // hostUsers: false is refused without user namespaces
      return container(procPod, { gates: g, userNamespace: RANGE }).linux!.securityContext!.maskedPaths.length === 0;
    },
  },
  {
    gate: 'RecursiveReadOnlyMounts',
    defaultOnFrom: 31,
    effect: (g) => {
      try {
        return container(rroPod, { gates: g }).mounts[0]!.recursiveReadOnly;
      } catch (err) {
        assert.match(
          (err as Error).message,
          /recursive read-only mount needs feature gate "RecursiveReadOnlyMounts" to be enabled/,
        );
        return false;
      }
    },
  },
  {
    gate: 'RelaxedEnvironmentVariableValidation',
    defaultOnFrom: 32,
    effect: (g) =>
      '1_REPLACE_ME' in
      envOf(container(relaxedPod, { gates: g, values: { configMaps: { cfg: { '1_REPLACE_ME': 'x', OK: 'y' } } } })),
  },
  {
    gate: 'SupplementalGroupsPolicy',
    defaultOnFrom: 33,
    effect: (g) => sandbox(strictPod, { gates: g }).linux!.securityContext!.supplementalGroupsPolicy === 'Strict',
  },
  {
    gate: 'UserNamespacesSupport',
    defaultOnFrom: 33,
    effect: (g) => {
      try {
        return (
          sandbox(usernsPod, { gates: g, userNamespace: RANGE }).linux!.securityContext!.namespaceOptions!.usernsOptions
            ?.mode === 'POD'
        );
      } catch (err) {
        assert.match(
          (err as Error).message,
          /the feature gate "UserNamespacesSupport" is disabled: can't set spec.HostUsers/,
        );
        return false;
      }
    },
  },
];

for (const c of CASES) {
  test(`${c.gate}: effect in the generated config per kubelet minor (default gates)`, () => {
    const got = MINORS.map((m) => `1.${m}:${c.effect(gatesAt(m)) ? 'on' : 'off'}`);
    const want = MINORS.map((m) => `1.${m}:${onIn(c.defaultOnFrom)(m) ? 'on' : 'off'}`);
    assert.deepEqual(got, want);
  });
}

test('explicit --feature-gates change the config the same way (ContainerStopSignals on at 1.34, PodLevelResources off at 1.36)', () => {
  assert.equal(container(stopPod, { gates: gatesAt(34, { ContainerStopSignals: true }) }).stopSignal, 'SIGNAL_SIGUSR1');
  assert.equal(container(stopPod, { gates: gatesAt(34) }).stopSignal, 'SIGNAL_RUNTIME_DEFAULT');
  assert.equal(
    container(podLevelPod, { gates: gatesAt(36, { PodLevelResources: false }) }).linux!.resources!.memoryLimitInBytes,
    '0',
  );
  const bad = podWith({ lifecycle: { stopSignal: 'SIGNOPE' } as Container['lifecycle'] });
  assert.throws(
    () => container(bad, { gates: gatesAt(34, { ContainerStopSignals: true }) }),
    /lifecycle.stopSignal SIGNOPE is not a signal the CRI knows/,
  );
});

test('ImageVolume: CRI Mount.image carries the pulled image, image_sub_path the subPath, no host path, read-only', () => {
  const m = container(imagePod, { gates: gatesAt(36), imageVolumes: { data: 'sha256:beef' } }).mounts[0]!;
  assert.deepEqual(
    {
      containerPath: m.containerPath,
      hostPath: m.hostPath,
      readonly: m.readonly,
      image: m.image?.image,
      user: m.image?.userSpecifiedImage,
      sub: m.imageSubPath,
    },
    {
      containerPath: '/data',
      hostPath: '',
      readonly: true,
      image: 'sha256:beef',
      user: 'registry.example/models:v1',
      sub: 'models',
    },
  );
  assert.throws(() => container(imagePod, { gates: gatesAt(36) }), /image volume data has not been pulled/);
});

test('user namespaces: POD mode with the allocated range on the sandbox, the container and every mount', () => {
  const g = gatesAt(36);
  const sb = sandbox(usernsPod, { gates: g, userNamespace: RANGE }).linux!.securityContext!.namespaceOptions!
    .usernsOptions!;
  const map = [{ hostId: 196608, containerId: 0, length: 65536 }];
  assert.deepEqual(sb, { mode: 'POD', uids: map, gids: map });
  const c = container(usernsPod, { gates: g, userNamespace: RANGE });
  assert.deepEqual(c.linux!.securityContext!.namespaceOptions!.usernsOptions, { mode: 'POD', uids: map, gids: map });
  assert.ok(c.mounts.length >= 2);
  for (const m of c.mounts) assert.deepEqual([m.uidMappings, m.gidMappings], [map, map], m.containerPath);
  assert.throws(() => sandbox(usernsPod, { gates: g }), /hostUsers: false needs a user-namespace range/);
  const hostUsersPod = podWith(
    { volumeMounts: [{ name: 'v', mountPath: '/v' }] },
    { hostUsers: true, volumes: [{ name: 'v', emptyDir: {} }] },
  );
  const node = container(hostUsersPod, { gates: g });
  assert.equal(node.linux!.securityContext!.namespaceOptions!.usernsOptions!.mode, 'NODE');
  assert.deepEqual(node.mounts[0]!.uidMappings, [], 'no id-mapped mounts outside a pod user namespace');
});

test('HostnameOverride: hostname and /etc/hosts use the override, no domain; an invalid name is refused', () => {
  const c = generateContainerConfig(overridePod, overridePod.spec!.containers[0]!, 'regular', {
    ...baseOpts(gatesAt(35)),
  });
  const hosts = c.effects.find((e) => e.kind === 'writeFile');
  assert.ok(
    hosts && hosts.kind === 'writeFile' && hosts.content.endsWith('10.1.0.5\tcustom-host.example\n'),
    hosts && 'content' in hosts ? hosts.content : '',
  );
  const long = podWith({}, { hostnameOverride: `${'a'.repeat(62)}.bc` });
  assert.equal(sandbox(long, { gates: gatesAt(35) }).hostname, 'a'.repeat(62));
  assert.throws(
    () => sandbox(podWith({}, { hostnameOverride: 'Bad_Name' }), { gates: gatesAt(35) }),
    /pod HostnameOverride "Bad_Name" is not a valid DNS subdomain/,
  );
  assert.equal(sandbox(overridePod, { gates: gatesAt(34) }).hostname, 'web', 'gate off: the pod name');
});

test('PodLevelResources: sandbox resources and QoS from the pod-level values; container limits fall back to them', () => {
  const on = gatesAt(34);
  const sb = sandbox(podLevelPod, { gates: on }).linux!;
  assert.deepEqual(
    [sb.resources!.cpuQuota, sb.resources!.cpuShares, sb.resources!.memoryLimitInBytes],
    ['200000', '512', String(1024 ** 3)],
  );
  assert.equal(sb.cgroupParent, `/kubepods/burstable/pod${UID}`);
  const c = container(podLevelPod, { gates: on }).linux!.resources!;
  assert.deepEqual([c.cpuQuota, c.cpuShares, c.memoryLimitInBytes], ['200000', '256', String(1024 ** 3)]);
  const guaranteed = podWith(
    {},
    { resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } } },
  );
  assert.equal(sandbox(guaranteed, { gates: on }).linux!.cgroupParent, `/kubepods/pod${UID}`);
  assert.equal(getPodQOS(guaranteed, true), 'Guaranteed');
  assert.equal(getPodQOS(guaranteed, false), 'BestEffort', 'gate off: container values only');
  const off = sandbox(podLevelPod, { gates: gatesAt(33) }).linux!;
  assert.deepEqual([off.resources!.cpuQuota, off.resources!.memoryLimitInBytes], ['0', '0']);
});

test('EnvFiles: the file is read from the volume, optional keys may be missing, errors name the file', () => {
  const g = gatesAt(35);
  const file = `${EMPTYDIR}/cfg/app.env`;
  assert.deepEqual(envFileHostPaths(envFilePod, envFilePod.spec!.containers[0]!, { gates: g }), [file]);
  assert.deepEqual(envFileHostPaths(envFilePod, envFilePod.spec!.containers[0]!, { gates: gatesAt(34) }), []);
  assert.throws(
    () => container(envFilePod, { gates: g, envFiles: { [file]: "OTHER='x'\n" } }),
    new RegExp(`environment variable key "TOKEN" not found in file "${file}"`),
  );
  assert.throws(() => container(envFilePod, { gates: g }), /couldn't parse env file .*app\.env: it could not be read/);
  assert.throws(
    () => container(envFilePod, { gates: g, envFiles: { [file]: 'TOKEN=bare\n' } }),
    /line 1: value must be enclosed in single quotes/,
  );
  assert.equal(
    envOf(container(envFilePod, { gates: gatesAt(34) })).TOKEN,
    '',
    'gate off: kubelet leaves the variable empty',
  );
});

test('env file format (kubelet ParseEnv, strict single-quoted form)', () => {
  const text = "# comment\n\n  A='1'\nB='two words' # trailing comment\nC='multi\nline'\nD= 'ignored'\nE=''\n";
  const rows: Array<[string, string | undefined]> = [
    ['A', '1'],
    ['B', 'two words'],
    ['C', 'multi\nline'],
    ['D', undefined],
    ['E', undefined],
    ['Z', undefined],
  ];
  for (const [k, want] of rows) assert.equal(parseEnvFileValue(text, k), want, k);
  const bad: Array<[string, RegExp]> = [
    ['NOEQ\n', /line 1: missing '='/],
    ["=''\n", /line 1: empty variable name/],
    ["A ='x'\n", /line 1: whitespace before '=' is not allowed/],
    ["A='x' y\n", /line 1: unexpected content after closing quote/],
    ["A='open\nstill\n", /starting at line 1: unclosed single quote/],
  ];
  for (const [t, re] of bad) assert.throws(() => parseEnvFileValue(t, 'A'), re, JSON.stringify(t));
});
