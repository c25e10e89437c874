// kubelet's computePodActions tables (pkg/kubelet/kuberuntime/kuberuntime_manager_test.go:
// TestComputePodActions, ...WithInitContainers, ...WithInitContainersWithLegacySidecarContainers,
// ...WithRestartableInitContainers, ...WithInitAndEphemeralContainers, ...ForPodResize,
// ...WithContainerRestartRules, ...ForRestartAllContainers), re-expressed as syncpod tables on
// kubelet's own base pods and run against every mirrored minor that has the behaviour. Only
// kubelet's podActions fields are compared; messages and syncpod's reasons are not.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../src/kubelet/api-types';
import {
  computePodActions,
  type ComputePodActionsOptions,
  type PodActions,
  type ProbeResults,
} from '../../src/kubelet/compute-pod-actions';
import type { FeatureGates } from '../../src/kubelet/kubelet-version';
import type { ContainerResources, PodStatus } from '../../src/kubelet/types';
import {
  NOW,
  cstatus,
  hashAt,
  makeBasePodAndStatus,
  makeBasePodAndStatusWithInitAndEphemeralContainers,
  makeBasePodAndStatusWithInitContainers,
  makeBasePodAndStatusWithRestartableInitContainers,
} from '../fixtures/planner/kubelet-base';

interface Want {
  killPod: boolean;
  createSandbox: boolean;
  sandboxId: string;
  attempt: number;
  nextInit: string | null;
  init: number[];
  start: number[];
  ephemeral: number[];
  /** CRI ids of containersToKill. */
  kill: string[];
  /** [container name, resources updated in place]. */
  update: Array<[string, string[]]>;
  /** [CRI id, killed first] in kubelet's order. */
  reset: Array<[string, boolean]>;
}

const noAction: Want = {
  killPod: false,
  createSandbox: false,
  sandboxId: 'sandboxID',
  attempt: 0,
  nextInit: null,
  init: [],
  start: [],
  ephemeral: [],
  kill: [],
  update: [],
  reset: [],
};

function observed(a: PodActions): Want {
  return {
    killPod: a.killPod,
    createSandbox: a.createSandbox,
    sandboxId: a.sandboxId,
    attempt: a.attempt,
    nextInit: a.nextInitContainerToStart,
    init: a.initContainersToStart,
    start: a.containersToStart,
    ephemeral: a.ephemeralContainersToStart,
    kill: a.containersToKill.map((k) => k.containerId).sort(),
    update: a.containersToUpdate.map((u) => [u.name, [...u.resources].sort()] as [string, string[]]),
    reset: a.containersToReset.map((r) => [r.containerId, r.kill] as [string, boolean]),
  };
}

interface Case {
  name: string;
  mutatePod?: (pod: Pod) => void;
  mutateStatus?: (status: PodStatus, pod: Pod, version: string) => void;
  probes?: (status: PodStatus) => ProbeResults;
  /** What kubelet decides; a function where it differs by version. */
  want: Partial<Want> | ((version: string) => Partial<Want>);
}

type Base = (version: string) => { pod: Pod; status: PodStatus };

interface Run {
  version: string;
  gates?: FeatureGates;
  /** The legacy init path: kubelet names the next init container instead of listing it. */
  legacy?: boolean;
}

function runTable(
  table: string,
  base: Base,
  runs: Run[],
  cases: Case[],
  defaultProbes?: (status: PodStatus) => ProbeResults,
): void {
  for (const run of runs) {
    test(`${table} (kubelet ${run.version}${run.gates ? ` ${JSON.stringify(run.gates)}` : ''})`, () => {
      for (const c of cases) {
        const { pod, status } = base(run.version);
        const probes = (c.probes ?? defaultProbes)?.(status) ?? {};
        c.mutatePod?.(pod);
        c.mutateStatus?.(status, pod, run.version);
        const options: ComputePodActionsOptions = {
          kubeletVersion: run.version,
          featureGates: run.gates,
          probeResults: probes,
        };
        let want: Want = { ...noAction, ...(typeof c.want === 'function' ? c.want(run.version) : c.want) };
        if (run.legacy && want.init.length > 0) {
          want = { ...want, nextInit: pod.spec!.initContainers![want.init[0]].name, init: [] };
        }
        assert.deepEqual(observed(computePodActions(pod, status, options)), want, c.name);
      }
    });
  }
}

const exited = (code: number) => ({ state: 'exited' as const, exitCode: code, finishedAt: NOW + 1000 });
const policy = (p: 'Always' | 'OnFailure' | 'Never') => (pod: Pod) => {
  pod.spec!.restartPolicy = p;
};
const sandboxNotReady = (status: PodStatus) => {
  status.sandboxStatuses[0].state = 'notready';
};

const EVERY_MINOR: Run[] = ['1.29.9', '1.30.5', '1.31.1', '1.32', '1.33', '1.34', '1.35', '1.36', '1.37'].map(
  (version) => ({ version }),
);
/** Pods without a restartable init container: the legacy path through 1.32 (after the 1.29.9/1.30.5/1.31.1 fixes), the new one from 1.33. */
const INIT_RUNS: Run[] = [
  { version: '1.29.9', legacy: true },
  { version: '1.30.5', legacy: true },
  { version: '1.31.1', legacy: true },
  { version: '1.32', legacy: true },
  { version: '1.33' },
  { version: '1.34' },
  { version: '1.35' },
  { version: '1.36' },
  { version: '1.37' },
];

