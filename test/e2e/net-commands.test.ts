// net-setup / net-check / net-teardown against the real containerd of the lab, with Debian's real
// CNI plugins (/usr/lib/cni) and a network of this test's own: bridge spnet<rand> + host-local in
// 10.198.<rand>.0/24, IPAM data, CNI cache and configs in the test's temp dir.
//
// Where the host side lands: the bridge plugin creates its bridge and the veth host ends in the
// namespace it runs in, and syncpod runs plugins in its own. So the CLI is spawned under
// `nsenter --net=/run/netns/<lab netns>` (where the lab's containerd, and so its own CNI, runs):
// the machine's own network namespace is never touched, and a test asserts that.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startLab, type Lab } from '../harness/lab';
import { CriService, type RuntimeMethods } from '../../src/cri/grpc-runtime-service';
import { SYNCPOD, assertOneLineError, syncpod, type RunResult } from './helpers';

const PLUGINS = '/usr/lib/cni';
const rand = randomBytes(3).toString('hex');
const third = 1 + (randomBytes(1)[0] % 250);
const SUBNET_PREFIX = `10.198.${third}.`;
const BRIDGE = `spnet${rand}`;
const NETWORK = `spnet-${rand}`;

let lab: Lab | undefined;
let rt: CriService<RuntimeMethods> | undefined;
let tmp = '';
const pod = { id: '', netns: '', name: 'netpod', namespace: 'team-net', uid: `uid-netpod-${rand}` };
let hostPodId = '';
let stoppedPodId = '';

/** Spawns the built CLI inside the lab's network namespace. */
function syncpodInLab(args: string[], timeoutMs = 60_000): Promise<RunResult> {
  const l = must(lab, 'lab');
  return syncpod(args, { env: l.env, netns: l.netns, timeoutMs });
}

function must<T>(v: T | undefined, what: string): T {
  assert.ok(v !== undefined && v !== '', `${what} was not set up`);
  return v as T;
}

