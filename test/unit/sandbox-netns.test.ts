// Reading a sandbox's network back from PodSandboxStatus(verbose): fixtures are containerd 1.6.20's
// real responses captured from the test lab (a pod-network sandbox with port mappings, DNS, cgroup
// parent and bandwidth annotation; the same as host network; a stopped one), plus a CRI-O-shaped
// response built from the fields CRI-O's sandbox status puts in its verbose info.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { PodSandboxStatusResponse } from '../../src/cri/types';
import {
  alreadyAttachedError,
  existingInterface,
  netnsCandidates,
  networkRequestFor,
  parseIpLinkJson,
  parseSandboxNetwork,
  refuseSandbox,
  resolvConfDns,
  withResolvConf,
  type SandboxNetwork,
} from '../../src/state/sandbox-netns';
import { SyncpodError } from '../../src/errors';

// ---- fixtures (before the suites: their case tables read them) ----
/** CRI-O layout: info.info = {image, pid, runtimeSpec}; sandbox fields in the spec's annotations. */
const CRIO_READY: PodSandboxStatusResponse = {
  status: {
    id: '9f3c1a7e5b2d4c6f8a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f',
    metadata: { name: 'api', uid: 'uid-api-1', namespace: 'prod', attempt: 0 },
    state: 'SANDBOX_READY',
    createdAt: '1700000000000000000',
    network: { ip: '10.85.0.7', additionalIps: [] },
    linux: { namespaces: { options: { network: 'POD', pid: 'POD', ipc: 'POD', targetId: '' } } },
    labels: {},
    annotations: { 'kubernetes.io/egress-bandwidth': '1M' },
    runtimeHandler: '',
  },
  info: {
    info: JSON.stringify({
      image: 'registry.k8s.io/pause:3.9',
      pid: 4242,
      runtimeSpec: {
        ociVersion: '1.0.2-dev',
        annotations: {
          'io.kubernetes.cri-o.PortMappings':
            '[{"HostPort":30080,"ContainerPort":8080,"Protocol":"TCP","HostIP":"127.0.0.1"}]',
          'io.kubernetes.cri-o.CgroupParent': 'kubepods-besteffort-pod1234.slice',
          'io.kubernetes.cri-o.Annotations': '{"kubernetes.io/egress-bandwidth":"1M"}',
          'io.kubernetes.cri-o.HostNetwork': 'false',
          'io.kubernetes.cri-o.KubeName': 'api',
        },
        linux: {
          namespaces: [
            { type: 'pid' },
            { type: 'network', path: '/var/run/netns/5c0d4f2a-0b1e-4c7a-9a55-3f7f0c2d9e11' },
          ],
        },
      },
    }),
  },
  containersStatuses: [],
  timestamp: '0',
};

