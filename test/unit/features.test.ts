// The feature-gate table, version parsing and --feature-gates parsing (src/kubelet/features.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
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

const oneLine = (re: RegExp) => (e: unknown) => e instanceof SyncpodError && !e.message.includes('\n') && re.test(e.message);

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

// Per-minor defaults of the gates whose values were read in kube_features.go (versioned specs).
const DEFAULTS: Array<[GateName, Record<number, boolean | undefined>]> = [
  ['SidecarContainers', { 29: true, 32: true, 33: true, 37: true }],
  ['LegacySidecarContainers', { 32: undefined, 33: false, 34: undefined }],
  ['InPlacePodVerticalScaling', { 29: false, 32: false, 33: true, 34: true, 35: true }],
  ['PodLevelResources', { 31: undefined, 32: false, 33: false, 34: true }],
  ['ContainerRestartRules', { 33: undefined, 34: false, 35: true, 37: true }],
  ['RestartAllContainersOnContainerExits', { 34: undefined, 35: false, 36: true }],
  ['ChangeContainerStatusOnKubeletRestart', { 29: true, 34: true, 35: false }],
  ['UserNamespacesSupport', { 29: false, 32: false, 33: true }],
  ['SupplementalGroupsPolicy', { 30: undefined, 31: false, 33: true, 35: true }],
  ['ProcMountType', { 32: false, 33: true }],
  ['ImageVolume', { 30: undefined, 31: false, 34: false, 35: true }],
  ['RecursiveReadOnlyMounts', { 29: undefined, 30: false, 31: true, 33: true }],
  ['ContainerStopSignals', { 32: undefined, 33: false }],
  ['EnvFiles', { 33: undefined, 34: false, 35: true }],
  ['HostnameOverride', { 34: false, 35: true }],
  ['KubeletCrashLoopBackOffMax', { 31: undefined, 32: false, 34: false, 35: true }],
  ['RelaxedEnvironmentVariableValidation', { 30: false, 31: false, 32: true, 34: true }],
];

test('gate defaults per minor follow the versioned specs', () => {
  for (const [name, byMinor] of DEFAULTS) {
    for (const [minor, want] of Object.entries(byMinor)) {
      assert.equal(gateSpecAt(name, Number(minor))?.default, want, `${name} at 1.${minor}`);
    }
  }
});

test('every gate row cites a source and says what it changes', () => {
  for (const name of GATE_NAMES) {
    const row = FEATURE_GATES[name];
    assert.ok(row.source.length > 10 && !row.source.includes('\n'), name);
    assert.ok(row.effect.length > 10, name);
    const sinces = row.specs.map((s) => s.since);
    assert.deepEqual(sinces, [...sinces].sort((a, b) => a - b), `${name} specs in version order`);
  }
});

test('--feature-gates: kubelet syntax, unknown or malformed entries are one-line errors', () => {
  assert.deepEqual(parseFeatureGates('ContainerRestartRules=false, ImageVolume=TRUE'), { ContainerRestartRules: false, ImageVolume: true });
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
  assert.throws(() => resolveFeatureGates(35, '1.35', { InPlacePodVerticalScaling: false }), oneLine(/InPlacePodVerticalScaling is GA and locked to true in kubelet 1\.35/));
  assert.doesNotThrow(() => resolveFeatureGates(35, '1.35', { InPlacePodVerticalScaling: true }));
  assert.throws(() => resolveFeatureGates(34, '1.34', { LegacySidecarContainers: true }), oneLine(/LegacySidecarContainers does not exist in kubelet 1\.34/));
  assert.throws(() => resolveFeatureGates(33, '1.33', {}, { SidecarContainers: false }), oneLine(/^kubelet configuration featureGates: feature gate SidecarContainers/));
});

test('the resolved rules carry version origin and gate provenance', () => {
  const flagged = resolveKubeletRules('v1.33.2', { LegacySidecarContainers: true });
  assert.equal(flagged.version, '1.33.2');
  assert.equal(flagged.patch, 2);
  assert.equal(flagged.versionOrigin, 'flag');
  assert.equal(flagged.gateOrigins.LegacySidecarContainers?.origin, 'flag');
  assert.equal(flagged.gates.LegacySidecarContainers, true);
  const detected = resolveKubeletRules(undefined, {}, { version: 'v1.33.0', featureGates: { InPlacePodVerticalScaling: false } });
  assert.equal(detected.versionOrigin, 'detected');
  assert.equal(detected.gateOrigins.InPlacePodVerticalScaling?.origin, 'detected');
  assert.equal(resolveKubeletRules().versionOrigin, 'default');
});
