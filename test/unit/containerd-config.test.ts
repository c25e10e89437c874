// containerd's config file, versions 2 and 3: what `syncpod node` and `doctor` read from it (key
// names as containerd v2.4.2's CRI config and its version-2 migration spell them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'smol-toml';
import { spawn } from 'node:child_process';
import { containerdConfigFacts, type ParsedFile } from '../../src/node/containerd-config';
import { readContainerdConfig, socketPath } from '../../src/node/containerd-process';
import { containerdConfigLines } from '../../src/render/node-view';

const file = (p: string, text: string): ParsedFile => ({ path: p, doc: parse(text) as Record<string, unknown> });

const V3 = `version = 3
[plugins.'io.containerd.cri.v1.images'.pinned_images]
  sandbox = "registry.k8s.io/pause:3.10.2"
[plugins.'io.containerd.cri.v1.runtime']
  restrict_oom_score_adj = true
  [plugins.'io.containerd.cri.v1.runtime'.cni]
    bin_dirs = ["/usr/lib/cni", "/opt/cni/bin"]
    conf_dir = "/etc/cni/custom.d"
  [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc.options]
    SystemdCgroup = true
`;

const V2 = `version = 2
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "registry.k8s.io/pause:3.6"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "/etc/cni/net.d"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    default_runtime_name = "crun"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.crun.options]
      SystemdCgroup = true
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
      SystemdCgroup = false
`;

test('version 3: the four settings from the runtime and images plugins, each with its key', () => {
  const c = containerdConfigFacts([file('/etc/containerd/config.toml', V3)]);
  assert.equal(c.version, 3);
  assert.deepEqual(c.cgroupDriver, {
    value: 'systemd',
    key: 'plugins."io.containerd.cri.v1.runtime".containerd.runtimes.runc.options.SystemdCgroup',
    file: '/etc/containerd/config.toml',
  });
  assert.deepEqual(c.cniBinDirs.value, ['/usr/lib/cni', '/opt/cni/bin']);
  assert.equal(c.cniBinDirs.key, 'plugins."io.containerd.cri.v1.runtime".cni.bin_dirs');
  assert.equal(c.cniConfDir.value, '/etc/cni/custom.d');
  assert.equal(c.restrictOOMScoreAdj.value, true);
  assert.equal(c.restrictOOMScoreAdj.key, 'plugins."io.containerd.cri.v1.runtime".restrict_oom_score_adj');
  assert.deepEqual(c.sandboxImage, {
    value: 'registry.k8s.io/pause:3.10.2',
    key: 'plugins."io.containerd.cri.v1.images".pinned_images.sandbox',
    file: '/etc/containerd/config.toml',
  });
});

test('version 2: one CRI table; the default runtime named by default_runtime_name decides the driver', () => {
  const c = containerdConfigFacts([file('/etc/containerd/config.toml', V2)]);
  assert.equal(c.version, 2);
  assert.equal(c.runtimeName.value, 'crun');
  assert.equal(c.cgroupDriver.value, 'systemd');
  assert.equal(
    c.cgroupDriver.key,
    'plugins."io.containerd.grpc.v1.cri".containerd.runtimes.crun.options.SystemdCgroup',
  );
  assert.deepEqual(c.cniBinDirs.value, ['/usr/lib/cni']);
  assert.equal(c.cniBinDirs.key, 'plugins."io.containerd.grpc.v1.cri".cni.bin_dir');
  assert.equal(c.restrictOOMScoreAdj.value, false);
  assert.equal(c.restrictOOMScoreAdj.file, undefined, 'not set: containerd default');
  assert.equal(c.sandboxImage?.value, 'registry.k8s.io/pause:3.6');
  assert.equal(c.sandboxImage?.key, 'plugins."io.containerd.grpc.v1.cri".sandbox_image');
});

test("an empty file: containerd's defaults (cgroupfs, /opt/cni/bin, /etc/cni/net.d), no sandbox image claimed", () => {
  for (const text of ['version = 3\n', 'version = 2\n', '']) {
    const c = containerdConfigFacts([file('/etc/containerd/config.toml', text)]);
    assert.equal(c.cgroupDriver.value, 'cgroupfs');
    assert.equal(c.cgroupDriver.file, undefined);
    assert.deepEqual(c.cniBinDirs.value, ['/opt/cni/bin']);
    assert.equal(c.cniConfDir.value, '/etc/cni/net.d');
    assert.equal(c.restrictOOMScoreAdj.value, false);
    assert.equal(c.sandboxImage, undefined);
  }
  // version 1 (no version line) named the plugin "cri"
  const v1 = containerdConfigFacts([file('/c.toml', '[plugins.cri]\n  sandbox_image = "k8s.gcr.io/pause:3.2"\n')]);
  assert.equal(v1.version, 1);
  assert.equal(v1.sandboxImage?.key, 'plugins.cri.sandbox_image');
});

