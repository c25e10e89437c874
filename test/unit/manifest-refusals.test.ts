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
const SUBDOMAIN = "must be a DNS-1123 subdomain (lower-case letters, digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters)";
const IANA = 'must be an IANA service name: at most 15 lower-case letters, digits and hyphens, at least one letter, no leading, trailing or consecutive hyphens';

test('refused as the API server refuses them', () => {
  const rows: Array<[string, string, string]> = [
    ['secretKeyRef without a name', pod(', env: [{name: A, valueFrom: {secretKeyRef: {key: k}}}]'), `spec.containers[0].env[0].valueFrom.secretKeyRef.name: invalid value "": ${SUBDOMAIN}`],
    ['configMapKeyRef with an upper-case name', pod(', env: [{name: A, valueFrom: {configMapKeyRef: {name: Cfg, key: k}}}]'), `spec.containers[0].env[0].valueFrom.configMapKeyRef.name: invalid value "Cfg": ${SUBDOMAIN}`],
    ['secretKeyRef without a key', pod(', env: [{name: A, valueFrom: {secretKeyRef: {name: s}}}]'), 'spec.containers[0].env[0].valueFrom.secretKeyRef.key: required'],
    ['a key a Secret cannot hold', pod(', env: [{name: A, valueFrom: {secretKeyRef: {name: s, key: "a/b"}}}]'), `spec.containers[0].env[0].valueFrom.secretKeyRef.key: invalid value "a/b": a valid config key must consist of alphanumeric characters, '-', '_' or '.'`],
    ['key ..', pod(', env: [{name: A, valueFrom: {configMapKeyRef: {name: c, key: ".."}}}]'), `spec.containers[0].env[0].valueFrom.configMapKeyRef.key: invalid value "..": must not be '..'`],
    ['envFrom with no source', pod(', envFrom: [{prefix: X_}]'), 'spec.containers[0].envFrom[0]: must specify one of: `configMapRef` or `secretRef`'],
    ['envFrom with both sources', pod(', envFrom: [{configMapRef: {name: c}, secretRef: {name: s}}]'), 'spec.containers[0].envFrom[0]: may not have more than one field specified at a time (configMapRef, secretRef)'],
    ['envFrom secretRef without a name', pod(', envFrom: [{secretRef: {optional: true}}]'), 'spec.containers[0].envFrom[0].secretRef.name: required'],
    ['a port name longer than 15', pod(', ports: [{containerPort: 80, name: metrics-exporter1}]'), `spec.containers[0].ports[0].name: invalid value "metrics-exporter1": ${IANA}`],
    ['a port name in capitals', pod(', ports: [{containerPort: 80, name: HTTP}]'), `spec.containers[0].ports[0].name: invalid value "HTTP": ${IANA}`],
    ['a port name of digits only', pod(', ports: [{containerPort: 80, name: "8080"}]'), `spec.containers[0].ports[0].name: invalid value "8080": ${IANA}`],
    ['a port name with --', pod(', ports: [{containerPort: 80, name: a--b}]'), `spec.containers[0].ports[0].name: invalid value "a--b": ${IANA}`],
    ['a port name twice', pod(', ports: [{containerPort: 80, name: web}, {containerPort: 81, name: web}]'), 'spec.containers[0].ports[1].name: duplicate value "web"'],
    ['hostPath type of another spelling', pod('', '  volumes: [{name: v, hostPath: {path: /srv, type: directory}}]\n'), 'spec.volumes[0].hostPath.type: unsupported value "directory": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"'],
    ['secret volume without secretName', pod('', '  volumes: [{name: v, secret: {defaultMode: 256}}]\n'), 'spec.volumes[0].secret.secretName: required'],
    ['configMap volume without a name', pod('', '  volumes: [{name: v, configMap: {}}]\n'), 'spec.volumes[0].configMap.name: required'],
    ['persistentVolumeClaim without claimName', pod('', '  volumes: [{name: v, persistentVolumeClaim: {readOnly: true}}]\n'), 'spec.volumes[0].persistentVolumeClaim.claimName: required'],
    ['a sysctl name with a space', pod('', "  securityContext: {sysctls: [{name: 'net.ipv4.ip forward', value: '1'}]}\n"), 'spec.securityContext.sysctls[0].name: invalid value "net.ipv4.ip forward": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$'],
    ['a sysctl twice', pod('', "  securityContext: {sysctls: [{name: net.core.somaxconn, value: '1024'}, {name: net.core.somaxconn, value: '2048'}]}\n"), 'spec.securityContext.sysctls[1].name: duplicate value "net.core.somaxconn"'],
    ['a sysctl without a name', pod('', "  securityContext: {sysctls: [{value: '1'}]}\n"), 'spec.securityContext.sysctls[0].name: required'],
    ['liveness successThreshold 3', pod(', livenessProbe: {exec: {command: ["true"]}, successThreshold: 3}'), 'spec.containers[0].livenessProbe.successThreshold: invalid value 3: must be 1'],
    ['startup successThreshold 2', pod(', startupProbe: {tcpSocket: {port: 80}, successThreshold: 2}'), 'spec.containers[0].startupProbe.successThreshold: invalid value 2: must be 1'],
    ['a negative probe delay', pod(', readinessProbe: {tcpSocket: {port: 80}, initialDelaySeconds: -5}'), 'spec.containers[0].readinessProbe.initialDelaySeconds: invalid value -5: must be greater than or equal to 0'],
    ['a probe grace period of 0', pod(', livenessProbe: {tcpSocket: {port: 80}, terminationGracePeriodSeconds: 0}'), 'spec.containers[0].livenessProbe.terminationGracePeriodSeconds: invalid value 0: must be greater than 0'],
  ];
  for (const [what, text, want] of rows) assert.equal(refusal(text), want, what);
});

test('what the API server takes stays accepted', () => {
  const fine = pod(
    ', env: [{name: A, valueFrom: {secretKeyRef: {name: db.creds, key: .pass_word-1}}}, {name: B, valueFrom: {configMapKeyRef: {name: cfg, key: k, optional: true}}}]' +
      ', envFrom: [{configMapRef: {name: cfg}}, {prefix: S_, secretRef: {name: s}}]' +
      ', ports: [{containerPort: 80, name: http}, {containerPort: 9090, name: metrics-9090}]' +
      ', readinessProbe: {tcpSocket: {port: 80}, successThreshold: 3}, livenessProbe: {exec: {command: ["true"]}, successThreshold: 1, terminationGracePeriodSeconds: 5}',
    "  volumes: [{name: a, hostPath: {path: /srv, type: ''}}, {name: b, hostPath: {path: /run/x.sock, type: Socket}}, {name: c, secret: {secretName: s}}, {name: d, configMap: {name: cfg}}, {name: e, persistentVolumeClaim: {claimName: data}}]\n" +
      "  securityContext: {sysctls: [{name: net.core.somaxconn, value: '1024'}, {name: kernel/shm_rmid_forced, value: '1'}]}\n",
  );
  assert.equal(refusal(fine), 'accepted');
});
