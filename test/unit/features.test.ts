// The feature-gate table, version parsing and --feature-gates parsing (src/kubelet/features.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SyncpodError } from '../../src/errors';
import {
  FEATURE_GATES,
  GATE_NAMES,
  gateSpecAt,
  parseFeatureGates,
  parseKubeletVersion,
  resolveFeatureGates,
  type GateName,
} from '../../src/kubelet/features';
import { resolveKubeletRules } from '../../src/kubelet/kubelet-version';

const oneLine = (re: RegExp) => (e: unknown) =>
  e instanceof SyncpodError && !e.message.includes('\n') && re.test(e.message);

test('versions: minor and patch kept, v prefix and vendor suffixes accepted', () => {
  const rows: Array<[string, number, number | null, string]> = [
    ['1.36', 36, null, '1.36'],
    ['v1.36.2', 36, 2, '1.36.2'],
    [' 1.29.9 ', 29, 9, '1.29.9'],
    ['v1.31.1-eks-abc123', 31, 1, '1.31.1'],
    ['v1.30.5+k3s1', 30, 5, '1.30.5'],
  ];
  for (const [text, minor, patch, out] of rows) {
    assert.deepEqual(parseKubeletVersion(text), { minor, patch, text: out }, text);
  }
  for (const bad of ['banana', '2.1', '1', '1.x', 'v1.33.', '']) {
    assert.throws(() => parseKubeletVersion(bad), oneLine(/invalid kubelet version/), bad);
  }
});

// Every gate's value at each kubelet minor 1.29–1.37 as the versioned specs of kube_features.go
// give it (natasha41575/kubernetes@9298de89 for the 1.37 cycle, zongruxie4/kubernetes@964d79dd for
// 1.36, the 1.33 tree for the gates 1.36 removed; the gates of the 1.37 fields from the 1.37
// feature-gate pages of kubernetes/website): '-' the minor has no such gate, 'off'/'on' its
// default, 'ON' on and locked (kubelet refuses to start with it set to false).
const MINORS = [29, 30, 31, 32, 33, 34, 35, 36, 37];
const BY_MINOR: Array<[GateName, string]> = [
  //                                          29   30   31   32   33   34   35   36   37
  ['AtomicWriteVolumeUserFields', '-    -    -    -    -    -    -    -    off'],
  ['ChangeContainerStatusOnKubeletRestart', '-    -    -    -    -    -    off  off  off'],
  ['ContainerRestartRules', '-    -    -    -    -    off  on   on   on'],
  ['ContainerStopSignals', '-    -    -    -    off  off  off  off  off'],
  ['EmptyDirVolumeMode', '-    -    -    -    -    -    -    -    off'],
  ['EnvFiles', '-    -    -    -    -    off  on   on   on'],
  ['GRPCContainerProbeTLS', '-    -    -    -    -    -    -    -    off'],
  ['H2CContainerProbe', '-    -    -    -    -    -    -    -    off'],
  ['HostnameOverride', '-    -    -    -    -    off  on   on   ON'],
  ['ImageVolume', '-    -    off  off  off  off  on   ON   ON'],
  ['InPlacePodLevelResourcesVerticalScaling', '-  -    -    -    -    -    off  on   on'],
  ['InPlacePodVerticalScaling', 'off  off  off  off  on   on   ON   ON   ON'],
  ['InPlacePodVerticalScalingInitContainers', '-  -    -    -    -    -    -    on   ON'],
  ['KubeletCrashLoopBackOffMax', '-    -    -    off  off  off  on   on   on'],
  ['LegacySidecarContainers', '-    -    -    -    off  -    -    -    -'],
  ['NodeSwap', 'off  on   on   on   on   ON   ON   ON   ON'],
  ['PodLevelResources', '-    -    -    off  off  on   on   on   on'],
  ['ProcMountType', 'off  off  off  off  on   on   on   ON   ON'],
  ['RecursiveReadOnlyMounts', '-    off  on   on   ON   ON   ON   ON   ON'],
  ['RelaxedEnvironmentVariableValidation', '-    off  off  on   on   ON   ON   ON   ON'],
  ['RestartAllContainersOnContainerExits', '-    -    -    -    -    -    off  on   on'],
  ['SidecarContainers', 'on   on   on   on   ON   ON   ON   ON   -'],
  ['SupplementalGroupsPolicy', '-    -    off  off  on   on   ON   ON   ON'],
  ['UserNamespacesSupport', 'off  off  off  off  on   on   on   ON   ON'],
  ['VolumeBindMountOptions', '-    -    -    -    -    -    -    -    off'],
];

