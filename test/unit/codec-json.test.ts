// Protobuf JSON mapping: crictl's -o json (Go protojson with EmitDefaultValues) and reading
// crictl-style config files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseYaml } from 'yaml';
import { runtimeV1 } from '../../src/cri/gen/runtime-v1';
import { decodeMessage, encodeMessage } from '../../src/cri/codec';
import { fromProtoJSON, toProtoJSON } from '../../src/cri/json';
import { SyncpodError } from '../../src/errors';

/** Same value and same key order (what a user sees in the printed JSON). */
function sameJSON(actual: unknown, expected: unknown, name: string) {
  assert.deepEqual(actual, expected, name);
  assert.equal(JSON.stringify(actual, null, 2), JSON.stringify(expected, null, 2), `${name}: key order`);
}

test('toProtoJSON follows protojson with EmitDefaultValues', () => {
  const cases: { name: string; type: string; value: unknown; json: unknown }[] = [
    {
      name: 'an empty message emits every scalar, list and map default and leaves unset sub-messages out (crictl 1.37; 1.26 printed "image": null)',
      type: 'ContainerStatus',
      value: {},
      json: {
        id: '',
        state: 'CONTAINER_CREATED',
        createdAt: '0',
        startedAt: '0',
        finishedAt: '0',
        exitCode: 0,
        imageRef: '',
        reason: '',
        message: '',
        labels: {},
        annotations: {},
        mounts: [],
        logPath: '',
        imageId: '',
        stopSignal: 'SIGNAL_RUNTIME_DEFAULT',
      },
    },
    {
      name: 'int64 as strings, int32 as numbers, enums as names, fields in declaration order',
      type: 'ContainerStatus',
      value: {
        exitCode: 137,
        createdAt: '1700000000123456789',
        state: 'CONTAINER_EXITED',
        metadata: { name: 'app', attempt: 2 },
        id: 'c1',
      },
      json: {
        id: 'c1',
        metadata: { name: 'app', attempt: 2 },
        state: 'CONTAINER_EXITED',
        createdAt: '1700000000123456789',
        startedAt: '0',
        finishedAt: '0',
        exitCode: 137,
        imageRef: '',
        reason: '',
        message: '',
        labels: {},
        annotations: {},
        mounts: [],
        logPath: '',
        imageId: '',
        stopSignal: 'SIGNAL_RUNTIME_DEFAULT',
      },
    },
    {
      name: 'declaration order, not field-number order (deprecated seccomp_profile_path = 7 comes last)',
      type: 'LinuxSandboxSecurityContext',
      value: { runAsGroup: { value: '0' }, runAsUser: { value: '1000' } },
      json: {
        runAsUser: { value: '1000' },
        runAsGroup: { value: '0' },
        readonlyRootfs: false,
        supplementalGroups: [],
        supplementalGroupsPolicy: 'Merge',
        privileged: false,
        seccompProfilePath: '',
      },
    },
    {
      name: 'a set but empty sub-message is emitted with its defaults; uint64 as string',
      type: 'Image',
      value: { id: 'sha256:1', size: '18446744073709551615', spec: {} },
      json: {
        id: 'sha256:1',
        repoTags: [],
        repoDigests: [],
        size: '18446744073709551615',
        username: '',
        spec: { image: '', annotations: {}, userSpecifiedImage: '', runtimeHandler: '', imageRef: '' },
        pinned: false,
      },
    },
    {
      name: 'bytes as standard base64',
      type: 'ExecSyncResponse',
      value: { stdout: Buffer.from('hi\n'), stderr: Buffer.from([0xfb, 0xff]), exitCode: 1 },
      json: { stdout: 'aGkK', stderr: '+/8=', exitCode: 1 },
    },
    {
      name: 'doubles: NaN and infinities as strings; json names that protoc keeps as declared',
      type: 'PsiData',
      value: { Total: '5', Avg10: NaN, Avg60: Infinity, Avg300: 0.25 },
      json: { Total: '5', Avg10: 'NaN', Avg60: 'Infinity', Avg300: 0.25 },
    },
    {
      name: 'an enum number without a name stays a number; nested enums by name',
      type: 'PortMapping',
      value: { protocol: 7, containerPort: 80 },
      json: { protocol: 7, containerPort: 80, hostPort: 0, hostIp: '' },
    },
    {
      name: 'repeated messages get their defaults; camelCase declared names are kept',
      type: 'Mount',
      value: { containerPath: '/data', uidMappings: [{ hostId: 1000 }], propagation: 'PROPAGATION_BIDIRECTIONAL' },
      json: {
        containerPath: '/data',
        hostPath: '',
        readonly: false,
        selinuxRelabel: false,
        propagation: 'PROPAGATION_BIDIRECTIONAL',
        uidMappings: [{ hostId: 1000, containerId: 0, length: 0 }],
        gidMappings: [],
        recursiveReadOnly: false,
        imageSubPath: '',
        mountOptions: [],
      },
    },
    {
      name: 'enum given as a number is printed as its name',
      type: 'SecurityProfile',
      value: { profileType: 2 },
      json: { profileType: 'Localhost', localhostRef: '' },
    },
  ];
  for (const c of cases) sameJSON(toProtoJSON(runtimeV1, c.type, c.value), c.json, c.name);
});