const CONTAINERD_READY: PodSandboxStatusResponse = {
  status: {
    id: 'c4df47614a93388bbdd1d9577f41ef2afceb47de3cc355623839eb9de4ca949f',
    metadata: {
      name: 'web',
      uid: 'uid-web-0001',
      namespace: 'team-net',
      attempt: 1,
    },
    state: 'SANDBOX_READY',
    createdAt: '1795286391514523798',
    network: {
      ip: '10.231.2.2',
      additionalIps: [],
    },
    linux: {
      namespaces: {
        options: {
          network: 'POD',
          pid: 'POD',
          ipc: 'POD',
          targetId: '',
        },
      },
    },
    labels: {
      'io.kubernetes.pod.uid': 'uid-web-0001',
      'io.kubernetes.pod.namespace': 'team-net',
      'io.kubernetes.pod.name': 'web',
    },
    annotations: {
      'kubernetes.io/ingress-bandwidth': '10M',
      'kubernetes.io/config.source': 'file',
    },
    runtimeHandler: '',
  },
  info: {
    info: '{"pid":22833,"processStatus":"running","netNamespaceClosed":false,"image":"localhost/syncpod/pause:3.9","snapshotKey":"c4df47614a93388bbdd1d9577f41ef2afceb47de3cc355623839eb9de4ca949f","snapshotter":"overlayfs","runtimeHandler":"","runtimeType":"io.containerd.runc.v2","runtimeOptions":{},"config":{"metadata":{"name":"web","uid":"uid-web-0001","namespace":"team-net","attempt":1},"hostname":"web","log_directory":"/tmp/syncpod-lab-fb1cab15/pod-logs/team-net_web_uid-web-0001","dns_config":{"servers":["10.96.0.10"],"searches":["team-net.svc.cluster.local","svc.cluster.local"],"options":["ndots:5"]},"port_mappings":[{"container_port":80,"host_port":18080},{"protocol":1,"container_port":53}],"labels":{"io.kubernetes.pod.name":"web","io.kubernetes.pod.namespace":"team-net","io.kubernetes.pod.uid":"uid-web-0001"},"annotations":{"kubernetes.io/config.source":"file","kubernetes.io/ingress-bandwidth":"10M"},"linux":{"cgroup_parent":"/kubepods/besteffort/poduid-web-0001","security_context":{"namespace_options":{}}}},"runtimeSpec":{"ociVersion":"1.0.2-dev","process":{"user":{"uid":0,"gid":0},"args":["/bin/sh","-c","trap \\"exit 0\\" TERM INT; while true; do sleep 3600 \\u0026 wait; done"],"env":["PATH=/bin"],"cwd":"/","capabilities":{"bounding":["CAP_CHOWN","CAP_DAC_OVERRIDE","CAP_FSETID","CAP_FOWNER","CAP_MKNOD","CAP_NET_RAW","CAP_SETGID","CAP_SETUID","CAP_SETFCAP","CAP_SETPCAP","CAP_NET_BIND_SERVICE","CAP_SYS_CHROOT","CAP_KILL","CAP_AUDIT_WRITE"],"effective":["CAP_CHOWN","CAP_DAC_OVERRIDE","CAP_FSETID","CAP_FOWNER","CAP_MKNOD","CAP_NET_RAW","CAP_SETGID","CAP_SETUID","CAP_SETFCAP","CAP_SETPCAP","CAP_NET_BIND_SERVICE","CAP_SYS_CHROOT","CAP_KILL","CAP_AUDIT_WRITE"],"permitted":["CAP_CHOWN","CAP_DAC_OVERRIDE","CAP_FSETID","CAP_FOWNER","CAP_MKNOD","CAP_NET_RAW","CAP_SETGID","CAP_SETUID","CAP_SETFCAP","CAP_SETPCAP","CAP_NET_BIND_SERVICE","CAP_SYS_CHROOT","CAP_KILL","CAP_AUDIT_WRITE"]},"noNewPrivileges":true,"oomScoreAdj":0},"root":{"path":"rootfs","readonly":true},"hostname":"web","mounts":[{"destination":"/proc","type":"proc","source":"proc","options":["nosuid","noexec","nodev"]},{"destination":"/dev","type":"tmpfs","source":"tmpfs","options":["nosuid","strictatime","mode=755","size=65536k"]},{"destination":"/dev/pts","type":"devpts","source":"devpts","options":["nosuid","noexec","newinstance","ptmxmode=0666","mode=0620","gid=5"]},{"destination":"/dev/shm","type":"tmpfs","source":"shm","options":["nosuid","noexec","nodev","mode=1777","size=65536k"]},{"destination":"/dev/mqueue","type":"mqueue","source":"mqueue","options":["nosuid","noexec","nodev"]},{"destination":"/sys","type":"sysfs","source":"sysfs","options":["nosuid","noexec","nodev","ro"]},{"destination":"/dev/shm","type":"bind","source":"/tmp/syncpod-lab-fb1cab15/state/io.containerd.grpc.v1.cri/sandboxes/c4df47614a93388bbdd1d9577f41ef2afceb47de3cc355623839eb9de4ca949f/shm","options":["rbind","ro"]},{"destination":"/etc/resolv.conf","type":"bind","source":"/tmp/syncpod-lab-fb1cab15/root/io.containerd.grpc.v1.cri/sandboxes/c4df47614a93388bbdd1d9577f41ef2afceb47de3cc355623839eb9de4ca949f/resolv.conf","options":["rbind","ro"]}],"annotations":{"io.kubernetes.cri.container-type":"sandbox","io.kubernetes.cri.sandbox-id":"c4df47614a93388bbdd1d9577f41ef2afceb47de3cc355623839eb9de4ca949f","io.kubernetes.cri.sandbox-log-directory":"/tmp/syncpod-lab-fb1cab15/pod-logs/team-net_web_uid-web-0001","io.kubernetes.cri.sandbox-name":"web","io.kubernetes.cri.sandbox-namespace":"team-net","io.kubernetes.cri.sandbox-uid":"uid-web-0001"},"linux":{"resources":{"devices":[{"allow":false,"access":"rwm"}],"cpu":{"shares":2}},"cgroupsPath":"/kubepods/besteffort/poduid-web-0001/c4df47614a93388bbdd1d9577f41ef2afceb47de3cc355623839eb9de4ca949f","namespaces":[{"type":"pid"},{"type":"ipc"},{"type":"uts"},{"type":"mount"},{"type":"network","path":"/var/run/netns/cni-b354cce6-2ecf-118b-375c-ec3d1c0c11c0"}],"maskedPaths":["/proc/acpi","/proc/asound","/proc/kcore","/proc/keys","/proc/latency_stats","/proc/timer_list","/proc/timer_stats","/proc/sched_debug","/sys/firmware","/proc/scsi"],"readonlyPaths":["/proc/bus","/proc/fs","/proc/irq","/proc/sys","/proc/sysrq-trigger"]}},"cniResult":{"Interfaces":{"eth0":{"IPConfigs":[{"IP":"10.231.2.2","Gateway":"10.231.2.1"}],"Mac":"96:f1:00:f2:2d:0d","Sandbox":"/var/run/netns/cni-b354cce6-2ecf-118b-375c-ec3d1c0c11c0"},"lo":{"IPConfigs":[{"IP":"127.0.0.1","Gateway":""},{"IP":"::1","Gateway":""}],"Mac":"00:00:00:00:00:00","Sandbox":"/var/run/netns/cni-b354cce6-2ecf-118b-375c-ec3d1c0c11c0"},"splab0":{"IPConfigs":null,"Mac":"6e:5f:3c:23:17:8e","Sandbox":""},"veth98f8646c":{"IPConfigs":null,"Mac":"e6:5f:a8:b1:80:69","Sandbox":""}},"DNS":[{},{}],"Routes":null}}',
  },
  containersStatuses: [],
  timestamp: '0',
};

