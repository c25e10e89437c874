// kubelet's makeMounts tests re-expressed (our words, our layout), from kubernetes/kubernetes
// pkg/kubelet/kubelet_pods_linux_test.go @168c15a3 (a 1.34/1.35-era tree: image volumes and the
// host-network /etc/hosts rule). Kubelet's stub volumes become hostPath volumes at the same paths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod, Volume } from '../../src/kubelet/api-types';
import { makeMounts, type MountInputs } from '../../src/kubelet/mounts';
import { GATES_133 } from '../fixtures/gates';

const base: MountInputs = {
  kubeletRoot: '/var/lib/kubelet',
  envs: [],
  podIPs: [''],
  hostname: 'fakepodname',
  domain: '',
  nodeHostsFile: '127.0.0.1 localhost\n',
  selinuxEnabled: false,
  supportsRecursiveReadOnly: false,
  terminationLogName: '00000000',
  gates: GATES_133,
};
const hp = (name: string, path: string): Volume => ({ name, hostPath: { path } });
const vols = [
  hp('disk', '/mnt/disk'),
  hp('disk4', '/mnt/host'),
  hp('disk5', '/var/lib/kubelet/podID/volumes/empty/disk5'),
];
const podOf = (
  c: Container,
  volumes: Volume[],
  spec: Partial<NonNullable<Pod['spec']>> = { hostNetwork: true },
): Pod => ({
  metadata: { name: 'p', namespace: 'd', uid: 'u' },
  spec: { containers: [c], volumes, ...spec },
});
const view = (ms: ReturnType<typeof makeMounts>['mounts']) =>
  ms.map((m) => `${m.containerPath}<-${m.hostPath} ro=${m.readonly} ${m.propagation}`);

test('TestMakeMounts', () => {
  const unprivileged: Container = {
    name: 'container1',
    volumeMounts: [
      { mountPath: '/etc/hosts', name: 'disk', readOnly: false, mountPropagation: 'HostToContainer' },
      { mountPath: '/mnt/path3', name: 'disk', readOnly: true, mountPropagation: 'None' },
      { mountPath: '/mnt/path4', name: 'disk4', readOnly: false },
      { mountPath: '/mnt/path5', name: 'disk5', readOnly: false },
    ],
  };
  assert.deepEqual(
    view(makeMounts(podOf(unprivileged, vols), unprivileged, base).mounts),
    [
      '/etc/hosts<-/mnt/disk ro=false PROPAGATION_HOST_TO_CONTAINER',
      '/mnt/path3<-/mnt/disk ro=true PROPAGATION_PRIVATE',
      '/mnt/path4<-/mnt/host ro=false PROPAGATION_PRIVATE',
      '/mnt/path5<-/var/lib/kubelet/podID/volumes/empty/disk5 ro=false PROPAGATION_PRIVATE',
    ],
    'valid mounts in unprivileged container',
  );
  const privileged: Container = {
    name: 'container1',
    securityContext: { privileged: true },
    volumeMounts: [
      { mountPath: '/etc/hosts', name: 'disk', readOnly: false, mountPropagation: 'Bidirectional' },
      { mountPath: '/mnt/path3', name: 'disk', readOnly: true, mountPropagation: 'HostToContainer' },
      { mountPath: '/mnt/path4', name: 'disk4', readOnly: false },
    ],
  };
  assert.deepEqual(
    view(makeMounts(podOf(privileged, vols), privileged, base).mounts),
    [
      '/etc/hosts<-/mnt/disk ro=false PROPAGATION_BIDIRECTIONAL',
      '/mnt/path3<-/mnt/disk ro=true PROPAGATION_HOST_TO_CONTAINER',
      '/mnt/path4<-/mnt/host ro=false PROPAGATION_PRIVATE',
    ],
    'valid mounts in privileged container',
  );
  const errors: Array<[string, Container, Volume[], string]> = [
    [
      'invalid absolute SubPath',
      {
        name: '',
        volumeMounts: [{ mountPath: '/mnt/path3', subPath: '/must/not/be/absolute', name: 'disk', readOnly: true }],
      },
      vols,
      'error SubPath `/must/not/be/absolute` must not be an absolute path',
    ],
    [
      'invalid SubPath with backsteps',
      {
        name: '',
        volumeMounts: [{ mountPath: '/mnt/path3', subPath: 'no/backsteps/../allowed', name: 'disk', readOnly: true }],
      },
      vols,
      "unable to provision SubPath `no/backsteps/../allowed`: must not contain '..'",
    ],
    [
      "volume doesn't exist",
      { name: '', volumeMounts: [{ mountPath: '/mnt/path3', name: 'disk', readOnly: true }] },
      [],
      'cannot find volume "disk" to mount into container ""',
    ],
  ];
  for (const [name, c, v, msg] of errors) assert.throws(() => makeMounts(podOf(c, v), c, base), { message: msg }, name);
});

test('TestMakeMountsEtcHostsFile', () => {
  const c: Container = { name: 'test-container', image: 'img' };
  const rows: Array<[string, boolean, string[], Container, Volume[], boolean]> = [
    ['pod with network', false, ['192.168.0.1'], c, [], true],
    ['pod with network but no IPs', false, [], c, [], false],
    ['pod with host network', true, ['192.168.0.1'], c, [], true],
    ['pod with host network but no IPs', true, [], c, [], true],
    [
      'pod with network already mounting the hosts file',
      false,
      ['192.168.0.1'],
      { ...c, volumeMounts: [{ name: 'etchosts', mountPath: '/etc/hosts' }] },
      [hp('etchosts', '/mnt/disk')],
      false,
    ],
  ];
  for (const [name, hostNetwork, podIPs, ctr, volumes, want] of rows) {
    const pod = podOf(ctr, volumes, { hostNetwork, enableServiceLinks: false });
    const { mounts } = makeMounts(pod, ctr, { ...base, podIPs, domain: 'fakedomain' });
    assert.equal(
      mounts.some((m) => m.hostPath.endsWith('/etc-hosts')),
      want,
      name,
    );
  }
});
