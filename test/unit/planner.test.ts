// computePodActions, table-driven: one healthy pod + status, each case a plain sentence with the
// mutations and the actions kubelet would take. Free-text messages are not compared.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../src/kubelet/api-types';
import {
  computePodActions,
  type ComputePodActionsOptions,
  type PodActions,
} from '../../src/kubelet/compute-pod-actions';
import type { PodStatus } from '../../src/kubelet/types';
import { SyncpodError } from '../../src/errors';
import { resolveKubeletRules } from '../../src/kubelet/kubelet-version';
import { startReasonText, waitingText } from '../../src/plan/reasons';
import {
  T0,
  basePod,
  container,
  hashFor,
  healthyStatus,
  podWithInits,
  podWithSidecars,
  removeStatus,
  sandbox,
  setStatus,
  status,
  type Scheme,
} from '../fixtures/planner/base';

interface Expected {
  killPod: boolean;
  createSandbox: boolean;
  sandboxId: string;
  attempt: number;
  nextInit: string | null;
  init: number[];
  start: number[];
  ephemeral: number[];
  /** [name, containerId, kubelet reason] */
  kill: Array<[string, string, string]>;
}

interface Case {
  name: string;
  pod?: () => Pod;
  options?: ComputePodActionsOptions;
  mutate?: (pod: Pod, st: PodStatus, scheme: Scheme) => void;
  expect: Partial<Expected>;
  /** Where kubelet 1.37 differs from the version the case was written for. */
  expect137?: Partial<Expected>;
}

const nothing: Expected = {
  killPod: false,
  createSandbox: false,
  sandboxId: 'sb1',
  attempt: 0,
  nextInit: null,
  init: [],
  start: [],
  ephemeral: [],
  kill: [],
};

/** 1.29.0–1.29.8 (before the init-container fixes) with SidecarContainers off: the legacy init path for every pod. */
const v128: ComputePodActionsOptions = { kubeletVersion: '1.29.0', featureGates: { SidecarContainers: false } };
/** 1.29.0–1.29.8 with SidecarContainers on (its default): the sidecar-aware path for every pod. */
const v128Sidecars: ComputePodActionsOptions = { kubeletVersion: '1.29.0' };
/** The version these cases were written for; each case without a version also runs as 1.37 below. */
const v133: ComputePodActionsOptions = { kubeletVersion: '1.33' };

const exited = (code: number, extra: object = {}) => ({
  state: 'exited' as const,
  exitCode: code,
  finishedAt: T0 + 60_000,
  ...extra,
});
const allExited = (st: PodStatus, names: string[], code: number) =>
  names.forEach((n) => setStatus(st, n, exited(code)));
const regularNames = ['app', 'log', 'proxy'];
const onlyStatuses = (st: PodStatus, names: string[]) => {
  st.containerStatuses = st.containerStatuses.filter((s) => names.includes(s.name));
};

