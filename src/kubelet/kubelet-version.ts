// Which kubelet minor versions the planner mirrors, and the rules that differ between them.
// Only versions whose computePodActions was read at source level are accepted; every other
// version is refused with a one-line error rather than planned with another version's rules.

import { SyncpodError } from '../errors';

/** Kubelet minor versions whose computePodActions rules were established from source. */
export const SUPPORTED_KUBELET_VERSIONS = ['1.28', '1.33'] as const;
export type KubeletVersion = (typeof SUPPORTED_KUBELET_VERSIONS)[number];

/** The newest mirrored version, used when no version is given. */
export const DEFAULT_KUBELET_VERSION: KubeletVersion = '1.33';

export type HashScheme = 'name+image' | 'whole-spec';

/** Human name of a hash scheme, as used in plan notes. */
export const HASH_SCHEME_LABEL: Record<HashScheme, string> = {
  'name+image': 'name+image hash of kubelet 1.31+',
  'whole-spec': 'whole-container hash of kubelet 1.16–1.30',
};

/** Feature gates that change computePodActions. Unset means the version's default. */
export interface FeatureGates {
  SidecarContainers?: boolean;
  LegacySidecarContainers?: boolean;
  InPlacePodVerticalScaling?: boolean;
}

/** The version-dependent switches the planner reads; one value per mirrored version. */
export interface KubeletRules {
  version: KubeletVersion;
  hashScheme: HashScheme;
  /** Effective gate values after defaults. */
  gates: Required<FeatureGates>;
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

/** Parses '1.33', 'v1.33', '1.33.2' or 'v1.33.2-eks' into a minor version number. */
function parseMinor(text: string): number {
  const m = /^v?1\.(\d+)(?:\.\d+)?(?:[-+].*)?$/.exec(text.trim());
  if (!m) {
    throw new SyncpodError(`invalid kubelet version "${text}": expected a version such as 1.33 or v1.33.2`);
  }
  return Number(m[1]);
}

/** Resolves the mirrored version and gate defaults; throws SyncpodError for versions not mirrored. */
export function resolveKubeletRules(version: string | undefined, gates: FeatureGates = {}): KubeletRules {
  const minor = parseMinor(version ?? DEFAULT_KUBELET_VERSION);
  const mirrored = SUPPORTED_KUBELET_VERSIONS.find((v) => v === `1.${minor}`);
  if (!mirrored) {
    const refusal = REFUSALS.find((r) => r.test(minor));
    const why = refusal ? refusal.why : 'not a mirrored kubelet version';
    throw new SyncpodError(
      `kubelet ${`1.${minor}`} cannot be planned: ${why}; mirrored versions: ${SUPPORTED_KUBELET_VERSIONS.join(', ')}`,
    );
  }
  return mirrored === '1.28' ? rules128(gates) : rules133(gates);
}

function rules128(gates: FeatureGates): KubeletRules {
  if (gates.LegacySidecarContainers !== undefined) {
    throw new SyncpodError('feature gate LegacySidecarContainers does not exist in kubelet 1.28 (it appeared in 1.33)');
  }
  if (gates.InPlacePodVerticalScaling === true) {
    throw new SyncpodError(
      'kubelet 1.28 with InPlacePodVerticalScaling on cannot be planned: it compares hashWithoutResources and the API status resources, which syncpod does not read',
    );
  }
  return {
    version: '1.28',
    hashScheme: 'whole-spec',
    gates: {
      SidecarContainers: gates.SidecarContainers ?? false,
      LegacySidecarContainers: false,
      InPlacePodVerticalScaling: false,
    },
    restartCreatedInitContainers: false,
    restartChangedSidecars: false,
    exitedCountsAsInitialized: true,
    succeededRequiresExited: false,
  };
}

function rules133(gates: FeatureGates): KubeletRules {
  if (gates.SidecarContainers === false) {
    throw new SyncpodError('feature gate SidecarContainers is GA and locked on in kubelet 1.33; it cannot be turned off');
  }
  return {
    version: '1.33',
    hashScheme: 'name+image',
    gates: {
      SidecarContainers: true,
      LegacySidecarContainers: gates.LegacySidecarContainers ?? false,
      InPlacePodVerticalScaling: gates.InPlacePodVerticalScaling ?? true,
    },
    restartCreatedInitContainers: true,
    restartChangedSidecars: true,
    exitedCountsAsInitialized: false,
    succeededRequiresExited: true,
  };
}