const CONTAINERD_HOST_NETWORK: PodSandboxStatusResponse = {
  status: {
    id: 'c84091906b3c8ae151c74a3813022f10e8182cc1c3c66f1a5d14ac44f596e012',
    metadata: {
      name: 'hostnet',
      uid: 'uid-host-0001',
      namespace: 'team-net',
      attempt: 1,
    },
    state: 'SANDBOX_READY',
    createdAt: '1795286391642653818',
    network: {
      ip: '',
      additionalIps: [],
    },
    linux: {
      namespaces: {
        options: {
          network: 'NODE',
          pid: 'POD',
          ipc: 'POD',
          targetId: '',
        },
      },
    },
    labels: {
      'io.kubernetes.pod.uid': 'uid-host-0001',
      'io.kubernetes.pod.namespace': 'team-net',
      'io.kubernetes.pod.name': 'hostnet',
    },
    annotations: {
      'kubernetes.io/ingress-bandwidth': '10M',
      'kubernetes.io/config.source': 'file',
    },
    runtimeHandler: '',
  },
  info: {
    info: '{"pid":22875,"processStatus":"running","netNamespaceClosed":false,"image":"localhost/syncpod/pause:3.9","snapshotKey":"c84091906b3c8ae151c74a3813022f10e8182cc1c3c66f1a5d14ac44f596e012","snapshotter":"overlayfs","runtimeHandler":"","runtimeType":"io.containerd.runc.v2","runtimeOptions":{},"config":{"metadata":{"name":"hostnet","uid":"uid-host-0001","namespace":"team-net","attempt":1},"log_directory":"/tmp/syncpod-lab-fb1cab15/pod-logs/team-net_hostnet_uid-host-0001","dns_config":{"servers":["10.96.0.10"],"searches":["team-net.svc.cluster.local","svc.cluster.local"],"options":["ndots:5"]},"labels":{"io.kubernetes.pod.name":"hostnet","io.kubernetes.pod.namespace":"team-net","io.kubernetes.pod.uid":"uid-host-0001"},"annotations":{"kubernetes.io/config.source":"file","kubernetes.io/ingress-bandwidth":"10M"},"linux":{"cgroup_parent":"/kubepods/besteffort/poduid-host-0001","security_context":{"namespace_options":{"network":2}}}},"runtimeSpec":{"ociVersion":"1.0.2-dev","process":{"user":{"uid":0,"gid":0},"args":["/bin/sh","-c","trap \\"exit 0\\" TERM INT; while true; do sleep 3600 \\u0026 wait; done"],"env":["PATH=/bin"],"cwd":"/","capabilities":{"bounding":["CAP_CHOWN","CAP_DAC_OVERRIDE","CAP_FSETID","CAP_FOWNER","CAP_MKNOD","CAP_NET_RAW","CAP_SETGID","CAP_SETUID","CAP_SETFCAP","CAP_SETPCAP","CAP_NET_BIND_SERVICE","CAP_SYS_CHROOT","CAP_KILL","CAP_AUDIT_WRITE"],"effective":["CAP_CHOWN","CAP_DAC_OVERRIDE","CAP_FSETID","CAP_FOWNER","CAP_MKNOD","CAP_NET_RAW","CAP_SETGID","CAP_SETUID","CAP_SETFCAP","CAP_SETPCAP","CAP_NET_BIND_SERVICE","CAP_SYS_CHROOT","CAP_KILL","CAP_AUDIT_WRITE"],"permitted":["CAP_CHOWN","CAP_DAC_OVERRIDE","CAP_FSETID","CAP_FOWNER","CAP_MKNOD","CAP_NET_RAW","CAP_SETGID","CAP_SETUID","CAP_SETFCAP","CAP_SETPCAP","CAP_NET_BIND_SERVICE","CAP_SYS_CHROOT","CAP_KILL","CAP_AUDIT_WRITE"]},"noNewPrivileges":true,"oomScoreAdj":0},"root":{"path":"rootfs","readonly":true},"mounts":[{"destination":"/proc","type":"proc","source":"proc","options":["nosuid","noexec","nodev"]},{"destination":"/dev","type":"tmpfs","source":"tmpfs","options":["nosuid","strictatime","mode=755","size=65536k"]},{"destination":"/dev/pts","type":"devpts","source":"devpts","options":["nosuid","noexec","newinstance","ptmxmode=0666","mode=0620","gid=5"]},{"destination":"/dev/shm","type":"tmpfs","source":"shm","options":["nosuid","noexec","nodev","mode=1777","size=65536k"]},{"destination":"/dev/mqueue","type":"mqueue","source":"mqueue","options":["nosuid","noexec","nodev"]},{"destination":"/sys","type":"sysfs","source":"sysfs","options":["nosuid","noexec","nodev","ro"]},{"destination":"/dev/shm","type":"bind","source":"/tmp/syncpod-lab-fb1cab15/state/io.containerd.grpc.v1.cri/sandboxes/c84091906b3c8ae151c74a3813022f10e8182cc1c3c66f1a5d14ac44f596e012/shm","options":["rbind","ro"]},{"destination":"/etc/resolv.conf","type":"bind","source":"/tmp/syncpod-lab-fb1cab15/root/io.containerd.grpc.v1.cri/sandboxes/c84091906b3c8ae151c74a3813022f10e8182cc1c3c66f1a5d14ac44f596e012/resolv.conf","options":["rbind","ro"]}],"annotations":{"io.kubernetes.cri.container-type":"sandbox","io.kubernetes.cri.sandbox-id":"c84091906b3c8ae151c74a3813022f10e8182cc1c3c66f1a5d14ac44f596e012","io.kubernetes.cri.sandbox-log-directory":"/tmp/syncpod-lab-fb1cab15/pod-logs/team-net_hostnet_uid-host-0001","io.kubernetes.cri.sandbox-name":"hostnet","io.kubernetes.cri.sandbox-namespace":"team-net","io.kubernetes.cri.sandbox-uid":"uid-host-0001"},"linux":{"resources":{"devices":[{"allow":false,"access":"rwm"}],"cpu":{"shares":2}},"cgroupsPath":"/kubepods/besteffort/poduid-host-0001/c84091906b3c8ae151c74a3813022f10e8182cc1c3c66f1a5d14ac44f596e012","namespaces":[{"type":"pid"},{"type":"ipc"},{"type":"mount"}],"maskedPaths":["/proc/acpi","/proc/asound","/proc/kcore","/proc/keys","/proc/latency_stats","/proc/timer_list","/proc/timer_stats","/proc/sched_debug","/sys/firmware","/proc/scsi"],"readonlyPaths":["/proc/bus","/proc/fs","/proc/irq","/proc/sys","/proc/sysrq-trigger"]}},"cniResult":null}',
  },
  containersStatuses: [],
  timestamp: '0',
};