const cases: Case[] = [
  // --- healthy ---
  { name: 'keep a healthy pod as it is', expect: {} },
  { name: 'keep a healthy pod as it is (1.29.0 whole-spec hash)', options: v128, expect: {} },
  { name: 'keep a healthy pod with classic init containers', pod: podWithInits, expect: {} },
  { name: 'keep a healthy pod with sidecars', pod: podWithSidecars, expect: {} },

  // --- sandbox changed ---
  {
    name: 'create a sandbox and start every container when the pod has no sandbox',
    mutate: (_p, st) => {
      st.sandboxStatuses = [];
      st.containerStatuses = [];
    },
    expect: { killPod: true, createSandbox: true, sandboxId: '', attempt: 0, start: [0, 1, 2] },
  },
  {
    name: 'recreate the sandbox when more than one sandbox is ready',
    mutate: (_p, st) => {
      st.sandboxStatuses = [sandbox('sb2', { attempt: 1 }), sandbox('sb1')];
    },
    expect: { killPod: true, createSandbox: true, sandboxId: 'sb2', attempt: 2, start: [0, 1, 2] },
  },
  {
    name: 'recreate the sandbox when the newest sandbox is not ready',
    mutate: (_p, st) => {
      st.sandboxStatuses[0].state = 'notready';
    },
    expect: { killPod: true, createSandbox: true, sandboxId: 'sb1', attempt: 1, start: [0, 1, 2] },
  },
  {
    name: 'number the new sandbox attempt from the newest sandbox',
    mutate: (_p, st) => {
      st.sandboxStatuses = [sandbox('sb3', { attempt: 4, state: 'notready' }), sandbox('sb1', { state: 'notready' })];
    },
    expect: { killPod: true, createSandbox: true, sandboxId: 'sb3', attempt: 5, start: [0, 1, 2] },
  },
  {
    name: 'recreate the sandbox without a sandbox id when the pod switched to host network',
    mutate: (p) => {
      p.spec!.hostNetwork = true;
    },
    expect: { killPod: true, createSandbox: true, sandboxId: '', attempt: 1, start: [0, 1, 2] },
  },
  {
    name: 'recreate the sandbox when a pod-network pod has a node-network sandbox',
    mutate: (_p, st) => {
      st.sandboxStatuses[0].networkNamespaceMode = 'NODE';
    },
    expect: { killPod: true, createSandbox: true, sandboxId: '', attempt: 1, start: [0, 1, 2] },
  },
  {
    name: 'treat an unreported network namespace mode as pod network',
    mutate: (_p, st) => {
      delete st.sandboxStatuses[0].networkNamespaceMode;
    },
    expect: {},
  },
  {
    name: 'recreate the sandbox when a pod-network sandbox has no IP',
    mutate: (_p, st) => {
      st.sandboxStatuses[0].ip = '';
    },
    expect: { killPod: true, createSandbox: true, sandboxId: 'sb1', attempt: 1, start: [0, 1, 2] },
  },
  {
    name: 'keep a host-network sandbox that has no IP',
    mutate: (p, st) => {
      p.spec!.hostNetwork = true;
      st.sandboxStatuses[0].networkNamespaceMode = 'NODE';
      st.sandboxStatuses[0].ip = '';
    },
    expect: {},
  },
  {
    name: 'keep a sandbox whose runtime reported no network status at all',
    mutate: (_p, st) => {
      st.sandboxStatuses[0].hasNetwork = false;
      st.sandboxStatuses[0].ip = '';
    },
    expect: {},
  },

  // --- sandbox recreated: early returns ---
  {
    name: 'only kill a Never pod whose sandbox died after its containers ran',
    mutate: (p, st) => {
      p.spec!.restartPolicy = 'Never';
      st.sandboxStatuses[0].state = 'notready';
      allExited(st, regularNames, 0);
    },
    expect: { killPod: true, createSandbox: false, sandboxId: 'sb1', attempt: 1 },
  },
  {
    name: 'retry the sandbox of a Never pod that never had a container',
    mutate: (p, st) => {
      p.spec!.restartPolicy = 'Never';
      st.sandboxStatuses[0].state = 'notready';
      st.containerStatuses = [];
    },
    expect: { killPod: true, createSandbox: true, sandboxId: 'sb1', attempt: 1, start: [0, 1, 2] },
  },
  {
    name: 'create the first sandbox of a Never pod even if old containers exist (attempt 0)',
    mutate: (p, st) => {
      p.spec!.restartPolicy = 'Never';
      st.sandboxStatuses = [];
      allExited(st, regularNames, 0);
    },
    expect: { killPod: true, createSandbox: true, sandboxId: '', attempt: 0, start: [0, 1, 2] },
  },
  {
    name: 'skip succeeded containers of an OnFailure pod when recreating the sandbox',
    mutate: (p, st) => {
      p.spec!.restartPolicy = 'OnFailure';
      st.sandboxStatuses[0].state = 'notready';
      setStatus(st, 'app', exited(0));
      setStatus(st, 'log', exited(1));
    },
    expect: { killPod: true, createSandbox: true, attempt: 1, start: [1, 2] },
  },
  {
    name: 'do not recreate the sandbox of an OnFailure pod whose containers all succeeded',
    mutate: (p, st) => {
      p.spec!.restartPolicy = 'OnFailure';
      st.sandboxStatuses[0].state = 'notready';
      allExited(st, regularNames, 0);
    },
    expect: { killPod: true, createSandbox: false, attempt: 1 },
  },
  {
    name: '1.33 does not count a CREATED container as succeeded for OnFailure',
    mutate: (p, st) => {
      p.spec!.restartPolicy = 'OnFailure';
      st.sandboxStatuses[0].state = 'notready';
      allExited(st, regularNames, 0);
      setStatus(st, 'app', { state: 'created', exitCode: 0 });
    },
    expect: { killPod: true, createSandbox: true, attempt: 1, start: [0] },
  },
  {
    name: '1.29.0 counts a CREATED container with exit code 0 as succeeded for OnFailure',
    options: v128,
    mutate: (p, st) => {
      p.spec!.restartPolicy = 'OnFailure';
      st.sandboxStatuses[0].state = 'notready';
      allExited(st, regularNames, 0);
      setStatus(st, 'app', { state: 'created', exitCode: 0 });
    },
    expect: { killPod: true, createSandbox: false, attempt: 1 },
  },
  {
    name: 'restart initialization at the first init container when the sandbox is recreated (sidecar path)',
    pod: podWithInits,
    mutate: (_p, st) => {
      st.sandboxStatuses[0].state = 'notready';
    },
    expect: { killPod: true, createSandbox: true, attempt: 1, init: [0] },
  },
  {
    name: 'restart initialization at the first init container when the sandbox is recreated (classic path)',
    pod: podWithInits,
    options: v128,
    mutate: (_p, st) => {
      st.sandboxStatuses[0].state = 'notready';
    },
    expect: { killPod: true, createSandbox: true, attempt: 1, nextInit: 'init1' },
  },
  {
    name: 'do not recreate the sandbox of a finished OnFailure pod with init containers',
    pod: podWithInits,
    mutate: (p, st) => {
      p.spec!.restartPolicy = 'OnFailure';
      st.sandboxStatuses[0].state = 'notready';
      allExited(st, regularNames, 0);
    },
    expect: { killPod: true, createSandbox: false, attempt: 1 },
  },
  {
    name: 'do not start ephemeral containers while the sandbox is recreated',
    mutate: (p, st) => {
      p.spec!.ephemeralContainers = [{ name: 'debug', image: 'busybox:1.36' }];
      st.sandboxStatuses[0].state = 'notready';
    },
    expect: { killPod: true, createSandbox: true, attempt: 1, start: [0, 1, 2] },
  },

  // --- ephemeral containers ---
  {
    name: 'start an ephemeral container that has no status',
    mutate: (p) => {
      p.spec!.ephemeralContainers = [{ name: 'debug', image: 'busybox:1.36' }];
    },
    expect: { ephemeral: [0] },
  },
  {
    name: 'never restart an ephemeral container that exited',
    mutate: (p, st, scheme) => {
      p.spec!.ephemeralContainers = [{ name: 'debug', image: 'busybox:1.36' }];
      st.containerStatuses.unshift(status(container('debug', 'busybox:1.36'), 'exited', scheme, { exitCode: 1 }));
    },
    expect: {},
  },
  {
    name: 'start ephemeral containers even while initialization is in progress',
    pod: podWithInits,
    mutate: (p, st) => {
      p.spec!.ephemeralContainers = [{ name: 'debug', image: 'busybox:1.36' }];
      onlyStatuses(st, ['init1']);
      setStatus(st, 'init1', { state: 'running', finishedAt: 0 });
    },
    expect: { ephemeral: [0] },
  },

  // --- regular containers ---
  {
    name: 'restart exited containers if restartPolicy is Always',
    mutate: (_p, st) => setStatus(st, 'app', exited(1)),
    expect: { start: [0] },
  },
  {
    name: 'restart succeeded containers too if restartPolicy is Always',
    mutate: (_p, st) => setStatus(st, 'app', exited(0)),
    expect: { start: [0] },
  },
  {
    name: 'restart failed containers if restartPolicy is OnFailure',
    mutate: (p, st) => {
      p.spec!.restartPolicy = 'OnFailure';
      setStatus(st, 'app', exited(2));
    },
    expect: { start: [0] },
  },
  {
    name: 'leave succeeded containers if restartPolicy is OnFailure',
    mutate: (p, st) => {
      p.spec!.restartPolicy = 'OnFailure';
      setStatus(st, 'app', exited(0));
    },
    expect: {},
  },
  {
    name: 'leave exited containers if restartPolicy is Never',
    mutate: (p, st) => {
      p.spec!.restartPolicy = 'Never';
      setStatus(st, 'app', exited(1));
    },
    expect: {},
  },
  {
    name: 'kill the pod when every container exited and none will restart',
    mutate: (p, st) => {
      p.spec!.restartPolicy = 'Never';
      allExited(st, regularNames, 1);
    },
    expect: { killPod: true },
  },
  { name: 'start a container that never ran', mutate: (_p, st) => removeStatus(st, 'log'), expect: { start: [1] } },
  {
    name: 'start a container stuck in CREATED, whatever the restart policy',
    mutate: (p, st) => {
      p.spec!.restartPolicy = 'Never';
      setStatus(st, 'app', { state: 'created', startedAt: 0 });
    },
    expect: { start: [0] },
  },
  {
    name: 'kill a container in unknown state, then start it',
    mutate: (_p, st) => setStatus(st, 'app', { state: 'unknown' }),
    expect: { start: [0], kill: [['app', 'id-app', 'Unknown']] },
  },
  {
    name: 'restart a running container whose image changed',
    mutate: (p) => {
      p.spec!.containers[0].image = 'nginx:1.26';
    },
    expect: { start: [0], kill: [['app', 'id-app', '']] },
  },
  {
    name: 'restart a changed container even if restartPolicy is Never',
    mutate: (p) => {
      p.spec!.restartPolicy = 'Never';
      p.spec!.containers[1].image = 'busybox:1.37';
    },
    expect: { start: [1], kill: [['log', 'id-log', '']] },
  },
  {
    name: 'keep a container whose command changed (1.33 hashes only name and image)',
    mutate: (p) => {
      p.spec!.containers[0].command = ['nginx', '-g', 'daemon off;'];
    },
    expect: {},
  },
  {
    name: 'restart a container whose command changed (1.29.0 hashes the whole container)',
    options: v128,
    mutate: (p) => {
      p.spec!.containers[0].command = ['nginx', '-g', 'daemon off;'];
    },
    expect: { start: [0], kill: [['app', 'id-app', '']] },
  },
  {
    name: 'restart a container whose hash came from the other scheme',
    mutate: (p, st) => setStatus(st, 'app', { hash: hashFor(p.spec!.containers[0], 'whole-spec') }),
    expect: { start: [0], kill: [['app', 'id-app', '']] },
  },
  {
    name: 'restart a container without a hash annotation',
    mutate: (_p, st) => setStatus(st, 'app', { hash: '' }),
    expect: { start: [0], kill: [['app', 'id-app', '']] },
  },
  {
    name: 'keep a container whose hash annotation has leading zeros or upper case',
    mutate: (_p, st) => setStatus(st, 'app', { hash: `00${st.containerStatuses[0].hash.toUpperCase()}` }),
    expect: {},
  },
  {
    name: 'kill and restart a container that failed its liveness probe',
    options: { probeResults: { liveness: { 'id-app': 'Failure' } } },
    expect: { start: [0], kill: [['app', 'id-app', 'LivenessProbe']] },
  },
  {
    name: 'kill without restart a container that failed its liveness probe if restartPolicy is Never',
    options: { probeResults: { liveness: { 'id-app': 'Failure' } } },
    mutate: (p) => {
      p.spec!.restartPolicy = 'Never';
    },
    expect: { kill: [['app', 'id-app', 'LivenessProbe']] },
  },
  {
    name: 'kill the pod when the only running container fails liveness and restartPolicy is Never',
    options: { probeResults: { liveness: { 'id-app': 'Failure' } } },
    mutate: (p, st) => {
      p.spec!.restartPolicy = 'Never';
      setStatus(st, 'log', exited(0));
      setStatus(st, 'proxy', exited(0));
    },
    expect: { killPod: true, kill: [['app', 'id-app', 'LivenessProbe']] },
  },
  {
    name: 'kill and restart a container that failed its startup probe',
    options: { probeResults: { startup: { 'id-log': 'Failure' } } },
    expect: { start: [1], kill: [['log', 'id-log', 'StartupProbe']] },
  },
  {
    name: 'keep containers whose probes succeeded',
    options: { probeResults: { liveness: { 'id-app': 'Success' }, startup: { 'id-app': 'Success' } } },
    expect: {},
  },
  {
    name: 'prefer "definition changed" over a failed liveness probe',
    options: { probeResults: { liveness: { 'id-app': 'Failure' } } },
    mutate: (p) => {
      p.spec!.containers[0].image = 'nginx:1.26';
    },
    expect: { start: [0], kill: [['app', 'id-app', '']] },
  },
  {
    name: 'do not restart exited containers of a pod being deleted',
    mutate: (p, st) => {
      p.metadata = { ...p.metadata, deletionTimestamp: '2025-01-01T12:00:00Z' };
      setStatus(st, 'app', exited(1));
    },
    expect: {},
  },
  {
    name: 'kill a pod being deleted once none of its containers runs',
    mutate: (p, st) => {
      p.metadata = { ...p.metadata, deletionTimestamp: '2025-01-01T12:00:00Z' };
      allExited(st, regularNames, 1);
    },
    expect: { killPod: true },
  },
  {
    name: 'sort containers to kill deterministically',
    mutate: (p, st) => {
      p.spec!.containers[2].image = 'envoy:v1.31';
      p.spec!.containers[0].image = 'nginx:1.26';
      setStatus(st, 'log', { state: 'unknown' });
    },
    expect: {
      start: [0, 1, 2],
      kill: [
        ['app', 'id-app', ''],
        ['log', 'id-log', 'Unknown'],
        ['proxy', 'id-proxy', ''],
      ],
    },
  },

  // --- classic init path (1.29.0 with SidecarContainers off) ---
  {
    name: 'classic: start the first init container of a new pod',
    pod: podWithInits,
    options: v128,
    mutate: (_p, st) => {
      st.containerStatuses = [];
    },
    expect: { nextInit: 'init1' },
  },
  {
    name: 'classic: start the next init container after one completed',
    pod: podWithInits,
    options: v128,
    mutate: (_p, st) => onlyStatuses(st, ['init1']),
    expect: { nextInit: 'init2' },
  },
  {
    name: 'classic: wait while an init container runs',
    pod: podWithInits,
    options: v128,
    mutate: (_p, st) => {
      onlyStatuses(st, ['init1']);
      setStatus(st, 'init1', { state: 'running', finishedAt: 0 });
    },
    expect: {},
  },
  {
    name: 'classic: restart a failed init container if restartPolicy is Always',
    pod: podWithInits,
    options: v128,
    mutate: (_p, st) => {
      onlyStatuses(st, ['init1']);
      setStatus(st, 'init1', exited(1));
    },
    expect: { nextInit: 'init1' },
  },
  {
    name: 'classic: restart a failed init container if restartPolicy is OnFailure',
    pod: podWithInits,
    options: v128,
    mutate: (p, st) => {
      p.spec!.restartPolicy = 'OnFailure';
      onlyStatuses(st, ['init1', 'init2']);
      setStatus(st, 'init2', exited(3));
    },
    expect: { nextInit: 'init2' },
  },
  {
    name: 'classic: kill the pod when an init container failed and restartPolicy is Never',
    pod: podWithInits,
    options: v128,
    mutate: (p, st) => {
      p.spec!.restartPolicy = 'Never';
      onlyStatuses(st, ['init1']);
      setStatus(st, 'init1', exited(1));
    },
    expect: { killPod: true },
  },
  {
    name: 'classic: count an OOMKilled init container as failed even with exit code 0',
    pod: podWithInits,
    options: v128,
    mutate: (p, st) => {
      p.spec!.restartPolicy = 'Never';
      onlyStatuses(st, ['init1']);
      setStatus(st, 'init1', exited(0, { reason: 'OOMKilled' }));
    },
    expect: { killPod: true },
  },
  {
    name: 'classic: kill an init container in unknown state, then start it again',
    pod: podWithInits,
    options: v128,
    mutate: (_p, st) => {
      onlyStatuses(st, ['init1']);
      setStatus(st, 'init1', { state: 'unknown' });
    },
    expect: { nextInit: 'init1', kill: [['init1', 'id-init1', 'Unknown']] },
  },
  {
    name: 'classic: start the regular containers once the last init container completed',
    pod: podWithInits,
    options: v128,
    mutate: (_p, st) => onlyStatuses(st, ['init1', 'init2']),
    expect: { start: [0, 1, 2] },
  },
  {
    name: 'classic: a running regular container means initialization is done even without init statuses',
    pod: podWithInits,
    options: v128,
    mutate: (_p, st) => onlyStatuses(st, regularNames),
    expect: {},
  },
  {
    name: '1.33 with LegacySidecarContainers on uses the classic path for pods without sidecars',
    pod: podWithInits,
    options: { kubeletVersion: '1.33', featureGates: { LegacySidecarContainers: true } },
    mutate: (_p, st) => onlyStatuses(st, ['init1']),
    expect: { nextInit: 'init2' },
  },
  {
    name: '1.33 with LegacySidecarContainers on still uses the sidecar path for pods with sidecars',
    pod: podWithSidecars,
    options: { kubeletVersion: '1.33', featureGates: { LegacySidecarContainers: true } },
    mutate: (_p, st) => onlyStatuses(st, ['init1']),
    expect: { init: [1] },
  },

  // --- sidecar-aware path ---
  {
    name: 'sidecar: start the first init container of a new pod',
    pod: podWithSidecars,
    mutate: (_p, st) => {
      st.containerStatuses = [];
    },
    expect: { init: [0] },
  },
  {
    name: 'sidecar: start the first sidecar after the classic init container completed',
    pod: podWithSidecars,
    mutate: (_p, st) => onlyStatuses(st, ['init1']),
    expect: { init: [1] },
  },
  {
    name: 'sidecar: start the next init container once a sidecar without startup probe runs',
    pod: podWithSidecars,
    mutate: (_p, st) => onlyStatuses(st, ['init1', 'sidecar1']),
    expect: { init: [2] },
  },
  {
    name: 'sidecar: start the regular containers once the last sidecar runs',
    pod: podWithSidecars,
    mutate: (_p, st) => onlyStatuses(st, ['init1', 'sidecar1', 'sidecar2']),
    expect: { start: [0, 1, 2] },
  },
  {
    name: 'sidecar: restart an exited sidecar whatever the pod restart policy',
    pod: podWithSidecars,
    mutate: (p, st) => {
      p.spec!.restartPolicy = 'OnFailure';
      setStatus(st, 'sidecar1', exited(0));
    },
    expect: { init: [1] },
  },
  {
    name: 'sidecar: start a sidecar whose container was removed after initialization',
    pod: podWithSidecars,
    mutate: (_p, st) => removeStatus(st, 'sidecar2'),
    expect: { init: [2] },
  },
  {
    name: 'sidecar: kill a sidecar in unknown state, then start it again',
    pod: podWithSidecars,
    mutate: (_p, st) => setStatus(st, 'sidecar1', { state: 'unknown' }),
    expect: { init: [1], kill: [['sidecar1', 'id-sidecar1', 'Unknown']] },
  },
  {
    name: 'sidecar: wait for a startup probe result before starting the next init container',
    pod: () => {
      const p = podWithSidecars();
      p.spec!.initContainers![1].startupProbe = { exec: { command: ['true'] } };
      return p;
    },
    mutate: (_p, st) => onlyStatuses(st, ['init1', 'sidecar1']),
    expect: {},
  },
  {
    name: 'sidecar: start the next init container once the startup probe succeeded',
    pod: () => {
      const p = podWithSidecars();
      p.spec!.initContainers![1].startupProbe = { exec: { command: ['true'] } };
      return p;
    },
    options: { probeResults: { startup: { 'id-sidecar1': 'Success' } } },
    mutate: (_p, st) => onlyStatuses(st, ['init1', 'sidecar1']),
    expect: { init: [2] },
  },
  {
    name: 'sidecar: kill and restart a sidecar that failed its startup probe',
    pod: () => {
      const p = podWithSidecars();
      p.spec!.initContainers![1].startupProbe = { exec: { command: ['true'] } };
      return p;
    },
    options: { probeResults: { startup: { 'id-sidecar1': 'Failure' } } },
    mutate: (_p, st) => onlyStatuses(st, ['init1', 'sidecar1']),
    expect: { init: [1], kill: [['sidecar1', 'id-sidecar1', 'StartupProbe']] },
  },
  {
    name: 'sidecar: kill and restart a sidecar that failed its liveness probe',
    pod: () => {
      const p = podWithSidecars();
      p.spec!.initContainers![2].livenessProbe = { exec: { command: ['true'] } };
      return p;
    },
    options: { probeResults: { liveness: { 'id-sidecar2': 'Failure' } } },
    expect: { init: [2], kill: [['sidecar2', 'id-sidecar2', 'LivenessProbe']] },
  },
  {
    name: 'sidecar: restart a running sidecar whose image changed (1.33)',
    pod: podWithSidecars,
    mutate: (p) => {
      p.spec!.initContainers![1].image = 'fluentbit:4';
    },
    expect: { init: [1], kill: [['sidecar1', 'id-sidecar1', '']] },
  },
  {
    name: 'sidecar: keep a running sidecar whose image changed (1.29.0 never compares sidecar hashes)',
    pod: podWithSidecars,
    options: v128Sidecars,
    mutate: (p) => {
      p.spec!.initContainers![1].image = 'fluentbit:4';
    },
    expect: {},
  },
  {
    name: 'sidecar: start again an init container stuck in CREATED (1.33)',
    pod: podWithSidecars,
    mutate: (_p, st) => {
      onlyStatuses(st, ['init1', 'sidecar1']);
      setStatus(st, 'sidecar1', { state: 'created', startedAt: 0 });
    },
    expect: { init: [1] },
  },
  {
    name: 'sidecar: wait on an init container stuck in CREATED (1.29.0)',
    pod: podWithSidecars,
    options: v128Sidecars,
    mutate: (_p, st) => {
      onlyStatuses(st, ['init1', 'sidecar1']);
      setStatus(st, 'sidecar1', { state: 'created', startedAt: 0 });
    },
    expect: {},
  },
  {
    name: 'sidecar: sort sidecar kills by name though kubelet finds them last to first',
    pod: podWithSidecars,
    mutate: (p, st) => {
      setStatus(st, 'sidecar2', { state: 'unknown' });
      setStatus(st, 'sidecar1', { state: 'unknown' });
      p.spec!.containers[0].image = 'nginx:1.26';
    },
    expect: {
      init: [1, 2],
      start: [0],
      kill: [
        ['sidecar1', 'id-sidecar1', 'Unknown'],
        ['sidecar2', 'id-sidecar2', 'Unknown'],
        ['app', 'id-app', ''],
      ],
    },
  },
  {
    name: 'sidecar: restart a failed classic init container if restartPolicy is Always',
    pod: podWithSidecars,
    mutate: (_p, st) => {
      onlyStatuses(st, ['init1']);
      setStatus(st, 'init1', exited(1));
    },
    expect: { init: [0] },
  },
  {
    name: 'sidecar: kill the pod when a classic init container failed and restartPolicy is Never',
    pod: podWithSidecars,
    mutate: (p, st) => {
      p.spec!.restartPolicy = 'Never';
      onlyStatuses(st, ['init1']);
      setStatus(st, 'init1', exited(1));
    },
    expect: { killPod: true },
  },
  {
    name: 'sidecar: kill the pod when a classic init container is unknown and restartPolicy is Never',
    pod: podWithSidecars,
    mutate: (p, st) => {
      p.spec!.restartPolicy = 'Never';
      onlyStatuses(st, ['init1']);
      setStatus(st, 'init1', { state: 'unknown' });
    },
    expect: { killPod: true },
  },
  {
    name: 'sidecar: kill a classic init container in unknown state, then start it (OnFailure)',
    pod: podWithSidecars,
    mutate: (p, st) => {
      p.spec!.restartPolicy = 'OnFailure';
      onlyStatuses(st, ['init1']);
      setStatus(st, 'init1', { state: 'unknown' });
    },
    expect: { init: [0], kill: [['init1', 'id-init1', 'Unknown']] },
  },
  {
    name: 'sidecar: a running classic init container makes kubelet wait',
    pod: podWithSidecars,
    mutate: (_p, st) => {
      onlyStatuses(st, ['init1']);
      setStatus(st, 'init1', { state: 'running', finishedAt: 0 });
    },
    expect: {},
  },
  {
    name: 'sidecar: never re-run a completed classic init container after initialization',
    pod: podWithSidecars,
    mutate: (_p, st) => removeStatus(st, 'init1'),
    expect: {},
  },
  {
    name: '1.33: exited regular containers do not mean the pod initialized',
    pod: podWithInits,
    mutate: (_p, st) => {
      onlyStatuses(st, regularNames);
      allExited(st, regularNames, 1);
    },
    expect: { init: [0] },
    // 1.37 (HasAnyActiveRegularContainerStarted): any status in the active sandbox means initialized.
    expect137: { start: [0, 1, 2] },
  },
  {
    // kubelet v1.29.6's computeInitContainerActions (its oracle disagreed before: random 1.29 seed 1 #0).
    name: '1.29.0: exited regular containers do not mean the pod initialized either',
    pod: podWithInits,
    options: v128Sidecars,
    mutate: (_p, st) => {
      onlyStatuses(st, regularNames);
      allExited(st, regularNames, 1);
    },
    expect: { init: [0] },
  },
  {
    name: '1.29.6: exited regular containers do not mean the pod initialized',
    pod: podWithInits,
    options: { kubeletVersion: '1.29.6' },
    mutate: (_p, st) => {
      onlyStatuses(st, regularNames);
      allExited(st, regularNames, 1);
    },
    expect: { init: [0] },
  },
  {
    name: 'sidecar: a created regular container means the pod initialized',
    pod: podWithInits,
    mutate: (_p, st) => {
      onlyStatuses(st, ['app']);
      setStatus(st, 'app', { state: 'created', startedAt: 0 });
    },
    expect: { start: [0, 1, 2] },
  },
  {
    name: 'sidecar: do not restart sidecars when the pod is killed because no container will run',
    pod: podWithSidecars,
    mutate: (p, st) => {
      p.spec!.restartPolicy = 'Never';
      allExited(st, regularNames, 0);
      setStatus(st, 'sidecar1', exited(1));
    },
    expect: { killPod: true },
  },
];