test('map keys come out sorted by byte order (as Go sorts them), whatever the insertion order', () => {
  const labels = { b: '2', '😀': 'smile', a: '1', '\uFFFD': 'replacement', B: '3', 'a.b': '4' };
  const json = toProtoJSON(runtimeV1, 'PodSandboxConfig', { labels }) as { labels: Record<string, string> };
  assert.deepEqual(Object.keys(json.labels), ['B', 'a', 'a.b', 'b', '\uFFFD', '😀']);
  assert.deepEqual(json.labels, labels);
});

test('the JSON of a decoded message reads back to the same message', () => {
  const status = {
    id: 'c1',
    metadata: { name: 'app', attempt: 1 },
    state: 'CONTAINER_RUNNING',
    createdAt: '1700000000123456789',
    exitCode: -1,
    labels: { z: '1', a: '2' },
    mounts: [{ containerPath: '/x', propagation: 'PROPAGATION_HOST_TO_CONTAINER' }],
    user: { linux: { uid: '0', gid: '0', supplementalGroups: ['1', '9007199254740993'] } },
  };
  const decoded = decodeMessage(runtimeV1, 'ContainerStatus', encodeMessage(runtimeV1, 'ContainerStatus', status));
  const json = JSON.parse(JSON.stringify(toProtoJSON(runtimeV1, 'ContainerStatus', decoded)));
  assert.deepEqual(fromProtoJSON(runtimeV1, 'ContainerStatus', json), decoded);
  const exec = decodeMessage(
    runtimeV1,
    'ExecSyncResponse',
    encodeMessage(runtimeV1, 'ExecSyncResponse', { stdout: Buffer.from('out'), exitCode: 3 }),
  );
  assert.deepEqual(
    fromProtoJSON(runtimeV1, 'ExecSyncResponse', toProtoJSON(runtimeV1, 'ExecSyncResponse', exec)),
    exec,
  );
});

test('stop signals carry the CRI API v0.37 value names: crictl 1.37 prints "stopSignal": "SIGNAL_SIGUSR1"; "stop_signal": "SIGTERM" still reads', () => {
  // ContainerStatus field 19 (stop_signal) = 29, SIGUSR1 in the CRI Signal enum, as containerd 2.x sends it.
  const wire = Buffer.from([0x98, 0x01, 29]);
  const status = decodeMessage(runtimeV1, 'ContainerStatus', wire);
  assert.equal(toProtoJSON(runtimeV1, 'ContainerStatus', status).stopSignal, 'SIGNAL_SIGUSR1');
  assert.equal(toProtoJSON(runtimeV1, 'ContainerStatus', {}).stopSignal, 'SIGNAL_RUNTIME_DEFAULT');
  // A crictl container config naming its stop signal reads, and goes out as the same number.
  const config = fromProtoJSON(runtimeV1, 'ContainerConfig', { metadata: { name: 'app' }, stop_signal: 'SIGTERM' });
  assert.equal(config.stopSignal, 'SIGNAL_SIGTERM');
  const again = decodeMessage(runtimeV1, 'ContainerConfig', encodeMessage(runtimeV1, 'ContainerConfig', config));
  assert.equal(toProtoJSON(runtimeV1, 'ContainerConfig', again).stopSignal, 'SIGNAL_SIGTERM');
  const named = fromProtoJSON(runtimeV1, 'ContainerConfig', {
    metadata: { name: 'app' },
    stop_signal: 'SIGNAL_SIGTERM',
  });
  assert.equal(named.stopSignal, 'SIGNAL_SIGTERM');
  assert.ok(
    encodeMessage(runtimeV1, 'ContainerConfig', { stopSignal: 'SIGNAL_SIGTERM' }).includes(
      Buffer.from([0x90, 0x01, 23]),
    ),
    'field 18 = 23',
  );
});

