// kubelet's DNS tests re-expressed as tables (our words, our layout), from kubernetes/kubernetes
// pkg/kubelet/network/dns/dns_test.go @a37cbbda (the stored tree; its TestFormDNSSearchFitsLimits
// uses the pre-1.22 limits of 6 paths / 256 characters and is not restated: the 1.33 limits are
// covered in dns.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../src/kubelet/api-types';
import { getPodDNS, getPodDNSType, parseResolvConf } from '../../src/kubelet/dns';

test('TestParseResolvConf', () => {
  type Row = [string, string[], string[], string[]] | [string, 'error'];
  const rows: Row[] = [
    ['', [], [], []],
    [' ', [], [], []],
    ['\n', [], [], []],
    ['\t\n\t', [], [], []],
    ['#comment\n', [], [], []],
    [' #comment\n', [], [], []],
    ['#comment\n#comment', [], [], []],
    ['#comment\nnameserver', 'error'],
    ['#comment\nnameserver\nsearch', 'error'],
    ['#comment\nnameserver 1.2.3.4\nsearch', ['1.2.3.4'], [], []],
    ['nameserver 1.2.3.4', ['1.2.3.4'], [], []],
    [' nameserver 1.2.3.4', ['1.2.3.4'], [], []],
    ['\tnameserver 1.2.3.4', ['1.2.3.4'], [], []],
    ['nameserver\t1.2.3.4', ['1.2.3.4'], [], []],
    ['nameserver \t 1.2.3.4', ['1.2.3.4'], [], []],
    ['nameserver 1.2.3.4\nnameserver 5.6.7.8', ['1.2.3.4', '5.6.7.8'], [], []],
    ['nameserver 1.2.3.4 #comment', ['1.2.3.4'], [], []],
    ['search ', [], [], []],
    ['search foo', [], ['foo'], []],
    ['search foo bar', [], ['foo', 'bar'], []],
    ['search foo bar bat\n', [], ['foo', 'bar', 'bat'], []],
    ['search foo\nsearch bar', [], ['bar'], []],
    ['nameserver 1.2.3.4\nsearch foo bar', ['1.2.3.4'], ['foo', 'bar'], []],
    ['nameserver 1.2.3.4\nsearch foo\nnameserver 5.6.7.8\nsearch bar', ['1.2.3.4', '5.6.7.8'], ['bar'], []],
    ['#comment\nnameserver 1.2.3.4\n#comment\nsearch foo\ncomment', ['1.2.3.4'], ['foo'], []],
    ['options ', [], [], []],
    ['options ndots:5 attempts:2', [], [], ['ndots:5', 'attempts:2']],
    ['options ndots:1\noptions ndots:5 attempts:3', [], [], ['ndots:5', 'attempts:3']],
    [
      'nameserver 1.2.3.4\nsearch foo\nnameserver 5.6.7.8\nsearch bar\noptions ndots:5 attempts:4',
      ['1.2.3.4', '5.6.7.8'],
      ['bar'],
      ['ndots:5', 'attempts:4'],
    ],
  ];
  for (const r of rows) {
    if (r[1] === 'error') {
      assert.throws(() => parseResolvConf(r[0]), /nameserver list is empty/, JSON.stringify(r[0]));
      continue;
    }
    const [text, servers, searches, options] = r;
    assert.deepEqual(parseResolvConf(text), { servers, searches, options }, JSON.stringify(text));
  }
});

const testPod = (spec: Partial<NonNullable<Pod['spec']>> = {}): Pod => ({
  metadata: { uid: 'u', name: 'test_pod', namespace: 'testNS' },
  spec: { containers: [{ name: 'c' }], ...spec },
});

test('TestFormDNSNameserversFitsLimits (through GetPodDNS with dnsPolicy None)', () => {
  const rows: Array<[string, string[], string[], boolean]> = [
    ['valid: 1 nameserver', ['127.0.0.1'], ['127.0.0.1'], false],
    ['valid: 3 nameservers', ['127.0.0.1', '10.0.0.10', '8.8.8.8'], ['127.0.0.1', '10.0.0.10', '8.8.8.8'], false],
    [
      'invalid: 4 nameservers, trimmed to 3',
      ['127.0.0.1', '10.0.0.10', '8.8.8.8', '1.2.3.4'],
      ['127.0.0.1', '10.0.0.10', '8.8.8.8'],
      true,
    ],
  ];
  for (const [name, given, want, event] of rows) {
    const r = getPodDNS(testPod({ dnsPolicy: 'None', dnsConfig: { nameservers: given } }), {
      clusterDNS: [],
      clusterDomain: 'TEST',
      resolvConf: '',
      nodeIPs: [],
    });
    assert.deepEqual(r.dnsConfig.servers, want, name);
    assert.equal(
      r.events.some((e) => e.reason === 'DNSConfigForming'),
      event,
      `${name}: event`,
    );
  }
});