// TestComputePodActions
const computePodActionsCases: Case[] = [
  { name: 'everything is good; do nothing', want: {} },
  {
    name: 'start pod sandbox and all containers for a new pod',
    mutateStatus: (s) => {
      s.sandboxStatuses = [];
      s.containerStatuses = [];
    },
    want: { killPod: true, createSandbox: true, sandboxId: '', attempt: 0, start: [0, 1, 2] },
  },
  {
    name: 'restart exited containers if RestartPolicy == Always',
    mutatePod: policy('Always'),
    mutateStatus: (s) => {
      Object.assign(s.containerStatuses[0], exited(0));
      Object.assign(s.containerStatuses[1], exited(111));
    },
    want: { start: [0, 1] },
  },
  {
    name: 'restart failed containers if RestartPolicy == OnFailure',
    mutatePod: policy('OnFailure'),
    mutateStatus: (s) => {
      Object.assign(s.containerStatuses[0], exited(0));
      Object.assign(s.containerStatuses[1], exited(111));
    },
    want: { start: [1] },
  },
  {
    name: 'restart created but not started containers if RestartPolicy == OnFailure',
    mutatePod: policy('OnFailure'),
    mutateStatus: (s) => {
      Object.assign(s.containerStatuses[0], exited(0));
      s.containerStatuses[1].state = 'created';
    },
    want: { start: [1] },
  },
  {
    name: "don't restart containers if RestartPolicy == Never",
    mutatePod: policy('Never'),
    mutateStatus: (s) => {
      Object.assign(s.containerStatuses[0], exited(0));
      Object.assign(s.containerStatuses[1], exited(111));
    },
    want: {},
  },
  {
    name: 'kill pod and recreate everything if the pod sandbox is dead, and RestartPolicy == Always',
    mutatePod: policy('Always'),
    mutateStatus: sandboxNotReady,
    want: { killPod: true, createSandbox: true, attempt: 1, start: [0, 1, 2] },
  },
  {
    name: 'kill pod and recreate all containers (except for the succeeded one) if the pod sandbox is dead, and RestartPolicy == OnFailure',
    mutatePod: policy('OnFailure'),
    mutateStatus: (s) => {
      sandboxNotReady(s);
      Object.assign(s.containerStatuses[1], exited(0));
    },
    want: { killPod: true, createSandbox: true, attempt: 1, start: [0, 2] },
  },
  {
    // Regression (the 1.31 oracle): up to 1.31 containerSucceeded takes any stopped status with exit
    // code 0, so a container left in Created is not started again; from 1.32 only an exited one counts.
    name: 'sandbox dead, OnFailure, a container left in Created: started again from 1.32 only',
    mutatePod: policy('OnFailure'),
    mutateStatus: (s) => {
      sandboxNotReady(s);
      Object.assign(s.containerStatuses[1], { state: 'created', exitCode: 0 });
    },
    want: (version) => ({
      killPod: true,
      createSandbox: true,
      attempt: 1,
      start: Number(version.split('.')[1]) >= 32 ? [0, 1, 2] : [0, 2],
    }),
  },
  {
    name: 'kill pod and recreate all containers if the PodSandbox does not have an IP',
    mutateStatus: (s) => {
      s.sandboxStatuses[0].ip = '';
    },
    want: { killPod: true, createSandbox: true, attempt: 1, start: [0, 1, 2] },
  },
  {
    name: "kill and recreate the container if the container's spec changed",
    mutatePod: policy('Always'),
    mutateStatus: (s) => {
      s.containerStatuses[1].hash = '19c6b808';
    },
    want: { kill: ['id2'], start: [1] },
  },
  {
    name: 'kill and recreate the container if the liveness check has failed',
    mutatePod: policy('Always'),
    probes: () => ({ liveness: { id2: 'Failure' } }),
    want: { kill: ['id2'], start: [1] },
  },
  {
    name: 'kill and recreate the container if the startup check has failed',
    mutatePod: policy('Always'),
    probes: () => ({ startup: { id2: 'Failure' } }),
    want: { kill: ['id2'], start: [1] },
  },
  {
    name: 'do not create a pod sandbox if no ready sandbox for pod with RestartPolicy=Never and all containers exited',
    mutatePod: policy('Never'),
    mutateStatus: (s) => {
      sandboxNotReady(s);
      s.sandboxStatuses[0].attempt = 1;
      for (const c of s.containerStatuses) Object.assign(c, exited(0));
    },
    want: { killPod: true, createSandbox: false, attempt: 2 },
  },
  {
    name: 'do not create a pod sandbox if no ready sandbox for pod with RestartPolicy=OnFailure and all containers succeeded',
    mutatePod: policy('OnFailure'),
    mutateStatus: (s) => {
      sandboxNotReady(s);
      s.sandboxStatuses[0].attempt = 1;
      for (const c of s.containerStatuses) Object.assign(c, exited(0));
    },
    want: { killPod: true, createSandbox: false, attempt: 2 },
  },
  {
    name: 'create a pod sandbox if no ready sandbox for pod with RestartPolicy=Never and no containers have ever been created',
    mutatePod: policy('Never'),
    mutateStatus: (s) => {
      sandboxNotReady(s);
      s.sandboxStatuses[0].attempt = 2;
      s.containerStatuses = [];
    },
    want: { killPod: true, createSandbox: true, attempt: 3, start: [0, 1, 2] },
  },
  {
    name: 'kill and recreate the container if the container is in unknown state',
    mutatePod: policy('Never'),
    mutateStatus: (s) => {
      s.containerStatuses[1].state = 'unknown';
    },
    want: { kill: ['id2'], start: [1] },
  },
  {
    name: 'restart the container if the container is in created state',
    mutatePod: policy('Never'),
    mutateStatus: (s) => {
      s.containerStatuses[1].state = 'created';
    },
    want: { start: [1] },
  },
];
runTable('TestComputePodActions', makeBasePodAndStatus, EVERY_MINOR, computePodActionsCases);
// kubelet runs the same table again with ContainerRestartRules on (1.34 alpha, default from 1.35).
runTable(
  'TestComputePodActions with ContainerRestartRules',
  makeBasePodAndStatus,
  [{ version: '1.34', gates: { ContainerRestartRules: true } }],
  computePodActionsCases,
);

// TestComputePodActionsWithInitContainers (and, for the legacy path, ...WithLegacySidecarContainers)
const initContainerCases: Case[] = [
  { name: 'initialization completed; start all containers', want: { start: [0, 1, 2] } },
  {
    name: 'no init containers have been started; start the first one',
    mutateStatus: (s) => {
      s.containerStatuses = [];
    },
    want: { init: [0] },
  },
  {
    name: 'initialization in progress; do nothing',
    mutatePod: policy('Always'),
    mutateStatus: (s) => {
      s.containerStatuses[2].state = 'running';
    },
    want: {},
  },
  {
    name: 'kill pod and restart the first init container if the pod sandbox is dead',
    mutatePod: policy('Always'),
    mutateStatus: sandboxNotReady,
    want: { killPod: true, createSandbox: true, attempt: 1, init: [0] },
  },
  {
    name: 'initialization failed; restart the last init container if RestartPolicy == Always',
    mutatePod: policy('Always'),
    mutateStatus: (s) => {
      s.containerStatuses[2].exitCode = 137;
    },
    want: { init: [2] },
  },
  {
    name: 'initialization failed; restart the last init container if RestartPolicy == OnFailure',
    mutatePod: policy('OnFailure'),
    mutateStatus: (s) => {
      s.containerStatuses[2].exitCode = 137;
    },
    want: { init: [2] },
  },
  {
    name: 'initialization failed; kill pod if RestartPolicy == Never',
    mutatePod: policy('Never'),
    mutateStatus: (s) => {
      s.containerStatuses[2].exitCode = 137;
    },
    want: { killPod: true },
  },
  {
    name: 'init container state unknown; kill and recreate the last init container if RestartPolicy == Always',
    mutatePod: policy('Always'),
    mutateStatus: (s) => {
      s.containerStatuses[2].state = 'unknown';
    },
    want: { init: [2], kill: ['initid3'] },
  },
  {
    name: 'init container state unknown; kill and recreate the last init container if RestartPolicy == OnFailure',
    mutatePod: policy('OnFailure'),
    mutateStatus: (s) => {
      s.containerStatuses[2].state = 'unknown';
    },
    want: { init: [2], kill: ['initid3'] },
  },
  {
    name: 'init container state unknown; kill pod if RestartPolicy == Never',
    mutatePod: policy('Never'),
    mutateStatus: (s) => {
      s.containerStatuses[2].state = 'unknown';
    },
    want: { killPod: true },
  },
  {
    name: 'pod sandbox not ready, init container failed, but RestartPolicy == Never; kill pod only',
    mutatePod: policy('Never'),
    mutateStatus: sandboxNotReady,
    want: { killPod: true, createSandbox: false, attempt: 1 },
  },
  {
    name: 'pod sandbox not ready, and RestartPolicy == Never, but no visible init containers; create a new pod sandbox',
    mutatePod: policy('Never'),
    mutateStatus: (s) => {
      sandboxNotReady(s);
      s.containerStatuses = [];
    },
    want: { killPod: true, createSandbox: true, attempt: 1, init: [0] },
  },
  {
    name: 'pod sandbox not ready, init container failed, and RestartPolicy == OnFailure; create a new pod sandbox',
    mutatePod: policy('OnFailure'),
    mutateStatus: (s) => {
      sandboxNotReady(s);
      s.containerStatuses[2].exitCode = 137;
    },
    want: { killPod: true, createSandbox: true, attempt: 1, init: [0] },
  },
  {
    name: "some of the init container statuses are missing but the last init container is running, don't restart preceding ones",
    mutatePod: policy('Always'),
    mutateStatus: (s) => {
      s.containerStatuses[2].state = 'running';
      s.containerStatuses = s.containerStatuses.slice(2);
    },
    want: {},
  },
  {
    name: 'an init container is in the created state due to an unknown error when starting container; restart it',
    mutatePod: policy('Always'),
    mutateStatus: (s) => {
      s.containerStatuses[2].state = 'created';
    },
    want: { init: [2] },
  },
];
runTable(
  'TestComputePodActionsWithInitContainers',
  makeBasePodAndStatusWithInitContainers,
  INIT_RUNS,
  initContainerCases,
);
runTable(
  'TestComputePodActionsWithInitContainersWithLegacySidecarContainers',
  makeBasePodAndStatusWithInitContainers,
  [{ version: '1.33', gates: { LegacySidecarContainers: true }, legacy: true }],
  initContainerCases,
);
runTable(
  'TestComputePodActionsWithInitContainers with ContainerRestartRules',
  makeBasePodAndStatusWithInitContainers,
  [{ version: '1.34', gates: { ContainerRestartRules: true } }],
  initContainerCases,
);

