// CRI-O's configuration: what `syncpod node` and `doctor` read from crio.conf, its drop-ins and its
// command line (key names, defaults and order as CRI-O v1.34.0's pkg/config and internal/criocli).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { parse } from 'smol-toml';
import type { ParsedFile } from '../../src/node/containerd-config';
import { crioConfigFacts, crioListen, crioOrigin } from '../../src/node/crio-config';
import { crioCommandLine, readCrioConfig } from '../../src/node/crio-process';
import { crioConfigLines } from '../../src/render/node-view';
import { configCgroupDriver, configCniDirs, configSandboxImage } from '../../src/doctor/runtime-info';
import { flagValue, flagValues } from '../../src/node/runtime-process';

const file = (p: string, text: string): ParsedFile => ({ path: p, doc: parse(text) as Record<string, unknown> });
const at = (main = '/etc/crio/crio.conf', read = true) => ({
  mainFile: { path: main, read },
  dropInDir: '/etc/crio/crio.conf.d',
});

const MAIN = `[crio.api]
listen = "/run/crio/crio.sock"
[crio.runtime]
cgroup_manager = "cgroupfs"
conmon_cgroup = "pod"
[crio.image]
pause_image = "registry.k8s.io/pause:3.10.1"
[crio.network]
network_dir = "/etc/cni/custom.d/"
plugin_dirs = ["/usr/libexec/cni", "/opt/cni/bin"]
`;

test("no file at all: CRI-O's defaults (systemd, /etc/cni/net.d/, /opt/cni/bin/, its socket), no pause image claimed", () => {
  const c = crioConfigFacts([], at('/etc/crio/crio.conf', false));
  assert.deepEqual(c.cgroupManager, { value: 'systemd', key: 'crio.runtime.cgroup_manager' });
  assert.deepEqual(c.networkDir, { value: '/etc/cni/net.d/', key: 'crio.network.network_dir' });
  assert.deepEqual(c.pluginDirs, { value: ['/opt/cni/bin/'], key: 'crio.network.plugin_dirs' });
  assert.deepEqual(c.listen, { value: '/var/run/crio/crio.sock', key: 'crio.api.listen' });
  assert.equal(c.pauseImage, undefined);
  assert.deepEqual(c.files, []);
  assert.equal(crioOrigin(c.cgroupManager), "CRI-O's default (crio.runtime.cgroup_manager not set)");
});

test('the main file: each setting with its TOML key and file', () => {
  const c = crioConfigFacts([file('/etc/crio/crio.conf', MAIN)], at());
  assert.deepEqual(c.cgroupManager, {
    value: 'cgroupfs',
    key: 'crio.runtime.cgroup_manager',
    file: '/etc/crio/crio.conf',
  });
  assert.deepEqual(c.networkDir.value, '/etc/cni/custom.d/');
  assert.deepEqual(c.pluginDirs, {
    value: ['/usr/libexec/cni', '/opt/cni/bin'],
    key: 'crio.network.plugin_dirs',
    file: '/etc/crio/crio.conf',
  });
  assert.deepEqual(c.pauseImage, {
    value: 'registry.k8s.io/pause:3.10.1',
    key: 'crio.image.pause_image',
    file: '/etc/crio/crio.conf',
  });
  assert.equal(c.listen.value, '/run/crio/crio.sock');
  assert.equal(crioOrigin(c.pauseImage!), '/etc/crio/crio.conf crio.image.pause_image');
});

test('drop-ins: a later file replaces the keys it sets (a list whole) and keeps the others; plugin_dir is appended', () => {
  const c = crioConfigFacts(
    [
      file('/etc/crio/crio.conf', MAIN),
      file('/etc/crio/crio.conf.d/10-crun.conf', '[crio.runtime]\ncgroup_manager = "systemd"\n'),
      file(
        '/etc/crio/crio.conf.d/20-cni.conf',
        '[crio.network]\nplugin_dirs = ["/usr/lib/cni"]\nplugin_dir = "/opt/old/cni"\n',
      ),
    ],
    at(),
  );
  assert.equal(c.cgroupManager.value, 'systemd');
  assert.equal(c.cgroupManager.file, '/etc/crio/crio.conf.d/10-crun.conf');
  assert.deepEqual(c.pluginDirs.value, ['/usr/lib/cni', '/opt/old/cni']);
  assert.equal(c.pluginDirs.file, '/etc/crio/crio.conf.d/20-cni.conf');
  // untouched by the drop-ins: still the main file's
  assert.equal(c.networkDir.file, '/etc/crio/crio.conf');
  assert.equal(c.pauseImage?.file, '/etc/crio/crio.conf');
  assert.deepEqual(c.files, [
    '/etc/crio/crio.conf',
    '/etc/crio/crio.conf.d/10-crun.conf',
    '/etc/crio/crio.conf.d/20-cni.conf',
  ]);
});

