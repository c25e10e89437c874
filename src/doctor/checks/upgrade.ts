// doctor checks of the upgrade group (`doctor --upgrade-to VERSION`): would the target kubelet start
// on this node? The same verdict as `plan --upgrade-to` (src/kubelet/startup-checks.ts), one check
// per kind of precondition: fail for a blocker (the target kubelet exits), warn for a warning.
import type { StartupFinding, StartupRule } from '../../kubelet/startup-checks';
import type { CheckOutcome, DoctorCheck, DoctorEnv } from '../types';

function upgradeCheck(
  id: string,
  title: string,
  rules: readonly StartupRule[],
  what: string,
  needs?: 'runtime' | 'swap',
): DoctorCheck {
  return {
    id,
    group: 'upgrade',
    title,
    async run(env: DoctorEnv): Promise<CheckOutcome> {
      if (!env.upgrade) return { status: 'skip', summary: 'No --upgrade-to given.', evidence: [] };
      const v = await env.upgrade();
      const mine = (fs: StartupFinding[]) => fs.filter((f) => rules.includes(f.rule));
      const blockers = mine(v.blockers);
      const warnings = mine(v.warnings);
      const found = [...blockers, ...warnings];
      if (found.length === 0) {
        if (needs && v.unread.includes(needs))
          return {
            status: 'skip',
            summary: needs === 'runtime' ? 'The runtime did not answer Version.' : '/proc/swaps could not be read.',
            evidence: [],
          };
        return { status: 'ok', summary: `Kubelet ${v.target}: ${what} pass.`, evidence: [] };
      }
      return {
        status: blockers.length > 0 ? 'fail' : 'warn',
        summary: `Kubelet ${v.target} ${blockers.length > 0 ? 'would not start' : 'starts with warnings'}: ${found
          .map((f) => f.summary)
          .join(' ')}`,
        evidence: found.flatMap((f) => [
          ...f.evidence,
          { name: `${f.rule}: kubelet ${v.target}`, value: f.kubelet, from: f.readFrom },
        ]),
        remedy: [...new Set(found.map((f) => f.change))].join('; '),
      };
    },
  };
}

export const upgradeChecks: readonly DoctorCheck[] = [
  upgradeCheck(
    'upgrade.cgroup',
    'the target kubelet on this cgroup version (failCgroupV1)',
    ['cgroup-v1'],
    'the cgroup checks',
  ),
  upgradeCheck(
    'upgrade.runtime',
    'the target kubelet with this runtime (CRI API, RuntimeConfig, runtime version)',
    ['cri-api', 'runtime-config', 'runtime-version'],
    'the runtime checks',
    'runtime',
  ),
  upgradeCheck('upgrade.swap', 'the target kubelet with this swap and memorySwap', ['swap'], 'the swap checks', 'swap'),
  upgradeCheck(
    'upgrade.flags',
    "the running kubelet's flags in the target release",
    ['flag-removed', 'flag-deprecated'],
    'the command-line flags',
  ),
  upgradeCheck(
    'upgrade.feature-gates',
    "the kubelet's feature gates in the target release (locked, removed, deprecated)",
    ['gate-locked', 'gate-removed', 'gate-deprecated'],
    'the feature gates',
  ),
  upgradeCheck(
    'upgrade.config',
    "the kubelet's configuration against the target's validation",
    ['config-validation'],
    'the configuration checks',
  ),
];