const CONTAINERD_NOTREADY: PodSandboxStatusResponse = {
  status: {
    id: 'a8d6f1be3143ff9dbe618ead86290c268549440a108848abd09766ca12645f35',
    metadata: {
      name: 'stopped',
      uid: 'uid-stop-0001',
      namespace: 'team-net',
      attempt: 1,
    },
    state: 'SANDBOX_NOTREADY',
    createdAt: '1795286391709670566',
    network: {
      ip: '',
      additionalIps: [],
    },
    linux: {
      namespaces: {
        options: {
          network: 'POD',
          pid: 'POD',
          ipc: 'POD',
          targetId: '',
        },
      },
    },
    labels: {
      'io.kubernetes.pod.name': 'stopped',
      'io.kubernetes.pod.uid': 'uid-stop-0001',
      'io.kubernetes.pod.namespace': 'team-net',
    },
    annotations: {
      'kubernetes.io/ingress-bandwidth': '10M',
      'kubernetes.io/config.source': 'file',
    },
    runtimeHandler: '',
  },
  info: {
    info: '{"pid":0,"processStatus":"deleted","netNamespaceClosed":true,"image":"localhost/syncpod/pause:3.9","snapshotKey":"a8d6f1be3143ff9dbe618ead86290c268549440a108848abd09766ca12645f35","snapshotter":"overlayfs","runtimeHandler":"","runtimeType":"io.containerd.runc.v2","runtimeOptions":{},"config":{"metadata":{"name":"stopped","uid":"uid-stop-0001","namespace":"team-net","attempt":1},"hostname":"stopped","log_directory":"/tmp/syncpod-lab-fb1cab15/pod-logs/team-net_stopped_uid-stop-0001","dns_config":{"servers":["10.96.0.10"],"searches":["team-net.svc.cluster.local","svc.cluster.local"],"options":["ndots:5"]},"port_mappings":[{"container_port":80,"host_port":18080},{"protocol":1,"container_port":53}],"labels":{"io.kubernetes.pod.name":"stopped","io.kubernetes.pod.namespace":"team-net","io.kubernetes.pod.uid":"uid-stop-0001"},"annotations":{"kubernetes.io/config.source":"file","kubernetes.io/ingress-bandwidth":"10M"},"linux":{"cgroup_parent":"/kubepods/besteffort/poduid-stop-0001","security_context":{"namespace_options":{}}}},"runtimeSpec":{"ociVersion":"1.0.2-dev","process":{"user":{"uid":0,"gid":0},"args":["/bin/sh","-c","trap \\"exit 0\\" TERM INT; while true; do sleep 3600 \\u0026 wait; done"],"env":["PATH=/bin"],"cwd":"/","capabilities":{"bounding":["CAP_CHOWN","CAP_DAC_OVERRIDE","CAP_FSETID","CAP_FOWNER","CAP_MKNOD","CAP_NET_RAW","CAP_SETGID","CAP_SETUID","CAP_SETFCAP","CAP_SETPCAP","CAP_NET_BIND_SERVICE","CAP_SYS_CHROOT","CAP_KILL","CAP_AUDIT_WRITE"],"effective":["CAP_CHOWN","CAP_DAC_OVERRIDE","CAP_FSETID","CAP_FOWNER","CAP_MKNOD","CAP_NET_RAW","CAP_SETGID","CAP_SETUID","CAP_SETFCAP","CAP_SETPCAP","CAP_NET_BIND_SERVICE","CAP_SYS_CHROOT","CAP_KILL","CAP_AUDIT_WRITE"],"permitted":["CAP_CHOWN","CAP_DAC_OVERRIDE","CAP_FSETID","CAP_FOWNER","CAP_MKNOD","CAP_NET_RAW","CAP_SETGID","CAP_SETUID","CAP_SETFCAP","CAP_SETPCAP","CAP_NET_BIND_SERVICE","CAP_SYS_CHROOT","CAP_KILL","CAP_AUDIT_WRITE"]},"noNewPrivileges":true,"oomScoreAdj":0},"root":{"path":"rootfs","readonly":true},"hostname":"stopped","mounts":[{"destination":"/proc","type":"proc","source":"proc","options":["nosuid","noexec","nodev"]},{"destination":"/dev","type":"tmpfs","source":"tmpfs","options":["nosuid","strictatime","mode=755","size=65536k"]},{"destination":"/dev/pts","type":"devpts","source":"devpts","options":["nosuid","noexec","newinstance","ptmxmode=0666","mode=0620","gid=5"]},{"destination":"/dev/shm","type":"tmpfs","source":"shm","options":["nosuid","noexec","nodev","mode=1777","size=65536k"]},{"destination":"/dev/mqueue","type":"mqueue","source":"mqueue","options":["nosuid","noexec","nodev"]},{"destination":"/sys","type":"sysfs","source":"sysfs","options":["nosuid","noexec","nodev","ro"]},{"destination":"/dev/shm","type":"bind","source":"/tmp/syncpod-lab-fb1cab15/state/io.containerd.grpc.v1.cri/sandboxes/a8d6f1be3143ff9dbe618ead86290c268549440a108848abd09766ca12645f35/shm","options":["rbind","ro"]},{"destination":"/etc/resolv.conf","type":"bind","source":"/tmp/syncpod-lab-fb1cab15/root/io.containerd.grpc.v1.cri/sandboxes/a8d6f1be3143ff9dbe618ead86290c268549440a108848abd09766ca12645f35/resolv.conf","options":["rbind","ro"]}],"annotations":{"io.kubernetes.cri.container-type":"sandbox","io.kubernetes.cri.sandbox-id":"a8d6f1be3143ff9dbe618ead86290c268549440a108848abd09766ca12645f35","io.kubernetes.cri.sandbox-log-directory":"/tmp/syncpod-lab-fb1cab15/pod-logs/team-net_stopped_uid-stop-0001","io.kubernetes.cri.sandbox-name":"stopped","io.kubernetes.cri.sandbox-namespace":"team-net","io.kubernetes.cri.sandbox-uid":"uid-stop-0001"},"linux":{"resources":{"devices":[{"allow":false,"access":"rwm"}],"cpu":{"shares":2}},"cgroupsPath":"/kubepods/besteffort/poduid-stop-0001/a8d6f1be3143ff9dbe618ead86290c268549440a108848abd09766ca12645f35","namespaces":[{"type":"pid"},{"type":"ipc"},{"type":"uts"},{"type":"mount"},{"type":"network","path":"/var/run/netns/cni-9c0e035c-52b9-970f-e522-aa7ac4ee5ae9"}],"maskedPaths":["/proc/acpi","/proc/asound","/proc/kcore","/proc/keys","/proc/latency_stats","/proc/timer_list","/proc/timer_stats","/proc/sched_debug","/sys/firmware","/proc/scsi"],"readonlyPaths":["/proc/bus","/proc/fs","/proc/irq","/proc/sys","/proc/sysrq-trigger"]}},"cniResult":{"Interfaces":{"eth0":{"IPConfigs":[{"IP":"10.231.2.3","Gateway":"10.231.2.1"}],"Mac":"d6:cc:85:fa:d1:07","Sandbox":"/var/run/netns/cni-9c0e035c-52b9-970f-e522-aa7ac4ee5ae9"},"lo":{"IPConfigs":[{"IP":"127.0.0.1","Gateway":""},{"IP":"::1","Gateway":""}],"Mac":"00:00:00:00:00:00","Sandbox":"/var/run/netns/cni-9c0e035c-52b9-970f-e522-aa7ac4ee5ae9"},"splab0":{"IPConfigs":null,"Mac":"6e:5f:3c:23:17:8e","Sandbox":""},"veth1a2ed05e":{"IPConfigs":null,"Mac":"5e:4d:45:82:79:f6","Sandbox":""}},"DNS":[{},{}],"Routes":null}}',
  },
  containersStatuses: [],
  timestamp: '0',
};

