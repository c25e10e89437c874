// Kubelet's start-up preconditions per target minor (src/kubelet/startup-checks.ts over the data of
// startup-rules.ts and startup-gates.ts): a healthy node's facts, then one change per case, named in
// a sentence, with the findings expected for each target.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandLineFlags, configLine, startupVerdict, type StartupFacts } from '../../src/kubelet/startup-checks';
import { REMOVED_FLAGS, CONFIG_RULES, CGROUP_V1 } from '../../src/kubelet/startup-rules';
import { STARTUP_GATES } from '../../src/kubelet/startup-gates';
import { FEATURE_GATES } from '../../src/kubelet/features';
import { gatesTargetAccepts } from '../../src/plan/upgrade';

const HEAD = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';

/** A cgroup v2 node with containerd 2.1 answering RuntimeConfig, a kubelet with a plain config. */
function healthy(): StartupFacts {
  return {
    kubelet: {
      pid: 812,
      args: ['--config=/var/lib/kubelet/config.yaml', '--kubeconfig', '/etc/kubernetes/kubelet.conf', '--v=2'],
      configFiles: [{ path: '/var/lib/kubelet/config.yaml', text: `${HEAD}cgroupDriver: systemd\n` }],
      config: { cgroupDriver: 'systemd' },
    },
    cgroup: { version: 2, from: 'statfs /sys/fs/cgroup: cgroup2fs' },
    swaps: [],
    runtime: {
      name: 'containerd',
      version: 'v2.1.4',
      apiVersion: '0.1.0',
      criApi: 'v1',
      endpoint: 'unix:///run/containerd/containerd.sock',
    },
    runtimeConfig: { answered: true, cgroupDriver: 'systemd' },
  };
}

/** Sets a config document and its text (so that line evidence can be found). */
function withConfig(f: StartupFacts, yaml: string, doc: Record<string, unknown>): StartupFacts {
  const driver = 'cgroupDriver' in doc ? '' : 'cgroupDriver: systemd\n';
  f.kubelet!.configFiles = [{ path: '/var/lib/kubelet/config.yaml', text: HEAD + driver + yaml }];
  f.kubelet!.config = { cgroupDriver: 'systemd', ...doc };
  return f;
}

const rules = (f: StartupFacts, target: string) => {
  const v = startupVerdict(f, target);
  return { blockers: v.blockers.map((b) => b.rule), warnings: v.warnings.map((w) => w.rule), starts: v.starts };
};

