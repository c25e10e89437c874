// The kubelet rules one invocation plans with: version (minor and patch), effective feature gates
// with where each came from, and the version-dependent switches the planner reads. Resolved once
// per invocation (resolveKubeletRules) and passed down. Pure.

import { SyncpodError } from '../errors';
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
  /** Sidecar path: an EXITED regular container counts as "pod has initialized". */
  exitedCountsAsInitialized: boolean;
  /** OnFailure "succeeded" requires EXITED (else: any non-running status with exit code 0). */
  succeededRequiresExited: boolean;
  /**
   * 1.37 (PR 138514): computeInitContainerActions reads only the containers of the active (newest,
   * ready) sandbox, and any status of a regular container there means "initialized".
   */
  initStatusFromActiveSandbox: boolean;
  /**
   * 1.36+: a running non-sidecar init container is resized in place (InPlacePodVerticalScalingInitContainers,
   * beta and on from 1.36 in zongruxie4/kubernetes@964d79dd kube_features.go; computeInitContainerActions
   * of natasha41575/kubernetes@1a51be50 kuberuntime_container.go).
   */
  resizeRunningInitContainers: boolean;
  /** 1.33+: doPodResizeAction announces each pod cgroup change with CRI UpdatePodSandboxResources (best effort until 1.36; measured with the v1.33.13 oracle). */
  podSandboxResourceUpdates: boolean;
  /** 1.36+: a failed UpdatePodSandboxResources (other than Unimplemented) rejects the resize; before, it is ignored. */
  sandboxResourceUpdateRejects: boolean;
  /** 1.37: SyncPod resizes (step 6) before it starts ephemeral and init containers (earlier: after the init containers). */
  resizeBeforeStarts: boolean;
  /** 1.37: startingResizedContainer, a container about to start with changed resources resizes the pod cgroup. */
  startingResizedContainers: boolean;
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

/** One kubelet file read for the mirror: where it is stored, what was read in it, and how its minor was told. */
export interface MirrorTree {
  repo: string;
  commit: string;
  file: string;
  /** The mirrored functions read in it. */
  read: string;
  /** How the tree's minor was told (content dating when no release marker is stored with it). */
  dated: string;
}

/** The 1.37/1.38 master snapshot the 1.37 rules follow (kuberuntime_manager.go and kuberuntime_container.go). */
export const MIRROR_SOURCE = {
  repo: 'natasha41575/kubernetes',
  commit: '1a51be50ec47ff0da0affc87af7e70303a635b7b',
  files: [
    'pkg/kubelet/kuberuntime/kuberuntime_manager.go',
    'pkg/kubelet/kuberuntime/kuberuntime_container.go',
    'pkg/kubelet/kuberuntime/kuberuntime_manager_test.go',
  ],
  minor: 37,
  how: 'a master snapshot of the 1.37/1.38 cycle: it carries PR 138514 (merged 2026-04-22, after the 1.36 branch was cut); its kube_features.go, CHANGELOG and version files are not stored at that commit',
} as const;

const MANAGER = 'pkg/kubelet/kuberuntime/kuberuntime_manager.go';
const CONTAINER = 'pkg/kubelet/kuberuntime/kuberuntime_container.go';

/**
 * The manager tree of the 1.35/1.36 window: RestartAllContainers is in (PR 134345, 1.35), SyncPod has
 * not yet PR 134660's OnPodSandboxReady step (merged in the 1.36 cycle), PodSandboxChanged has three
 * results (its fourth came with PR 138514, 1.37).
 */
const MANAGER_135_136: MirrorTree = {
  repo: 'zongruxie4/kubernetes',
  commit: '0b0b77ae20f8dc2cd4cd1be538773ae99a672a43',
  file: MANAGER,
  read: "computePodActions, getContainersToReset, SyncPod's reset branch",
  dated:
    "content: RestartAllContainers (PR 134345, 1.35) without PR 134660's OnPodSandboxReady step (1.36 cycle) or PR 138514 (1.37); " +
    'from computePodActions the end of its sandbox branch (+89 lines), its container loop (+118) and the SyncPod comment (+264) sit where v1.36.2 has them (L1175, L1264, L1293, L1439, as a public walkthrough of v1.36.2 cites them); ' +
    "the same repository's kube_features.go (964d79dd) is of the 1.36 cycle",
};

/** The init-container tree of the 1.36 cycle (a developer branch: its own change is elsewhere in the file). */
const CONTAINER_136: MirrorTree = {
  repo: 'Karthik-K-N/kubernetes',
  commit: '42f8035a118c8426c87ed52f80d9182b9dcfa271',
  file: CONTAINER,
  read: 'computeInitContainerActions, HasAnyRegularContainerCreated',
  dated:
    'content: the in-place resize of a running non-sidecar init container behind InPlacePodVerticalScalingInitContainers (a gate from 1.36) and the init check over every sandbox before PR 138514 (1.37)',
};

/**
 * Where the kuberuntime mirror of each minor from 1.34 on was read (computePodActions,
 * computeInitContainerActions, getContainersToReset and SyncPod's restart-all branch): the trees and
 * how each was dated. No release tag of 1.34–1.37 is stored in the source index: the
 * kubernetes/kubernetes versions of these files are stored only at commits that changed them and
 * cannot be listed, so the trees are forks dated by what they contain.
 */
