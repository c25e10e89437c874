// The version switches of the kuberuntime mirror from 1.34 on, resolved once per invocation
// (resolveKubeletRules), one case per minor and patch where kubelet's source differs; and the plan
// assumption that names the source each minor was read from.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MIRROR_SOURCE, resolveKubeletRules } from '../../src/kubelet/kubelet-version';
import type { FeatureGates } from '../../src/kubelet/features';

const switches: Array<{ version: string; gates?: FeatureGates; activeSandbox: boolean; startupLost: boolean }> = [
  { version: '1.34', activeSandbox: false, startupLost: false },
  { version: '1.35.0', activeSandbox: false, startupLost: true },
  { version: '1.35.3', activeSandbox: false, startupLost: true },
  { version: '1.35.3', gates: { ChangeContainerStatusOnKubeletRestart: true }, activeSandbox: false, startupLost: false },
  { version: '1.35.4', activeSandbox: false, startupLost: false },
  { version: '1.35', activeSandbox: false, startupLost: false },
  { version: '1.36', activeSandbox: false, startupLost: false },
  { version: '1.37', activeSandbox: true, startupLost: false },
  { version: '1.38', activeSandbox: true, startupLost: false },
];

test('version switches: active-sandbox init check from 1.37, lost sidecar startup result only in 1.35.0–1.35.3 with the gate off', () => {
  for (const c of switches) {
    const r = resolveKubeletRules(c.version, c.gates);
    assert.deepEqual(
      [r.initStatusFromActiveSandbox, r.startupResultLostOnKubeletRestart],
      [c.activeSandbox, c.startupLost],
      `${c.version} ${JSON.stringify(c.gates ?? {})}`,
    );
  }
});

test('a 1.35 without a patch is planned as 1.35.4+ and says so', () => {
  const r = resolveKubeletRules('1.35');
  assert.ok(r.unpinned.map((u) => `${u.short} ${u.detail}`).some((u) => /No patch release was given for kubelet 1\.35: planned as 1\.35\.4 or later/.test(u)));
  assert.ok(!resolveKubeletRules('1.35.2').unpinned.some((u) => u.short.startsWith('No patch release')));
});

test('every minor from 1.34 names the source its rules were read from; none says "was not read"', () => {
  const at = `${MIRROR_SOURCE.repo}@${MIRROR_SOURCE.commit.slice(0, 8)}`;
  for (const v of ['1.34', '1.35.4', '1.36', '1.37']) {
    const notes = resolveKubeletRules(v).unpinned.map((u) => `${u.short} ${u.detail}`);
    assert.ok(!notes.some((u) => /was not read/.test(u)), v);
    const source = notes.find((u) => u.includes(at));
    assert.ok(source, `${v}: ${notes.join(' | ')}`);
    if (v === '1.37') assert.match(source, /follow natasha41575\/kubernetes@1a51be50 .*not a release-1\.37 tag/);
    else assert.match(source, /No 1\.3\d tree of pkg\/kubelet\/kuberuntime\/kuberuntime_manager\.go is in the source index/);
  }
  assert.ok(!resolveKubeletRules('1.33').unpinned.some((u) => u.detail.includes(at)), 'the 1.33 mirror was read in a 1.33 tree');
});

test('plan assumption: a startup Success read from a pod status is said to be lost over a kubelet restart only for 1.35.0–1.35.3', async () => {
  const { buildPlan } = await import('../../src/plan/plan');
  const { probeInputs } = await import('../../src/plan/probe-inputs');
  const { T0, healthyStatus, podWithSidecars } = await import('../fixtures/planner/base');
  const pod = podWithSidecars();
  pod.spec!.initContainers![1].startupProbe = { exec: { command: ['true'] } };
  const st = healthyStatus(pod, 'name+image');
  const id = st.containerStatuses.find((s) => s.name === 'sidecar1')!.id;
  const p = probeInputs(pod, st, {}, {
    initContainerStatuses: [{ name: 'sidecar1', containerID: `containerd://${id}`, started: true, state: { running: {} }, image: '', imageID: '', ready: true, restartCount: 0 }],
  });
  const lost = (version: string) =>
    buildPlan({ pod, podStatus: st, now: T0, probeInputs: p.inputs, options: { kubeletVersion: version, probeResults: p.results } }).assumptions.some((a) =>
      /does not carry a startup result over its own restart/.test(a),
    );
  assert.deepEqual(['1.35.3', '1.35.4', '1.35', '1.36', '1.34'].map(lost), [true, false, false, false, false]);
});