function sh(cmd: string, args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

/** IPv4 addresses (CIDR) of an interface inside the pod's netns, read with ip -j, or null if it does not exist. */
function podAddresses(ifname: string): string[] | null {
  const r = sh('nsenter', [`--net=${pod.netns}`, '--', 'ip', '-j', 'addr', 'show', 'dev', ifname]);
  if (r.code !== 0) return null;
  const links = JSON.parse(r.stdout) as Array<{
    addr_info: Array<{ family: string; local: string; prefixlen: number }>;
  }>;
  return links.flatMap((l) => l.addr_info.filter((a) => a.family === 'inet').map((a) => `${a.local}/${a.prefixlen}`));
}

const linkIn = (netns: string, name: string): boolean => sh('ip', ['-n', netns, 'link', 'show', name]).code === 0;
const linkOnMachine = (name: string): boolean => sh('ip', ['link', 'show', name]).code === 0;

function confDir(name: string, network: string, plugins: object[]): string {
  const dir = path.join(tmp, `conf-${name}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, '10-net.conflist'),
    JSON.stringify({ cniVersion: '1.0.0', name: network, plugins }, null, 2),
  );
  return dir;
}

const bridgePlugin = () => ({
  type: 'bridge',
  bridge: BRIDGE,
  isGateway: true,
  ipMasq: false,
  ipam: { type: 'host-local', ranges: [[{ subnet: `${SUBNET_PREFIX}0/24` }]], dataDir: path.join(tmp, 'ipam') },
});

const cacheDir = () => path.join(tmp, 'cache');
const binDirs = () => `${path.join(tmp, 'bin')}:${PLUGINS}`;
const cacheFile = (network: string, ifname: string) =>
  path.join(cacheDir(), 'results', `${network}-${pod.id}-${ifname}`);
const netArgs = (conf: string) => ['--cni-conf-dir', conf, '--cni-bin-dir', binDirs(), '--cni-cache-dir', cacheDir()];

/** host-local's reservations for the pod in a network: files named by IP whose content starts with the id. */
function reservations(network: string): string[] {
  const dir = path.join(tmp, 'ipam', network);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d+\.\d+\.\d+\.\d+$/.test(f) && fs.readFileSync(path.join(dir, f), 'utf8').startsWith(pod.id))
    .sort();
}

/** Everything a failed or dry run must not leave behind for `network` on eth1. */
function assertNothingLeft(network: string): void {
  assert.equal(podAddresses('eth1'), null, 'no eth1 in the pod');
  assert.deepEqual(reservations(network), [], 'no address reserved by host-local');
  assert.equal(fs.existsSync(cacheFile(network, 'eth1')), false, 'no CNI cache entry');
}

function fakePlugin(name: string, body: string): void {
  const file = path.join(tmp, 'bin', name);
  fs.writeFileSync(file, `#!/bin/sh\ncat >/dev/null\n${body}\n`);
  fs.chmodSync(file, 0o755);
}

async function runSandbox(name: string, uid: string, hostNetwork: boolean): Promise<string> {
  const l = must(lab, 'lab');
  const config = {
    metadata: { name, namespace: pod.namespace, uid, attempt: 0 },
    hostname: hostNetwork ? '' : name,
    logDirectory: path.join(l.podLogsRoot, `${pod.namespace}_${name}_${uid}`),
    labels: {
      'io.kubernetes.pod.name': name,
      'io.kubernetes.pod.namespace': pod.namespace,
      'io.kubernetes.pod.uid': uid,
    },
    annotations: {},
    linux: { securityContext: { namespaceOptions: { network: hostNetwork ? 'NODE' : 'POD', pid: 'POD', ipc: 'POD' } } },
  };
  const res = await must(rt, 'CRI client').call('RunPodSandbox', { config } as any, { timeoutMs: 60_000 });
  return res.podSandboxId;
}

before(async () => {
  for (const p of ['bridge', 'host-local', 'tuning']) {
    assert.ok(fs.existsSync(path.join(PLUGINS, p)), `missing ${PLUGINS}/${p}: install containernetworking-plugins`);
  }
  assert.ok(fs.existsSync(SYNCPOD), 'build the CLI first (npm run build)');
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-net-'));
  fs.mkdirSync(path.join(tmp, 'bin'));
  lab = await startLab();
  rt = new CriService<RuntimeMethods>(lab.endpoint, 'RuntimeService', { timeoutMs: 60_000 });
  pod.id = await runSandbox(pod.name, pod.uid, false);
  const verbose = await rt.call('PodSandboxStatus', { podSandboxId: pod.id, verbose: true });
  const spec = JSON.parse(verbose.info.info).runtimeSpec;
  pod.netns = spec.linux.namespaces.find((n: { type: string }) => n.type === 'network').path;
  hostPodId = await runSandbox('hostpod', `uid-hostpod-${rand}`, true);
  stoppedPodId = await runSandbox('stoppedpod', `uid-stoppedpod-${rand}`, false);
  await rt.call('StopPodSandbox', { podSandboxId: stoppedPodId }, { timeoutMs: 60_000 });
});

after(async () => {
  // Best effort, each step on its own: DEL what may still be attached, then the lab (its netns
  // holds the bridge and veth host ends) and the temp dir.
  if (lab !== undefined && pod.id !== '' && fs.existsSync(path.join(tmp, 'conf-main'))) {
    await syncpodInLab(['net-teardown', pod.id, '--ifname', 'eth1', ...netArgs(path.join(tmp, 'conf-main'))]).catch(
      () => undefined,
    );
  }
  rt?.close();
  await lab?.stop().catch(() => undefined);
  if (tmp !== '') fs.rmSync(tmp, { recursive: true, force: true });
  if (linkOnMachine(BRIDGE)) sh('ip', ['link', 'del', BRIDGE]);
});

describe('net-setup / net-check / net-teardown on a second interface', () => {
  let main = '';
  let address = '';

  test('--dry-run prints the exact env and stdin per plugin and runs nothing', async () => {
    main = confDir('main', NETWORK, [bridgePlugin(), { type: 'tuning' }]);
    const r = await syncpodInLab(['net-setup', pod.id.slice(0, 12), '--ifname', 'eth1', '--dry-run', ...netArgs(main)]);
    assert.equal(r.code, 0, r.stderr);
    const out = r.stdout;
    assert.match(out, /^ADD network spnet-[0-9a-f]{6} \(config from conf-dir\): 2 plugin run\(s\)$/m);
    assert.match(out, /^# 1\. ADD bridge \(\/usr\/lib\/cni\/bridge\)$/m);
    assert.match(out, /^# 2\. ADD tuning \(\/usr\/lib\/cni\/tuning\)$/m);
    for (const line of [
      'CNI_COMMAND=ADD',
      `CNI_CONTAINERID=${pod.id}`,
      `CNI_NETNS=${pod.netns}`,
      'CNI_IFNAME=eth1',
      `CNI_ARGS=IgnoreUnknown=1;K8S_POD_NAMESPACE=${pod.namespace};K8S_POD_NAME=${pod.name};K8S_POD_INFRA_CONTAINER_ID=${pod.id};K8S_POD_UID=${pod.uid}`,
      `CNI_PATH=${binDirs()}`,
    ]) {
      assert.equal(out.split('\n').filter((l) => l === line).length, 2, `${line} once per plugin`);
    }
    assert.match(out, /"bridge": "spnet[0-9a-f]{6}"/);
    assert.match(out, /"prevResult": "<result of plugin 0 \(bridge\)>"/);
    assertNothingLeft(NETWORK);
    assert.equal(linkIn(must(lab, 'lab').netns, BRIDGE), false, 'no bridge created');
  });

  test('--dry-run -o json: the same invocations as data', async () => {
    const r = await syncpodInLab([
      'net-setup',
      pod.id,
      '--ifname',
      'eth1',
      '--dry-run',
      '-o',
      'json',
      ...netArgs(main),
    ]);
    assert.equal(r.code, 0, r.stderr);
    const plan = JSON.parse(r.stdout);
    assert.equal(plan.command, 'ADD');
    assert.deepEqual(
      plan.invocations.map((i: any) => i.type),
      ['bridge', 'tuning'],
    );
    assert.equal(plan.invocations[0].env.CNI_NETNS, pod.netns);
    assert.equal(plan.invocations[0].stdin.name, NETWORK);
    assert.equal(plan.invocations[0].stdin.cniVersion, '1.0.0');
    assertNothingLeft(NETWORK);
  });

  test('net-setup --ifname eth1 attaches a second interface with an address in the test subnet', async () => {
    const r = await syncpodInLab(['net-setup', pod.id, '--ifname', 'eth1', '-o', 'json', ...netArgs(main)]);
    assert.equal(r.code, 0, r.stderr);
    const outcome = JSON.parse(r.stdout);
    assert.equal(outcome.network, NETWORK);
    assert.equal(outcome.ifname, 'eth1');
    assert.deepEqual(
      outcome.invocations.map((i: any) => `${i.command} ${i.type} ${i.ok}`),
      ['ADD bridge true', 'ADD tuning true'],
    );
    const ips = outcome.result.ips.map((i: any) => i.address);
    assert.equal(ips.length, 1);
    address = ips[0];
    assert.ok(address.startsWith(SUBNET_PREFIX) && address.endsWith('/24'), address);
    // What the operator would check: the interface inside the pod, the reservation, the cache.
    assert.deepEqual(podAddresses('eth1'), [address]);
    assert.deepEqual(reservations(NETWORK), [address.split('/')[0]]);
    assert.ok(fs.existsSync(cacheFile(NETWORK, 'eth1')), 'cache entry written');
    assert.deepEqual(
      podAddresses('eth0')?.every((a) => !a.startsWith(SUBNET_PREFIX)),
      true,
      "containerd's eth0 untouched",
    );
  });

  test("the bridge and veth host end live in the lab's namespace, not on the machine", () => {
    assert.equal(linkIn(must(lab, 'lab').netns, BRIDGE), true);
    assert.equal(linkOnMachine(BRIDGE), false);
  });

  test('net-check passes (table view)', async () => {
    const r = await syncpodInLab(['net-check', pod.id, '--ifname', 'eth1', ...netArgs(main)]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^network ${NETWORK} checked for sandbox ${pod.id} on eth1: ok$`, 'm'));
    assert.match(r.stdout, /^CHECK\s+0:bridge\s+ok$/m);
    assert.match(r.stdout, /^CHECK\s+1:tuning\s+ok$/m);
  });

  test('net-setup on eth1 again is refused: the interface exists', async () => {
    const r = await syncpodInLab(['net-setup', pod.id, '--ifname', 'eth1', ...netArgs(main)]);
    assertOneLineError(
      r,
      /^syncpod: sandbox [0-9a-f]{64} already has eth1: interface eth1 already exists in its network namespace; pick another --ifname or run net-teardown first$/,
    );
    assert.deepEqual(podAddresses('eth1'), [address], 'still attached once');
  });

  test('net-teardown removes eth1, releases the address and the cache entry (DEL in reverse order)', async () => {
    const r = await syncpodInLab(['net-teardown', pod.id, '--ifname', 'eth1', '-o', 'json', ...netArgs(main)]);
    assert.equal(r.code, 0, r.stderr);
    const outcome = JSON.parse(r.stdout);
    assert.equal(outcome.configSource, 'cache');
    assert.deepEqual(
      outcome.invocations.map((i: any) => `${i.command} ${i.type}`),
      ['DEL tuning', 'DEL bridge'],
    );
    assertNothingLeft(NETWORK);
    assert.ok(podAddresses('eth0') !== null, 'eth0 still there');
  });

  test('a second net-teardown succeeds too (idempotent)', async () => {
    const r = await syncpodInLab(['net-teardown', pod.id, '--ifname', 'eth1', ...netArgs(main)]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      new RegExp(`^network ${NETWORK} torn down for sandbox ${pod.id} on eth1 \\(config from conf-dir\\)$`, 'm'),
    );
    assert.match(r.stdout, /note: no cached result/);
    assertNothingLeft(NETWORK);
  });

  test('net-check after teardown says there is nothing to check', async () => {
    const r = await syncpodInLab(['net-check', pod.id, '--ifname', 'eth1', ...netArgs(main)]);
    assertOneLineError(r, /^syncpod: no cached CNI result for sandbox [0-9a-f]{64} on eth1 in .*: nothing to check$/);
  });

  test('net-teardown --dry-run shows DEL in reverse order and runs nothing', async () => {
    const r = await syncpodInLab(['net-teardown', pod.id, '--ifname', 'eth1', '--dry-run', ...netArgs(main)]);
    assert.equal(r.code, 0, r.stderr);
    const order = [...r.stdout.matchAll(/^# \d\. DEL (\S+)/gm)].map((m) => m[1]);
    assert.deepEqual(order, ['tuning', 'bridge']);
    assert.match(r.stdout, /^CNI_COMMAND=DEL$/m);
  });
});

describe('refusals', () => {
  test('net-setup on eth0, which containerd set up in RunPodSandbox, is refused', async () => {
    const r = await syncpodInLab(['net-setup', pod.id, ...netArgs(path.join(tmp, 'conf-main'))]);
    assertOneLineError(
      r,
      /^syncpod: sandbox [0-9a-f]{64} already has eth0: interface eth0 already exists in its network namespace \(set up by the runtime in RunPodSandbox\); pick another --ifname or run net-teardown first$/,
    );
  });

  test('a host-network sandbox is refused', async () => {
    const r = await syncpodInLab(['net-setup', hostPodId, '--ifname', 'eth1', ...netArgs(path.join(tmp, 'conf-main'))]);
    assertOneLineError(
      r,
      new RegExp(`^syncpod: sandbox ${hostPodId} uses the host network: there is no pod network namespace to set up$`),
    );
  });

  test('a NOTREADY sandbox is refused for setup', async () => {
    const r = await syncpodInLab([
      'net-setup',
      stoppedPodId,
      '--ifname',
      'eth1',
      ...netArgs(path.join(tmp, 'conf-main')),
    ]);
    assertOneLineError(r, /^syncpod: sandbox [0-9a-f]{64} is NOTREADY: its network namespace is gone/);
  });

  test('--dry-run on eth0 still prints the plan, and warns on stderr that a real run would refuse', async () => {
    const r = await syncpodInLab(['net-setup', pod.id, '--dry-run', ...netArgs(path.join(tmp, 'conf-main'))]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^CNI_IFNAME=eth0$/m);
    assert.doesNotMatch(r.stdout, /refuse/);
    assert.match(r.stderr, /^WARN: a real run would refuse: sandbox [0-9a-f]{64} already has eth0/m);
  });

  test('net-teardown of a NOTREADY sandbox still runs DEL (without a netns) and succeeds', async () => {
    const r = await syncpodInLab([
      'net-teardown',
      stoppedPodId,
      '--ifname',
      'eth1',
      '-o',
      'json',
      ...netArgs(path.join(tmp, 'conf-main')),
    ]);
    assert.equal(r.code, 0, r.stderr);
    const outcome = JSON.parse(r.stdout);
    assert.equal(outcome.configSource, 'conf-dir');
    assert.deepEqual(
      outcome.invocations.map((i: any) => `${i.command} ${i.type} ${i.ok}`),
      ['DEL tuning true', 'DEL bridge true'],
    );
  });

  test('bad flags and unknown sandboxes are one-line errors', async () => {
    assertOneLineError(
      await syncpodInLab(['net-setup', pod.id, '-o', 'yaml']),
      /^syncpod: --output: must be one of table, json, got "yaml"$/,
    );
    assertOneLineError(
      await syncpodInLab(['net-setup', pod.id, '--timeout', 'soon']),
      /^syncpod: --timeout: invalid duration "soon"/,
    );
    assertOneLineError(
      await syncpodInLab(['net-check', 'ffffffffffff']),
      /^syncpod: no pod sandbox matches ID prefix "ffffffffffff": not found$/,
    );
  });
});

describe('broken configurations report one line and leave nothing behind', () => {
  test('a missing plugin binary: nothing runs', async () => {
    const net = `spmiss-${rand}`;
    const conf = confDir('missing', net, [bridgePlugin(), { type: 'syncpod-no-such-plugin' }]);
    const r = await syncpodInLab(['net-setup', pod.id, '--ifname', 'eth1', ...netArgs(conf)]);
    assertOneLineError(
      r,
      new RegExp(
        `^syncpod: CNI plugin "syncpod-no-such-plugin" of network "${net}" not found in ${binDirs()} \\(set --cni-bin-dir\\)$`,
      ),
    );
    assertNothingLeft(net);
  });

  test('a plugin that answers ADD with a CNI error: the chain is deleted again', async () => {
    fakePlugin(
      'sp-fail',
      'if [ "$CNI_COMMAND" = ADD ]; then echo \'{"cniVersion":"1.0.0","code":7,"msg":"refused by the test","details":"on purpose"}\'; exit 1; fi\nexit 0',
    );
    const net = `spfail-${rand}`;
    const conf = confDir('fail', net, [bridgePlugin(), { type: 'sp-fail' }]);
    const r = await syncpodInLab(['net-setup', pod.id, '--ifname', 'eth1', ...netArgs(conf)]);
    assertOneLineError(
      r,
      /^syncpod: network setup failed: CNI plugin "sp-fail" failed \(ADD\): refused by the test \[code 7 \(invalid network config\)\]; details: on purpose; cleanup DEL succeeded$/,
    );
    assertNothingLeft(net);
  });

  test('a hanging plugin is killed at --timeout and the chain is deleted again', async () => {
    fakePlugin('sp-hang', 'if [ "$CNI_COMMAND" = ADD ]; then sleep 30; fi\nexit 0');
    const net = `sphang-${rand}`;
    const conf = confDir('hang', net, [bridgePlugin(), { type: 'sp-hang' }]);
    // --timeout bounds every plugin run (the bridge's ADD and both DELs too) and the runtime calls:
    // 5 s, which the real plugins keep on a loaded machine (at 1 s the bridge's ADD could be the
    // one killed), and sp-hang never does.
    const r = await syncpodInLab(['net-setup', pod.id, '--ifname', 'eth1', '--timeout', '5s', ...netArgs(conf)]);
    assertOneLineError(
      r,
      /^syncpod: network setup failed: CNI plugin "sp-hang" \(ADD\) did not finish within 5000 ms and was killed; cleanup DEL succeeded$/,
    );
    assertNothingLeft(net);
  });

  test('a plugin type with a path separator is refused before anything runs', async () => {
    const net = `sppath-${rand}`;
    const conf = confDir('path', net, [{ ...bridgePlugin(), type: '../bin/bridge' }]);
    const r = await syncpodInLab(['net-setup', pod.id, '--ifname', 'eth1', ...netArgs(conf)]);
    assertOneLineError(
      r,
      new RegExp(
        `^syncpod: CNI plugin type "\\.\\./bin/bridge" in network "${net}" is a path; a type names a binary in --cni-bin-dir$`,
      ),
    );
    assertNothingLeft(net);
  });
});
