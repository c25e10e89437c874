import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container } from '../../src/kubelet/api-types';
import {
  containerGoJson,
  formatHash,
  hashContainer,
  hashContainerLegacy,
  hashContainerWithoutResources,
  hashJsonText,
  hashSchemeOfMinor,
  kubeletContainerHash,
  WHOLE_SPEC_API_MINORS,
} from '../../src/kubelet/hash';
import { goJsonString } from '../../src/kubelet/go-json';

// The sample container that Kubernetes' own hash tests use.
const sample: Container = {
  name: 'test_container',
  image: 'foo/image:v1',
  command: ['/bin/testcmd'],
  args: ['/bin/sh', '-c', 'echo abc'],
  ports: [{ containerPort: 8001 }],
  env: [
    { name: 'ENV_FOO', value: 'bar' },
    { name: 'ENV_BAR', valueFrom: { secretKeyRef: { name: 'foo', key: 'bar', optional: true } } },
  ],
  resources: { limits: { foo: '1G' }, requests: { foo: '500M' } },
};

const resizable = (cpu: string, memory: string): Container => ({
  name: 'foo',
  image: 'bar',
  resources: { limits: { cpu: '200m', memory: '200Mi' }, requests: { cpu: '100m', memory: '100Mi' } },
  resizePolicy: [
    { resourceName: 'cpu', restartPolicy: cpu },
    { resourceName: 'memory', restartPolicy: memory },
  ],
});

const everyField: Container = {
  name: 'n',
  image: 'i',
  command: ['sh', '-c', 'a && b > c'],
  args: ['x'],
  workingDir: '/w',
  ports: [{ containerPort: 80, protocol: 'TCP' }],
  envFrom: [{ prefix: 'P' }],
  env: [{ name: 'A', value: '1' }],
  resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }],
  volumeMounts: [{ name: 'v', mountPath: '/m' }],
  volumeDevices: [{ name: 'd', devicePath: '/d' }],
  livenessProbe: {},
  readinessProbe: {},
  startupProbe: {},
  lifecycle: {},
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'File',
  imagePullPolicy: 'Always',
  securityContext: { privileged: false },
  stdin: true,
  stdinOnce: true,
  tty: true,
};

test('1.31+ scheme: hash of {image, name} (reference test vectors)', () => {
  const rows: Array<{ name: string; image?: string; hex: string; dec: number }> = [
    { name: 'test_container', image: 'foo/image:v1', hex: '8e45cbd0', dec: 2386938832 },
    { name: 'nginx', image: 'nginx', hex: 'a564281e', dec: 2774804510 },
    { name: 'nginx', image: 'nginx:1.25', hex: '5d0e8bc9', dec: 1561234377 },
    { name: 'app', image: 'busybox:latest', hex: 'a18570d5', dec: 2709876949 },
    { name: 'c', image: '', hex: '27e233a', dec: 41820986 },
    { name: 'c', hex: '27e233a', dec: 41820986 },
  ];
  for (const r of rows) {
    const h = hashContainer({ name: r.name, image: r.image });
    assert.equal(h, r.dec, `${r.name}/${r.image}`);
    assert.equal(formatHash(h), r.hex, `${r.name}/${r.image}`);
  }
});

test('1.31+ scheme ignores every field but name and image', () => {
  assert.equal(hashContainer(sample), hashContainer({ name: 'test_container', image: 'foo/image:v1' }));
});

