import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyEffect } from '../../src/sync/fs-effects';
import { nodeFs } from '../../src/sync/node-fs';
import { dryRunFs } from '../../src/sync/dry-run';
import type { Container, EphemeralContainer, Pod } from '../../src/kubelet/api-types';
import { generateContainerConfig, type ContainerOptions } from '../../src/kubelet/container-config';
import { encodeContainerPorts, encodeLifecycleHandler } from '../../src/kubelet/go-json';
import { formatHash, hashContainer, hashContainerLegacy } from '../../src/kubelet/hash';
import { GATES_133 } from '../fixtures/gates';

const UID = '0c9d3b5e-1111-4222-8333-944455556666';
const POD_DIR = `/var/lib/kubelet/pods/${UID}`;
const webPod = (): Pod =>
  JSON.parse(readFileSync(new URL('../fixtures/configs/web-pod.json', import.meta.url), 'utf8'));
const opts: ContainerOptions = {
  resolvConf: null,
  clusterDomain: 'cluster.local',
  restartCount: 0,
  imageRef: 'sha256:1111',
  podIPs: ['10.244.1.7'],
  nodeIPs: ['192.168.1.5'],
  terminationLogName: '3f9a0c12',
  memoryCapacityBytes: 16 * 1024 ** 3,
  hugePageSizes: ['2MB', '1GB'],
  gates: GATES_133,
};
/** The web pod with its one container changed (and optional pod spec changes). */
const podWith = (c: Partial<Container>, spec: Partial<Pod['spec']> = {}): { pod: Pod; c: Container } => {
  const pod = webPod();
  const c0 = { ...pod.spec!.containers[0]!, ...c };
  pod.spec = { ...pod.spec!, ...spec, containers: [c0] };
  return { pod, c: c0 };
};
const gen = (c: Partial<Container> = {}, o: Partial<ContainerOptions> = {}, spec: Partial<Pod['spec']> = {}) => {
  const { pod, c: container } = podWith(c, spec);
  return generateContainerConfig(pod, container, 'regular', { ...opts, ...o });
};
const text = (v: Uint8Array) => new TextDecoder().decode(v);

test('identity fields of the web container', () => {
  const { config } = gen({}, { restartCount: 3 });
  assert.deepEqual(config.metadata, { name: 'app', attempt: 3 });
  assert.equal(config.image!.image, 'sha256:1111');
  assert.equal(config.image!.userSpecifiedImage, 'nginx:1.25');
  assert.equal(config.logPath, 'app/3.log');
  assert.deepEqual(config.labels, {
    'io.kubernetes.pod.name': 'web',
    'io.kubernetes.pod.namespace': 'default',
    'io.kubernetes.pod.uid': UID,
    'io.kubernetes.container.name': 'app',
  });
  assert.deepEqual(config.annotations, {
    'io.kubernetes.container.hash': formatHash(hashContainer({ name: 'app', image: 'nginx:1.25' })),
    'io.kubernetes.container.restartCount': '3',
    'io.kubernetes.container.terminationMessagePath': '/dev/termination-log',
    'io.kubernetes.container.terminationMessagePolicy': 'File',
    'io.kubernetes.pod.terminationGracePeriod': '30',
    'io.kubernetes.container.ports': '[{"containerPort":80,"protocol":"TCP"}]',
  });
  assert.deepEqual(
    [config.command, config.args, config.workingDir, config.stdin, config.stdinOnce, config.tty],
    [[], [], '', false, false, false],
  );
});

