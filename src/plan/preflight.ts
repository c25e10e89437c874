// What kubelet's Kubelet.syncPod checks and prepares before it calls the runtime manager's SyncPod,
// as plan steps (kubelet 1.33, kubelet.go SyncPod): the runtime network must be ready unless the
// pod uses the host network; the pod cgroup of its QoS class is created when missing (cgroups per
// QoS); the pod data directories are made; volumes are mounted (hostPath: types that must exist
// are checked, the ...OrCreate types are created); and, at each container start, the image is
// ensured per imagePullPolicy. Pure: the node facts are observed elsewhere and passed in.

import type { Pod } from '../kubelet/api-types';
import type { VolumeVerdict } from '../kubelet/volumes';

/** The closed vocabulary of preflight actions, in kubelet's order. */
export const PREFLIGHT_ACTIONS = [
  'network-not-ready',
  'volume-unavailable',
  'create-pod-cgroup',
  'make-pod-data-dirs',
  'create-host-path',
  'host-path-missing',
  'pull-image',
  'image-never-pull',
] as const;
export type PreflightAction = (typeof PREFLIGHT_ACTIONS)[number];

/** 'pod': kubelet stops this pod's sync there; 'container': that container does not start. */
export type Blocking = 'pod' | 'container';

export interface PreflightStep {
  action: PreflightAction;
  target: string;
  reason: string;
  /** Present when the step is a refusal rather than work. */
  blocking?: Blocking;
  /** Directories to create (cgroup, pod dirs, hostPath). */
  paths?: string[];
  /** The mode kubelet gives what it creates. */
  mode?: number;
}

export type PathKind = 'dir' | 'file' | 'socket' | 'char' | 'block' | 'other';

export interface PreflightFacts {
  /** The runtime's NetworkReady condition; null when the runtime did not report one. */
  network: { ready: boolean; reason: string; message: string } | null;
  /** Undefined when cgroups per QoS is off (no pod cgroup). */
  podCgroup?: { name: string; missing: string[] };
  /** `<root>/pods/<uid>` and its volumes and plugins directories. */
  podDirs: Array<{ path: string; exists: boolean }>;
  /** Each hostPath volume's path and what is there now (undefined: nothing). */
  hostPaths: Array<{ volume: string; path: string; kind?: PathKind }>;
  /** For each container the plan starts: its image and whether the runtime has it. */
  images: Array<{ container: string; image: string; present: boolean }>;
  /** How syncpod provides each volume (the plan's volumes); absent: not checked. */
  volumes?: readonly VolumeVerdict[];
}

export interface Preflight {
  steps: PreflightStep[];
  /** Why kubelet would not sync the pod at all now (a 'pod'-blocking step), or null. */
  blocked: string | null;
}

/** The message kubelet's syncPod returns when the runtime network is not ready. */
export function networkNotReadyMessage(n: PreflightFacts['network']): string {
  const cond = n === null ? '<nil>' : `NetworkReady=${n.ready} reason:${n.reason} message:${n.message}`;
  return `network is not ready: container runtime network not ready: ${cond}`;
}

const HOST_PATH_KIND: Record<string, PathKind> = {
  Directory: 'dir',
  File: 'file',
  Socket: 'socket',
  CharDevice: 'char',
  BlockDevice: 'block',
};

/** hostPath type checks of the volume plugin (host_path.go checkType), as preflight steps. */
export function hostPathSteps(pod: Pod, facts: PreflightFacts): PreflightStep[] {
  const out: PreflightStep[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    if (!v.hostPath) continue;
    const type = v.hostPath.type ?? '';
    const fact = facts.hostPaths.find((h) => h.volume === v.name);
    const kind = fact?.kind;
    const path = v.hostPath.path;
    if (type === 'DirectoryOrCreate' || type === 'FileOrCreate') {
      if (kind === undefined) {
        const dir = type === 'DirectoryOrCreate';
        out.push({
          action: 'create-host-path',
          target: `volume ${v.name}`,
          reason: `${path} does not exist; hostPath type ${type} creates it (${dir ? 'directory 0755' : 'empty file 0644'})`,
          paths: [path],
          mode: dir ? 0o755 : 0o644,
        });
      } else if ((type === 'DirectoryOrCreate' && kind !== 'dir') || (type === 'FileOrCreate' && kind !== 'file')) {
        out.push({
          action: 'host-path-missing',
          target: `volume ${v.name}`,
          reason: `hostPath type check failed: ${path} is not a ${type === 'FileOrCreate' ? 'file' : 'directory'}`,
          blocking: 'pod',
        });
      }
      continue;
    }
    const want = HOST_PATH_KIND[type];
    if (want === undefined) continue; // "" (no check) or an unknown type the API would have refused
    if (kind === undefined) {
      out.push({
        action: 'host-path-missing',
        target: `volume ${v.name}`,
        reason: `hostPath type check failed: ${path} does not exist (type ${type})`,
        blocking: 'pod',
      });
    } else if (kind !== want) {
      out.push({
        action: 'host-path-missing',
        target: `volume ${v.name}`,
        reason: `hostPath type check failed: ${path} is not a ${type}`,
        blocking: 'pod',
      });
    }
  }
  return out;
}

