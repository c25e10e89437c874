// The node profile: the kubelet's command line, its config file and --config-dir drop-ins (real
// files in a temp directory), kubelet's merge and default rules, and syncpod's precedence on top.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import { parseKubeletArgs } from '../../src/node/kubelet-flags';
import {
  mergePatch,
  parseConfigDocument,
  resolveKubeletSettings,
  KUBELET_DEFAULTS,
} from '../../src/node/kubelet-config';
import { listDropIns, loadKubeletConfigFiles } from '../../src/node/kubelet-files';
import { buildNodeProfile, kubeletUsesRuntimeCgroupDriver, type ProfileInputs } from '../../src/node/profile';
import { parseKubeletVersionOutput } from '../../src/node/kubelet-binary';
import type { KubeletSettings } from '../../src/node/types';

const parseYaml = (t: string) => parse(t, { version: '1.1' });
const HEAD = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';

let dir: string;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-node-profile-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(rel: string, text: string): string {
  const p = path.join(dir, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text);
  return p;
}

/** Settings of a kubelet started with `args` in `dir`, reading the real files written there. */
function kubelet(args: string[]): KubeletSettings {
  const cl = parseKubeletArgs(args, 'kubelet pid 1');
  return resolveKubeletSettings(loadKubeletConfigFiles(cl, { cwd: dir, rootPrefix: '' }, parseYaml));
}

describe('kubelet command line (pflag rules)', () => {
  const cases: Array<[string, string[], Record<string, unknown>]> = [
    [
      '--name=value and --name value',
      ['--config=/a.yaml', '--cgroup-driver', 'systemd'],
      { configFile: '/a.yaml', cgroupDriver: 'systemd' },
    ],
    [
      'underscores equal dashes',
      ['--cgroup_driver=systemd', '--root_dir=/r'],
      { cgroupDriver: 'systemd', rootDir: '/r' },
    ],
    [
      'the last occurrence wins',
      ['--cluster-domain=a.local', '--cluster-domain=b.local'],
      { clusterDomain: 'b.local' },
    ],
    [
      '--cluster-dns accumulates, comma-separated',
      ['--cluster-dns=10.0.0.10,10.0.0.11', '--cluster-dns', '10.0.0.12'],
      { clusterDNS: ['10.0.0.10', '10.0.0.11', '10.0.0.12'] },
    ],
    [
      '--allowed-unsafe-sysctls accumulates, comma-separated, patterns kept',
      ['--allowed-unsafe-sysctls=kernel.msg*,net.core.somaxconn', '--allowed-unsafe-sysctls', 'net.ipv4.route.*'],
      { allowedUnsafeSysctls: ['kernel.msg*', 'net.core.somaxconn', 'net.ipv4.route.*'] },
    ],
    [
      'a bare boolean flag does not take the next word',
      ['--cgroups-per-qos', '--config', '/c.yaml'],
      { cgroupsPerQOS: true, configFile: '/c.yaml' },
    ],
    ['--cgroups-per-qos=false', ['--cgroups-per-qos=false'], { cgroupsPerQOS: false }],
    [
      'an unknown flag with a value is skipped with its value',
      ['--kubeconfig', '/etc/kubernetes/kubelet.conf', '--config=/x'],
      { configFile: '/x' },
    ],
    ['after -- nothing is a flag', ['--', '--config=/x'], {}],
    [
      '--hostname-override, --config-dir',
      ['--hostname-override=Node-1', '--config-dir=/etc/kubelet.conf.d'],
      { hostnameOverride: 'Node-1', configDir: '/etc/kubelet.conf.d' },
    ],
  ];
  for (const [name, argv, want] of cases) {
    test(name, () => {
      const cl = parseKubeletArgs(argv, 'kubelet pid 1');
      const got: Record<string, unknown> = {};
      for (const k of ['configFile', 'configDir', 'rootDir', 'hostnameOverride'] as const)
        if (cl[k] !== undefined) got[k] = cl[k];
      for (const [k, v] of Object.entries(cl.fields)) got[k] = v!.value;
      assert.deepEqual(got, want);
    });
  }
  test('--feature-gates merge per gate across occurrences; Go booleans', () => {
    const cl = parseKubeletArgs(['--feature-gates=A=true,B=false', '--feature-gates', 'B=1, C=F'], 'kubelet pid 1');
    assert.deepEqual(cl.featureGates, { A: true, B: true, C: false });
  });
  test('a malformed gate is an error naming the kubelet and flag', () => {
    assert.throws(
      () => parseKubeletArgs(['--feature-gates=Foo'], 'kubelet pid 7'),
      /^SyncpodError: kubelet pid 7: --feature-gates: "Foo" is not NAME=true\|false$/,
    );
  });
});

