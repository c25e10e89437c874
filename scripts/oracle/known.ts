// The documented classes of difference: what kubelet decides from state it keeps in memory or in
// its checkpoints, which a tool outside kubelet cannot see. A disagreement in none of these is a
// defect of the mirror. Each class is listed in README "Kubelet oracle" with an example scenario.
//
// None is declared (kubelet v1.37.2, kubelet's cases and seeds 1-5 of 500 agree call for call).
// The scenarios hold kubelet's own state where the plans assume it: a fresh back-off table, the
// actuated resources equal to what the runtime reports (memory request and pod-level resources as
// the spec), the pod cgroup as those set it, and prober results given to both sides. A class added
// here must match precisely (the scenario's facts and both call lists), never "any resize".
import type { Scenario } from './scenario';

export function classify(_scenario: Scenario, _syncpod: string[], _kubelet: string[]): string | undefined {
  return undefined;
}