test('gate defaults and locks per minor 1.29–1.37 follow the versioned specs of kube_features.go', () => {
  assert.deepEqual(
    BY_MINOR.map(([n]) => n),
    [...GATE_NAMES],
    'every gate of the table is stated',
  );
  for (const [name, row] of BY_MINOR) {
    const cells = row.trim().split(/\s+/);
    assert.equal(cells.length, MINORS.length, name);
    MINORS.forEach((minor, i) => {
      const spec = gateSpecAt(name, minor);
      const got = spec === undefined ? '-' : spec.locked ? (spec.default ? 'ON' : 'OFF') : spec.default ? 'on' : 'off';
      assert.equal(got, cells[i], `${name} at 1.${minor}`);
    });
  }
});

test('a gate kubelet locks or no longer has is refused in --feature-gates, one line', () => {
  assert.throws(
    () => resolveFeatureGates(36, '1.36', { ImageVolume: false }),
    oneLine(/ImageVolume is GA and locked to true in kubelet 1.36/),
  );
  assert.throws(() => resolveFeatureGates(36, '1.36', { UserNamespacesSupport: false }), oneLine(/locked to true/));
  assert.throws(
    () => resolveFeatureGates(37, '1.37', { SidecarContainers: true }),
    oneLine(/SidecarContainers does not exist in kubelet 1.37/),
  );
  assert.equal(resolveFeatureGates(35, '1.35', { ProcMountType: false }).ProcMountType?.enabled, false);
});

test('every gate row cites a source and says what it changes', () => {
  for (const name of GATE_NAMES) {
    const row = FEATURE_GATES[name];
    assert.ok(row.source.length > 10 && !row.source.includes('\n'), name);
    assert.ok(row.effect.length > 10, name);
    const sinces = row.specs.map((s) => s.since);
    assert.deepEqual(
      sinces,
      [...sinces].sort((a, b) => a - b),
      `${name} specs in version order`,
    );
  }
});

test('--feature-gates: kubelet syntax, unknown or malformed entries are one-line errors', () => {
  assert.deepEqual(parseFeatureGates('ContainerRestartRules=false, ImageVolume=TRUE'), {
    ContainerRestartRules: false,
    ImageVolume: true,
  });
  assert.deepEqual(parseFeatureGates(undefined), {});
  assert.throws(() => parseFeatureGates('NoSuchGate=true'), oneLine(/unknown feature gate NoSuchGate/));
  assert.throws(() => parseFeatureGates('ImageVolume'), oneLine(/"ImageVolume" is not NAME=true\|false/));
  assert.throws(() => parseFeatureGates('ImageVolume=yes'), oneLine(/is not NAME=true\|false/));
});

test('resolved gates say where each value came from: flag > detected > default', () => {
  const g = resolveFeatureGates(35, '1.35', { ImageVolume: false }, { ImageVolume: true, EnvFiles: false });
  assert.deepEqual(g.ImageVolume, { enabled: false, origin: 'flag', stage: 'beta', locked: false });
  assert.deepEqual(g.EnvFiles, { enabled: false, origin: 'detected', stage: 'beta', locked: false });
  assert.deepEqual(g.ContainerRestartRules, { enabled: true, origin: 'default', stage: 'beta', locked: false });
  assert.equal(g.LegacySidecarContainers, undefined, 'removed in 1.34');
});

