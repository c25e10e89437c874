// Manifests are read as the API server of the planned kubelet's minor, with its gates, reads them:
// the schema of that minor, the fields a disabled gate drops (pkg/api/pod/util.go dropDisabledFields)
// and the validation rules the gates relax (validation.go with the options of
// GetValidationOptionsFromPodSpecAndMeta). One row per minor and gate setting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseManifest, parseManifestText } from '../../src/manifest/parse';
import { apiRulesFor, apiRulesOfKubelet } from '../../src/manifest/api-rules';
import { resolveKubeletRules } from '../../src/kubelet/kubelet-version';
import type { GateName } from '../../src/kubelet/features';

type Obj = Record<string, any>;
type Gates = Partial<Record<GateName, boolean>>;

const pod = (spec: Obj): Obj => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web' },
  spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
});

/** The one-line refusal without its YAML position, or 'admitted'. */
function read(doc: Obj, minor: number, gates: Gates = {}): string {
  try {
    parseManifestText(JSON.stringify(doc), 'pod.yaml', { api: apiRulesFor(minor, gates) });
    return 'admitted';
  } catch (err) {
    assert.equal((err as Error).name, 'SyncpodError');
    assert.ok(!(err as Error).message.includes('\n'), 'one line');
    return (err as Error).message.replace(/ \(line \d+, column \d+\)$/, '').replace(/^pod\.yaml: document 1: /, '');
  }
}

/** The pod as admitted, and the notes of what was dropped. */
function admitted(doc: Obj, minor: number, gates: Gates = {}): { spec: Obj; notes: string[] } {
  const [p] = parseManifest(JSON.stringify(doc), 'pod.yaml', { api: apiRulesFor(minor, gates) }).pods;
  return { spec: p!.pod.spec as Obj, notes: p!.source.notes };
}

const rule = (action: string, values: number[] = [42]): Obj => ({ action, exitCodes: { operator: 'In', values } });
/** The shape kubelet's RestartAllContainers tests build: two init containers, a sidecar, one that triggers a restart of all. */
const restartAllPod = (): Obj =>
  pod({
    initContainers: [
      { name: 'init-1', image: 'busybox' },
      { name: 'sidecar', image: 'busybox', restartPolicy: 'Always' },
      { name: 'init-3', image: 'busybox', restartPolicy: 'Never', restartPolicyRules: [rule('RestartAllContainers')] },
    ],
  });
const restartablePod = (): Obj =>
  pod({
    restartPolicy: 'Never',
    initContainers: [
      { name: 'init-1', image: 'busybox' },
      { name: 'sidecar', image: 'busybox', restartPolicy: 'Always' },
      { name: 'init-3', image: 'busybox', restartPolicy: 'Never', restartPolicyRules: [rule('Restart')] },
    ],
    containers: [
      { name: 'app', image: 'nginx', restartPolicy: 'Never', restartPolicyRules: [rule('Restart', [1, 2])] },
    ],
  });