function run(c: Case, version?: string): PodActions {
  const pod = (c.pod ?? basePod)();
  const options = { ...v133, ...c.options, ...(version ? { kubeletVersion: version } : {}) };
  const scheme: Scheme = /^1\.(29|30)(\.|$)/.test(options.kubeletVersion!) ? 'whole-spec' : 'name+image';
  const st = healthyStatus(pod, scheme);
  c.mutate?.(pod, st, scheme);
  return computePodActions(pod, st, options);
}

function observed(a: PodActions): Expected {
  return {
    killPod: a.killPod,
    createSandbox: a.createSandbox,
    sandboxId: a.sandboxId,
    attempt: a.attempt,
    nextInit: a.nextInitContainerToStart,
    init: a.initContainersToStart,
    start: a.containersToStart,
    ephemeral: a.ephemeralContainersToStart,
    kill: a.containersToKill.map((k) => [k.name, k.containerId, k.reason]),
  };
}

for (const c of cases) {
  test(c.name, () => {
    assert.deepEqual(observed(run(c)), { ...nothing, ...c.expect });
  });
}

// The cases written for 1.33 hold for 1.34–1.37 too (the legacy init path and its gate are gone there).
for (const c of cases.filter((x) => x.options?.kubeletVersion === undefined && x.options?.featureGates === undefined)) {
  test(`${c.name} (1.37)`, () => {
    assert.deepEqual(observed(run(c, '1.37')), { ...nothing, ...(c.expect137 ?? c.expect) });
  });
}