// TestComputePodActionsWithRestartableInitContainers: the base has startup and liveness Success
// for restartable-init-2 and -3 (initid2, initid3).
const sidecarProbes = (): ProbeResults => ({
  liveness: { initid2: 'Success', initid3: 'Success' },
  startup: { initid2: 'Success', initid3: 'Success' },
});
const restartableInitCases: Case[] = [
  { name: 'initialization completed; start all containers', want: { start: [0, 1, 2] } },
  {
    name: 'no init containers have been started; start the first one',
    mutateStatus: (s) => {
      s.containerStatuses = [];
    },
    want: { init: [0] },
  },
  {
    name: 'an init container is stuck in the created state; restart it',
    mutatePod: policy('Always'),
    mutateStatus: (s) => {
      s.containerStatuses[2].state = 'created';
    },
    want: { init: [2] },
  },
  {
    name: 'restartable init container has started; start the next',
    mutatePod: policy('Always'),
    mutateStatus: (s) => {
      s.containerStatuses = s.containerStatuses.slice(0, 1);
    },
    want: { init: [1] },
  },
  {
    name: 'livenessProbe has not been run; start the next',
    mutatePod: policy('Always'),
    probes: () => ({ liveness: { initid3: 'Success' }, startup: { initid2: 'Success', initid3: 'Success' } }),
    mutateStatus: (s) => {
      s.containerStatuses = s.containerStatuses.slice(0, 2);
    },
    want: { init: [2] },
  },
  {
    name: 'livenessProbe in progress; start the next',
    mutatePod: policy('Always'),
    probes: () => ({
      liveness: { initid2: 'Unknown', initid3: 'Success' },
      startup: { initid2: 'Success', initid3: 'Success' },
    }),
    mutateStatus: (s) => {
      s.containerStatuses = s.containerStatuses.slice(0, 2);
    },
    want: { init: [2] },
  },
  {
    name: 'livenessProbe has completed; start the next',
    mutatePod: policy('Always'),
    mutateStatus: (s) => {
      s.containerStatuses = s.containerStatuses.slice(0, 2);
    },
    want: { init: [2] },
  },
  {
    name: 'kill and recreate the restartable init container if the liveness check has failed',
    mutatePod: policy('Always'),
    probes: () => ({
      liveness: { initid2: 'Success', initid3: 'Failure' },
      startup: { initid2: 'Success', initid3: 'Success' },
    }),
    want: { init: [2], kill: ['initid3'], start: [0, 1, 2] },
  },
  {
    name: 'startupProbe has not been run; do nothing',
    mutatePod: policy('Always'),
    probes: () => ({ liveness: { initid2: 'Success', initid3: 'Success' }, startup: { initid3: 'Success' } }),
    mutateStatus: (s) => {
      s.containerStatuses = s.containerStatuses.slice(0, 2);
    },
    want: {},
  },
  {
    name: 'startupProbe in progress; do nothing',
    mutatePod: policy('Always'),
    probes: () => ({
      liveness: { initid2: 'Success', initid3: 'Success' },
      startup: { initid2: 'Unknown', initid3: 'Success' },
    }),
    mutateStatus: (s) => {
      s.containerStatuses = s.containerStatuses.slice(0, 2);
    },
    want: {},
  },
  {
    name: 'startupProbe has completed; start the next',
    mutatePod: policy('Always'),
    mutateStatus: (s) => {
      s.containerStatuses = s.containerStatuses.slice(0, 2);
    },
    want: { init: [2] },
  },
  {
    name: 'kill and recreate the restartable init container if the startup check has failed',
    mutatePod: policy('Always'),
    probes: () => ({
      liveness: { initid2: 'Success', initid3: 'Success' },
      startup: { initid2: 'Success', initid3: 'Failure' },
    }),
    want: { init: [2], kill: ['initid3'] },
  },
  {
    name: 'kill and recreate the restartable init container if the container definition changes',
    mutatePod: (pod) => {
      pod.spec!.restartPolicy = 'Always';
      pod.spec!.initContainers![2].image = 'foo-image';
    },
    // New in 1.32: kubelet v1.31.14 leaves a running sidecar whose spec changed alone (its oracle).
    want: (version) =>
      Number(version.split('.')[1]) >= 32 ? { init: [2], kill: ['initid3'], start: [0, 1, 2] } : { start: [0, 1, 2] },
  },
  {
    name: 'restart terminated restartable init container and next init container',
    mutatePod: policy('Always'),
    mutateStatus: (s) => {
      s.containerStatuses[0].state = 'exited';
      s.containerStatuses[2].state = 'exited';
    },
    want: { init: [0, 2] },
  },
  {
    name: 'restart terminated restartable init container and regular containers',
    mutatePod: policy('Always'),
    mutateStatus: (s) => {
      s.containerStatuses[0].state = 'exited';
    },
    want: { init: [0], start: [0, 1, 2] },
  },
  {
    name: 'pod sandbox not ready, restartable init container failed, but RestartPolicy == Never; kill pod only',
    mutatePod: policy('Never'),
    mutateStatus: (s) => {
      sandboxNotReady(s);
      Object.assign(s.containerStatuses[2], exited(137));
    },
    want: { killPod: true, createSandbox: false, attempt: 1 },
  },
  {
    name: 'pod sandbox not ready, and RestartPolicy == Never, but no visible restartable init containers; create a new pod sandbox',
    mutatePod: policy('Never'),
    mutateStatus: (s) => {
      sandboxNotReady(s);
      s.containerStatuses = [];
    },
    want: { killPod: true, createSandbox: true, attempt: 1, init: [0] },
  },
  {
    name: 'pod sandbox not ready, restartable init container failed, and RestartPolicy == OnFailure; create a new pod sandbox',
    mutatePod: policy('OnFailure'),
    mutateStatus: (s) => {
      sandboxNotReady(s);
      Object.assign(s.containerStatuses[2], exited(137));
    },
    want: { killPod: true, createSandbox: true, attempt: 1, init: [0] },
  },
  {
    name: 'pod sandbox not ready, restartable init container failed, and RestartPolicy == Always; create a new pod sandbox',
    mutatePod: policy('Always'),
    mutateStatus: (s) => {
      sandboxNotReady(s);
      Object.assign(s.containerStatuses[2], exited(137));
    },
    want: { killPod: true, createSandbox: true, attempt: 1, init: [0] },
  },
  {
    name: "initialization failed; restart the last restartable init container even if pod's RestartPolicy == Never",
    mutatePod: policy('Never'),
    mutateStatus: (s) => {
      Object.assign(s.containerStatuses[2], exited(137));
    },
    want: { init: [2] },
  },
  {
    name: "restartable init container state unknown; kill and recreate the last restartable init container even if pod's RestartPolicy == Never",
    mutatePod: policy('Never'),
    mutateStatus: (s) => {
      s.containerStatuses[2].state = 'unknown';
    },
    want: { init: [2], kill: ['initid3'] },
  },
  {
    name: "restart restartable init container if regular containers are running even if pod's RestartPolicy == Never",
    mutatePod: policy('Never'),
    mutateStatus: (s, pod, version) => {
      Object.assign(s.containerStatuses[2], exited(137));
      pod.spec!.containers.forEach((c, i) =>
        s.containerStatuses.push(cstatus(`id${i + 1}`, c.name, 'running', hashAt(version, c))),
      );
    },
    want: { init: [2] },
  },
  {
    name: "kill the pod if all main containers succeeded if pod's RestartPolicy == Never",
    mutatePod: policy('Never'),
    mutateStatus: (s, pod, version) => {
      pod.spec!.containers.forEach((c, i) =>
        s.containerStatuses.push(cstatus(`id${i + 1}`, c.name, 'exited', hashAt(version, c))),
      );
    },
    want: { killPod: true },
  },
  {
    name: 'some of the init container statuses are missing but the last init container is running, restart restartable init and regular containers',
    mutatePod: policy('Always'),
    mutateStatus: (s) => {
      s.containerStatuses = s.containerStatuses.slice(2);
    },
    want: { init: [0, 1], start: [0, 1, 2] },
  },
];
runTable(
  'TestComputePodActionsWithRestartableInitContainers',
  makeBasePodAndStatusWithRestartableInitContainers,
  EVERY_MINOR,
  restartableInitCases,
  sidecarProbes,
);