test('container restart rules: admitted or refused as the API server of each minor does with its gates', () => {
  const rows: Array<[string, number, Gates, Obj, string]> = [
    // 1.29–1.33: no ContainerRestartRules; restartPolicyRules is not in the schema.
    [
      '1.33: a regular container may not set restartPolicy',
      33,
      {},
      pod({ containers: [{ name: 'app', image: 'nginx', restartPolicy: 'Never' }] }),
      'spec.containers[0].restartPolicy: forbidden: may not be set for non-init containers',
    ],
    [
      '1.33: restartPolicyRules is an unknown field',
      33,
      {},
      pod({ containers: [{ name: 'app', image: 'nginx', restartPolicyRules: [rule('Restart')] }] }),
      'spec.containers[0].restartPolicyRules: unknown field in the API of 1.33 (added in 1.34)',
    ],
    [
      '1.33: an init container takes only Always',
      33,
      {},
      pod({ initContainers: [{ name: 'i', image: 'busybox', restartPolicy: 'Never' }] }),
      'spec.initContainers[0].restartPolicy: unsupported value "Never": supported values: "Always"',
    ],
    // 1.34: ContainerRestartRules alpha: off drops the fields (see the next test), on validates them.
    [
      '1.34 default (ContainerRestartRules off): the fields are dropped, the pod admitted',
      34,
      {},
      restartablePod(),
      'admitted',
    ],
    [
      '1.34 with ContainerRestartRules on: rules with Restart admitted',
      34,
      { ContainerRestartRules: true },
      restartablePod(),
      'admitted',
    ],
    [
      '1.34 with ContainerRestartRules on: RestartAllContainers is not an action yet',
      34,
      { ContainerRestartRules: true },
      restartAllPod(),
      'spec.initContainers[2].restartPolicyRules[0].action: unsupported value "RestartAllContainers": supported values: "Restart"',
    ],
    // 1.35: rules beta on, RestartAllContainersOnContainerExits alpha off.
    ['1.35 default: rules admitted', 35, {}, restartablePod(), 'admitted'],
    [
      '1.35 default: RestartAllContainers refused',
      35,
      {},
      restartAllPod(),
      'spec.initContainers[2].restartPolicyRules[0].action: unsupported value "RestartAllContainers": supported values: "Restart"',
    ],
    [
      '1.35 with RestartAllContainersOnContainerExits on: admitted',
      35,
      { RestartAllContainersOnContainerExits: true },
      restartAllPod(),
      'admitted',
    ],
    [
      '1.35 default: a sidecar may not have rules',
      35,
      {},
      pod({
        initContainers: [
          { name: 's', image: 'busybox', restartPolicy: 'Always', restartPolicyRules: [rule('Restart')] },
        ],
      }),
      'spec.initContainers[0].restartPolicyRules: forbidden: restartPolicyRules are not allowed for init containers with restart policy Always',
    ],
    // 1.36 and 1.37: both gates on by default.
    [
      "1.36 default: init container Never with RestartAllContainers rules (kubelet's own test shape)",
      36,
      {},
      restartAllPod(),
      'admitted',
    ],
    [
      '1.36 default: a sidecar may have rules',
      36,
      {},
      pod({
        initContainers: [
          { name: 's', image: 'busybox', restartPolicy: 'Always', restartPolicyRules: [rule('RestartAllContainers')] },
        ],
      }),
      'admitted',
    ],
    [
      '1.36 with RestartAllContainersOnContainerExits off: RestartAllContainers refused again',
      36,
      { RestartAllContainersOnContainerExits: false },
      restartAllPod(),
      'spec.initContainers[2].restartPolicyRules[0].action: unsupported value "RestartAllContainers": supported values: "Restart"',
    ],
    ['1.37 default: admitted', 37, {}, restartAllPod(), 'admitted'],
    [
      '1.36: rules need a restartPolicy',
      36,
      {},
      pod({ containers: [{ name: 'app', image: 'nginx', restartPolicyRules: [rule('Restart')] }] }),
      'spec.containers[0].restartPolicy: required: must specify restartPolicy when restart rules are used',
    ],
    [
      "1.36: an init container's rules need a restartPolicy",
      36,
      {},
      pod({ initContainers: [{ name: 'i', image: 'busybox', restartPolicyRules: [rule('Restart')] }] }),
      'spec.initContainers[0].restartPolicy: required: must specify restartPolicy when restart rules are used',
    ],
    [
      '1.36: a container restartPolicy outside the three',
      36,
      {},
      pod({ containers: [{ name: 'app', image: 'nginx', restartPolicy: 'Sometimes' }] }),
      'spec.containers[0].restartPolicy: unsupported value "Sometimes": supported values: "Always", "Never", "OnFailure"',
    ],
    [
      '1.36: a rule without exit codes',
      36,
      {},
      pod({
        containers: [
          { name: 'app', image: 'nginx', restartPolicy: 'Never', restartPolicyRules: [{ action: 'Restart' }] },
        ],
      }),
      'spec.containers[0].restartPolicyRules[0].exitCodes: required: must be specified',
    ],
    [
      '1.36: an operator outside In and NotIn',
      36,
      {},
      pod({
        containers: [
          {
            name: 'app',
            image: 'nginx',
            restartPolicy: 'Never',
            restartPolicyRules: [{ action: 'Restart', exitCodes: { operator: 'Equals', values: [1] } }],
          },
        ],
      }),
      'spec.containers[0].restartPolicyRules[0].exitCodes.operator: unsupported value "Equals": supported values: "In", "NotIn"',
    ],
    [
      '1.36: more than 20 rules',
      36,
      {},
      pod({
        containers: [
          {
            name: 'app',
            image: 'nginx',
            restartPolicy: 'Never',
            restartPolicyRules: Array.from({ length: 21 }, () => rule('Restart')),
          },
        ],
      }),
      'spec.containers[0].restartPolicyRules: too many: 21: must have at most 20 items',
    ],
    [
      '1.36: more than 255 exit codes',
      36,
      {},
      pod({
        containers: [
          {
            name: 'app',
            image: 'nginx',
            restartPolicy: 'Never',
            restartPolicyRules: [
              rule(
                'Restart',
                Array.from({ length: 256 }, (_, i) => i),
              ),
            ],
          },
        ],
      }),
      'spec.containers[0].restartPolicyRules[0].exitCodes.values: too many: 256: must have at most 255 items',
    ],
    [
      '1.36: an ephemeral container may not have rules',
      36,
      {},
      pod({ ephemeralContainers: [{ name: 'dbg', image: 'busybox', restartPolicyRules: [rule('Restart')] }] }),
      'spec.ephemeralContainers[0].restartPolicyRules: forbidden: cannot be set for an Ephemeral Container',
    ],
  ];
  for (const [name, minor, gates, doc, want] of rows) assert.equal(read(doc, minor, gates), want, name);
});

