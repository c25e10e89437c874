// The man page text of `syncpod doctor` (man/syncpod-doctor.1, written by `npm run man`): what it reads,
// changes and never touches, exit codes, environment, files, examples. Flags come from ./command.ts.
import { IMAGE_ENV, PROFILE_FILES, type CommandDoc } from '../../man-text';

export const man: CommandDoc = {
  description: [
    "Checks this node against the kubelet's own rules and the runtime's own answers, and says for each check ok, warn, fail or skip, with the evidence (what was read, and where) and a remedy. Groups: runtime (reachable, API version, conditions, version, cgroup driver), kubelet (found, version, config, cgroup driver, sandbox image, static pods), pods (crash loops, OOM kills, stuck containers, dead sandboxes, orphans), network (CNI config and plugins, host-local IPAM leases, IP forwarding, bridge netfilter), resources (cgroup controllers, swap, image and log filesystem against the kubelet's eviction thresholds) and dns (the kubelet's resolv.conf).",
    '--upgrade-to VERSION adds the upgrade group: would kubelet VERSION start on this node (upgrade.cgroup, upgrade.runtime, upgrade.swap, upgrade.flags, upgrade.feature-gates, upgrade.config; fail where that kubelet would exit, warn where it starts with a warning), the same verdict as plan --upgrade-to.',
    "It reads the runtime over CRI, the kubelet's process, flags and config files, /proc, /sys and the CNI directories; never an API server. It changes nothing. Each check has a deadline (--check-timeout); one that does not answer in time is skipped. With no kubelet running, kubelet.found is one skip row naming the checks it skips (JSON skips); those are then not rows of their own. --list shows the checks, --check and --skip choose them. -o json|yaml is a report contract, -o npd a node-problem-detector plugin, -o prometheus node-exporter's textfile format; --every repeats for a DaemonSet.",
  ],
  exitStatus: [
    ['0', 'The checks ran (with --detailed-exitcode: every check ok or skipped).'],
    ['1', 'syncpod could not run: a bad flag, an unknown check id.'],
    ['2', 'With --detailed-exitcode: a check warns or fails.'],
    [
      '0, 1, 2',
      'With -o npd: 0 OK, 1 NonOK (a check fails or warns; the line names the first), 2 Unknown (nothing could be checked, or syncpod could not run).',
    ],
  ],
  environment: [...IMAGE_ENV, 'NO_COLOR'],
  files: [
    ...PROFILE_FILES,
    'staticPods',
    'podsApi',
    'podLogs',
    'resolvConf',
    'cniConf',
    'cniBin',
    'cniLeases',
    'doctorHost',
  ],
  examples: [
    { what: 'What is wrong with this node?', command: 'syncpod doctor' },
    {
      what: 'Only the runtime group and the crash-loop check:',
      command: 'syncpod doctor --check runtime,pods.crashloop',
    },
    {
      what: 'The findings only, as JSON:',
      command: 'syncpod doctor -o json | jq \'.checks[] | select(.status != "ok")\'',
    },
    {
      what: "For node-exporter's textfile collector:",
      command:
        'syncpod doctor -o prometheus > /var/lib/node-exporter/syncpod.prom.tmp && mv /var/lib/node-exporter/syncpod.prom.tmp /var/lib/node-exporter/syncpod.prom',
    },
    {
      what: 'In a script: exit 2 when something warns or fails:',
      command: 'syncpod doctor --detailed-exitcode > /dev/null',
    },
    {
      what: 'Would kubelet 1.37 start on this node?',
      command: 'syncpod doctor --upgrade-to 1.37 --check upgrade',
    },
  ],
  seeAlso: ['node', 'plan', 'report', 'info'],
};
