// Hostile manifests, config files and flags, as tables: every row is refused with one line that
// names the input, the document and the field (or the flag). Add a row per hostile input found;
// test/e2e/hostile.test.ts runs the same kinds of input through the CLI on a real runtime.
import { test } from 'node:test';
import * as path from 'node:path';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { loadManifests } from '../../src/manifest/load';
import { parseManifestText } from '../../src/manifest/parse';
import { inputText } from '../../src/utf8';
import { KUBECTL_YAML_OPTIONS } from '../../src/manifest/yaml-read';
import { parseConfigFile } from '../../src/config/settings';
import { parse } from 'yaml';
import { MAX_INPUT_BYTES, readInputFileSync, readInputStream } from '../../src/read-input';
import { readConfigDocument } from '../../src/workflows/step-requests';
import { syncpodNodeFlags } from '../../src/workflows/node-profile';
import { refuseWithNode, requireNodeFor } from '../../src/cli/command-flags';
import { parseGivenPods } from '../../src/workflows/node-inputs';

/** The one error line (position suffix kept: it is part of naming the field). */
function refusal(text: string, file = 'pod.yaml'): string {
  try {
    parseManifestText(text, file);
  } catch (err) {
    assert.equal((err as Error).name, 'SyncpodError');
    assert.ok(!(err as Error).message.includes('\n'), 'one line');
    return (err as Error).message;
  }
  return 'accepted';
}

/** A pod whose container gets `extra` (flow YAML) and whose spec gets `spec` (block YAML lines). */
const pod = (extra = '', spec = ''): string =>
  `apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers:\n  - {name: app, image: busybox${extra}}\n${spec}`;
const vol = '  volumes: [{name: v, emptyDir: {}}]\n';

