// The kubelet rules one invocation plans with: version (minor and patch), effective feature gates
// with where each came from, and the version-dependent switches the planner reads. Resolved once
// per invocation (resolveKubeletRules) and passed down. Pure.

import { type SandboxOrder, sandboxOrderOfMinor } from './sandbox-order';
import { SyncpodError } from '../errors';
import oracleChecked from './oracle-checked.json';
import { hashSchemeOfMinor } from './hash';
import {
  DEFAULT_KUBELET_VERSION,
  GATE_NAMES,
  NEWEST_MINOR,
  OLDEST_MINOR,
  SUPPORTED_RANGE,
  parseKubeletVersion,
  resolveFeatureGates,
  type EffectiveGate,
  type FeatureGates,
  type GateName,
} from './features';

export type { FeatureGates, GateName } from './features';

export { DEFAULT_KUBELET_VERSION } from './features';

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

/**
 * Which pods computePodActions sends down computeInitContainerActions (else the legacy
 * findNextInitContainerToRun): every pod (while SidecarContainers is on), only pods with a
 * restartable init container (while SidecarContainers is on), the 1.33 LegacySidecarContainers
 * switch, or every pod unconditionally (1.34+).
 */
export type InitPathRule = 'every-pod' | 'sidecar-pods' | 'legacy-gate' | 'always';

/** The version-dependent switches the planner reads; resolved once per invocation. */
export interface KubeletRules {
  /** '1.36' or '1.36.2' (patch kept when known); for a newer kubelet, its own version. */
  version: string;
  minor: number;
  patch: number | null;
  versionOrigin: VersionOrigin;
  /** The minor whose rules are applied (NEWEST_MINOR for a newer kubelet). */
  rulesMinor: number;
  /** Effective value of every gate syncpod consults (false for a gate the version does not have). */
  gates: Record<GateName, boolean>;
  /** The gates that exist at this version, with stage and where each value came from. */
  gateOrigins: Partial<Record<GateName, EffectiveGate>>;
  hashScheme: HashScheme;
  initPathRule: InitPathRule;
  /** Sidecar path: an init container stuck in CREATED is started again (else: wait). */
  restartCreatedInitContainers: boolean;
  /** Sidecar path: a running restartable init container whose hash changed is restarted. */
  restartChangedSidecars: boolean;
  /** OnFailure "succeeded" requires EXITED (else: any non-running status with exit code 0). */
  succeededRequiresExited: boolean;
  /**
   * 1.37 (PR 138514): computeInitContainerActions reads only the containers of the active (newest,
   * ready) sandbox, and any status of a regular container there means "initialized".
   */
  initStatusFromActiveSandbox: boolean;
  /**
   * 1.36+: a running non-sidecar init container is resized in place (InPlacePodVerticalScalingInitContainers,
   * beta and on from 1.36; computeInitContainerActions of k8s.io/kubernetes v1.36.3 and v1.37.2).
   */
  resizeRunningInitContainers: boolean;
  /** 1.33+: doPodResizeAction announces each pod cgroup change with CRI UpdatePodSandboxResources (best effort until 1.36; measured with the v1.33.13 oracle). */
  podSandboxResourceUpdates: boolean;
  /**
   * Up to 1.36: the pod cgroup has a CPU quota / memory limit when every container declares one, a
   * regular init container counting with the sidecars before it (1.37: each container on its own).
   */
  podLimitsCountSidecarsBeforeInit: boolean;
  /** 1.36+: a failed UpdatePodSandboxResources (other than Unimplemented) rejects the resize; before, it is ignored. */
  sandboxResourceUpdateRejects: boolean;
  /** 1.37: SyncPod resizes (step 6) before it starts ephemeral and init containers (earlier: after the init containers). */
  resizeBeforeStarts: boolean;
  /** 1.37: startingResizedContainer, a container about to start with changed resources resizes the pod cgroup. */
  startingResizedContainers: boolean;
  /** How the pod's sandboxes are ordered newest first (sandbox-order.ts): creation ≤1.34, attempt 1.35, attempt then creation 1.36+. */
  sandboxOrder: SandboxOrder;
  /** 1.35.0–1.35.3 with ChangeContainerStatusOnKubeletRestart off: startup results are not carried over a kubelet restart. */
  startupResultLostOnKubeletRestart: boolean;
  /**
   * Facts the rules rest on that were not read in a tree of this version: plan assumptions, each as
   * one short sentence and the detail behind it.
   */
  unpinned: UnpinnedNote[];
  /** Loud warnings (a kubelet newer than the newest mirrored). */
  warnings: string[];
}

