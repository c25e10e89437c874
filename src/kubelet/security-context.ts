// Linux security contexts of sandboxes and containers, mirroring kubelet 1.33
// (kuberuntime/security_context.go, kuberuntime_sandbox_linux.go, kuberuntime/util
// NamespacesForPod, pkg/securitycontext/util.go, kuberuntime helpers getSeccompProfile /
// getAppArmorProfile, security_context_others.go verifyRunAsNonRoot). Pure.
//
// Not mirrored: volume-derived supplemental groups (GID annotations of persistent volumes, which
// syncpod never mounts), supplementalGroupsPolicy's runtime checks. The user-namespace range of a
// hostUsers: false pod is an input (allocated by the executor as kubelet's manager does).

import type { Container, Pod, PodSecurityContext, SecurityContext, SELinuxOptions } from './api-types';
import type {
  Capability,
  LinuxContainerSecurityContext,
  LinuxSandboxSecurityContext,
  NamespaceMode,
  NamespaceOption,
  SecurityProfile,
  SELinuxOption,
} from '../cri/types';
import { SyncpodError } from '../errors';
import type { ConfigGates } from './config-gates';
import { formatPod } from './labels';

/** /proc and /sys paths masked in every container unless procMount is Unmasked (kubelet 1.33 list). */
export const DEFAULT_MASKED_PATHS = [
  '/proc/asound',
  '/proc/acpi',
  '/proc/kcore',
  '/proc/keys',
  '/proc/latency_stats',
  '/proc/timer_list',
  '/proc/timer_stats',
  '/proc/sched_debug',
  '/proc/scsi',
  '/sys/firmware',
  '/sys/devices/virtual/powercap',
];
/** /proc paths made read-only unless procMount is Unmasked. */
export const DEFAULT_READONLY_PATHS = ['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger'];

const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

export interface NamespaceInputs {
  gates: Pick<ConfigGates, 'UserNamespacesSupport' | 'SupplementalGroupsPolicy' | 'ProcMountType'>;
  /**
   * The pod's user-namespace range for hostUsers: false (kubelet's user-namespace manager keeps it
   * in <pod dir>/userns): host ids [hostId, hostId+length) map to 0 in the pod.
   */
  userNamespace?: UserNamespaceRange;
}

/** One id range (uids and gids alike, as kubelet allocates them). */
export interface UserNamespaceRange {
  hostId: number;
  length: number;
}

/** The security-profile message with its proto defaults. */
function profile(type: SecurityProfile['profileType'], localhostRef = ''): SecurityProfile {
  return { profileType: type, localhostRef };
}

/** NamespacesForPod: IPC/network NODE or POD; PID NODE, POD (shareProcessNamespace) or CONTAINER. */
export function namespacesForPod(pod: Pod, o: NamespaceInputs): NamespaceOption {
  const spec = pod.spec;
  const pid: NamespaceMode = spec?.hostPID ? 'NODE' : spec?.shareProcessNamespace ? 'POD' : 'CONTAINER';
  const ns: NamespaceOption = {
    network: spec?.hostNetwork ? 'NODE' : 'POD',
    pid,
    ipc: spec?.hostIPC ? 'NODE' : 'POD',
    targetId: '',
  };
  if (!o.gates.UserNamespacesSupport) {
    if (spec?.hostUsers !== undefined && spec?.hostUsers !== null) {
      throw new SyncpodError('the feature gate "UserNamespacesSupport" is disabled: can\'t set spec.HostUsers');
    }
    return ns;
  }
  if (spec?.hostUsers !== false) {
    ns.usernsOptions = { mode: 'NODE', uids: [], gids: [] };
    return ns;
  }
  if (spec.hostNetwork || spec.hostPID || spec.hostIPC) {
    throw new SyncpodError(
      `pod ${pod.metadata?.name ?? ''}: hostUsers: false cannot be combined with hostNetwork, hostPID or hostIPC`,
    );
  }
  const r = o.userNamespace;
  if (!r)
    throw new SyncpodError(
      `pod ${pod.metadata?.name ?? ''}: hostUsers: false needs a user-namespace range, and none was allocated`,
    );
  const map = [{ hostId: r.hostId, containerId: 0, length: r.length }];
  ns.usernsOptions = { mode: 'POD', uids: map, gids: map.map((m) => ({ ...m })) };
  return ns;
}