test('manifest fields the API server refuses are refused, naming document, field and line', () => {
  const rows: Array<[string, string, string]> = [
    [
      'subPath with ..',
      pod(', volumeMounts: [{name: v, mountPath: /x, subPath: a/../../b}]', vol),
      `spec.containers[0].volumeMounts[0].subPath: invalid value "a/../../b": must not contain '..' (line 6, column 82)`,
    ],
    [
      'absolute subPath',
      pod(', volumeMounts: [{name: v, mountPath: /x, subPath: /etc}]', vol),
      'spec.containers[0].volumeMounts[0].subPath: invalid value "/etc": must be a relative path (line 6, column 82)',
    ],
    [
      'subPathExpr with ..',
      pod(', volumeMounts: [{name: v, mountPath: /x, subPathExpr: "$(A)/.."}]', vol),
      `spec.containers[0].volumeMounts[0].subPathExpr: invalid value "$(A)/..": must not contain '..' (line 6, column 86)`,
    ],
    [
      'subPath and subPathExpr',
      pod(', volumeMounts: [{name: v, mountPath: /x, subPath: a, subPathExpr: b}]', vol),
      'spec.containers[0].volumeMounts[0].subPathExpr: invalid value "b": subPathExpr and subPath are mutually exclusive (line 6, column 98)',
    ],
    [
      'two mounts at one path',
      pod(', volumeMounts: [{name: v, mountPath: /x}, {name: v, mountPath: /x}]', vol),
      'spec.containers[0].volumeMounts[1].mountPath: invalid value "/x": must be unique (line 6, column 95)',
    ],
    [
      'hostPath with ..',
      pod('', '  volumes: [{name: v, hostPath: {path: /var/lib/../../etc}}]\n'),
      `spec.volumes[0].hostPath.path: invalid value "/var/lib/../../etc": must not contain '..' (line 7, column 40)`,
    ],
    [
      'fieldRef kubelet cannot fill',
      pod(', env: [{name: A, valueFrom: {fieldRef: {fieldPath: status.phase}}}]'),
      'spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: unsupported value "status.phase": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs", metadata.labels[\'KEY\'], metadata.annotations[\'KEY\'] (line 6, column 83)',
    ],
    [
      'fieldRef label key that is not a label key',
      pod(`, env: [{name: A, valueFrom: {fieldRef: {fieldPath: "metadata.labels['a b']"}}}]`),
      `spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: invalid value "metadata.labels['a b']": must be a qualified name: an optional DNS subdomain prefix and '/', then at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit (line 6, column 83)`,
    ],
    [
      'resourceFieldRef of another resource',
      pod(', env: [{name: A, valueFrom: {resourceFieldRef: {resource: limits.nvidia.com/gpu}}}]'),
      'spec.containers[0].env[0].valueFrom.resourceFieldRef.resource: unsupported value "limits.nvidia.com/gpu": supported values: "limits.cpu", "limits.memory", "limits.ephemeral-storage", "requests.cpu", "requests.memory", "requests.ephemeral-storage", limits.hugepages-SIZE, requests.hugepages-SIZE (line 6, column 90)',
    ],
    [
      'valueFrom with two sources',
      pod(', env: [{name: A, valueFrom: {fieldRef: {fieldPath: metadata.name}, secretKeyRef: {name: s, key: k}}}]'),
      'spec.containers[0].env[0].valueFrom: may not have more than one field specified at a time (fieldRef, secretKeyRef) (line 6, column 60)',
    ],
    [
      'valueFrom with no source',
      pod(', env: [{name: A, valueFrom: {}}]'),
      'spec.containers[0].env[0].valueFrom: must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef` (line 6, column 60)',
    ],
    [
      'cpu: 1e400',
      pod(', resources: {limits: {cpu: 1e400}}'),
      'spec.containers[0].resources.limits.cpu: invalid value "10e399": too large (at most 9007199254740991m) (and 1 more) (line 6, column 59)',
    ],
    [
      'memory beyond 2^53 bytes',
      pod(', resources: {requests: {memory: 9Ei}}'),
      'spec.containers[0].resources.requests.memory: invalid value "9Ei": too large (at most 9007199254740991) (line 6, column 64)',
    ],
    [
      'one hostPort for two containers',
      pod(
        ', ports: [{containerPort: 80, hostPort: 8080}]}\n  - {name: b, image: busybox, ports: [{containerPort: 81, hostPort: 8080}]',
      ),
      'spec.containers[1].ports[0].hostPort: duplicate value "8080/TCP" (also spec.containers[0].ports[0].hostPort) (line 7, column 69)',
    ],
    [
      'annotations over 256 KiB',
      `apiVersion: v1\nkind: Pod\nmetadata: {name: web, annotations: {a: "${'x'.repeat(262144)}"}}\nspec: {containers: [{name: app, image: busybox}]}\n`,
      'metadata.annotations: too long: must have at most 262144 bytes (keys and values), has 262145 (line 3, column 36)',
    ],
    [
      'memory: -1',
      pod(', resources: {limits: {memory: -1}}'),
      'spec.containers[0].resources.limits.memory: invalid value "-1": must be greater than or equal to 0 (and 1 more) (line 6, column 62)',
    ],
  ];
  for (const [what, text, want] of rows) assert.equal(refusal(text), `pod.yaml: document 1: ${want}`, what);
});

test('what kubelet does fill in stays accepted', () => {
  const fine = pod(
    ", env: [{name: A, valueFrom: {fieldRef: {fieldPath: \"metadata.labels['app']\"}}}, {name: B, valueFrom: {fieldRef: {fieldPath: status.hostIPs}}}, {name: C, valueFrom: {resourceFieldRef: {resource: requests.hugepages-2Mi}}}], volumeMounts: [{name: v, mountPath: /x, subPath: a..b/c}, {name: v, mountPath: /y, subPathExpr: '$(A)'}], resources: {limits: {cpu: '9007199254740991m', memory: 7Pi}}",
    '  volumes: [{name: v, emptyDir: {}}, {name: root, hostPath: {path: /}}]\n',
  );
  assert.equal(refusal(fine), 'accepted');
});

