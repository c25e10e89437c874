// The version switches of the kuberuntime mirror from 1.34 on, resolved once per invocation
// (resolveKubeletRules), one case per minor and patch where kubelet's source differs; and the plan
// assumption that names the source each minor was read from.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MIRROR_SOURCES, ORACLE_CHECKED, resolveKubeletRules } from '../../src/kubelet/kubelet-version';
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

// The release each minor is pinned to, named in its plan assumption with what the kubelet oracle
// measured (src/kubelet/oracle-checked.json, written by `npm run oracle -- ... --record`).
test("every minor names its release in the plan assumption, with the oracle's count where it has one; no fork trees", () => {
  for (let m = 29; m <= 37; m++) {
    const note = resolveKubeletRules(`1.${m}`).unpinned.find((u) => u.id === 'mirror-source');
    assert.ok(note, `1.${m}`);
    const release = MIRROR_SOURCES[m].release;
    assert.match(release, new RegExp(`^k8s\\.io/kubernetes v1\\.${m}\\.\\d+$`));
    const text = `${note.short} ${note.detail}`;
    assert.ok(text.includes(release), `1.${m}: ${text}`);
    assert.doesNotMatch(text, /natasha41575|zongruxie4|Karthik-K-N|Priyankasaggu|KevinTMtz|dated/);
    const checked = ORACLE_CHECKED[`1.${m}`];
    const version = release.split(' ')[1];
    if (checked)
      assert.match(
        note.short,
        new RegExp(`checked against kubelet ${version}: ${checked.scenariosAgreed} scenarios agree`),
      );
    else assert.match(note.short, new RegExp(`not yet checked against kubelet ${version}`));
  }
  // A newer kubelet is planned with the newest rules and says which release those are.
  const newer = resolveKubeletRules('1.38').unpinned.find((u) => u.id === 'mirror-source')!;
  assert.match(newer.short, /k8s\.io\/kubernetes v1\.37\.2/);
  // Another patch of the minor says so.
  assert.match(
    resolveKubeletRules('1.37.0').unpinned.find((u) => u.id === 'mirror-source')!.detail,
    /another patch release \(1\.37\.0\)/,
  );
});

test("oracle-checked.json: each minor's release is the one MIRROR_SOURCES and the oracle build name, and its total is its runs' sum", async () => {
  const { ORACLE_RELEASES } = await import('../../scripts/oracle-build');
  const entries = Object.entries(ORACLE_CHECKED);
  assert.ok(entries.length > 0, 'the oracle recorded at least one minor');
  for (const [minor, e] of entries) {
    const m = Number(minor.split('.')[1]);
    assert.equal(`k8s.io/kubernetes ${e.release}`, MIRROR_SOURCES[m].release, minor);
    assert.equal(e.release, ORACLE_RELEASES[minor], `${minor}: the oracle builds the release the mirror names`);
    const runs = Object.values(e.runs ?? {});
    assert.equal(
      e.scenariosAgreed,
      runs.reduce((n, r) => n + r.agreed, 0),
      minor,
    );
  }
});

test('--record keeps one count per run group (cases, each seed), the newest replacing the older, and starts afresh on a new release', async () => {
  const { recordedEntry } = await import('../../scripts/oracle/record');
  const report = (kubelet: string, groups: Record<string, [number, number]>) =>
    ({
      kubelet,
      gateTable: [],
      groups: Object.fromEntries(
        Object.entries(groups).map(([g, [n, a]]) => [g, { scenarios: n, agreed: a, known: 0, disagreed: n - a }]),
      ),
    }) as any;
  const one = recordedEntry(undefined, report('v1.37.2', { cases: [51, 51], 'seed 1': [500, 498] }));
  assert.deepEqual([one.scenariosAgreed, one.scenariosDisagreed], [549, 2]);
  const two = recordedEntry(one, report('v1.37.2', { cases: [51, 51], 'seed 1': [500, 500], 'seed 2': [500, 500] }));
  assert.deepEqual(
    [two.scenariosAgreed, two.scenariosDisagreed, Object.keys(two.runs)],
    [1051, 0, ['cases', 'seed 1', 'seed 2']],
  );
  const next = recordedEntry(two, report('v1.37.3', { 'seed 3': [10, 10] }));
  assert.deepEqual([next.release, next.scenariosAgreed, Object.keys(next.runs)], ['v1.37.3', 10, ['seed 3']]);
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