test('1.16–1.30 scheme: Go JSON text and hash (reference test vectors)', () => {
  const rows: Array<{ what: string; c: Container; json: string; hex: string; dec: number }> = [
    {
      what: 'Kubernetes sample container',
      c: sample,
      json: '{"name":"test_container","image":"foo/image:v1","command":["/bin/testcmd"],"args":["/bin/sh","-c","echo abc"],"ports":[{"containerPort":8001}],"env":[{"name":"ENV_FOO","value":"bar"},{"name":"ENV_BAR","valueFrom":{"secretKeyRef":{"name":"foo","key":"bar","optional":true}}}],"resources":{"limits":{"foo":"1G"},"requests":{"foo":"500M"}}}',
      hex: '311670a',
      dec: 51472138,
    },
    {
      what: 'v1.28 TestHashContainer',
      c: {
        name: 'test_container',
        image: 'foo/image:v1',
        args: ['/bin/sh', '-c', 'echo abc'],
        ports: [{ containerPort: 8001 }],
      },
      json: '{"name":"test_container","image":"foo/image:v1","args":["/bin/sh","-c","echo abc"],"ports":[{"containerPort":8001}],"resources":{}}',
      hex: '3c42280f',
      dec: 1010968591,
    },
    {
      what: 'resized container, resources kept',
      c: resizable('RestartContainer', 'NotRequired'),
      json: '{"name":"foo","image":"bar","resources":{"limits":{"cpu":"200m","memory":"200Mi"},"requests":{"cpu":"100m","memory":"100Mi"}},"resizePolicy":[{"resourceName":"cpu","restartPolicy":"RestartContainer"},{"resourceName":"memory","restartPolicy":"NotRequired"}]}',
      hex: '77d5758a',
      dec: 2010477962,
    },
    {
      what: 'nginx undefaulted',
      c: { name: 'nginx', image: 'nginx' },
      json: '{"name":"nginx","image":"nginx","resources":{}}',
      hex: 'd5792ef7',
      dec: 3581488887,
    },
    {
      what: 'nginx after API container defaults',
      c: {
        name: 'nginx',
        image: 'nginx',
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        imagePullPolicy: 'Always',
      },
      json: '{"name":"nginx","image":"nginx","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"Always"}',
      hex: 'ca26540d',
      dec: 3391509517,
    },
    {
      what: 'every field populated, with Go HTML escaping',
      c: everyField,
      json: '{"name":"n","image":"i","command":["sh","-c","a \\u0026\\u0026 b \\u003e c"],"args":["x"],"workingDir":"/w","ports":[{"containerPort":80,"protocol":"TCP"}],"envFrom":[{"prefix":"P"}],"env":[{"name":"A","value":"1"}],"resources":{},"resizePolicy":[{"resourceName":"cpu","restartPolicy":"NotRequired"}],"volumeMounts":[{"name":"v","mountPath":"/m"}],"volumeDevices":[{"name":"d","devicePath":"/d"}],"livenessProbe":{},"readinessProbe":{},"startupProbe":{},"lifecycle":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"Always","securityContext":{"privileged":false},"stdin":true,"stdinOnce":true,"tty":true}',
      hex: 'd37f7564',
      dec: 3548345700,
    },
  ];
  for (const r of rows) {
    assert.equal(containerGoJson(r.c), r.json, r.what);
    const h = hashContainerLegacy(r.c);
    assert.equal(h, r.dec, r.what);
    assert.equal(formatHash(h), r.hex, r.what);
  }
});

test('1.27–1.30 hashWithoutResources (reference test vectors)', () => {
  const rows = [
    { cpu: 'RestartContainer', memory: 'NotRequired', hex: '5f62cb4c', dec: 1600310092 },
    { cpu: 'NotRequired', memory: 'RestartContainer', hex: 'cdab9e00', dec: 3450576384 },
  ];
  for (const r of rows) {
    const h = hashContainerWithoutResources(resizable(r.cpu, r.memory));
    assert.equal(h, r.dec, `${r.cpu}/${r.memory}`);
    assert.equal(formatHash(h), r.hex);
  }
});

test('hashJsonText hashes the spew text of the JSON bytes (worked example)', () => {
  assert.equal(hashJsonText('{"image":"nginx","name":"nginx"}'), 0xa564281e);
});

