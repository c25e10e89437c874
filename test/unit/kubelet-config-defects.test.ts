// Issue 9 item 10: config-generation defects found against kubelet's own expectations. Each case
// failed before its fix. Facts from kubernetes/kubernetes kubelet_pods.go@001a80e9 (1.35-era:
// shouldMountHostsFile, makeEnvironmentVariables without envFrom key filtering),
// kubelet.go SyncPod (host-network pods get the host IPs as pod IPs), network/dns parseResolvConf,
// kuberuntime_container_linux.go GetHugepageLimitsFromResources.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod } from '../../src/kubelet/api-types';
import { generateContainerConfig, type ContainerOptions } from '../../src/kubelet/container-config';
import { getPodDNS, parseResolvConf } from '../../src/kubelet/dns';
import { makeEnvironmentVariables } from '../../src/kubelet/env';
import { hugepageLimits } from '../../src/kubelet/resources';
import { generatePodSandboxConfig } from '../../src/kubelet/sandbox-config';
import { GATES_133 } from '../fixtures/gates';

const UID = 'c0ffee00-1111-4222-8333-944455556666';
const pod = (spec: Partial<NonNullable<Pod['spec']>> = {}, c: Partial<Container> = {}): Pod => ({
  metadata: { name: 'web', namespace: 'shop', uid: UID },
  spec: { nodeName: 'node-1', enableServiceLinks: true, containers: [{ name: 'app', image: 'nginx', ...c }], ...spec },
});
const opts: ContainerOptions = {
  resolvConf: null,
  clusterDomain: 'cluster.local',
  restartCount: 0,
  imageRef: 'sha256:1111',
  podIPs: [],
  nodeIPs: ['192.168.1.5'],
  terminationLogName: '3f9a0c12',
  memoryCapacityBytes: 16 * 1024 ** 3,
  hugePageSizes: [],
  nodeHostsFile: '127.0.0.1 localhost\n192.168.1.5 node-1\n',
  gates: GATES_133,
};

test('a host-network pod gets the kubelet-managed /etc/hosts (the node file) and the host IPs as pod IPs', () => {
  const p = pod(
    { hostNetwork: true },
    { env: [{ name: 'MY_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }] },
  );
  const { config, effects } = generateContainerConfig(p, p.spec!.containers[0]!, 'regular', opts);
  const hosts = config.mounts.find((m) => m.containerPath === '/etc/hosts');
  assert.equal(hosts?.hostPath, `/var/lib/kubelet/pods/${UID}/etc-hosts`);
  const write = effects.find((e) => e.kind === 'writeFile');
  assert.ok(write && write.kind === 'writeFile');
  assert.equal(
    write.content,
    '# Kubernetes-managed hosts file (host network).\n127.0.0.1 localhost\n192.168.1.5 node-1\n',
  );
  assert.deepEqual(
    config.envs.map((e) => `${e.key}=${new TextDecoder().decode(e.value)}`),
    ['MY_IP=192.168.1.5'],
  );
});

test('a pod on the pod network without IPs yet still gets no /etc/hosts mount', () => {
  const p = pod();
  const { config } = generateContainerConfig(p, p.spec!.containers[0]!, 'regular', opts);
  assert.equal(
    config.mounts.find((m) => m.containerPath === '/etc/hosts'),
    undefined,
  );
});

test('a bare "nameserver" line in resolv.conf fails sandbox creation, as kubelet does', () => {
  assert.throws(() => parseResolvConf('nameserver 10.0.0.1\nnameserver\n'), /nameserver list is empty/);
  const settings = {
    clusterDNS: ['10.96.0.10'],
    clusterDomain: 'cluster.local',
    resolvConf: 'nameserver\n',
    nodeIPs: [],
  };
  // kubelet reads the host file before it looks at the policy: every policy fails.
  for (const dnsPolicy of ['ClusterFirst', 'Default', 'None'] as const) {
    assert.throws(
      () => getPodDNS(pod({ dnsPolicy, dnsConfig: { nameservers: ['1.1.1.1'] } }), settings),
      /nameserver list is empty/,
      dnsPolicy,
    );
  }
  assert.throws(
    () =>
      generatePodSandboxConfig(pod(), 0, {
        resolvConf: 'search a.b\nnameserver  \n',
        configSeen: 'x',
        gates: GATES_133,
      }),
    /resolv\.conf line 2: nameserver list is empty/,
  );
});

test('hugepage limits list every host page size in host order, 0 where not requested', () => {
  const c: Container = { name: 'app', image: 'x', resources: { limits: { 'hugepages-2Mi': '4Mi', cpu: '1' } } };
  assert.deepEqual(hugepageLimits(c, ['1GB', '2MB', '32MB']), [
    { pageSize: '1GB', limit: '0' },
    { pageSize: '2MB', limit: '4194304' },
    { pageSize: '32MB', limit: '0' },
  ]);
  assert.deepEqual(hugepageLimits(c, []), [], 'a host without huge pages gets no limits');
});

test('an invalid hugepage resource name is skipped, not fatal', () => {
  const c: Container = {
    name: 'app',
    image: 'x',
    resources: { limits: { 'hugepages-2MB': '2Mi', 'hugepages-1Gi': '2Gi', 'hugepages-3000': '1Mi' } },
  };
  assert.deepEqual(hugepageLimits(c, ['2MB', '1GB']), [
    { pageSize: '2MB', limit: '0' },
    { pageSize: '1GB', limit: '2147483648' },
  ]);
});

test('RelaxedEnvironmentVariableValidation keeps envFrom keys such as 1_REPLACE_ME; without it they are skipped', () => {
  const c: Container = { name: 'app', image: 'x', envFrom: [{ configMapRef: { name: 'cfg' } }] };
  const values = { configMaps: { cfg: { '1_REPLACE_ME': 'a', 'key with space': 'b', OK: 'c' } } };
  const names = (relaxed: boolean | undefined) =>
    makeEnvironmentVariables(pod(), c, { podIPs: [], nodeIPs: [], values, relaxedEnvVarNames: relaxed }).map(
      (e) => e.name,
    );
  assert.deepEqual(names(true), ['1_REPLACE_ME', 'OK', 'key with space']);
  assert.deepEqual(names(undefined), ['1_REPLACE_ME', 'OK', 'key with space'], 'on by default (1.32+)');
  assert.deepEqual(names(false), ['OK']);
});