// TestComputePodActionsWithInitAndEphemeralContainers (and ...WithLegacySidecarContainers)
const ephemeralCases: Case[] = [
  { name: 'steady state; do nothing; ignore ephemeral container', want: {} },
  {
    name: 'no ephemeral containers running; start one',
    mutateStatus: (s) => {
      s.containerStatuses = s.containerStatuses.slice(0, 4);
    },
    want: { ephemeral: [0] },
  },
  {
    name: 'start second ephemeral container',
    mutatePod: (pod) => {
      pod.spec!.ephemeralContainers!.push({ name: 'debug2', image: 'busybox' });
    },
    want: { ephemeral: [1] },
  },
  {
    name: 'ephemeral container exited; do not restart',
    mutatePod: policy('Always'),
    mutateStatus: (s) => {
      s.containerStatuses[4].state = 'exited';
    },
    want: {},
  },
  {
    name: 'initialization in progress; start ephemeral container',
    mutateStatus: (s) => {
      s.containerStatuses[3].state = 'running';
      s.containerStatuses = s.containerStatuses.slice(0, 4);
    },
    want: { ephemeral: [0] },
  },
  {
    name: 'create a new pod sandbox if the pod sandbox is dead, init container failed and RestartPolicy == OnFailure',
    mutatePod: policy('OnFailure'),
    mutateStatus: (s) => {
      sandboxNotReady(s);
      s.containerStatuses = s.containerStatuses.slice(3);
      s.containerStatuses[0].exitCode = 137;
    },
    want: { killPod: true, createSandbox: true, attempt: 1, init: [0] },
  },
  {
    name: 'kill pod and do not restart ephemeral container if the pod sandbox is dead',
    mutatePod: policy('Always'),
    mutateStatus: sandboxNotReady,
    want: { killPod: true, createSandbox: true, attempt: 1, init: [0] },
  },
  {
    name: 'kill pod if all containers exited except ephemeral container',
    mutatePod: policy('Never'),
    mutateStatus: (s) => {
      for (let i = 0; i < 3; i++) Object.assign(s.containerStatuses[i], exited(0));
    },
    want: { killPod: true },
  },
  {
    name: 'ephemeral container is in unknown state; leave it alone',
    mutatePod: policy('Never'),
    mutateStatus: (s) => {
      s.containerStatuses[4].state = 'unknown';
    },
    want: {},
  },
];
runTable(
  'TestComputePodActionsWithInitAndEphemeralContainers',
  makeBasePodAndStatusWithInitAndEphemeralContainers,
  INIT_RUNS,
  ephemeralCases,
);
runTable(
  'TestComputePodActionsWithInitAndEphemeralContainersWithLegacySidecarContainers',
  makeBasePodAndStatusWithInitAndEphemeralContainers,
  [{ version: '1.33', gates: { LegacySidecarContainers: true }, legacy: true }],
  ephemeralCases,
);