test('annotations: legacy hash scheme, hashWithoutResources, deletion grace period, preStop', () => {
  const made = podWith({ lifecycle: { preStop: { exec: { command: ['sh', '-c', 'sleep 5 && nginx -s quit'] } } } });
  const c = made.c;
  const pod: Pod = { ...made.pod, metadata: { ...made.pod.metadata, deletionGracePeriodSeconds: 10 } };
  const legacy = generateContainerConfig(pod, c, 'regular', {
    ...opts,
    hashScheme: 'whole-spec',
    hashWithoutResources: true,
  }).config.annotations;
  assert.equal(legacy['io.kubernetes.container.hash'], formatHash(hashContainerLegacy(c)));
  assert.ok(/^[0-9a-f]+$/.test(legacy['io.kubernetes.container.hashWithoutResources']!));
  assert.equal(legacy['io.kubernetes.pod.deletionGracePeriod'], '10');
  assert.equal(
    legacy['io.kubernetes.container.preStopHandler'],
    '{"exec":{"command":["sh","-c","sleep 5 \\u0026\\u0026 nginx -s quit"]}}',
  );
  const plain = gen({ ports: [] }).config.annotations;
  assert.equal(plain['io.kubernetes.container.ports'], undefined, 'no ports annotation without ports');
  assert.equal(plain['io.kubernetes.container.preStopHandler'], undefined);
});

test('Go encoding/json text of ports and preStop handlers', () => {
  const ports: Array<[string, Container['ports'], string]> = [
    [
      'field order and omitempty',
      [{ name: 'http', hostPort: 8080, containerPort: 80, protocol: 'TCP', hostIP: '0.0.0.0' }],
      '[{"name":"http","hostPort":8080,"containerPort":80,"protocol":"TCP","hostIP":"0.0.0.0"}]',
    ],
    ['containerPort is never omitted', [{ containerPort: 0 }], '[{"containerPort":0}]'],
    [
      'keys given in another order are written in Go order',
      [{ protocol: 'UDP', containerPort: 53, name: 'dns' }],
      '[{"name":"dns","containerPort":53,"protocol":"UDP"}]',
    ],
    [
      'HTML characters escaped',
      [{ name: 'a<b>&c', containerPort: 1 }],
      '[{"name":"a\\u003cb\\u003e\\u0026c","containerPort":1}]',
    ],
  ];
  for (const [name, p, want] of ports) assert.equal(encodeContainerPorts(p ?? []), want, name);

  const handlers: Array<[string, Parameters<typeof encodeLifecycleHandler>[0], string]> = [
    [
      'httpGet with named port, headers',
      { httpGet: { path: '/quit?a=1&b=2', port: 'http', scheme: 'HTTP', httpHeaders: [{ name: 'X-A', value: '' }] } },
      '{"httpGet":{"path":"/quit?a=1\\u0026b=2","port":"http","scheme":"HTTP","httpHeaders":[{"name":"X-A","value":""}]}}',
    ],
    [
      'httpGet numeric port, host',
      { httpGet: { port: 8080, host: 'localhost' } },
      '{"httpGet":{"port":8080,"host":"localhost"}}',
    ],
    ['tcpSocket', { tcpSocket: { port: 6379 } }, '{"tcpSocket":{"port":6379}}'],
    ['sleep', { sleep: { seconds: 5 } }, '{"sleep":{"seconds":5}}'],
    ['empty exec keeps the object', { exec: {} }, '{"exec":{}}'],
    [
      'quotes, backslashes, newline, tab, U+2028',
      { exec: { command: ['a"b\\c\nd\te\u2028'] } },
      '{"exec":{"command":["a\\"b\\\\c\\nd\\te\\u2028"]}}',
    ],
    ['control characters', { exec: { command: ['\u0001\b\f'] } }, '{"exec":{"command":["\\u0001\\b\\f"]}}'],
  ];
  for (const [name, h, want] of handlers) assert.equal(encodeLifecycleHandler(h), want, name);
  assert.throws(
    () => encodeContainerPorts([{ containerPort: 'eighty' as unknown as number }]),
    /ports\[0\]\.containerPort: expected an integer/,
  );
});

test('command, args and env in the config', () => {
  const { config } = gen({
    command: ['/bin/sh', '-c'],
    args: ['echo $(GREETING) from $(POD_NAME) $$(HOME) $(MISSING)'],
    workingDir: '/srv',
    stdin: true,
    stdinOnce: true,
    tty: true,
    env: [
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'GREETING', value: 'hello' },
      { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
    ],
  });
  assert.deepEqual(config.command, ['/bin/sh', '-c']);
  assert.deepEqual(config.args, ['echo hello from web $(HOME) $(MISSING)']);
  assert.deepEqual(
    config.envs.map((e) => [e.key, text(e.value)]),
    [
      ['POD_NAME', 'web'],
      ['GREETING', 'hello'],
      ['POD_IP', '10.244.1.7'],
    ],
  );
  assert.deepEqual([config.workingDir, config.stdin, config.stdinOnce, config.tty], ['/srv', true, true, true]);
});

