// The node profile against a stand-in kubelet: a real process named kubelet (a C program compiled
// here) started with --config and --config-dir, answering --version with Kubernetes v1.36.2, and a
// real containerd as its containerRuntimeEndpoint. No syncpod flags and no environment: syncpod
// finds the kubelet in /proc, reads its files and version, and plans and generates configs as that
// kubelet would. The stand-in lives in a private PID namespace and every CLI run of this file is
// made inside it, so no other syncpod run on this machine can see it; it is killed in `after`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startLab, BUSYBOX_IMAGE, labRuntime, type Lab } from '../harness/lab';
import { startStandInKubelet, type StandInKubelet } from '../harness/stand-in-kubelet';
import { assertOneLineError, syncpod, worldReadableCli } from './helpers';
import { writeManifest } from './sync-helpers';

const HEAD = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';
/** What the stand-in answers to --version. */
const VERSION = 'v1.36.2';
const UID = '7e3c1a52-0000-4000-8000-00000000a136';

/**
 * containerd 2.x and CRI-O answer RuntimeConfig (cgroupfs in the lab), and the stand-in kubelet's
 * version takes the runtime's driver over its config's systemd (KubeletCgroupDriverFromCRI);
 * containerd 1.6 cannot answer, so the config's systemd stands.
 */
const RUNTIME_DRIVER = labRuntime().kind !== 'containerd';

/** The besteffort pod cgroup under `root` with the driver in force (see RUNTIME_DRIVER). */
function besteffortParent(root: string): string {
  if (RUNTIME_DRIVER) return `${root}/kubepods/besteffort/pod${UID}`;
  const uid = UID.replace(/-/g, '_');
  if (!root) return `/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod${uid}.slice`;
  const r = root.slice(1);
  return `/${r}.slice/${r}-kubepods.slice/${r}-kubepods-besteffort.slice/${r}-kubepods-besteffort-pod${uid}.slice`;
}

let lab: Lab;
let dir: string;
let kubelet: StandInKubelet;
let manifest: string;
let configText: string;
const logsDir = () => path.join(dir, 'kubelet-pod-logs');

/** The CLI as an operator runs it on that node: no flags beyond `args`, no environment. */
const onNode = (args: string[], opts: { cli?: string; user?: boolean } = {}) =>
  syncpod(args, {
    prefix: [...kubelet.inside, ...(opts.user ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : [])],
    cli: opts.cli,
    timeoutMs: 120000,
  });

before(async () => {
  lab = await startLab();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-node-e2e-'));
  fs.mkdirSync(path.join(dir, 'conf.d', 'sub'), { recursive: true });
  configText =
    `${HEAD}cgroupDriver: systemd\nclusterDNS: [10.0.0.99]\nclusterDomain: cluster.test\npodLogsDir: ${logsDir()}\n` +
    `containerRuntimeEndpoint: ${lab.endpoint}\nfeatureGates:\n  SomeGateSyncpodDoesNotRead: true\n  ContainerStopSignals: true\n`;
  fs.writeFileSync(path.join(dir, 'config.yaml'), configText);
  // Drop-ins: lexical order, later wins; a list is replaced as a whole; *.yaml is not a drop-in.
  fs.writeFileSync(path.join(dir, 'conf.d', '10-dns.conf'), `${HEAD}clusterDNS: [10.96.0.10]\n`);
  fs.writeFileSync(path.join(dir, 'conf.d', 'sub', '50-ignored.yaml'), `${HEAD}clusterDomain: not-read.test\n`);
  kubelet = await startStandInKubelet({
    dir,
    version: VERSION,
    // relative paths: read from the kubelet's working directory (/proc/PID/cwd)
    args: [
      '--config',
      'config.yaml',
      '--config-dir=conf.d',
      '--hostname-override=Stand-In-Node',
      '--kubeconfig',
      '/etc/kubernetes/kubelet.conf',
      '--v=2',
    ],
    cwd: dir,
  });
  manifest = writeManifest(dir, { name: 'detected', uid: UID, containers: [{ name: 'app', image: BUSYBOX_IMAGE }] });
});

/** The host's kubelet root as the stand-in reads it (the default): a sync there makes the pod's directories. */
const HOST_POD_DIR = path.join('/var/lib/kubelet/pods', UID);
/** The directories on the way that did not exist before this file ran (removed again when empty). */
const madeHere = ['/var/lib/kubelet', '/var/lib/kubelet/pods'].filter((d) => !fs.existsSync(d));

after(async () => {
  kubelet?.stop();
  await lab?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  // Nothing of this file stays on the host (test/e2e/zz-host-left-clean.test.ts checks it at the end).
  fs.rmSync(HOST_POD_DIR, { recursive: true, force: true });
  for (const d of [...madeHere].reverse()) {
    try {
      fs.rmdirSync(d);
    } catch {
      // not empty: something else uses it
    }
  }
});