test("1.34 with ContainerRestartRules off: the API server drops the rules and every restartPolicy but a sidecar's, and the plan says so", () => {
  const { spec, notes } = admitted(restartablePod(), 34);
  assert.equal(spec.initContainers[1].restartPolicy, 'Always', 'the sidecar stays a sidecar');
  assert.equal(spec.initContainers[2].restartPolicy, undefined);
  assert.equal(spec.initContainers[2].restartPolicyRules, undefined);
  assert.equal(spec.containers[0].restartPolicy, undefined);
  assert.equal(spec.containers[0].restartPolicyRules, undefined);
  assert.deepEqual(notes, [
    'spec.initContainers[2].restartPolicy: dropped: the API server of 1.34 with ContainerRestartRules off clears it',
    'spec.initContainers[2].restartPolicyRules: dropped: the API server of 1.34 with ContainerRestartRules off clears it',
    'spec.containers[0].restartPolicy: dropped: the API server of 1.34 with ContainerRestartRules off clears it',
    'spec.containers[0].restartPolicyRules: dropped: the API server of 1.34 with ContainerRestartRules off clears it',
  ]);
  // With the gate on, nothing is dropped.
  assert.deepEqual(admitted(restartablePod(), 34, { ContainerRestartRules: true }).notes, []);
});

test('a workload template is read the same way, its paths inside the document', () => {
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'app', image: 'nginx', restartPolicy: 'Never' }] },
      },
    },
  };
  assert.equal(
    read(deployment, 33),
    'spec.template.spec.containers[0].restartPolicy: forbidden: may not be set for non-init containers',
  );
  assert.ok(
    admitted(deployment, 34).notes.includes(
      'spec.template.spec.containers[0].restartPolicy: dropped: the API server of 1.34 with ContainerRestartRules off clears it',
    ),
  );
});