function selinux(o: SELinuxOptions | undefined): SELinuxOption | undefined {
  if (!o) return undefined;
  return { user: o.user ?? '', role: o.role ?? '', type: o.type ?? '', level: o.level ?? '' };
}

function int64(v: number | undefined): { value: string } | undefined {
  return v === undefined || v === null ? undefined : { value: String(v) };
}

/** Any container (init, regular, ephemeral) privileged. */
export function hasPrivilegedContainer(pod: Pod): boolean {
  const all = [
    ...(pod.spec?.initContainers ?? []),
    ...(pod.spec?.containers ?? []),
    ...(pod.spec?.ephemeralContainers ?? []),
  ];
  return all.some((c) => c.securityContext?.privileged === true);
}

/** The sandbox's LinuxSandboxSecurityContext (generatePodSandboxLinuxConfig). */
export function sandboxSecurityContext(pod: Pod, o: NamespaceInputs): LinuxSandboxSecurityContext {
  const sc: LinuxSandboxSecurityContext = {
    readonlyRootfs: false,
    supplementalGroups: [],
    supplementalGroupsPolicy: 'Merge',
    privileged: hasPrivilegedContainer(pod),
    seccomp: profile('RuntimeDefault'),
    seccompProfilePath: '',
  };
  const psc = pod.spec?.securityContext;
  if (psc) {
    sc.runAsUser = int64(psc.runAsUser);
    sc.runAsGroup = int64(psc.runAsGroup);
    sc.namespaceOptions = namespacesForPod(pod, o);
    if (psc.fsGroup !== undefined && psc.fsGroup !== null) sc.supplementalGroups.push(String(psc.fsGroup));
    for (const g of psc.supplementalGroups ?? []) sc.supplementalGroups.push(String(g));
    sc.supplementalGroupsPolicy = supplementalGroupsPolicy(psc, o.gates.SupplementalGroupsPolicy);
    sc.selinuxOptions = selinux(psc.seLinuxOptions);
  }
  return sc;
}

/** Gate off: the API server drops the field, so the runtime gets Merge. */
function supplementalGroupsPolicy(psc: PodSecurityContext | undefined, gateOn: boolean): 'Merge' | 'Strict' {
  if (!gateOn) return 'Merge';
  const p = (psc as { supplementalGroupsPolicy?: string } | undefined)?.supplementalGroupsPolicy;
  if (p === undefined || p === 'Merge') return 'Merge';
  if (p === 'Strict') return 'Strict';
  throw new SyncpodError(`spec.securityContext.supplementalGroupsPolicy: unsupported supplementalGroupsPolicy: ${p}`);
}

/** DetermineEffectiveSecurityContext: pod fields overlaid by the container's. */
export function effectiveSecurityContext(pod: Pod, container: Container): SecurityContext {
  const psc = pod.spec?.securityContext;
  const csc = container.securityContext;
  const eff: SecurityContext = {};
  if (psc) {
    if (psc.seLinuxOptions) eff.seLinuxOptions = { ...psc.seLinuxOptions };
    if (psc.windowsOptions) eff.windowsOptions = { ...psc.windowsOptions };
    if (psc.runAsUser !== undefined) eff.runAsUser = psc.runAsUser;
    if (psc.runAsGroup !== undefined) eff.runAsGroup = psc.runAsGroup;
    if (psc.runAsNonRoot !== undefined) eff.runAsNonRoot = psc.runAsNonRoot;
  }
  if (!csc) return eff;
  if (csc.seLinuxOptions) eff.seLinuxOptions = { ...csc.seLinuxOptions };
  if (csc.windowsOptions) eff.windowsOptions = { ...eff.windowsOptions, ...csc.windowsOptions };
  for (const key of [
    'capabilities',
    'privileged',
    'runAsUser',
    'runAsGroup',
    'runAsNonRoot',
    'readOnlyRootFilesystem',
    'allowPrivilegeEscalation',
    'procMount',
  ] as const) {
    if (csc[key] !== undefined) (eff as Record<string, unknown>)[key] = csc[key];
  }
  return eff;
}

