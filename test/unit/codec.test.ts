// Binary codec: round trips of rich CRI messages, cross-checked against protobufjs reflection
// loaded from our own proto files, wire-level edge cases and error messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { runtimeV1 } from '../../src/cri/gen/runtime-v1';
import { runtimeV1alpha2 } from '../../src/cri/gen/runtime-v1alpha2';
import { decodeMessage, encodeMessage, newMessage } from '../../src/cri/codec';
import { SyncpodError } from '../../src/errors';

const PROTO = join(__dirname, '..', '..', 'proto', 'runtime');
const pbV1 = protobuf.loadSync(join(PROTO, 'v1', 'api.proto'));
const pbV1alpha2 = protobuf.loadSync(join(PROTO, 'v1alpha2', 'api.proto'));

/** protobufjs' view of bytes, in our in-memory conventions (nulls dropped, bytes as base64). */
function pbjsView(root: protobuf.Root, pkg: string, type: string, bytes: Uint8Array): unknown {
  const T = root.lookupType(`${pkg}.${type}`);
  return normalize(T.toObject(T.decode(bytes), { longs: String, enums: String, defaults: true, bytes: String }));
}

/** Drops undefined/null (absent sub-messages), turns bytes into base64, sorts nothing. */
function normalize(v: unknown): unknown {
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (Array.isArray(v)) return v.map(normalize);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined && x !== null) out[k] = normalize(x);
    return out;
  }
  return v;
}

/** Every field given in `expected` is in `actual` with the same value, at any depth. */
function assertContains(actual: unknown, expected: unknown, path: string): void {
  if (expected && typeof expected === 'object' && !Array.isArray(expected)) {
    assert.ok(actual && typeof actual === 'object', `${path}: missing`);
    for (const [k, v] of Object.entries(expected))
      assertContains((actual as Record<string, unknown>)[k], v, `${path}.${k}`);
  } else if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual) && actual.length === expected.length, `${path}: list length`);
    expected.forEach((v, i) => assertContains(actual[i], v, `${path}[${i}]`));
  } else assert.deepEqual(actual, expected, path);
}

/** Our encode -> protobufjs decode, and protobufjs encode -> our decode, must agree. */
function crossCheck(root: protobuf.Root, desc: typeof runtimeV1, type: string, sample: Record<string, unknown>) {
  const ours = encodeMessage(desc, type, sample);
  const decodedOurs = decodeMessage(desc, type, ours);
  assert.deepEqual(
    normalize(decodedOurs),
    pbjsView(root, desc.package, type, ours),
    `${type}: our bytes read the same by protobufjs`,
  );
  const T = root.lookupType(`${desc.package}.${type}`);
  const theirs = T.encode(T.fromObject(sample)).finish();
  assert.deepEqual(
    normalize(decodeMessage(desc, type, theirs)),
    pbjsView(root, desc.package, type, theirs),
    `${type}: protobufjs bytes read the same by us`,
  );
  return decodedOurs as Record<string, any>;
}

const podSandboxConfig = {
  metadata: { name: 'web-0', uid: '6f1c0a4e-5b1e-4b7e-9d0a-2c3b4d5e6f70', namespace: 'default', attempt: 2 },
  hostname: 'web-0',
  logDirectory: '/var/log/pods/default_web-0_6f1c0a4e-5b1e-4b7e-9d0a-2c3b4d5e6f70',
  dnsConfig: {
    servers: ['10.96.0.10'],
    searches: ['default.svc.cluster.local', 'svc.cluster.local'],
    options: ['ndots:5'],
  },
  portMappings: [
    { protocol: 'TCP', containerPort: 8080, hostPort: 30080, hostIp: '0.0.0.0' },
    { protocol: 'UDP', containerPort: 53 },
  ],
  labels: { app: 'web', 'io.kubernetes.pod.name': 'web-0', 'io.kubernetes.pod.uid': '6f1c0a4e' },
  annotations: { 'kubernetes.io/config.source': 'api', emoji: 'ünïcødé ✓ 😀' },
  linux: {
    cgroupParent: '/kubepods/burstable/pod6f1c0a4e',
    securityContext: {
      namespaceOptions: {
        network: 'NODE',
        pid: 'CONTAINER',
        ipc: 'POD',
        usernsOptions: {
          mode: 'POD',
          uids: [{ hostId: 100000, containerId: 0, length: 65536 }],
          gids: [{ hostId: 100000, length: 65536 }],
        },
      },
      selinuxOptions: { user: 'system_u', role: 'system_r', type: 'spc_t', level: 's0' },
      runAsUser: { value: '1000' },
      runAsGroup: { value: '0' },
      readonlyRootfs: true,
      supplementalGroups: ['1', '65534', '4294967296'],
      supplementalGroupsPolicy: 'Strict',
      privileged: false,
      seccomp: { profileType: 'Localhost', localhostRef: '/var/lib/kubelet/seccomp/audit.json' },
      apparmor: { profileType: 'RuntimeDefault' },
    },
    sysctls: { 'net.ipv4.ip_forward': '1', 'kernel.shm_rmid_forced': '0' },
    overhead: { cpuPeriod: '100000', cpuQuota: '-1', memoryLimitInBytes: '134217728' },
    resources: {
      cpuShares: '1024',
      memoryLimitInBytes: '9223372036854775807',
      oomScoreAdj: '-997',
      hugepageLimits: [{ pageSize: '2MB', limit: '1073741824' }],
      unified: { 'memory.high': 'max' },
    },
  },
};

