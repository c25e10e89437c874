// The documented classes of difference: what kubelet decides from state it keeps in memory or in
// its checkpoints, which a tool outside kubelet cannot see. A disagreement in none of these is a
// defect of the mirror. Each class is listed in README "Kubelet oracle" with an example scenario.
import type { Scenario } from './scenario';

export function classify(_scenario: Scenario, _syncpod: string[], _kubelet: string[]): string | undefined {
  return undefined;
}
