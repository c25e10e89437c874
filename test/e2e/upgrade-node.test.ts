// Would this node's kubelet start after the upgrade? `plan --upgrade-to` and `doctor --upgrade-to`
// against stand-in kubelets (real processes named kubelet, in their own PID namespace, with a real
// command line and config file) on a real containerd: each start-up precondition the node can fail
// here is made to fail — cgroup v1 is this machine's own (read here with statfs, as kubelet reads it),
// containerd 1.x answers RuntimeConfig Unimplemented, a flag the target removed and gates it removed
// or locked are on the stand-in's command line and in its config file, and a field the target
// validates anew. A second stand-in with a clean configuration shows the same node passing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { labRuntime, startLab, BUSYBOX_IMAGE, type Lab } from '../harness/lab';
import { startStandInKubelet, type StandInKubelet } from '../harness/stand-in-kubelet';
import { assertOneLineError, syncpod } from './helpers';
import { writeManifest } from './sync-helpers';

const HEAD = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';
let lab: Lab;
let dir: string;
let broken: StandInKubelet;
let clean: StandInKubelet;
let manifest: string;
/** This machine's cgroup version, read as kubelet's libcontainer reads it (statfs type of /sys/fs/cgroup). */
const cgroupV1 = fs.statfsSync('/sys/fs/cgroup').type !== 0x63677270;
const swapOn = fs.readFileSync('/proc/swaps', 'utf8').trim().split('\n').length > 1;

const on = (k: StandInKubelet, args: string[], input?: string) =>
  syncpod(args, { prefix: k.inside, timeoutMs: 120000, ...(input !== undefined ? { input } : {}) });

/** The line number of `needle` in `text` (1-based). */
const lineOf = (text: string, needle: string): number => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
let brokenConfig: string;

before(async () => {
  lab = await startLab();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-upgrade-node-e2e-'));
  const b = path.join(dir, 'broken');
  const c = path.join(dir, 'clean');
  fs.mkdirSync(b);
  fs.mkdirSync(c);
  brokenConfig =
    `${HEAD}containerRuntimeEndpoint: ${lab.endpoint}\nmemoryThrottlingFactor: 0.8\n` +
    'featureGates:\n  MemoryQoS: false\n  InPlacePodVerticalScaling: false\n';
  fs.writeFileSync(path.join(b, 'config.yaml'), brokenConfig);
  broken = await startStandInKubelet({
    dir: b,
    version: 'v1.34.2',
    args: [
      '--config',
      'config.yaml',
      '--pod-infra-container-image=registry.k8s.io/pause:3.10',
      '--feature-gates=AnyVolumeDataSource=true',
      '--v=2',
    ],
    cwd: b,
  });
  fs.writeFileSync(
    path.join(c, 'config.yaml'),
    `${HEAD}containerRuntimeEndpoint: ${lab.endpoint}\nfailCgroupV1: false\n`,
  );
  clean = await startStandInKubelet({ dir: c, version: 'v1.36.2', args: ['--config', 'config.yaml'], cwd: c });
  manifest = writeManifest(dir, {
    name: 'web',
    uid: '5b1d2e3f-0000-4000-8000-00000000b137',
    containers: [{ name: 'app', image: BUSYBOX_IMAGE }],
  });
});

