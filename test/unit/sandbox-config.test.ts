import { test } from 'node:test';
import { withInputFlags } from '../fixtures/input-flags';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Container, Pod } from '../../src/kubelet/api-types';
import {
  containerPortMappings,
  generatePodSandboxConfig,
  podCgroupParent,
  sysctlToDots,
  type SandboxOptions,
} from '../../src/kubelet/sandbox-config';
import { GATES_133 } from '../fixtures/gates';

const webPod = (): Pod =>
  JSON.parse(readFileSync(new URL('../fixtures/configs/web-pod.json', import.meta.url), 'utf8'));
const UID = '0c9d3b5e-1111-4222-8333-944455556666';
const SEEN = '2024-05-01T10:20:30.123456789+02:00';
const opts: SandboxOptions = {
  clusterDNS: ['10.96.0.10'],
  clusterDomain: 'cluster.local',
  resolvConf: 'nameserver 192.168.1.1\nsearch example.com\n',
  configSeen: SEEN,
  gates: GATES_133,
};
const withSpec = (spec: Partial<Pod['spec']>, containers?: Container[]): Pod => {
  const p = webPod();
  p.spec = { ...p.spec!, ...spec, ...(containers ? { containers } : {}) };
  return p;
};

test('worked example: pod web in default (reference §5.8)', () => {
  const { config, runtimeHandler, effects, events } = generatePodSandboxConfig(webPod(), 0, opts);
  assert.deepEqual(config.metadata, { name: 'web', namespace: 'default', uid: UID, attempt: 0 });
  assert.equal(config.hostname, 'web');
  assert.equal(config.logDirectory, `/var/log/pods/default_web_${UID}`);
  assert.deepEqual(config.dnsConfig, {
    servers: ['10.96.0.10'],
    searches: ['default.svc.cluster.local', 'svc.cluster.local', 'cluster.local', 'example.com'],
    options: ['ndots:5'],
  });
  assert.deepEqual(config.portMappings, [{ protocol: 'TCP', containerPort: 80, hostPort: 0, hostIp: '' }]);
  assert.deepEqual(config.labels, {
    app: 'web',
    'io.kubernetes.pod.name': 'web',
    'io.kubernetes.pod.namespace': 'default',
    'io.kubernetes.pod.uid': UID,
  });
  assert.deepEqual(config.annotations, {
    team: 'storefront',
    'kubernetes.io/config.source': 'api',
    'kubernetes.io/config.seen': SEEN,
  });
  const linux = config.linux!;
  assert.equal(linux.cgroupParent, `/kubepods/besteffort/pod${UID}`);
  assert.equal(linux.securityContext!.privileged, false);
  assert.deepEqual(linux.securityContext!.seccomp, { profileType: 'RuntimeDefault', localhostRef: '' });
  const ns = linux.securityContext!.namespaceOptions!;
  assert.deepEqual([ns.network, ns.pid, ns.ipc], ['POD', 'CONTAINER', 'POD']);
  assert.deepEqual(linux.sysctls, {});
  assert.deepEqual(
    [
      linux.resources!.cpuShares,
      linux.resources!.cpuQuota,
      linux.resources!.cpuPeriod,
      linux.resources!.memoryLimitInBytes,
    ],
    ['2', '0', '100000', '0'],
  );
  assert.deepEqual(linux.resources!.unified, { 'memory.oom.group': '1' });
  assert.equal(runtimeHandler, '');
  assert.deepEqual(events, []);
  assert.deepEqual(
    effects.map((e) => [e.kind, e.kind === 'mkdir' ? e.path : '', e.kind === 'mkdir' ? e.mode.toString(8) : '']),
    [
      ['mkdir', `/var/lib/kubelet/pods/${UID}`, '750'],
      ['mkdir', `/var/lib/kubelet/pods/${UID}/volumes`, '750'],
      ['mkdir', `/var/lib/kubelet/pods/${UID}/plugins`, '750'],
      ['mkdir', `/var/log/pods/default_web_${UID}`, '755'],
    ],
  );
  const systemd = generatePodSandboxConfig(webPod(), 0, { ...opts, cgroupDriver: 'systemd' });
  assert.equal(
    systemd.config.linux!.cgroupParent,
    '/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod0c9d3b5e_1111_4222_8333_944455556666.slice',
  );
});

test('paths and attempt follow the options', () => {
  const { config, effects } = generatePodSandboxConfig(webPod(), 3, {
    ...opts,
    podLogsRoot: '/data/logs/',
    kubeletRoot: '/srv/kubelet',
  });
  assert.equal(config.metadata!.attempt, 3);
  assert.equal(config.logDirectory, `/data/logs/default_web_${UID}`);
  assert.equal(effects[0]!.kind === 'mkdir' && effects[0]!.path, `/srv/kubelet/pods/${UID}`);
  assert.throws(() => generatePodSandboxConfig(webPod(), -1, opts), /attempt -1/);
});

