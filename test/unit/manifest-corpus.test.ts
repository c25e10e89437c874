// Manifests the Kubernetes API (or kubectl's reader) would refuse: each is one line naming the
// file, the document and the field, with the YAML position. The e2e twin checks that `sync`
// refuses the same files before creating anything.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadManifests } from '../../src/manifest/load';
import { parseManifestText } from '../../src/manifest/parse';
import { resolveGoScalar } from '../../src/manifest/yaml-read';

const dir = join(__dirname, '..', 'fixtures', 'manifests', 'refused');
const BOOL_HINT = ' (YAML reads unquoted y, n, yes, no, on, off, true, false as booleans: quote it)';

/** file -> the error after `<file>: `. */
export const REFUSED: Record<string, string> = {
  'activedeadline-word.yaml':
    'document 1: spec.activeDeadlineSeconds: must be an integer (int64), not the string "soon" (line 6, column 26)',
  'annotation-boolean.yaml': `document 1: metadata.annotations.debug: must be a string, not the boolean true${BOOL_HINT} (line 6, column 12)`,
  'apiversion-v2.yaml':
    'document 1: apiVersion: no matches for kind "Pod" in version "v2" (the API serves Pod as v1) (line 1, column 13)',
  'args-number.yaml': 'document 1: spec.containers[0].args: must be a list, not the number 5 (line 9, column 11)',
  'bidirectional-unprivileged.yaml':
    'document 1: spec.containers[0].volumeMounts[0].mountPropagation: forbidden: Bidirectional mount propagation is available only to privileged containers (line 12, column 25)',
  'billion-laughs.yaml':
    'document 1: the object expands to 3013.5 MiB (YAML aliases included), over the 3 MiB the API server admits for one object: refused',
  'command-numbers.yaml':
    'document 1: spec.containers[0].command[0]: must be a string, not the number 1 (and 1 more) (line 9, column 15)',
  'command-string.yaml': `document 1: spec.containers[0].command: must be a list, not the string "sh -c 'sleep 3600'" (line 9, column 14)`,
  'env-map.yaml': 'document 1: spec.containers[0].env: must be a list, not a mapping (line 10, column 7)',
  'env-name-with-equals.yaml': `document 1: spec.containers[0].env[0].name: invalid value "A=B": must consist of printable ASCII characters except '=' (line 10, column 13)`,
  'env-value-number.yaml':
    'document 1: spec.containers[0].env[0].value: must be a string, not the number 123 (line 11, column 14)',
  'env-without-name.yaml': 'document 1: spec.containers[0].env[0].name: required (line 10, column 7)',
  'envfrom-empty.yaml':
    'document 1: spec.containers[0].envFrom[0]: must specify one of: `configMapRef` or `secretRef` (line 10, column 7)',
  'grace-string.yaml':
    'document 1: spec.terminationGracePeriodSeconds: must be an integer (int64), not the string "thirty" (line 6, column 34)',
  'helm-template.yaml': 'line 4: looks like a Helm/Go template: render it first (helm template …)',
  'hostalias-not-ip.yaml':
    'document 1: spec.hostAliases[0].ip: invalid value "gateway": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff) (line 7, column 9)',
  'hostnetwork-number.yaml':
    'document 1: spec.hostNetwork: must be a boolean (true or false), not the number 1 (line 6, column 16)',
  'hostnetwork-string-false.yaml':
    'document 1: spec.hostNetwork: must be a boolean (true or false), not the string "false" (line 6, column 16)',
  'hostnetwork-string-yes.yaml':
    'document 1: spec.hostNetwork: must be a boolean (true or false), not the string "yes" (line 6, column 16)',
  'hostpath-number.yaml':
    'document 1: spec.volumes[0].hostPath.path: must be a string, not the number 123 (line 9, column 13)',
  'hostpath-type-lowercase.yaml':
    'document 1: spec.volumes[0].hostPath.type: unsupported value "directory": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket" (line 13, column 13)',
  'image-garbage.yaml':
    'document 1: spec.containers[0].image: invalid value "Not A Valid Image!!": not an image reference kubelet can pull (invalid reference format: repository name (library/Not A Valid Image!!) must be lowercase) (line 8, column 12)',
  'infinity.yaml':
    'line 6, column 34: .inf is not a value JSON can hold (kubectl refuses it as well): quote it for a string',
  'invalid-utf8.yaml': 'byte 105: invalid UTF-8 (manifests must be UTF-8 text)',
  'label-number.yaml': 'document 1: metadata.labels.tier: must be a string, not the number 1 (line 6, column 11)',
  'liveness-port-zero.yaml':
    'document 1: spec.containers[0].livenessProbe.httpGet.port: invalid value 0: must be between 1 and 65535, inclusive (line 11, column 15)',
  'liveness-success-threshold.yaml':
    'document 1: spec.containers[0].livenessProbe.successThreshold: invalid value 3: must be 1 (line 12, column 25)',
  'nameserver-not-ip.yaml':
    'document 1: spec.dnsConfig.nameservers[0]: invalid value "dns.example.com": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff) (line 8, column 19)',
  'port-name-too-long.yaml':
    'document 1: spec.containers[0].ports[0].name: invalid value "prometheus-metrics": must be an IANA service name: at most 15 lower-case letters, digits and hyphens, at least one letter, no leading, trailing or consecutive hyphens (line 10, column 13)',
  'poststart-exec-empty.yaml':
    'document 1: spec.containers[0].lifecycle.postStart.exec.command: required (line 12, column 20)',
  'poststart-string.yaml':
    'document 1: spec.containers[0].lifecycle.postStart: must be a mapping, not the string "echo hi" (line 10, column 18)',
  'privileged-without-escalation.yaml':
    'document 1: spec.containers[0].securityContext: cannot set `allowPrivilegeEscalation` to false and `privileged` to true (line 10, column 7)',
  'resource-name-unqualified.yaml':
    'document 1: spec.containers[0].resources.limits: invalid value "gpu": must be a standard resource for containers (cpu, memory, ephemeral-storage, hugepages-<size>) or fully qualified (example.com/gpu) (and 1 more) (line 11, column 9)',
  'runasuser-string.yaml':
    'document 1: spec.containers[0].securityContext.runAsUser: must be an integer (int64), not the string "root" (line 10, column 18)',
  'seccomp-localhost-without-profile.yaml':
    'document 1: spec.securityContext.seccompProfile.localhostProfile: required: must be set when seccomp type is Localhost (line 8, column 7)',
  'secretkeyref-without-name.yaml': `document 1: spec.containers[0].env[0].valueFrom.secretKeyRef.name: invalid value "": must be a DNS-1123 subdomain (lower-case letters, digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters) (line 13, column 11)`,
  'securitycontext-string.yaml':
    'document 1: spec.containers[0].securityContext: must be a mapping, not the string "privileged" (line 9, column 22)',
  'service-only.yaml': 'no pod found: no Pod, workload or List of them, only Service/checkout',
  'sysctl-with-space.yaml':
    'document 1: spec.securityContext.sysctls[0].name: invalid value "net.ipv4.ip_local_port_range 1024": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$ (line 8, column 13)',
  'toleration-exists-with-value.yaml':
    'document 1: spec.tolerations[0].operator: invalid value "gpu": value must be empty when `operator` is \'Exists\' (line 8, column 15)',
  'uid-number.yaml': 'document 1: metadata.uid: must be a string, not the number 12345 (line 5, column 8)',
  'unknown-field.yaml':
    'document 1: spec.containers[0].imagePullPolicyy: unknown field; did you mean "imagePullPolicy"? (line 9, column 23)',
  'workingdir-number.yaml':
    'document 1: spec.containers[0].workingDir: must be a string, not the number 5 (line 9, column 17)',
};

