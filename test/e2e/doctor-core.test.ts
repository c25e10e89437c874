// `syncpod doctor` on a real containerd, the runtime, kubelet and pods groups: each fault made for
// real (the CNI config removed, the sandbox image removed, a stand-in kubelet with the other cgroup
// driver, another pause image, a version syncpod does not mirror, a broken config, a bad static
// pod; a crash-looping container, an OOM kill under a memory limit, a container left in Created, a
// NotReady sandbox, an orphan; a runtime socket that never answers) and each shown ok once repaired.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUSYBOX_IMAGE, PAUSE_IMAGE, labRuntime, startLab, type Lab } from '../harness/lab';
import { startStandInKubelet, type StandInKubelet } from '../harness/stand-in-kubelet';
import { syncpod, assertOneLineError } from './helpers';
import { nodeFlags, podManifest } from './sync-helpers';

let lab: Lab;
let dir: string;
const run = (args: string[], opts: { prefix?: string[]; env?: Record<string, string> } = {}) =>
  syncpod(args, { env: { ...lab.env, ...opts.env }, prefix: opts.prefix, timeoutMs: 120000 });
const DOCTOR = ['--no-node-profile', 'doctor', '--pods-api-socket', 'none'];

interface Check {
  id: string;
  group: string;
  status: string;
  summary: string;
  evidence: { name: string; value: string; from: string }[];
  remedy?: string;
}

async function doctorJson(
  extra: string[] = [],
  opts: { prefix?: string[]; base?: string[] } = {},
): Promise<Map<string, Check>> {
  const r = await run([...(opts.base ?? DOCTOR), '-o', 'json', ...extra], opts);
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.schemaVersion, 1);
  return new Map((report.checks as Check[]).map((c) => [c.id, c]));
}

/** Polls until `id` has `status` (the runtime reloads its CNI dir in its own time). */
async function waitFor(id: string, status: string, extra: string[] = [], timeoutMs = 20000): Promise<Check> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const c = (await doctorJson(['--check', id, ...extra])).get(id)!;
    if (c.status === status || Date.now() > deadline) return c;
    await new Promise((r) => setTimeout(r, 300));
  }
}