test('case names are unique', () => {
  const names = cases.map((c) => c.name);
  assert.equal(new Set(names).size, names.length);
});

test('the sidecar path never sets nextInitContainerToStart and the classic path never sets initContainersToStart', () => {
  for (const c of cases) {
    const a = run(c);
    if (a.initPath === 'sidecar') assert.equal(a.nextInitContainerToStart, null, c.name);
    else assert.deepEqual(a.initContainersToStart, [], c.name);
  }
});

test('every start carries a reason aligned with its index', () => {
  for (const c of cases) {
    const a = run(c);
    assert.deepEqual(
      a.containerStarts.map((d) => d.index),
      a.containersToStart,
      c.name,
    );
    assert.deepEqual(
      a.initContainerStarts.map((d) => d.index),
      a.initContainersToStart,
      c.name,
    );
    for (const d of [...a.containerStarts, ...a.initContainerStarts, ...a.ephemeralContainerStarts]) {
      assert.ok(startReasonText(d.reason).length > 0, c.name);
    }
  }
});

test('start reasons name what happened to the container', () => {
  const table: Array<{ name: string; mutate: (p: Pod, st: PodStatus) => void; code: string; text: RegExp }> = [
    {
      name: 'never started',
      mutate: (_p, st) => removeStatus(st, 'app'),
      code: 'never-started',
      text: /never started/,
    },
    {
      name: 'exited',
      mutate: (_p, st) => setStatus(st, 'app', exited(137, { reason: 'Error' })),
      code: 'exited',
      text: /exited with code 137 \(Error\) and restartPolicy Always/,
    },
    {
      name: 'created',
      mutate: (_p, st) => setStatus(st, 'app', { state: 'created' }),
      code: 'created-not-started',
      text: /created but never started/,
    },
    {
      name: 'unknown',
      mutate: (_p, st) => setStatus(st, 'app', { state: 'unknown' }),
      code: 'unknown-state',
      text: /unknown/,
    },
    {
      name: 'changed',
      mutate: (p) => void (p.spec!.containers[0].image = 'nginx:1.26'),
      code: 'definition-changed',
      text: /definition changed/,
    },
    {
      name: 'sandbox',
      mutate: (_p, st) => void (st.sandboxStatuses[0].ip = ''),
      code: 'sandbox-recreated',
      text: /no IP address/,
    },
  ];
  for (const row of table) {
    const pod = basePod();
    const st = healthyStatus(pod, 'name+image');
    row.mutate(pod, st);
    const a = computePodActions(pod, st);
    const d = a.containerStarts.find((x) => x.name === 'app');
    assert.ok(d, row.name);
    assert.equal(d.reason.code, row.code, row.name);
    assert.match(startReasonText(d.reason), row.text, row.name);
  }
});

