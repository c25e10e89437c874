// The pure decisions behind doctor's network, resources and dns checks: kubelet's eviction and
// image GC arithmetic, host-local ranges and leases, resolv.conf limits, /proc parsing.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { evictionSettings, judgeFilesystem, parseThreshold, type FsUsage } from '../../src/doctor/thresholds';
import { ipRangeSize, ipToBigInt, leaseInRange, parseHostLocalRanges } from '../../src/doctor/ipam';
import { judgeResolvConf, isLoopback } from '../../src/doctor/checks/dns';
import { hostLocalSections, leaseHolder, pluginBinaries, snmpForwarding } from '../../src/doctor/checks/network';
import { missingControllers, parseSwaps, REQUIRED_CONTROLLERS } from '../../src/doctor/checks/resources';
import { parseConfList } from '../../src/cni/conf';

const GiB = 1024 ** 3;
const fsu = (capGiB: number, availGiB: number, inodes = 1000, inodesFree = 500): FsUsage => ({
  capacityBytes: capGiB * GiB,
  availableBytes: availGiB * GiB,
  inodes,
  inodesFree,
});

describe("kubelet's eviction and image GC thresholds", () => {
  test('thresholds parse as percentages or quantities; what kubelet refuses is undefined', () => {
    assert.deepEqual(parseThreshold('10%'), { percent: 10, text: '10%' });
    assert.deepEqual(parseThreshold('1Gi'), { quantity: GiB, text: '1Gi' });
    assert.equal(parseThreshold('150%'), undefined);
    assert.equal(parseThreshold('lots'), undefined);
  });

  test('defaults without a config; a set evictionHard replaces the map unless mergeDefaultEvictionSettings', () => {
    const d = evictionSettings(undefined, 'x');
    assert.equal(d.hard['imagefs.available'], '15%');
    assert.equal(d.hard['nodefs.available'], '10%');
    assert.equal(d.imageGCHighThresholdPercent, 85);
    assert.equal(d.from, "kubelet's defaults");
    const only = evictionSettings({ evictionHard: { 'memory.available': '200Mi' } }, '/var/lib/kubelet/config.yaml');
    assert.deepEqual(only.hard, { 'memory.available': '200Mi' });
    const merged = evictionSettings(
      {
        evictionHard: { 'nodefs.available': '5%' },
        mergeDefaultEvictionSettings: true,
        imageGCHighThresholdPercent: 70,
      },
      'c',
    );
    assert.equal(merged.hard['nodefs.available'], '5%');
    assert.equal(merged.hard['imagefs.available'], '15%');
    assert.equal(merged.imageGCHighThresholdPercent, 70);
  });

  const cases: Array<{
    name: string;
    kind: 'nodefs' | 'imagefs';
    u: FsUsage;
    cfg?: Record<string, unknown>;
    status: string;
    finding?: RegExp;
  }> = [
    { name: 'plenty of room', kind: 'nodefs', u: fsu(100, 50), status: 'ok' },
    {
      name: 'nodefs below 10% available: hard eviction',
      kind: 'nodefs',
      u: fsu(100, 9),
      status: 'fail',
      finding: /nodefs\.available 9\.0GiB is below the hard eviction threshold 10% \(10\.0GiB\)/,
    },
    { name: 'exactly at the threshold is not below it', kind: 'nodefs', u: fsu(100, 10), status: 'ok' },
    {
      name: 'inodes below 5% free',
      kind: 'nodefs',
      u: fsu(100, 50, 1000, 40),
      status: 'fail',
      finding: /nodefs\.inodesFree 40 inodes is below the hard eviction threshold 5% \(50 inodes\)/,
    },
    {
      name: 'a filesystem without inode accounting is judged on bytes only',
      kind: 'nodefs',
      u: fsu(100, 50, 0, 0),
      status: 'ok',
    },
    {
      name: 'imagefs with 14.5% available, under imagefs.available 15%: eviction (fail)',
      kind: 'imagefs',
      u: fsu(100, 14.5),
      status: 'fail',
    },
    {
      name: 'imagefs at 85% used, 15% available: GC threshold reached, not yet evicting',
      kind: 'imagefs',
      u: fsu(100, 15),
      status: 'warn',
      finding: /usage 85% is at or above imageGCHighThresholdPercent 85%/,
    },
    {
      name: 'a soft threshold crossed warns',
      kind: 'nodefs',
      u: fsu(100, 15),
      cfg: { evictionSoft: { 'nodefs.available': '20%' } },
      status: 'warn',
      finding: /below the soft eviction threshold 20%/,
    },
    {
      name: 'an absolute threshold',
      kind: 'nodefs',
      u: fsu(100, 1.5),
      cfg: { evictionHard: { 'nodefs.available': '2Gi' } },
      status: 'fail',
      finding: /threshold 2Gi \(2\.0GiB\)/,
    },
    {
      name: 'a replaced evictionHard without nodefs signals does not evict on nodefs',
      kind: 'nodefs',
      u: fsu(100, 1),
      cfg: { evictionHard: { 'memory.available': '100Mi' } },
      status: 'ok',
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const v = judgeFilesystem(c.kind, c.u, evictionSettings(c.cfg, 'config'));
      assert.equal(v.status, c.status, v.findings.join('; '));
      if (c.finding)
        assert.ok(
          v.findings.some((f) => c.finding!.test(f)),
          v.findings.join('; '),
        );
    });
  }
});

