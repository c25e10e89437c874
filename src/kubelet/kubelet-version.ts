// The kubelet rules one invocation plans with: version (minor and patch), effective feature gates
// with where each came from, and the version-dependent switches the planner reads. Resolved once
// per invocation (resolveKubeletRules) and passed down. Pure.

import { SyncpodError } from '../errors';
import {
  GATE_NAMES,
  parseKubeletVersion,
  resolveFeatureGates,
  type EffectiveGate,
  type FeatureGates,
  type GateName,
} from './features';

export type { FeatureGates, GateName } from './features';

/** Kubelet minor versions whose computePodActions rules were established from source. */
export const SUPPORTED_KUBELET_VERSIONS = ['1.28', '1.33'] as const;

/** The newest mirrored version, used when no version is given. */
export const DEFAULT_KUBELET_VERSION = '1.33';

export type HashScheme = 'name+image' | 'whole-spec';

/** Human name of a hash scheme, as used in plan notes. */
export const HASH_SCHEME_LABEL: Record<HashScheme, string> = {
  'name+image': 'name+image hash of kubelet 1.31+',
  'whole-spec': 'whole-container hash of kubelet 1.16–1.30',
};

/** Where the kubelet version came from. */
export type VersionOrigin = 'flag' | 'detected' | 'default';

/** What node detection found (node profile): version text and the configuration's featureGates. */
export interface DetectedKubelet {
  version?: string;
  featureGates?: FeatureGates;
}

/** The version-dependent switches the planner reads; resolved once per invocation. */
export interface KubeletRules {
  /** '1.33' or '1.33.2' (patch kept when known). */
  version: string;
  minor: number;
  patch: number | null;
  versionOrigin: VersionOrigin;
  hashScheme: HashScheme;
  /** Effective value of every gate syncpod consults (false for a gate the version does not have). */
  gates: Record<GateName, boolean>;
  /** The gates that exist at this version, with stage and where each value came from. */
  gateOrigins: Partial<Record<GateName, EffectiveGate>>;
  /** Sidecar path: an init container stuck in CREATED is started again (else: wait). */
  restartCreatedInitContainers: boolean;
  /** Sidecar path: a running restartable init container whose hash changed is restarted. */
  restartChangedSidecars: boolean;
  /** Sidecar path: an EXITED regular container counts as "pod has initialized". */
  exitedCountsAsInitialized: boolean;
  /** OnFailure "succeeded" requires EXITED (else: any non-running status with exit code 0). */
  succeededRequiresExited: boolean;
}

const REFUSALS: Array<{ test: (minor: number) => boolean; why: string }> = [
  {
    test: (m) => m <= 27,
    why: 'kubelet before 1.28 is not mirrored (no sidecar containers, older sandbox rules were not read)',
  },
  {
    test: (m) => m >= 29 && m <= 32,
    why:
      'kubelet 1.29–1.32 computePodActions was not read at source level (init containers stuck in CREATED, ' +
      'the sidecar definition-changed restart and the "pod has initialized" rule changed within this range, some in patch releases)',
  },
  {
    test: (m) => m === 34,
    why: 'kubelet 1.34 computePodActions was not read at source level (LegacySidecarContainers and ContainerRestartRules changes)',
  },
  {
    test: (m) => m >= 35,
    why: 'kubelet 1.35+ applies per-container restart rules (ContainerRestartRules, beta and on by default), which are not mirrored',
  },
];

/**
 * Resolves the rules for one invocation. Version: flag > detected > DEFAULT_KUBELET_VERSION; gates:
 * flag > detected > the version's default. Throws a one-line SyncpodError for a malformed or
 * unmirrored version, an unknown gate, or a locked gate set against its default.
 */
export function resolveKubeletRules(version?: string, flags: FeatureGates = {}, detected: DetectedKubelet = {}): KubeletRules {
  const versionOrigin: VersionOrigin = version !== undefined ? 'flag' : detected.version !== undefined ? 'detected' : 'default';
  const v = parseKubeletVersion(version ?? detected.version ?? DEFAULT_KUBELET_VERSION);
  const mirrored = SUPPORTED_KUBELET_VERSIONS.find((s) => s === `1.${v.minor}`);
  if (!mirrored) {
    const refusal = REFUSALS.find((r) => r.test(v.minor));
    const why = refusal ? refusal.why : 'not a mirrored kubelet version';
    throw new SyncpodError(
      `kubelet 1.${v.minor} cannot be planned: ${why}; mirrored versions: ${SUPPORTED_KUBELET_VERSIONS.join(', ')}`,
    );
  }
  if (v.minor === 28 && (flags.InPlacePodVerticalScaling ?? detected.featureGates?.InPlacePodVerticalScaling) === true) {
    throw new SyncpodError(
      'kubelet 1.28 with InPlacePodVerticalScaling on cannot be planned: it compares hashWithoutResources and the API status resources, which syncpod does not read',
    );
  }
  const gateOrigins = resolveFeatureGates(v.minor, v.text, flags, detected.featureGates ?? {});
  const gates = {} as Record<GateName, boolean>;
  for (const name of GATE_NAMES) gates[name] = gateOrigins[name]?.enabled ?? false;
  const base = { version: v.text, minor: v.minor, patch: v.patch, versionOrigin, gates, gateOrigins };
  if (v.minor === 28) {
    return {
      ...base,
      hashScheme: 'whole-spec',
      restartCreatedInitContainers: false,
      restartChangedSidecars: false,
      exitedCountsAsInitialized: true,
      succeededRequiresExited: false,
    };
  }
  return {
    ...base,
    hashScheme: 'name+image',
    restartCreatedInitContainers: true,
    restartChangedSidecars: true,
    exitedCountsAsInitialized: false,
    succeededRequiresExited: true,
  };
}

/** The effective gates that exist at the rules' version, as plain booleans (plan JSON). */
export function effectiveGates(rules: KubeletRules): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const name of GATE_NAMES) {
    const g = rules.gateOrigins[name];
    if (g) out[name] = g.enabled;
  }
  return out;
}