test('mounts: hostPath with subPath, emptyDir, /etc/hosts, termination log, in kubelet order', () => {
  const { config, effects } = gen(
    {
      env: [{ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
      volumeMounts: [
        { name: 'data', mountPath: '/data', subPath: 'web/store', readOnly: true, mountPropagation: 'HostToContainer' },
        { name: 'scratch', mountPath: '/scratch' },
        { name: 'scratch', mountPath: '/logs', subPathExpr: 'logs/$(POD)' },
      ],
    },
    { selinuxEnabled: true },
    {
      volumes: [
        { name: 'data', hostPath: { path: '/mnt/data', type: 'DirectoryOrCreate' } },
        { name: 'scratch', emptyDir: {} },
      ],
      hostAliases: [{ ip: '10.0.0.9', hostnames: ['db', 'db.local'] }],
      subdomain: 'front',
    },
  );
  const emptyDir = `${POD_DIR}/volumes/kubernetes.io~empty-dir/scratch`;
  assert.deepEqual(
    config.mounts.map((m) => [m.containerPath, m.hostPath, m.readonly, m.selinuxRelabel, m.propagation]),
    [
      // A subPath is given to the runtime as its bind mount (kubelet's volume-subpaths/<volume>/<container>/<index>).
      ['/data', `${POD_DIR}/volume-subpaths/data/app/0`, true, false, 'PROPAGATION_HOST_TO_CONTAINER'],
      ['/scratch', emptyDir, false, true, 'PROPAGATION_PRIVATE'],
      ['/logs', `${POD_DIR}/volume-subpaths/scratch/app/2`, false, true, 'PROPAGATION_PRIVATE'],
      ['/etc/hosts', `${POD_DIR}/etc-hosts`, false, true, 'PROPAGATION_PRIVATE'],
      ['/dev/termination-log', `${POD_DIR}/containers/app/3f9a0c12`, false, true, 'PROPAGATION_PRIVATE'],
    ],
  );
  const hosts = effects.find((e) => e.kind === 'writeFile');
  assert.deepEqual(hosts, {
    kind: 'writeFile',
    path: `${POD_DIR}/etc-hosts`,
    mode: 0o644,
    content:
      '# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n' +
      'fe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n' +
      '10.244.1.7\tweb.front.default.svc.cluster.local\tweb\n' +
      '\n# Entries added by HostAliases.\n10.0.0.9\tdb\tdb.local\n',
    why: 'managed /etc/hosts',
  });
  assert.deepEqual(
    effects.map(
      (e) =>
        `${e.kind} ${'path' in e ? e.path : 'volumePath' in e ? `${e.volumePath} + ${e.subPath} at ${e.target}` : e.dir}${'mode' in e ? ' ' + e.mode.toString(8) : ''}`,
    ),
    [
      `mkdir ${POD_DIR} 750`,
      `mkdir ${POD_DIR}/volumes 750`,
      `mkdir ${POD_DIR}/plugins 750`,
      'mkdir /mnt/data 755',
      `bindSubPath /mnt/data + web/store at ${POD_DIR}/volume-subpaths/data/app/0`,
      `mkdir ${emptyDir} 777`,
      `bindSubPath ${emptyDir} + logs/web at ${POD_DIR}/volume-subpaths/scratch/app/2`,
      `writeFile ${POD_DIR}/etc-hosts 644`,
      `mkdir ${POD_DIR}/containers/app 750`,
      `mkdir /var/log/pods/default_web_${UID}/app 755`,
      `touch ${POD_DIR}/containers/app/3f9a0c12 666`,
    ],
  );
});

test('a container started by a later sync finds the pod directory, as kubelet makes it on every SyncPod (the sandbox was made with another --pod-dir-root, or the directory was removed)', () => {
  const root = mkdtempSync(join(tmpdir(), 'syncpod-poddirs-'));
  try {
    const { effects } = gen({}, { kubeletRoot: root, podLogsRoot: `${root}/logs` });
    for (const e of effects) applyEffect(nodeFs, e);
    const dir = `${root}/pods/${UID}`;
    assert.match(readFileSync(`${dir}/etc-hosts`, 'utf8'), /^# Kubernetes-managed hosts file\./);
    for (const d of [dir, `${dir}/volumes`, `${dir}/plugins`]) assert.equal(statSync(d).mode & 0o777, 0o750, d);
    assert.ok(statSync(`${dir}/containers/app/3f9a0c12`).isFile());
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('--dry-run lists the pod directory once for two containers, and makes nothing', () => {
  const root = mkdtempSync(join(tmpdir(), 'syncpod-poddirs-'));
  try {
    const changes: string[] = [];
    const fs = dryRunFs(nodeFs, changes);
    for (const name of ['app', 'side']) {
      for (const e of gen({ name }, { kubeletRoot: root, podLogsRoot: `${root}/logs` }).effects) applyEffect(fs, e);
    }
    assert.deepEqual(
      changes.filter((l) => l.startsWith(`mkdir -p ${root}/pods/${UID} `)),
      [`mkdir -p ${root}/pods/${UID} (750)`],
    );
    assert.equal(
      changes.filter((l) => l.startsWith('write ')).length,
      2,
      'etc-hosts is written for each container, as kubelet does',
    );
    assert.deepEqual(readdirSync(root), []);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('no /etc/hosts without pod IPs or when a volume mounts it; no termination log without a path', () => {
  const noIPs = gen({}, { podIPs: [] }).config.mounts.map((m) => m.containerPath);
  assert.deepEqual(noIPs, ['/dev/termination-log']);
  const own = gen(
    { volumeMounts: [{ name: 'hosts', mountPath: '/etc/hosts' }], terminationMessagePath: '' },
    {},
    { volumes: [{ name: 'hosts', hostPath: { path: '/etc/hosts', type: 'File' } }] },
  );
  assert.deepEqual(
    own.config.mounts.map((m) => [m.containerPath, m.hostPath]),
    [['/etc/hosts', '/etc/hosts']],
  );
  assert.deepEqual(own.effects[3], {
    kind: 'checkHostPath',
    path: '/etc/hosts',
    type: 'File',
    why: 'hostPath volume hosts',
  });
  assert.equal(own.config.annotations['io.kubernetes.container.terminationMessagePath'], '');
});

test('host-network pods get the node hosts file', () => {
  const r = gen({}, { nodeHostsFile: '127.0.0.1 localhost\n192.168.1.5 node-1\n' }, { hostNetwork: true });
  const hosts = r.effects.find((e) => e.kind === 'writeFile');
  assert.equal(
    hosts && hosts.kind === 'writeFile' && hosts.content,
    '# Kubernetes-managed hosts file (host network).\n127.0.0.1 localhost\n192.168.1.5 node-1\n',
  );
  assert.throws(() => gen({}, {}, { hostNetwork: true }), /node's \/etc\/hosts, which was not given/);
});

test('mount and volume errors', () => {
  const cases: Array<[string, Partial<Container>, Partial<Pod['spec']>, RegExp | string]> = [
    [
      'unknown volume',
      { volumeMounts: [{ name: 'nope', mountPath: '/x' }] },
      {},
      'cannot find volume "nope" to mount into container "app"',
    ],
    [
      'unsupported type',
      { volumeMounts: [{ name: 'cfg', mountPath: '/x' }] },
      { volumes: [{ name: 'cfg', configMap: { name: 'c' } }] },
      'volume cfg: type configMap is not supported by syncpod',
    ],
    [
      'memory emptyDir',
      { volumeMounts: [{ name: 'm', mountPath: '/x' }] },
      { volumes: [{ name: 'm', emptyDir: { medium: 'Memory' } }] },
      'volume m: emptyDir medium Memory is not supported by syncpod',
    ],
    [
      'absolute subPath',
      { volumeMounts: [{ name: 'd', mountPath: '/x', subPath: '/etc' }] },
      { volumes: [{ name: 'd', emptyDir: {} }] },
      'error SubPath `/etc` must not be an absolute path',
    ],
    [
      'subPath with ..',
      { volumeMounts: [{ name: 'd', mountPath: '/x', subPath: 'a/../../b' }] },
      { volumes: [{ name: 'd', emptyDir: {} }] },
      /unable to provision SubPath `a\/\.\.\/\.\.\/b`/,
    ],
    [
      'subPathExpr with a missing variable',
      { volumeMounts: [{ name: 'd', mountPath: '/x', subPathExpr: '$(NOPE)' }] },
      { volumes: [{ name: 'd', emptyDir: {} }] },
      'container app: volumeMount d: subPathExpr: missing value for NOPE',
    ],
    [
      'recursiveReadOnly Enabled without runtime support',
      { volumeMounts: [{ name: 'd', mountPath: '/x', readOnly: true, recursiveReadOnly: 'Enabled' } as never] },
      { volumes: [{ name: 'd', emptyDir: {} }] },
      /recursiveReadOnly Enabled is not supported by the runtime/,
    ],
  ];
  for (const [name, c, spec, want] of cases) {
    assert.throws(
      () => gen(c, {}, spec),
      typeof want === 'string' ? { name: 'SyncpodError', message: want } : want,
      name,
    );
  }
  assert.throws(
    () => gen({}, { terminationLogName: 'XYZ' }),
    /termination-log file name "XYZ" is not 8 lowercase hex digits/,
  );
});

test('linux resources of the container', () => {
  const r = gen({ resources: { requests: { cpu: '250m', memory: '1Gi' }, limits: { cpu: '500m', memory: '2Gi' } } })
    .config.linux!.resources!;
  assert.deepEqual(
    [r.cpuShares, r.cpuQuota, r.cpuPeriod, r.memoryLimitInBytes, r.oomScoreAdj, r.unified],
    ['256', '50000', '100000', String(2 * 1024 ** 3), '938', { 'memory.oom.group': '1' }],
  );
  assert.deepEqual(gen({}, { cgroupVersion: 1 }).config.linux!.resources!.unified, {});
  assert.equal(
    gen({}, {}, { priorityClassName: 'system-node-critical', priority: 2000001000 }).config.linux!.resources!
      .oomScoreAdj,
    '-997',
  );
  assert.throws(
    () => gen({ resources: { requests: { memory: '1Gi' } } }, { memoryCapacityBytes: undefined }),
    /needs the node's memory capacity/,
  );
});

test('security context', () => {
  type Case = {
    name: string;
    c?: Partial<Container>;
    spec?: Partial<Pod['spec']>;
    o?: Partial<ContainerOptions>;
    check: (sc: NonNullable<NonNullable<ReturnType<typeof gen>['config']['linux']>['securityContext']>) => void;
  };
  const cases: Case[] = [
    {
      name: 'defaults: image without user runs as uid 0, Unconfined seccomp, default masked paths',
      check: (sc) => {
        assert.deepEqual(sc.runAsUser, { value: '0' });
        assert.equal(sc.runAsUsername, '');
        assert.deepEqual(sc.seccomp, { profileType: 'Unconfined', localhostRef: '' });
        assert.equal(sc.maskedPaths.length, 11);
        assert.deepEqual(sc.readonlyPaths, ['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger']);
        assert.equal(sc.capabilities, undefined);
        assert.equal(sc.apparmor, undefined);
        assert.deepEqual([sc.privileged, sc.readonlyRootfs, sc.noNewPrivs], [false, false, false]);
      },
    },
    {
      name: '--seccomp-default gives RuntimeDefault',
      o: { seccompDefault: true },
      check: (sc) => assert.equal(sc.seccomp!.profileType, 'RuntimeDefault'),
    },
    {
      name: 'image user name and uid',
      o: { imageUser: { username: 'nginx' } },
      check: (sc) => {
        assert.equal(sc.runAsUser, undefined);
        assert.equal(sc.runAsUsername, 'nginx');
      },
    },
    {
      name: 'image uid',
      o: { imageUser: { uid: '101' } },
      check: (sc) => assert.deepEqual(sc.runAsUser, { value: '101' }),
    },
    {
      name: 'container fields override the pod; capabilities as written',
      spec: {
        securityContext: {
          runAsUser: 1000,
          runAsGroup: 1000,
          fsGroup: 2000,
          supplementalGroups: [3000],
          seLinuxOptions: { type: 'pod_t' },
        },
      },
      c: {
        securityContext: {
          runAsUser: 1001,
          capabilities: { add: ['NET_ADMIN'], drop: ['ALL'] },
          privileged: true,
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          procMount: 'Unmasked',
        },
      },
      check: (sc) => {
        assert.deepEqual(sc.runAsUser, { value: '1001' });
        assert.deepEqual(sc.runAsGroup, { value: '1000' });
        assert.deepEqual(sc.capabilities, {
          addCapabilities: ['NET_ADMIN'],
          dropCapabilities: ['ALL'],
          addAmbientCapabilities: [],
        });
        assert.deepEqual([sc.privileged, sc.readonlyRootfs, sc.noNewPrivs], [true, true, true]);
        assert.deepEqual(sc.supplementalGroups, ['2000', '3000']);
        assert.equal(sc.selinuxOptions!.type, 'pod_t');
        assert.deepEqual([sc.maskedPaths, sc.readonlyPaths], [[], []]);
      },
    },
    {
      name: 'seccomp Localhost under <root>/seccomp, container wins over pod',
      spec: { securityContext: { seccompProfile: { type: 'RuntimeDefault' } } },
      c: { securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/audit.json' } } },
      o: { kubeletRoot: '/srv/kubelet' },
      check: (sc) =>
        assert.deepEqual(sc.seccomp, {
          profileType: 'Localhost',
          localhostRef: '/srv/kubelet/seccomp/profiles/audit.json',
        }),
    },
    {
      name: 'pod seccomp used when the container has none',
      spec: { securityContext: { seccompProfile: { type: 'RuntimeDefault' } } },
      check: (sc) => assert.equal(sc.seccomp!.profileType, 'RuntimeDefault'),
    },
    {
      name: 'AppArmor from the legacy annotation',
      check: (sc) => {
        assert.deepEqual(sc.apparmor, { profileType: 'Localhost', localhostRef: 'k8s-nginx' });
        assert.equal(sc.apparmorProfile, 'localhost/k8s-nginx');
      },
      spec: {},
    },
    {
      name: 'AppArmor field on the container',
      c: { securityContext: { appArmorProfile: { type: 'RuntimeDefault' } } as never },
      check: (sc) => {
        assert.deepEqual(sc.apparmor, { profileType: 'RuntimeDefault', localhostRef: '' });
        assert.equal(sc.apparmorProfile, 'runtime/default');
      },
    },
    {
      name: 'namespaces follow the pod',
      spec: { hostIPC: true, shareProcessNamespace: true },
      check: (sc) => {
        assert.deepEqual(
          [sc.namespaceOptions!.network, sc.namespaceOptions!.pid, sc.namespaceOptions!.ipc],
          ['POD', 'POD', 'NODE'],
        );
      },
    },
  ];
  for (const k of cases) {
    const { pod, c } = podWith(k.c ?? {}, k.spec ?? {});
    if (k.name.startsWith('AppArmor from the legacy'))
      pod.metadata!.annotations = { 'container.apparmor.security.beta.kubernetes.io/app': 'localhost/k8s-nginx' };
    const sc = generateContainerConfig(pod, c, 'regular', { ...opts, ...k.o }).config.linux!.securityContext!;
    k.check(sc);
  }
  assert.throws(() => gen({ securityContext: { seccompProfile: { type: 'Localhost' } } }), {
    message: 'localhostProfile must be set if seccompProfile type is Localhost.',
  });
});

test('runAsNonRoot is verified with kubelet messages', () => {
  const pod = 'web_default(0c9d3b5e-1111-4222-8333-944455556666)';
  const cases: Array<[string, Partial<Container>, Partial<ContainerOptions>, string | undefined]> = [
    [
      'runAsUser 0',
      { securityContext: { runAsNonRoot: true, runAsUser: 0 } },
      {},
      `container's runAsUser breaks non-root policy (pod: "${pod}", container: app)`,
    ],
    [
      'image runs as root',
      { securityContext: { runAsNonRoot: true } },
      {},
      `container has runAsNonRoot and image will run as root (pod: "${pod}", container: app)`,
    ],
    [
      'non-numeric image user',
      { securityContext: { runAsNonRoot: true } },
      { imageUser: { username: 'nginx' } },
      `container has runAsNonRoot and image has non-numeric user (nginx), cannot verify user is non-root (pod: "${pod}", container: app)`,
    ],
    [
      'numeric non-root image user passes',
      { securityContext: { runAsNonRoot: true } },
      { imageUser: { uid: 101 } },
      undefined,
    ],
    ['runAsUser non-zero passes', { securityContext: { runAsNonRoot: true, runAsUser: 1000 } }, {}, undefined],
  ];
  for (const [name, c, o, message] of cases) {
    if (message) assert.throws(() => gen(c, o), { name: 'SyncpodError', message }, name);
    else assert.doesNotThrow(() => gen(c, o), name);
  }
});

test('init and ephemeral containers', () => {
  const pod = webPod();
  const init: Container = { name: 'setup', image: 'busybox', terminationMessagePath: '/dev/termination-log' };
  const debug: EphemeralContainer = { name: 'debug', image: 'busybox', targetContainerName: 'app' };
  pod.spec!.initContainers = [init];
  pod.spec!.ephemeralContainers = [debug];
  const i = generateContainerConfig(pod, init, 'init', opts).config;
  assert.equal(i.labels['io.kubernetes.container.name'], 'setup');
  assert.equal(i.logPath, 'setup/0.log');
  const e = generateContainerConfig(pod, debug, 'ephemeral', { ...opts, targetContainerId: 'abc123' }).config;
  assert.deepEqual(
    [e.linux!.securityContext!.namespaceOptions!.pid, e.linux!.securityContext!.namespaceOptions!.targetId],
    ['TARGET', 'abc123'],
  );
  assert.throws(
    () => generateContainerConfig(pod, debug, 'ephemeral', opts),
    /targets container app, whose container id was not given/,
  );
  assert.throws(() => generateContainerConfig(pod, init, 'regular', opts), /pod has no container named setup/);
  const shared = webPod();
  shared.spec!.shareProcessNamespace = true;
  shared.spec!.ephemeralContainers = [debug];
  const s = generateContainerConfig(shared, debug, 'ephemeral', { ...opts, targetContainerId: 'abc123' }).config;
  assert.equal(s.linux!.securityContext!.namespaceOptions!.pid, 'POD', 'only a CONTAINER PID mode becomes TARGET');
});

test('dry-run fs: what it would make reads back with its kind and mode; what exists stays what it is', () => {
  const root = mkdtempSync(join(tmpdir(), 'syncpod-dryfs-'));
  try {
    writeFileSync(join(root, 'file'), 'x');
    const changes: string[] = [];
    const fs = dryRunFs(nodeFs, changes);
    fs.mkdirAll(`${root}/a/b/scratch`, 0o777);
    assert.equal(fs.kind(`${root}/a/b/scratch`), 'dir');
    assert.equal(fs.mode(`${root}/a/b/scratch`) & 0o777, 0o777, 'an emptyDir made at 0777 reads as 0777, not 755');
    assert.equal(fs.kind(`${root}/a`), 'dir');
    fs.mkdirAll(`${root}/file/sub`, 0o755);
    assert.equal(
      fs.kind(`${root}/file`),
      'file',
      'an existing file under a planned directory is not marked a directory',
    );
    fs.touch(`${root}/a/log`, 0o640);
    assert.equal(fs.mode(`${root}/a/log`), 0o640);
    assert.deepEqual(readdirSync(root), ['file'], 'nothing was made');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
