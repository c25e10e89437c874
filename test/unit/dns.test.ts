import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../src/kubelet/api-types';
import {
  generatePodHostNameAndDomain,
  getNodenameForKernel,
  getPodDNS,
  parseResolvConf,
  podSandboxHostname,
  type DnsSettings,
} from '../../src/kubelet/dns';

const pod = (spec: Partial<Pod['spec']> = {}, name = 'web'): Pod => ({
  metadata: { name, namespace: 'shop', uid: 'u1' },
  spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
});
const HOST_RESOLV =
  '# generated\nnameserver 192.168.1.1\nnameserver 192.168.1.2\nsearch corp.example.com. lab.example.com\noptions ndots:2 timeout:1\n';
const node: DnsSettings = {
  clusterDNS: ['10.96.0.10'],
  clusterDomain: 'cluster.local',
  resolvConf: HOST_RESOLV,
  nodeIPs: ['192.168.1.50'],
};

test('resolv.conf parsing', () => {
  const cases: Array<[string, string, ReturnType<typeof parseResolvConf>]> = [
    ['empty file', '', { servers: [], searches: [], options: [] }],
    [
      'comments skipped, servers accumulate, trailing dots stripped',
      HOST_RESOLV,
      {
        servers: ['192.168.1.1', '192.168.1.2'],
        searches: ['corp.example.com', 'lab.example.com'],
        options: ['ndots:2', 'timeout:1'],
      },
    ],
    [
      'last search line wins and a lone dot is dropped',
      'search a.com\nsearch b.com .\n',
      { servers: [], searches: ['b.com'], options: [] },
    ],
    [
      'a later option replaces one of the same name',
      'options ndots:1 rotate\noptions ndots:3\n',
      { servers: [], searches: [], options: ['ndots:3', 'rotate'] },
    ],
    ['tabs and CRLF', 'nameserver\t8.8.8.8\r\n', { servers: ['8.8.8.8'], searches: [], options: [] }],
  ];
  for (const [name, text, want] of cases) assert.deepEqual(parseResolvConf(text), want, name);
});

test('DNS config by policy', () => {
  const clusterSearch = [
    'shop.svc.cluster.local',
    'svc.cluster.local',
    'cluster.local',
    'corp.example.com',
    'lab.example.com',
  ];
  const hostCfg = {
    servers: ['192.168.1.1', '192.168.1.2'],
    searches: ['corp.example.com', 'lab.example.com'],
    options: ['ndots:2', 'timeout:1'],
  };
  const cases: Array<{
    name: string;
    spec: Partial<Pod['spec']>;
    settings?: Partial<DnsSettings>;
    want: unknown;
    events?: string[];
  }> = [
    {
      name: 'ClusterFirst uses the cluster DNS and ndots:5 only',
      spec: { dnsPolicy: 'ClusterFirst' },
      want: { servers: ['10.96.0.10'], searches: clusterSearch, options: ['ndots:5'] },
    },
    {
      name: 'unset policy behaves like cluster (as kubelet does)',
      spec: {},
      want: { servers: ['10.96.0.10'], searches: clusterSearch, options: ['ndots:5'] },
    },
    {
      name: 'ClusterFirst with hostNetwork falls back to the host',
      spec: { dnsPolicy: 'ClusterFirst', hostNetwork: true },
      want: hostCfg,
    },
    {
      name: 'ClusterFirstWithHostNet keeps cluster DNS',
      spec: { dnsPolicy: 'ClusterFirstWithHostNet', hostNetwork: true },
      want: { servers: ['10.96.0.10'], searches: clusterSearch, options: ['ndots:5'] },
    },
    { name: 'Default uses the host file', spec: { dnsPolicy: 'Default' }, want: hostCfg },
    {
      name: 'None starts empty',
      spec: { dnsPolicy: 'None', dnsConfig: { nameservers: ['1.1.1.1'] } },
      want: { servers: ['1.1.1.1'], searches: [], options: [] },
    },
    {
      name: 'empty cluster domain: host searches only',
      spec: { dnsPolicy: 'ClusterFirst' },
      settings: { clusterDomain: '' },
      want: { servers: ['10.96.0.10'], searches: ['corp.example.com', 'lab.example.com'], options: ['ndots:5'] },
    },
    {
      name: 'no cluster DNS: falls back to the host with a warning',
      spec: { dnsPolicy: 'ClusterFirst' },
      settings: { clusterDNS: [] },
      want: hostCfg,
      events: [
        'MissingClusterDNS: pod: "web_shop(u1)". kubelet does not have ClusterDNS IP configured and cannot create Pod using "ClusterFirst" policy. Falling back to "Default" policy.',
      ],
    },
    {
      name: 'resolv.conf disabled: localhost per node IP family, search "."',
      spec: { dnsPolicy: 'Default' },
      settings: { resolvConf: null, nodeIPs: ['192.168.1.50', 'fd00::5'] },
      want: { servers: ['127.0.0.1', '::1'], searches: ['.'], options: [] },
    },
    {
      name: 'resolv.conf disabled, no node IP: 127.0.0.1',
      spec: { dnsPolicy: 'Default' },
      settings: { resolvConf: null, nodeIPs: [] },
      want: { servers: ['127.0.0.1'], searches: ['.'], options: [] },
    },
    {
      name: 'dnsConfig appends servers/searches without duplicates and merges options by name',
      spec: {
        dnsPolicy: 'ClusterFirst',
        dnsConfig: {
          nameservers: ['10.96.0.10', '9.9.9.9'],
          searches: ['cluster.local', 'extra.io'],
          options: [{ name: 'ndots', value: '2' }, { name: 'edns0' }],
        },
      },
      want: {
        servers: ['10.96.0.10', '9.9.9.9'],
        searches: [...clusterSearch, 'extra.io'],
        options: ['ndots:2', 'edns0'],
      },
    },
  ];
  for (const c of cases) {
    const r = getPodDNS(pod(c.spec), { ...node, ...c.settings });
    assert.deepEqual(r.dnsConfig, c.want, c.name);
    assert.deepEqual(
      r.events.map((e) => `${e.reason}: ${e.message}`),
      c.events ?? [],
      `${c.name}: events`,
    );
  }
});