/** The image's user from ImageStatus: a numeric uid, a user name, or neither (root). */
export interface ImageUser {
  uid?: number | string;
  username?: string;
}

/** getImageUser: uid if set, else username, else uid 0. */
export function resolveImageUser(u: ImageUser | undefined): { uid?: string; username: string } {
  if (u?.uid !== undefined && u.uid !== '') return { uid: String(u.uid), username: '' };
  if (u?.username) return { username: u.username };
  return { uid: '0', username: '' };
}

/** verifyRunAsNonRoot with kubelet's messages. */
export function verifyRunAsNonRoot(pod: Pod, container: Container, user: { uid?: string; username: string }): void {
  const eff = effectiveSecurityContext(pod, container);
  if (eff.runAsNonRoot !== true) return;
  if (eff.runAsUser !== undefined && eff.runAsUser !== null) {
    if (eff.runAsUser === 0) {
      throw new SyncpodError(
        `container's runAsUser breaks non-root policy (pod: "${formatPod(pod)}", container: ${container.name})`,
      );
    }
    return;
  }
  if (user.uid === '0') {
    throw new SyncpodError(
      `container has runAsNonRoot and image will run as root (pod: "${formatPod(pod)}", container: ${container.name})`,
    );
  }
  if (user.uid === undefined && user.username !== '') {
    throw new SyncpodError(
      `container has runAsNonRoot and image has non-numeric user (${user.username}), cannot verify user is non-root (pod: "${formatPod(pod)}", container: ${container.name})`,
    );
  }
}

function joinPath(root: string, rel: string): string {
  const parts: string[] = [];
  for (const p of `${root}/${rel}`.split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') parts.pop();
    else parts.push(p);
  }
  return '/' + parts.join('/');
}

/** getSeccompProfile: container field, else pod field, else RuntimeDefault/Unconfined by --seccomp-default. */
export function seccompProfile(
  pod: Pod,
  container: Container,
  seccompDefault: boolean,
  kubeletRoot: string,
): SecurityProfile {
  const p = container.securityContext?.seccompProfile ?? pod.spec?.securityContext?.seccompProfile;
  if (!p) return profile(seccompDefault ? 'RuntimeDefault' : 'Unconfined');
  if (p.type === 'RuntimeDefault') return profile('RuntimeDefault');
  if (p.type === 'Localhost') {
    if (!p.localhostProfile)
      throw new SyncpodError('localhostProfile must be set if seccompProfile type is Localhost.');
    return profile('Localhost', joinPath(`${kubeletRoot}/seccomp`, p.localhostProfile));
  }
  return profile('Unconfined');
}

/** getAppArmorProfile: container field, then the legacy pod annotation, then the pod field. */
export function appArmorProfile(
  pod: Pod,
  container: Container,
): { apparmor?: SecurityProfile; apparmorProfile: string } {
  type Ap = { type: string; localhostProfile?: string };
  let p: Ap | undefined = (container.securityContext as { appArmorProfile?: Ap } | undefined)?.appArmorProfile;
  if (!p) {
    const ann = pod.metadata?.annotations?.[APPARMOR_ANNOTATION_PREFIX + container.name];
    if (ann === 'runtime/default') p = { type: 'RuntimeDefault' };
    else if (ann === 'unconfined') p = { type: 'Unconfined' };
    else if (ann?.startsWith('localhost/')) p = { type: 'Localhost', localhostProfile: ann.slice('localhost/'.length) };
  }
  p ??= (pod.spec?.securityContext as { appArmorProfile?: Ap } | undefined)?.appArmorProfile;
  if (!p) return { apparmorProfile: '' };
  switch (p.type) {
    case 'RuntimeDefault':
      return { apparmor: profile('RuntimeDefault'), apparmorProfile: 'runtime/default' };
    case 'Unconfined':
      return { apparmor: profile('Unconfined'), apparmorProfile: 'unconfined' };
    case 'Localhost':
      if (!p.localhostProfile)
        throw new SyncpodError(`container ${container.name}: missing localhost apparmor profile name`);
      return { apparmor: profile('Localhost', p.localhostProfile), apparmorProfile: `localhost/${p.localhostProfile}` };
    default:
      throw new SyncpodError(`container ${container.name}: unknown apparmor profile type: "${p.type}"`);
  }
}

