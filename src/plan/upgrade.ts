// Upgrade preview: what the target kubelet would do on its first sync to what the current kubelet
// keeps. Pure: both kubelets' computePodActions run on the same pod and observed state; the
// difference is the upgrade's effect, container by container, with the reason.
// Contract (JSON): keys are only ever added; schemaVersion changes when meaning does.

import type { Container, Pod } from '../kubelet/api-types';
import {
  computePodActions,
  type ComputePodActionsOptions,
  type ContainerToKill,
  type PodActions,
  type ProbeResults,
  type StartDecision,
} from '../kubelet/compute-pod-actions';
import { containerGoJson, formatHash, hashSchemeOfMinor, kubeletContainerHash, wholeSpecMinor } from '../kubelet/hash';
import { effectiveGates, resolveKubeletRules, type FeatureGates } from '../kubelet/kubelet-version';
import { startReasonText } from './reasons';
import type { ContainerState, ContainerStatus, PodStatus } from '../kubelet/types';
import type { StartupVerdict } from '../kubelet/startup-checks';

export const UPGRADE_SCHEMA_VERSION = 1;

/**
 * restart: running now, kept by the current kubelet, killed and started again by the target.
 * start: not running, left alone by the current kubelet, (re)started by the target.
 * keep: the target leaves it as it is.
 * pending: the current kubelet would already restart or start it (not the upgrade's doing).
 */
export type UpgradeVerdict = 'restart' | 'start' | 'keep' | 'pending';

/**
 * hash-scheme: the target hashes containers another way (1.30 → 1.31: whole spec → name+image).
 * hash-fields: same scheme, but the target's v1.Container serialises fields the current one did not.
 * pod-restart: the target kills the whole pod (sandbox recreated) where the current does not.
 * kill-rule / start-rule: another rule of the target (probes, restart rules, init handling).
 */
export type UpgradeReasonCode = 'hash-scheme' | 'hash-fields' | 'pod-restart' | 'kill-rule' | 'start-rule';

export interface UpgradeContainer {
  name: string;
  kind: 'init' | 'regular';
  /** The newest instance's CRI id, '' when the container never ran. */
  containerId: string;
  state: ContainerState | 'none';
  verdict: UpgradeVerdict;
  code: UpgradeReasonCode | null;
  reason: string;
  /** Annotation found, hash the current kubelet expects, hash the target expects (hex). */
  hash: { observed: string; current: string | null; target: string | null } | null;
}

export interface UpgradePod {
  pod: { namespace: string; name: string; uid: string };
  /** Init containers first (spec order), then regular containers (spec order). */
  containers: UpgradeContainer[];
  /** Pod-level differences: init path, sandbox. */
  notes: string[];
  restarts: number;
}

export interface GateFlip {
  gate: string;
  current: boolean | null;
  target: boolean | null;
}

export interface UpgradePlan {
  schemaVersion: number;
  from: string;
  to: string;
  /**
   * Whether the target kubelet would start on this node: its start-up preconditions the node fails
   * (blockers: it exits; warnings: it starts and says so). Null when the node was not examined.
   */
  node: StartupVerdict | null;
  /** Effective gates that differ between the two kubelets (null: the gate does not exist there). */
  gateChanges: GateFlip[];
  pods: UpgradePod[];
  summary: {
    pods: number;
    running: number;
    restart: number;
    start: number;
    keep: number;
    pending: number;
    text: string;
  };
  changes: boolean;
}

export interface UpgradePodInput {
  /** The pod as kubelet holds it (API defaults applied). */
  pod: Pod;
  podStatus: PodStatus;
  /** What the current kubelet's prober holds for this pod (the target starts with none). */
  probeResults?: ProbeResults;
}

export interface UpgradeOptions {
  /** The current kubelet: version and explicitly set feature gates. */
  current: { kubeletVersion: string; featureGates?: FeatureGates };
  /** The target kubelet's version; gates given explicitly for the current one carry over. */
  targetVersion: string;
  /** Words for where the pods are, for the summary ("on this node"); default "in N pods". */
  scope?: string;
  /** The node's start-up verdict for the target kubelet. */
  node?: StartupVerdict;
}

function minorOf(version: string): number {
  return Number(/^v?1\.(\d+)/.exec(version)?.[1] ?? NaN);
}

/**
 * Gates whose effective value differs between the two kubelets, sorted by name. A gate one kubelet
 * lacks counts as off there (null in the data): a new gate that defaults to off changes nothing.
 */
export function gateChanges(current: Record<string, boolean>, target: Record<string, boolean>): GateFlip[] {
  const names = [...new Set([...Object.keys(current), ...Object.keys(target)])].sort();
  return names
    .filter((g) => (current[g] ?? false) !== (target[g] ?? false))
    .map((g) => ({ gate: g, current: current[g] ?? null, target: target[g] ?? null }));
}