test('DNS limits: 3 nameservers, 32 search paths, 253-character domains, 2048-character line', () => {
  const servers = getPodDNS(
    pod({ dnsPolicy: 'None', dnsConfig: { nameservers: ['1.1.1.1', '2.2.2.2', '3.3.3.3', '4.4.4.4'] } }),
    node,
  );
  assert.deepEqual(servers.dnsConfig.servers, ['1.1.1.1', '2.2.2.2', '3.3.3.3']);
  assert.deepEqual(servers.events, [
    {
      type: 'Warning',
      reason: 'DNSConfigForming',
      message:
        'Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: 1.1.1.1 2.2.2.2 3.3.3.3',
    },
  ]);

  const many = Array.from({ length: 40 }, (_, i) => `d${i}.example`);
  const r32 = getPodDNS(pod({ dnsPolicy: 'None', dnsConfig: { searches: many } }), node);
  assert.deepEqual(r32.dnsConfig.searches, many.slice(0, 32));
  assert.match(
    r32.events[0]!.message,
    /^Search Line limits were exceeded, some search paths have been omitted, the applied search line is: d0\.example d1\.example/,
  );

  const long = 'a'.repeat(254);
  const rLong = getPodDNS(pod({ dnsPolicy: 'None', dnsConfig: { searches: ['ok.io', long, 'fine.io'] } }), node);
  assert.deepEqual(rLong.dnsConfig.searches, ['ok.io', 'fine.io']);
  assert.equal(rLong.events.length, 1);

  const d250 = (c: string) => `${c.repeat(246)}.example`.slice(0, 250);
  const nine = 'abcdefghi'.split('').map(d250);
  const rLine = getPodDNS(pod({ dnsPolicy: 'None', dnsConfig: { searches: nine } }), node);
  assert.deepEqual(rLine.dnsConfig.searches, nine.slice(0, 8), '9×250 + 8 spaces = 2258 > 2048: the last one is cut');
  assert.ok(rLine.dnsConfig.searches.join(' ').length <= 2048);

  assert.deepEqual(getPodDNS(pod({ dnsPolicy: 'ClusterFirst' }), node).events, [], 'no events within limits');
});

test('hostname and domain', () => {
  const long = 'x'.repeat(60) + '-ab-cd';
  const cases: Array<[string, Partial<Pod['spec']>, string, { hostname: string; domain: string } | RegExp]> = [
    ['pod name by default', {}, 'web', { hostname: 'web', domain: '' }],
    ['spec.hostname wins', { hostname: 'front' }, 'web', { hostname: 'front', domain: '' }],
    [
      'subdomain gives a domain',
      { hostname: 'front', subdomain: 'svc1' },
      'web',
      { hostname: 'front', domain: 'svc1.shop.svc.cluster.local' },
    ],
    ['long pod name cut to 63 and trailing -/. stripped', {}, long, { hostname: 'x'.repeat(60) + '-ab', domain: '' }],
    ['invalid hostname', { hostname: 'Front_1' }, 'web', /pod Hostname "Front_1" is not a valid DNS label/],
    ['invalid subdomain', { subdomain: '-x' }, 'web', /pod Subdomain "-x" is not a valid DNS label/],
  ];
  for (const [name, spec, podName, want] of cases) {
    if (want instanceof RegExp)
      assert.throws(() => generatePodHostNameAndDomain(pod(spec, podName), 'cluster.local'), want, name);
    else assert.deepEqual(generatePodHostNameAndDomain(pod(spec, podName), 'cluster.local'), want, name);
  }
});

test('sandbox hostname: FQDN only with setHostnameAsFQDN and a domain, empty for host network', () => {
  const cases: Array<[string, Partial<Pod['spec']>, string | RegExp]> = [
    ['short name', { subdomain: 's' }, 'web'],
    ['FQDN', { subdomain: 's', setHostnameAsFQDN: true }, 'web.s.shop.svc.cluster.local'],
    ['setHostnameAsFQDN without a domain', { setHostnameAsFQDN: true }, 'web'],
    ['host network', { hostNetwork: true, hostname: 'front' }, ''],
  ];
  for (const [name, spec, want] of cases) assert.equal(podSandboxHostname(pod(spec), 'cluster.local'), want, name);
  assert.throws(() => getNodenameForKernel('h'.repeat(40), 'sub.shop.svc.cluster.local', true), {
    name: 'SyncpodError',
    message: `failed to construct FQDN from pod hostname and cluster domain, FQDN ${'h'.repeat(40)}.sub.shop.svc.cluster.local is too long (64 characters is the max, 67 characters requested)`,
  });
  assert.equal(
    getNodenameForKernel('h'.repeat(37), 'sub.shop.svc.cluster.local', true).length,
    64,
    '64 characters is allowed',
  );
});