// TestComputePodActionsForPodResize: kubelet's current resources (CPU request/limit, memory limit)
// written as the runtime reports them for a container created with those values.
const PERIOD = 100_000;
const Mi = 1024 * 1024;
/** What the runtime reports for a container created with these CPU (milli) and memory (bytes) values. */
function reported(r: { cpuRequest?: number; cpuLimit?: number; memoryLimit?: number }): ContainerResources {
  const shares = (m: number) => Math.max(2, Math.floor((m * 1024) / 1000));
  const quota = (m: number) => (m === 0 ? 0 : Math.max(1000, Math.floor((m * PERIOD) / 1000)));
  return {
    cpuShares: shares(r.cpuRequest ?? r.cpuLimit ?? 0),
    cpuQuota: quota(r.cpuLimit ?? 0),
    cpuPeriod: PERIOD,
    memoryLimitInBytes: r.memoryLimit ?? 0,
  };
}
type Res = { limits?: Record<string, string>; requests?: Record<string, string> };
/** Container `index` gets `spec` (and a resize policy); the runtime reports `current` for it. */
function resize(
  index: number,
  spec: Res,
  current: Parameters<typeof reported>[0],
  policies: { cpu: string; memory: string } = { cpu: 'NotRequired', memory: 'NotRequired' },
): Pick<Case, 'mutatePod' | 'mutateStatus'> {
  return {
    mutatePod: (pod) => {
      for (const c of pod.spec!.containers) {
        c.resizePolicy = [
          { resourceName: 'cpu', restartPolicy: 'NotRequired' },
          { resourceName: 'memory', restartPolicy: 'NotRequired' },
        ];
      }
      const c = pod.spec!.containers[index];
      c.resources = spec;
      c.resizePolicy = [
        { resourceName: 'cpu', restartPolicy: policies.cpu },
        { resourceName: 'memory', restartPolicy: policies.memory },
      ];
    },
    mutateStatus: (s) => {
      s.containerStatuses[index].resources = reported(current);
    },
  };
}
const resizeCases: Case[] = [
  {
    name: 'update container CPU and memory resources',
    ...resize(1, { limits: { cpu: '100m', memory: '100Mi' } }, { cpuLimit: 200, memoryLimit: 200 * Mi }),
    want: { update: [['foo2', ['cpu', 'memory']]] },
  },
  {
    name: 'update container CPU resources',
    ...resize(1, { limits: { cpu: '100m', memory: '100Mi' } }, { cpuLimit: 200, memoryLimit: 100 * Mi }),
    want: { update: [['foo2', ['cpu']]] },
  },
  {
    name: 'update container memory resources',
    ...resize(2, { limits: { cpu: '200m', memory: '200Mi' } }, { cpuLimit: 200, memoryLimit: 100 * Mi }),
    want: { update: [['foo3', ['memory']]] },
  },
  {
    name: 'nothing when spec.Resources and status.Resources are equal',
    ...resize(1, { limits: { cpu: '200m' } }, { cpuLimit: 200 }),
    want: {},
  },
  {
    name: 'nothing when spec.Resources and status.Resources are equivalent',
    ...resize(1, {}, { cpuRequest: 2 }),
    want: {},
  },
  {
    name: 'update container CPU resources to equivalent value',
    ...resize(1, { requests: { cpu: '1m' }, limits: { cpu: '1m' } }, { cpuRequest: 2, cpuLimit: 10 }),
    want: {},
  },
  {
    name: 'update container CPU and memory resources with Restart policy for CPU',
    ...resize(
      0,
      { limits: { cpu: '200m', memory: '200Mi' } },
      { cpuLimit: 100, memoryLimit: 100 * Mi },
      { cpu: 'RestartContainer', memory: 'NotRequired' },
    ),
    want: { kill: ['id1'], start: [0] },
  },
  {
    name: 'update container CPU and memory resources with Restart policy for memory',
    ...resize(
      2,
      { limits: { cpu: '200m', memory: '200Mi' } },
      { cpuLimit: 100, memoryLimit: 100 * Mi },
      { cpu: 'NotRequired', memory: 'RestartContainer' },
    ),
    want: { kill: ['id3'], start: [2] },
  },
  {
    name: 'update container memory resources with Restart policy for CPU',
    ...resize(
      1,
      { limits: { cpu: '100m', memory: '200Mi' } },
      { cpuLimit: 100, memoryLimit: 100 * Mi },
      { cpu: 'RestartContainer', memory: 'NotRequired' },
    ),
    want: { update: [['foo2', ['memory']]] },
  },
  {
    name: 'update container CPU resources with Restart policy for memory',
    ...resize(
      2,
      { limits: { cpu: '200m', memory: '100Mi' } },
      { cpuLimit: 100, memoryLimit: 100 * Mi },
      { cpu: 'NotRequired', memory: 'RestartContainer' },
    ),
    want: { update: [['foo3', ['cpu']]] },
  },
];
runTable(
  'TestComputePodActionsForPodResize',
  makeBasePodAndStatus,
  ['1.33', '1.34', '1.35', '1.36', '1.37'].map((version) => ({ version })),
  resizeCases,
);

// Pod-level resources (PodLevelResources, on from 1.34): a container without limits of its own is
// created with the pod's limits (kuberuntime_container_linux.go), and kubelet's resize decision
// compares with those same defaulted limits (containerResourcesFromRequirements in
// natasha41575/kubernetes@1a51be50 kuberuntime_manager.go; kubelet's case "Update pod-level limits
// does not mutate container resources"). syncpod compares with what the runtime reports, so the
// defaulted limits are the desired ones: a pod created that way is left alone, and a container
// the runtime reports without them is updated to them.
const podLimits = (pod: Pod) => {
  pod.spec!.resources = { limits: { cpu: '100m', memory: '100Mi' } };
};
const podLevelResizeCases: Case[] = [
  {
    name: 'containers created with the pod-level limits are not resized',
    mutatePod: podLimits,
    mutateStatus: (s) => {
      for (const c of s.containerStatuses) c.resources = reported({ cpuLimit: 100, memoryLimit: 100 * Mi });
    },
    want: {},
  },
  {
    // What kubelet v1.37.2 does for this state (the oracle's case "pod-level limits, containers
    // reported without them"): a limit the runtime reports as unset is no limit in the actuated
    // record, which the pod-level limit then fills again; only the CPU request differs (shares 2
    // read back as 1m against none asked), so only CPU is updated.
    name: 'containers the runtime reports without the pod-level limits: only their CPU request differs',
    mutatePod: podLimits,
    mutateStatus: (s) => {
      s.containerStatuses[0].resources = reported({});
      s.containerStatuses[1].resources = reported({ cpuLimit: 100 });
      s.containerStatuses[2].resources = reported({});
    },
    want: {
      update: [
        ['foo1', ['cpu']],
        ['foo3', ['cpu']],
      ],
    },
  },
];
runTable(
  'TestComputePodActionsForPodResize: pod-level limits',
  makeBasePodAndStatus,
  ['1.34', '1.35', '1.36', '1.37'].map((version) => ({ version })),
  podLevelResizeCases,
);

// TestComputePodActionsWithContainerRestartRules
const restartRuleCases: Case[] = [
  {
    name: 'restart exited containers if the container restartPolicy is Always',
    mutatePod: (pod) => {
      pod.spec!.containers[0].restartPolicy = 'Always';
      pod.spec!.containers[1].restartPolicy = 'Always';
      pod.spec!.restartPolicy = 'Never';
    },
    mutateStatus: (s) => {
      Object.assign(s.containerStatuses[0], exited(0));
      Object.assign(s.containerStatuses[1], exited(111));
    },
    want: { start: [0, 1] },
  },
  {
    name: 'restart failed containers if the container restartPolicy is OnFailure',
    mutatePod: (pod) => {
      pod.spec!.containers[0].restartPolicy = 'OnFailure';
      pod.spec!.containers[1].restartPolicy = 'OnFailure';
      pod.spec!.restartPolicy = 'Never';
    },
    mutateStatus: (s) => {
      Object.assign(s.containerStatuses[0], exited(0));
      Object.assign(s.containerStatuses[1], exited(111));
    },
    want: { start: [1] },
  },
  {
    name: 'restart created but not started containers if the container restartPolicy is OnFailure',
    mutatePod: (pod) => {
      pod.spec!.containers[0].restartPolicy = 'OnFailure';
      pod.spec!.containers[1].restartPolicy = 'OnFailure';
      pod.spec!.restartPolicy = 'Never';
    },
    mutateStatus: (s) => {
      Object.assign(s.containerStatuses[0], exited(0));
      s.containerStatuses[1].state = 'created';
    },
    want: { start: [1] },
  },
  {
    name: "don't restart containers if the container restartPolicy is Never",
    mutatePod: (pod) => {
      pod.spec!.containers[0].restartPolicy = 'Never';
      pod.spec!.containers[1].restartPolicy = 'Never';
      pod.spec!.restartPolicy = 'Always';
    },
    mutateStatus: (s) => {
      Object.assign(s.containerStatuses[0], exited(0));
      Object.assign(s.containerStatuses[1], exited(111));
    },
    want: {},
  },
  {
    name: 'kill pod and recreate all containers (except for the succeeded one) if the pod sandbox is dead',
    mutatePod: (pod) => {
      pod.spec!.containers[1].restartPolicy = 'OnFailure';
      pod.spec!.restartPolicy = 'Always';
    },
    mutateStatus: (s) => {
      sandboxNotReady(s);
      Object.assign(s.containerStatuses[1], exited(0));
    },
    want: { killPod: true, createSandbox: true, attempt: 1, start: [0, 2] },
  },
];
runTable(
  'TestComputePodActionsWithContainerRestartRules',
  makeBasePodAndStatus,
  [
    { version: '1.34', gates: { ContainerRestartRules: true } },
    { version: '1.35' },
    { version: '1.36' },
    { version: '1.37' },
  ],
  restartRuleCases,
);

