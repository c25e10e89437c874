// Upgrade preview (src/plan/upgrade.ts): both kubelets' computePodActions on the same pod and state,
// the difference per container. One healthy pod, cases as sentences.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildUpgradePlan, gateChanges, type UpgradePlan } from '../../src/plan/upgrade';
import { basePod, healthyStatus, podWithSidecars, setStatus } from '../fixtures/planner/base';

const verdicts = (p: UpgradePlan): Array<[string, string, string | null]> =>
  p.pods.flatMap((pod) => pod.containers.map((c) => [c.name, c.verdict, c.code] as [string, string, string | null]));

test('every running container restarts when the hash scheme changes (whole spec → name+image)', () => {
  const pod = basePod();
  const p = buildUpgradePlan([{ pod, podStatus: healthyStatus(pod, 'whole-spec') }], {
    current: { kubeletVersion: '1.30' },
    targetVersion: '1.33',
  });
  assert.deepEqual(verdicts(p), [
    ['app', 'restart', 'hash-scheme'],
    ['log', 'restart', 'hash-scheme'],
    ['proxy', 'restart', 'hash-scheme'],
  ]);
  assert.equal(p.summary.text, 'upgrading 1.30 → 1.33 restarts 3 of 3 running containers in 1 pod.');
  assert.equal(p.changes, true);
  const app = p.pods[0]!.containers[0]!;
  assert.equal(app.hash?.observed, app.hash?.current);
  assert.notEqual(app.hash?.target, app.hash?.observed);
  assert.match(app.reason, /name and image only/);
});

test('nothing restarts when both kubelets hash the same way and keep the pod', () => {
  const pod = basePod();
  const p = buildUpgradePlan([{ pod, podStatus: healthyStatus(pod, 'name+image') }], {
    current: { kubeletVersion: '1.33' },
    targetVersion: '1.33',
    scope: 'on this node',
  });
  assert.deepEqual(
    verdicts(p).map((v) => v[1]),
    ['keep', 'keep', 'keep'],
  );
  assert.equal(p.summary.text, 'upgrading 1.33 → 1.33 restarts 0 of 3 running containers on this node.');
  assert.equal(p.changes, false);
});

test('a container the current kubelet already restarts is pending, not blamed on the upgrade', () => {
  const pod = basePod();
  const st = healthyStatus(pod, 'whole-spec');
  setStatus(st, 'log', { hash: 'deadbeef' });
  const p = buildUpgradePlan([{ pod, podStatus: st }], { current: { kubeletVersion: '1.30' }, targetVersion: '1.33' });
  assert.deepEqual(verdicts(p), [
    ['app', 'restart', 'hash-scheme'],
    ['log', 'pending', null],
    ['proxy', 'restart', 'hash-scheme'],
  ]);
  assert.equal(p.summary.restart, 2);
  assert.equal(p.summary.pending, 1);
});

test('an exited container left alone by both kubelets is kept; the init path change is noted', () => {
  const pod = podWithSidecars();
  pod.spec!.restartPolicy = 'Never';
  const st = healthyStatus(pod, 'name+image');
  setStatus(st, 'app', { state: 'exited', exitCode: 0 });
  const p = buildUpgradePlan([{ pod, podStatus: st }], {
    current: { kubeletVersion: '1.33', featureGates: { LegacySidecarContainers: false } },
    targetVersion: '1.33',
  });
  const app = p.pods[0]!.containers.find((c) => c.name === 'app')!;
  assert.equal(app.verdict, 'keep');
  assert.equal(app.state, 'exited');
});

test('gate changes list flipped defaults and gates that exist on one side only', () => {
  assert.deepEqual(gateChanges({ A: true, B: false, C: true }, { A: true, B: true, D: false, E: true }), [
    { gate: 'B', current: false, target: true },
    { gate: 'C', current: true, target: null },
    { gate: 'E', current: null, target: true },
  ]);
});

