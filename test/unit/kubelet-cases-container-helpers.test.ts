// kubelet's pkg/kubelet/container/helpers_test.go, re-expressed: TestShouldContainerBeRestarted
// (per pod restartPolicy, and a pod being deleted), TestShouldAllContainersRestart (the
// AllContainersRestarting condition, a RestartAllContainers rule matched by a runtime instance of a
// regular, init or sidecar container, or by a terminated state in the API status),
// TestExpandCommandAndArgs, TestExpandVolumeMountsWithSubpath and TestMakePortMappings.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, ContainerRestartRule, Pod, PodStatus as ApiPodStatus } from '../../src/kubelet/api-types';
import { shouldAllContainersRestart, shouldContainerBeRestarted } from '../../src/kubelet/container-helpers';
import { resolveKubeletRules } from '../../src/kubelet/kubelet-version';
import type { ContainerState, PodStatus } from '../../src/kubelet/types';
import { cstatus } from '../fixtures/planner/kubelet-base';
import { expandContainerCommandAndArgs, expandSubPathExpr } from '../../src/kubelet/env';
import { containerPortMappings } from '../../src/kubelet/sandbox-config';
import { SyncpodError } from '../../src/errors';

function podStatus(entries: Array<[string, ContainerState, number?]>): PodStatus {
  return {
    uid: 'uid',
    name: 'pod',
    namespace: 'ns',
    ips: [],
    sandboxStatuses: [],
    containerStatuses: entries.map(([name, state, exitCode]) =>
      cstatus(`id-${name}`, name, state, '', { exitCode: exitCode ?? 0 }),
    ),
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
      const pod: Pod = {
        metadata: { name: 'pod' },
        spec: { restartPolicy, containers: names.map((name) => ({ name })) },
      };
      for (const name of names) {
        const c = pod.spec!.containers.find((x) => x.name === name)!;
        assert.equal(
          shouldContainerBeRestarted(c, pod, status, rules).restart,
          want[name][i],
          `${version} ${restartPolicy} ${name}`,
        );
      }
      const deleting: Pod = { ...pod, metadata: { name: 'pod', deletionTimestamp: '2026-01-01T00:00:00Z' } };
      for (const c of deleting.spec!.containers) {
        assert.equal(
          shouldContainerBeRestarted(c, deleting, status, rules).restart,
          false,
          `${version} ${restartPolicy} ${c.name} while deleting`,
        );
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
    {
      name: 'init container exited with matching rules',
      pod: init('Never'),
      status: podStatus([['init', 'exited', 42]]),
      want: true,
    },
    {
      name: 'sidecar container exited with matching rules',
      pod: init('Always'),
      status: podStatus([['init', 'exited', 42]]),
      want: true,
    },
    {
      name: 'container exited without rules',
      pod: regular(),
      status: podStatus([['regular', 'exited', 1]]),
      want: false,
    },
    {
      name: 'api pod status regular container exited with matching rules',
      pod: regular({ restartPolicy: 'Never', restartPolicyRules: [rule] }),
      status: podStatus([]),
      api: {
        containerStatuses: [
          {
            name: 'regular',
            image: '',
            imageID: '',
            ready: false,
            restartCount: 0,
            state: { terminated: { exitCode: 42 } },
          },
        ],
      },
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
    for (const c of cases)
      assert.equal(shouldAllContainersRestart(c.pod, c.status, c.api, rules), c.want, `${version}: ${c.name}`);
  }
  // Without the gate (1.35's default) no exit restarts the whole pod.
  const off = resolveKubeletRules('1.35');
  for (const c of cases)
    assert.equal(shouldAllContainersRestart(c.pod, c.status, c.api, off), false, `1.35 default: ${c.name}`);
});

test('TestExpandCommandAndArgs', () => {
  const env = (pairs: Array<[string, string]>) => pairs.map(([name, value]) => ({ name, value }));
  const cases: Array<[string, Partial<Container>, Array<[string, string]>, string[], string[]]> = [
    ['none', {}, [], [], []],
    [
      'command expanded',
      { command: ['foo', '$(VAR_TEST)', '$(VAR_TEST2)'] },
      [
        ['VAR_TEST', 'zoo'],
        ['VAR_TEST2', 'boo'],
      ],
      ['foo', 'zoo', 'boo'],
      [],
    ],
    [
      'args expanded',
      { args: ['zap', '$(VAR_TEST)', '$(VAR_TEST2)'] },
      [
        ['VAR_TEST', 'hap'],
        ['VAR_TEST2', 'trap'],
      ],
      [],
      ['zap', 'hap', 'trap'],
    ],
    [
      'both expanded',
      { command: ['$(VAR_TEST2)--$(VAR_TEST)', 'foo', '$(VAR_TEST3)'], args: ['foo', '$(VAR_TEST)', '$(VAR_TEST2)'] },
      [
        ['VAR_TEST', 'zoo'],
        ['VAR_TEST2', 'boo'],
        ['VAR_TEST3', 'roo'],
      ],
      ['boo--zoo', 'foo', 'roo'],
      ['foo', 'zoo', 'boo'],
    ],
  ];
  for (const [name, c, envs, command, args] of cases) {
    assert.deepEqual(expandContainerCommandAndArgs({ name: 'c', ...c }, env(envs)), { command, args }, name);
  }
});

test('TestExpandVolumeMountsWithSubpath (the subPathExpr half)', () => {
  const env = (pairs: Array<[string, string]>) => pairs.map(([name, value]) => ({ name, value }));
  // [name, subPathExpr, envs, expanded subPath or null when kubelet refuses it]
  const cases: Array<[string, string, Array<[string, string]>, string | null]> = [
    ['subpath with no expansion', 'foo', [], 'foo'],
    ['volumes with expanded subpath', 'foo/$(POD_NAME)', [['POD_NAME', 'bar']], 'foo/bar'],
    ['volumes expanded with empty subpath', '', [['POD_NAME', 'bar']], ''],
    ['volumes expanded with no envs subpath', '/foo/$(POD_NAME)', [], null],
    ['volumes expanded with leading environment variable', '$(POD_NAME)/bar', [['POD_NAME', 'foo']], 'foo/bar'],
    ['subpaths with empty environment variable', 'foo/$(POD_NAME)/$(ANNOTATION)', [['ANNOTATION', '']], null],
    ['subpaths with missing env variables', 'foo/$(ODD_NAME)/$(POD_NAME)', [['ODD_NAME', 'bar']], null],
    ['subpaths with empty expansion', '$()', [], null],
    [
      'subpaths with nested expandable envs',
      '$(POD_NAME$(ANNOTATION))',
      [
        ['POD_NAME', 'foo'],
        ['ANNOTATION', 'bar'],
      ],
      null,
    ],
    ['mountpath and subpath with no expansion', 'bar', [['POD_NAME', 'foo']], 'bar'],
  ];
  for (const [name, expr, envs, want] of cases) {
    if (want === null) assert.throws(() => expandSubPathExpr(expr, env(envs)), SyncpodError, name);
    else assert.equal(expandSubPathExpr(expr, env(envs)), want, name);
  }
});

test('TestMakePortMappings', () => {
  const port = (name: string, protocol: string, containerPort: number, hostPort: number, hostIP: string) => ({
    ...(name ? { name } : {}),
    protocol,
    containerPort,
    hostPort,
    ...(hostIP ? { hostIP } : {}),
  });
  const mapping = (protocol: string, containerPort: number, hostPort: number, hostIp: string) => ({
    protocol,
    containerPort,
    hostPort,
    hostIp,
  });
  const cases: Array<[string, ReturnType<typeof port>[], ReturnType<typeof mapping>[]]> = [
    [
      'duplicated names are dropped, other families and unnamed ports are kept',
      [
        port('', 'TCP', 80, 8080, '127.0.0.1'),
        port('', 'TCP', 443, 4343, '192.168.0.1'),
        port('foo', 'UDP', 555, 5555, ''),
        port('foo', 'UDP', 888, 8888, ''),
        port('', 'TCP', 80, 8080, '::'),
        port('', 'TCP', 1234, 5678, ''),
      ],
      [
        mapping('TCP', 80, 8080, '127.0.0.1'),
        mapping('TCP', 443, 4343, '192.168.0.1'),
        mapping('UDP', 555, 5555, ''),
        mapping('TCP', 80, 8080, '::'),
        mapping('TCP', 1234, 5678, ''),
      ],
    ],
    [
      'the same container port can be mapped to different host ports',
      [port('', 'TCP', 443, 4343, '192.168.0.1'), port('', 'TCP', 4343, 4343, '192.168.0.1')],
      [mapping('TCP', 443, 4343, '192.168.0.1'), mapping('TCP', 4343, 4343, '192.168.0.1')],
    ],
    [
      'the same container port and host is kept once',
      [port('', 'TCP', 443, 4343, ''), port('', 'TCP', 443, 4343, '')],
      [mapping('TCP', 443, 4343, '')],
    ],
    [
      'multihomed nodes: one mapping per host IP',
      [port('', 'TCP', 443, 4343, '192.168.0.1'), port('', 'TCP', 443, 4343, '172.16.0.1')],
      [mapping('TCP', 443, 4343, '192.168.0.1'), mapping('TCP', 443, 4343, '172.16.0.1')],
    ],
  ];
  for (const [name, ports, want] of cases) assert.deepEqual(containerPortMappings(ports), want, name);
});