test('a hash from the 1.16–1.30 scheme is flagged as another scheme, not guessed', () => {
  const pod = basePod();
  const st = healthyStatus(pod, 'name+image');
  setStatus(st, 'app', { hash: hashFor(pod.spec!.containers[0], 'whole-spec') });
  const a = computePodActions(pod, st);
  const kill = a.containersToKill[0];
  assert.equal(kill.why, 'definition-changed');
  assert.equal(kill.hash?.verdict, 'other-scheme');
  assert.equal(kill.hash?.matchedScheme, 'whole-spec');
  assert.match(startReasonText(a.containerStarts[0].reason), /another kubelet version/);
});

test('hash verdicts for each kind of annotation', () => {
  const pod = basePod();
  const app = pod.spec!.containers[0];
  const rows: Array<{ hash: string; verdict: string; version?: string }> = [
    { hash: hashFor(app, 'name+image'), verdict: 'match' },
    { hash: hashFor(app, 'whole-spec'), verdict: 'other-scheme' },
    { hash: hashFor(app, 'whole-spec'), verdict: 'match', version: '1.30' },
    { hash: hashFor(app, 'name+image'), verdict: 'other-scheme', version: '1.30' },
    { hash: '', verdict: 'missing' },
    { hash: 'xyz', verdict: 'unparsable' },
    { hash: '1234abcd', verdict: 'changed' },
  ];
  for (const row of rows) {
    const st = healthyStatus(pod, row.version === '1.30' ? 'whole-spec' : 'name+image');
    setStatus(st, 'app', { hash: row.hash });
    const a = computePodActions(pod, st, { kubeletVersion: row.version });
    const check = a.hashChecks.find((h) => h.name === 'app');
    assert.equal(check?.verdict, row.verdict, `${row.version ?? '1.33'} ${row.hash}`);
  }
});