async function containers(): Promise<any[]> {
  const r = await run(['ps', '-a', '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).containers;
}

async function waitExited(name: string, count: number): Promise<void> {
  const deadline = Date.now() + 30000;
  while (Date.now() < deadline) {
    const exited = (await containers()).filter((c) => c.metadata.name === name && c.state === 'CONTAINER_EXITED');
    if (exited.length >= count) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name}: fewer than ${count} exited instances after 30s`);
}

async function removePod(name: string): Promise<void> {
  const r = await run(['pods', '--name', name, '-q']);
  const ids = r.stdout.split('\n').filter(Boolean);
  assert.ok(ids.length > 0, `no pod ${name}: ${r.stderr}`);
  for (const id of ids) {
    const rm = await run(['rmp', '-f', id]);
    assert.equal(rm.code, 0, rm.stderr);
  }
}

before(async () => {
  lab = await startLab();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-doctor-e2e-'));
});
after(async () => {
  await lab?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('doctor: runtime, kubelet and pods groups', () => {
  test('a healthy lab node: every check ok or skip, one JSON entry per check, exit codes and NPD/Prometheus conventions', async () => {
    const checks = await doctorJson();
    for (const id of [
      'runtime.reachable',
      'runtime.api-version',
      'runtime.ready',
      'runtime.network-ready',
      'runtime.version',
      'runtime.cgroup-driver',
      'kubelet.found',
      'kubelet.sandbox-image',
      'pods.crashloop',
      'pods.oomkilled',
      'pods.stuck',
      'pods.dead-sandboxes',
      'pods.orphans',
    ]) {
      assert.ok(checks.has(id), `${id} is reported`);
    }
    for (const c of checks.values())
      assert.ok(c.status === 'ok' || c.status === 'skip', `${c.id}: ${c.status}: ${c.summary}`);
    assert.equal(checks.get('kubelet.found')!.status, 'skip', 'no kubelet: skip, never fail');
    // No kubelet is one finding: kubelet.found names the checks it skips, which are not rows of their own.
    const skipped = ['kubelet.version', 'kubelet.config', 'kubelet.cgroup-driver'];
    assert.deepEqual((checks.get('kubelet.found') as { skips?: string[] }).skips, skipped);
    assert.match(
      checks.get('kubelet.found')!.summary,
      /\(skips kubelet\.version, kubelet\.config, kubelet\.cgroup-driver\)\.$/,
    );
    for (const id of skipped) assert.ok(!checks.has(id), `${id} is not a row of its own`);
    const table = await run([...DOCTOR]);
    assert.equal(table.stdout.match(/No kubelet process was found/g)?.length, 1, table.stdout);
    assert.equal(checks.get('runtime.cgroup-driver')!.evidence[0].value, 'cgroupfs');

    const detailed = await run([...DOCTOR, '--detailed-exitcode']);
    assert.equal(detailed.code, 0, detailed.stderr);
    assert.match(detailed.stdout, /^RUNTIME\n/);
    assert.match(detailed.stdout, /✔ ok +runtime\.network-ready +NetworkReady is true\./);
    const npd = await run([...DOCTOR, '-o', 'npd']);
    assert.equal(npd.code, 0);
    assert.match(npd.stdout, /^OK: \d+ checks ok/);
    const prom = await run([...DOCTOR, '-o', 'prometheus', '--check', 'runtime']);
    assert.equal(prom.code, 0, prom.stderr);
    assert.match(prom.stdout, /^syncpod_doctor_check\{check="runtime\.ready",group="runtime",node="[^"]+"\} 0$/m);
    assert.match(prom.stdout, /^syncpod_doctor_last_run_timestamp_seconds\{node="[^"]+"\} \d+$/m);
  });

  test('an unknown id in --check or --skip is refused before anything runs', async () => {
    assertOneLineError(
      await run([...DOCTOR, '--check', 'runtime.ready,pods.nope']),
      /^syncpod: --check: unknown check "pods\.nope"/,
    );
    assertOneLineError(await run([...DOCTOR, '--skip', 'kubelett']), /^syncpod: --skip: unknown check "kubelett"/);
  });

  test('no CNI config: runtime.network-ready fails (NetworkReady false, with the reason; CRI-O keeps its network, network.cni-config fails), NPD NonOK, detailed exit 2; ok once restored', async () => {
    const conf = path.join(lab.cniConfDir, '10-syncpod-lab.conflist');
    const text = fs.readFileSync(conf);
    fs.rmSync(conf);
    if (labRuntime().kind === 'crio') {
      try {
        // CRI-O keeps the network it loaded when its conf dir empties (its CNI watcher fails to reload
        // and keeps the old one), so NetworkReady stays true and new pods still get it until CRI-O
        // restarts. doctor reads CRI-O's network_dir itself: network.cni-config fails, with the file and key.
        const c = await waitFor('network.cni-config', 'fail');
        assert.equal(c.status, 'fail', c.summary);
        assert.ok(
          c.evidence.some(
            (e) =>
              e.value === lab.cniConfDir &&
              e.from === `${lab.dir}/crio.conf crio.network.network_dir; ${lab.dir}/crio.conf crio.network.plugin_dirs`,
          ),
          JSON.stringify(c.evidence),
        );
        const ready = (await doctorJson(['--check', 'runtime.network-ready'])).get('runtime.network-ready')!;
        assert.equal(ready.status, 'ok', ready.summary);
        const npd = await run([...DOCTOR, '-o', 'npd', '--check', 'runtime,network.cni-config']);
        assert.equal(npd.code, 1);
        assert.match(npd.stdout, /^NonOK: 1 fail: network\.cni-config: /);
        assert.equal((await run([...DOCTOR, '--check', 'network.cni-config', '--detailed-exitcode'])).code, 2);
      } finally {
        fs.writeFileSync(conf, text);
      }
      assert.equal((await waitFor('network.cni-config', 'ok')).status, 'ok');
      return;
    }
    try {
      const c = await waitFor('runtime.network-ready', 'fail');
      assert.equal(c.status, 'fail', c.summary);
      assert.match(c.evidence[0].value, /^false \(.*cni/i);
      assert.ok(c.remedy);
      const npd = await run([...DOCTOR, '-o', 'npd', '--check', 'runtime']);
      assert.equal(npd.code, 1);
      assert.match(npd.stdout, /^NonOK: 1 fail: runtime\.network-ready: NetworkReady is false/);
      assert.ok(Buffer.byteLength(npd.stdout.trimEnd()) <= 80, npd.stdout);
      assert.equal((await run([...DOCTOR, '--check', 'runtime', '--detailed-exitcode'])).code, 2);
      assert.equal(
        (await run([...DOCTOR, '--check', 'runtime'])).code,
        0,
        'without --detailed-exitcode a finding is exit 0',
      );
    } finally {
      // Written back, not renamed: containerd 1.6 reloads on a write event, not on a rename into the dir.
      fs.writeFileSync(conf, text);
    }
    assert.equal((await waitFor('runtime.network-ready', 'ok')).status, 'ok');
  });

  test('the sandbox image removed: kubelet.sandbox-image fails; ok once imported again', async () => {
    const tar = path.join(dir, 'pause.tar');
    lab.exportImage(PAUSE_IMAGE, tar);
    lab.removeImage(PAUSE_IMAGE);
    try {
      const c = (await doctorJson(['--check', 'kubelet.sandbox-image'])).get('kubelet.sandbox-image')!;
      if (labRuntime().kind === 'containerd2') {
        // containerd 2.x names its sandbox image nowhere in CRI but by pinning it: with the image gone,
        // its config file (version 3) still names it.
        assert.equal(c.status, 'fail', c.summary);
        assert.ok(
          c.evidence.some(
            (e) =>
              e.value === PAUSE_IMAGE &&
              e.from === `${lab.dir}/config.toml plugins."io.containerd.cri.v1.images".pinned_images.sandbox`,
          ),
          JSON.stringify(c.evidence),
        );
        assert.ok(c.evidence.some((e) => e.value === 'no' && e.from === 'CRI ListImages'));
      } else {
        // containerd 1.x and CRI-O name it in Status info (CRI-O: its pause_image).
        assert.equal(c.status, 'fail', c.summary);
        assert.ok(
          c.evidence.some((e) => e.value === PAUSE_IMAGE && e.from === 'CRI Status info.config.sandboxImage'),
          JSON.stringify(c.evidence),
        );
        assert.ok(c.evidence.some((e) => e.value === 'no' && e.from === 'CRI ListImages'));
      }
    } finally {
      lab.importImages([{ tar, tags: [PAUSE_IMAGE] }]);
    }
    assert.equal((await doctorJson(['--check', 'kubelet.sandbox-image'])).get('kubelet.sandbox-image')!.status, 'ok');
  });

  test("the runtime's own configuration (containerd's file, version 2 on 1.x, 3 on 2.x; CRI-O's crio.conf and drop-ins): node and doctor read it; a changed driver is named", async () => {
    if (labRuntime().kind === 'crio') return crioOwnConfig();
    const v3 = labRuntime().kind === 'containerd2';
    const file = path.join(lab.dir, 'config.toml');
    const plugin = v3 ? 'plugins."io.containerd.cri.v1.runtime"' : 'plugins."io.containerd.grpc.v1.cri"';
    const r = await run(['node', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const read = JSON.parse(r.stdout).containerdConfig;
    assert.equal(read.found, true, JSON.stringify(read));
    assert.match(read.via, new RegExp(`^containerd pid \\d+ --config ${file.replace(/\./g, '\\.')}$`));
    const c = read.config;
    assert.deepEqual(c.files, [file]);
    assert.equal(c.version, v3 ? 3 : 2);
    assert.deepEqual(c.cgroupDriver, {
      value: 'cgroupfs',
      key: `${plugin}.containerd.runtimes.runc.options.SystemdCgroup`,
    });
    assert.deepEqual(c.cniBinDirs, {
      value: ['/usr/lib/cni'],
      key: `${plugin}.cni.${v3 ? 'bin_dirs' : 'bin_dir'}`,
      file,
    });
    assert.deepEqual(c.cniConfDir, { value: lab.cniConfDir, key: `${plugin}.cni.conf_dir`, file });
    assert.deepEqual(c.restrictOOMScoreAdj, { value: true, key: `${plugin}.restrict_oom_score_adj`, file });
    assert.deepEqual(c.sandboxImage, {
      value: PAUSE_IMAGE,
      key: v3 ? 'plugins."io.containerd.cri.v1.images".pinned_images.sandbox' : `${plugin}.sandbox_image`,
      file,
    });
    const table = await run(['node']);
    assert.equal(table.code, 0, table.stderr);
    assert.ok(
      table.stdout.replace(/\n +/g, ' ').includes(`containerd config: ${file} (version ${v3 ? 3 : 2}; containerd pid `),
      table.stdout,
    );
    // (lines wrap at the table width: compared joined)
    const joined = table.stdout.replace(/\n +/g, ' ');
    assert.ok(joined.includes(`CNI conf dir: ${lab.cniConfDir} (${plugin}.cni.conf_dir)`), table.stdout);

    let check = (await doctorJson(['--check', 'runtime.config-file'])).get('runtime.config-file')!;
    assert.equal(check.status, 'ok', check.summary);
    assert.equal(
      check.summary,
      `containerd reads ${file} (version ${v3 ? 3 : 2}): cgroupfs cgroups, CNI in ${lab.cniConfDir}.`,
    );
    assert.ok(check.evidence.some((e) => e.name === 'restrict_oom_score_adj' && e.value === 'true'));

    // The file changed under a running containerd: SystemdCgroup = true for runc (containerd reads it
    // at its next start only).
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, `${text}[${plugin}.containerd.runtimes.runc.options]\n  SystemdCgroup = true\n`);
    try {
      const warned = await run(['node', '-o', 'json']);
      assert.equal(warned.code, 0, warned.stderr);
      assert.equal(JSON.parse(warned.stdout).containerdConfig.config.cgroupDriver.value, 'systemd');
      if (v3) {
        // containerd 2.x answers RuntimeConfig with the driver it runs: the file is ahead of it.
        assert.match(
          warned.stderr,
          /containerd's config gives systemd .* but the running containerd reports cgroupfs: the file changed after containerd started/,
        );
        check = (await doctorJson(['--check', 'runtime.config-file'])).get('runtime.config-file')!;
        assert.equal(check.status, 'warn', check.summary);
        assert.match(check.summary, /gives the systemd cgroup driver but the running containerd uses cgroupfs/);
      } else {
        // containerd 1.6 does not answer RuntimeConfig: the file's driver against the kubelet's (syncpod's default here).
        assert.match(
          warned.stderr,
          /the runtime's cgroup driver is systemd \(plugins\."io\.containerd\.grpc\.v1\.cri"\.containerd\.runtimes\.runc\.options\.SystemdCgroup in .*config\.toml\) but the kubelet uses cgroupfs/,
        );
      }
    } finally {
      fs.writeFileSync(file, text);
    }
  });

  test('a runtime socket that never answers: runtime.reachable fails within the deadline, the other checks still answer', async () => {
    const sock = path.join(dir, 'silent.sock');
    const server = net.createServer(() => undefined); // accepts, never speaks HTTP/2
    await new Promise<void>((r) => server.listen(sock, r));
    try {
      const r = await run(
        [
          '--no-node-profile',
          '--timeout',
          '30s',
          'doctor',
          '--pods-api-socket',
          'none',
          '-o',
          'json',
          '--check-timeout',
          '2s',
          '--check',
          'runtime,pods.stuck',
        ],
        { env: { CONTAINER_RUNTIME_ENDPOINT: `unix://${sock}` } },
      );
      assert.equal(r.code, 0, r.stderr);
      const checks = new Map((JSON.parse(r.stdout).checks as Check[]).map((c) => [c.id, c]));
      assert.equal(checks.get('runtime.reachable')!.status, 'fail');
      assert.match(checks.get('runtime.reachable')!.summary, /no answer within 1\.8s/);
      assert.equal(checks.get('runtime.ready')!.status, 'skip');
      assert.match(checks.get('runtime.ready')!.summary, /timed out/);
      assert.equal(checks.size, 8);
      // As node-problem-detector runs it: default deadlines (its 5 s plugin ceiling is timed in bench/doctor.ts).
      const npd = await run(
        ['--no-node-profile', '--timeout', '30s', 'doctor', '--pods-api-socket', 'none', '-o', 'npd'],
        { env: { CONTAINER_RUNTIME_ENDPOINT: `unix://${sock}` } },
      );
      assert.equal(npd.code, 1, npd.stdout + npd.stderr);
      assert.match(npd.stdout, /^NonOK: 1 fail: runtime\.reachable: /);
    } finally {
      server.close();
    }
  });

  test('a stand-in kubelet: other cgroup driver, other pause image, an unmirrored version, a broken config, a bad static pod; all ok once repaired', async () => {
    const kdir = path.join(dir, 'kubelet');
    const statics = path.join(kdir, 'manifests');
    fs.mkdirSync(statics, { recursive: true });
    const config = (driver: string) =>
      `apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncgroupDriver: ${driver}\nstaticPodPath: ${statics}\ncontainerRuntimeEndpoint: ${lab.endpoint}\n`;
    fs.writeFileSync(path.join(kdir, 'config.yaml'), config('systemd'));
    fs.writeFileSync(
      path.join(statics, 'bad.yaml'),
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: bad\nspec:\n  containers: []\n',
    );
    const base = ['doctor', '--pods-api-socket', 'none', '--check', 'kubelet'];
    let kubelet: StandInKubelet = await startStandInKubelet({
      dir: kdir,
      version: 'v1.40.1',
      args: ['--config', 'config.yaml', '--pod-infra-container-image=registry.k8s.io/pause:3.10'],
      cwd: kdir,
    });
    try {
      let c = await doctorJson([], { prefix: kubelet.inside, base });
      assert.equal(c.get('kubelet.found')!.status, 'ok');
      assert.equal(c.get('kubelet.version')!.status, 'warn', c.get('kubelet.version')!.summary);
      assert.match(c.get('kubelet.version')!.summary, /v1\.40\.1 is newer than any rules syncpod mirrors/);
      const driver = c.get('kubelet.cgroup-driver')!;
      if (labRuntime().kind !== 'containerd') {
        // containerd 2.x and CRI-O answer RuntimeConfig: this kubelet takes the runtime's driver over its config.
        assert.equal(driver.status, 'ok', driver.summary);
        assert.match(driver.summary, /takes the runtime's cgroup driver \(cgroupfs\)/);
      } else {
        assert.equal(driver.status, 'fail', driver.summary);
        assert.deepEqual(
          driver.evidence.map((e) => e.value),
          ['systemd', 'cgroupfs'],
        );
        assert.match(driver.evidence[0].from, /config\.yaml/);
      }
      const image = c.get('kubelet.sandbox-image')!;
      assert.equal(image.status, 'warn', image.summary);
      assert.match(image.summary, /registry\.k8s\.io\/pause:3\.10 .* runtime uses localhost\/syncpod\/pause:3\.9/);
      const st = c.get('kubelet.static-pods')!;
      assert.equal(st.status, 'fail', st.summary);
      assert.ok(st.evidence.some((e) => e.name === 'refused' && e.value.includes('bad.yaml')));

      fs.writeFileSync(path.join(kdir, 'config.yaml'), 'kind: KubeletConfiguration\ncgroupDriver: [');
      c = await doctorJson([], { prefix: kubelet.inside, base });
      assert.equal(c.get('kubelet.config')!.status, 'fail', c.get('kubelet.config')!.summary);
      assert.match(c.get('kubelet.config')!.summary, /config\.yaml/);

      // Repaired: the runtime's driver and pause image, a mirrored version, a valid static pod.
      kubelet.stop();
      fs.writeFileSync(path.join(kdir, 'config.yaml'), config('cgroupfs'));
      fs.writeFileSync(
        path.join(statics, 'bad.yaml'),
        `apiVersion: v1\nkind: Pod\nmetadata:\n  name: good\nspec:\n  containers:\n  - name: c\n    image: ${BUSYBOX_IMAGE}\n`,
      );
      kubelet = await startStandInKubelet({
        dir: kdir,
        version: 'v1.30.4',
        args: ['--config', 'config.yaml', `--pod-infra-container-image=${PAUSE_IMAGE}`],
        cwd: kdir,
      });
      c = await doctorJson([], { prefix: kubelet.inside, base });
      for (const check of c.values()) assert.equal(check.status, 'ok', `${check.id}: ${check.summary}`);
    } finally {
      kubelet.stop();
    }
  });

  test('a crash loop and an OOM kill: pods.crashloop fails with the back-off, pods.oomkilled warns; ok once the pods are gone', async () => {
    const crash = path.join(dir, 'crash.json');
    fs.writeFileSync(
      crash,
      podManifest({ name: 'crasher', containers: [{ name: 'boom', image: BUSYBOX_IMAGE, script: 'exit 3' }] }),
    );
    const oom = path.join(dir, 'oom.json');
    fs.writeFileSync(
      oom,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'hog', namespace: 'e2e' },
        spec: {
          restartPolicy: 'Never',
          terminationGracePeriodSeconds: 1,
          containers: [
            {
              name: 'eat',
              image: BUSYBOX_IMAGE,
              imagePullPolicy: 'IfNotPresent',
              command: ['sh', '-c', 'a=$(head -c 268435456 /dev/zero | tr "\\000" x); echo ${#a}'],
              resources: { limits: { memory: '24Mi' } },
            },
          ],
        },
      }),
    );
    for (const f of [crash, oom]) assert.equal((await run(['sync', '-y', ...nodeFlags(lab), f])).code, 0);
    await waitExited('boom', 1);
    const again = await run(['sync', '-y', ...nodeFlags(lab), crash]);
    assert.equal(again.code, 0, again.stderr);
    await waitExited('boom', 2);
    await waitExited('eat', 1);
    // The back-off (10 s after one restart) runs from the last exit: what doctor says of it depends on
    // how long ago that was when it looked, which a loaded machine can stretch past 10 s. The test
    // reads the exit time and brackets doctor's run with its own clock, and asserts the one reading
    // that bracket allows (either, only when the 10 s end falls inside it).
    const last = (await containers())
      .filter((x) => x.metadata.name === 'boom')
      .sort((a, b) => b.metadata.attempt - a.metadata.attempt)[0];
    const finishedAt = Date.parse(JSON.parse((await run(['inspect', last.id])).stdout).status.finishedAt);
    const t0 = Date.now();
    const c = await doctorJson(['--check', 'pods']);
    const t1 = Date.now();
    const loop = c.get('pods.crashloop')!;
    assert.equal(loop.status, 'fail', loop.summary);
    assert.match(loop.summary, /e2e\/crasher boom: exit code 3 \(Error\) after 1 restart/);
    assert.match(loop.evidence[0].value, /^restarts 1, last exit code 3 /);
    const heldBack = /CrashLoopBackOff, next start in ~(\d+)s of 10s$/.exec(loop.evidence[0].value);
    const passed = /back-off of 10s has passed: kubelet restarts it at its next sync$/.test(loop.evidence[0].value);
    const sinceMin = (t0 - finishedAt) / 1000;
    const sinceMax = (t1 - finishedAt) / 1000;
    if (sinceMax < 10) assert.ok(heldBack, `${sinceMax} s after the exit: ${loop.evidence[0].value}`);
    else if (sinceMin >= 10) assert.ok(passed, `${sinceMin} s after the exit: ${loop.evidence[0].value}`);
    else assert.ok(heldBack || passed, loop.evidence[0].value);
    if (heldBack) {
      const left = Number(heldBack[1]);
      assert.ok(
        left >= Math.ceil(10 - sinceMax) && left <= Math.ceil(10 - sinceMin),
        `~${left}s left, ${sinceMin}-${sinceMax} s after the exit`,
      );
    }
    const killed = c.get('pods.oomkilled')!;
    assert.equal(killed.status, 'warn', killed.summary);
    assert.equal(killed.evidence[0].name, 'e2e/hog eat');
    assert.match(killed.evidence[0].value, /^OOMKilled, exit code 137/);

    await removePod('crasher');
    await removePod('hog');
    const fixed = await doctorJson(['--check', 'pods']);
    assert.equal(fixed.get('pods.crashloop')!.status, 'ok');
    assert.equal(fixed.get('pods.oomkilled')!.status, 'ok');
  });

  test('a container left in Created, a NotReady sandbox and an orphan: stuck, dead-sandboxes and orphans warn; ok once repaired', async () => {
    const file = path.join(dir, 'left.json');
    const uid = '5e5e5e5e-0000-4000-8000-000000000001';
    fs.writeFileSync(file, podManifest({ name: 'left', uid, containers: [{ name: 'idle', image: BUSYBOX_IMAGE }] }));
    const runp = await run(['runp', ...nodeFlags(lab), file]);
    assert.equal(runp.code, 0, runp.stderr);
    const sandbox = runp.stdout.trim();
    const create = await run(['create', ...nodeFlags(lab), '--container', 'idle', sandbox, file]);
    assert.equal(create.code, 0, create.stderr);
    const container = create.stdout.trim();
    await new Promise((r) => setTimeout(r, 1500));

    let c = await doctorJson(['--check', 'pods', '--stuck-after', '1s']);
    const stuck = c.get('pods.stuck')!;
    assert.equal(stuck.status, 'warn', stuck.summary);
    assert.equal(stuck.evidence[0].name, 'e2e/left idle');
    assert.match(stuck.evidence[0].value, /^Created for \d+s/);
    const orphan = c.get('pods.orphans')!;
    assert.equal(orphan.status, 'warn', orphan.summary);
    assert.equal(orphan.evidence[0].name, 'e2e/left');
    assert.match(orphan.evidence[0].value, new RegExp(`^uid ${uid}`));
    // Desired after all: given with --pods, it is no orphan.
    c = await doctorJson(['--check', 'pods.orphans', '--pods', file]);
    assert.equal(c.get('pods.orphans')!.status, 'ok', c.get('pods.orphans')!.summary);
    // Started: not stuck any more.
    assert.equal((await run(['start', container])).code, 0);
    assert.equal((await doctorJson(['--check', 'pods.stuck', '--stuck-after', '1s'])).get('pods.stuck')!.status, 'ok');

    assert.equal((await run(['stopp', sandbox])).code, 0);
    const dead = (await doctorJson(['--check', 'pods.dead-sandboxes'])).get('pods.dead-sandboxes')!;
    assert.equal(dead.status, 'warn', dead.summary);
    assert.match(dead.evidence[0].value, new RegExp(`^NotReady sandbox ${sandbox.slice(0, 13)}`));
    assert.equal((await run(['rmp', sandbox])).code, 0);
    c = await doctorJson(['--check', 'pods']);
    for (const check of c.values()) assert.equal(check.status, 'ok', `${check.id}: ${check.summary}`);
  });
});