const containerStatus = {
  id: 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9',
  metadata: { name: 'nginx', attempt: 3 },
  state: 'CONTAINER_EXITED',
  createdAt: '1700000000123456789',
  startedAt: '1700000001123456789',
  finishedAt: '1700000099123456789',
  exitCode: -1,
  image: {
    image: 'docker.io/library/nginx:1.25',
    annotations: { 'org.opencontainers.image.title': 'nginx' },
    userSpecifiedImage: 'nginx:1.25',
  },
  imageRef: 'docker.io/library/nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31',
  reason: 'Error',
  message: 'exit status 255',
  labels: { 'io.kubernetes.container.name': 'nginx', 'io.kubernetes.pod.namespace': 'default' },
  annotations: { 'io.kubernetes.container.hash': '3f1a9c2e', 'io.kubernetes.container.restartCount': '3' },
  mounts: [
    { containerPath: '/etc/hosts', hostPath: '/var/lib/kubelet/pods/x/etc-hosts', propagation: 'PROPAGATION_PRIVATE' },
    {
      containerPath: '/data',
      hostPath: '/mnt/data',
      readonly: true,
      selinuxRelabel: true,
      propagation: 'PROPAGATION_BIDIRECTIONAL',
      uidMappings: [{ hostId: 1000, containerId: 0, length: 1 }],
      recursiveReadOnly: true,
      mountOptions: ['noexec', 'nosuid'],
    },
  ],
  logPath: 'nginx/3.log',
  imageId: 'sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31',
  user: { linux: { uid: '101', gid: '101', supplementalGroups: ['101', '0'] } },
  stopSignal: 'SIGNAL_SIGQUIT',
};

const listImagesResponse = {
  images: [
    {
      id: 'sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31',
      repoTags: ['docker.io/library/nginx:1.25', 'docker.io/library/nginx:latest'],
      repoDigests: ['docker.io/library/nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31'],
      size: '18446744073709551615',
      uid: { value: '0' },
      username: '',
      spec: { image: 'sha256:0d17b565', annotations: {} },
      pinned: true,
    },
    { id: 'sha256:ffff', repoTags: [], repoDigests: [], size: '67108864', username: 'nobody' },
  ],
};

test('rich messages round-trip and protobufjs reads them the same (both directions)', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['PodSandboxConfig', podSandboxConfig],
    ['ContainerStatus', containerStatus],
    ['ListImagesResponse', listImagesResponse],
    ['RunPodSandboxRequest', { config: podSandboxConfig, runtimeHandler: 'runc' }],
    ['ContainerStatusResponse', { status: containerStatus, info: { info: '{"pid":42}' } }],
  ];
  for (const [type, sample] of cases) {
    const back = crossCheck(pbV1, runtimeV1, type, sample);
    // every given field comes back exactly (defaults fill in the rest)
    assertContains(normalize(back), normalize(sample), type);
  }
});