test('imports: a later file replaces a whole plugin table, as containerd merges its plugins', () => {
  const main = file('/etc/containerd/config.toml', `${V3}imports = ["/etc/containerd/conf.d/10-cni.toml"]\n`);
  const drop = file(
    '/etc/containerd/conf.d/10-cni.toml',
    `version = 3\n[plugins.'io.containerd.cri.v1.runtime'.cni]\n  conf_dir = "/run/flannel/net.d"\n`,
  );
  const c = containerdConfigFacts([main, drop]);
  assert.equal(c.cniConfDir.value, '/run/flannel/net.d');
  assert.equal(c.cniConfDir.file, '/etc/containerd/conf.d/10-cni.toml');
  // the runtime table of the main file is gone with it: SystemdCgroup falls back to the default
  assert.equal(c.cgroupDriver.value, 'cgroupfs');
  // the images plugin was not in the import: still the main file's
  assert.equal(c.sandboxImage?.file, '/etc/containerd/config.toml');
  assert.deepEqual(c.files, ['/etc/containerd/config.toml', '/etc/containerd/conf.d/10-cni.toml']);
});

test('a value of the wrong type is refused with the file and key (containerd would not start)', () => {
  assert.throws(
    () =>
      containerdConfigFacts([
        file('/x.toml', `version = 3\n[plugins.'io.containerd.cri.v1.runtime']\n  restrict_oom_score_adj = "yes"\n`),
      ]),
    /^Error: \/x\.toml: plugins\."io\.containerd\.cri\.v1\.runtime"\.restrict_oom_score_adj must be true or false, got "yes"$/,
  );
});

test('socketPath: unix endpoints in the spellings crictl accepts', () => {
  assert.equal(socketPath('unix:///run/containerd/containerd.sock'), '/run/containerd/containerd.sock');
  assert.equal(socketPath('/run/containerd/containerd.sock'), '/run/containerd/containerd.sock');
  assert.equal(socketPath('tcp://127.0.0.1:1234'), undefined);
});

test('readContainerdConfig: the containerd process serving the socket, its --config and imports, read from disk', async () => {
  // A real process named "containerd" (node through a symlink of that name) started with --config
  // relative to its working directory, serving (by its config) a socket in a directory of our own.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-ctdcfg-'));
  const bin = path.join(dir, 'containerd');
  fs.symlinkSync(process.execPath, bin);
  const sock = path.join(dir, 'containerd.sock');
  fs.mkdirSync(path.join(dir, 'conf.d'));
  fs.writeFileSync(
    path.join(dir, 'config.toml'),
    `version = 3\nimports = ["conf.d/*.toml"]\n[grpc]\n  address = "${sock}"\n${V3.replace('version = 3\n', '')}`,
  );
  fs.writeFileSync(
    path.join(dir, 'conf.d', '50-images.toml'),
    `version = 3\n[plugins.'io.containerd.cri.v1.images'.pinned_images]\n  sandbox = "localhost/pause:own"\n`,
  );
  const child = spawn(bin, ['-e', 'setTimeout(() => {}, 30000)', '--', '--config', 'config.toml'], {
    cwd: dir,
    stdio: 'ignore',
  });
  try {
    // wait until /proc shows it
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      try {
        if (fs.readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').includes('--config')) break;
      } catch {
        /* not yet */
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    const read = readContainerdConfig({
      endpoint: `unix://${sock}`,
      parseToml: (t) => parse(t) as Record<string, unknown>,
    });
    assert.ok(read.found, JSON.stringify(read));
    if (!read.found) return;
    assert.equal(read.via, `containerd pid ${child.pid} --config config.toml`);
    assert.deepEqual(read.config.files, [path.join(dir, 'config.toml'), path.join(dir, 'conf.d', '50-images.toml')]);
    assert.equal(read.config.cgroupDriver.value, 'systemd');
    assert.equal(read.config.sandboxImage?.value, 'localhost/pause:own');
    const lines = containerdConfigLines(read);
    assert.match(
      lines[0],
      new RegExp(
        `^containerd config: ${dir}/config\\.toml \\(version 3, imports ${dir}/conf\\.d/50-images\\.toml; containerd pid \\d+ --config config\\.toml\\)$`,
      ),
    );
    assert.ok(
      lines.includes('  restrict_oom_score_adj: true (plugins."io.containerd.cri.v1.runtime".restrict_oom_score_adj)'),
      lines.join('\n'),
    );

    // another socket: not this containerd
    const other = readContainerdConfig({
      endpoint: `unix://${dir}/other.sock`,
      parseToml: (t) => parse(t) as Record<string, unknown>,
    });
    assert.equal(other.found, false);
    if (!other.found) assert.match(other.why, new RegExp(`^no containerd process here serves ${dir}/other\\.sock`));
  } finally {
    child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