// TestComputePodActionsForRestartAllContainers: the pod's status carries the
// AllContainersRestarting condition, as kubelet's pod object does.
const restartAllRule = [{ action: 'RestartAllContainers', exitCodes: { operator: 'In', values: [1] } }];
const condition = (value: 'True' | 'False') => (pod: Pod) => {
  pod.status = { conditions: [{ type: 'AllContainersRestarting', status: value }] };
};
const restartAllCases: Case[] = [
  { name: 'pod not marked for RestartAllContainers', mutatePod: condition('False'), want: {} },
  {
    name: 'pod marked for RestartAllContainers',
    mutatePod: condition('True'),
    want: {
      reset: [
        ['id1', true],
        ['id2', true],
        ['id3', true],
      ],
    },
  },
  {
    name: 'removes past terminated statuses',
    mutatePod: (pod) => {
      pod.spec!.restartPolicy = 'Always';
      pod.spec!.containers[2].restartPolicy = 'Always';
      pod.spec!.containers[2].restartPolicyRules = restartAllRule;
      condition('True')(pod);
    },
    mutateStatus: (s) => {
      Object.assign(s.containerStatuses[2], exited(1));
      for (const n of [1, 2, 3])
        s.containerStatuses.push(
          cstatus(`id${n}-past`, `foo${n}`, 'exited', '', { exitCode: 99, createdAt: NOW - 60_000 }),
        );
    },
    want: {
      reset: [
        ['id1', true],
        ['id1-past', false],
        ['id2', true],
        ['id2-past', false],
        ['id3-past', false],
        ['id3', false],
      ],
    },
  },
  {
    name: 'all containers removed, start regular container',
    mutateStatus: (s) => {
      s.containerStatuses = [];
    },
    want: { start: [0, 1, 2] },
  },
];
runTable(
  'TestComputePodActionsForRestartAllContainers',
  makeBasePodAndStatus,
  [
    { version: '1.35', gates: { RestartAllContainersOnContainerExits: true } },
    { version: '1.36' },
    { version: '1.37' },
  ],
  restartAllCases,
);

// TestComputePodActionsForRestartAllContainers, the cases on the init-container bases (kubelet
// 1.37 master, natasha41575/kubernetes@1a51be50 kuberuntime_manager_test.go): every instance of an
// init or regular container is reset, running ones killed first; the containers whose exit matched
// a RestartAllContainers rule come last.
const RESTART_ALL_RUNS: Run[] = [
  { version: '1.35', gates: { RestartAllContainersOnContainerExits: true } },
  { version: '1.36' },
  { version: '1.37' },
];
runTable(
  'TestComputePodActionsForRestartAllContainers: init containers',
  makeBasePodAndStatusWithInitContainers,
  RESTART_ALL_RUNS,
  [
    {
      name: 'marked pod with exited init containers: each is removed without a kill',
      mutatePod: condition('True'),
      want: {
        reset: [
          ['initid1', false],
          ['initid2', false],
          ['initid3', false],
        ],
      },
    },
    {
      name: 'the last init container exits with a RestartAllContainers code while the second runs as a sidecar',
      mutatePod: (pod) => {
        pod.spec!.initContainers![1].restartPolicy = 'Always';
        pod.spec!.initContainers![2].restartPolicy = 'Never';
        pod.spec!.initContainers![2].restartPolicyRules = restartAllRule;
        condition('True')(pod);
      },
      mutateStatus: (s, pod, version) => {
        // The sidecar's hash is the one of its own (now restartable) spec.
        s.containerStatuses[1] = cstatus('initid2', 'init2', 'running', hashAt(version, pod.spec!.initContainers![1]));
        s.containerStatuses[2].exitCode = 1;
      },
      want: {
        reset: [
          ['initid1', false],
          ['initid2', true],
          ['initid3', false],
        ],
      },
    },
    {
      name: 'everything removed: the pod starts again from its first init container',
      mutateStatus: (s) => {
        s.containerStatuses = [];
      },
      want: { init: [0] },
    },
  ],
);
runTable(
  'TestComputePodActionsForRestartAllContainers: sidecars',
  makeBasePodAndStatusWithRestartableInitContainers,
  RESTART_ALL_RUNS,
  [
    {
      name: 'marked pod with running sidecars: each is killed and removed',
      mutatePod: condition('True'),
      want: {
        reset: [
          ['initid1', true],
          ['initid2', true],
          ['initid3', true],
        ],
      },
    },
    {
      name: 'a sidecar exits with a RestartAllContainers code: the regular container first, then the other sidecars, the trigger last',
      mutatePod: (pod) => {
        pod.spec!.initContainers![2].restartPolicyRules = restartAllRule;
        condition('True')(pod);
      },
      mutateStatus: (s, pod, version) => {
        Object.assign(s.containerStatuses[2], exited(1));
        s.containerStatuses.push(cstatus('id1', 'foo1', 'running', hashAt(version, pod.spec!.containers[0])));
      },
      want: {
        reset: [
          ['id1', true],
          ['initid1', true],
          ['initid2', true],
          ['initid3', false],
        ],
      },
    },
    {
      name: 'a regular container exits with a RestartAllContainers code: running regulars, then the sidecars, the trigger last',
      mutatePod: (pod) => {
        pod.spec!.containers[2].restartPolicy = 'Never';
        pod.spec!.containers[2].restartPolicyRules = restartAllRule;
        condition('True')(pod);
      },
      mutateStatus: (s, pod, version) => {
        s.containerStatuses.push(
          cstatus('id1', 'foo1', 'running', hashAt(version, pod.spec!.containers[0])),
          cstatus('id2', 'foo2', 'running', hashAt(version, pod.spec!.containers[1])),
          cstatus('id3', 'foo3', 'exited', hashAt(version, pod.spec!.containers[2]), { exitCode: 1 }),
        );
      },
      want: {
        reset: [
          ['id1', true],
          ['id2', true],
          ['initid1', true],
          ['initid2', true],
          ['initid3', true],
          ['id3', false],
        ],
      },
    },
  ],
);
// kubelet runs its TestComputePodActions and ...WithInitContainers tables again with
// ContainerRestartRules and RestartAllContainersOnContainerExits on: nothing changes for pods
// without restart-all rules.
runTable(
  'TestComputePodActions with RestartAllContainersOnContainerExits',
  makeBasePodAndStatus,
  [{ version: '1.35', gates: { RestartAllContainersOnContainerExits: true } }],
  computePodActionsCases,
);
runTable(
  'TestComputePodActionsWithInitContainers with RestartAllContainersOnContainerExits',
  makeBasePodAndStatusWithInitContainers,
  [{ version: '1.35', gates: { RestartAllContainersOnContainerExits: true } }],
  initContainerCases,
);