test('other gated fields: unknown before their minor, dropped while their gate is off, kept when on', () => {
  const imagePod = (): Obj =>
    pod({
      volumes: [{ name: 'models', image: { reference: 'registry.example/models:1' } }],
      containers: [{ name: 'app', image: 'nginx', volumeMounts: [{ name: 'models', mountPath: '/m' }] }],
    });
  assert.equal(read(imagePod(), 30), 'spec.volumes[0].image: unknown field in the API of 1.30 (added in 1.31)');
  const off = admitted(imagePod(), 33);
  assert.deepEqual(
    [off.spec.volumes, off.spec.containers[0].volumeMounts],
    [[], []],
    '1.33 (ImageVolume off by default): the volume and its mount go',
  );
  assert.deepEqual(off.notes, [
    'spec.volumes[0]: dropped: the API server of 1.33 with ImageVolume off clears image volumes',
    'spec.containers[0].volumeMounts: the mounts of image volumes dropped with them',
  ]);
  assert.equal(admitted(imagePod(), 35).spec.volumes.length, 1, '1.35: on by default');
  assert.equal(admitted(imagePod(), 33, { ImageVolume: true }).spec.volumes.length, 1, '1.33 with the gate on');

  assert.equal(
    read(pod({ hostnameOverride: 'db-0' }), 33),
    'spec.hostnameOverride: unknown field in the API of 1.33 (added in 1.34)',
  );
  assert.equal(
    admitted(pod({ hostnameOverride: 'db-0' }), 34).spec.hostnameOverride,
    undefined,
    '1.34: HostnameOverride alpha, off',
  );
  assert.equal(admitted(pod({ hostnameOverride: 'db-0' }), 35).spec.hostnameOverride, 'db-0');

  const userns = pod({ hostUsers: false });
  assert.equal(admitted(userns, 32).spec.hostUsers, undefined, '1.32: UserNamespacesSupport beta, off');
  assert.deepEqual(admitted(userns, 32).notes, [
    'spec.hostUsers: dropped: the API server of 1.32 with UserNamespacesSupport off clears it',
  ]);
  assert.equal(admitted(userns, 33).spec.hostUsers, false);

  assert.equal(
    admitted(pod({ resources: { limits: { cpu: '1' } } }), 33).spec.resources,
    undefined,
    '1.33: PodLevelResources alpha, off',
  );
  assert.deepEqual(admitted(pod({ resources: { limits: { cpu: '1' } } }), 34).spec.resources, { limits: { cpu: '1' } });

  const procMount = pod({
    containers: [{ name: 'app', image: 'nginx', securityContext: { procMount: 'Unmasked' } }],
    hostUsers: false,
  });
  assert.equal(
    admitted(procMount, 32).spec.containers[0].securityContext.procMount,
    'Default',
    '1.32: ProcMountType beta, off: reset to Default',
  );
  assert.equal(admitted(procMount, 33).spec.containers[0].securityContext.procMount, 'Unmasked');

  const resize = pod({
    containers: [
      { name: 'app', image: 'nginx', resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }] },
    ],
  });
  assert.equal(
    admitted(resize, 32).spec.containers[0].resizePolicy,
    undefined,
    '1.32: InPlacePodVerticalScaling alpha, off',
  );
  assert.equal(admitted(resize, 33).spec.containers[0].resizePolicy.length, 1);
});

test('stopSignal: dropped while ContainerStopSignals is off (its default through 1.37), validated when on', () => {
  const stop = (os?: string, signal = 'SIGUSR1'): Obj =>
    pod({
      ...(os ? { os: { name: os } } : {}),
      containers: [{ name: 'app', image: 'nginx', lifecycle: { stopSignal: signal } }],
    });
  assert.equal(
    read(stop(undefined), 32),
    'spec.containers[0].lifecycle.stopSignal: unknown field in the API of 1.32 (added in 1.33)',
  );
  const dropped = admitted(stop(undefined), 37);
  assert.equal(dropped.spec.containers[0].lifecycle, undefined, 'an emptied lifecycle goes too');
  assert.deepEqual(dropped.notes, [
    'spec.containers[0].lifecycle.stopSignal: dropped: the API server of 1.37 with ContainerStopSignals off clears it',
  ]);
  const on: Gates = { ContainerStopSignals: true };
  assert.equal(
    read(stop(undefined), 37, on),
    'spec.containers[0].lifecycle.stopSignal: forbidden: may not be set for containers with empty `spec.os.name`',
  );
  assert.equal(read(stop('linux'), 37, on), 'admitted');
  assert.equal(read(stop('linux', 'SIGRTMIN+3'), 37, on), 'admitted');
  assert.match(
    read(stop('linux', 'SIGFOO'), 37, on),
    /^spec\.containers\[0\]\.lifecycle\.stopSignal: unsupported value "SIGFOO"/,
  );
  assert.equal(
    read(stop('windows', 'SIGUSR1'), 37, on),
    'spec.containers[0].lifecycle.stopSignal: unsupported value "SIGUSR1": supported values: "SIGKILL", "SIGTERM"',
  );
});