/** A fact the rules rest on: an id, one short sentence, and the detail (empty when the sentence says it all). */
export interface UnpinnedNote {
  id: string;
  short: string;
  detail: string;
}

/** The kubelet release a minor's rules are pinned to, and what of it the mirror follows. */
export interface MirrorSource {
  /** The Go module and version, e.g. "k8s.io/kubernetes v1.37.2". */
  release: string;
  /** What was read in it. */
  read: string;
}

const KUBERUNTIME_READ =
  'pkg/kubelet/kuberuntime (SyncPod, computePodActions, computeInitContainerActions, computePodResizeAction, doPodResizeAction, killPodWithSyncResult, purge and prune of init containers), pkg/kubelet/container/helpers.go and pkg/api/v1/pod/util.go';

/**
 * The release each minor's kuberuntime rules are pinned to: the newest patch the Go module proxy
 * serves, the release the kubelet oracle (npm run oracle) builds and runs for that minor. How many
 * scenarios agreed with it is the oracle's own record (oracle-checked.json, written by
 * `npm run oracle -- --minor 1.M ... --record`).
 */
export const MIRROR_SOURCES: Record<number, MirrorSource> = {
  29: { release: 'k8s.io/kubernetes v1.29.6', read: KUBERUNTIME_READ },
  30: { release: 'k8s.io/kubernetes v1.30.14', read: KUBERUNTIME_READ },
  31: { release: 'k8s.io/kubernetes v1.31.14', read: KUBERUNTIME_READ },
  32: { release: 'k8s.io/kubernetes v1.32.13', read: KUBERUNTIME_READ },
  33: { release: 'k8s.io/kubernetes v1.33.13', read: KUBERUNTIME_READ },
  34: { release: 'k8s.io/kubernetes v1.34.4', read: KUBERUNTIME_READ },
  35: { release: 'k8s.io/kubernetes v1.35.4', read: KUBERUNTIME_READ },
  36: { release: 'k8s.io/kubernetes v1.36.3', read: KUBERUNTIME_READ },
  37: { release: 'k8s.io/kubernetes v1.37.2', read: KUBERUNTIME_READ },
};

/** A minor's oracle record: the release it ran and how many scenarios agreed (oracle-checked.json). */
export interface OracleChecked {
  release: string;
  scenariosAgreed: number;
  /** Scenarios that fell in a documented class (state kubelet keeps to itself). */
  scenariosKnown?: number;
  /** Scenarios that disagreed when recorded (0 once the mirror is fixed). */
  scenariosDisagreed?: number;
  /** What was run: kubelet's own cases and seeded random scenarios. */
  runs?: Record<string, { scenarios: number; agreed: number }>;
}

/** The oracle's records, per minor ("1.37"). */
export const ORACLE_CHECKED: Record<string, OracleChecked> = oracleChecked;

/** "v1.37.2" of "k8s.io/kubernetes v1.37.2". */
export function releaseVersion(source: MirrorSource): string {
  return source.release.split(' ').pop() ?? source.release;
}

/** The plan assumption that names the release a minor is pinned to and what the oracle measured. */
function mirrorSourceNote(minor: number, v: { text: string; patch: number | null }): UnpinnedNote | null {
  const src = MIRROR_SOURCES[minor];
  if (!src) return null;
  const release = releaseVersion(src);
  const checked = ORACLE_CHECKED[`1.${minor}`];
  const measured =
    checked && checked.release === release
      ? `checked against kubelet ${release}: ${checked.scenariosAgreed} scenarios agree` +
        (checked.scenariosDisagreed ? `, ${checked.scenariosDisagreed} disagree` : '') +
        (checked.scenariosKnown ? `, ${checked.scenariosKnown} in documented classes` : '')
      : `not yet checked against kubelet ${release} by the oracle`;
  const patch = Number(release.split('.')[2]);
  const otherPatch = v.patch !== null && v.patch !== patch;
  const short = `kubelet ${v.text}: the kuberuntime rules mirror ${src.release}; ${measured}.`;
  const detail =
    `Read in ${src.read} of that release. ` +
    (checked && checked.release === release
      ? `The count is the kubelet oracle's (npm run oracle -- --minor 1.${minor} --record): kubelet's own SyncPod and syncpod run on the same scenarios (kubelet's own test cases and seeded random ones) made the same CRI calls in the same order.`
      : 'The kubelet oracle (npm run oracle) has no record for this minor yet.') +
    (otherPatch ? ` This kubelet is another patch release (${v.text}); patch releases rarely change these rules.` : '');
  return { id: 'mirror-source', short, detail };
}