test("duplicate keys are found in one pass, not by the yaml package's quadratic check (a 300000-key mapping took minutes)", () => {
  assert.equal(KUBECTL_YAML_OPTIONS.uniqueKeys, false, "the package's own check is off");
  const keys = Array.from({ length: 20000 }, (_, i) => `    k${i}: vvvvvvvvvv\n`).join('');
  assert.equal(
    refusal(`apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  annotations:\n${keys}    k7: again\n`),
    'pod.yaml: line 20006, column 5: Map keys must be unique',
  );
  assert.match(
    refusal(
      `apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  annotations:\n${keys}spec: {containers: [{name: app, image: busybox}]}\n`,
    ),
    /^pod\.yaml: document 1: metadata\.annotations: too long: must have at most 262144 bytes/,
  );
  assert.equal(
    refusal('apiVersion: v1\nkind: Pod\nmetadata: {name: a, labels: {x: a, y: b, x: c}}\n'),
    'pod.yaml: line 3, column 42: Map keys must be unique',
  );
  assert.equal(
    refusal(
      'a: &a {x: 1}\nb: {<<: *a, <<: *a, y: 2}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: app, image: busybox}]}\n',
    ),
    'pod.yaml: document 1: kind: required (line 1, column 1)',
    'merge keys may repeat',
  );
});

test('text that is not a manifest is refused as text, before any document is read', () => {
  const rows: Array<[string, string, string]> = [
    [
      'NUL in a value',
      'kind: Pod\u0000\n',
      'pod.yaml: line 1, column 10: control character U+0000 is not allowed in YAML or JSON text',
    ],
    [
      'escape character',
      'apiVersion: v1\nkind: Pod\nmetadata: {name: "\u001b[31m"}\n',
      'pod.yaml: line 3, column 19: control character U+001B is not allowed in YAML or JSON text',
    ],
    [
      'UTF-16LE without a byte-order mark',
      Buffer.from('kind: Pod\n', 'utf16le').toString('latin1'),
      'pod.yaml: line 1, column 2: control character U+0000 is not allowed in YAML or JSON text',
    ],
    ['nesting deeper than the parser goes', '['.repeat(50000) + ']'.repeat(50000), 'nested too deeply'],
  ];
  for (const [what, text, want] of rows) {
    const got = refusal(text);
    if (want === 'nested too deeply')
      assert.match(got, /^pod\.yaml: line 1, column \d+: nested too deeply \(no manifest nests this far\)$/, what);
    else assert.equal(got, want, what);
  }
  assert.throws(() => inputText(Buffer.from([0x61, 0xc3, 0x28]), '<stdin>'), {
    message: '<stdin>: byte 1: invalid UTF-8 (manifests must be UTF-8 text)',
  });
  assert.throws(() => inputText(Buffer.from('\ufeffa', 'utf16le'), 'f.yaml'), {
    message: 'f.yaml: byte 0: invalid UTF-8 (manifests must be UTF-8 text)',
  });
  // --node's given files go through the same checks (their problems are lines of the node plan).
  assert.deepEqual(parseGivenPods('kind: Pod\u0000\n', 'given.yaml').problems, [
    'given.yaml: line 1, column 10: control character U+0000 is not allowed in YAML or JSON text',
  ]);
});

test('a List of empty Lists is not "no documents"', async () => {
  const stdin = (text: string) => async () => text;
  await assert.rejects(
    loadManifests(
      ['-'],
      stdin('{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "List", "items": []}]}'),
    ),
    {
      message: '<stdin>: no pod found (its Lists have no items)',
    },
  );
  await assert.rejects(loadManifests(['-'], stdin('---\n---\n')), {
    message: '<stdin>: no pod found (the input has no documents)',
  });
});

test('runp/create config files are read as kubectl and crictl read YAML', async () => {
  const read = (text: string) =>
    readConfigDocument('c.yaml', 'pod config', { readFile: () => text, readStdin: async () => text });
  await assert.rejects(read('metadata: {name: a}\n---\nmetadata: {name: b}\n'), {
    message: 'c.yaml: 2 documents: a pod config file holds one',
  });
  await assert.rejects(read('a: &a [*a]\nb: {'), /^SyncpodError: c\.yaml: line 2, column \d+: /);
  await assert.rejects(read('x: 1\u0007\n'), {
    message: 'c.yaml: line 1, column 5: control character U+0007 is not allowed in YAML or JSON text',
  });
  // A Service beside the Pod (kubectl apply -f habit): the manifest is read, its pod found later.
  const d = await read(
    'apiVersion: v1\nkind: Service\nmetadata: {name: s}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n',
  );
  assert.equal(d.isManifest, true);
  const stdin = await readConfigDocument('-', 'pod config', {
    readFile: () => '',
    readStdin: async () => 'metadata: {name: a}\n---\n',
  });
  assert.deepEqual(stdin.doc, { metadata: { name: 'a' } }, 'an empty trailing document is no document');
});