/**
 * The gates the target kubelet accepts: one it locks to the other value (or no longer knows) would
 * keep it from starting (a node blocker, startup-checks.ts), so its pods are previewed as the target
 * runs once that gate is removed from the configuration.
 */
export function gatesTargetAccepts(targetVersion: string, gates: FeatureGates): FeatureGates {
  const out: Record<string, boolean> = {};
  for (const [g, v] of Object.entries(gates as Record<string, boolean>)) {
    try {
      resolveKubeletRules(targetVersion, { [g]: v } as FeatureGates);
      out[g] = v;
    } catch {
      // refused by the target: left out
    }
  }
  return out as FeatureGates;
}

/** The preview for many pods (e.g. a node). Throws SyncpodError when either version cannot be planned. */
export function buildUpgradePlan(inputs: UpgradePodInput[], o: UpgradeOptions): UpgradePlan {
  const currentRules = resolveKubeletRules(o.current.kubeletVersion, o.current.featureGates);
  const targetGates = gatesTargetAccepts(o.targetVersion, o.current.featureGates ?? {});
  const targetRules = resolveKubeletRules(o.targetVersion, targetGates);
  // The new kubelet process starts with empty prober state: no probe results carry over.
  const target: ComputePodActionsOptions = { kubeletVersion: o.targetVersion, featureGates: targetGates };
  const pods = inputs.map((i) => upgradePod(i, { ...o.current, probeResults: i.probeResults ?? {} }, target));
  const all = pods.flatMap((p) => p.containers);
  const count = (v: UpgradeVerdict): number => all.filter((c) => c.verdict === v).length;
  const running = all.filter((c) => c.state === 'running').length;
  const restart = count('restart');
  const start = count('start');
  const from = currentRules.version;
  const to = targetRules.version;
  const scope = o.scope ?? `in ${pods.length} pod${pods.length === 1 ? '' : 's'}`;
  let text = `upgrading ${from} → ${to} restarts ${restart} of ${running} running container${running === 1 ? '' : 's'} ${scope}`;
  if (start > 0) text += `, and starts ${start} the current kubelet leaves alone`;
  return {
    schemaVersion: UPGRADE_SCHEMA_VERSION,
    from,
    to,
    node: o.node ?? null,
    gateChanges: gateChanges(effectiveGates(currentRules), effectiveGates(targetRules)),
    pods,
    summary: {
      pods: pods.length,
      running,
      restart,
      start,
      keep: count('keep'),
      pending: count('pending'),
      text: `${text}.`,
    },
    changes: restart + start > 0,
  };
}

function upgradePod(
  input: UpgradePodInput,
  current: ComputePodActionsOptions & { kubeletVersion: string },
  target: ComputePodActionsOptions,
): UpgradePod {
  const { pod, podStatus } = input;
  const a = computePodActions(pod, podStatus, current);
  const b = computePodActions(pod, podStatus, target);
  const fromMinor = minorOf(current.kubeletVersion);
  const toMinor = minorOf(target.kubeletVersion!);
  const spec = pod.spec!;
  const entries: Array<{ c: Container; kind: 'init' | 'regular' }> = [
    ...(spec.initContainers ?? []).map((c) => ({ c, kind: 'init' as const })),
    ...spec.containers.map((c) => ({ c, kind: 'regular' as const })),
  ];
  const containers = entries.map(({ c, kind }) =>
    upgradeContainer(c, kind, newestStatus(podStatus, c.name), a, b, fromMinor, toMinor),
  );
  const notes: string[] = [];
  if (a.initPath !== b.initPath) {
    notes.push(
      `init containers: ${b.kubeletVersion} takes the ${b.initPath} path for this pod, ${a.kubeletVersion} the ${a.initPath} path`,
    );
  }
  if (b.killPod && !a.killPod) {
    notes.push(
      `${b.kubeletVersion} kills the pod and ${b.createSandbox ? 'creates a new sandbox' : 'starts it again'} (${b.killPodCause})`,
    );
  }
  return {
    pod: {
      namespace: pod.metadata?.namespace ?? 'default',
      name: pod.metadata?.name ?? '',
      uid: pod.metadata?.uid || podStatus.uid,
    },
    containers,
    notes,
    restarts: containers.filter((c) => c.verdict === 'restart').length,
  };
}

function newestStatus(st: PodStatus, name: string): ContainerStatus | undefined {
  return st.containerStatuses.find((s) => s.name === name);
}

function killOf(actions: PodActions, s: ContainerStatus | undefined): ContainerToKill | undefined {
  return s ? actions.containersToKill.find((k) => k.containerId === s.id) : undefined;
}

function startOf(actions: PodActions, kind: 'init' | 'regular', name: string): StartDecision | undefined {
  if (kind === 'regular') return actions.containerStarts.find((d) => d.name === name);
  if (actions.nextInitContainerToStart === name && actions.nextInitContainerReason) {
    return { index: -1, name, reason: actions.nextInitContainerReason };
  }
  return actions.initContainerStarts.find((d) => d.name === name);
}

