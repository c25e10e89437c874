// The kubelet oracle itself (npm run test:oracle, part of npm test): builds the oracle of kubelet
// 1.37 from the module proxy (cached in .oracle/bin/ after the first time; the first build compiles
// kubelet's packages, minutes) and checks what a user of `npm run oracle` relies on: the binary says
// which release it is, kubelet's own SyncPod records the CRI calls of plain situations, and a
// scenario file runs through both sides with the documented JSON report and exit code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOracle, ORACLE_RELEASES } from '../../scripts/oracle-build';
import { OracleProcess } from '../../scripts/oracle/run';
import { oracleInput, type Scenario } from '../../scripts/oracle/scenario';

const ROOT = join(__dirname, '..', '..');
const MINOR = '1.37';
const bin = buildOracle(MINOR, (l) => process.stderr.write(`${l}\n`));

const pod = (restartPolicy = 'Always') => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'default', uid: 'uid-web' },
  spec: { restartPolicy, containers: [{ name: 'app', image: 'busybox:1.36' }] },
});

const ops = (calls: Array<{ op: string; container?: string; attempt?: number }>) =>
  calls.map((c) => [c.op, c.container, c.attempt].filter((x) => x !== undefined).join(' '));

test('the oracle binary names its release and lists its feature gates', () => {
  assert.equal(execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim(), ORACLE_RELEASES[MINOR]);
  const gates = JSON.parse(execFileSync(bin, ['--gates'], { encoding: 'utf8' }));
  assert.equal(gates.InPlacePodVerticalScaling?.locked, true, 'GA and locked in 1.37');
});

test("kubelet's SyncPod: a new pod gets a sandbox and its container; a crashed one is restarted", async () => {
  const oracle = new OracleProcess(bin);
  try {
    const fresh: Scenario = { name: 'new pod', pod: pod(), images: ['busybox:1.36'] };
    const a = await oracle.run(oracleInput(fresh, Date.now()));
    assert.equal(a.error, undefined);
    assert.deepEqual(ops(a.calls), ['RunPodSandbox 0', 'CreateContainer app 0', 'StartContainer app']);

    const crashed: Scenario = {
      name: 'crashed',
      pod: pod(),
      images: ['busybox:1.36'],
      sandboxes: [{ id: 'sb1', ip: '10.0.0.2' }],
      containers: [{ id: 'c1', sandbox: 'sb1', name: 'app', state: 'CONTAINER_EXITED', exitCode: 1, finishedAgo: 600 }],
    };
    const b = await oracle.run(oracleInput(crashed, Date.now()));
    assert.deepEqual(ops(b.calls), ['CreateContainer app 1', 'StartContainer app']);

    const never: Scenario = { ...crashed, name: 'finished Never pod', pod: pod('Never') };
    const c = await oracle.run(oracleInput(never, Date.now()));
    assert.deepEqual(ops(c.calls), ['StopPodSandbox'], 'a finished Never pod: its sandbox is stopped, nothing started');
  } finally {
    oracle.close();
  }
});

test('npm run oracle -- --scenario FILE -o json: one scenario through both sides, exit 0 when they agree', () => {
  const dir = mkdtempSync(join(tmpdir(), 'syncpod-oracle-test-'));
  try {
    const file = join(dir, 'crash.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'crash loop restarts the container',
        pod: pod(),
        images: ['busybox:1.36'],
        sandboxes: [{ id: 'sb1', ip: '10.0.0.2' }],
        containers: [
          { id: 'c1', sandbox: 'sb1', name: 'app', state: 'CONTAINER_EXITED', exitCode: 1, finishedAgo: 600 },
        ],
      }),
    );
    const r = spawnSync(
      'npm',
      ['run', '--silent', 'oracle', '--', '--minor', MINOR, '--scenario', file, '-o', 'json'],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    assert.equal(r.status, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.equal(doc.kubelet, ORACLE_RELEASES[MINOR]);
    assert.equal(doc.scenarios, 1);
    assert.equal(doc.agree, 1);
    assert.deepEqual(doc.disagree, []);

    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ name: 'x', pod: pod(), containers: [{ id: 'c1', state: 'RUNNING' }] }));
    const e = spawnSync('npm', ['run', '--silent', 'oracle', '--', '--minor', MINOR, '--scenario', bad], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(e.status, 2);
    assert.equal(e.stderr.trim().split('\n').length, 1, e.stderr);
    assert.match(e.stderr, /bad\.json/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