test('every manifest of the refused corpus is refused with its one line', async () => {
  const files = readdirSync(dir).sort();
  assert.deepEqual(files, Object.keys(REFUSED).sort(), 'the table covers the corpus');
  for (const f of files) {
    const file = join(dir, f);
    await assert.rejects(
      loadManifests([file], async () => ''),
      (err: Error) => {
        assert.equal(err.name, 'SyncpodError', f);
        assert.equal(err.message, `${file}: ${REFUSED[f]}`);
        assert.doesNotMatch(err.message, /\n/);
        return true;
      },
    );
  }
});

test('invalid UTF-8 on stdin is refused with its byte offset', async () => {
  const bytes = Buffer.concat([
    Buffer.from('apiVersion: v1\nkind: Pod\nmetadata: {name: x'),
    Buffer.from([0xff]),
    Buffer.from('}\n'),
  ]);
  await assert.rejects(
    loadManifests(['-'], async () => bytes),
    { message: '<stdin>: byte 43: invalid UTF-8 (manifests must be UTF-8 text)' },
  );
  const truncated = Buffer.from([0x61, 0x3a, 0x20, 0xe2, 0x82]);
  await assert.rejects(
    loadManifests(['-'], async () => truncated),
    { message: '<stdin>: byte 3: invalid UTF-8 (manifests must be UTF-8 text)' },
  );
});