/** EnsureImageExists per imagePullPolicy, for the containers the plan starts. */
function imageSteps(pod: Pod, facts: PreflightFacts): PreflightStep[] {
  const spec = pod.spec;
  const all = [
    ...(spec?.initContainers ?? []),
    ...(spec?.containers ?? []),
    ...((spec?.ephemeralContainers ?? []) as Array<{ name: string; imagePullPolicy?: string }>),
  ];
  const out: PreflightStep[] = [];
  for (const img of facts.images) {
    const policy = all.find((c) => c.name === img.container)?.imagePullPolicy ?? 'IfNotPresent';
    if (policy === 'Always') {
      out.push({
        action: 'pull-image',
        target: img.container,
        reason: `imagePullPolicy Always: kubelet pulls ${img.image} before the start`,
      });
    } else if (!img.present && policy === 'Never') {
      out.push({
        action: 'image-never-pull',
        target: img.container,
        reason: `ErrImageNeverPull: Container image "${img.image}" is not present with pull policy of Never`,
        blocking: 'container',
      });
    } else if (!img.present) {
      out.push({
        action: 'pull-image',
        target: img.container,
        reason: `${img.image} is not present (imagePullPolicy ${policy})`,
      });
    }
  }
  return out;
}

/** The preflight steps for one pod, in kubelet's order; a network refusal ends the list. */
export function buildPreflight(pod: Pod, facts: PreflightFacts): Preflight {
  const ref = `${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name ?? ''}`;
  if (pod.spec?.hostNetwork !== true && (facts.network === null || !facts.network.ready)) {
    const reason = networkNotReadyMessage(facts.network);
    return { steps: [{ action: 'network-not-ready', target: ref, reason, blocking: 'pod' }], blocked: reason };
  }
  const steps: PreflightStep[] = [];
  // kubelet mounts volumes after making the pod cgroup and directories; syncpod refuses a volume it
  // cannot provide first, so a refused pod leaves nothing behind.
  for (const v of facts.volumes ?? []) {
    if (v.provision !== 'unsupported') continue;
    steps.push({
      action: 'volume-unavailable',
      target: `volume ${v.name}`,
      reason: `${v.type}: ${v.detail}`,
      blocking: 'pod',
    });
  }
  // So is a hostPath that fails its type check (kubelet would stop there too, after making them).
  const hostPaths = hostPathSteps(pod, facts);
  steps.push(...hostPaths.filter((s) => s.blocking === 'pod'));
  if (steps.length > 0) return { steps, blocked: steps.map((s) => `${s.target}: ${s.reason}`).join('; ') };
  if (facts.podCgroup && facts.podCgroup.missing.length > 0) {
    steps.push({
      action: 'create-pod-cgroup',
      target: facts.podCgroup.name,
      reason: 'the pod cgroup of its QoS class does not exist; kubelet creates it before the sandbox',
      paths: facts.podCgroup.missing,
    });
  }
  const missingDirs = facts.podDirs.filter((d) => !d.exists).map((d) => d.path);
  if (missingDirs.length > 0) {
    steps.push({
      action: 'make-pod-data-dirs',
      target: ref,
      reason: 'the pod data directories are missing (makePodDataDirs)',
      paths: missingDirs,
      mode: 0o750,
    });
  }
  steps.push(...hostPaths);
  steps.push(...imageSteps(pod, facts));
  const stop = steps.find((s) => s.blocking === 'pod');
  return { steps, blocked: stop ? stop.reason : null };
}
