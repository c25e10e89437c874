// The kubelet feature gates syncpod consults (planner and CRI config generators), with their
// per-version specs as kubelet keeps them (pkg/features/kube_features.go, versioned gate specs of
// kubelet 1.31+: a list of {since, default, stage, locked} per gate; the newest spec at or below the
// kubelet's minor applies). Covers kubelet 1.29 … 1.37. Pure data plus the parsers for
// `--kubelet-version` and `--feature-gates`; every parse error is a one-line SyncpodError.

import { SyncpodError } from '../errors';

export type GateStage = 'alpha' | 'beta' | 'ga' | 'deprecated';

/** One versioned spec: from minor `since` on (until the next spec), the gate defaults to `default`. */
export interface GateSpec {
  since: number;
  default: boolean;
  stage: GateStage;
  /** Locked to its default: kubelet refuses to start when the gate is set to the other value. */
  locked?: boolean;
}

export interface GateRow {
  specs: GateSpec[];
  /** First minor whose kubelet no longer knows the gate (setting it makes kubelet refuse to start). */
  removedIn?: number;
  /** Which part of syncpod reads it. */
  consultedBy: 'planner' | 'config' | 'planner+config';
  /** What the gate changes in syncpod's output. */
  effect: string;
  /** Where the per-version defaults come from (one line). */
  source: string;
}

/** Pinned: kube_features.go of a kubernetes tree at the start of 1.36 development (1.35 specs final). */
const PINNED_135 = 'kube_features.go, kubernetes tree after the 1.35 release (specs through 1.35 read there)';