test('plain YAML scalars resolve as go-yaml v2 (kubectl) resolves them', () => {
  const rows: Array<[string, unknown]> = [
    ['e1', 'e1'],
    ['E5', 'E5'],
    ['-E1', '-E1'],
    ['e5e5', 'e5e5'],
    ['1e3', 1000],
    ['1E3', 1000],
    ['-1.5e-1', -0.15],
    ['.5', 0.5],
    ['1.', 1],
    ['08', 8],
    ['0644', 420],
    ['0o17', 15],
    ['0x1F', 31],
    ['0b101', 5],
    ['1_000', 1000],
    ['+12', 12],
    ['-0', 0],
    ['1e400', '1e400'],
    ['12:30', '12:30'],
    ['2024-01-01', '2024-01-01'],
    ['1.2.3', '1.2.3'],
    ['0x', '0x'],
    ['.', '.'],
    ['yes', true],
    ['Yes', true],
    ['YES', true],
    ['y', true],
    ['on', true],
    ['ON', true],
    ['no', false],
    ['n', false],
    ['off', false],
    ['Off', false],
    ['true', true],
    ['False', false],
    ['yEs', 'yEs'],
    ['oN', 'oN'],
    ['~', null],
    ['null', null],
    ['Null', null],
    ['NULL', null],
    ['', null],
    ['nil', 'nil'],
    ['none', 'none'],
  ];
  for (const [text, want] of rows) assert.deepEqual(resolveGoScalar(text), want, JSON.stringify(text));
});

test('names that look like exponents stay names: a container e5 with env E1 plans', () => {
  const text =
    'apiVersion: v1\nkind: Pod\nmetadata: {name: e1}\nspec:\n  containers:\n  - name: e5\n    image: busybox\n    env: [{name: E1, value: -E1}, {name: MODE, value: "on"}]\n    args: [e1, "1e3"]\n';
  const [p] = parseManifestText(text, 'e.yaml');
  assert.equal(p!.pod.metadata?.name, 'e1');
  assert.equal(p!.pod.spec?.containers[0]?.name, 'e5');
  assert.deepEqual(p!.pod.spec?.containers[0]?.env, [
    { name: 'E1', value: '-E1' },
    { name: 'MODE', value: 'on' },
  ]);
  assert.deepEqual(p!.pod.spec?.containers[0]?.args, ['e1', '1e3']);
});

test('numbers in YAML forms kubectl accepts land in integer fields; quoted and explicit strings stay strings', () => {
  const text =
    'apiVersion: v1\nkind: Pod\nmetadata: {name: num, labels: {v: "1e3"}}\nspec:\n  terminationGracePeriodSeconds: 1e1\n  containers:\n  - name: c\n    image: busybox\n    ports: [{containerPort: 0x50}]\n    args: [!!str 5]\n';
  const [p] = parseManifestText(text, 'n.yaml');
  assert.equal(p!.pod.spec?.terminationGracePeriodSeconds, 10);
  assert.equal(p!.pod.spec?.containers[0]?.ports?.[0]?.containerPort, 80);
  assert.deepEqual(p!.pod.spec?.containers[0]?.args, ['5']);
  assert.deepEqual(p!.pod.metadata?.labels, { v: '1e3' });
});

test('a Helm template is recognised only where YAML would read the braces', () => {
  const ok =
    'apiVersion: v1\nkind: Pod\nmetadata:\n  name: t\n  annotations:\n    a: "{{ quoted }}"\n    b: |\n      {{ in a block scalar }}\n    c: \'{{ single }}\' # {{ comment }}\nspec:\n  containers: [{name: c, image: busybox}]\n';
  assert.equal(parseManifestText(ok, 't.yaml').length, 1);
  assert.throws(() => parseManifestText('{{- if .Values.enabled }}\napiVersion: v1\n', 'chart/templates/pod.yaml'), {
    message: 'chart/templates/pod.yaml: line 1: looks like a Helm/Go template: render it first (helm template …)',
  });
});

test('fields newer kubelets read are accepted (restartPolicyRules, pod-level resources, image volumes)', () => {
  const text = `apiVersion: v1
kind: Pod
metadata: {name: new}
spec:
  resources: {limits: {cpu: "1", memory: 1Gi}}
  volumes: [{name: tools, image: {reference: "busybox:1.36", pullPolicy: IfNotPresent}}]
  initContainers:
  - name: side
    image: busybox
    restartPolicy: Always
  containers:
  - name: c
    image: busybox
    restartPolicy: Never
    restartPolicyRules: [{action: Restart, exitCodes: {operator: In, values: [42]}}]
    volumeMounts: [{name: tools, mountPath: /tools}]
`;
  const [p] = parseManifestText(text, 'new.yaml');
  assert.deepEqual(p!.pod.spec?.volumes?.[0], {
    name: 'tools',
    image: { reference: 'busybox:1.36', pullPolicy: 'IfNotPresent' },
  });
});
