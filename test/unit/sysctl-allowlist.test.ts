// kubelet's sysctl admission (src/kubelet/sysctl-allowlist.ts): the safe list per minor and kernel,
// --allowed-unsafe-sysctls patterns, host namespaces; and the plan of a rejected pod.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../src/kubelet/api-types';
import {
  admitPodSysctls,
  normalizeSysctlName,
  safeSysctlAllowlist,
  SYSCTL_FORBIDDEN_REASON,
} from '../../src/kubelet/sysctl-allowlist';
import { buildPlan } from '../../src/plan/plan';
import { resolveKubeletRules } from '../../src/kubelet/kubelet-version';

const BASE = [
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_unprivileged_port_start',
];
const KERNEL_29 = [
  'net.ipv4.ip_local_reserved_ports',
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
];

test('the safe list grows per minor: tcp_rmem/tcp_wmem in 1.32, tcp_slow_start_after_idle/tcp_notsent_lowat in 1.37', () => {
  const k = '6.8.0-45-generic';
  for (const minor of [29, 30, 31])
    assert.deepEqual(safeSysctlAllowlist(minor, k), [...BASE, ...KERNEL_29], `1.${minor}`);
  for (const minor of [32, 33, 34, 35, 36])
    assert.deepEqual(
      safeSysctlAllowlist(minor, k),
      [...BASE, ...KERNEL_29, 'net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem'],
      `1.${minor}`,
    );
  assert.deepEqual(safeSysctlAllowlist(37, k), [
    ...BASE,
    ...KERNEL_29,
    'net.ipv4.tcp_rmem',
    'net.ipv4.tcp_wmem',
    'net.ipv4.tcp_slow_start_after_idle',
    'net.ipv4.tcp_notsent_lowat',
  ]);
});

test('kernel-dependent entries: dropped on an older kernel and when the kernel is unknown', () => {
  const rows: [string | null, string[]][] = [
    [null, BASE],
    ['garbage', BASE],
    ['3.10.0-1160.el7.x86_64', BASE],
    ['3.16.0', [...BASE, 'net.ipv4.ip_local_reserved_ports']],
    [
      '4.5.7',
      [
        ...BASE,
        'net.ipv4.ip_local_reserved_ports',
        'net.ipv4.tcp_keepalive_time',
        'net.ipv4.tcp_keepalive_intvl',
        'net.ipv4.tcp_keepalive_probes',
      ],
    ],
    ['4.6.0', [...BASE, ...KERNEL_29, 'net.ipv4.tcp_notsent_lowat']],
    ['4.14.300', [...BASE, ...KERNEL_29, 'net.ipv4.tcp_notsent_lowat']],
    [
      '4.15.0',
      [
        ...BASE,
        ...KERNEL_29,
        'net.ipv4.tcp_rmem',
        'net.ipv4.tcp_wmem',
        'net.ipv4.tcp_slow_start_after_idle',
        'net.ipv4.tcp_notsent_lowat',
      ],
    ],
  ];
  for (const [kernel, want] of rows)
    assert.deepEqual(safeSysctlAllowlist(37, kernel).sort(), [...want].sort(), String(kernel));
});

function pod(sysctls: string[], spec: Record<string, unknown> = {}): Pod {
  return {
    metadata: { name: 'p', namespace: 'default', uid: 'u1' },
    spec: {
      containers: [{ name: 'c', image: 'busybox' }],
      securityContext: { sysctls: sysctls.map((name) => ({ name, value: '1' })) },
      ...spec,
    },
  } as Pod;
}

const node = (minor: number, allowed: string[] = [], kernel: string | null = '6.8.0') => ({
  minor,
  kernelRelease: kernel,
  allowedUnsafeSysctls: allowed,
});

test('admission: safe and allowed sysctls pass, the first other one is SysctlForbidden', () => {
  assert.equal(admitPodSysctls(pod([]), node(33)), null);
  assert.equal(admitPodSysctls(pod(['net.ipv4.tcp_syncookies', 'kernel.shm_rmid_forced']), node(29)), null);
  assert.deepEqual(admitPodSysctls(pod(['net.ipv4.tcp_syncookies', 'net.core.somaxconn', 'kernel.msgmax']), node(33)), {
    reason: SYSCTL_FORBIDDEN_REASON,
    message: 'forbidden sysctl: "net.core.somaxconn" not allowlisted',
    sysctl: 'net.core.somaxconn',
  });
  // tcp_rmem: safe from 1.32, and only on kernel 4.15+.
  assert.notEqual(admitPodSysctls(pod(['net.ipv4.tcp_rmem']), node(31)), null);
  assert.equal(admitPodSysctls(pod(['net.ipv4.tcp_rmem']), node(32)), null);
  assert.notEqual(admitPodSysctls(pod(['net.ipv4.tcp_rmem']), node(32, [], '4.14.0')), null);
  assert.notEqual(admitPodSysctls(pod(['net.ipv4.tcp_rmem']), node(32, [], null)), null);
  assert.notEqual(admitPodSysctls(pod(['net.ipv4.tcp_notsent_lowat']), node(36)), null);
  assert.equal(admitPodSysctls(pod(['net.ipv4.tcp_notsent_lowat']), node(37)), null);
});