test('decoded messages carry every default and leave absent sub-messages undefined', () => {
  const s = decodeMessage(runtimeV1, 'ContainerStatus', Buffer.alloc(0));
  assert.equal(s.id, '');
  assert.equal(s.metadata, undefined);
  assert.equal(s.state, 'CONTAINER_CREATED');
  assert.equal(s.createdAt, '0');
  assert.equal(s.exitCode, 0);
  assert.deepEqual(s.labels, {});
  assert.deepEqual(s.mounts, []);
  assert.equal(s.stopSignal, 'SIGNAL_RUNTIME_DEFAULT');
  assert.deepEqual(Object.keys(s), [
    'id',
    'metadata',
    'state',
    'createdAt',
    'startedAt',
    'finishedAt',
    'exitCode',
    'image',
    'imageRef',
    'reason',
    'message',
    'labels',
    'annotations',
    'mounts',
    'logPath',
    'resources',
    'imageId',
    'user',
    'stopSignal',
  ]);
  assert.deepEqual(decodeMessage(runtimeV1, 'ExecSyncResponse', Buffer.alloc(0)), {
    stdout: Buffer.alloc(0),
    stderr: Buffer.alloc(0),
    exitCode: 0,
  });
  assert.deepEqual(newMessage(runtimeV1, 'PortMapping'), {
    protocol: 'TCP',
    containerPort: 0,
    hostPort: 0,
    hostIp: '',
  });
});