export const MIRROR_SOURCES: Record<34 | 35 | 36 | 37, { trees: MirrorTree[]; later: string }> = {
  34: {
    trees: [
      {
        repo: 'Priyankasaggu11929/kubernetes',
        commit: '1ea811562a0b3de6153f728bc30e3ae064312551',
        file: MANAGER,
        read: 'computePodActions',
        dated:
          'content: the branch of PR 134660 (opened 2025-10-16) on the master of October 2025, the start of the 1.35 cycle: ContainerRestartRules (1.34) and no legacy init path (removed in 1.34), but neither the pod-level resize (1.35) nor RestartAllContainers (1.35); the nearest stored tree to 1.34, none is dated to the 1.34 release itself',
      },
      CONTAINER_136,
    ],
    later:
      'the pod-level resize and RestartAllContainers (their gates do not exist in 1.34), the in-place resize of a running non-sidecar init container (1.36) and the active-sandbox init check (1.37)',
  },
  35: {
    trees: [
      MANAGER_135_136,
      {
        repo: 'KevinTMtz/kubernetes',
        commit: '294f58570e4f86e2fa232b1c8ccc9d6bca4473f5',
        file: MANAGER,
        read: 'computePodActions',
        dated:
          'content: the 1.35 cycle before PR 134345: ContainerRestartRules and the pod-level resize (alpha in 1.35), no RestartAllContainers yet',
      },
      CONTAINER_136,
    ],
    later:
      'the in-place resize of a running non-sidecar init container (1.36; its gate does not exist in 1.35) and the active-sandbox init check (1.37)',
  },
  36: {
    trees: [MANAGER_135_136, CONTAINER_136],
    later: "PR 138514's active-sandbox init check (1.37)",
  },
  37: {
    trees: [
      {
        repo: MIRROR_SOURCE.repo,
        commit: MIRROR_SOURCE.commit,
        file: MANAGER,
        read: 'computePodActions, getContainersToReset, computePodResizeAction, containerChanged',
        dated: MIRROR_SOURCE.how,
      },
      {
        repo: MIRROR_SOURCE.repo,
        commit: MIRROR_SOURCE.commit,
        file: CONTAINER,
        read: 'computeInitContainerActions',
        dated: MIRROR_SOURCE.how,
      },
    ],
    later: '',
  },
};

/** repo@short-commit of a tree. */
export function treeRef(t: Pick<MirrorTree, 'repo' | 'commit'>): string {
  return `${t.repo}@${t.commit.slice(0, 8)}`;
}

const HELPERS_NOTE =
  'ShouldContainerBeRestarted and the restart-rule helpers (container/helpers.go, api/v1/pod/util.go) of 1.34+ are stored in no dated tree and follow their 1.34 form (ContainerShouldRestart, findMatchingContainerRestartRule) as their callers in these trees use them';

/** The plan assumption that says what the mirror of `minor` (34+) was read in and how that tree's minor was told. */
function mirrorSourceNote(minor: number, text: string): UnpinnedNote {
  const m = Math.min(minor, 37) as 34 | 35 | 36 | 37;
  const src = MIRROR_SOURCES[m];
  // Files of one tree are named together, with how that tree was dated once.
  const groups: MirrorTree[][] = [];
  for (const t of src.trees) {
    const g = groups.find((x) => x[0].repo === t.repo && x[0].commit === t.commit);
    if (g) g.push(t);
    else groups.push([t]);
  }
  const trees = groups
    .map(
      (g) =>
        `${g.map((t) => `${t.read} in ${t.file.replace('pkg/kubelet/kuberuntime/', '')}`).join(', ')} of ${treeRef(g[0])} (${g[0].dated})`,
    )
    .join('; ');
  if (m === 37) {
    const short = `kubelet ${text}: the kuberuntime rules mirror a master snapshot of the 1.37/1.38 cycle, not a release tag.`;
    return { id: 'mirror-source', short, detail: `Read in ${trees}; not a release-1.37 tag. ${HELPERS_NOTE}.` };
  }
  const tag =
    m === 34
      ? 'the nearest stored trees (none is dated to the 1.34 release)'
      : m === 35
        ? 'trees dated by their content to the 1.35 cycle and the 1.35/1.36 window'
        : 'trees dated by their content to the 1.36 cycle';
  const short = `kubelet ${text}: the kuberuntime rules were read in ${tag}, not in a release tag.`;
  const later = src.later + (m === 35 ? ' and, before 1.35.4, the sidecar startup seeding of PR 137885' : '');
  const detail =
    `Read in ${trees}. ` +
    `The same decisions hold in natasha41575/kubernetes@1a51be50 (1.37/1.38 master) but for changes switched off by version here: ${later}. ${HELPERS_NOTE}.`;
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
      short: `kubelet ${v.text}: three init-path rules are assumed to have changed with the 1.${rulesMinor}.${fixPatch ?? 0} init-container fixes.`,
      detail:
        'They were read in 1.28 and 1.33 trees only: ' +
        (initFixed
          ? 'a changed sidecar is restarted, exited regular containers do not mean "initialized", and OnFailure counts only an exited container with code 0 as succeeded.'
          : 'a changed sidecar is not restarted, an exited regular container means "initialized", and OnFailure counts any stopped container with code 0 as succeeded.'),
    });
  }
  if (rulesMinor >= 34) unpinned.push(mirrorSourceNote(rulesMinor, rulesText));
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
    restartChangedSidecars: initFixed,
    exitedCountsAsInitialized: !initFixed,
    succeededRequiresExited: initFixed,
    initStatusFromActiveSandbox: rulesMinor >= 37,
    resizeRunningInitContainers:
      rulesMinor >= 36 && gates.InPlacePodVerticalScaling && gates.InPlacePodVerticalScalingInitContainers,
    startupResultLostOnKubeletRestart,
    podSandboxResourceUpdates: rulesMinor >= 33,
    sandboxResourceUpdateRejects: rulesMinor >= 36,
    resizeBeforeStarts: rulesMinor >= 37,
    startingResizedContainers: rulesMinor >= 37,
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
