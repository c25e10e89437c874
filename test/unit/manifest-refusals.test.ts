// More of what the API server's ValidatePod refuses (pkg/apis/core/validation, 1.29–1.36), as a
// table: each row is refused with one line naming document, field and line, before any runtime call.
// (test/unit/hostile-input.test.ts holds the paths, valueFrom sources and quantities.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseManifestText } from '../../src/manifest/parse';

function refusal(text: string): string {
  try {
    parseManifestText(text, 'pod.yaml');
  } catch (err) {
    assert.ok(!(err as Error).message.includes('\n'), 'one line');
    return (err as Error).message.replace(/^pod\.yaml: document 1: /, '').replace(/ \(line \d+, column \d+\)$/, '');
  }
  return 'accepted';
}

const pod = (extra = '', spec = ''): string =>
  `apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers:\n  - {name: app, image: busybox${extra}}\n${spec}`;
const SUBDOMAIN =
  "must be a DNS-1123 subdomain (lower-case letters, digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters)";
const IANA =
  'must be an IANA service name: at most 15 lower-case letters, digits and hyphens, at least one letter, no leading, trailing or consecutive hyphens';

test('refused as the API server refuses them', () => {
  const rows: Array<[string, string, string]> = [
    [
      'secretKeyRef without a name',
      pod(', env: [{name: A, valueFrom: {secretKeyRef: {key: k}}}]'),
      `spec.containers[0].env[0].valueFrom.secretKeyRef.name: invalid value "": ${SUBDOMAIN}`,
    ],
    [
      'configMapKeyRef with an upper-case name',
      pod(', env: [{name: A, valueFrom: {configMapKeyRef: {name: Cfg, key: k}}}]'),
      `spec.containers[0].env[0].valueFrom.configMapKeyRef.name: invalid value "Cfg": ${SUBDOMAIN}`,
    ],
    [
      'secretKeyRef without a key',
      pod(', env: [{name: A, valueFrom: {secretKeyRef: {name: s}}}]'),
      'spec.containers[0].env[0].valueFrom.secretKeyRef.key: required',
    ],
    [
      'a key a Secret cannot hold',
      pod(', env: [{name: A, valueFrom: {secretKeyRef: {name: s, key: "a/b"}}}]'),
      `spec.containers[0].env[0].valueFrom.secretKeyRef.key: invalid value "a/b": a valid config key must consist of alphanumeric characters, '-', '_' or '.'`,
    ],
    [
      'key ..',
      pod(', env: [{name: A, valueFrom: {configMapKeyRef: {name: c, key: ".."}}}]'),
      `spec.containers[0].env[0].valueFrom.configMapKeyRef.key: invalid value "..": must not be '..'`,
    ],
    [
      "fileKeyRef with a '..' path (it was taken; the read inside the volume refused it only at container start)",
      pod(', env: [{name: A, valueFrom: {fileKeyRef: {volumeName: v, path: "../../etc/passwd", key: A}}}]'),
      `spec.containers[0].env[0].valueFrom.fileKeyRef.path: invalid value "../../etc/passwd": must not contain '..'`,
    ],
    [
      'fileKeyRef without a key',
      pod(', env: [{name: A, valueFrom: {fileKeyRef: {volumeName: v, path: env}}}]'),
      'spec.containers[0].env[0].valueFrom.fileKeyRef.key: required',
    ],
    [
      'fileKeyRef with a volume name that is no DNS label',
      pod(', env: [{name: A, valueFrom: {fileKeyRef: {volumeName: V_1, path: env, key: A}}}]'),
      `spec.containers[0].env[0].valueFrom.fileKeyRef.volumeName: invalid value "V_1": must be a DNS-1123 label (lower-case letters, digits and '-', starting and ending with a letter or digit, at most 63 characters)`,
    ],
    [
      "fileKeyRef with a key holding '='",
      pod(', env: [{name: A, valueFrom: {fileKeyRef: {volumeName: v, path: env, key: "A=B"}}}]'),
      `spec.containers[0].env[0].valueFrom.fileKeyRef.key: invalid value "A=B": must consist of printable ASCII characters except '='`,
    ],
    [
      'envFrom with no source',
      pod(', envFrom: [{prefix: X_}]'),
      'spec.containers[0].envFrom[0]: must specify one of: `configMapRef` or `secretRef`',
    ],
    [
      'envFrom with both sources',
      pod(', envFrom: [{configMapRef: {name: c}, secretRef: {name: s}}]'),
      'spec.containers[0].envFrom[0]: may not have more than one field specified at a time (configMapRef, secretRef)',
    ],
    [
      'envFrom secretRef without a name',
      pod(', envFrom: [{secretRef: {optional: true}}]'),
      'spec.containers[0].envFrom[0].secretRef.name: required',
    ],
    [
      'a port name longer than 15',
      pod(', ports: [{containerPort: 80, name: metrics-exporter1}]'),
      `spec.containers[0].ports[0].name: invalid value "metrics-exporter1": ${IANA}`,
    ],
    [
      'a port name in capitals',
      pod(', ports: [{containerPort: 80, name: HTTP}]'),
      `spec.containers[0].ports[0].name: invalid value "HTTP": ${IANA}`,
    ],
    [
      'a port name of digits only',
      pod(', ports: [{containerPort: 80, name: "8080"}]'),
      `spec.containers[0].ports[0].name: invalid value "8080": ${IANA}`,
    ],
    [
      'a port name with --',
      pod(', ports: [{containerPort: 80, name: a--b}]'),
      `spec.containers[0].ports[0].name: invalid value "a--b": ${IANA}`,
    ],
    [
      'a port name twice',
      pod(', ports: [{containerPort: 80, name: web}, {containerPort: 81, name: web}]'),
      'spec.containers[0].ports[1].name: duplicate value "web"',
    ],
    [
      'hostPath type of another spelling',
      pod('', '  volumes: [{name: v, hostPath: {path: /srv, type: directory}}]\n'),
      'spec.volumes[0].hostPath.type: unsupported value "directory": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"',
    ],
    [
      'secret volume without secretName',
      pod('', '  volumes: [{name: v, secret: {defaultMode: 256}}]\n'),
      'spec.volumes[0].secret.secretName: required',
    ],
    [
      'configMap volume without a name',
      pod('', '  volumes: [{name: v, configMap: {}}]\n'),
      'spec.volumes[0].configMap.name: required',
    ],
    [
      'persistentVolumeClaim without claimName',
      pod('', '  volumes: [{name: v, persistentVolumeClaim: {readOnly: true}}]\n'),
      'spec.volumes[0].persistentVolumeClaim.claimName: required',
    ],
    [
      'a sysctl name with a space',
      pod('', "  securityContext: {sysctls: [{name: 'net.ipv4.ip forward', value: '1'}]}\n"),
      'spec.securityContext.sysctls[0].name: invalid value "net.ipv4.ip forward": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$',
    ],
    [
      'a sysctl twice',
      pod(
        '',
        "  securityContext: {sysctls: [{name: net.core.somaxconn, value: '1024'}, {name: net.core.somaxconn, value: '2048'}]}\n",
      ),
      'spec.securityContext.sysctls[1].name: duplicate value "net.core.somaxconn"',
    ],
    [
      'a sysctl without a name',
      pod('', "  securityContext: {sysctls: [{value: '1'}]}\n"),
      'spec.securityContext.sysctls[0].name: required',
    ],
    [
      'liveness successThreshold 3',
      pod(', livenessProbe: {exec: {command: ["true"]}, successThreshold: 3}'),
      'spec.containers[0].livenessProbe.successThreshold: invalid value 3: must be 1',
    ],
    [
      'startup successThreshold 2',
      pod(', startupProbe: {tcpSocket: {port: 80}, successThreshold: 2}'),
      'spec.containers[0].startupProbe.successThreshold: invalid value 2: must be 1',
    ],
    [
      'a negative probe delay',
      pod(', readinessProbe: {tcpSocket: {port: 80}, initialDelaySeconds: -5}'),
      'spec.containers[0].readinessProbe.initialDelaySeconds: invalid value -5: must be greater than or equal to 0',
    ],
    [
      'a host alias that is not an IP',
      pod('', '  hostAliases: [{ip: gateway, hostnames: [gw]}]\n'),
      'spec.hostAliases[0].ip: invalid value "gateway": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ],
    [
      'a host alias hostname with a space',
      pod('', "  hostAliases: [{ip: 10.0.0.1, hostnames: ['my host']}]\n"),
      `spec.hostAliases[0].hostnames[0]: invalid value "my host": ${SUBDOMAIN}`,
    ],
    [
      'a nameserver that is not an IP',
      pod('', '  dnsConfig: {nameservers: [dns.example.com]}\n'),
      'spec.dnsConfig.nameservers[0]: invalid value "dns.example.com": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ],
    [
      'four nameservers',
      pod('', '  dnsConfig: {nameservers: [10.0.0.1, 10.0.0.2, 10.0.0.3, 10.0.0.4]}\n'),
      'spec.dnsConfig.nameservers: invalid value ["10.0.0.1","10.0.0.2","10.0.0.3","10.0.0.4"]: must not have more than 3 nameservers',
    ],
    [
      'a search domain with an underscore',
      pod('', '  dnsConfig: {searches: [my_corp.local]}\n'),
      `spec.dnsConfig.searches[0]: invalid value "my_corp.local": ${SUBDOMAIN}`,
    ],
    [
      'a DNS option without a name',
      pod('', '  dnsConfig: {options: [{value: "2"}]}\n'),
      'spec.dnsConfig.options[0].name: required',
    ],
    [
      'a service account name in capitals',
      pod('', '  serviceAccountName: Builder\n'),
      `spec.serviceAccountName: invalid value "Builder": ${SUBDOMAIN}`,
    ],
    [
      'a negative supplemental group',
      pod('', '  securityContext: {supplementalGroups: [-1]}\n'),
      'spec.securityContext.supplementalGroups[0]: invalid value -1: must be between 0 and 2147483647, inclusive',
    ],
    [
      'seccomp Localhost without a profile',
      pod('', '  securityContext: {seccompProfile: {type: Localhost}}\n'),
      'spec.securityContext.seccompProfile.localhostProfile: required: must be set when seccomp type is Localhost',
    ],
    [
      'seccomp profile outside the seccomp root',
      pod(', securityContext: {seccompProfile: {type: Localhost, localhostProfile: ../../etc/x.json}}'),
      `spec.containers[0].securityContext.seccompProfile.localhostProfile: invalid value "../../etc/x.json": must not contain '..'`,
    ],
    [
      'seccomp RuntimeDefault with a file',
      pod(', securityContext: {seccompProfile: {type: RuntimeDefault, localhostProfile: p.json}}'),
      'spec.containers[0].securityContext.seccompProfile.localhostProfile: invalid value "p.json": can only be set when seccomp type is Localhost',
    ],
    [
      'an unknown seccomp type',
      pod('', '  securityContext: {seccompProfile: {type: Default}}\n'),
      'spec.securityContext.seccompProfile.type: unsupported value "Default": supported values: "Localhost", "RuntimeDefault", "Unconfined"',
    ],
    [
      'AppArmor Localhost without a profile',
      pod(', securityContext: {appArmorProfile: {type: Localhost}}'),
      'spec.containers[0].securityContext.appArmorProfile.localhostProfile: required: must be set when AppArmor type is Localhost',
    ],
    [
      'privileged without privilege escalation',
      pod(', securityContext: {privileged: true, allowPrivilegeEscalation: false}'),
      'spec.containers[0].securityContext: cannot set `allowPrivilegeEscalation` to false and `privileged` to true',
    ],
    [
      'CAP_SYS_ADMIN without privilege escalation',
      pod(', securityContext: {allowPrivilegeEscalation: false, capabilities: {add: [CAP_SYS_ADMIN]}}'),
      'spec.containers[0].securityContext: cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN',
    ],
    [
      'an os other than linux or windows',
      pod('', '  os: {name: Linux}\n'),
      'spec.os.name: unsupported value "Linux": supported values: "linux", "windows"',
    ],
    [
      'a toleration Exists with a value',
      pod('', '  tolerations: [{key: dedicated, operator: Exists, value: gpu}]\n'),
      `spec.tolerations[0].operator: invalid value "gpu": value must be empty when \`operator\` is 'Exists'`,
    ],
    [
      'a toleration without key that is not Exists',
      pod('', '  tolerations: [{operator: Equal, value: x}]\n'),
      'spec.tolerations[0].operator: invalid value "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
    ],
    [
      'tolerationSeconds without NoExecute',
      pod('', '  tolerations: [{key: k, operator: Exists, effect: NoSchedule, tolerationSeconds: 30}]\n'),
      `spec.tolerations[0].effect: invalid value "NoSchedule": effect must be 'NoExecute' when \`tolerationSeconds\` is set`,
    ],
    [
      'a resource name that is neither standard nor qualified',
      pod(', resources: {limits: {gpu: 1}}'),
      'spec.containers[0].resources.limits: invalid value "gpu": must be a standard resource for containers (cpu, memory, ephemeral-storage, hugepages-<size>) or fully qualified (example.com/gpu) (and 1 more)',
    ], // requests are defaulted from limits
    [
      'an unknown terminationMessagePolicy',
      pod(', terminationMessagePolicy: Logs'),
      'spec.containers[0].terminationMessagePolicy: unsupported value "Logs": supported values: "File", "FallbackToLogsOnError"',
    ],
    [
      'a defaultMode beyond 0777',
      pod(
        '',
        '  volumes: [{name: v, secret: {secretName: s, defaultMode: 511}}, {name: w, configMap: {name: c, defaultMode: 1000}}]\n',
      ),
      'spec.volumes[1].configMap.defaultMode: invalid value 1000: must be a number between 0 and 0777 (octal), both inclusive',
    ],
    [
      'an item path above the volume',
      pod('', '  volumes: [{name: v, configMap: {name: c, items: [{key: k, path: ../k}]}}]\n'),
      `spec.volumes[0].configMap.items[0].path: invalid value "../k": must not contain '..'`,
    ],
    [
      'a downward API file at an absolute path',
      pod(
        '',
        '  volumes: [{name: v, downwardAPI: {items: [{path: /etc/podname, fieldRef: {fieldPath: metadata.name}}]}}]\n',
      ),
      'spec.volumes[0].downwardAPI.items[0].path: invalid value "/etc/podname": must be a relative path',
    ],
    [
      'a projected secret without a name',
      pod('', '  volumes: [{name: v, projected: {sources: [{secret: {items: [{key: k, path: k}]}}]}}]\n'),
      'spec.volumes[0].projected.sources[0].secret.name: required',
    ],
    [
      'a volumeDevice of a volume the pod lacks',
      pod(', volumeDevices: [{name: disk, devicePath: /dev/xvda}]'),
      'spec.containers[0].volumeDevices[0].name: not found: the pod has no volume "disk"',
    ],
    [
      'a volumeDevice of an emptyDir',
      pod(', volumeDevices: [{name: v, devicePath: /dev/xvda}]', '  volumes: [{name: v, emptyDir: {}}]\n'),
      'spec.containers[0].volumeDevices[0].name: invalid value "v": can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode',
    ],
    [
      'a readiness gate that is not a qualified name',
      pod('', "  readinessGates: [{conditionType: 'ready now'}]\n"),
      "spec.readinessGates[0].conditionType: invalid value \"ready now\": must be a qualified name: an optional DNS subdomain prefix and '/', then at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit",
    ],
    [
      'postStart exec without a command',
      pod(', lifecycle: {postStart: {exec: {command: []}}}'),
      'spec.containers[0].lifecycle.postStart.exec.command: required',
    ],
    [
      'an httpGet probe on port 0',
      pod(', livenessProbe: {httpGet: {port: 0}}'),
      'spec.containers[0].livenessProbe.httpGet.port: invalid value 0: must be between 1 and 65535, inclusive',
    ],
    [
      'an httpGet probe on a port name in capitals',
      pod(', readinessProbe: {httpGet: {port: HTTP}}'),
      `spec.containers[0].readinessProbe.httpGet.port: invalid value "HTTP": ${IANA}`,
    ],
    [
      'a preStop httpGet with scheme http',
      pod(', lifecycle: {preStop: {httpGet: {port: 80, scheme: http}}}'),
      'spec.containers[0].lifecycle.preStop.httpGet.scheme: unsupported value "http": supported values: "HTTP", "HTTPS"',
    ],
    [
      'a tcpSocket probe on port 70000',
      pod(', startupProbe: {tcpSocket: {port: 70000}}'),
      'spec.containers[0].startupProbe.tcpSocket.port: invalid value 70000: must be between 1 and 65535, inclusive',
    ],
    [
      'a grpc probe on port 0',
      pod(', livenessProbe: {grpc: {port: 0}}'),
      'spec.containers[0].livenessProbe.grpc.port: invalid value 0: must be between 1 and 65535, inclusive',
    ],
    [
      'a preStop sleep longer than the grace period',
      pod(', lifecycle: {preStop: {sleep: {seconds: 60}}}', '  terminationGracePeriodSeconds: 30\n'),
      'spec.containers[0].lifecycle.preStop.sleep.seconds: invalid value 60: must be non-negative and less than terminationGracePeriodSeconds (30)',
    ],
    [
      'Bidirectional propagation in an unprivileged container',
      pod(
        ', volumeMounts: [{name: v, mountPath: /x, mountPropagation: Bidirectional}]',
        '  volumes: [{name: v, emptyDir: {}}]\n',
      ),
      'spec.containers[0].volumeMounts[0].mountPropagation: forbidden: Bidirectional mount propagation is available only to privileged containers',
    ],
    [
      'an unknown mount propagation',
      pod(
        ', volumeMounts: [{name: v, mountPath: /x, mountPropagation: Shared}]',
        '  volumes: [{name: v, emptyDir: {}}]\n',
      ),
      'spec.containers[0].volumeMounts[0].mountPropagation: unsupported value "Shared": supported values: "None", "HostToContainer", "Bidirectional"',
    ],
    [
      'shareProcessNamespace with hostPID',
      pod('', '  shareProcessNamespace: true\n  hostPID: true\n'),
      'spec.shareProcessNamespace: invalid value true: ShareProcessNamespace and HostPID cannot both be enabled',
    ],
    [
      'an unknown fsGroupChangePolicy',
      pod('', '  securityContext: {fsGroupChangePolicy: Never}\n'),
      'spec.securityContext.fsGroupChangePolicy: unsupported value "Never": supported values: "OnRootMismatch", "Always"',
    ],
    [
      'an unknown procMount',
      pod(', securityContext: {procMount: Masked}'),
      'spec.containers[0].securityContext.procMount: unsupported value "Masked": supported values: "Default", "Unmasked"',
    ],
    [
      'a probe grace period of 0',
      pod(', livenessProbe: {tcpSocket: {port: 80}, terminationGracePeriodSeconds: 0}'),
      'spec.containers[0].livenessProbe.terminationGracePeriodSeconds: invalid value 0: must be greater than 0',
    ],
  ];
  for (const [what, text, want] of rows) assert.equal(refusal(text), want, what);
});

test('what the API server takes stays accepted', () => {
  const fine = pod(
    ', env: [{name: A, valueFrom: {secretKeyRef: {name: db.creds, key: .pass_word-1}}}, {name: B, valueFrom: {configMapKeyRef: {name: cfg, key: k, optional: true}}}]' +
      ', envFrom: [{configMapRef: {name: cfg}}, {prefix: S_, secretRef: {name: s}}]' +
      ', ports: [{containerPort: 80, name: http}, {containerPort: 9090, name: metrics-9090}]' +
      ', readinessProbe: {tcpSocket: {port: 80}, successThreshold: 3}, livenessProbe: {exec: {command: ["true"]}, successThreshold: 1, terminationGracePeriodSeconds: 5}' +
      ', securityContext: {allowPrivilegeEscalation: false, capabilities: {add: [NET_ADMIN]}, appArmorProfile: {type: RuntimeDefault}}, terminationMessagePolicy: FallbackToLogsOnError' +
      ', resources: {limits: {cpu: 1, memory: 1Gi, ephemeral-storage: 1Gi, hugepages-2Mi: 2Mi, example.com/gpu: 1}, requests: {cpu: 1, memory: 1Gi, hugepages-2Mi: 2Mi}}' +
      ', volumeMounts: [{name: f, mountPath: /f}, {name: a, mountPath: /a, mountPropagation: HostToContainer}]' +
      ', lifecycle: {postStart: {exec: {command: ["true"]}}, preStop: {sleep: {seconds: 5}}}, startupProbe: {httpGet: {port: http, scheme: HTTPS}}',
    "  volumes: [{name: a, hostPath: {path: /srv, type: ''}}, {name: b, hostPath: {path: /run/x.sock, type: Socket}}, {name: c, secret: {secretName: s}}, {name: d, configMap: {name: cfg}}, {name: e, persistentVolumeClaim: {claimName: data}}, {name: f, projected: {defaultMode: 420, sources: [{secret: {name: s, items: [{key: k, path: a/b, mode: 256}]}}, {downwardAPI: {items: [{path: labels, fieldRef: {fieldPath: metadata.labels}}]}}]}}]\n" +
      "  securityContext: {sysctls: [{name: net.core.somaxconn, value: '1024'}, {name: kernel/shm_rmid_forced, value: '1'}], supplementalGroups: [0, 2000], seccompProfile: {type: Localhost, localhostProfile: profiles/audit.json}}\n" +
      '  hostAliases: [{ip: 10.1.2.3, hostnames: [foo.local, bar]}, {ip: "2001:db8::1", hostnames: [v6]}]\n' +
      '  dnsConfig: {nameservers: [1.1.1.1, "2001:4860:4860::8888"], searches: [corp.example.com., svc.cluster.local], options: [{name: ndots, value: "2"}, {name: edns0}]}\n' +
      '  serviceAccountName: builder\n  priorityClassName: system-node-critical\n  runtimeClassName: gvisor\n  os: {name: linux}\n' +
      '  tolerations: [{operator: Exists}, {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300}, {key: dedicated, value: gpu, effect: NoSchedule}]\n' +
      '  readinessGates: [{conditionType: example.com/ready}]\n  shareProcessNamespace: true\n',
  );
  assert.equal(refusal(fine), 'accepted');
});
