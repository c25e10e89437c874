// Capability arguments and per-plugin stdin derived from a sandbox.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfList } from '../../src/cni/conf';
import { capabilityArgsFor, parseQuantity, pluginStdin } from '../../src/cni/runtime-conf';
import type { NetworkRequest } from '../../src/cni/types';

const base: NetworkRequest = {
  containerId: 'c1',
  netnsPath: '/run/netns/x',
  ifname: 'eth0',
  podNamespace: 'ns',
  podName: 'p',
  podUid: 'u',
};

describe('capabilityArgsFor', () => {
  const cases: { name: string; request: Partial<NetworkRequest>; key: string; expect: unknown }[] = [
    {
      name: 'port mappings: only hostPort > 0, protocol lower-case, hostIP kept',
      request: {
        portMappings: [
          { protocol: 'SCTP', containerPort: 9, hostPort: 9000, hostIp: '127.0.0.1' },
          { protocol: 'TCP', containerPort: 80, hostPort: 0, hostIp: '' },
        ],
      },
      key: 'portMappings',
      expect: [{ hostPort: 9000, containerPort: 9, protocol: 'sctp', hostIP: '127.0.0.1' }],
    },
    {
      name: 'no host ports: no portMappings',
      request: { portMappings: [{ protocol: 'TCP', containerPort: 80, hostPort: 0, hostIp: '' }] },
      key: 'portMappings',
      expect: undefined,
    },
    {
      name: 'bandwidth from annotations, bits per second, bursts at the uint32 maximum',
      request: { annotations: { 'kubernetes.io/ingress-bandwidth': '10M', 'kubernetes.io/egress-bandwidth': '1Gi' } },
      key: 'bandwidth',
      expect: { ingressRate: 10_000_000, ingressBurst: 4294967295, egressRate: 1073741824, egressBurst: 4294967295 },
    },
    {
      name: 'only the direction given',
      request: { annotations: { 'kubernetes.io/egress-bandwidth': '1.5k' } },
      key: 'bandwidth',
      expect: { egressRate: 1500, egressBurst: 4294967295 },
    },
    {
      name: 'dns',
      request: { dns: { servers: ['10.96.0.10'], searches: ['ns.svc.cluster.local'], options: ['ndots:5'] } },
      key: 'dns',
      expect: { servers: ['10.96.0.10'], searches: ['ns.svc.cluster.local'], options: ['ndots:5'] },
    },
    {
      name: 'cgroupPath from the cgroup parent',
      request: { cgroupParent: '/kubepods/besteffort/podu' },
      key: 'cgroupPath',
      expect: '/kubepods/besteffort/podu',
    },
    {
      name: 'pod annotations always, as containerd',
      request: { annotations: { b: '2', a: '1' } },
      key: 'io.kubernetes.cri.pod-annotations',
      expect: { a: '1', b: '2' },
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      assert.deepEqual(capabilityArgsFor({ ...base, ...c.request })[c.key], c.expect);
    });
  }

  test('unreasonable or malformed bandwidth is a clear error', () => {
    assert.throws(
      () => capabilityArgsFor({ ...base, annotations: { 'kubernetes.io/ingress-bandwidth': '999' } }),
      /annotation kubernetes.io\/ingress-bandwidth: 999 is unreasonably small \(< 1kbit\)/,
    );
    assert.throws(
      () => capabilityArgsFor({ ...base, annotations: { 'kubernetes.io/egress-bandwidth': '2E' } }),
      /is unreasonably large \(> 1Pbit\)/,
    );
    assert.throws(
      () => capabilityArgsFor({ ...base, annotations: { 'kubernetes.io/egress-bandwidth': 'fast' } }),
      /"fast" is not a quantity/,
    );
  });
});

describe('parseQuantity', () => {
  const cases: [string, number][] = [
    ['1k', 1000],
    ['10M', 10_000_000],
    ['1Ki', 1024],
    ['2e3', 2000],
    ['1500m', 2],
    ['100', 100],
  ];
  for (const [text, value] of cases) test(`${text} = ${value}`, () => assert.equal(parseQuantity(text, 'x'), value));
});

describe('pluginStdin', () => {
  const network = parseConfList(
    JSON.stringify({
      cniVersion: '1.0.0',
      name: 'net',
      plugins: [
        { type: 'bridge', name: 'ignored', cniVersion: '0.1.0' },
        { type: 'portmap', capabilities: { portMappings: true, dns: true } },
      ],
    }),
  );
  const caps = capabilityArgsFor({
    ...base,
    portMappings: [{ protocol: 'UDP', containerPort: 53, hostPort: 5353, hostIp: '' }],
    cgroupParent: '/x',
  });

  test("name and cniVersion of the list replace the plugin's own; no runtimeConfig without capabilities", () => {
    assert.deepEqual(pluginStdin(network, network.plugins[0], caps, undefined), {
      type: 'bridge',
      name: 'net',
      cniVersion: '1.0.0',
    });
  });

  test('runtimeConfig holds only declared capabilities the runtime has; prevResult appended', () => {
    const prev = { cniVersion: '1.0.0', ips: [] };
    const stdin = pluginStdin(network, network.plugins[1], caps, prev);
    assert.deepEqual(stdin.runtimeConfig, {
      portMappings: [{ hostPort: 5353, containerPort: 53, protocol: 'udp', hostIP: '' }],
    });
    assert.deepEqual(stdin.prevResult, prev);
  });
});
