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
  consultedBy:
    | 'planner'
    | 'config'
    | 'validation'
    | 'planner+config'
    | 'planner+validation'
    | 'config+validation'
    | 'planner+config+validation';
  /** ('validation': the API-server rules syncpod's manifest validation applies for the planned minor.) */
  /** What the gate changes in syncpod's output. */
  effect: string;
  /** Where the per-version defaults come from (one line). */
  source: string;
}

/**
 * Where the rows were read: the versioned specs of pkg/features/kube_features.go. A tree keeps the
 * whole history of every gate it still has (the spec list is what --emulated-version reads), so the
 * 1.37-cycle tree gives 1.29–1.37 for those; the 1.36 tree confirms the 1.36 entries and which gates
 * 1.36 removed; a gate removed before 1.37 is read in the newest tree that still has it.
 */
export const GATE_SOURCES = {
  v137: 'pkg/features/kube_features.go, natasha41575/kubernetes@9298de89 (1.37 cycle: specs through 1.37)',
  v136: 'pkg/features/kube_features.go, zongruxie4/kubernetes@964d79dd (1.36 cycle: specs through 1.36, no 1.37 entries)',
  v133: 'pkg/features/kube_features.go, kubernetes/kubernetes@b0b89d3b (1.33 cycle)',
} as const;

/**
 * The gates of the fields 1.37 added (src/manifest/schema.ts FIELD_ADDED): no kube_features.go of a
 * tree that has them is stored, so their spec is read in the feature-gate pages of the 1.37 docs,
 * and the drop when off in the KEP that merged with the field.
 */
const READ_137_DOCS = (gate: string, kep: string): string =>
  `kubernetes/website content/en/docs/reference/command-line-tools-reference/feature-gates/${gate}.md (alpha, off, from 1.37); field: kubernetes/api@10b39a39 core/v1/types.go; dropped when off: kubernetes/enhancements ${kep}`;

/** The row's source: the 1.37 tree, and the 1.36 tree that agrees with it. */
const READ_137 = `${GATE_SOURCES.v137}; 1.36 entries also in ${GATE_SOURCES.v136.replace('pkg/features/kube_features.go, ', '')}`;

