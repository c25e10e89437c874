// The command line's probe flags (plan, sync) as the plan's given probe results: the flags are
// named here, src/plan/probe-inputs.ts only repeats the label it is given.
import type { GivenProbeResult } from '../plan/probe-inputs';

export interface ProbeFlags {
  /** `--liveness-failed NAME`: the liveness probe of container NAME failed. */
  livenessFailed?: string[];
  /** `--startup-failed NAME` */
  startupFailed?: string[];
  /** `--startup-succeeded NAME` */
  startupSucceeded?: string[];
}

/** In the order a conflict is reported: the later flag names the earlier one. */
export function probeFlagResults(flags: ProbeFlags): GivenProbeResult[] {
  return [
    { label: '--liveness-failed', probe: 'liveness', result: 'Failure', containers: flags.livenessFailed ?? [] },
    { label: '--startup-failed', probe: 'startup', result: 'Failure', containers: flags.startupFailed ?? [] },
    { label: '--startup-succeeded', probe: 'startup', result: 'Success', containers: flags.startupSucceeded ?? [] },
  ];
}
