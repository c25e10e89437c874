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
  {
    version: '1.35.3',
    gates: { ChangeContainerStatusOnKubeletRestart: true },
    activeSandbox: false,
    startupLost: false,
  },
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
  assert.ok(
    r.unpinned
      .map((u) => `${u.short} ${u.detail}`)
      .some((u) => /No patch release was given for kubelet 1\.35: planned as 1\.35\.4 or later/.test(u)),
  );
  assert.ok(!resolveKubeletRules('1.35.2').unpinned.some((u) => u.short.startsWith('No patch release')));
});

// Where each minor's kuberuntime rules were read: the tree named in its plan assumption, by
// repo@commit, with how its minor was told.
const readIn: Array<{ version: string; trees: string[]; dated: RegExp }> = [
  {
    version: '1.34',
    trees: ['Priyankasaggu11929/kubernetes@1ea81156', 'Karthik-K-N/kubernetes@42f8035a'],
    dated: /none is dated to the 1\.34 release/,
  },
  {
    version: '1.35.4',
    trees: ['zongruxie4/kubernetes@0b0b77ae', 'KevinTMtz/kubernetes@294f5857', 'Karthik-K-N/kubernetes@42f8035a'],
    dated: /dated by their content to the 1\.35 cycle/,
  },
  { version: '1.36', trees: ['zongruxie4/kubernetes@0b0b77ae', 'Karthik-K-N/kubernetes@42f8035a'], dated: /v1\.36\.2/ },
  { version: '1.37', trees: ['natasha41575/kubernetes@1a51be50'], dated: /not a release-1\.37 tag/ },
];

test('every minor from 1.34 names the trees its rules were read in and how they were dated; none says "was not read"', () => {
  for (const c of readIn) {
    const notes = resolveKubeletRules(c.version).unpinned;
    assert.ok(!notes.some((u) => /not read|no 1\.3\d tree/i.test(`${u.short} ${u.detail}`)), c.version);
    const source = notes.find((u) => u.id === 'mirror-source');
    assert.ok(source, c.version);
    const text = `${source.short} ${source.detail}`;
    for (const t of c.trees) assert.ok(text.includes(t), `${c.version}: ${t} in ${text}`);
    assert.match(text, c.dated, c.version);
  }
  const at = `${MIRROR_SOURCE.repo}@${MIRROR_SOURCE.commit.slice(0, 8)}`;
  assert.ok(
    !resolveKubeletRules('1.33').unpinned.some((u) => u.detail.includes(at)),
    'the 1.33 mirror was read in a 1.33 tree',
  );
});

test('the later changes each older minor switches off are named in its assumption', () => {
  const detail = (v: string) => resolveKubeletRules(v).unpinned.find((u) => u.id === 'mirror-source')!.detail;
  assert.match(detail('1.36'), /switched off by version here: PR 138514's active-sandbox init check \(1\.37\)/);
  assert.match(detail('1.35.4'), /running non-sidecar init container \(1\.36/);
  assert.match(detail('1.35'), /before 1\.35\.4, the sidecar startup seeding of PR 137885/);
  assert.match(detail('1.34'), /RestartAllContainers \(their gates do not exist in 1\.34\)/);
});

test('plan assumption: a startup Success read from a pod status is said to be lost over a kubelet restart only for 1.35.0–1.35.3', async () => {
  const { buildPlan } = await import('../../src/plan/plan');
  const { probeInputs } = await import('../../src/plan/probe-inputs');
  const { T0, healthyStatus, podWithSidecars } = await import('../fixtures/planner/base');
  const pod = podWithSidecars();
  pod.spec!.initContainers![1].startupProbe = { exec: { command: ['true'] } };
  const st = healthyStatus(pod, 'name+image');
  const id = st.containerStatuses.find((s) => s.name === 'sidecar1')!.id;
  const p = probeInputs(pod, st, [], {
    initContainerStatuses: [
      {
        name: 'sidecar1',
        containerID: `containerd://${id}`,
        started: true,
        state: { running: {} },
        image: '',
        imageID: '',
        ready: true,
        restartCount: 0,
      },
    ],
  });
  const lost = (version: string) =>
    buildPlan({
      pod,
      podStatus: st,
      now: T0,
      probeInputs: p.inputs,
      options: { kubeletVersion: version, probeResults: p.results },
    }).assumptions.some((a) => /does not carry a startup result over its own restart/.test(a));
  assert.deepEqual(['1.35.3', '1.35.4', '1.35', '1.36', '1.34'].map(lost), [true, false, false, false, false]);
});