test('fromProtoJSON reads proto names and JSON names alike, enum numbers, int64 numbers', () => {
  const snake = {
    metadata: { name: 'web', namespace: 'default', uid: 'u1', attempt: 1 },
    log_directory: '/var/log/pods/x',
    port_mappings: [{ container_port: 80, host_port: 8080, protocol: 'UDP' }],
    linux: {
      cgroup_parent: '/kubepods',
      security_context: {
        namespace_options: { network: 2 },
        run_as_user: { value: 1000 },
        supplemental_groups: [1, '2'],
      },
    },
  };
  const camel = {
    metadata: { name: 'web', namespace: 'default', uid: 'u1', attempt: 1 },
    logDirectory: '/var/log/pods/x',
    portMappings: [{ containerPort: 80, hostPort: 8080, protocol: 'UDP' }],
    linux: {
      cgroupParent: '/kubepods',
      securityContext: {
        namespaceOptions: { network: 'NODE' },
        runAsUser: { value: '1000' },
        supplementalGroups: ['1', '2'],
      },
    },
  };
  const a = fromProtoJSON(runtimeV1, 'PodSandboxConfig', snake);
  const b = fromProtoJSON(runtimeV1, 'PodSandboxConfig', camel);
  assert.deepEqual(a, b);
  assert.equal(a.logDirectory, '/var/log/pods/x');
  assert.deepEqual(a.portMappings, [{ protocol: 'UDP', containerPort: 80, hostPort: 8080, hostIp: '' }]);
  assert.equal(a.linux?.securityContext?.namespaceOptions?.network, 'NODE');
  assert.equal(a.linux?.securityContext?.namespaceOptions?.pid, 'POD');
  assert.deepEqual(a.linux?.securityContext?.runAsUser, { value: '1000' });
  assert.deepEqual(a.linux?.securityContext?.supplementalGroups, ['1', '2']);
  assert.equal(a.hostname, '');
  assert.equal(a.dnsConfig, undefined);
  assert.deepEqual(a.labels, {});
});

test('fromProtoJSON reads a crictl-style YAML sandbox config; null means unset', () => {
  const text = [
    'metadata:',
    '  name: nginx-sandbox',
    '  namespace: default',
    '  attempt: 1',
    '  uid: hdishd83djaidwnduwk28bcsb',
    'log_directory: /tmp',
    'dns_config: null',
    'labels:',
    '  app: nginx',
    'linux:',
    '  security_context:',
    '    namespace_options:',
    '      network: NODE',
    '    seccomp:',
    '      profile_type: RuntimeDefault',
    'port_mappings:',
    '  - protocol: TCP',
    '    container_port: 80',
    '    host_port: 8080',
  ].join('\n');
  const cfg = fromProtoJSON(runtimeV1, 'PodSandboxConfig', parseYaml(text));
  assert.deepEqual(cfg.metadata, {
    name: 'nginx-sandbox',
    uid: 'hdishd83djaidwnduwk28bcsb',
    namespace: 'default',
    attempt: 1,
  });
  assert.equal(cfg.logDirectory, '/tmp');
  assert.equal(cfg.dnsConfig, undefined);
  assert.deepEqual(cfg.labels, { app: 'nginx' });
  assert.equal(cfg.linux?.securityContext?.namespaceOptions?.network, 'NODE');
  assert.deepEqual(cfg.linux?.securityContext?.seccomp, { profileType: 'RuntimeDefault', localhostRef: '' });
  assert.deepEqual(cfg.portMappings, [{ protocol: 'TCP', containerPort: 80, hostPort: 8080, hostIp: '' }]);
  // and it encodes as a CRI request
  const req = decodeMessage(
    runtimeV1,
    'RunPodSandboxRequest',
    encodeMessage(runtimeV1, 'RunPodSandboxRequest', { config: cfg }),
  );
  assert.deepEqual(req.config, cfg);
});