// RestartAllContainers with init containers and a sidecar: kubelet's restart-all branch of
// computePodActions (kuberuntime_manager.go) lists containersToReset as regular targets, init
// targets, regular sources, init sources: the containers that triggered the restart go last, and
// running ones are killed first. The init container has restartPolicy Never with a rule, the shape
// of kubelet's own RestartAllContainers cases.
const restartAllInitBase: Base = (version) => {
  const { pod, status } = makeBasePodAndStatus(version);
  pod.spec!.initContainers = [
    { name: 'sidecar', image: 'bar-image', restartPolicy: 'Always' },
    { name: 'init', image: 'bar-image', restartPolicy: 'Never', restartPolicyRules: restartAllRule },
  ];
  pod.spec!.containers[1].restartPolicy = 'Never';
  pod.spec!.containers[1].restartPolicyRules = restartAllRule;
  status.containerStatuses.push(
    cstatus('sidecarid', 'sidecar', 'running', hashAt(version, pod.spec!.initContainers[0])),
    cstatus('initid', 'init', 'exited', hashAt(version, pod.spec!.initContainers[1])),
  );
  return { pod, status };
};
const restartAllInitCases: Case[] = [
  {
    name: 'a regular container exits with a RestartAllContainers code: regular and init containers are reset, the trigger last',
    mutateStatus: (s) => Object.assign(s.containerStatuses[1], exited(1)),
    want: {
      reset: [
        ['id1', true],
        ['id3', true],
        ['sidecarid', true],
        ['initid', false],
        ['id2', false],
      ],
    },
  },
  {
    name: 'an init container exits with a RestartAllContainers code: the sidecar is killed, the init container removed last',
    mutateStatus: (s) => {
      s.containerStatuses = s.containerStatuses.filter((c) => c.name === 'sidecar' || c.name === 'init');
      Object.assign(s.containerStatuses[1], exited(1));
    },
    want: {
      reset: [
        ['sidecarid', true],
        ['initid', false],
      ],
    },
  },
  {
    name: 'both a regular and an init container triggered: regular sources before init sources',
    mutateStatus: (s) => {
      Object.assign(s.containerStatuses[1], exited(1));
      Object.assign(s.containerStatuses[4], exited(1));
    },
    want: {
      reset: [
        ['id1', true],
        ['id3', true],
        ['sidecarid', true],
        ['id2', false],
        ['initid', false],
      ],
    },
  },
  {
    name: 'an exit code without a RestartAllContainers rule resets nothing',
    mutateStatus: (s) => Object.assign(s.containerStatuses[1], exited(2)),
    want: {},
  },
];
runTable(
  'RestartAllContainers with init containers and a sidecar',
  restartAllInitBase,
  [
    { version: '1.35', gates: { RestartAllContainersOnContainerExits: true } },
    { version: '1.36' },
    { version: '1.37' },
  ],
  restartAllInitCases,
);

// computeInitContainerActions with ContainerRestartRules: a failed (exited) init container follows
// its rules on the exit code; one in unknown state has no exit code, so only its own restartPolicy
// (else the pod's) decides, and its rules are not read.
const initRuleCases: Case[] = [
  {
    name: 'an exited init container whose rule matches its exit code is retried although its policy is Never',
    mutatePod: (pod) => {
      pod.spec!.restartPolicy = 'Never';
      pod.spec!.initContainers![2].restartPolicy = 'Never';
      pod.spec!.initContainers![2].restartPolicyRules = [
        { action: 'Restart', exitCodes: { operator: 'In', values: [42] } },
      ];
    },
    mutateStatus: (s) => {
      s.containerStatuses[2].exitCode = 42;
    },
    want: { init: [2] },
  },
  {
    name: 'an init container in unknown state is not retried when its own policy is Never, whatever its rules',
    mutatePod: (pod) => {
      pod.spec!.restartPolicy = 'Always';
      pod.spec!.initContainers![2].restartPolicy = 'Never';
      pod.spec!.initContainers![2].restartPolicyRules = [
        { action: 'Restart', exitCodes: { operator: 'NotIn', values: [1] } },
      ];
    },
    mutateStatus: (s) => {
      s.containerStatuses[2].state = 'unknown';
    },
    want: { killPod: true },
  },
  {
    name: 'an init container in unknown state is killed and retried when its own policy is OnFailure in a Never pod',
    mutatePod: (pod) => {
      pod.spec!.restartPolicy = 'Never';
      pod.spec!.initContainers![2].restartPolicy = 'OnFailure';
    },
    mutateStatus: (s) => {
      s.containerStatuses[2].state = 'unknown';
    },
    want: { init: [2], kill: ['initid3'] },
  },
];
runTable(
  'computeInitContainerActions with ContainerRestartRules',
  makeBasePodAndStatusWithInitContainers,
  [
    { version: '1.34', gates: { ContainerRestartRules: true } },
    { version: '1.35' },
    { version: '1.36' },
    { version: '1.37' },
  ],
  initRuleCases,
);

// computeInitContainerActions reads the active sandbox only from 1.37 (PR 138514, read in
// natasha41575/kubernetes@1a51be50 kuberuntime_container.go): after a node reboot a regular
// container left in Created in the old sandbox no longer counts as "initialized", so the init
// containers run on in the new sandbox; through 1.36 it does and they are skipped. And any status
// of a regular container in the active sandbox, exited included, means initialized.
const rebootedSandbox = (s: PodStatus, pod: Pod, version: string) => {
  const old = { ...s.sandboxStatuses[0], state: 'notready' as const };
  s.sandboxStatuses = [{ ...s.sandboxStatuses[0], id: 'newSandboxID', attempt: 1 }, old];
  s.containerStatuses = [
    cstatus('initid1-new', 'init1', 'exited', hashAt(version, pod.spec!.initContainers![0]), {
      podSandboxId: 'newSandboxID',
    }),
    cstatus('id1-old', 'foo1', 'created', hashAt(version, pod.spec!.containers[0]), { createdAt: NOW - 60_000 }),
  ];
};
const activeSandboxCases = (minor: number): Case[] => [
  {
    name: 'a regular container left Created in the old sandbox after a reboot',
    mutateStatus: rebootedSandbox,
    want:
      minor >= 37
        ? { sandboxId: 'newSandboxID', attempt: 1, init: [1] }
        : { sandboxId: 'newSandboxID', attempt: 1, start: [0, 1, 2] },
  },
  {
    name: 'every regular container exited in the active sandbox, init containers gone',
    mutateStatus: (s, pod, version) => {
      s.containerStatuses = pod.spec!.containers.map((c, i) =>
        cstatus(`id${i + 1}`, c.name, 'exited', hashAt(version, c), { exitCode: 1 }),
      );
    },
    want: minor >= 37 ? { start: [0, 1, 2] } : { init: [0] },
  },
];
for (const version of ['1.34', '1.35', '1.36', '1.37']) {
  runTable(
    'computeInitContainerActions: which sandbox says "initialized"',
    makeBasePodAndStatusWithInitContainers,
    [{ version }],
    activeSandboxCases(Number(version.split('.')[1])),
  );
}