/** The 1.35 patch release that seeds a sidecar's startup result after a kubelet restart (PR 137885). */
const STARTUP_SEED_FIX_PATCH_135 = 4;

/** Patch releases that carry the init-container fixes (PR 127162 and PR 126543 backports). */
const INIT_FIX_PATCH: Record<number, number> = { 29: 9, 30: 5, 31: 1 };

/**
 * Resolves the rules for one invocation. Version: flag > detected > DEFAULT_KUBELET_VERSION; gates:
 * flag > detected > the version's default. A kubelet older than 1.29 is refused; one newer than
 * the newest mirrored is planned with the newest rules and a warning. Throws a one-line
 * SyncpodError for a malformed version, an unknown gate, or a locked gate set against its default.
 */
export function resolveKubeletRules(
  version?: string,
  flags: FeatureGates = {},
  detected: DetectedKubelet = {},
): KubeletRules {
  const versionOrigin: VersionOrigin =
    version !== undefined ? 'flag' : detected.version !== undefined ? 'detected' : 'default';
  const v = parseKubeletVersion(version ?? detected.version ?? DEFAULT_KUBELET_VERSION);
  if (v.minor < OLDEST_MINOR) {
    throw new SyncpodError(`kubelet ${v.text} is not supported: syncpod mirrors kubelet ${SUPPORTED_RANGE}`);
  }
  const warnings: string[] = [];
  const unpinned: UnpinnedNote[] = [];
  const rulesMinor = Math.min(v.minor, NEWEST_MINOR);
  if (v.minor > NEWEST_MINOR) {
    warnings.push(
      `kubelet ${v.text} is newer than the newest mirrored kubelet 1.${NEWEST_MINOR}: it is planned with 1.${NEWEST_MINOR}'s rules and gate defaults, which may be wrong for it`,
    );
    unpinned.push({
      id: 'newer-than-mirrored',
      short: `kubelet ${v.text} is planned with the rules and gate defaults of kubelet 1.${NEWEST_MINOR} (the newest mirrored).`,
      detail: '',
    });
  }
  const rulesText = v.minor > NEWEST_MINOR ? `1.${NEWEST_MINOR}` : v.text;
  const gateOrigins = resolveFeatureGates(rulesMinor, rulesText, flags, detected.featureGates ?? {});
  const gates = {} as Record<GateName, boolean>;
  for (const name of GATE_NAMES) gates[name] = gateOrigins[name]?.enabled ?? false;

  // Patch releases of 1.29–1.31 before the init-container fixes behave as 1.28 did there.
  const fixPatch = INIT_FIX_PATCH[rulesMinor];
  let initFixed = rulesMinor >= 32;
  if (fixPatch !== undefined) {
    if (v.patch === null) {
      initFixed = true;
      unpinned.push({
        id: 'patch-init-fixes',
        short: `No patch release was given for kubelet ${v.text}: planned as 1.${rulesMinor}.${fixPatch} or later.`,
        detail:
          'Earlier patches send every pod down the sidecar-aware init path and leave an init container stuck in Created alone.',
      });
    } else {
      initFixed = v.patch >= fixPatch;
    }
  }
  let initPathRule: InitPathRule;
  if (rulesMinor >= 34) initPathRule = 'always';
  else if (rulesMinor === 33) initPathRule = 'legacy-gate';
  else initPathRule = initFixed ? 'sidecar-pods' : 'every-pod';

  if (rulesMinor <= 32) {
    unpinned.push({
      id: 'init-path-rules',
      short:
        rulesMinor === 32
          ? `kubelet ${v.text}: a changed sidecar is restarted and OnFailure counts only an exited container with code 0 as succeeded (both new in 1.32).`
          : `kubelet ${v.text}: a changed sidecar is not restarted and OnFailure counts any stopped container with code 0 as succeeded (both until 1.32).`,
      detail:
        rulesMinor === 32
          ? 'Read in k8s.io/kubernetes v1.32.13 and v1.31.14.'
          : initFixed
            ? `With the 1.${rulesMinor}.${fixPatch} init-container fixes a pod without a sidecar takes the legacy init path and an init container stuck in Created is started again (read in v1.30.14 and v1.31.14). An exited regular container does not mean "initialized" on the sidecar-aware path (read in v1.29.6 and v1.30.14).`
            : `Before the 1.${rulesMinor}.${fixPatch} init-container fixes every pod takes the sidecar-aware init path and an init container stuck in Created is left alone; an exited regular container does not mean "initialized" there (read in v1.29.6).`,
    });
  }
  const source = mirrorSourceNote(rulesMinor, { text: rulesText, patch: v.minor > NEWEST_MINOR ? null : v.patch });
  if (source) unpinned.push(source);
  // 1.35.0–1.35.3 with ChangeContainerStatusOnKubeletRestart off: a sidecar's startup result is not
  // seeded again after a kubelet restart; fixed in 1.35.4 (PR 137885, the cherry-pick of PR 137146;
  // CHANGELOG-1.35.md, kubernetes/kubernetes@008b3652) and in 1.36.0.
  let startupResultLostOnKubeletRestart = false;
  if (rulesMinor === 35 && !gates.ChangeContainerStatusOnKubeletRestart) {
    if (v.patch === null) {
      unpinned.push({
        id: 'patch-startup-seed',
        short: `No patch release was given for kubelet ${v.text}: planned as 1.35.4 or later.`,
        detail:
          "1.35.4 carries a sidecar's startup result over a kubelet restart (1.35.0–1.35.3 with ChangeContainerStatusOnKubeletRestart off do not).",
      });
    } else {
      startupResultLostOnKubeletRestart = v.patch < STARTUP_SEED_FIX_PATCH_135;
    }
  }
  return {
    version: v.text,
    minor: v.minor,
    patch: v.patch,
    versionOrigin,
    rulesMinor,
    gates,
    gateOrigins,
    hashScheme: hashSchemeOfMinor(rulesMinor),
    initPathRule,
    restartCreatedInitContainers: initFixed,
    // Both came with 1.32 only, not with the 1.29–1.31 patch fixes (k8s.io/kubernetes v1.31.14's
    // computeInitContainerActions and containerSucceeded; its oracle disagreed before).
    restartChangedSidecars: rulesMinor >= 32,
    succeededRequiresExited: rulesMinor >= 32,
    initStatusFromActiveSandbox: rulesMinor >= 37,
    resizeRunningInitContainers:
      rulesMinor >= 36 && gates.InPlacePodVerticalScaling && gates.InPlacePodVerticalScalingInitContainers,
    startupResultLostOnKubeletRestart,
    podSandboxResourceUpdates: rulesMinor >= 33,
    podLimitsCountSidecarsBeforeInit: rulesMinor <= 36,
    sandboxResourceUpdateRejects: rulesMinor >= 36,
    resizeBeforeStarts: rulesMinor >= 37,
    startingResizedContainers: rulesMinor >= 37,
    sandboxOrder: sandboxOrderOfMinor(rulesMinor),
    unpinned,
    warnings,
  };
}

/** Whether computePodActions takes the sidecar-aware init path (computeInitContainerActions) for this pod. */
export function usesSidecarInitPath(rules: KubeletRules, hasRestartableInitContainer: boolean): boolean {
  switch (rules.initPathRule) {
    case 'always':
      return true;
    case 'legacy-gate':
      return hasRestartableInitContainer || !rules.gates.LegacySidecarContainers;
    case 'sidecar-pods':
      return rules.gates.SidecarContainers && hasRestartableInitContainer;
    case 'every-pod':
      return rules.gates.SidecarContainers;
  }
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