const CASES: Array<{
  name: string;
  facts: () => StartupFacts;
  expect: Record<string, { blockers: string[]; warnings: string[] }>;
}> = [
  {
    name: 'a healthy cgroup v2 node with containerd 2.x starts every target',
    facts: healthy,
    expect: {
      '1.29': { blockers: [], warnings: [] },
      '1.35': { blockers: [], warnings: [] },
      '1.37': { blockers: [], warnings: [] },
    },
  },
  {
    name: 'cgroup v1 with failCgroupV1 unset: nothing before 1.31, a warning 1.31–1.34 (default false), a blocker from 1.35 (default true)',
    facts: () => ({ ...healthy(), cgroup: { version: 1, from: 'statfs /sys/fs/cgroup: tmpfs' } }),
    expect: {
      '1.30': { blockers: [], warnings: [] },
      '1.31': { blockers: [], warnings: ['cgroup-v1'] },
      '1.34': { blockers: [], warnings: ['cgroup-v1'] },
      '1.35': { blockers: ['cgroup-v1'], warnings: [] },
      '1.37': { blockers: ['cgroup-v1'], warnings: [] },
    },
  },
  {
    name: 'cgroup v1 with failCgroupV1: false in the config is a warning only',
    facts: () =>
      withConfig({ ...healthy(), cgroup: { version: 1, from: 'x' } }, 'failCgroupV1: false\n', { failCgroupV1: false }),
    expect: { '1.37': { blockers: [], warnings: ['cgroup-v1'] } },
  },
  {
    name: 'cgroup v1 with --fail-cgroupv1=true on the command line refuses from 1.31',
    facts: () => {
      const f = { ...healthy(), cgroup: { version: 1 as const, from: 'x' } };
      f.kubelet!.args.push('--fail-cgroupv1=true');
      return f;
    },
    expect: { '1.31': { blockers: ['cgroup-v1'], warnings: [] } },
  },
  {
    name: 'containerd 1.7 without RuntimeConfig: warnings (fallback from 1.31; containerd 1.x past 1.35), never a refusal',
    facts: () => ({
      ...healthy(),
      runtime: { name: 'containerd', version: 'v1.7.13', apiVersion: '0.1.0', criApi: 'v1', endpoint: 'e' },
      runtimeConfig: { answered: false, why: 'RuntimeConfig is not implemented' },
    }),
    expect: {
      '1.30': { blockers: [], warnings: [] },
      '1.31': { blockers: [], warnings: ['runtime-config'] },
      '1.35': { blockers: [], warnings: ['runtime-config'] },
      '1.36': { blockers: [], warnings: ['runtime-version', 'runtime-config'] },
    },
  },
  {
    name: 'a runtime that serves only runtime.v1alpha2 is refused by every target',
    facts: () => ({
      ...healthy(),
      runtime: { name: 'containerd', version: 'v1.6.0', apiVersion: '0.1.0', criApi: 'v1alpha2', endpoint: 'e' },
    }),
    expect: { '1.29': { blockers: ['cri-api'], warnings: [] } },
  },
  {
    name: "the runtime answers another cgroup driver than the config: the target takes the runtime's (a warning)",
    facts: () => ({ ...healthy(), runtimeConfig: { answered: true, cgroupDriver: 'cgroupfs' } }),
    expect: { '1.30': { blockers: [], warnings: [] }, '1.33': { blockers: [], warnings: ['runtime-config'] } },
  },
  {
    name: 'swap on with failSwapOn unset is refused by every target; failSwapOn: false starts',
    facts: () => ({ ...healthy(), swaps: [{ name: '/swapfile', sizeKiB: 1024 }] }),
    expect: { '1.29': { blockers: ['swap'], warnings: [] }, '1.37': { blockers: ['swap'], warnings: [] } },
  },
  {
    name: 'memorySwap.swapBehavior UnlimitedSwap: accepted by 1.29, refused from 1.30',
    facts: () =>
      withConfig(healthy(), 'featureGates:\n  NodeSwap: true\nmemorySwap:\n  swapBehavior: UnlimitedSwap\n', {
        featureGates: { NodeSwap: true },
        memorySwap: { swapBehavior: 'UnlimitedSwap' },
      }),
    expect: {
      '1.29': { blockers: [], warnings: [] },
      '1.30': { blockers: ['swap'], warnings: [] },
      '1.34': { blockers: ['swap'], warnings: ['gate-deprecated'] },
    },
  },
  {
    name: '--pod-infra-container-image is known through 1.34 and refused from 1.35',
    facts: () => {
      const f = healthy();
      f.kubelet!.args.push('--pod-infra-container-image', 'registry.k8s.io/pause:3.9');
      return f;
    },
    expect: { '1.34': { blockers: [], warnings: [] }, '1.35': { blockers: ['flag-removed'], warnings: [] } },
  },
  {
    name: "cadvisor's --housekeeping-interval stays in 1.37 while --storage_driver_db (underscore spelling) goes",
    facts: () => {
      const f = healthy();
      f.kubelet!.args.push('--housekeeping-interval=10s', '--storage_driver_db=cadvisor');
      return f;
    },
    expect: { '1.36': { blockers: [], warnings: [] }, '1.37': { blockers: ['flag-removed'], warnings: [] } },
  },
  {
    name: 'a deprecated flag is a warning',
    facts: () => {
      const f = healthy();
      f.kubelet!.args.push('--maximum-dead-containers=10');
      return f;
    },
    expect: { '1.37': { blockers: [], warnings: ['flag-deprecated'] } },
  },
  {
    name: 'InPlacePodVerticalScaling=false in the config: fine while beta, refused once 1.35 locks it',
    facts: () =>
      withConfig(healthy(), 'featureGates:\n  InPlacePodVerticalScaling: false\n', {
        featureGates: { InPlacePodVerticalScaling: false },
      }),
    expect: { '1.34': { blockers: [], warnings: [] }, '1.35': { blockers: ['gate-locked'], warnings: [] } },
  },
  {
    name: 'a gate locked on and set on is a warning; once removed it is refused',
    facts: () => {
      const f = healthy();
      f.kubelet!.args.push('--feature-gates=AnyVolumeDataSource=true');
      return f;
    },
    expect: {
      '1.32': { blockers: [], warnings: [] },
      '1.33': { blockers: [], warnings: ['gate-deprecated'] },
      '1.37': { blockers: ['gate-removed'], warnings: [] },
    },
  },
  {
    name: 'validation added inside the range: containerLogMaxFiles 1 from 1.33, memoryThrottlingFactor without MemoryQoS from 1.37',
    facts: () =>
      withConfig(
        healthy(),
        'containerLogMaxFiles: 1\nmemoryThrottlingFactor: 0.7\nfeatureGates:\n  MemoryQoS: false\n',
        {
          containerLogMaxFiles: 1,
          memoryThrottlingFactor: 0.7,
          featureGates: { MemoryQoS: false },
        },
      ),
    expect: {
      '1.32': { blockers: [], warnings: [] },
      '1.33': { blockers: ['config-validation'], warnings: [] },
      '1.37': { blockers: ['config-validation', 'config-validation'], warnings: [] },
    },
  },
];

for (const c of CASES) {
  test(c.name, () => {
    for (const [target, want] of Object.entries(c.expect)) {
      const got = rules(c.facts(), target);
      assert.deepEqual({ blockers: got.blockers, warnings: got.warnings }, want, `target ${target}`);
      assert.equal(got.starts, want.blockers.length === 0);
    }
  });
}