test('cgroup parent by QoS and driver', () => {
  const g = { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } };
  const guaranteed = withSpec({}, [{ name: 'app', image: 'x', resources: g }]);
  const burstable = withSpec({}, [{ name: 'app', image: 'x', resources: { requests: { cpu: '1' } } }]);
  const u = UID.replace(/-/g, '_');
  const cases: Array<[string, Pod, 'cgroupfs' | 'systemd', string]> = [
    ['Guaranteed cgroupfs', guaranteed, 'cgroupfs', `/kubepods/pod${UID}`],
    ['Guaranteed systemd', guaranteed, 'systemd', `/kubepods.slice/kubepods-pod${u}.slice`],
    ['Burstable cgroupfs', burstable, 'cgroupfs', `/kubepods/burstable/pod${UID}`],
    [
      'Burstable systemd',
      burstable,
      'systemd',
      `/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod${u}.slice`,
    ],
  ];
  for (const [name, pod, driver, want] of cases)
    assert.equal(podCgroupParent(pod, { cgroupDriver: driver }), want, name);
  assert.equal(
    generatePodSandboxConfig(guaranteed, 0, { ...opts, cgroupParent: '/custom/parent' }).config.linux!.cgroupParent,
    '/custom/parent',
  );
});

test('port mappings: regular containers only, hostPort 0 kept, conflicting names dropped', () => {
  const cases: Array<[string, Container['ports'], Array<[string, number, number, string]>]> = [
    [
      'protocols and host IPs',
      [
        { containerPort: 53, protocol: 'UDP', hostPort: 5353, hostIP: '127.0.0.1' },
        { containerPort: 9000, protocol: 'SCTP' },
        { containerPort: 8080 },
      ],
      [
        ['UDP', 53, 5353, '127.0.0.1'],
        ['SCTP', 9000, 0, ''],
        ['TCP', 8080, 0, ''],
      ],
    ],
    [
      'the same port name twice: the second is dropped',
      [
        { name: 'http', containerPort: 80 },
        { name: 'http', containerPort: 8080 },
      ],
      [['TCP', 80, 0, '']],
    ],
    [
      'unnamed duplicates with the same key are dropped',
      [
        { containerPort: 80, protocol: 'TCP' },
        { containerPort: 80, protocol: 'TCP' },
      ],
      [['TCP', 80, 0, '']],
    ],
    [
      'same port, different address families are both kept',
      [
        { containerPort: 80, protocol: 'TCP', hostPort: 80, hostIP: '10.0.0.1' },
        { containerPort: 80, protocol: 'TCP', hostPort: 80, hostIP: 'fd00::1' },
        { containerPort: 80, protocol: 'TCP', hostPort: 80 },
      ],
      [
        ['TCP', 80, 80, '10.0.0.1'],
        ['TCP', 80, 80, 'fd00::1'],
        ['TCP', 80, 80, ''],
      ],
    ],
    [
      'same port over TCP and UDP both kept',
      [
        { containerPort: 53, protocol: 'TCP' },
        { containerPort: 53, protocol: 'UDP' },
      ],
      [
        ['TCP', 53, 0, ''],
        ['UDP', 53, 0, ''],
      ],
    ],
  ];
  for (const [name, ports, want] of cases) {
    assert.deepEqual(
      containerPortMappings(ports ?? []).map((p) => [p.protocol, p.containerPort, p.hostPort, p.hostIp]),
      want,
      name,
    );
  }
  const pod = withSpec({ initContainers: [{ name: 'init', image: 'x', ports: [{ containerPort: 1 }] }] }, [
    { name: 'a', image: 'x', ports: [{ name: 'http', containerPort: 80 }] },
    { name: 'b', image: 'x', ports: [{ name: 'http', containerPort: 81 }] },
  ]);
  assert.deepEqual(
    generatePodSandboxConfig(pod, 0, opts).config.portMappings.map((p) => p.containerPort),
    [80, 81],
    'names only conflict within one container; init containers are not mapped',
  );
  assert.deepEqual(
    generatePodSandboxConfig(withSpec({}, [{ name: 'a', image: 'x' }]), 0, opts).config.portMappings,
    [],
  );
});

