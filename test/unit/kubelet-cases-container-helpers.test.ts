// kubelet's pkg/kubelet/container/helpers_test.go, re-expressed: TestShouldContainerBeRestarted
// (per pod restartPolicy, and a pod being deleted) and TestShouldAllContainersRestart (the
// AllContainersRestarting condition, a RestartAllContainers rule matched by a runtime instance of a
// regular, init or sidecar container, or by a terminated state in the API status).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, ContainerRestartRule, Pod, PodStatus as ApiPodStatus } from '../../src/kubelet/api-types';
import { shouldAllContainersRestart, shouldContainerBeRestarted } from '../../src/kubelet/container-helpers';
import { resolveKubeletRules } from '../../src/kubelet/kubelet-version';
import type { ContainerState, PodStatus } from '../../src/kubelet/types';
import { cstatus } from '../fixtures/planner/kubelet-base';

function podStatus(entries: Array<[string, ContainerState, number?]>): PodStatus {
  return {
    uid: 'uid',
    name: 'pod',
    namespace: 'ns',
    ips: [],
    sandboxStatuses: [],
    containerStatuses: entries.map(([name, state, exitCode]) => cstatus(`id-${name}`, name, state, '', { exitCode: exitCode ?? 0 })),
  };
}

test('TestShouldContainerBeRestarted: per pod restartPolicy Never, OnFailure, Always (every mirrored minor)', () => {
  const names = ['no-history', 'alive', 'succeed', 'failed', 'unknown', 'created'];
  const status = podStatus([
    ['alive', 'running'],
    ['succeed', 'exited', 0],
    ['failed', 'exited', 1],
    ['unknown', 'unknown'],
    ['created', 'created'],
  ]);
  // [Never, OnFailure, Always]
  const want: Record<string, [boolean, boolean, boolean]> = {
    'no-history': [true, true, true],
    alive: [false, false, false],
    succeed: [false, false, true],
    failed: [false, true, true],
    unknown: [true, true, true],
    created: [true, true, true],
  };
  for (const version of ['1.29', '1.33', '1.34', '1.35', '1.36', '1.37']) {
    const rules = resolveKubeletRules(version);
    (['Never', 'OnFailure', 'Always'] as const).forEach((restartPolicy, i) => {
      const pod: Pod = { metadata: { name: 'pod' }, spec: { restartPolicy, containers: names.map((name) => ({ name })) } };
      for (const name of names) {
        const c = pod.spec!.containers.find((x) => x.name === name)!;
        assert.equal(shouldContainerBeRestarted(c, pod, status, rules).restart, want[name][i], `${version} ${restartPolicy} ${name}`);
      }
      const deleting: Pod = { ...pod, metadata: { name: 'pod', deletionTimestamp: '2026-01-01T00:00:00Z' } };
      for (const c of deleting.spec!.containers) {
        assert.equal(shouldContainerBeRestarted(c, deleting, status, rules).restart, false, `${version} ${restartPolicy} ${c.name} while deleting`);
      }
    });
  }
});

test('TestShouldAllContainersRestart (1.36 and 1.37 by default, 1.35 with the gate on)', () => {
  const rule: ContainerRestartRule = { action: 'RestartAllContainers', exitCodes: { operator: 'In', values: [42] } };
  const regular = (extra: Partial<Container> = {}): Pod => ({ spec: { containers: [{ name: 'regular', ...extra }] } });
  const init = (restartPolicy: 'Never' | 'Always'): Pod => ({
    spec: { containers: [], initContainers: [{ name: 'init', restartPolicy, restartPolicyRules: [rule] }] },
  });
  const cases: Array<{ name: string; pod: Pod; status: PodStatus; api?: ApiPodStatus; want: boolean }> = [
    {
      name: 'pod marked with condition',
      pod: regular({ restartPolicy: 'Never' }),
      status: podStatus([['regular', 'running']]),
      api: { conditions: [{ type: 'AllContainersRestarting', status: 'True' }] },
      want: true,
    },
    {
      name: 'regular container exited with matching rules',
      pod: regular({ restartPolicy: 'Never', restartPolicyRules: [rule] }),
      status: podStatus([['regular', 'exited', 42]]),
      want: true,
    },
    { name: 'init container exited with matching rules', pod: init('Never'), status: podStatus([['init', 'exited', 42]]), want: true },
    { name: 'sidecar container exited with matching rules', pod: init('Always'), status: podStatus([['init', 'exited', 42]]), want: true },
    { name: 'container exited without rules', pod: regular(), status: podStatus([['regular', 'exited', 1]]), want: false },
    {
      name: 'api pod status regular container exited with matching rules',
      pod: regular({ restartPolicy: 'Never', restartPolicyRules: [rule] }),
      status: podStatus([]),
      api: { containerStatuses: [{ name: 'regular', image: '', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 42 } } }] },
      want: true,
    },
    {
      name: 'a rule whose exit code does not match',
      pod: regular({ restartPolicy: 'Never', restartPolicyRules: [rule] }),
      status: podStatus([['regular', 'exited', 41]]),
      want: false,
    },
  ];
  for (const [version, gates] of [
    ['1.35', { RestartAllContainersOnContainerExits: true }],
    ['1.36', {}],
    ['1.37', {}],
  ] as const) {
    const rules = resolveKubeletRules(version, gates);
    for (const c of cases) assert.equal(shouldAllContainersRestart(c.pod, c.status, c.api, rules), c.want, `${version}: ${c.name}`);
  }
  // Without the gate (1.35's default) no exit restarts the whole pod.
  const off = resolveKubeletRules('1.35');
  for (const c of cases) assert.equal(shouldAllContainersRestart(c.pod, c.status, c.api, off), false, `1.35 default: ${c.name}`);
});