test('Go encoding/json rules the legacy scheme depends on', () => {
  const rows: Array<{ what: string; c: Container; json: string }> = [
    {
      what: 'map keys sorted, empty maps and lists dropped',
      c: { name: 'a', resources: { requests: { memory: '1Gi', cpu: '1' }, limits: {} }, command: [] },
      json: '{"name":"a","resources":{"requests":{"cpu":"1","memory":"1Gi"}}}',
    },
    {
      what: 'pointer booleans and integers kept when false/zero, value ones dropped',
      c: {
        name: 'a',
        stdin: false,
        securityContext: { runAsUser: 0, runAsNonRoot: false },
        livenessProbe: { initialDelaySeconds: 0, terminationGracePeriodSeconds: 0 },
      },
      json: '{"name":"a","resources":{},"livenessProbe":{"terminationGracePeriodSeconds":0},"securityContext":{"runAsUser":0,"runAsNonRoot":false}}',
    },
    {
      what: 'required fields written with their zero value, grpc service null when unset',
      c: {
        name: 'a',
        readinessProbe: { grpc: { port: 9000 } } as Container['readinessProbe'],
        livenessProbe: { httpGet: { port: 'http' }, tcpSocket: { port: 8080 } },
        env: [{ name: 'R', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } }],
      },
      json: '{"name":"a","env":[{"name":"R","valueFrom":{"resourceFieldRef":{"resource":"limits.cpu","divisor":"0"}}}],"resources":{},"livenessProbe":{"httpGet":{"port":"http"},"tcpSocket":{"port":8080}},"readinessProbe":{"grpc":{"port":9000,"service":null}}}',
    },
    {
      what: 'fields newer than 1.30 and unknown keys are not hashed',
      c: { name: 'a', lifecycle: { stopSignal: 'SIGTERM' }, bogus: 1 } as unknown as Container,
      json: '{"name":"a","resources":{},"lifecycle":{}}',
    },
  ];
  for (const r of rows) assert.equal(containerGoJson(r.c), r.json, r.what);
});

test('goJsonString escapes like Go encoding/json (Go 1.22+, and <= 1.21 for \\b \\f)', () => {
  const rows: Array<[string, string]> = [
    ['plain', '"plain"'],
    ['a"b\\c', '"a\\"b\\\\c"'],
    ['l1\nl2\r\t', '"l1\\nl2\\r\\t"'],
    ['<&>', '"\\u003c\\u0026\\u003e"'],
    ['\u0001\u001f', '"\\u0001\\u001f"'],
    ['\u0008\u000c', '"\\b\\f"'],
    ['\u2028\u2029', '"\\u2028\\u2029"'],
    ['héllo ☃ 𝄞', '"héllo ☃ 𝄞"'],
    ['\u007f', '"\u007f"'],
  ];
  for (const [input, want] of rows) assert.equal(goJsonString(input), want, JSON.stringify(input));
  assert.equal(goJsonString('\u0008\u000c', true), '"\\u0008\\u000c"');
});

test('formatHash: lowercase hex without leading zeros', () => {
  const rows: Array<[number, string]> = [
    [0, '0'],
    [0x027e233a, '27e233a'],
    [0xffffffff, 'ffffffff'],
  ];
  for (const [h, want] of rows) assert.equal(formatHash(h), want);
});

test('a value of the wrong type is a one-line error naming the field', () => {
  assert.throws(() => hashContainerLegacy({ name: 'web', ports: [{ containerPort: '80' }] } as unknown as Container), {
    name: 'SyncpodError',
    message: 'container "web".ports[0].containerPort: expected an integer (cannot compute the container hash)',
  });
});

// Kubelet's own vectors, each under every kubelet minor that asserts it. Sources: TestHashContainer and
// TestHashContainerWithoutResources (pkg/kubelet/container/helpers_test.go) and
// TestConsistentHashContainer (container_hash_test.go) of the whole-spec era and of 1.31+.
test('kubelet vectors hold for every mirrored minor of their era', () => {
  const short: Container = {
    name: 'test_container',
    image: 'foo/image:v1',
    args: ['/bin/sh', '-c', 'echo abc'],
    ports: [{ containerPort: 8001 }],
  };
  const rows: Array<{ what: string; c: Container; wholeSpec: number; nameImage: number }> = [
    { what: 'TestHashContainer', c: short, wholeSpec: 0x3c42280f, nameImage: 0x8e45cbd0 },
    { what: 'TestConsistentHashContainer', c: sample, wholeSpec: 0x311670a, nameImage: 0x8e45cbd0 },
    {
      what: 'burstable, cpu RestartContainer',
      c: resizable('RestartContainer', 'NotRequired'),
      wholeSpec: 0x77d5758a,
      nameImage: 0x11a6d6d6,
    },
  ];
  for (const r of rows) {
    for (const minor of [28, 29, 30])
      assert.equal(kubeletContainerHash(minor, r.c), r.wholeSpec, `${r.what} 1.${minor}`);
    for (const minor of [31, 32, 33, 34, 35, 36, 37])
      assert.equal(kubeletContainerHash(minor, r.c), r.nameImage, `${r.what} 1.${minor}`);
  }
  const guaranteed = (cpu: string, memory: string): Container => ({
    ...resizable(cpu, memory),
    resources: { limits: { cpu: '100m', memory: '100Mi' }, requests: { cpu: '100m', memory: '100Mi' } },
  });
  const withoutResources = [
    { c: resizable('RestartContainer', 'NotRequired'), want: 0x5f62cb4c },
    { c: resizable('NotRequired', 'RestartContainer'), want: 0xcdab9e00 },
    { c: guaranteed('RestartContainer', 'NotRequired'), want: 0x5f62cb4c },
    { c: guaranteed('NotRequired', 'RestartContainer'), want: 0xcdab9e00 },
  ];
  for (const minor of WHOLE_SPEC_API_MINORS) {
    for (const r of withoutResources) assert.equal(hashContainerWithoutResources(r.c, minor), r.want, `1.${minor}`);
  }
});