test('the command line and the environment win over every file; the flag over its environment variable', () => {
  const cmd = crioCommandLine({
    args: ['--cgroup-manager=cgroupfs', '--cni-plugin-dir', '/a', '--cni-plugin-dir', 'b', '--listen', 'crio.sock'],
    env: { CONTAINER_CGROUP_MANAGER: 'systemd', CONTAINER_PAUSE_IMAGE: 'localhost/pause:env', PATH: '/bin' },
    cwd: '/run/crio',
  });
  assert.deepEqual(cmd.cgroupManager, { value: 'cgroupfs', flag: '--cgroup-manager' });
  assert.deepEqual(cmd.pluginDirs, { value: ['/a', '/run/crio/b'], flag: '--cni-plugin-dir' });
  assert.deepEqual(cmd.pauseImage, { value: 'localhost/pause:env', env: 'CONTAINER_PAUSE_IMAGE' });
  assert.deepEqual(cmd.listen, { value: '/run/crio/crio.sock', flag: '--listen' });
  const c = crioConfigFacts([file('/etc/crio/crio.conf', MAIN.replace('"cgroupfs"', '"systemd"'))], at(), cmd);
  assert.equal(c.cgroupManager.value, 'cgroupfs');
  assert.equal(crioOrigin(c.cgroupManager), 'crio --cgroup-manager');
  assert.equal(c.pauseImage?.value, 'localhost/pause:env');
  assert.equal(crioOrigin(c.pauseImage!), "crio's environment CONTAINER_PAUSE_IMAGE");
  assert.equal(crioListen([file('/etc/crio/crio.conf', MAIN)], cmd), '/run/crio/crio.sock');
  assert.equal(crioListen([file('/etc/crio/crio.conf', MAIN)]), '/run/crio/crio.sock');
  assert.equal(crioListen([]), '/var/run/crio/crio.sock');
  // one comma-separated value is split, as CRI-O splits it
  assert.deepEqual(crioCommandLine({ args: ['--cni-plugin-dir=/x, /y'], env: {}, cwd: '/' }).pluginDirs?.value, [
    '/x',
    '/y',
  ]);
  assert.deepEqual(crioCommandLine({ args: [], env: { CONTAINER_CNI_PLUGIN_DIR: '/p,/q' }, cwd: '/' }).pluginDirs, {
    value: ['/p', '/q'],
    env: 'CONTAINER_CNI_PLUGIN_DIR',
  });
});

test('values CRI-O refuses are named with their file and key (or flag)', () => {
  const cases: Array<[string, ParsedFile[], Record<string, unknown>, RegExp]> = [
    [
      'cgroup_manager misspelt',
      [file('/etc/crio/crio.conf.d/01.conf', '[crio.runtime]\ncgroup_manager = "system"\n')],
      {},
      /^\/etc\/crio\/crio\.conf\.d\/01\.conf: crio\.runtime\.cgroup_manager must be "systemd" or "cgroupfs", got "system"$/,
    ],
    [
      'plugin_dirs a string',
      [file('/etc/crio/crio.conf', '[crio.network]\nplugin_dirs = "/opt/cni/bin"\n')],
      {},
      /^\/etc\/crio\/crio\.conf: crio\.network\.plugin_dirs must be a list of strings, got "\/opt\/cni\/bin"$/,
    ],
    [
      'pause_image a number',
      [file('/etc/crio/crio.conf', '[crio.image]\npause_image = 3\n')],
      {},
      /crio\.image\.pause_image must be a string/,
    ],
    [
      'the flag',
      [],
      { cgroupManager: { value: 'cgroups', flag: '--cgroup-manager' } },
      /^crio --cgroup-manager must be "systemd" or "cgroupfs", got "cgroups"$/,
    ],
  ];
  for (const [name, files, cmd, want] of cases)
    assert.throws(() => crioConfigFacts(files, at(), cmd), { message: want }, name);
});

test("flagValue/flagValues: Go's spellings of a flag, the last one winning", () => {
  const args = ['-c', '/a.conf', '--config=/b.conf', '-d=/dir', '-config-dir', '/dir2', '--listen'];
  assert.equal(flagValue(args, 'config', 'c'), '/b.conf');
  assert.deepEqual(flagValues(args, 'config', 'c'), ['/a.conf', '/b.conf']);
  assert.equal(flagValue(args, 'config-dir', 'd'), '/dir2');
  assert.equal(flagValue(args, 'listen'), undefined, 'a flag without its value');
  assert.equal(flagValue(args, 'pause-image'), undefined);
});

test('the doctor readers take CRI-O over containerd when CRI-O serves the endpoint', () => {
  const config = crioConfigFacts([file('/etc/crio/crio.conf', MAIN)], at());
  const files = { crioConfig: { found: true as const, config, via: 'crio pid 1' } };
  assert.deepEqual(configCgroupDriver(files), {
    driver: 'cgroupfs',
    from: '/etc/crio/crio.conf crio.runtime.cgroup_manager',
  });
  assert.deepEqual(configSandboxImage(files), {
    image: 'registry.k8s.io/pause:3.10.1',
    from: '/etc/crio/crio.conf crio.image.pause_image',
  });
  assert.deepEqual(configCniDirs(files), {
    confDir: '/etc/cni/custom.d/',
    binDirs: ['/usr/libexec/cni', '/opt/cni/bin'],
    from: '/etc/crio/crio.conf crio.network.network_dir; /etc/crio/crio.conf crio.network.plugin_dirs',
  });
  assert.equal(
    configSandboxImage({ crioConfig: { found: true, config: crioConfigFacts([], at()), via: '' } }),
    undefined,
  );
  assert.equal(configCgroupDriver({ crioConfig: { found: false, why: 'no crio process runs here' } }), undefined);
});