/** Every gate syncpod consults, alphabetical. */
export const FEATURE_GATES = {
  ChangeContainerStatusOnKubeletRestart: {
    specs: [
      { since: 0, default: true, stage: 'ga' },
      { since: 35, default: false, stage: 'deprecated' },
    ],
    consultedBy: 'planner',
    effect: 'off (1.35): after a kubelet restart a sidecar startup result is not carried over',
    source: `${PINNED_135}; the 1.35-only effect: CHANGELOG-1.36 (fixed in 1.36.0, PR 137146), not pinned`,
  },
  ContainerRestartRules: {
    specs: [
      { since: 34, default: false, stage: 'alpha' },
      { since: 35, default: true, stage: 'beta' },
    ],
    consultedBy: 'planner',
    effect: 'container-level restartPolicy and restartPolicyRules (exit codes In/NotIn) decide restarts',
    source: PINNED_135,
  },
  ContainerStopSignals: {
    specs: [{ since: 33, default: false, stage: 'alpha' }],
    consultedBy: 'config',
    effect: 'lifecycle.stopSignal is sent as ContainerConfig.stop_signal',
    source: `${PINNED_135}; 1.36/1.37 assumed unchanged (not pinned)`,
  },
  EnvFiles: {
    specs: [
      { since: 34, default: false, stage: 'alpha' },
      { since: 35, default: true, stage: 'beta' },
    ],
    consultedBy: 'config',
    effect: 'env valueFrom.fileKeyRef reads a variable from a file in an emptyDir',
    source: PINNED_135,
  },
  HostnameOverride: {
    specs: [
      { since: 34, default: false, stage: 'alpha' },
      { since: 35, default: true, stage: 'beta' },
    ],
    consultedBy: 'config',
    effect: 'spec.hostnameOverride sets the sandbox hostname',
    source: PINNED_135,
  },
  ImageVolume: {
    specs: [
      { since: 31, default: false, stage: 'alpha' },
      { since: 33, default: false, stage: 'beta' },
      { since: 35, default: true, stage: 'beta' },
      { since: 36, default: true, stage: 'ga' },
    ],
    consultedBy: 'config',
    effect: 'image volumes are pulled and mounted through CRI Mount.image',
    source: `${PINNED_135}; GA in 1.36 from CHANGELOG-1.36 (not pinned)`,
  },
  InPlacePodLevelResourcesVerticalScaling: {
    specs: [
      { since: 35, default: false, stage: 'alpha' },
      { since: 36, default: true, stage: 'beta' },
    ],
    consultedBy: 'planner+config',
    effect: 'pod-level resources are resized in place',
    source: `${PINNED_135}; beta on in 1.36 from KEP-2837 / CHANGELOG-1.36 (not pinned)`,
  },
  InPlacePodVerticalScaling: {
    specs: [
      { since: 27, default: false, stage: 'alpha' },
      { since: 33, default: true, stage: 'beta' },
      { since: 35, default: true, stage: 'ga', locked: true },
    ],
    consultedBy: 'planner+config',
    effect: 'containersToUpdate; restart per resizePolicy; container hash without resources',
    source: PINNED_135,
  },
  KubeletCrashLoopBackOffMax: {
    specs: [
      { since: 32, default: false, stage: 'alpha' },
      { since: 35, default: true, stage: 'beta' },
    ],
    consultedBy: 'planner',
    effect: 'crashLoopBackOff.maxContainerRestartPeriod in the kubelet configuration caps back-off',
    source: PINNED_135,
  },
  LegacySidecarContainers: {
    specs: [{ since: 33, default: false, stage: 'deprecated' }],
    removedIn: 34,
    consultedBy: 'planner',
    effect: 'on: pods without a restartable init container take the legacy init path',
    source: 'kube_features.go of the 1.33 tree (kuberuntime_manager.go reads it); removed in 1.34 with the legacy path',
  },
  NodeSwap: {
    specs: [
      { since: 22, default: false, stage: 'alpha' },
      { since: 28, default: false, stage: 'beta' },
      { since: 30, default: true, stage: 'beta' },
      { since: 34, default: true, stage: 'ga', locked: true },
    ],
    consultedBy: 'config',
    effect: 'memorySwap.swapBehavior LimitedSwap gives Burstable containers swap in proportion to their memory request (cgroup v2)',
    source: 'KEP-2400 and CHANGELOG-1.30/1.34 (beta on from 1.30, GA in 1.34); not pinned in a kube_features.go of those trees',
  },
  PodLevelResources: {
    specs: [
      { since: 32, default: false, stage: 'alpha' },
      { since: 34, default: true, stage: 'beta' },
    ],
    consultedBy: 'config',
    effect: 'spec.resources (pod level) shapes the pod cgroup and container resources',
    source: `${PINNED_135}; 1.36/1.37 assumed beta on (not pinned)`,
  },
  ProcMountType: {
    specs: [
      { since: 12, default: false, stage: 'alpha' },
      { since: 31, default: false, stage: 'beta' },
      { since: 33, default: true, stage: 'beta' },
      { since: 36, default: true, stage: 'ga' },
    ],
    consultedBy: 'config',
    effect: 'securityContext.procMount Unmasked is passed to the runtime',
    source: `${PINNED_135}; GA in 1.36 from CHANGELOG-1.36 (not pinned)`,
  },
  RecursiveReadOnlyMounts: {
    specs: [
      { since: 30, default: false, stage: 'alpha' },
      { since: 31, default: true, stage: 'beta' },
      { since: 33, default: true, stage: 'ga', locked: true },
    ],
    consultedBy: 'config',
    effect: 'volumeMounts recursiveReadOnly sets CRI Mount.recursive_read_only',
    source: `${PINNED_135} (marked "remove in 1.36"; kept as locked on: removal not pinned)`,
  },
  RelaxedEnvironmentVariableValidation: {
    specs: [
      { since: 30, default: false, stage: 'alpha' },
      { since: 32, default: true, stage: 'beta' },
      { since: 34, default: true, stage: 'ga', locked: true },
    ],
    consultedBy: 'config',
    effect: 'envFrom keys that are not C identifiers are kept',
    source: PINNED_135,
  },
  RestartAllContainersOnContainerExits: {
    specs: [
      { since: 35, default: false, stage: 'alpha' },
      { since: 36, default: true, stage: 'beta' },
    ],
    consultedBy: 'planner',
    effect: 'rule action RestartAllContainers: all containers removed, sandbox kept, init from the first',
    source: `${PINNED_135}; beta on in 1.36 from KEP-5532 / CHANGELOG-1.36 (not pinned)`,
  },
  SidecarContainers: {
    specs: [
      { since: 28, default: false, stage: 'alpha' },
      { since: 29, default: true, stage: 'beta' },
      { since: 33, default: true, stage: 'ga', locked: true },
    ],
    consultedBy: 'planner',
    effect: 'restartable init containers (restartPolicy Always) and the sidecar-aware init path',
    source: `${PINNED_135} (marked "remove in 1.36"; kept as locked on: removal not pinned)`,
  },
  SupplementalGroupsPolicy: {
    specs: [
      { since: 31, default: false, stage: 'alpha' },
      { since: 33, default: true, stage: 'beta' },
      { since: 35, default: true, stage: 'ga', locked: true },
    ],
    consultedBy: 'config',
    effect: 'securityContext.supplementalGroupsPolicy is passed to the runtime',
    source: PINNED_135,
  },
  UserNamespacesSupport: {
    specs: [
      { since: 25, default: false, stage: 'alpha' },
      { since: 30, default: false, stage: 'beta' },
      { since: 33, default: true, stage: 'beta' },
      { since: 36, default: true, stage: 'ga' },
    ],
    consultedBy: 'config',
    effect: 'hostUsers: false gives the sandbox its own user namespace',
    source: `${PINNED_135}; GA in 1.36 from CHANGELOG-1.36 (not pinned)`,
  },
} as const satisfies Record<string, GateRow>;