test('sysctl names: slashes become dots when the first separator is a slash', () => {
  const cases: Array<[string, string]> = [
    ['kernel.shm_rmid_forced', 'kernel.shm_rmid_forced'],
    ['kernel/shm_rmid_forced', 'kernel.shm_rmid_forced'],
    ['net/ipv4/conf/eno2.100/rp_filter', 'net.ipv4.conf.eno2/100.rp_filter'],
    ['net.ipv4.conf.eno2/100.rp_filter', 'net.ipv4.conf.eno2/100.rp_filter'],
    ['plain', 'plain'],
  ];
  for (const [input, want] of cases) assert.equal(sysctlToDots(input), want, input);
  const pod = withSpec({
    securityContext: {
      sysctls: [
        { name: 'net/core/somaxconn', value: '1024' },
        { name: 'kernel.msgmax', value: '65536' },
      ],
    },
  });
  assert.deepEqual(generatePodSandboxConfig(pod, 0, opts).config.linux!.sysctls, {
    'net.core.somaxconn': '1024',
    'kernel.msgmax': '65536',
  });
});

test('sandbox security context', () => {
  const pod = withSpec({
    hostNetwork: true,
    hostPID: true,
    hostIPC: true,
    securityContext: {
      runAsUser: 1000,
      runAsGroup: 3000,
      fsGroup: 2000,
      supplementalGroups: [4000, 5000],
      seLinuxOptions: { level: 's0:c1,c2' },
    },
    initContainers: [{ name: 'init', image: 'x', securityContext: { privileged: true } }],
  });
  const sc = generatePodSandboxConfig(pod, 0, opts).config.linux!.securityContext!;
  assert.deepEqual(sc.runAsUser, { value: '1000' });
  assert.deepEqual(sc.runAsGroup, { value: '3000' });
  assert.deepEqual(sc.supplementalGroups, ['2000', '4000', '5000'], 'fsGroup first');
  assert.deepEqual(sc.selinuxOptions, { user: '', role: '', type: '', level: 's0:c1,c2' });
  assert.equal(sc.privileged, true, 'any container privileged makes the sandbox privileged');
  const ns = sc.namespaceOptions!;
  assert.deepEqual([ns.network, ns.pid, ns.ipc], ['NODE', 'NODE', 'NODE']);
  assert.deepEqual(ns.usernsOptions, { mode: 'NODE', uids: [], gids: [] });
  assert.equal(
    generatePodSandboxConfig(pod, 0, { ...opts, gates: { ...GATES_133, UserNamespacesSupport: false } }).config.linux!
      .securityContext!.namespaceOptions!.usernsOptions,
    undefined,
  );
  assert.equal(generatePodSandboxConfig(pod, 0, opts).config.hostname, '', 'no hostname for host-network pods');

  const shared = generatePodSandboxConfig(withSpec({ shareProcessNamespace: true }), 0, opts).config.linux!
    .securityContext!;
  assert.equal(shared.namespaceOptions!.pid, 'POD');

  const { securityContext: _unused, ...specWithout } = webPod().spec!;
  const noPodSc: Pod = { ...webPod(), spec: specWithout };
  const bare = generatePodSandboxConfig(noPodSc, 0, opts).config.linux!.securityContext!;
  assert.equal(
    bare.namespaceOptions,
    undefined,
    'no namespace options without spec.securityContext (API defaulting adds {})',
  );

  assert.throws(
    () => generatePodSandboxConfig(withSpec({ hostUsers: false }), 0, opts),
    /hostUsers: false needs a user-namespace range, and none was allocated/,
  );
});

test('runtime handler: flag, RuntimeClass map, or a clear error', () => {
  const gvisor = withSpec({ runtimeClassName: 'gvisor' });
  assert.equal(
    generatePodSandboxConfig(gvisor, 0, { ...opts, runtimeClassHandlers: { gvisor: 'runsc' } }).runtimeHandler,
    'runsc',
  );
  assert.equal(generatePodSandboxConfig(gvisor, 0, { ...opts, runtimeHandler: 'kata' }).runtimeHandler, 'kata');
  // The kubelet layer names the missing input; the command line adds its flag.
  assert.throws(() => generatePodSandboxConfig(gvisor, 0, opts), {
    message: 'RuntimeClass "gvisor" has no known handler',
    needs: 'runtime-handler',
  });
  withInputFlags(() =>
    assert.throws(() => generatePodSandboxConfig(gvisor, 0, opts), {
      message: 'RuntimeClass "gvisor" has no known handler: pass the handler with --runtime-handler',
    }),
  );
});

test('static pods carry config.source and config.hash', () => {
  const { config } = generatePodSandboxConfig(webPod(), 0, { ...opts, configSource: 'file' });
  assert.equal(config.annotations['kubernetes.io/config.source'], 'file');
  assert.equal(config.annotations['kubernetes.io/config.hash'], UID);
});

test('missing identity is a clear error', () => {
  const { uid: _uid, ...metadata } = webPod().metadata!;
  const pod: Pod = { ...webPod(), metadata };
  assert.throws(() => generatePodSandboxConfig(pod, 0, opts), { message: 'pod default/web: metadata.uid is empty' });
});