test('env names: strict before RelaxedEnvironmentVariableValidation (1.29–1.31 by default), printable ASCII after', () => {
  const env = (name: string): Obj =>
    pod({ containers: [{ name: 'app', image: 'nginx', env: [{ name, value: 'x' }] }] });
  const strict =
    "spec.containers[0].env[0].name: invalid value \"1-LEADING-DIGIT\": a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit";
  assert.equal(read(env('1-LEADING-DIGIT'), 29), strict);
  assert.equal(read(env('1-LEADING-DIGIT'), 31), strict);
  assert.equal(read(env('1-LEADING-DIGIT'), 31, { RelaxedEnvironmentVariableValidation: true }), 'admitted');
  assert.equal(read(env('1-LEADING-DIGIT'), 32), 'admitted');
  assert.equal(
    read(env('A=B'), 36),
    `spec.containers[0].env[0].name: invalid value "A=B": must consist of printable ASCII characters except '='`,
  );
});

test('sidecars: hooks and probes only on init containers with restartPolicy Always; SidecarContainers off drops the policy first', () => {
  const sidecar = (): Obj =>
    pod({
      initContainers: [
        { name: 'proxy', image: 'envoy', restartPolicy: 'Always', readinessProbe: { tcpSocket: { port: 15000 } } },
      ],
    });
  assert.equal(read(sidecar(), 32), 'admitted');
  assert.equal(read(sidecar(), 37), 'admitted', 'SidecarContainers removed in 1.37: sidecars always on');
  assert.equal(
    read(sidecar(), 32, { SidecarContainers: false }),
    'spec.initContainers[0].readinessProbe: forbidden: may not be set for init containers without restartPolicy=Always',
  );
  assert.equal(
    read(
      pod({
        initContainers: [{ name: 'i', image: 'busybox', lifecycle: { preStop: { exec: { command: ['true'] } } } }],
      }),
      36,
    ),
    'spec.initContainers[0].lifecycle: forbidden: may not be set for init containers without restartPolicy=Always',
  );
});

test('the kubelet rules of a plan choose the API rules: version and --feature-gates', () => {
  const api = apiRulesOfKubelet(resolveKubeletRules('1.35.2', { RestartAllContainersOnContainerExits: true }));
  assert.equal(api.minor, 35);
  assert.equal(api.text, '1.35.2');
  assert.equal(read(restartAllPod(), api.minor, api.gates), 'admitted');
  const newer = apiRulesOfKubelet(resolveKubeletRules('1.38.0'));
  assert.equal(newer.minor, 37, 'a newer kubelet is read with the newest mirrored API');
  assert.equal(
    apiRulesOfKubelet(resolveKubeletRules('1.37')).gates.SidecarContainers,
    true,
    'a gate removed after GA stays on',
  );
});

