// `syncpod doctor` on a real containerd, the network, resources and dns groups: each fault made for
// real on the lab node (its CNI config removed, a plugin binary it names missing, host-local leases
// no sandbox holds until the range is exhausted, IPv4 forwarding off in the runtime's network
// namespace under a running pod, a resolv.conf with systemd-resolved's stub and one with too many
// nameservers, a small tmpfs as the pod log filesystem filled past kubelet's eviction threshold,
// a small tmpfs as the runtime's image filesystem filled past image GC's threshold) and each shown
// ok once repaired. Swap and the cgroup controllers are read as they are (this test does not turn
// swap on or unmount controllers of the machine): their decisions are unit-tested.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUSYBOX_IMAGE, startLab, type Lab } from '../harness/lab';
import { syncpod } from './helpers';
import { nodeFlags, podManifest } from './sync-helpers';

let lab: Lab;
let dir: string;
const mounts: string[] = [];
const run = (args: string[], env: Record<string, string> = {}) =>
  syncpod(args, { env: { ...lab.env, ...env }, timeoutMs: 120000 });
const DOCTOR = ['--no-node-profile', 'doctor', '--pods-api-socket', 'none'];

interface Check {
  id: string;
  status: string;
  summary: string;
  evidence: { name: string; value: string; from: string }[];
  remedy?: string;
}

async function check(id: string, extra: string[] = [], l: Lab = lab): Promise<Check> {
  const r = await syncpod([...DOCTOR, '-o', 'json', '--check', id, ...extra], { env: l.env, timeoutMs: 120000 });
  assert.equal(r.code, 0, r.stderr);
  const c = (JSON.parse(r.stdout).checks as Check[]).find((x) => x.id === id);
  assert.ok(c, `${id} reported`);
  return c;
}