export type GateName = keyof typeof FEATURE_GATES;
export const GATE_NAMES = Object.keys(FEATURE_GATES).sort() as GateName[];

/** Gates as given (flag or detected); unset means the version's default. */
export type FeatureGates = Partial<Record<GateName, boolean>>;

export type GateOrigin = 'flag' | 'detected' | 'default';

export interface EffectiveGate {
  enabled: boolean;
  origin: GateOrigin;
  stage: GateStage;
  locked: boolean;
}

/** The newest and oldest kubelet minors mirrored (1.x). */
export const OLDEST_MINOR = 29;
export const NEWEST_MINOR = 37;
export const SUPPORTED_RANGE = `1.${OLDEST_MINOR}–1.${NEWEST_MINOR}`;
/** The newest mirrored version: used when no version is given or detected. */
export const DEFAULT_KUBELET_VERSION = `1.${NEWEST_MINOR}`;

/** A kubelet version as given: minor always, patch when the text had one. */
export interface KubeletVersion {
  minor: number;
  patch: number | null;
  /** '1.36' or '1.36.2': what the plan prints. */
  text: string;
}

/** Parses `1.36`, `v1.36.2`, `1.36.2-eks-abc`, `v1.36.0+k3s1`. */
export function parseKubeletVersion(text: string): KubeletVersion {
  const m = /^v?1\.(\d+)(?:\.(\d+))?(?:[-+][0-9A-Za-z.+-]*)?$/.exec(text.trim());
  if (!m) {
    throw new SyncpodError(`invalid kubelet version "${text}": expected a version such as 1.36 or v1.36.2`);
  }
  const minor = Number(m[1]);
  const patch = m[2] === undefined ? null : Number(m[2]);
  return { minor, patch, text: patch === null ? `1.${minor}` : `1.${minor}.${patch}` };
}

/** The spec that applies at a minor, or undefined when the gate does not exist there. */
export function gateSpecAt(name: GateName, minor: number): GateSpec | undefined {
  const row: GateRow = FEATURE_GATES[name];
  if (row.removedIn !== undefined && minor >= row.removedIn) return undefined;
  let found: GateSpec | undefined;
  for (const s of row.specs) if (s.since <= minor) found = s;
  return found;
}

/**
 * Parses `--feature-gates A=true,B=false` (kubelet's syntax, `true`/`false` in any case). Names are
 * checked against the table here; whether a gate exists in or is locked at a version is checked by
 * resolveFeatureGates.
 */
export function parseFeatureGates(text: string | undefined, what = '--feature-gates'): FeatureGates {
  const gates: FeatureGates = {};
  if (!text) return gates;
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^([A-Za-z0-9]+)\s*=\s*(true|false)$/i.exec(part);
    if (!m) throw new SyncpodError(`${what}: "${part}" is not NAME=true|false`);
    const name = m[1];
    if (!(name in FEATURE_GATES)) {
      throw new SyncpodError(`${what}: unknown feature gate ${name}; gates syncpod consults: ${GATE_NAMES.join(', ')}`);
    }
    gates[name as GateName] = m[2].toLowerCase() === 'true';
  }
  return gates;
}

/**
 * Effective value of every gate that exists at `minor`: flag > detected > the version's default.
 * A gate the version does not know, or a locked gate set against its default, is refused as kubelet
 * itself refuses to start with it.
 */
export function resolveFeatureGates(
  minor: number,
  versionText: string,
  flags: FeatureGates = {},
  detected: FeatureGates = {},
): Partial<Record<GateName, EffectiveGate>> {
  const out: Partial<Record<GateName, EffectiveGate>> = {};
  const check = (given: FeatureGates, from: string): void => {
    for (const name of Object.keys(given) as GateName[]) {
      const spec = gateSpecAt(name, minor);
      if (!spec) {
        throw new SyncpodError(`${from}: feature gate ${name} does not exist in kubelet ${versionText}`);
      }
      if (spec.locked && given[name] !== spec.default) {
        throw new SyncpodError(
          `${from}: feature gate ${name} is ${spec.stage === 'ga' ? 'GA' : spec.stage} and locked to ${spec.default} in kubelet ${versionText}`,
        );
      }
    }
  };
  check(detected, 'kubelet configuration featureGates');
  check(flags, '--feature-gates');
  for (const name of GATE_NAMES) {
    const spec = gateSpecAt(name, minor);
    if (!spec) continue;
    const origin: GateOrigin = flags[name] !== undefined ? 'flag' : detected[name] !== undefined ? 'detected' : 'default';
    const enabled = flags[name] ?? detected[name] ?? spec.default;
    out[name] = { enabled, origin, stage: spec.stage, locked: spec.locked === true };
  }
  return out;
}