after(async () => {
  broken?.stop();
  clean?.stop();
  await lab?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const rulesOf = (fs: Array<{ rule: string }>) => fs.map((f) => f.rule);

describe('plan --upgrade-to: will the kubelet start', () => {
  test('1.34 → 1.37: each precondition the node fails is a blocker with its evidence; --detailed-exitcode exits 1', async () => {
    const r = await on(broken, ['plan', '--upgrade-to', '1.37', '-o', 'json', '--detailed-exitcode', manifest]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const u = JSON.parse(r.stdout);
    assert.equal(u.node.starts, false);
    const blockers = u.node.blockers;
    const expected = [
      ...(cgroupV1 ? ['cgroup-v1'] : []),
      ...(swapOn ? ['swap'] : []),
      'flag-removed',
      'gate-removed',
      'gate-locked',
      'config-validation',
    ];
    assert.deepEqual(rulesOf(blockers), expected);
    const by = (rule: string) => blockers.find((f: any) => f.rule === rule);
    const config = path.join(dir, 'broken', 'config.yaml');
    // the removed flag, as written on the running kubelet's command line
    assert.deepEqual(by('flag-removed').evidence[0], {
      name: '--pod-infra-container-image',
      value: 'registry.k8s.io/pause:3.10',
      from: 'kubelet pid 1 command line: --pod-infra-container-image=registry.k8s.io/pause:3.10',
    });
    assert.match(by('flag-removed').kubelet, /unknown flag: --pod-infra-container-image/);
    assert.match(by('flag-removed').readFrom, /k8s\.io\/kubernetes v1\.34\.4 pkg\/kubelet\/config\/flags\.go/);
    // a gate from --feature-gates that 1.37 no longer knows
    assert.equal(by('gate-removed').evidence[0].name, 'featureGates.AnyVolumeDataSource');
    assert.match(by('gate-removed').evidence[0].from, /command line: --feature-gates=AnyVolumeDataSource=true/);
    // a gate from the config file that 1.37 locks to true: the line of the file
    assert.deepEqual(by('gate-locked').evidence[0], {
      name: 'featureGates.InPlacePodVerticalScaling',
      value: 'false',
      from: `${config}:${lineOf(brokenConfig, 'InPlacePodVerticalScaling')}`,
    });
    assert.match(by('gate-locked').kubelet, /locked to true/);
    // validation new in 1.37: memoryThrottlingFactor without MemoryQoS
    assert.equal(
      by('config-validation').evidence[0].from,
      `${config}:${lineOf(brokenConfig, 'memoryThrottlingFactor')}`,
    );
    if (cgroupV1) {
      const cg = by('cgroup-v1');
      assert.deepEqual(cg.evidence[0], {
        name: 'cgroup version',
        value: 'v1',
        from: 'statfs /sys/fs/cgroup: tmpfs (not cgroup2fs)',
      });
      assert.match(cg.evidence[1].value, /unset \(kubelet 1\.37 defaults it to true\)/);
    }
    if (labRuntime().kind === 'containerd') {
      // containerd 1.6: no RuntimeConfig, the kubelet falls back (a warning, not a refusal, in 1.37)
      assert.deepEqual(rulesOf(u.node.warnings), ['runtime-version', 'runtime-config']);
      assert.match(u.node.warnings[1].kubelet, /kubelet_cri_losing_support\{version="1\.38\.0"\}/);
      assert.match(u.node.warnings[1].evidence[0].value, /not implemented/);
    } else {
      // containerd 2.x answers RuntimeConfig with the kubelet's own driver: no runtime finding
      assert.deepEqual(rulesOf(u.node.warnings), []);
    }
    assert.match(u.node.summary, /^kubelet 1\.37 would not start on this node: \d+ blockers/);
  });

  test('the table opens with the node, before the pods', async () => {
    const r = await on(broken, ['plan', '--upgrade-to', '1.37', manifest]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Node: kubelet 1\.37 would not start on this node: /);
    assert.match(r.stdout, /^BLOCKER flag-removed: --pod-infra-container-image is not a flag of kubelet 1\.37/m);
    assert.match(r.stdout, /^ {2}change: remove it; set the sandbox image in the runtime/m);
    assert.ok(r.stdout.indexOf('BLOCKER') < r.stdout.indexOf('CONTAINER'), r.stdout);
  });

  test('1.34 → 1.35: what 1.35 already refuses (the flag, the locked gate), not what comes later', async () => {
    const r = await on(broken, ['plan', '--upgrade-to', '1.35', '-o', 'json', manifest]);
    assert.equal(r.code, 0, r.stderr);
    const u = JSON.parse(r.stdout);
    assert.deepEqual(rulesOf(u.node.blockers), [
      ...(cgroupV1 ? ['cgroup-v1'] : []),
      ...(swapOn ? ['swap'] : []),
      'flag-removed',
      'gate-locked',
    ]);
  });

  test('a clean configuration: the kubelet starts (cgroup v1 kept with failCgroupV1: false is a warning)', async () => {
    const r = await on(clean, ['plan', '--upgrade-to', '1.37', '-o', 'json', '--detailed-exitcode', manifest]);
    assert.equal(r.code, swapOn ? 1 : 0, r.stdout + r.stderr);
    const u = JSON.parse(r.stdout);
    assert.equal(u.node.starts, !swapOn);
    if (cgroupV1) {
      const w = u.node.warnings.find((f: any) => f.rule === 'cgroup-v1');
      assert.ok(w, JSON.stringify(u.node));
      assert.match(w.evidence[1].from, /clean\/config\.yaml:4$/);
    }
  });
});

describe('doctor --upgrade-to', () => {
  test('the upgrade group: one check per kind of precondition, fail for blockers; json, prometheus, npd', async () => {
    const r = await on(broken, ['doctor', '--upgrade-to', '1.37', '--check', 'upgrade', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const d = JSON.parse(r.stdout);
    const status = Object.fromEntries(d.checks.map((c: any) => [c.id, c.status]));
    assert.deepEqual(status, {
      'upgrade.cgroup': cgroupV1 ? 'fail' : 'ok',
      'upgrade.runtime': labRuntime().kind === 'containerd' ? 'warn' : 'ok',
      'upgrade.swap': swapOn ? 'fail' : 'ok',
      'upgrade.flags': 'fail',
      'upgrade.feature-gates': 'fail',
      'upgrade.config': 'fail',
    });
    const flags = d.checks.find((c: any) => c.id === 'upgrade.flags');
    assert.match(flags.summary, /would not start: --pod-infra-container-image is not a flag of kubelet 1\.37/);
    assert.match(flags.remedy, /set the sandbox image in the runtime/);
    const prom = await on(broken, ['doctor', '--upgrade-to', '1.37', '--check', 'upgrade', '-o', 'prometheus']);
    assert.match(prom.stdout, /^syncpod_doctor_check\{check="upgrade\.flags",group="upgrade",node="[^"]+"\} 2$/m);
    const npd = await on(broken, ['doctor', '--upgrade-to', '1.37', '--check', 'upgrade.flags', '-o', 'npd']);
    assert.equal(npd.code, 1, npd.stdout);
    // report merges the doctor JSON beside the plans: the node has findings
    const rep = await syncpod(['report', '-o', 'json', '--detailed-exitcode', '-'], {
      input: `[pod/syncpod-abc/doctor] ${JSON.stringify(d)}\n`,
    });
    assert.equal(rep.code, 2, rep.stdout + rep.stderr);
    assert.match(rep.stdout, /upgrade\.flags/);
  });

  test('without --upgrade-to the group is not run; --check upgrade alone is refused; a bad target is refused', async () => {
    const plain = await on(clean, ['doctor', '--check', 'kubelet', '-o', 'json']);
    assert.equal(plain.code, 0, plain.stderr);
    assert.ok(!JSON.parse(plain.stdout).checks.some((c: any) => c.group === 'upgrade'));
    assertOneLineError(await on(clean, ['doctor', '--check', 'upgrade']), /--upgrade-to/);
    assertOneLineError(await on(clean, ['doctor', '--upgrade-to', '2.0']), /2\.0/);
  });
});