test('waiting notes say what kubelet waits for', () => {
  const pod = podWithSidecars();
  pod.spec!.initContainers![1].startupProbe = { exec: { command: ['true'] } };
  const st = healthyStatus(pod, 'name+image');
  onlyStatuses(st, ['init1', 'sidecar1']);
  const a = computePodActions(pod, st);
  assert.equal(a.waiting.length, 1);
  assert.match(waitingText(a.waiting[0], a.kubeletVersion), /sidecar1.*startupProbe/);
});

test('refuse kubelets older than 1.29 with the supported range', () => {
  for (const v of ['1.27', '1.28', 'v1.28.7']) {
    assert.throws(
      () => computePodActions(basePod(), healthyStatus(basePod(), 'name+image'), { kubeletVersion: v }),
      (e: unknown) =>
        e instanceof SyncpodError &&
        /^kubelet 1\.2[78](\.7)? is not supported: syncpod mirrors kubelet 1\.29–1\.37$/.test(e.message),
      v,
    );
  }
});

test('plan every minor 1.29–1.37; a newer kubelet gets 1.37 rules and a warning', () => {
  const pod = basePod();
  for (let m = 29; m <= 37; m++) {
    const a = computePodActions(pod, healthyStatus(pod, m <= 30 ? 'whole-spec' : 'name+image'), {
      kubeletVersion: `1.${m}`,
    });
    assert.deepEqual(
      [a.killPod, a.containersToStart, a.containersToKill],
      [false, [], []],
      `1.${m} keeps a healthy pod`,
    );
  }
  const rules = resolveKubeletRules('1.38.1');
  assert.equal(rules.version, '1.38.1');
  assert.equal(rules.rulesMinor, 37);
  assert.match(rules.warnings[0], /newer than the newest mirrored kubelet 1\.37/);
});