/**
 * CRI-O's side of the own-configuration test: the lab's crio runs with --config DIR/crio.conf and
 * --config-dir DIR/crio-conf.d; node and doctor name both, each setting with its key, and a drop-in
 * written under the running CRI-O (cgroup_manager = "systemd") is named as a pending change.
 */
async function crioOwnConfig(): Promise<void> {
  const file = path.join(lab.dir, 'crio.conf');
  const dropInDir = path.join(lab.dir, 'crio-conf.d');
  const r = await run(['node', '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.containerdConfig, undefined, 'a CRI-O endpoint: containerd is not looked for');
  const read = out.crioConfig;
  assert.equal(read.found, true, JSON.stringify(read));
  assert.match(
    read.via,
    new RegExp(`^crio pid \\d+ --config ${file.replace(/\./g, '\\.')} --config-dir ${dropInDir}$`),
  );
  const c = read.config;
  assert.deepEqual(c.files, [file]);
  assert.deepEqual(c.mainFile, { path: file, read: true });
  assert.equal(c.dropInDir, dropInDir);
  assert.deepEqual(c.cgroupManager, { value: 'cgroupfs', key: 'crio.runtime.cgroup_manager', file });
  assert.deepEqual(c.networkDir, { value: lab.cniConfDir, key: 'crio.network.network_dir', file });
  assert.deepEqual(c.pluginDirs, { value: ['/usr/lib/cni'], key: 'crio.network.plugin_dirs', file });
  assert.deepEqual(c.pauseImage, { value: PAUSE_IMAGE, key: 'crio.image.pause_image', file });
  assert.deepEqual(c.listen, { value: lab.socket, key: 'crio.api.listen', file });
  const table = await run(['node']);
  assert.equal(table.code, 0, table.stderr);
  // (lines wrap at the table width: compared joined)
  const joined = table.stdout.replace(/\n +/g, ' ');
  assert.ok(joined.includes(`CRI-O config: ${file}, drop-ins from ${dropInDir}: <none> (crio pid `), table.stdout);
  assert.ok(joined.includes(`CNI conf dir: ${lab.cniConfDir} (crio.network.network_dir)`), table.stdout);
  assert.ok(joined.includes(`pause image: ${PAUSE_IMAGE} (crio.image.pause_image)`), table.stdout);

  let check = (await doctorJson(['--check', 'runtime.config-file'])).get('runtime.config-file')!;
  assert.equal(check.status, 'ok', check.summary);
  assert.equal(check.summary, `CRI-O reads ${file}: cgroupfs cgroups, CNI in ${lab.cniConfDir}.`);
  assert.ok(check.evidence.some((e) => e.name === 'CNI plugin dirs' && e.value === '/usr/lib/cni'));

  // A drop-in written under the running CRI-O (it takes cgroup_manager at its next start only).
  const dropIn = path.join(dropInDir, '50-systemd.conf');
  fs.writeFileSync(dropIn, '[crio.runtime]\ncgroup_manager = "systemd"\n');
  try {
    const warned = await run(['node', '-o', 'json']);
    assert.equal(warned.code, 0, warned.stderr);
    const cm = JSON.parse(warned.stdout).crioConfig.config.cgroupManager;
    assert.deepEqual(cm, { value: 'systemd', key: 'crio.runtime.cgroup_manager', file: dropIn });
    assert.match(
      warned.stderr,
      /CRI-O's config gives systemd \(.*50-systemd\.conf crio\.runtime\.cgroup_manager\) but the running CRI-O reports cgroupfs: the config changed after CRI-O started/,
    );
    check = (await doctorJson(['--check', 'runtime.config-file'])).get('runtime.config-file')!;
    assert.equal(check.status, 'warn', check.summary);
    assert.match(check.summary, /gives the systemd cgroup manager but the running CRI-O uses cgroupfs/);
    assert.ok(check.evidence.some((e) => e.name === 'drop-in' && e.value === dropIn));
  } finally {
    fs.rmSync(dropIn, { force: true });
  }
}