test('readCrioConfig: the crio process serving the socket, its --config, --config-dir walked in order, its environment', async () => {
  // A real process named "crio" (node through a symlink of that name), started with --config relative
  // to its working directory, a drop-in directory with a subdirectory, and CONTAINER_PAUSE_IMAGE set.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-criocfg-'));
  const bin = path.join(dir, 'crio');
  fs.symlinkSync(process.execPath, bin);
  const sock = path.join(dir, 'crio.sock');
  fs.writeFileSync(path.join(dir, 'crio.conf'), MAIN.replace('/run/crio/crio.sock', sock));
  fs.mkdirSync(path.join(dir, 'conf.d', '20-sub'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'conf.d', '10-cgroup.conf'), '[crio.runtime]\ncgroup_manager = "systemd"\n');
  fs.writeFileSync(path.join(dir, 'conf.d', '20-sub', 'net'), '[crio.network]\nnetwork_dir = "/etc/cni/sub.d"\n');
  fs.writeFileSync(path.join(dir, 'conf.d', '30-last.conf'), '[crio.network]\nplugin_dirs = ["/usr/lib/cni"]\n');
  const child = spawn(
    bin,
    ['-e', 'setTimeout(() => {}, 30000)', '--', '--config', 'crio.conf', '--config-dir', `${dir}/conf.d`],
    { cwd: dir, stdio: 'ignore', env: { ...process.env, CONTAINER_PAUSE_IMAGE: 'localhost/pause:env' } },
  );
  const parseToml = (t: string) => parse(t) as Record<string, unknown>;
  try {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      try {
        if (fs.readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').includes('--config-dir')) break;
      } catch {
        /* not yet */
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    const read = readCrioConfig({ endpoint: `unix://${sock}`, parseToml });
    assert.ok(read.found, JSON.stringify(read));
    if (!read.found) return;
    assert.equal(read.via, `crio pid ${child.pid} --config crio.conf --config-dir ${dir}/conf.d`);
    assert.deepEqual(read.config.files, [
      path.join(dir, 'crio.conf'),
      path.join(dir, 'conf.d', '10-cgroup.conf'),
      path.join(dir, 'conf.d', '20-sub', 'net'),
      path.join(dir, 'conf.d', '30-last.conf'),
    ]);
    assert.equal(read.config.cgroupManager.value, 'systemd');
    assert.equal(read.config.networkDir.value, '/etc/cni/sub.d');
    assert.deepEqual(read.config.pluginDirs.value, ['/usr/lib/cni']);
    assert.deepEqual(read.config.pauseImage, {
      value: 'localhost/pause:env',
      key: 'crio.image.pause_image',
      file: path.join(dir, 'crio.conf'),
      env: 'CONTAINER_PAUSE_IMAGE',
    });
    const lines = crioConfigLines(read);
    assert.equal(
      lines[0],
      `CRI-O config: ${dir}/crio.conf, drop-ins from ${dir}/conf.d: ${dir}/conf.d/10-cgroup.conf, ${dir}/conf.d/20-sub/net, ${dir}/conf.d/30-last.conf (crio pid ${child.pid} --config crio.conf --config-dir ${dir}/conf.d)`,
    );
    assert.ok(
      lines.includes(`  cgroup manager: systemd (crio.runtime.cgroup_manager in ${dir}/conf.d/10-cgroup.conf)`),
      lines.join('\n'),
    );
    assert.ok(
      lines.includes("  pause image: localhost/pause:env (crio's environment CONTAINER_PAUSE_IMAGE)"),
      lines.join('\n'),
    );
    assert.ok(lines.includes(`  listen: ${sock} (crio.api.listen)`), lines.join('\n'));

    // another socket: not this crio
    const other = readCrioConfig({ endpoint: `unix://${dir}/other.sock`, parseToml });
    assert.equal(other.found, false);
    if (!other.found) {
      assert.match(other.why, new RegExp(`^no crio process here serves ${dir}/other\\.sock$`));
      assert.equal(other.pid, undefined);
    }

    // a drop-in CRI-O would refuse: named, with the pid of the crio serving the socket
    fs.writeFileSync(path.join(dir, 'conf.d', '40-bad.conf'), '[crio.runtime]\ncgroup_manager = "sytemd"\n');
    const bad = readCrioConfig({ endpoint: sock, parseToml });
    assert.equal(bad.found, false);
    if (!bad.found) {
      assert.equal(
        bad.why,
        `${dir}/conf.d/40-bad.conf: crio.runtime.cgroup_manager must be "systemd" or "cgroupfs", got "sytemd"`,
      );
      assert.equal(bad.pid, child.pid);
    }
  } finally {
    child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
