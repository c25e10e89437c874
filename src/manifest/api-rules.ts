// The API server a manifest is read for: the minor and the feature gates of the kubelet the plan
// mirrors (an API server and its kubelets share a minor and, on a conformant cluster, the gates
// that shape pods). Schema fields, dropped disabled fields and validation rules follow it. Pure.

import { FEATURE_GATES, GATE_NAMES, NEWEST_MINOR, gateSpecAt, type GateName, type GateRow } from '../kubelet/features';

export interface ApiRules {
  /** 1.x minor of the API server (the mirrored kubelet's rules minor). */
  minor: number;
  /** Whether each gate's behaviour is on: a gate that minor lacks is off before it existed and keeps its last default after its removal. */
  gates: Record<GateName, boolean>;
  /** '1.36' or '1.36.2': how the version is named in notes. */
  text: string;
}

/**
 * The API rules for `minor` with `given` gates (the effective values of the gates the minor has;
 * the others are ignored). A gate removed before `minor` (SidecarContainers in 1.37) keeps its
 * final default, as the API server then behaves as if it were on.
 */
export function apiRulesFor(
  minor: number,
  given: Partial<Record<GateName, boolean>> = {},
  text = `1.${minor}`,
): ApiRules {
  const gates = {} as Record<GateName, boolean>;
  for (const name of GATE_NAMES) {
    const spec = gateSpecAt(name, minor);
    const row: GateRow = FEATURE_GATES[name];
    if (spec !== undefined) gates[name] = given[name] ?? spec.default;
    else if (row.removedIn !== undefined && minor >= row.removedIn)
      gates[name] = row.specs[row.specs.length - 1]!.default;
    else gates[name] = false;
  }
  return { minor, gates, text };
}

/** The newest mirrored minor with its default gates: what a manifest is read for when no kubelet is named. */
export const DEFAULT_API_RULES: ApiRules = apiRulesFor(NEWEST_MINOR);

/** Who says what about a gate in notes: `kubelet 1.33 with ContainerRestartRules off`. */
export function gateOff(api: ApiRules, gate: GateName): string {
  return gateSpecAt(gate, api.minor) === undefined
    ? `the API server of ${api.text} (no ${gate} gate)`
    : `the API server of ${api.text} with ${gate} off`;
}

/** The API rules of the kubelet a plan mirrors (its rules minor and effective gates). */
export function apiRulesOfKubelet(rules: {
  rulesMinor: number;
  gates: Partial<Record<GateName, boolean>>;
  version: string;
}): ApiRules {
  return apiRulesFor(rules.rulesMinor, rules.gates, rules.version);
}