describe('kubelet config file, drop-ins and defaults', () => {
  test('nothing configured: kubelet defaults, each marked default', () => {
    const s = kubelet([]);
    assert.equal(s.cgroupDriver.value, 'cgroupfs');
    assert.equal(s.cgroupDriver.source, 'default');
    assert.equal(s.clusterDomain.value, '');
    assert.deepEqual(s.clusterDNS.value, []);
    assert.equal(s.podLogsDir.value, '/var/log/pods');
    assert.equal(s.resolvConf.value, '/etc/resolv.conf');
    assert.equal(s.containerRuntimeEndpoint.value, 'unix:///run/containerd/containerd.sock');
    assert.equal(s.rootDir.value, '/var/lib/kubelet');
    assert.equal(s.cgroupsPerQOS.value, true);
    assert.deepEqual(Object.keys(s.featureGates), []);
  });

  test('the config file (relative to the kubelet working directory) gives values with its path', () => {
    const p = write(
      'a/config.yaml',
      `${HEAD}cgroupDriver: systemd\nclusterDNS: [10.96.0.10]\nclusterDomain: cluster.local\npodLogsDir: /srv/pods\nstaticPodPath: manifests\nresolvConf: ../resolv.conf\nallowedUnsafeSysctls: ['net.core.*']\n`,
    );
    const s = kubelet(['--config', 'a/config.yaml']);
    assert.deepEqual(s.allowedUnsafeSysctls, { value: ['net.core.*'], source: 'kubelet-config', from: p });
    assert.deepEqual(s.cgroupDriver, { value: 'systemd', source: 'kubelet-config', from: p });
    assert.deepEqual(s.clusterDNS.value, ['10.96.0.10']);
    assert.equal(s.podLogsDir.value, '/srv/pods');
    // paths in the file are relative to the file's directory
    assert.equal(s.staticPodPath.value, path.join(dir, 'a/manifests'));
    assert.equal(s.resolvConf.value, path.join(dir, 'resolv.conf'));
  });

  test('drop-ins: *.conf only, lexical path order (subdirectories included), later wins, lists replaced, maps merged, null removes', () => {
    write(
      'b/config.yaml',
      `${HEAD}clusterDNS: [10.0.0.1, 10.0.0.2]\nclusterDomain: base.local\ncgroupDriver: systemd\nfeatureGates: {A: true, B: true}\n`,
    );
    write('b/d/10-dns.conf', `${HEAD}clusterDNS: [10.0.0.9]\nfeatureGates: {B: false}\n`);
    write('b/d/20-sub/01-domain.conf', `${HEAD}clusterDomain: sub.local\n`);
    write('b/d/30-null.conf', `${HEAD}cgroupDriver: null\n`);
    write('b/d/40-ignored.yaml', `${HEAD}clusterDomain: ignored.local\n`);
    const s = kubelet(['--config=b/config.yaml', '--config-dir=b/d']);
    assert.deepEqual(listDropIns({ cwd: dir, rootPrefix: '' }, path.join(dir, 'b/d')), [
      path.join(dir, 'b/d/10-dns.conf'),
      path.join(dir, 'b/d/20-sub/01-domain.conf'),
      path.join(dir, 'b/d/30-null.conf'),
    ]);
    assert.deepEqual(s.clusterDNS, { value: ['10.0.0.9'], source: 'drop-in', from: path.join(dir, 'b/d/10-dns.conf') });
    assert.deepEqual(s.clusterDomain, {
      value: 'sub.local',
      source: 'drop-in',
      from: path.join(dir, 'b/d/20-sub/01-domain.conf'),
    });
    assert.deepEqual(s.cgroupDriver, { value: 'cgroupfs', source: 'default' });
    assert.deepEqual(s.featureGates.A, {
      value: true,
      source: 'kubelet-config',
      from: path.join(dir, 'b/config.yaml'),
    });
    assert.deepEqual(s.featureGates.B, { value: false, source: 'drop-in', from: path.join(dir, 'b/d/10-dns.conf') });
  });

  test('kubelet flags win over drop-ins and the file; flag gates merge over config gates per gate', () => {
    write(
      'c/config.yaml',
      `${HEAD}cgroupDriver: cgroupfs\nclusterDomain: file.local\nfeatureGates: {A: true, B: true}\ncontainerRuntimeEndpoint: unix:///file.sock\n`,
    );
    write('c/d/50.conf', `${HEAD}clusterDomain: dropin.local\n`);
    const s = kubelet([
      '--config=c/config.yaml',
      '--config-dir=c/d',
      '--cgroup-driver=systemd',
      '--cluster-domain=flag.local',
      '--feature-gates=B=false',
      '--container-runtime-endpoint=unix:///flag.sock',
    ]);
    assert.deepEqual(s.cgroupDriver, { value: 'systemd', source: 'kubelet-flag', from: '--cgroup-driver' });
    assert.deepEqual(s.clusterDomain, { value: 'flag.local', source: 'kubelet-flag', from: '--cluster-domain' });
    assert.equal(s.containerRuntimeEndpoint.value, 'unix:///flag.sock');
    assert.equal(s.featureGates.A.value, true);
    assert.deepEqual(s.featureGates.B, { value: false, source: 'kubelet-flag', from: '--feature-gates' });
  });

  test('"" takes the default where kubelet defaults on empty; resolvConf "" stays "" (no host resolver)', () => {
    write('e/config.yaml', `${HEAD}cgroupDriver: ""\ncontainerRuntimeEndpoint: ""\npodLogsDir: ""\nresolvConf: ""\n`);
    const s = kubelet(['--config=e/config.yaml']);
    assert.equal(s.cgroupDriver.value, KUBELET_DEFAULTS.cgroupDriver);
    assert.equal(s.containerRuntimeEndpoint.value, KUBELET_DEFAULTS.containerRuntimeEndpoint);
    assert.equal(s.podLogsDir.value, KUBELET_DEFAULTS.podLogsDir);
    assert.deepEqual(s.resolvConf, { value: '', source: 'kubelet-config', from: path.join(dir, 'e/config.yaml') });
  });

  test('JSON config files are read too; YAML 1.1 booleans as the kubelet reads them', () => {
    write(
      'f/config.json',
      JSON.stringify({
        apiVersion: 'kubelet.config.k8s.io/v1beta1',
        kind: 'KubeletConfiguration',
        cgroupsPerQOS: false,
      }),
    );
    assert.equal(kubelet(['--config=f/config.json']).cgroupsPerQOS.value, false);
    write('f/yes.yaml', `${HEAD}featureGates:\n  A: yes\n`);
    assert.equal(kubelet(['--config=f/yes.yaml']).featureGates.A.value, true);
  });

  const bad: Array<[string, string, RegExp]> = [
    ['an empty file', '', /kubelet config \S+empty\.yaml: the file is empty$/],
    ['not YAML', `${HEAD}cgroupDriver: [systemd\n`, /kubelet config \S+: /],
    [
      'no apiVersion/kind',
      'cgroupDriver: systemd\n',
      /apiVersion\/kind must be kubelet\.config\.k8s\.io\/v1beta1 KubeletConfiguration, got no apiVersion\/kind$/,
    ],
    ['another kind', 'apiVersion: v1\nkind: Pod\n', /got v1 Pod$/],
    [
      'an unknown cgroup driver',
      `${HEAD}cgroupDriver: system\n`,
      /cgroupDriver: must be cgroupfs or systemd, got "system"$/,
    ],
    [
      'allowedUnsafeSysctls not a list',
      `${HEAD}allowedUnsafeSysctls: net.core.*\n`,
      /allowedUnsafeSysctls: expected a list of sysctl names or patterns, got "net\.core\.\*"$/,
    ],
    ['clusterDNS not an IP', `${HEAD}clusterDNS: [kube-dns]\n`, /clusterDNS\[0\]: "kube-dns" is not an IP address$/],
    [
      'a gate that is not a boolean',
      `${HEAD}featureGates: {A: maybe}\n`,
      /featureGates\.A: expected true or false, got "maybe"$/,
    ],
  ];
  for (const [name, text, re] of bad) {
    test(`invalid config: ${name} -> one line naming file and field`, () => {
      const p = write(`bad/${name.replace(/\W+/g, '-')}${name === 'an empty file' ? '/empty' : ''}.yaml`, text);
      assert.throws(
        () => kubelet([`--config=${p}`]),
        (err: Error) =>
          err.name === 'SyncpodError' && re.test(err.message) && err.message.includes(p) && !err.message.includes('\n'),
      );
    });
  }
  test('an unreadable config file names the path', () => {
    assert.throws(
      () => kubelet(['--config=/nonexistent/kubelet.yaml']),
      /^SyncpodError: kubelet config \/nonexistent\/kubelet\.yaml: no such file or directory$/,
    );
  });
  test('podLogsDir: relative in the file is resolved against its directory; relative in a drop-in is refused', () => {
    write('h/config.yaml', `${HEAD}podLogsDir: logs\n`);
    assert.equal(kubelet(['--config=h/config.yaml']).podLogsDir.value, path.join(dir, 'h/logs'));
    const d = write('h/d/10.conf', `${HEAD}podLogsDir: logs\n`);
    assert.throws(
      () => kubelet(['--config=h/config.yaml', '--config-dir=h/d']),
      new RegExp(`^SyncpodError: kubelet config ${d}: podLogsDir: must be an absolute path, got "logs"$`),
    );
  });
  test('a drop-in without apiVersion/kind is refused as kubelet refuses it', () => {
    write('g/d/10.conf', 'clusterDomain: x.local\n');
    assert.throws(() => kubelet(['--config-dir=g/d']), /10\.conf: apiVersion\/kind must be/);
  });
  test('parseConfigDocument keeps fields syncpod does not read', () => {
    assert.deepEqual(parseConfigDocument({ path: '/x', text: `${HEAD}maxPods: 50\n` }, parseYaml), { maxPods: 50 });
  });
});