/** Every gate syncpod consults, alphabetical. */
export const FEATURE_GATES = {
  AtomicWriteVolumeUserFields: {
    specs: [{ since: 37, default: false, stage: 'alpha' }],
    consultedBy: 'validation',
    effect:
      'user and defaultUser (owner UID of the files) of configMap, secret, downwardAPI and projected volumes; off: the API server drops them',
    source: READ_137_DOCS('AtomicWriteVolumeUserFields', 'keps/sig-storage/5936-atomic-write-volume-user-fields'),
  },
  ChangeContainerStatusOnKubeletRestart: {
    // Registered from 1.35 only (k8s.io/kubernetes v1.34.4 has no such gate; its spec list starts
    // with a GA entry for the behaviour before the gate existed).
    specs: [{ since: 35, default: false, stage: 'deprecated' }],
    consultedBy: 'planner',
    effect: 'off (1.35): after a kubelet restart a sidecar startup result is not carried over',
    source: `${READ_137}; absent from k8s.io/kubernetes v1.34.4 (its own gate table); the 1.35-only effect: CHANGELOG-1.35 (fixed in 1.35.4, PR 137885)`,
  },
  ContainerRestartRules: {
    specs: [
      { since: 34, default: false, stage: 'alpha' },
      { since: 35, default: true, stage: 'beta' },
    ],
    consultedBy: 'planner+validation',
    effect:
      'container-level restartPolicy and restartPolicyRules (exit codes In/NotIn) decide restarts; off: the API server drops them',
    source: READ_137,
  },
  ContainerStopSignals: {
    specs: [{ since: 33, default: false, stage: 'alpha' }],
    consultedBy: 'config+validation',
    effect: 'lifecycle.stopSignal is sent as ContainerConfig.stop_signal; off: the API server drops it',
    source: `${READ_137} (still alpha, off, in 1.37)`,
  },
  EmptyDirVolumeMode: {
    specs: [{ since: 37, default: false, stage: 'alpha' }],
    consultedBy: 'validation',
    effect: 'emptyDir.mode (permission bits of the directory); off: the API server drops it',
    source: READ_137_DOCS('EmptyDirVolumeMode', 'keps/sig-storage/5502-emptydir-volume-mode'),
  },
  EnvFiles: {
    specs: [
      { since: 34, default: false, stage: 'alpha' },
      { since: 35, default: true, stage: 'beta' },
    ],
    consultedBy: 'config+validation',
    effect:
      'env valueFrom.fileKeyRef reads a variable from a file in an emptyDir; off: the API server drops fileKeyRef',
    source: READ_137,
  },
  GRPCContainerProbeTLS: {
    specs: [{ since: 37, default: false, stage: 'alpha' }],
    consultedBy: 'validation',
    effect: 'grpc.mode of a gRPC probe (TLS or Plaintext); off: the API server drops it',
    source: READ_137_DOCS('GRPCContainerProbeTLS', 'keps/sig-node/4939-grpc-probe-with-tls'),
  },
  H2CContainerProbe: {
    specs: [{ since: 37, default: false, stage: 'alpha' }],
    consultedBy: 'validation',
    effect: 'httpGet.protocol of an HTTP probe (HTTP1 or HTTP2, h2c); off: the API server drops it',
    source: READ_137_DOCS('H2CContainerProbe', 'keps/sig-node/5999-h2c-container-probes'),
  },
  HostnameOverride: {
    specs: [
      { since: 34, default: false, stage: 'alpha' },
      { since: 35, default: true, stage: 'beta' },
      { since: 37, default: true, stage: 'ga', locked: true },
    ],
    consultedBy: 'config+validation',
    effect: 'spec.hostnameOverride sets the sandbox hostname; off: the API server drops it',
    source: `${READ_137}; GA and locked in 1.37: k8s.io/kubernetes v1.37.2 pkg/features/kube_features.go`,
  },
  ImageVolume: {
    specs: [
      { since: 31, default: false, stage: 'alpha' },
      { since: 33, default: false, stage: 'beta' },
      { since: 35, default: true, stage: 'beta' },
      { since: 36, default: true, stage: 'ga', locked: true },
    ],
    consultedBy: 'config+validation',
    effect:
      'image volumes are pulled and mounted through CRI Mount.image; off: the API server drops image volumes and their mounts',
    source: READ_137,
  },
  InPlacePodLevelResourcesVerticalScaling: {
    specs: [
      { since: 35, default: false, stage: 'alpha' },
      { since: 36, default: true, stage: 'beta' },
    ],
    consultedBy: 'planner+config',
    effect: 'pod-level resources are resized in place',
    source: READ_137,
  },
  InPlacePodVerticalScaling: {
    specs: [
      { since: 27, default: false, stage: 'alpha' },
      { since: 33, default: true, stage: 'beta' },
      { since: 35, default: true, stage: 'ga', locked: true },
    ],
    consultedBy: 'planner+config+validation',
    effect:
      'containersToUpdate; restart per resizePolicy; container hash without resources; off: the API server drops resizePolicy',
    source: READ_137,
  },
  InPlacePodVerticalScalingInitContainers: {
    specs: [
      { since: 36, default: true, stage: 'beta' },
      { since: 37, default: true, stage: 'ga', locked: true },
    ],
    consultedBy: 'planner',
    effect:
      'on (1.36+, with InPlacePodVerticalScaling): a running non-sidecar init container is resized in place instead of waited for',
    source: `${GATE_SOURCES.v137}; ${GATE_SOURCES.v136.replace('pkg/features/kube_features.go, ', '')} (beta, on, from 1.36); GA and locked in 1.37: k8s.io/kubernetes v1.37.2 pkg/features/kube_features.go`,
  },
  KubeletCrashLoopBackOffMax: {
    specs: [
      { since: 32, default: false, stage: 'alpha' },
      { since: 35, default: true, stage: 'beta' },
    ],
    consultedBy: 'planner',
    effect: 'crashLoopBackOff.maxContainerRestartPeriod in the kubelet configuration caps back-off',
    source: READ_137,
  },
  LegacySidecarContainers: {
    specs: [{ since: 33, default: false, stage: 'deprecated' }],
    removedIn: 34,
    consultedBy: 'planner',
    effect: 'on: pods without a restartable init container take the legacy init path',
    source:
      'kube_features.go of the 1.33 tree (kuberuntime_manager.go reads it); absent from the 1.35-final tree and the 1.37 tree read for the other rows',
  },
  NodeSwap: {
    specs: [
      { since: 22, default: false, stage: 'alpha' },
      { since: 28, default: false, stage: 'beta' },
      { since: 30, default: true, stage: 'beta' },
      { since: 34, default: true, stage: 'ga', locked: true },
    ],
    consultedBy: 'config',
    effect:
      'memorySwap.swapBehavior LimitedSwap gives Burstable containers swap in proportion to their memory request (cgroup v2)',
    source: `${READ_137} (marked "remove in 1.37" but still present there)`,
  },
  PodLevelResources: {
    specs: [
      { since: 32, default: false, stage: 'alpha' },
      { since: 34, default: true, stage: 'beta' },
    ],
    consultedBy: 'config+validation',
    effect: 'spec.resources (pod level) shapes the pod cgroup and container resources; off: the API server drops it',
    source: READ_137,
  },
  ProcMountType: {
    specs: [
      { since: 12, default: false, stage: 'alpha' },
      { since: 31, default: false, stage: 'beta' },
      { since: 33, default: true, stage: 'beta' },
      { since: 36, default: true, stage: 'ga', locked: true },
    ],
    consultedBy: 'config+validation',
    effect: 'securityContext.procMount Unmasked is passed to the runtime; off: the API server resets it to Default',
    source: READ_137,
  },
  RecursiveReadOnlyMounts: {
    specs: [
      { since: 30, default: false, stage: 'alpha' },
      { since: 31, default: true, stage: 'beta' },
      { since: 33, default: true, stage: 'ga', locked: true },
    ],
    consultedBy: 'config+validation',
    effect: 'volumeMounts recursiveReadOnly sets CRI Mount.recursive_read_only; off: the API server drops it',
    source: `${READ_137} (marked "remove in 1.36" but still present in 1.36 and 1.37)`,
  },
  RelaxedEnvironmentVariableValidation: {
    specs: [
      { since: 30, default: false, stage: 'alpha' },
      { since: 32, default: true, stage: 'beta' },
      { since: 34, default: true, stage: 'ga', locked: true },
    ],
    consultedBy: 'config+validation',
    effect:
      'env names and envFrom prefixes may be any printable ASCII but "=" (off: C-identifier-like names only); envFrom keys that are not C identifiers are kept',
    source: READ_137,
  },
  RestartAllContainersOnContainerExits: {
    specs: [
      { since: 35, default: false, stage: 'alpha' },
      { since: 36, default: true, stage: 'beta' },
    ],
    consultedBy: 'planner+validation',
    effect:
      'rule action RestartAllContainers (and rules on sidecars): all containers removed, sandbox kept, init from the first',
    source: READ_137,
  },
  SidecarContainers: {
    specs: [
      { since: 28, default: false, stage: 'alpha' },
      { since: 29, default: true, stage: 'beta' },
      { since: 33, default: true, stage: 'ga', locked: true },
    ],
    removedIn: 37,
    consultedBy: 'planner+validation',
    effect:
      "restartable init containers (restartPolicy Always) and the sidecar-aware init path; off: the API server drops an init container's restartPolicy",
    source: `${GATE_SOURCES.v133} for the specs ("GA in 1.33, remove in 1.36"); still in k8s.io/kubernetes v1.36.3 (GA, locked: its own gate table, test/fixtures/kubelet-gates), gone in v1.37.2`,
  },
  SupplementalGroupsPolicy: {
    specs: [
      { since: 31, default: false, stage: 'alpha' },
      { since: 33, default: true, stage: 'beta' },
      { since: 35, default: true, stage: 'ga', locked: true },
    ],
    consultedBy: 'config+validation',
    effect: 'securityContext.supplementalGroupsPolicy is passed to the runtime; off: the API server drops it',
    source: READ_137,
  },
  UserNamespacesSupport: {
    specs: [
      { since: 25, default: false, stage: 'alpha' },
      { since: 30, default: false, stage: 'beta' },
      { since: 33, default: true, stage: 'beta' },
      { since: 36, default: true, stage: 'ga', locked: true },
    ],
    consultedBy: 'config+validation',
    effect: 'hostUsers: false gives the sandbox its own user namespace; off: the API server drops hostUsers',
    source: READ_137,
  },
  VolumeBindMountOptions: {
    specs: [{ since: 37, default: false, stage: 'alpha' }],
    consultedBy: 'validation',
    effect: 'volumeMounts[].bindMountOptions (noexec, nodev, nosuid); off: the API server drops it',
    source: READ_137_DOCS('VolumeBindMountOptions', 'keps/sig-node/5855-noexec-emptyDir'),
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
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
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
    const origin: GateOrigin =
      flags[name] !== undefined ? 'flag' : detected[name] !== undefined ? 'detected' : 'default';
    const enabled = flags[name] ?? detected[name] ?? spec.default;
    out[name] = { enabled, origin, stage: spec.stage, locked: spec.locked === true };
  }
  return out;
}