// The fields 1.37 added (k8s.io/api master after v0.37.0-beta.0, before the release-1.37 branch),
// each with its alpha gate: unknown to the API server of 1.36, dropped by 1.37 while the gate is off
// (its default), kept when on.
test('1.37 fields: unknown in 1.36, dropped while their alpha gate is off in 1.37, kept with it on', () => {
  const probeContainer = (probe: Obj): Obj => ({ name: 'app', image: 'nginx', livenessProbe: probe });
  const rows: Array<[string, GateName, Obj, string, (spec: Obj) => unknown]> = [
    [
      'emptyDir mode',
      'EmptyDirVolumeMode',
      pod({ volumes: [{ name: 'scratch', emptyDir: { mode: 0o1777 } }] }),
      'spec.volumes[0].emptyDir.mode',
      (s) => s.volumes[0].emptyDir.mode,
    ],
    [
      'bind mount options',
      'VolumeBindMountOptions',
      pod({
        volumes: [{ name: 'scratch', emptyDir: {} }],
        containers: [
          {
            name: 'app',
            image: 'nginx',
            volumeMounts: [{ name: 'scratch', mountPath: '/s', bindMountOptions: ['noexec', 'nosuid'] }],
          },
        ],
      }),
      'spec.containers[0].volumeMounts[0].bindMountOptions',
      (s) => s.containers[0].volumeMounts[0].bindMountOptions,
    ],
    [
      'h2c HTTP probe',
      'H2CContainerProbe',
      pod({ containers: [probeContainer({ httpGet: { port: 8080, protocol: 'HTTP2' } })] }),
      'spec.containers[0].livenessProbe.httpGet.protocol',
      (s) => s.containers[0].livenessProbe.httpGet.protocol,
    ],
    [
      'gRPC probe over TLS',
      'GRPCContainerProbeTLS',
      pod({ containers: [probeContainer({ grpc: { port: 9090, mode: 'TLS' } })] }),
      'spec.containers[0].livenessProbe.grpc.mode',
      (s) => s.containers[0].livenessProbe.grpc.mode,
    ],
    [
      'owner of configMap files',
      'AtomicWriteVolumeUserFields',
      pod({ volumes: [{ name: 'cfg', configMap: { name: 'cfg', defaultUser: 1000 } }] }),
      'spec.volumes[0].configMap.defaultUser',
      (s) => s.volumes[0].configMap.defaultUser,
    ],
    [
      'owner of a projected token',
      'AtomicWriteVolumeUserFields',
      pod({
        volumes: [{ name: 'tok', projected: { sources: [{ serviceAccountToken: { path: 'token', user: 1000 } }] } }],
      }),
      'spec.volumes[0].projected.sources[0].serviceAccountToken.user',
      (s) => s.volumes[0].projected.sources[0].serviceAccountToken.user,
    ],
  ];
  for (const [what, gate, doc, path, value] of rows) {
    assert.equal(read(doc, 36), `${path}: unknown field in the API of 1.36 (added in 1.37)`, `${what}: 1.36`);
    const off = admitted(structuredClone(doc), 37);
    assert.equal(value(off.spec), undefined, `${what}: 1.37, ${gate} off`);
    assert.deepEqual(off.notes, [`${path}: dropped: the API server of 1.37 with ${gate} off clears it`], what);
    const on = admitted(structuredClone(doc), 37, { [gate]: true });
    assert.notEqual(value(on.spec), undefined, `${what}: 1.37, ${gate} on`);
    assert.deepEqual(on.notes, [], what);
  }
  // The new fields are typed as the API decodes them.
  assert.equal(
    read(pod({ volumes: [{ name: 's', emptyDir: { mode: '0777' } }] }), 37, { EmptyDirVolumeMode: true }),
    'spec.volumes[0].emptyDir.mode: must be an integer (int32), not the string "0777"',
  );
});

test('1.37 fields kept as the schema has them: evictionResponders on the pod, scheduling on a Job', () => {
  const responders = pod({ evictionResponders: [{ name: 'acme.io/drainer', priority: 10000 }] });
  assert.equal(read(responders, 36), 'spec.evictionResponders: unknown field in the API of 1.36 (added in 1.37)');
  assert.equal(read(responders, 37), 'admitted');
  assert.equal(
    read(pod({ evictionResponders: [{ name: 'acme.io/drainer' }] }), 37),
    'spec.evictionResponders[0].priority: required',
  );
  const job = (scheduling: Obj): Obj => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'train' },
    spec: {
      scheduling,
      template: { spec: { restartPolicy: 'Never', containers: [{ name: 'app', image: 'busybox' }] } },
    },
  });
  const gang = job({
    schedulingPolicy: { gang: { minCount: 4 } },
    schedulingConstraints: { topology: [{ key: 'topology.kubernetes.io/zone' }] },
    disruptionMode: { all: {} },
  });
  assert.equal(read(gang, 36), 'spec.scheduling: unknown field in the API of 1.36 (added in 1.37)');
  assert.equal(read(gang, 37), 'admitted');
  assert.equal(
    read(job({ schedulingPolicy: { gang: { minCount: 4, size: 2 } } }), 37),
    'spec.scheduling.schedulingPolicy.gang.size: unknown field',
  );
  assert.equal(
    read(job({ disruptionMode: { all: { now: true } } }), 37),
    'spec.scheduling.disruptionMode.all.now: unknown field',
  );
});