export interface ContainerSecurityInputs extends NamespaceInputs {
  /** The image user from ImageStatus, already resolved (resolveImageUser). */
  imageUser: { uid?: string; username: string };
  /** kubelet --seccomp-default. */
  seccompDefault: boolean;
  /** kubelet --root-dir (seccomp profiles live in <root>/seccomp). */
  kubeletRoot: string;
  /** For an ephemeral container with targetContainerName: the target's CRI container id. */
  targetContainerId?: string;
}

/** determineEffectiveSecurityContext, plus the ephemeral-container PID target. */
export function containerSecurityContext(
  pod: Pod,
  container: Container,
  o: ContainerSecurityInputs,
): LinuxContainerSecurityContext {
  const eff = effectiveSecurityContext(pod, container);
  const caps: Capability | undefined = eff.capabilities
    ? {
        addCapabilities: [...(eff.capabilities.add ?? [])],
        dropCapabilities: [...(eff.capabilities.drop ?? [])],
        addAmbientCapabilities: [],
      }
    : undefined;
  // ProcMountType off: the API server drops procMount, so the default masks apply.
  const unmasked = o.gates.ProcMountType && eff.procMount === 'Unmasked';
  const sc: LinuxContainerSecurityContext = {
    capabilities: caps,
    privileged: eff.privileged === true,
    selinuxOptions: selinux(eff.seLinuxOptions),
    runAsUser: int64(eff.runAsUser),
    runAsGroup: int64(eff.runAsGroup),
    runAsUsername: '',
    readonlyRootfs: eff.readOnlyRootFilesystem === true,
    supplementalGroups: [],
    supplementalGroupsPolicy: 'Merge',
    noNewPrivs: eff.allowPrivilegeEscalation === false,
    maskedPaths: unmasked ? [] : [...DEFAULT_MASKED_PATHS],
    readonlyPaths: unmasked ? [] : [...DEFAULT_READONLY_PATHS],
    seccomp: seccompProfile(pod, container, o.seccompDefault, o.kubeletRoot),
    apparmorProfile: '',
    seccompProfilePath: '',
  };
  const aa = appArmorProfile(pod, container);
  sc.apparmor = aa.apparmor;
  sc.apparmorProfile = aa.apparmorProfile;
  if (!sc.runAsUser) {
    if (o.imageUser.uid !== undefined) sc.runAsUser = { value: o.imageUser.uid };
    sc.runAsUsername = o.imageUser.username;
  }
  sc.namespaceOptions = namespacesForPod(pod, o);
  const psc = pod.spec?.securityContext;
  if (psc) {
    if (psc.fsGroup !== undefined && psc.fsGroup !== null) sc.supplementalGroups.push(String(psc.fsGroup));
    for (const g of psc.supplementalGroups ?? []) sc.supplementalGroups.push(String(g));
    sc.supplementalGroupsPolicy = supplementalGroupsPolicy(psc, o.gates.SupplementalGroupsPolicy);
  }
  if (o.targetContainerId !== undefined && sc.namespaceOptions.pid === 'CONTAINER') {
    sc.namespaceOptions.pid = 'TARGET';
    sc.namespaceOptions.targetId = o.targetContainerId;
  }
  return sc;
}
