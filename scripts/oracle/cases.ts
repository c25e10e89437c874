// kubelet's own kuberuntime test cases as scenarios: the situations of TestComputePodActions,
// ...WithInitContainers, ...WithRestartableInitContainers, ...WithContainerRestartRules,
// ...ForRestartAllContainers, ...ForPodResize and TestSyncPod* (kuberuntime_manager_test.go of
// the release), written here as data on one healthy base pod: three running containers in a
// ready sandbox. Each case names the kubelet test and case it stands for.
import type { Scenario, ScenarioContainer } from './scenario';

const NS = 'foo-ns';

function base(name: string): Scenario {
  return {
    name,
    pod: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'foo', namespace: NS, uid: '12345678' },
      spec: {
        containers: ['foo1', 'foo2', 'foo3'].map((n) => ({ name: n, image: 'busybox:1.36' })),
      },
    },
    sandboxes: [{ id: 'sandboxID', attempt: 0, state: 'SANDBOX_READY', ip: '10.0.0.1' }],
    containers: ['foo1', 'foo2', 'foo3'].map((n, i) => ({
      id: `id${i + 1}`,
      sandbox: 'sandboxID',
      name: n,
      state: 'CONTAINER_RUNNING',
    })),
    images: ['busybox:1.36'],
  };
}

function withInit(name: string, sidecar = false): Scenario {
  const s = base(name);
  s.pod.spec.initContainers = ['init1', 'init2', 'init3'].map((n) => ({
    name: n,
    image: 'busybox:1.36',
    ...(sidecar ? { restartPolicy: 'Always' } : {}),
  }));
  const inits: ScenarioContainer[] = ['init1', 'init2', 'init3'].map((n, i) => ({
    id: `initid${i + 1}`,
    sandbox: 'sandboxID',
    name: n,
    state: sidecar ? 'CONTAINER_RUNNING' : 'CONTAINER_EXITED',
    exitCode: 0,
  }));
  s.containers = [...inits, ...(s.containers ?? [])];
  return s;
}

const c = (s: Scenario, name: string) => {
  const found = s.containers?.find((x) => x.name === name);
  if (!found) throw new Error(`case ${s.name}: no container ${name}`);
  return found;
};
const spec = (s: Scenario, name: string) =>
  [...(s.pod.spec.initContainers ?? []), ...s.pod.spec.containers].find((x: { name: string }) => x.name === name);
const exited = (x: ScenarioContainer, code = 0) => Object.assign(x, { state: 'CONTAINER_EXITED', exitCode: code });
const drop = (s: Scenario, ...names: string[]) => {
  s.containers = s.containers?.filter((x) => !names.includes(x.name));
};

type Mutate = (s: Scenario) => void;