test('reject malformed versions and impossible gates with one-line errors', () => {
  const rows: ComputePodActionsOptions[] = [
    { kubeletVersion: 'banana' },
    { kubeletVersion: '2.1' },
    { kubeletVersion: '1.33', featureGates: { SidecarContainers: false } },
    { kubeletVersion: '1.34', featureGates: { LegacySidecarContainers: true } },
    { kubeletVersion: '1.35', featureGates: { InPlacePodVerticalScaling: false } },
    { kubeletVersion: '1.33', featureGates: { ContainerRestartRules: true } },
  ];
  for (const opts of rows) {
    assert.throws(
      () => computePodActions(basePod(), healthyStatus(basePod(), 'name+image'), opts),
      (e: unknown) => e instanceof SyncpodError && !e.message.includes('\n'),
      JSON.stringify(opts),
    );
  }
});

test('accept patch and v-prefixed versions (the patch is kept), and default to 1.37', () => {
  const pod = basePod();
  assert.equal(computePodActions(pod, healthyStatus(pod, 'name+image')).kubeletVersion, '1.37');
  assert.equal(
    computePodActions(pod, healthyStatus(pod, 'name+image'), { kubeletVersion: 'v1.33.4' }).kubeletVersion,
    '1.33.4',
  );
  assert.equal(
    computePodActions(pod, healthyStatus(pod, 'whole-spec'), { kubeletVersion: '1.29.7' }).kubeletVersion,
    '1.29.7',
  );
});

test('reject a pod without containers', () => {
  const pod = basePod();
  pod.spec!.containers = [];
  assert.throws(() => computePodActions(pod, healthyStatus(pod, 'name+image')), SyncpodError);
});
