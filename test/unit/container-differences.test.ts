// Changes in words: the spec against what the runtime recorded for the running container, field by
// field, and kubelet's verdict on each (restart for the hash, resize in place, or keep it running).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../src/kubelet/api-types';
import type { PodStatus } from '../../src/kubelet/types';
import { buildPlan } from '../../src/plan/plan';
import { changedParts, differenceLine } from '../../src/plan/container-differences';
import { renderPlan } from '../../src/render/plan-view';
import { T0, basePod, hashFor, healthyStatus, type Scheme } from '../fixtures/planner/base';

/** A pod of one container `app` running as created from `old`, the recorded config as containerd reports it. */
function running(scheme: Scheme, old: (p: Pod) => void = () => {}): { pod: Pod; st: PodStatus } {
  const pod = basePod();
  pod.spec!.containers = [
    {
      ...pod.spec!.containers[0]!,
      image: 'busybox:1.36',
      command: ['sh', '-c', 'sleep 1000'],
      env: [{ name: 'MODE', value: 'green' }],
      ports: [{ containerPort: 80, protocol: 'TCP' }],
      resources: { limits: { cpu: '200m', memory: '64Mi' } },
    },
  ];
  old(pod);
  const st = healthyStatus(pod, scheme);
  const c = pod.spec!.containers[0]!;
  st.containerStatuses[0]!.resources = {
    cpuShares: 204,
    cpuQuota: 20000,
    cpuPeriod: 100000,
    memoryLimitInBytes: 64 << 20,
  };
  st.containerStatuses[0]!.recorded = {
    command: c.command ?? [],
    args: c.args ?? [],
    workingDir: c.workingDir ?? '',
    envs: [
      ...(c.env ?? []).map((e) => ({ key: e.name, value: e.value ?? '' })),
      { key: 'KUBERNETES_SERVICE_HOST', value: '10.96.0.1' },
      { key: 'KUBERNETES_PORT_443_TCP', value: 'tcp://10.96.0.1:443' },
    ],
    mounts: [
      { containerPath: '/etc/hosts', readonly: false },
      { containerPath: '/dev/termination-log', readonly: false },
    ],
    tty: false,
    stdin: false,
    portsAnnotation: JSON.stringify(c.ports ?? []),
  };
  return { pod, st };
}

const plan = (pod: Pod, st: PodStatus, kubeletVersion: string) =>
  buildPlan({ pod, podStatus: st, now: T0, options: { kubeletVersion } });