const CASES: Array<[string, () => Scenario, Mutate, number?]> = [
  // TestComputePodActions
  ['TestComputePodActions: everything is good; do nothing', () => base(''), () => undefined],
  [
    'TestComputePodActions: start pod sandbox and all containers for a new pod',
    () => base(''),
    (s) => {
      s.sandboxes = [];
      s.containers = [];
    },
  ],
  [
    'TestComputePodActions: restart exited containers if RestartPolicy == Always',
    () => base(''),
    (s) => {
      exited(c(s, 'foo1'), 0);
      exited(c(s, 'foo2'), 1);
    },
  ],
  [
    'TestComputePodActions: restart failed containers if RestartPolicy == OnFailure',
    () => base(''),
    (s) => {
      s.pod.spec.restartPolicy = 'OnFailure';
      exited(c(s, 'foo1'), 0);
      exited(c(s, 'foo2'), 1);
    },
  ],
  [
    'TestComputePodActions: restart created but not started containers if RestartPolicy == OnFailure',
    () => base(''),
    (s) => {
      s.pod.spec.restartPolicy = 'OnFailure';
      c(s, 'foo2').state = 'CONTAINER_CREATED';
    },
  ],
  [
    "TestComputePodActions: don't restart containers if RestartPolicy == Never",
    () => base(''),
    (s) => {
      s.pod.spec.restartPolicy = 'Never';
      exited(c(s, 'foo1'), 0);
      exited(c(s, 'foo2'), 1);
    },
  ],
  [
    'TestComputePodActions: Kill pod and recreate everything if the pod sandbox is dead, and RestartPolicy == Always',
    () => base(''),
    (s) => {
      s.sandboxes![0].state = 'SANDBOX_NOTREADY';
    },
  ],
  [
    'TestComputePodActions: Kill pod and recreate all containers (except for the succeeded one) if the pod sandbox is dead, and RestartPolicy == OnFailure',
    () => base(''),
    (s) => {
      s.pod.spec.restartPolicy = 'OnFailure';
      s.sandboxes![0].state = 'SANDBOX_NOTREADY';
      exited(c(s, 'foo2'), 0);
    },
  ],
  [
    'TestComputePodActions: Kill pod and recreate all containers if the PodSandbox does not have an IP',
    () => base(''),
    (s) => {
      s.sandboxes![0].ip = '';
    },
  ],
  [
    "TestComputePodActions: Kill and recreate the container if the container's spec changed",
    () => base(''),
    (s) => {
      s.pod.spec.restartPolicy = 'Always';
      c(s, 'foo2').hash = '5';
    },
  ],
  [
    'TestComputePodActions: Kill and recreate the container if the liveness check has failed',
    () => base(''),
    (s) => {
      spec(s, 'foo1').livenessProbe = { exec: { command: ['true'] } };
      s.liveness = { foo1: 'failure' };
    },
  ],
  [
    'TestComputePodActions: Kill and recreate the container if the startup check has failed',
    () => base(''),
    (s) => {
      spec(s, 'foo1').startupProbe = { exec: { command: ['true'] } };
      s.startup = { foo1: 'failure' };
    },
  ],
  [
    'TestComputePodActions: Verify we do not create a pod sandbox if no ready sandbox for pod with RestartPolicy=Never and all containers exited',
    () => base(''),
    (s) => {
      s.pod.spec.restartPolicy = 'Never';
      s.sandboxes![0].state = 'SANDBOX_NOTREADY';
      for (const x of s.containers ?? []) exited(x, 0);
    },
  ],
  [
    'TestComputePodActions: Verify we do not create a pod sandbox if no ready sandbox for pod with RestartPolicy=OnFailure and all containers succeeded',
    () => base(''),
    (s) => {
      s.pod.spec.restartPolicy = 'OnFailure';
      s.sandboxes![0].state = 'SANDBOX_NOTREADY';
      for (const x of s.containers ?? []) exited(x, 0);
    },
  ],
  [
    'TestComputePodActions: Verify we create a pod sandbox if no ready sandbox for pod with RestartPolicy=Never and no containers have ever been created',
    () => base(''),
    (s) => {
      s.pod.spec.restartPolicy = 'Never';
      s.sandboxes![0].state = 'SANDBOX_NOTREADY';
      s.containers = [];
    },
  ],
  [
    'TestComputePodActions: Kill and recreate the container if the container is in unknown state',
    () => base(''),
    (s) => {
      s.pod.spec.restartPolicy = 'Never';
      c(s, 'foo2').state = 'CONTAINER_UNKNOWN';
    },
  ],
  [
    'TestComputePodActions: Restart the container if the container is in created state',
    () => base(''),
    (s) => {
      s.pod.spec.restartPolicy = 'Never';
      c(s, 'foo2').state = 'CONTAINER_CREATED';
    },
  ],
  // TestComputePodActionsWithInitContainers
  [
    'TestComputePodActionsWithInitContainers: initialization completed; start all containers',
    () => withInit(''),
    (s) => drop(s, 'foo1', 'foo2', 'foo3'),
  ],
  [
    'TestComputePodActionsWithInitContainers: no init containers have been started; start the first one',
    () => withInit(''),
    (s) => {
      s.containers = [];
    },
  ],
  [
    'TestComputePodActionsWithInitContainers: initialization in progress; do nothing',
    () => withInit(''),
    (s) => {
      drop(s, 'foo1', 'foo2', 'foo3', 'init3');
      c(s, 'init2').state = 'CONTAINER_RUNNING';
    },
  ],
  [
    'TestComputePodActionsWithInitContainers: Kill pod and restart the first init container if the pod sandbox is dead',
    () => withInit(''),
    (s) => {
      s.sandboxes![0].state = 'SANDBOX_NOTREADY';
    },
  ],
  [
    'TestComputePodActionsWithInitContainers: initialization failed; restart the last init container if RestartPolicy == Always',
    () => withInit(''),
    (s) => {
      drop(s, 'foo1', 'foo2', 'foo3');
      c(s, 'init3').exitCode = 137;
    },
  ],
  [
    'TestComputePodActionsWithInitContainers: initialization failed; kill pod if RestartPolicy == Never',
    () => withInit(''),
    (s) => {
      s.pod.spec.restartPolicy = 'Never';
      drop(s, 'foo1', 'foo2', 'foo3');
      c(s, 'init3').exitCode = 137;
    },
  ],
  [
    'TestComputePodActionsWithInitContainers: init container state unknown; kill and recreate the last init container if RestartPolicy == Always',
    () => withInit(''),
    (s) => {
      drop(s, 'foo1', 'foo2', 'foo3');
      c(s, 'init3').state = 'CONTAINER_UNKNOWN';
    },
  ],
  [
    'TestComputePodActionsWithInitContainers: Pod sandbox not ready, init container failed, but RestartPolicy == Never; kill pod only',
    () => withInit(''),
    (s) => {
      s.pod.spec.restartPolicy = 'Never';
      s.sandboxes![0].state = 'SANDBOX_NOTREADY';
      drop(s, 'foo1', 'foo2', 'foo3');
      c(s, 'init3').exitCode = 137;
    },
  ],
  [
    'TestComputePodActionsWithInitContainers: some of the init container statuses are missing but the last init container is running, restart the first one',
    () => withInit(''),
    (s) => {
      drop(s, 'foo1', 'foo2', 'foo3', 'init1', 'init2');
      c(s, 'init3').state = 'CONTAINER_RUNNING';
    },
  ],
  // TestComputePodActionsWithRestartableInitContainers
  [
    'TestComputePodActionsWithRestartableInitContainers: initialization completed; start all containers',
    () => withInit('', true),
    (s) => drop(s, 'foo1', 'foo2', 'foo3'),
  ],
  [
    'TestComputePodActionsWithRestartableInitContainers: an init container is in the created state due to an unknown error when starting container; restart it',
    () => withInit('', true),
    (s) => {
      drop(s, 'foo1', 'foo2', 'foo3', 'init3');
      c(s, 'init2').state = 'CONTAINER_CREATED';
    },
  ],
  [
    'TestComputePodActionsWithRestartableInitContainers: restartable init container exited; restart it',
    () => withInit('', true),
    (s) => {
      exited(c(s, 'init2'), 1);
    },
  ],
  [
    'TestComputePodActionsWithRestartableInitContainers: livenessProbe has failed; kill and restart the init container',
    () => withInit('', true),
    (s) => {
      spec(s, 'init2').livenessProbe = { exec: { command: ['true'] } };
      s.liveness = { init2: 'failure' };
    },
  ],
  [
    'TestComputePodActionsWithRestartableInitContainers: startupProbe has not been run; do nothing',
    () => withInit('', true),
    (s) => {
      drop(s, 'foo1', 'foo2', 'foo3', 'init3');
      spec(s, 'init2').startupProbe = { exec: { command: ['true'] } };
    },
  ],
  [
    'TestComputePodActionsWithRestartableInitContainers: startupProbe has succeeded; start the next init container',
    () => withInit('', true),
    (s) => {
      drop(s, 'foo1', 'foo2', 'foo3', 'init3');
      spec(s, 'init2').startupProbe = { exec: { command: ['true'] } };
      s.startup = { init2: 'success' };
    },
  ],
  [
    'TestComputePodActionsWithRestartableInitContainers: startupProbe has failed; kill and restart the init container',
    () => withInit('', true),
    (s) => {
      drop(s, 'foo1', 'foo2', 'foo3', 'init3');
      spec(s, 'init2').startupProbe = { exec: { command: ['true'] } };
      s.startup = { init2: 'failure' };
    },
  ],
  [
    'TestComputePodActionsWithRestartableInitContainers: restartable init container spec changed; restart it',
    () => withInit('', true),
    (s) => {
      c(s, 'init2').hash = '5';
    },
  ],
  // TestComputePodActionsWithContainerRestartRules
  [
    'TestComputePodActionsWithContainerRestartRules: restart exited container matching a rule although the pod says Never',
    () => base(''),
    (s) => {
      s.pod.spec.restartPolicy = 'Never';
      Object.assign(spec(s, 'foo1'), {
        restartPolicy: 'Never',
        restartPolicyRules: [{ action: 'Restart', exitCodes: { operator: 'In', values: [42] } }],
      });
      exited(c(s, 'foo1'), 42);
    },
  ],
  [
    'TestComputePodActionsWithContainerRestartRules: do not restart exited container that matches no rule',
    () => base(''),
    (s) => {
      s.pod.spec.restartPolicy = 'Always';
      Object.assign(spec(s, 'foo1'), {
        restartPolicy: 'Never',
        restartPolicyRules: [{ action: 'Restart', exitCodes: { operator: 'In', values: [42] } }],
      });
      exited(c(s, 'foo1'), 1);
    },
  ],
  // TestComputePodActionsForRestartAllContainers
  [
    'TestComputePodActionsForRestartAllContainers: a container exited with a RestartAllContainers code; remove all containers and start over',
    () => withInit(''),
    (s) => {
      s.pod.spec.restartPolicy = 'Never';
      Object.assign(spec(s, 'foo2'), {
        restartPolicy: 'Never',
        restartPolicyRules: [{ action: 'RestartAllContainers', exitCodes: { operator: 'In', values: [88] } }],
      });
      exited(c(s, 'foo2'), 88);
    },
    35,
  ],
  // TestComputePodActionsForPodResize
  [
    'TestComputePodActionsForPodResize: update container resources (CPU) in place',
    () => base(''),
    (s) => {
      spec(s, 'foo1').resources = {
        requests: { cpu: '200m', memory: '128Mi' },
        limits: { cpu: '400m', memory: '256Mi' },
      };
      c(s, 'foo1').resources = { cpuShares: 102, cpuQuota: 40000, cpuPeriod: 100000, memoryLimitInBytes: 268435456 };
    },
  ],
  [
    'TestComputePodActionsForPodResize: update container resources (memory limit) in place',
    () => base(''),
    (s) => {
      spec(s, 'foo1').resources = {
        requests: { cpu: '100m', memory: '128Mi' },
        limits: { cpu: '200m', memory: '512Mi' },
      };
      c(s, 'foo1').resources = { cpuShares: 102, cpuQuota: 20000, cpuPeriod: 100000, memoryLimitInBytes: 268435456 };
    },
  ],
  [
    'TestComputePodActionsForPodResize: resize policy RestartContainer for memory restarts the container',
    () => base(''),
    (s) => {
      Object.assign(spec(s, 'foo2'), {
        resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '200m', memory: '512Mi' } },
        resizePolicy: [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }],
      });
      c(s, 'foo2').resources = { cpuShares: 102, cpuQuota: 20000, cpuPeriod: 100000, memoryLimitInBytes: 268435456 };
    },
  ],
  [
    'TestComputePodActionsForPodResize: CPU decrease and increase on two containers: the decrease first',
    () => base(''),
    (s) => {
      spec(s, 'foo1').resources = { requests: { cpu: '500m' }, limits: { cpu: '1' } };
      c(s, 'foo1').resources = { cpuShares: 102, cpuQuota: 20000, cpuPeriod: 100000, memoryLimitInBytes: 0 };
      spec(s, 'foo2').resources = { requests: { cpu: '100m' }, limits: { cpu: '200m' } };
      c(s, 'foo2').resources = { cpuShares: 512, cpuQuota: 100000, cpuPeriod: 100000, memoryLimitInBytes: 0 };
    },
  ],
  // Regression cases: disagreements the oracle found against v1.37.2, fixed in the mirror.
  [
    'Regression: memory and CPU resized on two containers: memory first, decreases first, one call per resource',
    () => base(''),
    (s) => {
      spec(s, 'foo1').resources = { requests: { cpu: '500m', memory: '128Mi' }, limits: { cpu: '1', memory: '256Mi' } };
      c(s, 'foo1').resources = { cpuShares: 102, cpuQuota: 20000, cpuPeriod: 100000, memoryLimitInBytes: 536870912 };
      spec(s, 'foo2').resources = { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '1Gi' } };
      c(s, 'foo2').resources = { cpuShares: 512, cpuQuota: 100000, cpuPeriod: 100000, memoryLimitInBytes: 134217728 };
    },
  ],
  [
    'Regression: a Guaranteed pod grows: the pod cgroup (UpdatePodSandboxResources) before the container',
    () => base(''),
    (s) => {
      for (const n of ['foo1', 'foo2', 'foo3']) {
        spec(s, n).resources = { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '100m', memory: '64Mi' } };
        c(s, n).resources = { cpuShares: 102, cpuQuota: 10000, cpuPeriod: 100000, memoryLimitInBytes: 67108864 };
      }
      spec(s, 'foo2').resources = {
        requests: { cpu: '300m', memory: '128Mi' },
        limits: { cpu: '300m', memory: '128Mi' },
      };
    },
  ],
  [
    'Regression: a Guaranteed pod with overhead shrinks: containers first, then the pod cgroup without the overhead',
    () => base(''),
    (s) => {
      s.pod.spec.overhead = { cpu: '250m', memory: '120Mi' };
      for (const n of ['foo1', 'foo2', 'foo3']) {
        spec(s, n).resources = { requests: { cpu: '200m', memory: '128Mi' }, limits: { cpu: '200m', memory: '128Mi' } };
        c(s, n).resources = { cpuShares: 204, cpuQuota: 20000, cpuPeriod: 100000, memoryLimitInBytes: 134217728 };
      }
      spec(s, 'foo3').resources = {
        requests: { cpu: '100m', memory: '64Mi' },
        limits: { cpu: '100m', memory: '64Mi' },
      };
    },
  ],
  [
    'Regression: pod-level limits, containers reported without them: only the CPU request differs',
    () => base(''),
    (s) => {
      s.pod.spec.resources = { limits: { cpu: '100m', memory: '100Mi' } };
      c(s, 'foo1').resources = { cpuShares: 2, cpuQuota: 0, cpuPeriod: 100000, memoryLimitInBytes: 0 };
      c(s, 'foo2').resources = { cpuShares: 102, cpuQuota: 10000, cpuPeriod: 100000, memoryLimitInBytes: 0 };
      c(s, 'foo3').resources = { cpuShares: 2, cpuQuota: 0, cpuPeriod: 100000, memoryLimitInBytes: 0 };
    },
    32, // pod-level resources are in the API from 1.32
  ],
  [
    'Regression: 1.37 resizes a running container before it starts a sidecar again',
    () => withInit('', true),
    (s) => {
      exited(c(s, 'init2'), 1);
      spec(s, 'foo1').resources = { requests: { cpu: '200m' }, limits: { cpu: '400m' } };
      c(s, 'foo1').resources = { cpuShares: 102, cpuQuota: 20000, cpuPeriod: 100000, memoryLimitInBytes: 0 };
    },
  ],
  [
    'Regression: a container started again with changed resources resizes the pod first (startingResizedContainer)',
    () => base(''),
    (s) => {
      spec(s, 'foo1').resources = { requests: { cpu: '500m', memory: '64Mi' }, limits: { memory: '64Mi' } };
      exited(c(s, 'foo1'), 1);
      c(s, 'foo1').resources = { cpuShares: 102, cpuQuota: 0, cpuPeriod: 100000, memoryLimitInBytes: 67108864 };
    },
  ],
  [
    'Regression: an image pulled for one container is present for a later container that never pulls',
    () => base(''),
    (s) => {
      s.sandboxes = [];
      s.containers = [];
      s.images = [];
      spec(s, 'foo2').imagePullPolicy = 'Never';
    },
  ],
  [
    'Regression: an image a container may never pull is missing: the sandbox is made, the container fails',
    () => base(''),
    (s) => {
      s.sandboxes = [];
      s.containers = [];
      s.images = [];
      for (const n of ['foo1', 'foo2', 'foo3']) spec(s, n).imagePullPolicy = 'Never';
    },
  ],
  // Several sandboxes of one pod whose attempts do not grow with their age: kubelet reads as newest
  // the latest created up to 1.34 and the highest attempt from 1.35 (src/kubelet/sandbox-order.ts).
  [
    'Regression: three sandboxes, the oldest READY with the highest attempt: 1.35+ keep it, up to 1.34 a new one',
    () => base(''),
    (s) => {
      s.sandboxes = [
        { id: 'sandboxID', attempt: 2, state: 'SANDBOX_READY', ip: '10.0.0.1', createdAgo: 3000 },
        { id: 'sandboxMid', attempt: 1, state: 'SANDBOX_NOTREADY', ip: '10.0.0.2', createdAgo: 2000 },
        { id: 'sandboxYoung', attempt: 0, state: 'SANDBOX_NOTREADY', ip: '10.0.0.3', createdAgo: 1000 },
      ];
    },
  ],
  [
    'Regression: two READY sandboxes, the older with the higher attempt: the new attempt follows the newest',
    () => base(''),
    (s) => {
      s.sandboxes = [
        { id: 'sandboxID', attempt: 3, state: 'SANDBOX_READY', ip: '10.0.0.1', createdAgo: 3000 },
        { id: 'sandboxYoung', attempt: 0, state: 'SANDBOX_READY', ip: '10.0.0.3', createdAgo: 1000 },
      ];
    },
  ],
  // TestSyncPod / TestSyncPodWithInitContainers
  [
    'TestSyncPod: a new pod: sandbox, image pulls, containers',
    () => base(''),
    (s) => {
      s.sandboxes = [];
      s.containers = [];
      s.images = [];
    },
  ],
  [
    'TestSyncPodWithInitContainers: a new pod with an init container: only the init container starts',
    () => withInit(''),
    (s) => {
      s.sandboxes = [];
      s.containers = [];
      s.images = [];
    },
  ],
];