test('fromProtoJSON decodes bytes from standard or URL-safe base64', () => {
  assert.deepEqual(fromProtoJSON(runtimeV1, 'ExecSyncResponse', { stdout: '+/8=', stderr: '-_8' }), {
    stdout: Buffer.from([0xfb, 0xff]),
    stderr: Buffer.from([0xfb, 0xff]),
    exitCode: 0,
  });
});

test('bad config input fails with one line naming the field path and the cause', () => {
  const cases: { name: string; type?: string; value: unknown; path?: string; error: string }[] = [
    {
      name: 'unknown nested field',
      value: { linux: { security_context: { foo: 1 } } },
      error: 'linux.security_context.foo: unknown field',
    },
    {
      name: 'path prefix',
      value: { linux: { bogus: true } },
      path: 'sandbox',
      error: 'sandbox.linux.bogus: unknown field',
    },
    { name: 'string field given a number', value: { hostname: 5 }, error: 'hostname: expected a string, got number 5' },
    {
      name: 'unknown enum name in a list item',
      value: { port_mappings: [{}, { protocol: 'ICMP' }] },
      error: 'port_mappings[1].protocol: unknown value "ICMP" for enum Protocol (one of TCP, UDP, SCTP)',
    },
    {
      name: 'map value of the wrong type',
      value: { labels: { app: 1 } },
      error: 'labels["app"]: expected a string, got number 1',
    },
    {
      name: 'object expected',
      value: { metadata: 'web' },
      error: 'metadata: expected an object (PodSandboxMetadata), got string "web"',
    },
    {
      name: 'list expected',
      value: { port_mappings: { container_port: 80 } },
      error: 'port_mappings: expected a list, got an object',
    },
    {
      name: 'fractional integer',
      value: { linux: { resources: { cpu_shares: 1.5 } } },
      error: 'linux.resources.cpu_shares: expected an integer, got number 1.5',
    },
    {
      name: 'int64 out of range',
      value: { linux: { resources: { memory_limit_in_bytes: '9223372036854775808' } } },
      error: 'linux.resources.memory_limit_in_bytes: 9223372036854775808 is out of range for int64',
    },
    {
      name: 'int64 beyond exact JSON numbers',
      value: { linux: { resources: { memory_limit_in_bytes: 2 ** 60 } } },
      error:
        'linux.resources.memory_limit_in_bytes: 1152921504606847000 is too large to be exact as a JSON number; write it as a string',
    },
    {
      name: 'int32 out of range',
      value: { port_mappings: [{ container_port: 4294967296 }] },
      error: 'port_mappings[0].container_port: 4294967296 is out of range for int32',
    },
    {
      name: 'bool given a string',
      value: { linux: { security_context: { privileged: 'yes' } } },
      error: 'linux.security_context.privileged: expected true or false, got string "yes"',
    },
    {
      name: 'same field under both names',
      value: { log_directory: '/a', logDirectory: '/b' },
      error: 'logDirectory: field given twice (as log_directory and logDirectory)',
    },
    {
      name: 'not an object at the top',
      value: [1],
      error: '(top level): expected an object (PodSandboxConfig), got a list',
    },
    {
      name: 'bad base64',
      type: 'ExecSyncResponse',
      value: { stdout: 'not base64!' },
      error: 'stdout: expected base64 text, got string "not base64!"',
    },
  ];
  for (const c of cases) {
    assert.throws(
      () => fromProtoJSON(runtimeV1, c.type ?? 'PodSandboxConfig', c.value, c.path),
      (err: unknown) => {
        assert.ok(err instanceof SyncpodError, c.name);
        assert.equal(err.message, c.error, c.name);
        return true;
      },
    );
  }
});