describe('parseSandboxNetwork: containerd verbose info', () => {
  test('a ready pod-network sandbox: identity, IP, netns, pid, the config containerd echoes', () => {
    const sb = parseSandboxNetwork(CONTAINERD_READY);
    assert.equal(sb.id, 'c4df47614a93388bbdd1d9577f41ef2afceb47de3cc355623839eb9de4ca949f');
    assert.deepEqual([sb.name, sb.namespace, sb.uid], ['web', 'team-net', 'uid-web-0001']);
    assert.equal(sb.ready, true);
    assert.equal(sb.hostNetwork, false);
    assert.equal(sb.ip, '10.231.2.2');
    assert.equal(sb.specNetnsPath, '/var/run/netns/cni-b354cce6-2ecf-118b-375c-ec3d1c0c11c0');
    assert.equal(sb.pid, 22833);
    assert.equal(sb.netnsClosed, false);
    assert.equal(sb.flavour, 'containerd');
    assert.deepEqual(sb.runtimeInterfaces, ['eth0', 'lo'], 'host-side bridge and veth are not pod interfaces');
    assert.deepEqual(sb.portMappings, [
      { protocol: 'TCP', containerPort: 80, hostPort: 18080, hostIp: '' },
      { protocol: 'UDP', containerPort: 53, hostPort: 0, hostIp: '' },
    ]);
    assert.deepEqual(sb.dns, {
      servers: ['10.96.0.10'],
      searches: ['team-net.svc.cluster.local', 'svc.cluster.local'],
      options: ['ndots:5'],
    });
    assert.equal(sb.cgroupParent, '/kubepods/besteffort/poduid-web-0001');
    assert.deepEqual(sb.annotations, {
      'kubernetes.io/config.source': 'file',
      'kubernetes.io/ingress-bandwidth': '10M',
    });
    assert.deepEqual(sb.notes, []);
  });

  test('a host-network sandbox is recognised and has no netns path', () => {
    const sb = parseSandboxNetwork(CONTAINERD_HOST_NETWORK);
    assert.equal(sb.hostNetwork, true);
    assert.equal(sb.specNetnsPath, undefined);
    assert.equal(sb.runtimeInterfaces, undefined, 'cniResult is null');
  });

  test('host network is also recognised from the echoed config alone (Go JSON enum number 2 = NODE)', () => {
    const resp = structuredClone(CONTAINERD_HOST_NETWORK);
    resp.status!.linux = undefined;
    assert.equal(parseSandboxNetwork(resp).hostNetwork, true);
  });

  test('a stopped sandbox: not ready, netns closed, pid gone', () => {
    const sb = parseSandboxNetwork(CONTAINERD_NOTREADY);
    assert.equal(sb.ready, false);
    assert.equal(sb.netnsClosed, true);
    assert.equal(sb.pid, undefined);
    assert.equal(sb.ip, '');
  });

  test('without verbose info only the status is known, and a note says what is missing', () => {
    const resp = structuredClone(CONTAINERD_READY);
    resp.info = {};
    const sb = parseSandboxNetwork(resp);
    assert.equal(sb.specNetnsPath, undefined);
    assert.equal(sb.pid, undefined);
    assert.equal(sb.portMappings, undefined);
    assert.deepEqual(
      sb.annotations,
      { 'kubernetes.io/config.source': 'file', 'kubernetes.io/ingress-bandwidth': '10M' },
      'from the status',
    );
    assert.equal(sb.notes.length, 1);
    assert.match(sb.notes[0], /no verbose sandbox info/);
  });
});