test('whole-spec hash follows the v1.Container of that kubelet: fields added in 1.29 and 1.30', () => {
  const rows: Array<{ what: string; c: Container; json: Record<number, string> }> = [
    {
      what: 'lifecycle sleep (1.29+)',
      c: { name: 'a', lifecycle: { preStop: { sleep: { seconds: 5 } } } },
      json: {
        28: '{"name":"a","resources":{},"lifecycle":{"preStop":{}}}',
        29: '{"name":"a","resources":{},"lifecycle":{"preStop":{"sleep":{"seconds":5}}}}',
        30: '{"name":"a","resources":{},"lifecycle":{"preStop":{"sleep":{"seconds":5}}}}',
      },
    },
    {
      what: 'volumeMounts[].recursiveReadOnly (1.30+)',
      c: { name: 'a', volumeMounts: [{ name: 'v', mountPath: '/m', readOnly: true, recursiveReadOnly: 'IfPossible' }] },
      json: {
        28: '{"name":"a","resources":{},"volumeMounts":[{"name":"v","readOnly":true,"mountPath":"/m"}]}',
        29: '{"name":"a","resources":{},"volumeMounts":[{"name":"v","readOnly":true,"mountPath":"/m"}]}',
        30: '{"name":"a","resources":{},"volumeMounts":[{"name":"v","readOnly":true,"recursiveReadOnly":"IfPossible","mountPath":"/m"}]}',
      },
    },
    {
      what: 'securityContext.appArmorProfile (1.30+)',
      c: { name: 'a', securityContext: { appArmorProfile: { type: 'RuntimeDefault' }, runAsNonRoot: true } },
      json: {
        28: '{"name":"a","resources":{},"securityContext":{"runAsNonRoot":true}}',
        29: '{"name":"a","resources":{},"securityContext":{"runAsNonRoot":true}}',
        30: '{"name":"a","resources":{},"securityContext":{"runAsNonRoot":true,"appArmorProfile":{"type":"RuntimeDefault"}}}',
      },
    },
    {
      what: 'sidecar restartPolicy (1.28+) and a backspace in a command (Go 1.21 builds before 1.30)',
      c: { name: 'a', command: ['\b'], restartPolicy: 'Always' },
      json: {
        28: '{"name":"a","command":["\\u0008"],"resources":{},"restartPolicy":"Always"}',
        29: '{"name":"a","command":["\\u0008"],"resources":{},"restartPolicy":"Always"}',
        30: '{"name":"a","command":["\\b"],"resources":{},"restartPolicy":"Always"}',
      },
    },
  ];
  for (const r of rows) {
    for (const minor of WHOLE_SPEC_API_MINORS) {
      assert.equal(containerGoJson(r.c, minor), r.json[minor], `${r.what} 1.${minor}`);
      assert.equal(hashContainerLegacy(r.c, minor), hashJsonText(r.json[minor]!), `${r.what} 1.${minor}`);
    }
  }
});

test('hash scheme per kubelet minor; whole-spec minors before 1.28 are refused in one line', () => {
  assert.equal(hashSchemeOfMinor(30), 'whole-spec');
  assert.equal(hashSchemeOfMinor(31), 'name+image');
  assert.throws(() => kubeletContainerHash(27, { name: 'a' }), {
    name: 'SyncpodError',
    message:
      'the container hash of kubelet 1.27 is not mirrored: the whole-spec hash is mirrored for the v1.Container of 1.28–1.30 only',
  });
});