// A failed init container with ContainerRestartRules on follows ShouldContainerBeRestarted: without
// its own policy the pod's OnFailure reads the exit code, so an OOMKilled exit 0 is not retried and
// the pod is killed; with the gate off (1.33) any pod policy but Never retries it.
const oomInitCases = (gateOn: boolean): Case[] => [
  {
    name: 'an init container OOMKilled with exit code 0 in an OnFailure pod',
    mutatePod: policy('OnFailure'),
    mutateStatus: (s) => {
      s.containerStatuses[2].reason = 'OOMKilled';
    },
    want: gateOn ? { killPod: true } : { init: [2] },
  },
];
runTable(
  'failed init container, ContainerRestartRules off',
  makeBasePodAndStatusWithInitContainers,
  [{ version: '1.33' }],
  oomInitCases(false),
);
runTable(
  'failed init container, ContainerRestartRules on',
  makeBasePodAndStatusWithInitContainers,
  [
    { version: '1.34', gates: { ContainerRestartRules: true } },
    { version: '1.35' },
    { version: '1.36' },
    { version: '1.37' },
  ],
  oomInitCases(true),
);

// computeInitContainerActions (1.33+): a running sidecar is resized in place like a regular
// container (computePodResizeAction with the init flag), after its probes: no resize while its
// liveness probe has no result yet; a RestartContainer policy restarts it as an init container.
const sidecarResize = (policy: string, liveness?: 'Success') => (pod: Pod) => {
  const c = pod.spec!.initContainers![0];
  c.resources = { limits: { cpu: '100m', memory: '100Mi' } };
  c.resizePolicy = [
    { resourceName: 'cpu', restartPolicy: policy },
    { resourceName: 'memory', restartPolicy: 'NotRequired' },
  ];
  if (liveness === undefined) c.livenessProbe = {};
};
const sidecarReports200m = (s: PodStatus) => {
  s.containerStatuses[0].resources = {
    cpuShares: 204,
    cpuQuota: 20000,
    cpuPeriod: 100_000,
    memoryLimitInBytes: 100 * 1024 * 1024,
  };
};
const sidecarResizeCases: Case[] = [
  {
    name: 'a running sidecar whose CPU limit changed is updated in place',
    mutatePod: sidecarResize('NotRequired', 'Success'),
    mutateStatus: sidecarReports200m,
    want: { start: [0, 1, 2], update: [['restartable-init-1', ['cpu']]] },
  },
  {
    name: 'a running sidecar whose CPU resize policy is RestartContainer is killed and started again',
    mutatePod: sidecarResize('RestartContainer', 'Success'),
    mutateStatus: sidecarReports200m,
    want: { start: [0, 1, 2], kill: ['initid1'], init: [0] },
  },
  {
    name: 'a sidecar whose liveness probe has no result yet is not resized',
    mutatePod: sidecarResize('NotRequired'),
    mutateStatus: sidecarReports200m,
    want: { start: [0, 1, 2] },
  },
];
runTable(
  'computeInitContainerActions: in-place resize of sidecars',
  makeBasePodAndStatusWithRestartableInitContainers,
  ['1.33', '1.34', '1.35', '1.36', '1.37'].map((version) => ({ version })),
  sidecarResizeCases,
  sidecarProbes,
);

// TestComputePodActionsWithInitContainers, the resize cases (kubelet 1.37 master,
// natasha41575/kubernetes@1a51be50): a running non-sidecar init container is resized in place
// with InPlacePodVerticalScalingInitContainers (beta, on, from 1.36: kube_features.go of
// zongruxie4/kubernetes@964d79dd, a 1.36-cycle tree); before 1.36 kubelet only waits for it.
// syncpod sees limits and the CPU request (kubelet's case changes requests, whose memory part is
// not in CRI's resources), so the row changes both limits.
const runningInitResized = (minor: number): Case[] => [
  {
    name: 'resize of a running non-sidecar init container',
    mutatePod: (pod) => {
      pod.spec!.initContainers![0].resources = { limits: { cpu: '200m', memory: '200Mi' } };
    },
    mutateStatus: (s) => {
      s.containerStatuses = s.containerStatuses.slice(0, 1);
      s.containerStatuses[0].state = 'running';
      s.containerStatuses[0].resources = reported({ cpuLimit: 100, memoryLimit: 100 * Mi });
    },
    want: minor >= 36 ? { update: [['init1', ['cpu', 'memory']]] } : {},
  },
  {
    name: 'a running non-sidecar init container whose resources match is left to finish',
    mutatePod: (pod) => {
      pod.spec!.initContainers![0].resources = { limits: { cpu: '100m', memory: '100Mi' } };
    },
    mutateStatus: (s) => {
      s.containerStatuses = s.containerStatuses.slice(0, 1);
      s.containerStatuses[0].state = 'running';
      s.containerStatuses[0].resources = reported({ cpuLimit: 100, memoryLimit: 100 * Mi });
    },
    want: {},
  },
];
for (const version of ['1.35', '1.36', '1.37']) {
  runTable(
    'TestComputePodActionsWithInitContainers: running init container resize',
    makeBasePodAndStatusWithInitContainers,
    [{ version }],
    runningInitResized(Number(version.split('.')[1])),
  );
}

// "stale main container ... must not mark pod as initialized" (1.37, PR 138514): only a regular
// container left Created in an earlier sandbox is known; from 1.37 the first init container runs,
// through 1.36 the pod counts as initialized and its regular containers start.
const staleMain = (s: PodStatus, pod: Pod, version: string) => {
  s.containerStatuses = [
    cstatus('id1', 'foo1', 'created', hashAt(version, pod.spec!.containers[0]), {
      podSandboxId: 'oldSandboxID',
      createdAt: NOW - 60_000,
    }),
  ];
};
for (const version of ['1.36', '1.37']) {
  const minor = Number(version.split('.')[1]);
  runTable(
    'TestComputePodActionsWithInitContainers: stale regular container from an earlier sandbox',
    makeBasePodAndStatusWithInitContainers,
    [{ version }],
    [
      {
        name: 'stale main container from a previous sandbox must not mark pod as initialized',
        mutateStatus: staleMain,
        want: minor >= 37 ? { init: [0] } : { start: [0, 1, 2] },
      },
    ],
  );
  runTable(
    'TestComputePodActionsWithRestartableInitContainers: stale regular container from an earlier sandbox',
    makeBasePodAndStatusWithRestartableInitContainers,
    [{ version }],
    [
      {
        name: 'stale main container with mixed restartable and non-restartable init containers; start the first one',
        mutatePod: (pod) => {
          delete pod.spec!.initContainers![1].restartPolicy;
        },
        mutateStatus: staleMain,
        want: minor >= 37 ? { init: [0] } : { init: [0, 2], start: [0, 1, 2] },
      },
    ],
    sidecarProbes,
  );
}
