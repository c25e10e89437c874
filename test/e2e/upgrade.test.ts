// `plan --upgrade-to` against a real containerd: containers started by the step commands with an
// older kubelet's annotations, then the preview of what the newer kubelet's first sync restarts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUSYBOX_IMAGE, startLab, type Lab } from '../harness/lab';
import { assertOneLineError, syncpod } from './helpers';
import { nodeFlags, writeManifest } from './sync-helpers';

// A kubelet pair across the hash-scheme change (whole spec → name+image) and a pair without one.
const OLD = '1.30';
const NEW = '1.31';
const SAME_FROM = '1.36';
const SAME_TO = '1.37';

let lab: Lab;
let dir: string;
const run = (args: string[]) => syncpod(args, { env: lab.env, timeoutMs: 120000 });
const files = { old: '', same: '' };

/** runp, then create + start for every container, as kubelet `version` would have written them. */
async function startWith(version: string, file: string, containers: string[]): Promise<void> {
  const flags = [...nodeFlags(lab), '--kubelet-version', version];
  const p = await run(['runp', ...flags, file]);
  assert.equal(p.code, 0, p.stderr);
  for (const name of containers) {
    const c = await run(['create', ...flags, '--container', name, p.stdout.trim(), file]);
    assert.equal(c.code, 0, c.stderr);
    const s = await run(['start', c.stdout.trim()]);
    assert.equal(s.code, 0, s.stderr);
  }
}

before(async () => {
  lab = await startLab();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-upgrade-e2e-'));
  files.old = writeManifest(dir, {
    name: 'legacy',
    uid: '0d5e1a7c-0000-4000-8000-00000000a001',
    containers: [
      { name: 'app', image: BUSYBOX_IMAGE, env: { MODE: 'old' } },
      { name: 'side', image: BUSYBOX_IMAGE },
    ],
  });
  files.same = writeManifest(dir, {
    name: 'current',
    uid: '0d5e1a7c-0000-4000-8000-00000000a002',
    containers: [{ name: 'app', image: BUSYBOX_IMAGE }],
  });
  await startWith(OLD, files.old, ['app', 'side']);
  await startWith(SAME_FROM, files.same, ['app']);
});
after(async () => {
  await lab?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('plan --upgrade-to', () => {
  test(`${OLD} → ${NEW}: every running container restarts for the hash scheme; exit 2 with --detailed-exitcode`, async () => {
    const base = ['plan', ...nodeFlags(lab), '--kubelet-version', OLD, '--upgrade-to', NEW, files.old];
    // The current kubelet keeps the pod as it is: the annotations are its own.
    const plain = await run(['plan', '--detailed-exitcode', ...nodeFlags(lab), '--kubelet-version', OLD, files.old]);
    assert.equal(plain.code, 0, plain.stdout + plain.stderr);
    const r = await run([...base, '-o', 'json', '--detailed-exitcode']);
    assert.equal(r.code, 2, r.stderr);
    const u = JSON.parse(r.stdout);
    assert.equal(u.from, OLD);
    assert.equal(u.to, NEW);
    const rows = u.pods[0].containers.map((c: any) => [c.name, c.state, c.verdict, c.code]);
    assert.deepEqual(rows, [
      ['app', 'running', 'restart', 'hash-scheme'],
      ['side', 'running', 'restart', 'hash-scheme'],
    ]);
    for (const c of u.pods[0].containers) {
      assert.equal(c.hash.observed, c.hash.current, "the annotation is the old kubelet's hash");
      assert.notEqual(c.hash.target, c.hash.observed);
    }
    assert.equal(u.summary.text, `upgrading ${OLD} → ${NEW} restarts 2 of 2 running containers in 1 pod.`);
    const t = await run(base);
    assert.equal(t.code, 0, t.stderr);
    assert.match(t.stdout, /^CONTAINER\s+STATE\s+UPGRADE\s+REASON$/m);
    assert.match(t.stdout, /^app\s+running\s+restart\s+\S.*name and image only/m);
    assert.ok(t.stdout.trimEnd().endsWith(u.summary.text), t.stdout);
    const y = await run([...base, '-o', 'yaml']);
    assert.match(y.stdout, /^changes: true$/m);
  });

  test(`${SAME_FROM} → ${SAME_TO}: nothing restarts; --detailed-exitcode 0, or 1 where the node keeps ${SAME_TO} from starting (cgroup v1)`, async () => {
    const r = await run([
      'plan',
      ...nodeFlags(lab),
      '--kubelet-version',
      SAME_FROM,
      '--upgrade-to',
      SAME_TO,
      '-o',
      'json',
      '--detailed-exitcode',
      files.same,
    ]);
    const u = JSON.parse(r.stdout);
    // No kubelet runs here: kubelet 1.37's defaults apply, failCgroupV1 true among them.
    const cgroupV1 = fs.statfsSync('/sys/fs/cgroup').type !== 0x63677270;
    assert.equal(u.node.starts, !cgroupV1 && u.node.blockers.length === 0);
    assert.equal(r.code, u.node.starts ? 0 : 1, r.stderr);
    if (cgroupV1)
      assert.ok(
        u.node.blockers.some((b: any) => b.rule === 'cgroup-v1'),
        JSON.stringify(u.node),
      );
    assert.deepEqual(
      u.pods[0].containers.map((c: any) => [c.name, c.verdict]),
      [['app', 'keep']],
    );
    assert.equal(u.changes, false);
  });

  test(`--node: the preview for every pod the node should run (given files here), summed for the node`, async () => {
    const r = await run([
      'plan',
      '--node',
      ...nodeFlags(lab),
      '--pods-api-socket',
      'none',
      '--kubelet-version',
      OLD,
      '--upgrade-to',
      NEW,
      '-o',
      'json',
      '--detailed-exitcode',
      files.old,
    ]);
    assert.equal(r.code, 2, r.stderr);
    const u = JSON.parse(r.stdout);
    assert.deepEqual(
      u.pods.map((p: any) => p.pod.name),
      ['legacy'],
    );
    assert.equal(u.summary.text, `upgrading ${OLD} → ${NEW} restarts 2 of 2 running containers on node e2e-node.`);
  });

  test('an unknown target version is refused before the runtime is asked', async () => {
    assertOneLineError(
      await run(['plan', ...nodeFlags(lab), '--upgrade-to', 'one-point-x', files.same]),
      /one-point-x/,
    );
  });
});
