// kubelet's security-context tests re-expressed (our words, our layout), from kubernetes/kubernetes
// pkg/kubelet/kuberuntime/security_context_test.go @cb192922 (TestVerifyRunAsNonRoot).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod } from '../../src/kubelet/api-types';
import { appArmorProfile, seccompProfile, verifyRunAsNonRoot } from '../../src/kubelet/security-context';

test('TestVerifyRunAsNonRoot', () => {
  const rows: Array<[string, Container['securityContext'] | undefined, { uid?: string; username: string }, boolean]> = [
    ['Pass if SecurityContext is not set', undefined, { uid: '0', username: '' }, false],
    ['Pass if RunAsNonRoot is not set', { runAsUser: 0 }, { uid: '0', username: '' }, false],
    ['Pass if RunAsNonRoot is false (image user is root)', { runAsNonRoot: false }, { uid: '0', username: '' }, false],
    [
      'Pass if RunAsNonRoot is false (RunAsUser is root)',
      { runAsNonRoot: false, runAsUser: 0 },
      { uid: '0', username: '' },
      false,
    ],
    [
      "Fail if container's RunAsUser is root and RunAsNonRoot is true",
      { runAsNonRoot: true, runAsUser: 0 },
      { uid: '0', username: '' },
      true,
    ],
    ["Fail if image's user is root and RunAsNonRoot is true", { runAsNonRoot: true }, { uid: '0', username: '' }, true],
    ["Fail if image's username is set and RunAsNonRoot is true", { runAsNonRoot: true }, { username: 'test' }, true],
    [
      "Pass if image's user is non-root and RunAsNonRoot is true",
      { runAsNonRoot: true },
      { uid: '1000', username: '' },
      false,
    ],
    [
      "Pass if container's user and image's user aren't set and RunAsNonRoot is true",
      { runAsNonRoot: true },
      { username: '' },
      false,
    ],
  ];
  for (const [name, sc, user, fail] of rows) {
    const c: Container = {
      name: 'foo',
      image: 'busybox',
      imagePullPolicy: 'IfNotPresent',
      command: ['testCommand'],
      workingDir: 'testWorkingDir',
      ...(sc ? { securityContext: sc } : {}),
    };
    const pod: Pod = { metadata: { uid: '12345678', name: 'bar', namespace: 'new' }, spec: { containers: [c] } };
    if (fail) assert.throws(() => verifyRunAsNonRoot(pod, c, user), /non-root|runAsNonRoot/, name);
    else assert.doesNotThrow(() => verifyRunAsNonRoot(pod, c, user), name);
  }
});

// pkg/kubelet/kuberuntime/helpers_test.go: TestGetSeccompProfile / TestGetSeccompProfileDefaultSeccomp
// (stored copy id 254227013, a 1.27+ tree) and TestGetAppArmorProfile @6785e9ed.

test('TestGetSeccompProfile and TestGetSeccompProfileDefaultSeccomp', () => {
  const ROOT = '/var/lib/kubelet';
  const local = (f: string) => ({ profileType: 'Localhost', localhostRef: `${ROOT}/seccomp/${f}` });
  const unconfined = { profileType: 'Unconfined', localhostRef: '' };
  const runtimeDefault = { profileType: 'RuntimeDefault', localhostRef: '' };
  type P = { type: string; localhostProfile?: string } | undefined;
  const ERR = /localhostProfile must be set if seccompProfile type is Localhost\./;
  const rows: Array<[string, P, P, object | RegExp, object | RegExp]> = [
    // name, pod profile, container profile, want (default off), want (--seccomp-default)
    ['no seccomp', undefined, undefined, unconfined, runtimeDefault],
    [
      'pod seccomp profile set to unconfined returns unconfined',
      { type: 'Unconfined' },
      undefined,
      unconfined,
      unconfined,
    ],
    [
      'container seccomp profile set to unconfined returns unconfined',
      undefined,
      { type: 'Unconfined' },
      unconfined,
      unconfined,
    ],
    ['pod RuntimeDefault', { type: 'RuntimeDefault' }, undefined, runtimeDefault, runtimeDefault],
    ['container RuntimeDefault', undefined, { type: 'RuntimeDefault' }, runtimeDefault, runtimeDefault],
    [
      'pod Localhost',
      { type: 'Localhost', localhostProfile: 'filename' },
      undefined,
      local('filename'),
      local('filename'),
    ],
    ['pod Localhost with empty LocalhostProfile returns error', { type: 'Localhost' }, undefined, ERR, ERR],
    ['container Localhost with empty LocalhostProfile returns error', undefined, { type: 'Localhost' }, ERR, ERR],
    [
      'container Localhost',
      undefined,
      { type: 'Localhost', localhostProfile: 'filename2' },
      local('filename2'),
      local('filename2'),
    ],
    [
      'prioritise container field over pod field',
      { type: 'Unconfined' },
      { type: 'RuntimeDefault' },
      runtimeDefault,
      runtimeDefault,
    ],
    [
      'prioritise container Localhost over pod Localhost',
      { type: 'Localhost', localhostProfile: 'field-pod-profile.json' },
      { type: 'Localhost', localhostProfile: 'field-cont-profile.json' },
      local('field-cont-profile.json'),
      local('field-cont-profile.json'),
    ],
  ];
  for (const [name, podP, cP, wantOff, wantOn] of rows) {
    const c: Container = { name: 'container1', ...(cP ? { securityContext: { seccompProfile: cP } } : {}) };
    const pod: Pod = {
      metadata: { name: 'p', namespace: 'd', uid: 'u' },
      spec: { containers: [c], ...(podP ? { securityContext: { seccompProfile: podP } } : {}) },
    };
    for (const [def, want] of [
      [false, wantOff],
      [true, wantOn],
    ] as const) {
      if (want instanceof RegExp)
        assert.throws(() => seccompProfile(pod, c, def, ROOT), want, `${name} (seccompDefault ${def})`);
      else assert.deepEqual(seccompProfile(pod, c, def, ROOT), want, `${name} (seccompDefault ${def})`);
    }
  }
});

test('TestGetAppArmorProfile (pod-level profile)', () => {
  const rows: Array<
    [
      string,
      { type: string; localhostProfile?: string } | undefined,
      { apparmor?: object; apparmorProfile: string } | 'error',
    ]
  > = [
    ['no appArmor', undefined, { apparmorProfile: '' }],
    [
      'runtime default',
      { type: 'RuntimeDefault' },
      { apparmor: { profileType: 'RuntimeDefault', localhostRef: '' }, apparmorProfile: 'runtime/default' },
    ],
    [
      'unconfined',
      { type: 'Unconfined' },
      { apparmor: { profileType: 'Unconfined', localhostRef: '' }, apparmorProfile: 'unconfined' },
    ],
    [
      'localhost',
      { type: 'Localhost', localhostProfile: 'test' },
      { apparmor: { profileType: 'Localhost', localhostRef: 'test' }, apparmorProfile: 'localhost/test' },
    ],
    ['invalid localhost', { type: 'Localhost' }, 'error'],
    ['invalid type', { type: 'foo' }, 'error'],
  ];
  for (const [name, profile, want] of rows) {
    const c: Container = { name: 'foo' };
    const pod = {
      metadata: { name: 'bar' },
      spec: { containers: [c], securityContext: { appArmorProfile: profile } },
    } as unknown as Pod;
    if (want === 'error') assert.throws(() => appArmorProfile(pod, c), /apparmor profile/, name);
    else assert.deepEqual(appArmorProfile(pod, c), want, name);
  }
});