test('admission: --allowed-unsafe-sysctls names and prefix* patterns', () => {
  const n = node(34, ['kernel.msg*', 'net.core.somaxconn']);
  assert.equal(admitPodSysctls(pod(['kernel.msgmax', 'kernel.msgmnb', 'net.core.somaxconn']), n), null);
  assert.equal(
    admitPodSysctls(pod(['net.core.somaxconn2']), n)?.message,
    'forbidden sysctl: "net.core.somaxconn2" not allowlisted',
  );
  assert.equal(admitPodSysctls(pod(['kernel.sem']), n)?.reason, 'SysctlForbidden');
  assert.equal(admitPodSysctls(pod(['net.ipv4.conf.all.rp_filter']), node(34, ['net.*'])), null);
});

test('admission: slash-separated names are normalized as kubelet does', () => {
  assert.equal(normalizeSysctlName('net/ipv4/conf/eno2.100/rp_filter'), 'net.ipv4.conf.eno2/100.rp_filter');
  assert.equal(normalizeSysctlName('net.ipv4.conf.eno2/100.rp_filter'), 'net.ipv4.conf.eno2/100.rp_filter');
  assert.equal(admitPodSysctls(pod(['net/ipv4/tcp_syncookies']), node(30)), null);
  assert.equal(
    admitPodSysctls(pod(['net/ipv4/conf/eno2.100/rp_filter']), node(30))?.message,
    'forbidden sysctl: "net.ipv4.conf.eno2/100.rp_filter" not allowlisted',
  );
});

test('admission: a namespaced sysctl the pod shares with the host is refused', () => {
  assert.equal(
    admitPodSysctls(pod(['net.ipv4.tcp_syncookies'], { hostNetwork: true }), node(33))?.message,
    'forbidden sysctl: "net.ipv4.tcp_syncookies" not allowed with host Net enabled',
  );
  assert.equal(
    admitPodSysctls(pod(['kernel.shm_rmid_forced'], { hostIPC: true }), node(33))?.message,
    'forbidden sysctl: "kernel.shm_rmid_forced" not allowed with host IPC enabled',
  );
  assert.equal(admitPodSysctls(pod(['kernel.shm_rmid_forced'], { hostNetwork: true }), node(33)), null);
  // user.* is the User namespace only from 1.37 (then refused unless hostUsers: false); before, not namespaced.
  assert.equal(
    admitPodSysctls(pod(['user.max_user_namespaces']), node(37, ['user.*']))?.message,
    'forbidden sysctl: "user.max_user_namespaces" not allowed with host User enabled',
  );
  assert.equal(admitPodSysctls(pod(['user.max_user_namespaces'], { hostUsers: false }), node(37, ['user.*'])), null);
  assert.equal(admitPodSysctls(pod(['user.max_user_namespaces']), node(36, ['user.*'])), null);
});

test('plan: a rejected pod is blocked with kubelet reason and message; an unknown allowlist is an assumption', () => {
  const p = pod(['net.core.somaxconn']);
  const empty = { uid: 'u1', name: 'p', namespace: 'default', sandboxStatuses: [], containerStatuses: [] };
  const plan = buildPlan({
    pod: p,
    podStatus: empty as never,
    now: 0,
    options: { rules: resolveKubeletRules('1.33', {}) },
  });
  assert.deepEqual(plan.rejected, {
    by: 'kubelet',
    reason: 'SysctlForbidden',
    message: 'forbidden sysctl: "net.core.somaxconn" not allowlisted',
  });
  assert.match(plan.blocked ?? '', /rejected by kubelet: SysctlForbidden/);
  assert.ok(plan.assumptionNotes.some((n) => n.id === 'allowed-unsafe-sysctls'));
  const allowed = buildPlan({
    pod: p,
    podStatus: empty as never,
    now: 0,
    options: { rules: resolveKubeletRules('1.33', {}) },
    sysctlNode: { allowedUnsafeSysctls: ['net.core.*'], allowedUnsafeSysctlsKnown: true, kernelRelease: '6.8.0' },
  });
  assert.equal(allowed.rejected, undefined);
  assert.equal(allowed.blocked, null);
  assert.ok(!allowed.assumptionNotes.some((n) => n.id === 'allowed-unsafe-sysctls'));
});