describe('JSON merge patch (RFC 7386)', () => {
  const cases: Array<[string, unknown, unknown, unknown]> = [
    ['scalars are replaced', { a: 1 }, { a: 2 }, { a: 2 }],
    ['lists are replaced', { a: [1, 2] }, { a: [3] }, { a: [3] }],
    ['mappings merge', { a: { x: 1, y: 2 } }, { a: { y: 3, z: 4 } }, { a: { x: 1, y: 3, z: 4 } }],
    ['null removes', { a: 1, b: 2 }, { a: null }, { b: 2 }],
  ];
  for (const [name, target, patch, want] of cases)
    test(name, () => assert.deepEqual(mergePatch(target as never, patch as never), want));
});

describe('node profile precedence', () => {
  const settings = (over: Partial<KubeletSettings> = {}): KubeletSettings => ({
    ...kubelet([]),
    ...over,
  });
  const inputs = (over: Partial<ProfileInputs> = {}): ProfileInputs => ({
    flags: {},
    defaultRuntimeEndpoints: ['unix:///run/containerd/containerd.sock', 'unix:///run/crio/crio.sock'],
    defaultKubeletVersion: '1.33',
    hostname: 'Host-A',
    warnings: [],
    ...over,
  });
  const withKubelet = (s: KubeletSettings, version = 'v1.36.2') => ({
    info: { pid: 9, exe: '/usr/bin/kubelet', args: [], dropIns: [] },
    settings: s,
    version,
  });

  test('no kubelet: syncpod defaults as before detection existed', () => {
    const p = buildNodeProfile(inputs());
    assert.equal(p.detected, false);
    assert.deepEqual(p.kubeletVersion, { value: '1.33', source: 'default' });
    assert.equal(p.cgroupDriver.value, 'cgroupfs');
    assert.equal(p.clusterDomain.value, 'cluster.local');
    assert.equal(p.podLogsDir.value, '/var/log/pods');
    assert.deepEqual(p.nodeName, { value: 'host-a', source: 'default', from: 'hostname' });
    assert.equal(p.runtimeEndpoint.source, 'default');
  });

  test('kubelet: its version, its settings; the kubelet default for clusterDomain is empty', () => {
    const p = buildNodeProfile(
      inputs({
        kubelet: withKubelet(
          settings({ cgroupDriver: { value: 'systemd', source: 'kubelet-config', from: '/k.yaml' } }),
        ),
      }),
    );
    assert.deepEqual(p.kubeletVersion, {
      value: 'v1.36.2',
      source: 'kubelet-binary',
      from: '/usr/bin/kubelet --version',
    });
    assert.deepEqual(p.cgroupDriver, { value: 'systemd', source: 'kubelet-config', from: '/k.yaml' });
    assert.equal(p.clusterDomain.value, '');
    assert.equal(p.runtimeEndpoint.value, 'unix:///run/containerd/containerd.sock');
    assert.equal(p.runtimeEndpoint.source, 'default');
  });

  test('syncpod flags win over the kubelet', () => {
    const p = buildNodeProfile(
      inputs({
        kubelet: withKubelet(
          settings({ clusterDomain: { value: 'k.local', source: 'kubelet-config', from: '/k.yaml' } }),
        ),
        flags: {
          kubeletVersion: '1.35',
          clusterDomain: 'flag.local',
          cgroupDriver: 'systemd',
          featureGates: { X: false },
          nodeName: 'n1',
        },
      }),
    );
    assert.deepEqual(p.kubeletVersion, { value: '1.35', source: 'flag', from: '--kubelet-version' });
    assert.deepEqual(p.clusterDomain, { value: 'flag.local', source: 'flag', from: '--cluster-domain' });
    assert.equal(p.cgroupDriver.source, 'flag');
    assert.deepEqual(p.featureGates.X, { value: false, source: 'flag', from: '--feature-gates' });
    assert.equal(p.nodeName.value, 'n1');
  });

  test("crictl sources win for the endpoint; then the kubelet's containerRuntimeEndpoint; the image endpoint follows", () => {
    const s = settings({
      containerRuntimeEndpoint: { value: 'unix:///k.sock', source: 'kubelet-config', from: '/k.yaml' },
    });
    assert.equal(
      buildNodeProfile(
        inputs({
          kubelet: withKubelet(s),
          crictlRuntimeEndpoint: { value: 'unix:///env.sock', source: 'env', from: 'CONTAINER_RUNTIME_ENDPOINT' },
        }),
      ).runtimeEndpoint.value,
      'unix:///env.sock',
    );
    const p = buildNodeProfile(inputs({ kubelet: withKubelet(s) }));
    assert.deepEqual(p.runtimeEndpoint, { value: 'unix:///k.sock', source: 'kubelet-config', from: '/k.yaml' });
    assert.equal(p.imageEndpoint.value, 'unix:///k.sock');
  });

  test('--hostname-override names the node, lowercased as kubelet does', () => {
    const p = buildNodeProfile(
      inputs({
        kubelet: withKubelet(
          settings({ hostnameOverride: { value: ' Node-7 ', source: 'kubelet-flag', from: '--hostname-override' } }),
        ),
      }),
    );
    assert.deepEqual(p.nodeName, { value: 'node-7', source: 'kubelet-flag', from: '--hostname-override' });
  });

  test('runtime cgroup driver: kubelet >= 1.31 takes it, with a warning when its own setting differs', () => {
    const rt = { answered: true as const, cgroupDriver: 'systemd' as const, endpoint: 'unix:///r.sock' };
    const p = buildNodeProfile(inputs({ kubelet: withKubelet(settings(), 'v1.33.1'), runtimeCgroupDriver: rt }));
    assert.deepEqual(p.cgroupDriver, { value: 'systemd', source: 'runtime', from: 'RuntimeConfig on unix:///r.sock' });
    assert.match(
      p.warnings[0],
      /cgroupDriver is cgroupfs by default but the runtime reports systemd; kubelet v1\.33\.1 uses the runtime's$/,
    );
    const old = buildNodeProfile(inputs({ kubelet: withKubelet(settings(), 'v1.30.4'), runtimeCgroupDriver: rt }));
    assert.equal(old.cgroupDriver.value, 'cgroupfs');
    assert.match(old.warnings[0], /kubelet v1\.30\.4 uses its own, and pods may fail to start$/);
    const unimpl = buildNodeProfile(
      inputs({
        kubelet: withKubelet(settings()),
        runtimeCgroupDriver: { answered: false, why: 'RuntimeConfig is not implemented' },
      }),
    );
    assert.equal(unimpl.cgroupDriver.source, 'default');
    assert.deepEqual(unimpl.warnings, []);
  });

  test('KubeletCgroupDriverFromCRI by version and gate', () => {
    assert.equal(kubeletUsesRuntimeCgroupDriver('v1.30.0', {}), false);
    assert.equal(kubeletUsesRuntimeCgroupDriver('v1.30.0', { KubeletCgroupDriverFromCRI: true }), true);
    assert.equal(kubeletUsesRuntimeCgroupDriver('1.31', {}), true);
    assert.equal(kubeletUsesRuntimeCgroupDriver('1.32', { KubeletCgroupDriverFromCRI: false }), false);
    assert.equal(kubeletUsesRuntimeCgroupDriver('1.34', { KubeletCgroupDriverFromCRI: false }), true);
  });
});