/**
 * Which kubelet tests a minor has, by test name: the first minor with the behaviour, and the gates
 * that release's test turns on where it is not on by default (ContainerRestartRules is alpha in
 * 1.34, RestartAllContainersOnContainerExits alpha in 1.35; in-place resize is beta from 1.33).
 */
const BY_MINOR: Array<{ test: string; since: number; gates?: Record<number, Record<string, boolean>> }> = [
  { test: 'TestComputePodActionsWithContainerRestartRules', since: 34, gates: { 34: { ContainerRestartRules: true } } },
  {
    test: 'TestComputePodActionsForRestartAllContainers',
    since: 35,
    gates: { 35: { RestartAllContainersOnContainerExits: true } },
  },
  { test: 'TestComputePodActionsForPodResize', since: 33 },
];

/** The cases for a minor (those whose behaviour the minor has), with the gates its tests set. */
export function kubeletCases(minor: string): Scenario[] {
  const m = Number(minor.split('.')[1]);
  const rule = (name: string) => BY_MINOR.find((r) => name.startsWith(`${r.test}:`));
  return CASES.filter(([name, , , since]) => (!since || m >= since) && m >= (rule(name)?.since ?? 0)).map(
    ([name, make, mutate]) => {
      const s = make();
      s.name = name;
      mutate(s);
      const gates = rule(name)?.gates?.[m];
      if (gates) s.gates = { ...gates, ...s.gates };
      return s;
    },
  );
}