test('a locked gate set against its default, or a gate the version lacks, is refused', () => {
  assert.throws(
    () => resolveFeatureGates(35, '1.35', { InPlacePodVerticalScaling: false }),
    oneLine(/InPlacePodVerticalScaling is GA and locked to true in kubelet 1\.35/),
  );
  assert.doesNotThrow(() => resolveFeatureGates(35, '1.35', { InPlacePodVerticalScaling: true }));
  assert.throws(
    () => resolveFeatureGates(34, '1.34', { LegacySidecarContainers: true }),
    oneLine(/LegacySidecarContainers does not exist in kubelet 1\.34/),
  );
  assert.throws(
    () => resolveFeatureGates(33, '1.33', {}, { SidecarContainers: false }),
    oneLine(/^kubelet configuration featureGates: feature gate SidecarContainers/),
  );
});

test('the resolved rules carry version origin and gate provenance', () => {
  const flagged = resolveKubeletRules('v1.33.2', { LegacySidecarContainers: true });
  assert.equal(flagged.version, '1.33.2');
  assert.equal(flagged.patch, 2);
  assert.equal(flagged.versionOrigin, 'flag');
  assert.equal(flagged.gateOrigins.LegacySidecarContainers?.origin, 'flag');
  assert.equal(flagged.gates.LegacySidecarContainers, true);
  const detected = resolveKubeletRules(
    undefined,
    {},
    { version: 'v1.33.0', featureGates: { InPlacePodVerticalScaling: false } },
  );
  assert.equal(detected.versionOrigin, 'detected');
  assert.equal(detected.gateOrigins.InPlacePodVerticalScaling?.origin, 'detected');
  assert.equal(resolveKubeletRules().versionOrigin, 'default');
});

test('InPlacePodVerticalScalingInitContainers: a 1.36 kubelet resizes a running init container in place unless the gate is set off; 1.35 has no such gate', () => {
  assert.equal(resolveKubeletRules('v1.36.1').resizeRunningInitContainers, true);
  assert.equal(
    resolveKubeletRules('v1.36.1', { InPlacePodVerticalScalingInitContainers: false }).resizeRunningInitContainers,
    false,
  );
  assert.equal(resolveKubeletRules('v1.35.2').resizeRunningInitContainers, false);
  assert.throws(
    () => resolveKubeletRules('v1.35.2', { InPlacePodVerticalScalingInitContainers: true }),
    oneLine(/InPlacePodVerticalScalingInitContainers/),
  );
});

// Each kubelet release's own gate table (test/fixtures/kubelet-gates/, written by `npm run
// oracle:gates` from the release's code: the kubelet oracle's --gates): every gate syncpod
// consults has, at that minor, the release's default and lock, and exists exactly when the release has it.
test("the gate table matches each kubelet release's own (from kubelet's code, each built oracle's --gates)", () => {
  const dir = join(__dirname, '..', 'fixtures', 'kubelet-gates');
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  assert.deepEqual(
    files.sort(),
    ['v1.33.13.json', 'v1.34.4.json', 'v1.35.4.json', 'v1.36.3.json', 'v1.37.2.json'],
    'the releases whose oracle was built',
  );
  for (const file of files) {
    const { kubelet, gates } = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
      kubelet: string;
      gates: Record<string, { default: boolean; locked: boolean }>;
    };
    const minor = Number(kubelet.split('.')[1]);
    for (const name of GATE_NAMES) {
      const ours = gateSpecAt(name, minor);
      const theirs = gates[name];
      assert.equal(ours !== undefined, theirs !== undefined, `${name} exists in kubelet ${kubelet}`);
      if (ours && theirs)
        assert.deepEqual(
          { default: ours.default, locked: ours.locked ?? false },
          { default: theirs.default, locked: theirs.locked },
          `${name} in kubelet ${kubelet}`,
        );
    }
  }
});