describe('syncpod node', () => {
  test('-o json: every value with where it came from (kubelet binary, config file, drop-in, kubelet flag, default)', async () => {
    const r = await onNode(['node', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const p = JSON.parse(r.stdout);
    const config = path.join(dir, 'config.yaml');
    assert.equal(p.detected, true);
    assert.equal(p.kubelet.exe, kubelet.binary);
    assert.equal(p.kubelet.configFile, config);
    assert.deepEqual(p.kubelet.dropIns, [path.join(dir, 'conf.d', '10-dns.conf')]);
    assert.deepEqual(p.kubeletVersion, {
      value: VERSION,
      source: 'kubelet-binary',
      from: `${kubelet.binary} --version`,
    });
    assert.deepEqual(
      p.cgroupDriver,
      RUNTIME_DRIVER
        ? { value: 'cgroupfs', source: 'runtime', from: `RuntimeConfig on ${lab.endpoint}` }
        : { value: 'systemd', source: 'kubelet-config', from: config },
    );
    assert.deepEqual(p.clusterDNS, {
      value: ['10.96.0.10'],
      source: 'drop-in',
      from: path.join(dir, 'conf.d', '10-dns.conf'),
    });
    assert.deepEqual(p.clusterDomain, { value: 'cluster.test', source: 'kubelet-config', from: config });
    assert.deepEqual(p.podLogsDir, { value: logsDir(), source: 'kubelet-config', from: config });
    assert.deepEqual(p.rootDir, { value: '/var/lib/kubelet', source: 'default' });
    assert.deepEqual(p.nodeName, { value: 'stand-in-node', source: 'kubelet-flag', from: '--hostname-override' });
    assert.deepEqual(p.runtimeEndpoint, { value: lab.endpoint, source: 'kubelet-config', from: config });
    assert.deepEqual(p.featureGates.SomeGateSyncpodDoesNotRead, {
      value: true,
      source: 'kubelet-config',
      from: config,
    });
    // containerd 1.6 has no RuntimeConfig: the kubelet's own driver stands, with no warning. containerd
    // 2.x and CRI-O answer (cgroupfs here) and a kubelet of 1.31 or newer takes the runtime's driver over its config.
    assert.equal(p.runtimeCgroupDriver.answered, RUNTIME_DRIVER);
    if (!RUNTIME_DRIVER) assert.equal(r.stderr, '');
  });

  test('the table names each setting, its value and source', async () => {
    const r = await onNode(['node']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      new RegExp(`^Kubelet: pid 1,\\s+\\S*/bin/kubelet\\s+\\(Kubernetes\\s+${VERSION.replace(/\./g, '\\.')}\\)$`, 'm'),
    );
    // SOURCE wraps to the width: the file may be on the next line.
    if (RUNTIME_DRIVER) assert.match(r.stdout, /^cgroupDriver\s+cgroupfs\s+runtime \(RuntimeConfig on$/m);
    else assert.match(r.stdout, /^cgroupDriver\s+systemd\s+kubelet-config\s+\(.*config\.yaml\)$/m);
    assert.match(r.stdout, /^clusterDNS\s+10\.96\.0\.10\s+drop-in\s+\(.*10-dns\.conf\)$/m);
    assert.match(r.stdout, new RegExp(`^kubeletVersion\\s+${VERSION.replace(/\./g, '\\.')}\\s+kubelet-binary`, 'm'));
  });

  test('the version is asked of the binary once, then cached per binary', async () => {
    for (let i = 0; i < 2; i++) assert.equal((await onNode(['node', '-o', 'json'])).code, 0);
    assert.equal(kubelet.versionCalls(), 1);
  });

  test('syncpod flags win over the kubelet; --no-node-profile reads no kubelet', async () => {
    const f = JSON.parse(
      (
        await onNode([
          'node',
          '-o',
          'json',
          '--cluster-domain',
          'flag.test',
          '--cgroup-driver',
          'cgroupfs',
          '--kubelet-version',
          '1.35',
        ])
      ).stdout,
    );
    assert.deepEqual(f.clusterDomain, { value: 'flag.test', source: 'flag', from: '--cluster-domain' });
    assert.deepEqual(f.cgroupDriver, { value: 'cgroupfs', source: 'flag', from: '--cgroup-driver' });
    assert.deepEqual(f.kubeletVersion, { value: '1.35', source: 'flag', from: '--kubelet-version' });
    const off = await onNode(['--no-node-profile', 'node', '-o', 'json']);
    assert.equal(off.code, 0, off.stderr);
    const p = JSON.parse(off.stdout);
    assert.equal(p.detected, false);
    assert.equal(p.cgroupDriver.value, 'cgroupfs');
    assert.equal(p.clusterDomain.value, 'cluster.local');
    assert.equal(p.runtimeEndpoint.source, 'default');
  });

  test("a syncpod run outside the kubelet's PID namespace does not take it for its node's kubelet", async () => {
    const r = await syncpod(['node', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    assert.notEqual(JSON.parse(r.stdout).kubelet?.exe, kubelet.binary);
  });
});

describe('plan and configs follow the detected kubelet (no flags, no environment)', () => {
  test('plan says kubelet 1.36, detected', async () => {
    const r = await onNode(['plan', '-o', 'json', manifest]);
    assert.equal(r.code, 0, r.stderr);
    const plan = JSON.parse(r.stdout);
    assert.equal(plan.kubeletVersion, '1.36.2');
    assert.equal(plan.kubelet.version, '1.36.2');
    assert.equal(plan.kubelet.origin, 'detected');
    // a gate the kubelet's config sets is planned with; gates syncpod does not consult are left out
    assert.deepEqual(
      [plan.kubelet.gates.ContainerStopSignals.enabled, plan.kubelet.gates.ContainerStopSignals.origin],
      [true, 'detected'],
    );
    assert.equal(plan.kubelet.gates.ContainerRestartRules.origin, 'default');
    assert.equal(plan.kubelet.gates.SomeGateSyncpodDoesNotRead, undefined);
    const flag = JSON.parse((await onNode(['plan', '-o', 'json', '--kubelet-version', '1.33', manifest])).stdout);
    assert.deepEqual([flag.kubelet.version, flag.kubelet.origin], ['1.33', 'flag']);
  });

  test("runp --dry-run carries the kubelet's log directory, DNS and a systemd cgroup parent", async () => {
    const r = await onNode(['runp', '--dry-run', manifest]);
    assert.equal(r.code, 0, r.stderr);
    const { config } = JSON.parse(r.stdout);
    assert.equal(config.logDirectory, path.join(logsDir(), `e2e_detected_${UID}`));
    assert.deepEqual(config.dnsConfig.servers, ['10.96.0.10']);
    assert.deepEqual(config.dnsConfig.searches.slice(0, 3), [
      'e2e.svc.cluster.test',
      'svc.cluster.test',
      'cluster.test',
    ]);
    assert.equal(config.linux.cgroupParent, besteffortParent(''));
  });

  test("the kubelet's cgroupRoot and cgroupsPerQOS: false reach the cgroup parent and the node preflight; syncpod flags win", async (t) => {
    const file = path.join(dir, 'config.yaml');
    t.after(() => fs.writeFileSync(file, configText));
    const parent = async (extra: string[] = []) => {
      const r = await onNode(['runp', '--dry-run', ...extra, manifest]);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout).config.linux.cgroupParent;
    };
    fs.writeFileSync(file, `${configText}cgroupRoot: /custom\n`);
    assert.equal(await parent(), besteffortParent('/custom'));
    assert.equal(await parent(['--cgroup-driver', 'cgroupfs']), `/custom/kubepods/besteffort/pod${UID}`);
    const shown = JSON.parse((await onNode(['node', '-o', 'json'])).stdout);
    assert.deepEqual(shown.cgroupRoot, { value: '/custom', source: 'kubelet-config', from: file });

    fs.writeFileSync(file, `${configText}cgroupsPerQOS: false\n`);
    assert.equal(await parent(), '', 'no pod cgroup: the runtime places the pod');
    assert.equal(await parent(['--cgroups-per-qos=true']), besteffortParent(''));
    const statics = fs.mkdtempSync(path.join(dir, 'static-'));
    fs.copyFileSync(manifest, path.join(statics, 'detected.json'));
    const node = await onNode([
      'plan',
      '--node',
      '--static-pod-path',
      statics,
      '--pods-api-socket',
      'none',
      '-o',
      'json',
    ]);
    assert.equal(node.code, 0, node.stderr);
    const steps = JSON.parse(node.stdout).plans[0].preflight.steps.map((s: any) => s.action);
    assert.ok(!steps.includes('create-pod-cgroup'), `no pod cgroup without cgroupsPerQOS: ${steps.join(', ')}`);
    const withQos = JSON.parse(
      (
        await onNode([
          'plan',
          '--node',
          '--static-pod-path',
          statics,
          '--pods-api-socket',
          'none',
          '-o',
          'json',
          '--cgroups-per-qos',
          '--cgroup-root',
          '/flagroot',
        ])
      ).stdout,
    );
    const cg = withQos.plans[0].preflight.steps.find((s: any) => s.action === 'create-pod-cgroup');
    assert.match(
      cg?.target ?? '',
      /^\/flagroot\.slice\/flagroot-kubepods\.slice\/flagroot-kubepods-besteffort\.slice\/flagroot-kubepods-besteffort-pod[0-9a-f_]+\.slice$/,
    );
    assertOneLineError(
      await onNode(['runp', '--dry-run', '--cgroups-per-qos=maybe', manifest]),
      /--cgroups-per-qos: must be true or false, got "maybe"/,
    );
  });

  test('with --cgroup-driver cgroupfs the flag wins', async () => {
    const r = await onNode(['runp', '--dry-run', '--cgroup-driver', 'cgroupfs', manifest]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).config.linux.cgroupParent, `/kubepods/besteffort/pod${UID}`);
  });
});

describe('bad input and unreadable kubelets', () => {
  test('an invalid kubelet config file: one line naming file and field, exit 1', async (t) => {
    const file = path.join(dir, 'config.yaml');
    t.after(() => fs.writeFileSync(file, configText));
    fs.writeFileSync(file, configText.replace('cgroupDriver: systemd', 'cgroupDriver: systemdd'));
    assertOneLineError(
      await onNode(['node']),
      new RegExp(`kubelet config ${file}: cgroupDriver: must be cgroupfs or systemd, got "systemdd"`),
    );
    assertOneLineError(await onNode(['runp', '--dry-run', manifest]), /cgroupDriver: must be cgroupfs or systemd/);
  });

  test('an unreadable kubelet config file: one line naming it, exit 1', async (t) => {
    const file = path.join(dir, 'config.yaml');
    t.after(() => fs.writeFileSync(file, configText));
    fs.rmSync(file);
    assertOneLineError(await onNode(['node']), new RegExp(`kubelet config ${file}: no such file or directory`));
  });

  test('a kubelet the user may not read: a warning and the defaults, never a crash', async (t) => {
    const { cli, remove } = worldReadableCli();
    t.after(remove);
    const r = await onNode(['node', '-o', 'json'], { cli, user: true });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /^WARN: kubelet process \d+ cannot be read: permission denied \(run as root\); using syncpod's defaults for the node settings\n$/,
    );
    const p = JSON.parse(r.stdout);
    assert.equal(p.detected, false);
    assert.equal(p.cgroupDriver.value, 'cgroupfs');
  });
});

describe('bulk removals with a kubelet running', () => {
  test("rmp -a names the running kubelet; --node keeps its static pods from the kubelet's own staticPodPath", async (t) => {
    const file = path.join(dir, 'config.yaml');
    const statics = fs.mkdtempSync(path.join(dir, 'manifests-'));
    t.after(() => fs.writeFileSync(file, configText));
    fs.writeFileSync(
      path.join(statics, 'etcd.yaml'),
      `apiVersion: v1\nkind: Pod\nmetadata:\n  name: etcd\n  namespace: kube-system\nspec:\n  hostNetwork: true\n  containers:\n  - name: etcd\n    image: ${BUSYBOX_IMAGE}\n    command: ["sleep", "3600"]\n`,
    );
    fs.writeFileSync(file, `${configText}staticPodPath: ${statics}\n`);
    const logs = ['--pod-dir-root', path.join(dir, 'kubelet-root')];
    const sync = await onNode(['sync', '--node', '--yes', '--pods-api-socket', 'none', ...logs]);
    assert.equal(sync.code, 0, sync.stdout + sync.stderr);
    const made = await onNode(['runp', manifest]);
    assert.equal(made.code, 0, made.stderr);
    const detected = made.stdout.trim();

    const dry = await onNode(['rmp', '-a', '--dry-run']);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(
      dry.stderr,
      /^WARN: a kubelet is running \(pid 1\): it starts the pods it should run again, so 2 of these pod sandboxes \(made by it\) may come back at once; --node keeps those of the node's desired pods$/m,
    );

    const rmp = await onNode(['rmp', '-a', '-f', '--node']);
    assert.equal(rmp.code, 0, rmp.stderr);
    assert.doesNotMatch(rmp.stderr, /WARN/);
    assert.match(
      rmp.stderr,
      new RegExp(
        `^1 pod sandbox to go:\\n  ${detected.slice(0, 13)}  e2e/detected \\(ready\\)\\n1 pod sandbox kept for the pods this node should run:\\n  [0-9a-f]{13}  kube-system/etcd-stand-in-node \\(ready\\)  desired pod kube-system/etcd-stand-in-node\\n$`,
      ),
    );
    const left = JSON.parse((await onNode(['pods', '-o', 'json'])).stdout).items.map((s: any) => s.metadata.name);
    assert.deepEqual(left, ['etcd-stand-in-node']);
    assert.equal((await onNode(['rmp', '-a', '-f'])).code, 0);
  });
});