describe('kubelet --version output', () => {
  const cases: Array<[string, string | undefined]> = [
    ['Kubernetes v1.36.2', 'v1.36.2'],
    ['Kubernetes v1.33.4-eks-1234\n', 'v1.33.4-eks-1234'],
    ['Kubernetes v1.31.0+k3s1', 'v1.31.0+k3s1'],
    ['kubelet version 1.36', undefined],
    ['Kubernetes v1.x', undefined],
  ];
  for (const [out, want] of cases) test(JSON.stringify(out), () => assert.equal(parseKubeletVersionOutput(out), want));
});

describe('kubelet flags the kubelet itself would refuse', () => {
  test('--cgroup-driver other than cgroupfs/systemd', () => {
    assert.throws(
      () => parseKubeletArgs(['--cgroup-driver=cgroupsfs'], 'kubelet pid 3'),
      /^SyncpodError: kubelet pid 3: --cgroup-driver: must be cgroupfs or systemd, got "cgroupsfs"$/,
    );
  });
  test('--cluster-dns that is not an IP', () => {
    assert.throws(
      () => parseKubeletArgs(['--cluster-dns=10.0.0.1,dns'], 'kubelet pid 3'),
      /--cluster-dns: "dns" is not an IP address$/,
    );
  });
});

describe('parsed config cache (stat-keyed)', () => {
  test('a second read takes the parsed document from the cache; a changed file is parsed again', () => {
    const cacheDir = path.join(dir, 'cache');
    const file = write('cache/kubelet.yaml', `${HEAD}clusterDomain: one.local\n`);
    let parses = 0;
    const counting = (t: string) => {
      parses++;
      return parseYaml(t);
    };
    const load = () =>
      loadKubeletConfigFiles(
        parseKubeletArgs([`--config=${file}`], 'kubelet pid 1'),
        { cwd: dir, rootPrefix: '', cacheDir },
        counting,
      );
    assert.equal(load().configFile!.doc.clusterDomain, 'one.local');
    assert.equal(load().configFile!.doc.clusterDomain, 'one.local');
    assert.equal(parses, 1);
    fs.writeFileSync(file, `${HEAD}clusterDomain: two.local\n`);
    assert.equal(load().configFile!.doc.clusterDomain, 'two.local');
    assert.equal(parses, 2);
  });
  test('an invalid file is not cached: the error comes every time', () => {
    const cacheDir = path.join(dir, 'cache2');
    const file = write('cache2/bad.yaml', `${HEAD}cgroupDriver: nope\n`);
    const load = () =>
      loadKubeletConfigFiles(
        parseKubeletArgs([`--config=${file}`], 'kubelet pid 1'),
        { cwd: dir, rootPrefix: '', cacheDir },
        parseYaml,
      );
    assert.throws(load, /cgroupDriver: must be cgroupfs or systemd/);
    assert.throws(load, /cgroupDriver: must be cgroupfs or systemd/);
  });
});