test('a target version that cannot be planned is refused in one line', () => {
  const pod = basePod();
  assert.throws(
    () =>
      buildUpgradePlan([{ pod, podStatus: healthyStatus(pod, 'name+image') }], {
        current: { kubeletVersion: '1.33' },
        targetVersion: 'x',
      }),
    { name: 'SyncpodError' },
  );
});

test('the table view is rendered from the data: one section per pod, gate changes, summary last', async () => {
  const { renderUpgradePlan } = await import('../../src/render/upgrade-view');
  const pod = basePod();
  const p = buildUpgradePlan([{ pod, podStatus: healthyStatus(pod, 'whole-spec') }], {
    current: { kubeletVersion: '1.30' },
    targetVersion: '1.33',
  });
  const text = renderUpgradePlan(p, { width: 200 });
  const lines = text.split('\n');
  assert.equal(lines[0], 'Pod shop/web (uid uid-1234): 3 restarts');
  assert.match(lines[1]!, /^CONTAINER\s+STATE\s+UPGRADE\s+REASON$/);
  assert.match(
    lines[2]!,
    /^app\s+running\s+restart\s+1\.33 hashes name and image only: it expects [0-9a-f]+, the container carries [0-9a-f]+ written by the whole-spec scheme of 1\.30$/,
  );
  assert.ok(text.includes('Feature gates that differ (1.30 → 1.33):\n'), text);
  assert.match(text, /^  InPlacePodVerticalScaling: off → on$/m);
  assert.match(text, /^  SupplementalGroupsPolicy: absent → on$/m);
  assert.doesNotMatch(text, /absent → off/);
  assert.equal(lines.at(-1), p.summary.text);
});

test('the preview leads with the pods that restart; a pod the upgrade leaves alone is one line', async () => {
  const { renderUpgradePlan } = await import('../../src/render/upgrade-view');
  const legacy = basePod();
  const fresh = basePod();
  fresh.metadata = { ...fresh.metadata, name: 'api', uid: 'uid-api' };
  const p = buildUpgradePlan(
    [
      { pod: fresh, podStatus: healthyStatus(fresh, 'name+image') },
      { pod: legacy, podStatus: healthyStatus(legacy, 'whole-spec') },
    ],
    { current: { kubeletVersion: '1.30' }, targetVersion: '1.33' },
  );
  const lines = renderUpgradePlan(p, { width: 100 }).split('\n');
  assert.equal(lines[0], 'Pod shop/web (uid uid-1234): 3 restarts');
  assert.ok(
    lines.indexOf('Pod shop/api (uid uid-api): 0 restarts') >
      lines.findIndex((l) => /^proxy\s+running\s+restart/.test(l)),
  );
  for (const l of lines) assert.ok(l.length <= 100, l);
  const same = buildUpgradePlan([{ pod: fresh, podStatus: healthyStatus(fresh, 'name+image') }], {
    current: { kubeletVersion: '1.34' },
    targetVersion: '1.36',
  });
  assert.equal(renderUpgradePlan(same).split('\n')[0], 'shop/api  no restarts  (3 containers kept)');
});

test('1.29 → 1.30: a container using a field 1.30 added to v1.Container restarts (hash-fields), the others stay', async () => {
  const { formatHash, hashContainerLegacy } = await import('../../src/kubelet/hash');
  const pod = basePod();
  pod.spec!.containers[0]!.securityContext = { appArmorProfile: { type: 'RuntimeDefault' } };
  const st = healthyStatus(pod, 'whole-spec');
  for (const c of pod.spec!.containers) setStatus(st, c.name, { hash: formatHash(hashContainerLegacy(c, 29)) });
  const p = buildUpgradePlan([{ pod, podStatus: st }], { current: { kubeletVersion: '1.29' }, targetVersion: '1.30' });
  assert.deepEqual(verdicts(p), [
    ['app', 'restart', 'hash-fields'],
    ['log', 'keep', null],
    ['proxy', 'keep', null],
  ]);
  assert.match(
    p.pods[0]!.containers[0]!.reason,
    /^1\.30 serialises securityContext differently from 1\.29: hash [0-9a-f]+ becomes [0-9a-f]+$/,
  );
});