function tmpfs(sizeKiB: number): string {
  const m = fs.mkdtempSync(path.join(dir, 'fs-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKiB}k`, 'tmpfs', m]);
  mounts.push(m);
  return m;
}

before(async () => {
  lab = await startLab();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-doctor-host-'));
});
after(async () => {
  await lab?.stop();
  for (const m of mounts.reverse()) execFileSync('umount', ['-l', m]);
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('doctor: network, resources and dns groups', () => {
  test('a healthy lab node: every check of the three groups is ok or skip, with evidence', async () => {
    const r = await run([...DOCTOR, '-o', 'json', '--check', 'network,resources,dns', ...nodeFlags(lab)]);
    assert.equal(r.code, 0, r.stderr);
    const checks = JSON.parse(r.stdout).checks as Check[];
    for (const id of [
      'network.cni-config',
      'network.cni-plugins',
      'network.ipam-leases',
      'network.ip-forward',
      'network.bridge-nf-call-iptables',
      'resources.cgroup-controllers',
      'resources.swap',
      'resources.imagefs',
      'resources.logfs',
      'dns.resolv-conf',
    ]) {
      const c = checks.find((x) => x.id === id);
      assert.ok(c, `${id} reported`);
      assert.ok(c.status === 'ok' || c.status === 'skip', `${id}: ${c.status}: ${c.summary}`);
    }
    const cfg = checks.find((x) => x.id === 'network.cni-config')!;
    assert.equal(cfg.status, 'ok');
    assert.match(cfg.summary, /syncpod-lab from .*10-syncpod-lab\.conflist/);
    const plugins = checks.find((x) => x.id === 'network.cni-plugins')!;
    assert.deepEqual(plugins.evidence.map((e) => e.value).sort(), [
      '/usr/lib/cni/bridge',
      '/usr/lib/cni/host-local',
      '/usr/lib/cni/portmap',
    ]);
  });

  test('no CNI config, then a plugin binary that does not exist: cni-config and cni-plugins fail; ok once restored', async () => {
    const file = path.join(lab.cniConfDir, '10-syncpod-lab.conflist');
    const original = fs.readFileSync(file, 'utf8');
    fs.rmSync(file);
    const gone = await check('network.cni-config');
    assert.equal(gone.status, 'fail');
    assert.match(gone.summary, /holds no CNI config/);
    assert.equal((await check('network.cni-plugins')).status, 'skip');

    const conf = JSON.parse(original);
    conf.plugins.push({ type: 'syncpod-no-such-plugin' });
    fs.writeFileSync(file, JSON.stringify(conf));
    const missing = await check('network.cni-plugins');
    assert.equal(missing.status, 'fail');
    assert.match(missing.summary, /needs syncpod-no-such-plugin, not found/);
    assert.ok(missing.remedy);

    fs.writeFileSync(file, original);
    assert.equal((await check('network.cni-config')).status, 'ok');
    assert.equal((await check('network.cni-plugins')).status, 'ok');
  });

  test('host-local leases no sandbox holds: warn when leaked, fail when the range is exhausted; ok once removed', async () => {
    const leaseDir = path.join(lab.dir, 'ipam', 'syncpod-lab');
    fs.mkdirSync(leaseDir, { recursive: true });
    const before = new Set(fs.readdirSync(leaseDir));
    const prefix = lab.subnet.replace(/0\/24$/, '');
    const written: string[] = [];
    const lease = (last: number) => {
      const f = path.join(leaseDir, `${prefix}${last}`);
      if (fs.existsSync(f)) return;
      fs.writeFileSync(f, `${'dead'.repeat(16)}\r\neth0`);
      written.push(f);
    };
    for (const n of [200, 201, 202]) lease(n);
    const leaked = await check('network.ipam-leases');
    assert.equal(leaked.status, 'warn', leaked.summary);
    assert.match(leaked.summary, /^3 host-local lease\(s\) of syncpod-lab are held by no Ready sandbox/);
    assert.ok(leaked.evidence.some((e) => e.name === `lease ${prefix}200` && /does not know/.test(e.value)));

    for (let n = 2; n <= 254; n++) lease(n);
    const full = await check('network.ipam-leases');
    assert.equal(full.status, 'fail', full.summary);
    assert.match(full.summary, /exhausted .*253\/253/);

    for (const f of written) fs.rmSync(f);
    assert.deepEqual(new Set(fs.readdirSync(leaseDir)), before);
    assert.equal((await check('network.ipam-leases')).status, 'ok');
  });

  test("IPv4 forwarding off in the runtime's network namespace under a running pod: fail; ok once on", async () => {
    const manifest = path.join(dir, 'fwd.json');
    fs.writeFileSync(manifest, podManifest({ name: 'fwd', containers: [{ name: 'c', image: BUSYBOX_IMAGE }] }));
    const s = await run(['sync', '-y', ...nodeFlags(lab), manifest]);
    assert.equal(s.code, 0, s.stderr);
    const sysctl = (v: string) =>
      execFileSync('ip', ['netns', 'exec', lab.netns, 'sysctl', '-qw', `net.ipv4.ip_forward=${v}`]);
    sysctl('0');
    const off = await check('network.ip-forward');
    assert.equal(off.status, 'fail', off.summary);
    assert.match(off.evidence[0]!.from, /^\/proc\/\d+\/net\/snmp/);
    sysctl('1');
    assert.equal((await check('network.ip-forward')).status, 'ok');
  });

  test('resolv.conf with a loopback stub resolver fails, too many nameservers warns; ok once fixed', async () => {
    const rc = path.join(dir, 'resolv.conf');
    fs.writeFileSync(rc, 'nameserver 127.0.0.53\noptions edns0 trust-ad\nsearch example.internal\n');
    const stub = await check('dns.resolv-conf', ['--resolv-conf', rc]);
    assert.equal(stub.status, 'fail');
    assert.match(stub.summary, /nameserver 127\.0\.0\.53 is a loopback address/);
    fs.writeFileSync(rc, 'nameserver 192.0.2.1\nnameserver 192.0.2.2\nnameserver 192.0.2.3\nnameserver 192.0.2.4\n');
    const many = await check('dns.resolv-conf', ['--resolv-conf', rc]);
    assert.equal(many.status, 'warn');
    assert.match(many.summary, /4 nameservers: kubelet passes on the first 3 and drops 192\.0\.2\.4/);
    fs.writeFileSync(rc, 'nameserver 192.0.2.1\nsearch example.internal\n');
    assert.equal((await check('dns.resolv-conf', ['--resolv-conf', rc])).status, 'ok');
  });

  test("the pod log filesystem past kubelet's nodefs.available eviction threshold fails; ok once freed", async () => {
    const logs = tmpfs(4096);
    fs.writeFileSync(path.join(logs, 'filler'), Buffer.alloc(3900 * 1024));
    const full = await check('resources.logfs', ['--pod-logs-root', logs]);
    assert.equal(full.status, 'fail', full.summary);
    assert.match(full.summary, /nodefs\.available .* is below the hard eviction threshold 10%/);
    fs.rmSync(path.join(logs, 'filler'));
    const ok = await check('resources.logfs', ['--pod-logs-root', logs]);
    assert.equal(ok.status, 'ok', ok.summary);
  });

  test("the runtime's image filesystem past image GC's high threshold: warn or fail; ok once freed", async () => {
    const root = tmpfs(48 * 1024);
    const small = await startLab({ dir: path.join(root, 'lab') });
    try {
      const fsInfo = await check('resources.imagefs', [], small);
      assert.equal(fsInfo.status, 'ok', fsInfo.summary);
      const free = fs.statfsSync(root);
      const fill = Math.floor(free.bavail * free.bsize - free.blocks * free.bsize * 0.1);
      fs.writeFileSync(path.join(root, 'filler'), Buffer.alloc(fill));
      const full = await check('resources.imagefs', [], small);
      assert.equal(full.status, 'fail', full.summary);
      assert.match(
        full.summary,
        /imagefs\.available .* is below the hard eviction threshold 15%.*imageGCHighThresholdPercent 85%/,
      );
      fs.rmSync(path.join(root, 'filler'));
      assert.equal((await check('resources.imagefs', [], small)).status, 'ok');
    } finally {
      await small.stop();
    }
  });
});
