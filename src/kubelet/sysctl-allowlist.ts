// kubelet's sysctl admission (pkg/kubelet/sysctl: safe_sysctls.go, allowlist.go; the handler is added
// in kubelet.go NewMainKubelet), kubelet 1.29–1.37: the allowlist is the safe sysctls the kernel has
// plus --allowed-unsafe-sysctls (patterns may end in `*`); a pod whose spec.securityContext.sysctls
// names one outside it, or a namespaced one whose namespace the pod shares with the host, is rejected
// at admission (phase Failed, reason SysctlForbidden). Names are normalized as kubelet does
// (component-helpers NormalizeName: `net/ipv4/conf/eth0.100/rp_filter` -> `net.ipv4.conf.eth0/100.rp_filter`).
// Pure.
import type { Pod } from './api-types';

/** The pod admit result's reason (ForbiddenReason). */
export const SYSCTL_FORBIDDEN_REASON = 'SysctlForbidden';

/** One safe sysctl: the first minor that lists it and the kernel that namespaces it (empty: any). */
interface SafeSysctl {
  name: string;
  since: number;
  kernel: [number, number] | null;
}

/** safe_sysctls.go per minor; kernel versions from pkg/util/kernel/constants.go. */
const SAFE_SYSCTLS: readonly SafeSysctl[] = [
  { name: 'kernel.shm_rmid_forced', since: 29, kernel: null },
  { name: 'net.ipv4.ip_local_port_range', since: 29, kernel: null },
  { name: 'net.ipv4.tcp_syncookies', since: 29, kernel: null },
  { name: 'net.ipv4.ping_group_range', since: 29, kernel: null },
  { name: 'net.ipv4.ip_unprivileged_port_start', since: 29, kernel: null },
  { name: 'net.ipv4.ip_local_reserved_ports', since: 29, kernel: [3, 16] },
  { name: 'net.ipv4.tcp_keepalive_time', since: 29, kernel: [4, 5] },
  { name: 'net.ipv4.tcp_fin_timeout', since: 29, kernel: [4, 6] },
  { name: 'net.ipv4.tcp_keepalive_intvl', since: 29, kernel: [4, 5] },
  { name: 'net.ipv4.tcp_keepalive_probes', since: 29, kernel: [4, 5] },
  { name: 'net.ipv4.tcp_rmem', since: 32, kernel: [4, 15] },
  { name: 'net.ipv4.tcp_wmem', since: 32, kernel: [4, 15] },
  { name: 'net.ipv4.tcp_slow_start_after_idle', since: 37, kernel: [4, 15] },
  { name: 'net.ipv4.tcp_notsent_lowat', since: 37, kernel: [4, 6] },
];

/** "6.8.0-45-generic" -> [6, 8]; null when it does not start with MAJOR.MINOR. */
function kernelOf(release: string | null): [number, number] | null {
  const m = /^(\d+)\.(\d+)/.exec(release ?? '');
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/**
 * SafeSysctlAllowlist for a kubelet minor on a kernel release (uname -r). kubelet drops the
 * kernel-dependent entries when the kernel is older, or when it cannot read the version (null here).
 */
export function safeSysctlAllowlist(minor: number, kernelRelease: string | null): string[] {
  const k = kernelOf(kernelRelease);
  return SAFE_SYSCTLS.filter(
    (s) =>
      s.since <= minor &&
      (s.kernel === null || (k !== null && (k[0] > s.kernel[0] || (k[0] === s.kernel[0] && k[1] >= s.kernel[1])))),
  ).map((s) => s.name);
}

/** NormalizeName: a name whose first separator is `/` has its `.` and `/` swapped. */
export function normalizeSysctlName(name: string): string {
  const first = name.search(/[./]/);
  if (first === -1 || name[first] === '.') return name;
  return name.replace(/[./]/g, (ch) => (ch === '.' ? '/' : '.'));
}

type SysctlNamespace = 'IPC' | 'Net' | 'UTS' | 'User' | '';

/** component-helpers namespace.go: UTS and User joined the table in 1.37 (with hostUsers checks). */
function namespaceOf(name: string, minor: number): SysctlNamespace {
  const exact: Record<string, SysctlNamespace> = {
    'kernel.sem': 'IPC',
    'kernel.shmall': 'IPC',
    'kernel.shmmax': 'IPC',
    'kernel.shmmni': 'IPC',
    'kernel.shm_rmid_forced': 'IPC',
    'kernel.shm': 'IPC',
    'kernel.msgmax': 'IPC',
    'kernel.msgmnb': 'IPC',
    'kernel.msgmni': 'IPC',
    'kernel.msg': 'IPC',
  };
  if (minor >= 37) exact['kernel.domainname'] = 'UTS';
  if (Object.hasOwn(exact, name)) return exact[name];
  if (name.startsWith('net.')) return 'Net';
  if (name.startsWith('fs.mqueue.')) return 'IPC';
  if (minor >= 37 && name.startsWith('user.')) return 'User';
  return '';
}

export interface SysctlAdmissionInput {
  /** The kubelet minor mirrored (29..37). */
  minor: number;
  /** The node's kernel release (uname -r); null when unknown. */
  kernelRelease: string | null;
  /** kubelet's allowedUnsafeSysctls (--allowed-unsafe-sysctls), exact names or `prefix*` patterns. */
  allowedUnsafeSysctls: readonly string[];
}

export interface PodAdmitRejection {
  reason: string;
  message: string;
  /** The sysctl that was refused, as the pod spells it. */
  sysctl: string;
}

/**
 * The sysctl admit handler (patternAllowlist.Admit): null when kubelet admits the pod, else its
 * reason and message. Sysctls are checked in spec order; the first refused one is reported.
 */
export function admitPodSysctls(pod: Pod, input: SysctlAdmissionInput): PodAdmitRejection | null {
  const sysctls = pod.spec?.securityContext?.sysctls ?? [];
  if (sysctls.length === 0) return null;
  const exact = new Map<string, SysctlNamespace>();
  const prefixes: [string, SysctlNamespace][] = [];
  for (const pattern of [...safeSysctlAllowlist(input.minor, input.kernelRelease), ...input.allowedUnsafeSysctls]) {
    const norm = normalizeSysctlName(pattern);
    const star = norm.indexOf('*');
    const key = star === -1 ? norm : norm.slice(0, star);
    const ns = namespaceOf(key, input.minor);
    if (star === -1) exact.set(key, ns);
    else prefixes.push([key, ns]);
  }
  const spec = pod.spec!;
  const hostUsers = spec.hostUsers === undefined || spec.hostUsers === null || spec.hostUsers === true;
  const shared = (ns: SysctlNamespace): boolean =>
    (ns === 'IPC' && spec.hostIPC === true) ||
    (ns === 'Net' && spec.hostNetwork === true) ||
    (input.minor >= 37 && ns === 'User' && hostUsers);
  for (const s of sysctls) {
    const name = normalizeSysctlName(s.name ?? '');
    const ns = exact.has(name) ? exact.get(name) : prefixes.find(([p]) => name.startsWith(p))?.[1];
    const why =
      ns === undefined
        ? `"${name}" not allowlisted`
        : shared(ns)
          ? `"${name}" not allowed with host ${ns} enabled`
          : null;
    if (why !== null)
      return { reason: SYSCTL_FORBIDDEN_REASON, message: `forbidden sysctl: ${why}`, sysctl: s.name ?? '' };
  }
  return null;
}