function upgradeContainer(
  c: Container,
  kind: 'init' | 'regular',
  s: ContainerStatus | undefined,
  a: PodActions,
  b: PodActions,
  fromMinor: number,
  toMinor: number,
): UpgradeContainer {
  const state: UpgradeContainer['state'] = s ? s.state : 'none';
  const hash = s ? { observed: s.hash, current: hashOrNull(fromMinor, c), target: hashOrNull(toMinor, c) } : null;
  const base = { name: c.name, kind, containerId: s?.id ?? '', state, hash };
  const running = state === 'running';
  const killedByCurrent = running && (a.killPod || killOf(a, s) !== undefined);
  const killedByTarget = running && (b.killPod || killOf(b, s) !== undefined);
  const startedByCurrent = !running && startOf(a, kind, c.name) !== undefined;
  const startedByTarget = !running && startOf(b, kind, c.name) !== undefined;

  if (killedByCurrent || startedByCurrent) {
    const why = killedByCurrent ? killText(a, s) : startReasonText(startOf(a, kind, c.name)!.reason, kind);
    return {
      ...base,
      verdict: 'pending',
      code: null,
      reason: `the current kubelet ${a.kubeletVersion} already ${killedByCurrent ? 'restarts' : 'starts'} it: ${why}`,
    };
  }
  if (killedByTarget) {
    const kill = killOf(b, s);
    if (!kill) {
      return {
        ...base,
        verdict: 'restart',
        code: 'pod-restart',
        reason: `${b.kubeletVersion} kills the whole pod (${b.killPodCause})`,
      };
    }
    if (kill.why === 'definition-changed') return { ...base, ...hashReason(c, s!, fromMinor, toMinor, b) };
    return { ...base, verdict: 'restart', code: 'kill-rule', reason: `${b.kubeletVersion}: ${killText(b, s)}` };
  }
  if (startedByTarget) {
    return {
      ...base,
      verdict: 'start',
      code: 'start-rule',
      reason: `${b.kubeletVersion}: ${startReasonText(startOf(b, kind, c.name)!.reason, kind)}`,
    };
  }
  const reason = running
    ? hash && hash.current === hash.target
      ? 'same hash under both kubelets'
      : `the ${b.kubeletVersion} hash matches`
    : `neither kubelet starts it (${state === 'none' ? 'never ran' : state})`;
  return { ...base, verdict: 'keep', code: null, reason };
}

function hashOrNull(minor: number, c: Container): string | null {
  try {
    return formatHash(kubeletContainerHash(minor, c));
  } catch {
    return null;
  }
}

function killText(actions: PodActions, s: ContainerStatus | undefined): string {
  if (!killOf(actions, s)) return `the pod is killed (${actions.killPodCause})`;
  return killOf(actions, s)!.message;
}

/** Why the target sees a changed definition where the current kubelet sees none. */
function hashReason(
  c: Container,
  s: ContainerStatus,
  fromMinor: number,
  toMinor: number,
  b: PodActions,
): Pick<UpgradeContainer, 'verdict' | 'code' | 'reason'> {
  const fromScheme = hashSchemeOfMinor(fromMinor);
  const toScheme = hashSchemeOfMinor(toMinor);
  const target = hashOrNull(toMinor, c) ?? '?';
  if (fromScheme !== toScheme) {
    const what = toScheme === 'name+image' ? 'name and image only' : 'the whole container spec';
    return {
      verdict: 'restart',
      code: 'hash-scheme',
      reason: `${b.kubeletVersion} hashes ${what}: it expects ${target}, the container carries ${s.hash || 'no hash'} written by the ${fromScheme} scheme of 1.${fromMinor}`,
    };
  }
  if (fromScheme === 'whole-spec') {
    const fields = serialisedFieldDifference(c, fromMinor, toMinor);
    if (fields.length > 0) {
      return {
        verdict: 'restart',
        code: 'hash-fields',
        reason: `${b.kubeletVersion} serialises ${fields.join(', ')} differently from 1.${fromMinor}: hash ${s.hash} becomes ${target}`,
      };
    }
  }
  return {
    verdict: 'restart',
    code: 'kill-rule',
    reason: `${b.kubeletVersion}: hash ${s.hash} differs from ${target}`,
  };
}

/** Top-level container keys whose Go JSON differs between two whole-spec kubelets. */
function serialisedFieldDifference(c: Container, fromMinor: number, toMinor: number): string[] {
  try {
    const from = JSON.parse(containerGoJson(c, wholeSpecMinor(fromMinor))) as Record<string, unknown>;
    const to = JSON.parse(containerGoJson(c, wholeSpecMinor(toMinor))) as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])];
    const differs = keys.filter((k) => JSON.stringify(from[k]) !== JSON.stringify(to[k]));
    return differs.length > 0 ? differs : ['control characters'];
  } catch {
    return [];
  }
}