test('TestMergeDNSOptions (through GetPodDNS: host options, then dnsConfig options; order-insensitive as in kubelet)', () => {
  const rows: Array<[string, Array<{ name: string; value?: string }> | undefined, string[]]> = [
    ['Empty dnsConfigOptions', undefined, ['ndots:5', 'debug']],
    [
      'No duplicated entries',
      [{ name: 'single-request' }, { name: 'attempts', value: '3' }],
      ['ndots:5', 'debug', 'single-request', 'attempts:3'],
    ],
    [
      'Overwrite duplicated entries',
      [{ name: 'ndots', value: '3' }, { name: 'debug' }, { name: 'single-request' }, { name: 'attempts', value: '3' }],
      ['ndots:3', 'debug', 'single-request', 'attempts:3'],
    ],
  ];
  for (const [name, opts, want] of rows) {
    const pod = testPod({ dnsPolicy: 'Default', ...(opts ? { dnsConfig: { options: opts } } : {}) });
    const r = getPodDNS(pod, {
      clusterDNS: [],
      clusterDomain: 'TEST',
      resolvConf: 'options ndots:5 debug\n',
      nodeIPs: [],
    });
    assert.deepEqual([...r.dnsConfig.options].sort(), [...want].sort(), name);
  }
});

test('TestGetPodDNSType', () => {
  const rows: Array<[string, Pod['spec'] extends infer S ? Partial<NonNullable<S>> : never, string]> = [
    ['valid DNSClusterFirst without hostnetwork', { dnsPolicy: 'ClusterFirst' }, 'cluster'],
    [
      'valid DNSClusterFirstWithHostNet with hostnetwork',
      { dnsPolicy: 'ClusterFirstWithHostNet', hostNetwork: true },
      'cluster',
    ],
    ['valid DNSClusterFirstWithHostNet without hostnetwork', { dnsPolicy: 'ClusterFirstWithHostNet' }, 'cluster'],
    ['valid DNSDefault without hostnetwork', { dnsPolicy: 'Default' }, 'host'],
    ['valid DNSDefault with hostnetwork', { dnsPolicy: 'Default', hostNetwork: true }, 'host'],
    [
      'DNSClusterFirst with hostnetwork, fallback to DNSDefault',
      { dnsPolicy: 'ClusterFirst', hostNetwork: true },
      'host',
    ],
    ['valid DNSNone', { dnsPolicy: 'None' }, 'none'],
    // kubelet's getPodDNSType returns an error here, and GetPodDNS then logs it and falls back to
    // the cluster policy: syncpod gives the fallback directly (same generated config, no error).
    ['invalid DNS policy: GetPodDNS falls back to cluster', { dnsPolicy: 'invalidPolicy' }, 'cluster'],
  ];
  for (const [name, spec, want] of rows) assert.equal(getPodDNSType(testPod(spec)), want, name);
});