const cases: Array<{
  name: string;
  version: string;
  scheme: Scheme;
  edit: (p: Pod) => void;
  applied: string[];
  ignored: string[];
  changes: boolean;
}> = [
  {
    name: 'image busybox:1.36 → 1.37: kubelet restarts it (name+image hash)',
    version: '1.37',
    scheme: 'name+image',
    edit: (p) => {
      p.spec!.containers[0]!.image = 'busybox:1.37';
    },
    applied: ['app: image busybox:1.36 → 1.37: kubelet restarts it (name+image hash)'],
    ignored: [],
    changes: true,
  },
  {
    name: 'env MODE green → red on 1.37: kept running, said as ignored, not a change',
    version: '1.37',
    scheme: 'name+image',
    edit: (p) => {
      p.spec!.containers[0]!.env = [{ name: 'MODE', value: 'red' }];
    },
    applied: [],
    ignored: [
      'app: env MODE green → red: kubelet 1.37 keeps the container running (only name and image count since 1.31); delete the pod to apply',
    ],
    changes: false,
  },
  {
    name: 'env MODE green → red on 1.30: the whole-container hash changes, kubelet restarts it',
    version: '1.30',
    scheme: 'whole-spec',
    edit: (p) => {
      p.spec!.containers[0]!.env = [{ name: 'MODE', value: 'red' }];
    },
    applied: ['app: env MODE green → red: kubelet restarts it (whole-container hash)'],
    ignored: [],
    changes: true,
  },
  {
    name: 'image and env together on 1.37: both applied by the restart',
    version: '1.37',
    scheme: 'name+image',
    edit: (p) => {
      p.spec!.containers[0]!.image = 'busybox:1.37';
      p.spec!.containers[0]!.env = [{ name: 'MODE', value: 'red' }];
    },
    applied: ['app: image busybox:1.36 → 1.37; env MODE green → red: kubelet restarts it (name+image hash)'],
    ignored: [],
    changes: true,
  },
  {
    name: 'command, ports, a new env, a removed one and a new mount on 1.34: ignored',
    version: '1.34',
    scheme: 'name+image',
    edit: (p) => {
      const c = p.spec!.containers[0]!;
      c.command = ['sh', '-c', 'sleep 2000'];
      c.ports = [{ containerPort: 8080, protocol: 'TCP', name: 'http' }];
      c.env = [{ name: 'LEVEL', value: 'debug' }];
      c.volumeMounts = [{ name: 'data', mountPath: '/data', readOnly: true }];
    },
    applied: [],
    ignored: [
      'app: command ["sh","-c","sleep 1000"] → ["sh","-c","sleep 2000"]; env LEVEL added (debug); env MODE removed; ports 80/TCP → http 8080/TCP; volumeMounts added /data (read-only): kubelet 1.34 keeps the container running (only name and image count since 1.31); delete the pod to apply',
    ],
    changes: false,
  },
  {
    name: 'cpu limit 200m → 400m on 1.37 (in-place resize): kubelet resizes it in place',
    version: '1.37',
    scheme: 'name+image',
    edit: (p) => {
      p.spec!.containers[0]!.resources = { limits: { cpu: '400m', memory: '64Mi' } };
    },
    applied: ['app: cpu limit 200m → 400m; cpu request 200m → 400m: kubelet resizes it in place'],
    ignored: [],
    changes: true,
  },
  {
    name: 'an env from a Secret is named, never its value',
    version: '1.37',
    scheme: 'name+image',
    edit: (p) => {
      p.spec!.containers[0]!.env = [
        { name: 'MODE', value: 'green' },
        { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
      ];
    },
    applied: [],
    ignored: [
      'app: env TOKEN added (from a reference): kubelet 1.37 keeps the container running (only name and image count since 1.31); delete the pod to apply',
    ],
    changes: false,
  },
];

for (const c of cases) {
  test(c.name, () => {
    const { pod, st } = running(c.scheme);
    c.edit(pod);
    // The running container's hash is the one kubelet wrote for the old spec.
    const p = plan(pod, st, c.version);
    assert.deepEqual(p.differences.map(differenceLine), c.applied);
    assert.deepEqual(p.ignoredDifferences.map(differenceLine), c.ignored);
    assert.equal(p.changes, c.changes, '--detailed-exitcode reads changes: ignored differences are not changes');
  });
}

test('an unchanged pod has no differences, and service-link variables are not "removed"', () => {
  const { pod, st } = running('name+image');
  const p = plan(pod, st, '1.37');
  assert.deepEqual(p.differences, []);
  assert.deepEqual(p.ignoredDifferences, []);
});

test('a runtime that does not report the config (CRI-O, or a list item): only the image is compared', () => {
  const { pod, st } = running('name+image');
  delete st.containerStatuses[0]!.recorded;
  pod.spec!.containers[0]!.env = [{ name: 'MODE', value: 'red' }];
  pod.spec!.containers[0]!.image = 'busybox:1.37';
  const p = plan(pod, st, '1.37');
  assert.deepEqual(p.differences.map(differenceLine), [
    'app: image busybox:1.36 → 1.37: kubelet restarts it (name+image hash)',
  ]);
});

test('the same name+image hash is the same image, whatever tag of that image ID the status names', () => {
  // containerd 1.6 keeps no user-specified image; its status names the image by its first tag, here
  // busybox:1.36 for a container created from busybox:1.37 (both tags of one ID).
  const { pod, st } = running('name+image', (p) => {
    p.spec!.containers[0]!.image = 'busybox:1.37';
  });
  st.containerStatuses[0]!.image = 'busybox:1.36';
  const p = plan(pod, st, '1.37');
  assert.deepEqual(p.differences, []);
  assert.deepEqual(p.ignoredDifferences, []);
});

test("made from another tag of one image ID (the status names the spec's tag): said as an image change, not as hashes", () => {
  // Created from busybox:1.37; containerd 1.6 reports busybox:1.36 (the ID's first tag), which the spec now names.
  const { pod, st } = running('name+image', (p) => {
    p.spec!.containers[0]!.image = 'busybox:1.37';
  });
  st.containerStatuses[0]!.image = 'busybox:1.36';
  pod.spec!.containers[0]!.image = 'busybox:1.36';
  const p = plan(pod, st, '1.37');
  assert.deepEqual(p.differences.map(differenceLine), [
    'app: image → busybox:1.36 (it runs another tag of the same image ID, which the runtime reports as busybox:1.36): kubelet restarts it (name+image hash)',
  ]);
  assert.ok(!p.steps.some((x) => /hash [0-9a-f]{8} differs/.test(x.reason)), JSON.stringify(p.steps));
});

test('the table says ignored differences under the verdict; a pod without changes says so first', () => {
  const { pod, st } = running('name+image');
  pod.spec!.containers[0]!.env = [{ name: 'MODE', value: 'red' }];
  const lines = renderPlan(plan(pod, st, '1.37'), { width: 200 }).split('\n');
  assert.equal(lines[1], 'No changes. Pod shop/web is what kubelet 1.37 would keep running.');
  assert.equal(lines[2], 'Ignored by kubelet (not changes):');
  assert.match(lines[3]!, /^ {2}app: env MODE green → red: kubelet 1\.37 keeps the container running/);
});

test('a hash scheme the fixture computes the same way as the planner', () => {
  const { pod, st } = running('whole-spec');
  assert.equal(st.containerStatuses[0]!.hash, hashFor(pod.spec!.containers[0]!, 'whole-spec'));
});

test('a long command that changed shows where it changed, not two identical beginnings', () => {
  const loop = (n: number) => ['sh', '-c', `trap 'exit 0' TERM; while true; do sleep ${n}; done`];
  const { pod, st } = running('name+image', (p) => {
    p.spec!.containers[0]!.command = loop(1);
  });
  pod.spec!.containers[0]!.command = loop(3);
  const p = plan(pod, st, '1.37');
  assert.deepEqual(p.ignoredDifferences.map(differenceLine), [
    'app: command …e; do sleep 1; done"] → …e; do sleep 3; done"]: kubelet 1.37 keeps the container running (only name and image count since 1.31); delete the pod to apply',
  ]);
  assert.deepEqual(changedParts('x'.repeat(30), 'y'.repeat(30)), ['x'.repeat(30), 'y'.repeat(30)]);
});

test("lifecycle.preStop against kubelet's preStopHandler annotation: added, changed, or the same", () => {
  const { pod, st } = running('name+image');
  st.containerStatuses[0]!.recorded!.preStopAnnotation = '';
  pod.spec!.containers[0]!.lifecycle = { preStop: { exec: { command: ['sleep', '5'] } } };
  const added = plan(pod, st, '1.37');
  assert.deepEqual(added.ignoredDifferences.map(differenceLine), [
    'app: lifecycle.preStop (none) → {"exec":{"command":["sleep","5"]}}: kubelet 1.37 keeps the container running (only name and image count since 1.31); delete the pod to apply',
  ]);
  st.containerStatuses[0]!.recorded!.preStopAnnotation = '{"exec":{"command":["sleep","5"]}}';
  assert.deepEqual(plan(pod, st, '1.37').ignoredDifferences, []);
  pod.spec!.containers[0]!.lifecycle = { preStop: { exec: { command: ['sleep', '10'] } } };
  assert.deepEqual(plan(pod, st, '1.37').ignoredDifferences.map(differenceLine), [
    'app: lifecycle.preStop {"exec":{"command":["sleep","5"]}} → {"exec":{"command":["sleep","10"]}}: kubelet 1.37 keeps the container running (only name and image count since 1.31); delete the pod to apply',
  ]);
});