test('evidence names the config file line and the command-line flag as written', () => {
  const f = withConfig(
    healthy(),
    'cgroupDriver: systemd\nfeatureGates:\n  # comment\n  InPlacePodVerticalScaling: false\n',
    {
      cgroupDriver: 'systemd',
      featureGates: { InPlacePodVerticalScaling: false },
    },
  );
  f.kubelet!.args.push('--cloud-config', '/etc/kubernetes/cloud.conf');
  const v = startupVerdict(f, '1.37');
  assert.deepEqual(
    v.blockers.map((b) => [b.rule, b.evidence[0]!.from]),
    [
      ['flag-removed', 'kubelet pid 812 command line: --cloud-config /etc/kubernetes/cloud.conf'],
      ['gate-locked', '/var/lib/kubelet/config.yaml:6'],
    ],
  );
  assert.equal(v.summary, 'kubelet 1.37 would not start on this node: 2 blockers (flag-removed, gate-locked).');
});

test('configLine: YAML nesting, JSON, the last file that sets the key wins', () => {
  const files = [
    { path: '/a.yaml', text: 'featureGates:\n  A: true\nother:\n  B: true\n' },
    { path: '/b.json', text: '{\n  "featureGates": {\n    "A": false\n  },\n  "runOnce": true\n}\n' },
  ];
  assert.equal(configLine(files, 'A', 'featureGates'), '/b.json:3');
  assert.equal(configLine(files.slice(0, 1), 'A', 'featureGates'), '/a.yaml:2');
  assert.equal(configLine(files, 'B', 'featureGates'), undefined);
  assert.equal(configLine(files, 'runOnce'), '/b.json:5');
  assert.equal(configLine([{ path: '/c', text: 'featureGates: {A: true}\n' }], 'A', 'featureGates'), '/c:1');
});

test('commandLineFlags: --name=value, --name value, underscores as dashes, stops at --', () => {
  assert.deepEqual(
    commandLineFlags(['--a=1', '--b_c', 'x', '-v', '3', '--bool', '--', '--after']).map((f) => [f.name, f.value]),
    [
      ['a', '1'],
      ['b-c', 'x'],
      ['v', '3'],
      ['bool', undefined],
    ],
  );
});

test('every rule row names the k8s.io/kubernetes release file it was read from', () => {
  const release =
    /k8s\.io\/kubernetes v1\.(29\.6|30\.14|31\.14|32\.13|33\.13|34\.4|35\.4|36\.3|37\.2)(\.\.v1\.\d+\.\d+)? (cmd|pkg)\/\S+\.go/;
  for (const r of REMOVED_FLAGS) assert.match(r.from, release, r.flag);
  for (const r of CONFIG_RULES) assert.match(r.from, release, r.id);
  assert.match(CGROUP_V1.from, release);
  for (const [g, r] of Object.entries(STARTUP_GATES)) {
    assert.match(r.from, release, g);
    assert.ok(r.known[0] >= 29 && r.known[1] <= 37 && r.known[0] <= r.known[1], g);
    assert.ok(
      r.specs.length > 0 &&
        r.specs.every((s) => /^\d+:(on|off):(alpha|beta|ga|deprecated|prealpha)(:locked)?$/.test(s)),
      g,
    );
  }
});

test('the generated gate table agrees with the hand-read gates syncpod plans with, where both have a gate', () => {
  let compared = 0;
  for (const [gate, row] of Object.entries(FEATURE_GATES)) {
    const s = STARTUP_GATES[gate];
    if (!s) continue;
    for (let minor = s.known[0]; minor <= s.known[1]; minor++) {
      const mine = [...s.specs].reverse().find((x) => Number(x.split(':')[0]) <= minor);
      const theirs = ([...row.specs] as Array<{ since: number; default: boolean; locked?: boolean }>)
        .reverse()
        .find((x) => x.since <= minor);
      if (!mine || !theirs) continue;
      const [, d, , locked] = mine.split(':');
      assert.equal(d === 'on', theirs.default, `${gate} default at 1.${minor}`);
      assert.equal(locked === 'locked', !!theirs.locked, `${gate} lock at 1.${minor}`);
      compared++;
    }
  }
  assert.ok(compared > 10, `only ${compared} gate-minors compared`);
});

test('the upgrade preview leaves out a gate the target refuses (it is a node blocker instead)', () => {
  assert.deepEqual(
    gatesTargetAccepts('1.37', { InPlacePodVerticalScaling: false, RecursiveReadOnlyMounts: true } as never),
    {
      RecursiveReadOnlyMounts: true,
    },
  );
});

test('facts that could not be read are named, not judged', () => {
  const f = { ...healthy(), runtime: undefined, runtimeConfig: undefined, swaps: undefined };
  const v = startupVerdict(f, '1.37');
  assert.deepEqual(v.unread, ['runtime', 'swap']);
  assert.equal(v.starts, true);
  assert.deepEqual(startupVerdict(healthy(), '1.37').unread, []);
});