test('TestGetPodDNS (cluster DNS 203.0.113.1, domain kubernetes.io, without and with a resolv.conf)', () => {
  const settings = { clusterDNS: ['203.0.113.1'], clusterDomain: 'kubernetes.io', nodeIPs: [] };
  const pods: Array<Partial<NonNullable<Pod['spec']>>> = [
    { dnsPolicy: 'ClusterFirstWithHostNet', hostNetwork: true },
    { dnsPolicy: 'ClusterFirst', hostNetwork: true },
    { dnsPolicy: 'ClusterFirst', hostNetwork: false },
    { dnsPolicy: 'Default', hostNetwork: true },
  ];
  const pod = (s: Partial<NonNullable<Pod['spec']>>): Pod => ({
    metadata: { uid: 'u', name: 'p', namespace: '' },
    spec: { containers: [{ name: 'c' }], ...s },
  });
  const none = pods.map((s) => getPodDNS(pod(s), { ...settings, resolvConf: null }).dnsConfig);
  assert.deepEqual([none[0]!.servers, none[0]!.searches[0]], [['203.0.113.1'], '.svc.kubernetes.io']);
  assert.deepEqual([none[1]!.servers, none[1]!.searches], [['127.0.0.1'], ['.']]);
  assert.deepEqual([none[2]!.servers, none[2]!.searches[0]], [['203.0.113.1'], '.svc.kubernetes.io']);
  assert.deepEqual([none[3]!.servers, none[3]!.searches], [['127.0.0.1'], ['.']]);
  const host = 'nameserver 10.0.0.53\nsearch corp.example lab.example\n';
  const withFile = pods.map((s) => getPodDNS(pod(s), { ...settings, resolvConf: host }).dnsConfig);
  assert.deepEqual(withFile[0]!.servers, ['203.0.113.1'], 'cluster nameserver only');
  assert.equal(
    withFile[0]!.searches.length,
    withFile[1]!.searches.length + 3,
    'cluster domains prepended to the host searches',
  );
  assert.equal(withFile[0]!.searches[0], '.svc.kubernetes.io');
  assert.deepEqual(withFile[2]!.servers, ['203.0.113.1']);
  assert.deepEqual(withFile[1]!.servers, ['10.0.0.53'], 'host-network ClusterFirst uses the host file');
});

test('TestGetPodDNSCustom (dnsConfig merged per policy; host file: nameserver 8.8.8.8, search host.domain)', () => {
  const settings = {
    clusterDNS: ['10.0.0.10'],
    clusterDomain: 'kubernetes.io',
    nodeIPs: [],
    resolvConf: 'nameserver 8.8.8.8\nsearch host.domain\n',
  };
  const custom = (nameservers: string[], searches: string[]) => ({
    nameservers,
    searches,
    options: [{ name: 'ndots', value: '3' }, { name: 'debug' }],
  });
  type Spec = Partial<NonNullable<Pod['spec']>>;
  const rows: Array<[string, Spec, { servers: string[]; searches: string[]; options: string[] }]> = [
    [
      'DNSNone without DNSConfig should have empty DNS settings',
      { dnsPolicy: 'None' },
      { servers: [], searches: [], options: [] },
    ],
    [
      'DNSNone with DNSConfig should have a merged DNS settings',
      { dnsPolicy: 'None', dnsConfig: custom(['203.0.113.1'], ['my.domain', 'second.domain']) },
      { servers: ['203.0.113.1'], searches: ['my.domain', 'second.domain'], options: ['ndots:3', 'debug'] },
    ],
    [
      'DNSClusterFirst with DNSConfig should have a merged DNS settings',
      { dnsPolicy: 'ClusterFirst', dnsConfig: custom(['10.0.0.11'], ['my.domain']) },
      {
        servers: ['10.0.0.10', '10.0.0.11'],
        searches: ['testNS.svc.kubernetes.io', 'svc.kubernetes.io', 'kubernetes.io', 'host.domain', 'my.domain'],
        options: ['ndots:3', 'debug'],
      },
    ],
    [
      'DNSClusterFirstWithHostNet with DNSConfig should have a merged DNS settings',
      { dnsPolicy: 'ClusterFirstWithHostNet', hostNetwork: true, dnsConfig: custom(['10.0.0.11'], ['my.domain']) },
      {
        servers: ['10.0.0.10', '10.0.0.11'],
        searches: ['testNS.svc.kubernetes.io', 'svc.kubernetes.io', 'kubernetes.io', 'host.domain', 'my.domain'],
        options: ['ndots:3', 'debug'],
      },
    ],
    [
      'DNSDefault with DNSConfig should have a merged DNS settings',
      { dnsPolicy: 'Default', dnsConfig: custom(['10.0.0.11'], ['my.domain']) },
      { servers: ['8.8.8.8', '10.0.0.11'], searches: ['host.domain', 'my.domain'], options: ['ndots:3', 'debug'] },
    ],
  ];
  for (const [name, spec, want] of rows) {
    const pod: Pod = {
      metadata: { name: 'test_pod', namespace: 'testNS' },
      spec: { containers: [{ name: 'c' }], ...spec },
    };
    const got = getPodDNS(pod, settings).dnsConfig;
    assert.deepEqual(got.servers, want.servers, `${name}: servers`);
    assert.deepEqual(got.searches, want.searches, `${name}: searches`);
    assert.deepEqual([...got.options].sort(), [...want.options].sort(), `${name}: options`);
  }
});