test('inputs larger than the limit are refused, not read to the end', async () => {
  assert.throws(() => readInputFileSync('/dev/zero'), {
    name: 'SyncpodError',
    message: `/dev/zero: larger than ${MAX_INPUT_BYTES / 2 ** 20} MiB: refused (not a manifest or config file?)`,
  });
  let produced = 0;
  const endless = new Readable({
    read() {
      produced += 1 << 20;
      this.push(Buffer.alloc(1 << 20, 0x61));
    },
  });
  await assert.rejects(readInputStream(endless, '<stdin>'), {
    message: `<stdin>: larger than ${MAX_INPUT_BYTES / 2 ** 20} MiB: refused (not a manifest or config file?)`,
  });
  assert.ok(produced <= MAX_INPUT_BYTES + 4 * (1 << 20), 'reading stopped at the limit');
  endless.destroy();
});

test('flags: bad values and --node-only flags without --node are one line', () => {
  assert.throws(() => syncpodNodeFlags({ clusterDns: '10.0.0.10, kube-dns' }), {
    message: '--cluster-dns: "kube-dns" is not an IP address',
  });
  assert.deepEqual(syncpodNodeFlags({ clusterDns: '10.0.0.10,fd00::a' }).clusterDNS, ['10.0.0.10', 'fd00::a']);
  assert.throws(() => requireNodeFor({}, { '--every': '10m', '--static-pod-path': undefined }), {
    message: '--every applies with --node (it plans or syncs the whole node); add --node or leave it out',
  });
  assert.doesNotThrow(() => requireNodeFor({ node: true }, { '--every': '10m' }));
  assert.doesNotThrow(() => requireNodeFor({}, { '--remove-orphans': undefined }));
  // a probe result names one pod's container: with --node it was accepted and ignored
  assert.throws(() => refuseWithNode({ node: true }, { '--liveness-failed': ['app'], '--startup-failed': undefined }), {
    message:
      "--liveness-failed names a container of one pod and does not apply with --node; plan or sync that pod's manifest without --node",
  });
  assert.doesNotThrow(() => refuseWithNode({}, { '--liveness-failed': ['app'] }));
  assert.doesNotThrow(() => refuseWithNode({ node: true }, { '--liveness-failed': undefined }));
});

test('crictl.yaml syntax errors put the position first, as manifest errors do', () => {
  const read = (text: string) => () => parseConfigFile('crictl.yaml', text, (t) => parse(t));
  assert.throws(read('runtime-endpoint: [\n'), {
    message:
      'crictl.yaml: line 2, column 1: Flow sequence in block collection must be sufficiently indented and end with a ]',
  });
  assert.throws(
    read('['.repeat(20000) + ']'.repeat(20000)),
    /^SyncpodError: crictl\.yaml: line 1, column \d+: nested too deeply$/,
  );
});

test('a relative --pod-dir-root/--pod-logs-root is the directory under the current one (the runtime needs absolute host paths)', () => {
  const f = syncpodNodeFlags({ podDirRoot: '.lab/demo/kubelet', podLogsRoot: 'logs/../pod-logs' });
  assert.equal(f.rootDir, path.join(process.cwd(), '.lab/demo/kubelet'));
  assert.equal(f.podLogsDir, path.join(process.cwd(), 'pod-logs'));
  assert.equal(syncpodNodeFlags({ podDirRoot: '/var/lib/kubelet' }).rootDir, '/var/lib/kubelet');
  assert.equal(syncpodNodeFlags({}).rootDir, undefined);
});