describe('parseSandboxNetwork: CRI-O verbose info', () => {
  test('netns, pid, port mappings, cgroup parent and pod annotations come from the spec annotations', () => {
    const sb = parseSandboxNetwork(CRIO_READY);
    assert.equal(sb.flavour, 'cri-o');
    assert.equal(sb.specNetnsPath, '/var/run/netns/5c0d4f2a-0b1e-4c7a-9a55-3f7f0c2d9e11');
    assert.equal(sb.pid, 4242);
    assert.deepEqual(sb.portMappings, [{ protocol: 'TCP', containerPort: 8080, hostPort: 30080, hostIp: '127.0.0.1' }]);
    assert.equal(sb.cgroupParent, 'kubepods-besteffort-pod1234.slice');
    assert.deepEqual(sb.annotations, { 'kubernetes.io/egress-bandwidth': '1M' });
    assert.equal(sb.dns, undefined);
    assert.match(sb.notes.join('\n'), /no sandbox DNS config/);
  });

  test("CRI-O's resolv.conf (io.kubernetes.cri-o.ResolvPath) gives the DNS config: read back, or a note when it cannot be", async () => {
    const resp = structuredClone(CRIO_READY);
    const info = JSON.parse(resp.info.info);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-resolv-'));
    const file = path.join(dir, 'resolv.conf');
    info.runtimeSpec.annotations['io.kubernetes.cri-o.ResolvPath'] = file;
    resp.info.info = JSON.stringify(info);
    const sb = parseSandboxNetwork(resp);
    assert.equal(sb.resolvPath, file);
    assert.equal(sb.dns, undefined);
    assert.deepEqual(sb.notes, [], 'nothing is missing yet');
    try {
      // as CRI-O writes it: search line, one nameserver line each, options line
      fs.writeFileSync(
        file,
        'search ns.svc.cluster.local svc.cluster.local\nnameserver 10.96.0.10\nnameserver 10.96.0.11\noptions ndots:5 edns0\n',
      );
      const read = await withResolvConf(sb);
      assert.deepEqual(read.dns, {
        servers: ['10.96.0.10', '10.96.0.11'],
        searches: ['ns.svc.cluster.local', 'svc.cluster.local'],
        options: ['ndots:5', 'edns0'],
      });
      assert.deepEqual(read.notes, []);
      // under --host-root the node path is mapped
      const moved = await withResolvConf({ ...sb, resolvPath: '/resolv.conf' }, (p) => path.join(dir, p));
      assert.deepEqual(moved.dns?.servers, ['10.96.0.10', '10.96.0.11']);
      fs.rmSync(file);
      const gone = await withResolvConf(sb);
      assert.equal(gone.dns, undefined);
      assert.deepEqual(gone.notes, [
        `cannot read CRI-O's resolv.conf of the sandbox (${file}: ENOENT): the dns capability is not passed`,
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    assert.deepEqual(resolvConfDns('# comment\nnameserver 1.1.1.1 # trailing\ndomain example.test\n'), {
      servers: ['1.1.1.1'],
      searches: ['example.test'],
      options: [],
    });
  });

  test('CRI-O marks host network in an annotation too', () => {
    const resp = structuredClone(CRIO_READY);
    resp.status!.linux = undefined;
    const info = JSON.parse(resp.info.info);
    info.runtimeSpec.annotations['io.kubernetes.cri-o.HostNetwork'] = 'true';
    resp.info.info = JSON.stringify(info);
    assert.equal(parseSandboxNetwork(resp).hostNetwork, true);
  });
});

describe('refuseSandbox', () => {
  const cases: Array<{
    name: string;
    fixture: PodSandboxStatusResponse;
    verb: 'set up' | 'tear down' | 'check';
    error?: RegExp;
  }> = [
    { name: 'a ready pod-network sandbox can be set up', fixture: CONTAINERD_READY, verb: 'set up' },
    { name: 'a ready pod-network sandbox can be checked', fixture: CONTAINERD_READY, verb: 'check' },
    {
      name: 'host network is refused for set up with the exact message',
      fixture: CONTAINERD_HOST_NETWORK,
      verb: 'set up',
      error:
        /^sandbox c84091906b3c8ae151c74a3813022f10e8182cc1c3c66f1a5d14ac44f596e012 uses the host network: there is no pod network namespace to set up$/,
    },
    {
      name: 'host network is refused for tear down',
      fixture: CONTAINERD_HOST_NETWORK,
      verb: 'tear down',
      error: /uses the host network: there is no pod network namespace to tear down$/,
    },
    {
      name: 'a NOTREADY sandbox is refused for set up: its netns is gone',
      fixture: CONTAINERD_NOTREADY,
      verb: 'set up',
      error: /is NOTREADY: its network namespace is gone/,
    },
    {
      name: 'a NOTREADY sandbox is refused for check',
      fixture: CONTAINERD_NOTREADY,
      verb: 'check',
      error: /is NOTREADY/,
    },
    { name: 'a NOTREADY sandbox can be torn down', fixture: CONTAINERD_NOTREADY, verb: 'tear down' },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const sb = parseSandboxNetwork(c.fixture);
      if (c.error === undefined) assert.doesNotThrow(() => refuseSandbox(sb, c.verb));
      else
        assert.throws(
          () => refuseSandbox(sb, c.verb),
          (e: unknown) => e instanceof SyncpodError && c.error!.test(e.message),
        );
    });
  }
});

describe('existingInterface', () => {
  const ready = parseSandboxNetwork(CONTAINERD_READY);
  const noReport: SandboxNetwork = { ...ready, runtimeInterfaces: undefined };
  const cases: Array<{
    name: string;
    sb: SandboxNetwork;
    ifname: string;
    inside?: string[];
    expect: RegExp | undefined;
  }> = [
    {
      name: 'eth0 seen in the netns and reported by the runtime',
      sb: ready,
      ifname: 'eth0',
      inside: ['eth0', 'lo'],
      expect: /already exists in its network namespace \(set up by the runtime/,
    },
    { name: 'eth1 not in the netns is free', sb: ready, ifname: 'eth1', inside: ['eth0', 'lo'], expect: undefined },
    {
      name: 'eth1 in the netns (an earlier net-setup) is taken',
      sb: ready,
      ifname: 'eth1',
      inside: ['eth0', 'eth1', 'lo'],
      expect: /^interface eth1 already exists in its network namespace$/,
    },
    {
      name: 'the netns is authoritative: eth0 gone from it is free',
      sb: ready,
      ifname: 'eth0',
      inside: ['lo'],
      expect: undefined,
    },
    {
      name: "netns not listable: the runtime's cniResult decides",
      sb: ready,
      ifname: 'eth0',
      expect: /runtime reports interface eth0/,
    },
    {
      name: 'netns not listable, no cniResult: a pod IP means eth0 is set up',
      sb: noReport,
      ifname: 'eth0',
      expect: /reports pod IP 10\.231\.2\.2/,
    },
    { name: 'netns not listable, no cniResult: other names are free', sb: noReport, ifname: 'net1', expect: undefined },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const got = existingInterface(c.sb, c.ifname, c.inside);
      if (c.expect === undefined) assert.equal(got, undefined);
      else assert.match(got ?? '', c.expect);
    });
  }

  test('the refusal tells the operator what to do', () => {
    assert.match(
      alreadyAttachedError(ready, 'eth0', 'x').message,
      /already has eth0: x; pick another --ifname or run net-teardown first$/,
    );
  });
});