describe('host-local ranges and leases', () => {
  test('addresses parse as numbers, v4 and v6', () => {
    assert.equal(ipToBigInt('10.0.0.1')!.n, 0x0a000001n);
    assert.equal(ipToBigInt('fd00::1')!.n, (0xfd00n << 112n) + 1n);
    assert.equal(ipToBigInt('10.0.0.256'), undefined);
    assert.equal(ipToBigInt('nope'), undefined);
  });

  const size = (ipam: Record<string, unknown>) => parseHostLocalRanges(ipam as never).map(ipRangeSize);
  test('a /24 hands out 253 (network, gateway and broadcast excluded)', () =>
    assert.deepEqual(size({ ranges: [[{ subnet: '10.1.2.0/24' }]] }), [253n]));
  test('rangeStart/rangeEnd bound it; a gateway outside the range costs nothing', () =>
    assert.deepEqual(
      size({ ranges: [[{ subnet: '10.1.2.0/24', rangeStart: '10.1.2.100', rangeEnd: '10.1.2.109' }]] }),
      [10n],
    ));
  test('the older single-subnet form', () => assert.deepEqual(size({ subnet: '10.9.0.0/30' }), [1n]));
  test('IPv6 keeps the last address', () => assert.deepEqual(size({ ranges: [[{ subnet: 'fd00::/120' }]] }), [254n]));
  test('several range sets', () =>
    assert.deepEqual(size({ ranges: [[{ subnet: '10.1.0.0/28' }], [{ subnet: 'fd00::/124' }]] }), [13n, 14n]));

  test('a lease is in the range it was handed from, never in another family', () => {
    const [r] = parseHostLocalRanges({ ranges: [[{ subnet: '10.1.2.0/24' }]] });
    assert.equal(leaseInRange('10.1.2.7', r!), true);
    assert.equal(leaseInRange('10.1.3.7', r!), false);
    assert.equal(leaseInRange('::1', r!), false);
  });

  test("a lease file's holder is its first line (host-local writes id CRLF ifname)", () => {
    assert.equal(leaseHolder('abc123\r\neth0'), 'abc123');
    assert.equal(leaseHolder('abc123'), 'abc123');
  });

  test("a network's binaries include each plugin's ipam type; host-local sections name their data dir", () => {
    const net = parseConfList(
      JSON.stringify({
        cniVersion: '0.4.0',
        name: 'pods',
        plugins: [{ type: 'bridge', ipam: { type: 'host-local', subnet: '10.0.0.0/24' } }, { type: 'portmap' }],
      }),
    );
    assert.deepEqual(pluginBinaries(net), ['bridge', 'host-local', 'portmap']);
    assert.deepEqual(
      hostLocalSections(net).map((s) => s.dataDir),
      ['/var/lib/cni/networks/pods'],
    );
  });
});

describe('resolv.conf as kubelet hands it to pods', () => {
  const cases: Array<[string, string, string, RegExp?]> = [
    ['real upstream servers', 'nameserver 192.0.2.1\nsearch a.example\n', 'ok'],
    ["systemd-resolved's stub", 'nameserver 127.0.0.53\n', 'fail', /127\.0\.0\.53 is a loopback address/],
    ['an IPv6 loopback', 'nameserver ::1\n', 'fail', /loopback/],
    [
      'four nameservers',
      'nameserver 192.0.2.1\nnameserver 192.0.2.2\nnameserver 192.0.2.3\nnameserver 192.0.2.4\n',
      'warn',
      /first 3 and drops 192\.0\.2\.4/,
    ],
    [
      '33 search domains',
      `nameserver 192.0.2.1\nsearch ${Array.from({ length: 33 }, (_, i) => `d${i}.example`).join(' ')}\n`,
      'warn',
      /33 search domains: kubelet keeps 32/,
    ],
    [
      'a search line over 2048 characters',
      `nameserver 192.0.2.1\nsearch ${Array.from({ length: 10 }, (_, i) => `${'x'.repeat(240)}${i}.example`).join(' ')}\n`,
      'warn',
      /cuts it to 2048/,
    ],
  ];
  for (const [name, text, status, re] of cases) {
    test(name, () => {
      const o = judgeResolvConf(text, '/etc/resolv.conf');
      assert.equal(o.status, status, o.summary);
      if (re) assert.match(o.summary, re);
      if (status !== 'ok') assert.ok(o.remedy);
    });
  }
  test('loopback addresses', () => {
    assert.equal(isLoopback('127.0.0.1'), true);
    assert.equal(isLoopback('10.0.0.1'), false);
  });
});

describe('/proc readings', () => {
  test('Ip Forwarding of a netns snmp table', () => {
    const snmp = 'Ip: Forwarding DefaultTTL InReceives\nIp: 1 64 100\nIcmp: InMsgs\nIcmp: 0\n';
    assert.equal(snmpForwarding(snmp), 1);
    assert.equal(snmpForwarding(snmp.replace('Ip: 1 64', 'Ip: 2 64')), 2);
    assert.equal(snmpForwarding('garbage'), undefined);
  });
  test('/proc/swaps: header only is off; each device after it', () => {
    const head = 'Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n';
    assert.deepEqual(parseSwaps(head), []);
    assert.deepEqual(parseSwaps(`${head}/swapfile  file  1048572  0  -2\n`), [{ name: '/swapfile', sizeKiB: 1048572 }]);
  });
  test('the controllers kubelet needs per cgroup version', () => {
    assert.deepEqual(
      missingControllers(new Set(['cpu', 'cpuacct', 'cpuset', 'memory', 'pids']), REQUIRED_CONTROLLERS[1]),
      [],
    );
    assert.deepEqual(missingControllers(new Set(['cpu', 'memory']), REQUIRED_CONTROLLERS[2]), ['cpuset', 'pids']);
  });
});
