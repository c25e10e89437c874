import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadManifests } from '../../src/manifest/load';
import { parseManifestText } from '../../src/manifest/parse';

type Obj = Record<string, any>;
const base = (): Obj => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web' },
  spec: { containers: [{ name: 'app', image: 'nginx' }] },
});
/** The error line, without the YAML position at its end (tested on its own). */
const errorOf = (text: string, file = 'pod.yaml'): string => {
  try {
    parseManifestText(text, file);
  } catch (err) {
    assert.equal((err as Error).name, 'SyncpodError');
    return (err as Error).message.replace(/ \(line \d+, column \d+\)$/, '');
  }
  return 'no error';
};
const SUBDOMAIN =
  "must be a DNS-1123 subdomain (lower-case letters, digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters)";
const LABEL =
  "must be a DNS-1123 label (lower-case letters, digits and '-', starting and ending with a letter or digit, at most 63 characters)";

test('every validation error is one line naming file, document and field', () => {
  const rows: Array<[string, (p: Obj) => void, string]> = [
    ['name missing', (p) => delete p.metadata.name, 'metadata.name: required'],
    ['name not a subdomain', (p) => (p.metadata.name = 'Web_1'), `metadata.name: invalid value "Web_1": ${SUBDOMAIN}`],
    [
      'name too long',
      (p) => (p.metadata.name = 'a'.repeat(254)),
      `metadata.name: invalid value "${'a'.repeat(254)}": ${SUBDOMAIN}`,
    ],
    [
      'name and namespace valid, but <namespace>_<name>_<uid> longer than one file name may be',
      (p) => {
        p.metadata.namespace = 'n'.repeat(63);
        p.metadata.name = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
      },
      "metadata.name: too long with its namespace and uid: the pod's log directory <namespace>_<name>_<uid> would have 354 bytes, over the 255 one file name may have (kubelet could not create it and would never start the pod)",
    ],
    [
      'a given uid counts with its own length',
      (p) => {
        p.metadata.name = 'a'.repeat(200);
        p.metadata.uid = 'u'.repeat(60);
      },
      "metadata.name: too long with its namespace and uid: the pod's log directory <namespace>_<name>_<uid> would have 269 bytes, over the 255 one file name may have (kubelet could not create it and would never start the pod)",
    ],
    [
      'name a YAML boolean',
      (p) => (p.metadata.name = true),
      'metadata.name: must be a string, not the boolean true (YAML reads unquoted y, n, yes, no, on, off, true, false as booleans: quote it)',
    ],
    [
      'namespace not a label',
      (p) => (p.metadata.namespace = 'team.a'),
      `metadata.namespace: invalid value "team.a": ${LABEL}`,
    ],
    ['no containers', (p) => (p.spec.containers = []), 'spec.containers: required'],
    ['containers absent', (p) => delete p.spec.containers, 'spec.containers: required'],
    [
      'containers not a list',
      (p) => (p.spec.containers = 'app'),
      'spec.containers: must be a list, not the string "app"',
    ],
    [
      'container not an object',
      (p) => (p.spec.containers = ['app']),
      'spec.containers[0]: must be a mapping, not the string "app"',
    ],
    ['container name missing', (p) => delete p.spec.containers[0].name, 'spec.containers[0].name: required'],
    [
      'container name not a label',
      (p) => (p.spec.containers[0].name = 'my.app'),
      `spec.containers[0].name: invalid value "my.app": ${LABEL}`,
    ],
    [
      'duplicate name across init and regular containers',
      (p) => (p.spec.initContainers = [{ name: 'app', image: 'busybox' }]),
      'spec.containers[0].name: duplicate value "app" (also spec.initContainers[0].name)',
    ],
    [
      'duplicate ephemeral container name',
      (p) => (p.spec.ephemeralContainers = [{ name: 'app', image: 'busybox' }]),
      'spec.ephemeralContainers[0].name: duplicate value "app" (also spec.containers[0].name)',
    ],
    ['image missing', (p) => p.spec.containers.push({ name: 'side' }), 'spec.containers[1].image: required'],
    [
      'init image missing',
      (p) => (p.spec.initContainers = [{ name: 'init' }]),
      'spec.initContainers[0].image: required',
    ],
    [
      'ephemeral image missing',
      (p) => (p.spec.ephemeralContainers = [{ name: 'dbg' }]),
      'spec.ephemeralContainers[0].image: required',
    ],
    [
      'image with whitespace',
      (p) => (p.spec.containers[0].image = 'nginx '),
      'spec.containers[0].image: invalid value "nginx ": must not have leading or trailing whitespace',
    ],
    [
      'restartPolicy',
      (p) => (p.spec.restartPolicy = 'Sometimes'),
      'spec.restartPolicy: unsupported value "Sometimes": supported values: "Always", "OnFailure", "Never"',
    ],
    [
      'dnsPolicy',
      (p) => (p.spec.dnsPolicy = 'Cluster'),
      'spec.dnsPolicy: unsupported value "Cluster": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
    ],
    [
      'dnsPolicy None without servers',
      (p) => (p.spec.dnsPolicy = 'None'),
      'spec.dnsConfig.nameservers: required when dnsPolicy is "None"',
    ],
    [
      'imagePullPolicy',
      (p) => (p.spec.containers[0].imagePullPolicy = 'always'),
      'spec.containers[0].imagePullPolicy: unsupported value "always": supported values: "Always", "Never", "IfNotPresent"',
    ],
    // Container restartPolicy and restartPolicyRules depend on the minor and gates: manifest-api-version.test.ts.
    [
      'ephemeral container restartPolicy',
      (p) => (p.spec.ephemeralContainers = [{ name: 'dbg', image: 'busybox', restartPolicy: 'Always' }]),
      'spec.ephemeralContainers[0].restartPolicy: forbidden: cannot be set for an Ephemeral Container',
    ],
    [
      'containerPort missing',
      (p) => (p.spec.containers[0].ports = [{ name: 'http' }]),
      'spec.containers[0].ports[0].containerPort: required',
    ],
    [
      'containerPort out of range',
      (p) => (p.spec.containers[0].ports = [{ containerPort: 70000 }]),
      'spec.containers[0].ports[0].containerPort: invalid value 70000: must be between 1 and 65535, inclusive',
    ],
    [
      'hostPort out of range',
      (p) => (p.spec.containers[0].ports = [{ containerPort: 80, hostPort: -1 }]),
      'spec.containers[0].ports[0].hostPort: invalid value -1: must be between 1 and 65535, inclusive',
    ],
    [
      'protocol',
      (p) => (p.spec.containers[0].ports = [{ containerPort: 80, protocol: 'tcp' }]),
      'spec.containers[0].ports[0].protocol: unsupported value "tcp": supported values: "TCP", "UDP", "SCTP"',
    ],
    [
      'hostNetwork with a different hostPort',
      (p) => ((p.spec.hostNetwork = true), (p.spec.containers[0].ports = [{ containerPort: 80, hostPort: 8080 }])),
      'spec.containers[0].ports[0].hostPort: invalid value 8080: must match containerPort 80 when hostNetwork is true',
    ],
    ['hostname', (p) => (p.spec.hostname = 'web.local'), `spec.hostname: invalid value "web.local": ${LABEL}`],
    ['subdomain', (p) => (p.spec.subdomain = 'Svc'), `spec.subdomain: invalid value "Svc": ${LABEL}`],
    [
      'bad limit quantity',
      (p) => (p.spec.containers[0].resources = { limits: { cpu: 'one' } }),
      `spec.containers[0].resources.limits.cpu: invalid quantity "one": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    ],
    [
      'bad request suffix',
      (p) => (p.spec.containers[0].resources = { requests: { memory: '1mi' } }),
      'spec.containers[0].resources.requests.memory: invalid quantity "1mi": unable to parse quantity\'s suffix',
    ],
    [
      'negative quantity',
      (p) => (p.spec.containers[0].resources = { requests: { cpu: '-1' } }),
      'spec.containers[0].resources.requests.cpu: invalid value "-1": must be greater than or equal to 0',
    ],
    [
      'request above limit',
      (p) => (p.spec.containers[0].resources = { limits: { memory: '1Gi' }, requests: { memory: '2Gi' } }),
      'spec.containers[0].resources.requests.memory: invalid value "2Gi": must be less than or equal to memory limit of 1Gi',
    ],
    [
      'duplicate volume',
      (p) => (p.spec.volumes = [{ name: 'v' }, { name: 'v' }]),
      'spec.volumes[1].name: duplicate value "v"',
    ],
    ['volume name missing', (p) => (p.spec.volumes = [{ emptyDir: {} }]), 'spec.volumes[0].name: required'],
    [
      'mount of an unknown volume',
      (p) => (p.spec.containers[0].volumeMounts = [{ name: 'data', mountPath: '/d' }]),
      'spec.containers[0].volumeMounts[0].name: not found: the pod has no volume "data"',
    ],
    [
      'mount without a path',
      (p) => ((p.spec.volumes = [{ name: 'data' }]), (p.spec.containers[0].volumeMounts = [{ name: 'data' }])),
      'spec.containers[0].volumeMounts[0].mountPath: required',
    ],
    // The API server validates a projected token's path as an item path and names it at the volume.
    ...(['../../etc/cron.d/x', '/etc/x', '..data'] as const).map((path): [string, (p: Obj) => void, string] => [
      `projected serviceAccountToken path ${path}`,
      (p) => (p.spec.volumes = [{ name: 'v', projected: { sources: [{ serviceAccountToken: { path } }] } }]),
      `spec.volumes[0].projected.path: invalid value "${path}": ${path.startsWith('/') ? 'must be a relative path' : path.startsWith('../') ? "must not contain '..'" : "must not start with '..'"}`,
    ]),
    // ValidateHostSysctl: a namespaced sysctl of a namespace shared with the host is the node's setting.
    [
      'a net sysctl with hostNetwork',
      (p) => {
        p.spec.hostNetwork = true;
        p.spec.securityContext = { sysctls: [{ name: 'net.ipv4.ip_forward', value: '0' }] };
      },
      `spec.securityContext.sysctls[0].name: invalid value "net.ipv4.ip_forward": may not be specified when 'hostNetwork' is true`,
    ],
    [
      'an IPC sysctl (slash form) with hostIPC',
      (p) => {
        p.spec.hostIPC = true;
        p.spec.securityContext = { sysctls: [{ name: 'kernel/shmmax', value: '1' }] };
      },
      `spec.securityContext.sysctls[0].name: invalid value "kernel/shmmax": may not be specified when 'hostIPC' is true`,
    ],
    [
      'an fs.mqueue sysctl with hostIPC',
      (p) => {
        p.spec.hostIPC = true;
        p.spec.securityContext = { sysctls: [{ name: 'fs.mqueue.msg_max', value: '1' }] };
      },
      `spec.securityContext.sysctls[0].name: invalid value "fs.mqueue.msg_max": may not be specified when 'hostIPC' is true`,
    ],
    [
      'procMount Unmasked without a user namespace (hostUsers unset: true)',
      (p) => (p.spec.containers[0].securityContext = { procMount: 'Unmasked' }),
      'spec.containers[0].securityContext.procMount: invalid value "Unmasked": `hostUsers` must be false to use `Unmasked`',
    ],
    [
      'projected serviceAccountToken expirationSeconds under 10 minutes',
      (p) =>
        (p.spec.volumes = [
          { name: 'v', projected: { sources: [{ serviceAccountToken: { path: 't', expirationSeconds: 60 } }] } },
        ]),
      'spec.volumes[0].projected.sources[0].serviceAccountToken.expirationSeconds: invalid value 60: may not specify a duration less than 10 minutes',
    ],
    [
      'several problems are counted',
      (p) => ((p.metadata.name = 'Web'), (p.spec.restartPolicy = 'x')),
      `metadata.name: invalid value "Web": ${SUBDOMAIN} (and 1 more)`,
    ],
  ];
  for (const [what, mutate, want] of rows) {
    const pod = base();
    mutate(pod);
    assert.equal(errorOf(JSON.stringify(pod)), `pod.yaml: document 1: ${want}`, what);
  }
  assert.equal(errorOf(JSON.stringify(base())), 'no error', 'the base pod is valid');
  const own = base();
  own.spec.hostNetwork = true;
  own.spec.securityContext = { sysctls: [{ name: 'kernel.shm_rmid_forced', value: '1' }] };
  assert.equal(errorOf(JSON.stringify(own)), 'no error', "an IPC sysctl in the pod's own IPC namespace");
  const userns = base();
  userns.spec.hostUsers = false;
  userns.spec.containers[0].securityContext = { procMount: 'Unmasked' };
  assert.equal(errorOf(JSON.stringify(userns)), 'no error', 'Unmasked in a user namespace');
});

test('errors in templates and List items carry the path inside the document', () => {
  const deploy = (spec: Obj, name = 'web'): Obj => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec } },
  });
  const rows: Array<[string, Obj, string]> = [
    [
      'template container image',
      deploy({ containers: [{ name: 'a' }] }),
      'spec.template.spec.containers[0].image: required',
    ],
    [
      'workload name becomes the pod name',
      deploy({ containers: [{ name: 'a', image: 'x' }] }, 'Web'),
      `metadata.name: invalid value "Web": ${SUBDOMAIN}`,
    ],
    [
      'cronjob template',
      {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        metadata: { name: 'c' },
        spec: {
          schedule: '@daily',
          jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [] } } } },
        },
      },
      'spec.jobTemplate.spec.template.spec.containers: required',
    ],
    [
      'missing template',
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web' },
        spec: { selector: { matchLabels: { app: 'web' } } },
      },
      'spec.template: required',
    ],
    [
      'list item',
      {
        apiVersion: 'v1',
        kind: 'List',
        items: [base(), deploy({ containers: [{ name: 'a', image: 'x', ports: [{ containerPort: 0 }] }] })],
      },
      'items[1].spec.template.spec.containers[0].ports[0].containerPort: required',
    ],
    [
      'list item without kind',
      { apiVersion: 'v1', kind: 'List', items: [{ metadata: { name: 'x' } }] },
      'items[0].kind: required',
    ],
  ];
  for (const [what, doc, want] of rows)
    assert.equal(errorOf(JSON.stringify(doc)), `pod.yaml: document 1: ${want}`, what);
});

test('documents that are not objects, or pod kinds at an apiVersion the API does not serve, are refused', () => {
  const rows: Array<[string, string]> = [
    [
      'apiVersion: serving.knative.dev/v1\nkind: Pod\nmetadata: {name: s}\n',
      'apiVersion: no matches for kind "Pod" in version "serving.knative.dev/v1" (the API serves Pod as v1)',
    ],
    [
      'apiVersion: v2\nkind: Pod\nmetadata: {name: s}\n',
      'apiVersion: no matches for kind "Pod" in version "v2" (the API serves Pod as v1)',
    ],
    [
      'apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata: {name: s}\n',
      'apiVersion: no matches for kind "Deployment" in version "extensions/v1beta1" (the API serves Deployment as apps/v1)',
    ],
    ['apiVersion: v1\nmetadata: {name: s}\n', 'kind: required'],
    ['kind: Service\nmetadata: {name: s}\n', 'apiVersion: required'],
    ['- a\n- b\n', 'not a Kubernetes object (expected a mapping with apiVersion and kind)'],
  ];
  for (const [text, want] of rows) assert.equal(errorOf(text), `pod.yaml: document 1: ${want}`);
});

test('YAML syntax errors give file, line and column', () => {
  const rows: Array<[string, string]> = [
    [
      'kind: Pod\nmetadata:\n  name: web\n\tspec: {}\n',
      'pod.yaml: line 4, column 1: Tabs are not allowed as indentation',
    ],
    ['kind: Pod\nkind: Pod\n', 'pod.yaml: line 2, column 1: Map keys must be unique'],
    [
      'kind: Pod\n---\nspec: [\n  a\nb: {',
      'pod.yaml: document 2: line 5, column 1: Flow sequence in block collection must be sufficiently indented and end with a ]',
    ],
  ];
  for (const [text, want] of rows) assert.equal(errorOf(text), want);
});

test('loading: unreadable paths, empty input, duplicates', async () => {
  const dir = join(__dirname, '..', 'fixtures', 'manifests');
  const stdin = (text: string) => async () => text;
  const rejects = async (paths: string[], text: string, message: string): Promise<void> => {
    await assert.rejects(loadManifests(paths, stdin(text)), { name: 'SyncpodError', message });
  };
  await rejects([join(dir, 'nope.yaml')], '', `${join(dir, 'nope.yaml')}: cannot read: no such file or directory`);
  await rejects(['-'], '# only a comment\n', '<stdin>: no pod found (the input has no documents)');
  await rejects(['-', '-'], JSON.stringify(base()), '- (stdin) given more than once');
  await rejects([], '', 'no manifest given (name a file, a directory or - for stdin)');
  await rejects(
    [join(dir, 'pod.yaml'), '-'],
    JSON.stringify(base()),
    `<stdin>: document 1: pod default/web is also in ${join(dir, 'pod.yaml')} document 1`,
  );
});

test('the longest name whose log directory name fits: 255 bytes with the namespace and a fresh uid', () => {
  const p = base();
  p.metadata.namespace = 'n'.repeat(63);
  p.metadata.name = 'a'.repeat(255 - 63 - 36 - 2);
  assert.equal(errorOf(JSON.stringify(p)), 'no error');
  p.metadata.name += 'a';
  assert.match(errorOf(JSON.stringify(p)), /would have 256 bytes, over the 255/);
});