// Hand-assembled wire bytes for the wire-level cases.
const varint = (n: bigint): number[] => {
  const out: number[] = [];
  let v = BigInt.asUintN(64, n);
  while (v > 127n) {
    out.push(Number(v & 127n) | 128);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
};
const tag = (field: number, wire: number) => varint(BigInt((field << 3) | wire));
const str = (s: string) => [...varint(BigInt(Buffer.byteLength(s))), ...Buffer.from(s)];

test('64-bit and 32-bit integers encode to the expected varints and decode back as decimal strings', () => {
  const cases: { name: string; type: string; value: unknown; wire: bigint; back: unknown }[] = [
    { name: 'small int64 as string', type: 'Int64Value', value: '1000', wire: 1000n, back: '1000' },
    { name: 'int64 as number', type: 'Int64Value', value: 1000, wire: 1000n, back: '1000' },
    { name: 'int64 as bigint', type: 'Int64Value', value: 1000n, wire: 1000n, back: '1000' },
    { name: 'int64 -1 (ten-byte varint)', type: 'Int64Value', value: '-1', wire: -1n, back: '-1' },
    {
      name: 'int64 above 2^53',
      type: 'Int64Value',
      value: '9007199254740993',
      wire: 9007199254740993n,
      back: '9007199254740993',
    },
    {
      name: 'int64 max',
      type: 'Int64Value',
      value: '9223372036854775807',
      wire: 9223372036854775807n,
      back: '9223372036854775807',
    },
    {
      name: 'int64 min',
      type: 'Int64Value',
      value: '-9223372036854775808',
      wire: -9223372036854775808n,
      back: '-9223372036854775808',
    },
    {
      name: 'uint64 max',
      type: 'UInt64Value',
      value: '18446744073709551615',
      wire: 18446744073709551615n,
      back: '18446744073709551615',
    },
    { name: 'uint64 2^32', type: 'UInt64Value', value: 4294967296, wire: 4294967296n, back: '4294967296' },
  ];
  for (const c of cases) {
    const bytes = encodeMessage(runtimeV1, c.type, { value: c.value });
    assert.deepEqual([...bytes], [...tag(1, 0), ...varint(c.wire)], c.name);
    assert.deepEqual(decodeMessage(runtimeV1, c.type, bytes), { value: c.back }, c.name);
  }
  // int32: a negative exit code is a ten-byte varint on the wire and a negative number in memory
  const exit = encodeMessage(runtimeV1, 'ExecSyncResponse', { exitCode: -2 });
  assert.deepEqual([...exit], [...tag(3, 0), ...varint(-2n)]);
  assert.equal(decodeMessage(runtimeV1, 'ExecSyncResponse', exit).exitCode, -2);
});

test('scalars at their default stay off the wire; present empty sub-messages are written', () => {
  assert.equal(encodeMessage(runtimeV1, 'PortMapping', { protocol: 'TCP', containerPort: 0, hostIp: '' }).length, 0);
  assert.equal(encodeMessage(runtimeV1, 'Int64Value', { value: '0' }).length, 0);
  assert.equal(encodeMessage(runtimeV1, 'ContainerStatus', {}).length, 0);
  assert.deepEqual([...encodeMessage(runtimeV1, 'ContainerStatus', { metadata: {} })], [...tag(2, 2), 0]);
  assert.deepEqual(decodeMessage(runtimeV1, 'ContainerStatus', Buffer.from([...tag(2, 2), 0])).metadata, {
    name: '',
    attempt: 0,
  });
});

test('enums encode from names or numbers and decode to names; unknown numbers stay numbers', () => {
  const byName = encodeMessage(runtimeV1, 'PortMapping', { protocol: 'SCTP' });
  const byNumber = encodeMessage(runtimeV1, 'PortMapping', { protocol: 2 });
  assert.deepEqual(byName, byNumber);
  assert.deepEqual([...byName], [...tag(1, 0), 2]);
  assert.equal(decodeMessage(runtimeV1, 'PortMapping', byName).protocol, 'SCTP');
  assert.equal(decodeMessage(runtimeV1, 'PortMapping', Buffer.from([...tag(1, 0), 9])).protocol, 9);
  // nested enum type
  const sp = decodeMessage(
    runtimeV1,
    'SecurityProfile',
    encodeMessage(runtimeV1, 'SecurityProfile', { profileType: 'Localhost' }),
  );
  assert.equal(sp.profileType, 'Localhost');
});

test('repeated scalars are written packed and read both packed and unpacked', () => {
  const groups = ['5', '70000', '4294967296'];
  const packedBody = groups.flatMap((g) => varint(BigInt(g)));
  const packed = encodeMessage(runtimeV1, 'LinuxSandboxSecurityContext', { supplementalGroups: groups });
  assert.deepEqual([...packed], [...tag(5, 2), packedBody.length, ...packedBody]);
  const unpacked = Buffer.from(groups.flatMap((g) => [...tag(5, 0), ...varint(BigInt(g))]));
  assert.deepEqual(decodeMessage(runtimeV1, 'LinuxSandboxSecurityContext', unpacked).supplementalGroups, groups);
  assert.deepEqual(decodeMessage(runtimeV1, 'LinuxSandboxSecurityContext', packed).supplementalGroups, groups);
  // both forms in one message append in order
  const mixed = Buffer.concat([unpacked, packed]);
  assert.deepEqual(decodeMessage(runtimeV1, 'LinuxSandboxSecurityContext', mixed).supplementalGroups, [
    ...groups,
    ...groups,
  ]);
});

test('unknown fields of every wire type and wire-type mismatches are skipped', () => {
  const known = [...tag(1, 2), ...str('web'), ...tag(4, 0), 7]; // PodSandboxMetadata name, attempt
  const unknown = [
    ...tag(99, 0),
    ...varint(-5n),
    ...tag(100, 1),
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
    ...tag(101, 2),
    ...str('ignored'),
    ...tag(102, 5),
    1,
    2,
    3,
    4,
    ...tag(103, 3),
    ...tag(1, 0),
    1,
    ...tag(103, 4),
    ...tag(2, 0),
    5, // uid is a string: a varint there is skipped, not misread
  ];
  const m = decodeMessage(runtimeV1, 'PodSandboxMetadata', Buffer.from([...unknown, ...known]));
  assert.deepEqual(m, { name: 'web', uid: '', namespace: '', attempt: 7 });
});

test('maps read entries with missing key or value as defaults; a repeated sub-message field merges', () => {
  const entry = (body: number[]) => [...tag(6, 2), body.length, ...body];
  const bytes = Buffer.from([...entry([...tag(1, 2), ...str('a')]), ...entry([...tag(2, 2), ...str('v')])]);
  assert.deepEqual(decodeMessage(runtimeV1, 'PodSandboxConfig', bytes).labels, { a: '', '': 'v' });
  const twice = Buffer.from([...tag(1, 2), 3, ...tag(1, 2), 1, 0x61, ...tag(1, 2), 2, ...tag(4, 0), 3]);
  assert.deepEqual(decodeMessage(runtimeV1, 'PodSandboxConfig', twice).metadata, {
    name: 'a',
    uid: '',
    namespace: '',
    attempt: 3,
  });
  const proto = decodeMessage(
    runtimeV1,
    'PodSandboxConfig',
    encodeMessage(runtimeV1, 'PodSandboxConfig', { labels: { ['__proto__']: 'x' } }),
  );
  assert.deepEqual(Object.keys(proto.labels), ['__proto__']);
  assert.equal(Object.getPrototypeOf(proto.labels), Object.prototype);
});

test('large messages get multi-byte length prefixes', () => {
  const long = 'x'.repeat(70000);
  const back = decodeMessage(
    runtimeV1,
    'RunPodSandboxRequest',
    encodeMessage(runtimeV1, 'RunPodSandboxRequest', { config: { hostname: long, annotations: { a: long } } }),
  );
  assert.equal(back.config?.hostname, long);
  assert.equal(back.config?.annotations.a, long);
});

test('malformed input fails with one line naming the message type', () => {
  const cases: [string, number[]][] = [
    ['truncated string', [...tag(1, 2), 10, 0x61]],
    ['truncated varint', [...tag(4, 0), 0x80]],
    ['truncated sub-message', [...tag(2, 2), 5, 1]],
    ['invalid wire type', [...tag(50, 7)]],
  ];
  for (const [name, bytes] of cases) {
    const type = name === 'truncated sub-message' ? 'ContainerStatus' : 'PodSandboxMetadata';
    assert.throws(
      () => decodeMessage(runtimeV1, type, Buffer.from(bytes)),
      (err: unknown) => {
        assert.ok(err instanceof SyncpodError, name);
        assert.match(err.message, new RegExp(`^cannot decode runtime\\.v1\\.${type}: `), name);
        assert.ok(!err.message.includes('\n'), name);
        return true;
      },
    );
  }
});

test('encoding a wrong value names the message, the field and the cause', () => {
  const cases: { type: string; value: unknown; error: RegExp }[] = [
    {
      type: 'PortMapping',
      value: { containerPort: 'eighty' },
      error: /^cannot encode runtime\.v1\.PortMapping: PortMapping\.containerPort: expected an integer, got "eighty"$/,
    },
    { type: 'PortMapping', value: { protocol: 'ICMP' }, error: /PortMapping\.protocol: unknown enum value "ICMP"$/ },
    {
      type: 'CreateContainerRequest',
      value: { config: { linux: { resources: { cpuShares: 1.5 } } } },
      error: /LinuxContainerResources\.cpuShares: expected an integer, got number 1\.5$/,
    },
    { type: 'UInt64Value', value: { value: '-1' }, error: /UInt64Value\.value: -1 is out of range$/ },
    { type: 'Int64Value', value: { value: '9223372036854775808' }, error: /out of range$/ },
    { type: 'PodSandboxConfig', value: { labels: ['a'] }, error: /PodSandboxConfig\.labels: expected a map/ },
    {
      type: 'PodSandboxConfig',
      value: { hostname: 5 },
      error: /PodSandboxConfig\.hostname: expected a string, got number 5$/,
    },
    { type: 'Nope', value: {}, error: /^unknown message type runtime\.v1\.Nope$/ },
  ];
  for (const c of cases) {
    assert.throws(
      () => encodeMessage(runtimeV1, c.type, c.value),
      (err: unknown) => err instanceof SyncpodError && c.error.test(err.message),
      c.type,
    );
  }
});

test('a request round-trips through encode and decode', () => {
  const req = { filter: { state: { state: 'CONTAINER_RUNNING' }, labelSelector: { 'io.kubernetes.pod.uid': 'u1' } } };
  const back = decodeMessage(
    runtimeV1,
    'ListContainersRequest',
    encodeMessage(runtimeV1, 'ListContainersRequest', req),
  );
  assert.equal(back.filter?.state?.state, 'CONTAINER_RUNNING');
  assert.deepEqual(back.filter?.labelSelector, { 'io.kubernetes.pod.uid': 'u1' });
  assert.equal(back.filter?.id, '');
});

test('v1alpha2 descriptors decode v1alpha2 messages (and agree with protobufjs)', () => {
  const sample = {
    containers: [
      {
        id: 'c1',
        podSandboxId: 's1',
        metadata: { name: 'app', attempt: 1 },
        image: { image: 'busybox', annotations: { a: 'b' } },
        imageRef: 'sha256:abc',
        state: 'CONTAINER_RUNNING',
        createdAt: '1600000000000000000',
        labels: { x: 'y' },
        annotations: {},
      },
    ],
  };
  const back = crossCheck(pbV1alpha2, runtimeV1alpha2, 'ListContainersResponse', sample);
  assert.equal(back.containers[0].createdAt, '1600000000000000000');
  assert.equal(back.containers[0].state, 'CONTAINER_RUNNING');
  // v1 bytes of the same message read under v1alpha2 (same wire numbers for these fields)
  const v1bytes = encodeMessage(runtimeV1, 'ListContainersResponse', sample);
  assert.deepEqual(normalize(decodeMessage(runtimeV1alpha2, 'ListContainersResponse', v1bytes)), normalize(back));
  const version = decodeMessage(
    runtimeV1alpha2,
    'VersionResponse',
    encodeMessage(runtimeV1alpha2, 'VersionResponse', {
      version: '0.1.0',
      runtimeName: 'containerd',
      runtimeVersion: 'v1.5.0',
      runtimeApiVersion: 'v1alpha2',
    }),
  );
  assert.deepEqual(version, {
    version: '0.1.0',
    runtimeName: 'containerd',
    runtimeVersion: 'v1.5.0',
    runtimeApiVersion: 'v1alpha2',
  });
});