describe('networkRequestFor and netns candidates', () => {
  test('the CNI request carries identity, netns, ifname and the sandbox config', () => {
    const sb = parseSandboxNetwork(CONTAINERD_READY);
    assert.deepEqual(networkRequestFor(sb, 'eth1', '/var/run/netns/x'), {
      containerId: sb.id,
      netnsPath: '/var/run/netns/x',
      ifname: 'eth1',
      podNamespace: 'team-net',
      podName: 'web',
      podUid: 'uid-web-0001',
      portMappings: sb.portMappings,
      dns: sb.dns,
      cgroupParent: '/kubepods/besteffort/poduid-web-0001',
      annotations: sb.annotations,
    });
  });

  test('fields the runtime did not give are left out, not invented', () => {
    const resp = structuredClone(CONTAINERD_READY);
    resp.info = {};
    const req = networkRequestFor(parseSandboxNetwork(resp), 'eth0', '');
    assert.deepEqual(Object.keys(req).sort(), [
      'annotations',
      'containerId',
      'ifname',
      'netnsPath',
      'podName',
      'podNamespace',
      'podUid',
    ]);
  });

  test('the spec path first, then /proc/<pid>/ns/net; none for a stopped sandbox without pid', () => {
    assert.deepEqual(netnsCandidates(parseSandboxNetwork(CONTAINERD_READY)), [
      '/var/run/netns/cni-b354cce6-2ecf-118b-375c-ec3d1c0c11c0',
      '/proc/22833/ns/net',
    ]);
    assert.deepEqual(netnsCandidates(parseSandboxNetwork(CONTAINERD_HOST_NETWORK)), ['/proc/22875/ns/net']);
    assert.deepEqual(netnsCandidates(parseSandboxNetwork(CONTAINERD_NOTREADY)), [
      '/var/run/netns/cni-9c0e035c-52b9-970f-e522-aa7ac4ee5ae9',
    ]);
  });
});

describe('parseIpLinkJson', () => {
  test('names from `ip -j link show`, sorted', () => {
    const text =
      '[{"ifindex":1,"ifname":"lo","flags":["LOOPBACK","UP"]},{"ifindex":3,"link_index":4,"ifname":"eth0","flags":["UP"]}]\n';
    assert.deepEqual(parseIpLinkJson(text), ['eth0', 'lo']);
  });
  test('anything else is undefined', () => {
    assert.equal(parseIpLinkJson('Device "eth1" does not exist.'), undefined);
    assert.equal(parseIpLinkJson('{}'), undefined);
  });
});
