// kubelet's TestMakeEnvironmentVariables (pkg/kubelet/kubelet_pods_test.go), re-expressed: service
// links (the master service of `default` always, the pod namespace's services with
// enableServiceLinks, services without a cluster IP skipped), downward API fields and pod IPs by
// the node's family, $(VAR) expansion, configMap/secret key refs and envFrom with prefixes, missing
// and optional sources, envFrom keys kubelet keeps. Compared as kubelet compares them: sorted by name.
// Not re-expressed: the "services not synced" rows (syncpod reads no API server; services are inputs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod } from '../../src/kubelet/api-types';
import { makeEnvironmentVariables, type ServiceInfo, type ValueSources } from '../../src/kubelet/env';
import { SyncpodError } from '../../src/errors';

const svc = (name: string, namespace: string, clusterIP: string, port: number): ServiceInfo => ({
  name,
  namespace,
  clusterIP,
  ports: [{ port, protocol: 'TCP' }],
});
const SERVICES: ServiceInfo[] = [
  svc('kubernetes', 'default', '1.2.3.1', 8081),
  svc('test', 'test1', '1.2.3.3', 8083),
  svc('kubernetes', 'test2', '1.2.3.4', 8084),
  svc('test', 'test2', '1.2.3.5', 8085),
  svc('test', 'test2', 'None', 8085),
  svc('test', 'test2', '', 8085),
  svc('not-special', 'default', '1.2.3.8', 8088),
  svc('not-special', 'default', 'None', 8088),
  svc('not-special', 'default', '', 8088),
];
const HOST_IP = '127.0.0.1';
const HOST_IPV6 = '::1';

/** The service variables of one service with one TCP port. */
function linkVars(prefix: string, ip: string, port: number): Array<[string, string]> {
  const url = `tcp://${ip}:${port}`;
  return [
    [`${prefix}_SERVICE_HOST`, ip],
    [`${prefix}_SERVICE_PORT`, String(port)],
    [`${prefix}_PORT`, url],
    [`${prefix}_PORT_${port}_TCP`, url],
    [`${prefix}_PORT_${port}_TCP_PROTO`, 'tcp'],
    [`${prefix}_PORT_${port}_TCP_PORT`, String(port)],
    [`${prefix}_PORT_${port}_TCP_ADDR`, ip],
  ];
}
const MASTER = linkVars('KUBERNETES', '1.2.3.1', 8081);
const TEST1 = linkVars('TEST', '1.2.3.3', 8083);

interface Case {
  name: string;
  ns: string;
  /** undefined: the field is absent from the pod object. */
  enableServiceLinks: boolean | undefined;
  relaxed?: boolean;
  container: Partial<Container>;
  /** No service lister in kubelet: no service variables at all. */
  noServices?: boolean;
  values?: ValueSources;
  podIPs?: string[];
  want?: Array<[string, string]>;
  error?: RegExp;
}

const fieldRef = (name: string, fieldPath: string) => ({
  name,
  valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath } },
});
const literalEnv = [
  { name: 'TEST_LITERAL', value: 'test-test-test' },
  { name: 'EXPANSION_TEST', value: '$(REPLACE_ME)' },
  { name: 'DUPE_TEST', value: 'ENV_VAR' },
];
const expansionEnv = [
  { name: 'TEST_LITERAL', value: 'test-test-test' },
  fieldRef('POD_NAME', 'metadata.name'),
  { name: 'OUT_OF_ORDER_TEST', value: '$(OUT_OF_ORDER_TARGET)' },
  { name: 'OUT_OF_ORDER_TARGET', value: 'FOO' },
  { name: 'EMPTY_VAR' },
  { name: 'EMPTY_TEST', value: 'foo-$(EMPTY_VAR)' },
  { name: 'POD_NAME_TEST2', value: 'test2-$(POD_NAME)' },
  { name: 'POD_NAME_TEST3', value: '$(POD_NAME_TEST2)-3' },
  { name: 'LITERAL_TEST', value: 'literal-$(TEST_LITERAL)' },
];
const expansionWant: Array<[string, string]> = [
  ['TEST_LITERAL', 'test-test-test'],
  ['POD_NAME', 'dapi-test-pod-name'],
  ['POD_NAME_TEST2', 'test2-dapi-test-pod-name'],
  ['POD_NAME_TEST3', 'test2-dapi-test-pod-name-3'],
  ['LITERAL_TEST', 'literal-test-test-test'],
  ['OUT_OF_ORDER_TEST', '$(OUT_OF_ORDER_TARGET)'],
  ['OUT_OF_ORDER_TARGET', 'FOO'],
  ['TEST_UNDEFINED', '$(UNDEFINED_VAR)'],
  ['EMPTY_VAR', ''],
  ['EMPTY_TEST', 'foo-'],
];
const configMapFrom = (prefix?: string) => ({
  ...(prefix ? { prefix } : {}),
  configMapRef: { name: 'test-config-map' },
});
const secretFrom = (prefix?: string) => ({ ...(prefix ? { prefix } : {}), secretRef: { name: 'test-secret' } });
const configMapValues: ValueSources = {
  configMaps: { 'test-config-map': { REPLACE_ME: 'FROM_CONFIG_MAP', DUPE_TEST: 'CONFIG_MAP' } },
};
const secretValues: ValueSources = { secrets: { 'test-secret': { REPLACE_ME: 'FROM_SECRET', DUPE_TEST: 'SECRET' } } };
const fromWant = (source: string, prefix: string): Array<[string, string]> => [
  ['TEST_LITERAL', 'test-test-test'],
  ['REPLACE_ME', `FROM_${source}`],
  ['EXPANSION_TEST', `FROM_${source}`],
  ['DUPE_TEST', 'ENV_VAR'],
  [`${prefix}REPLACE_ME`, `FROM_${source}`],
  [`${prefix}DUPE_TEST`, source],
];
const downward = [
  'POD_IP',
  'status.podIP',
  'POD_IPS',
  'status.podIPs',
  'HOST_IP',
  'status.hostIP',
  'HOST_IPS',
  'status.hostIPs',
];
const downwardIPs = [0, 2, 4, 6].map((i) => fieldRef(downward[i]!, downward[i + 1]!));
const downwardIPsWant: Array<[string, string]> = [
  ['POD_IP', '1.2.3.4'],
  ['POD_IPS', '1.2.3.4,fd00::6'],
  ['HOST_IP', HOST_IP],
  ['HOST_IPS', `${HOST_IP},${HOST_IPV6}`],
];

const cases: Case[] = [
  {
    name: 'api server = Y, kubelet = Y',
    ns: 'test1',
    enableServiceLinks: false,
    container: { env: [{ name: 'FOO', value: 'BAR' }, ...TEST1.map(([name, value]) => ({ name, value }))] },
    want: [['FOO', 'BAR'], ...TEST1, ...MASTER],
  },
  {
    name: 'api server = Y, kubelet = N',
    ns: 'test1',
    enableServiceLinks: false,
    noServices: true,
    container: { env: [{ name: 'FOO', value: 'BAR' }, ...TEST1.map(([name, value]) => ({ name, value }))] },
    want: [['FOO', 'BAR'], ...TEST1],
  },
  {
    name: 'api server = N; kubelet = Y',
    ns: 'test1',
    enableServiceLinks: false,
    container: { env: [{ name: 'FOO', value: 'BAZ' }] },
    want: [['FOO', 'BAZ'], ...MASTER],
  },
  {
    name: 'api server = N; kubelet = Y; service env vars',
    ns: 'test1',
    enableServiceLinks: true,
    container: { env: [{ name: 'FOO', value: 'BAZ' }] },
    want: [['FOO', 'BAZ'], ...TEST1, ...MASTER],
  },
  {
    name: 'master service in pod ns',
    ns: 'test2',
    enableServiceLinks: false,
    container: { env: [{ name: 'FOO', value: 'ZAP' }] },
    want: [['FOO', 'ZAP'], ...MASTER],
  },
  {
    name: 'master service in pod ns, service env vars',
    ns: 'test2',
    enableServiceLinks: true,
    container: { env: [{ name: 'FOO', value: 'ZAP' }] },
    want: [['FOO', 'ZAP'], ...linkVars('TEST', '1.2.3.5', 8085), ...linkVars('KUBERNETES', '1.2.3.4', 8084)],
  },
  { name: 'pod in master service ns', ns: 'default', enableServiceLinks: false, container: {}, want: [...MASTER] },
  {
    name: 'pod in master service ns, service env vars',
    ns: 'default',
    enableServiceLinks: true,
    container: {},
    want: [...linkVars('NOT_SPECIAL', '1.2.3.8', 8088), ...MASTER],
  },
  {
    name: 'downward api pod',
    ns: 'downward-api',
    enableServiceLinks: false,
    noServices: true,
    podIPs: ['1.2.3.4', 'fd00::6'],
    container: {
      env: [
        fieldRef('POD_NAME', 'metadata.name'),
        fieldRef('POD_NAMESPACE', 'metadata.namespace'),
        fieldRef('POD_NODE_NAME', 'spec.nodeName'),
        fieldRef('POD_SERVICE_ACCOUNT_NAME', 'spec.serviceAccountName'),
        ...downwardIPs,
      ],
    },
    want: [
      ['POD_NAME', 'dapi-test-pod-name'],
      ['POD_NAMESPACE', 'downward-api'],
      ['POD_NODE_NAME', 'node-name'],
      ['POD_SERVICE_ACCOUNT_NAME', 'special'],
      ...downwardIPsWant,
    ],
  },
  {
    name: 'downward api pod ips reverse order',
    ns: 'downward-api',
    enableServiceLinks: false,
    noServices: true,
    podIPs: ['fd00::6', '1.2.3.4'],
    container: { env: downwardIPs },
    want: downwardIPsWant,
  },
  {
    name: 'downward api pod ips multiple ips',
    ns: 'downward-api',
    enableServiceLinks: false,
    noServices: true,
    podIPs: ['1.2.3.4', '192.168.1.1.', 'fd00::6'],
    container: { env: downwardIPs },
    want: downwardIPsWant,
  },
  {
    name: 'env expansion',
    ns: 'test1',
    enableServiceLinks: false,
    container: { env: [...expansionEnv, { name: 'TEST_UNDEFINED', value: '$(UNDEFINED_VAR)' }] },
    want: [...expansionWant, ...MASTER],
  },
  {
    name: 'env expansion, service env vars',
    ns: 'test1',
    enableServiceLinks: true,
    container: {
      env: [
        ...expansionEnv,
        { name: 'SERVICE_VAR_TEST', value: '$(TEST_SERVICE_HOST):$(TEST_SERVICE_PORT)' },
        { name: 'TEST_UNDEFINED', value: '$(UNDEFINED_VAR)' },
      ],
    },
    want: [...expansionWant, ['SERVICE_VAR_TEST', '1.2.3.3:8083'], ...TEST1, ...MASTER],
  },
  {
    name: 'configmapkeyref_missing_optional',
    ns: 'test',
    enableServiceLinks: false,
    container: {
      env: [
        {
          name: 'POD_NAME',
          valueFrom: { configMapKeyRef: { name: 'missing-config-map', key: 'key', optional: true } },
        },
      ],
    },
    want: [...MASTER],
  },
  {
    name: 'configmapkeyref_missing_key_optional',
    ns: 'test',
    enableServiceLinks: false,
    noServices: true,
    values: { configMaps: { 'test-config-map': { a: 'b' } } },
    container: {
      env: [
        { name: 'POD_NAME', valueFrom: { configMapKeyRef: { name: 'test-config-map', key: 'key', optional: true } } },
      ],
    },
    want: [],
  },
  {
    name: 'secretkeyref_missing_optional',
    ns: 'test',
    enableServiceLinks: false,
    container: {
      env: [{ name: 'POD_NAME', valueFrom: { secretKeyRef: { name: 'missing-secret', key: 'key', optional: true } } }],
    },
    want: [...MASTER],
  },
  {
    name: 'secretkeyref_missing_key_optional',
    ns: 'test',
    enableServiceLinks: false,
    noServices: true,
    values: { secrets: { 'test-secret': { a: 'b' } } },
    container: {
      env: [{ name: 'POD_NAME', valueFrom: { secretKeyRef: { name: 'test-secret', key: 'key', optional: true } } }],
    },
    want: [],
  },
  {
    name: 'configmap',
    ns: 'test1',
    enableServiceLinks: false,
    values: configMapValues,
    container: { envFrom: [configMapFrom(), configMapFrom('p_')], env: literalEnv },
    want: [...fromWant('CONFIG_MAP', 'p_'), ...MASTER],
  },
  {
    name: 'configmap allow prefix to start with a digital',
    ns: 'test1',
    enableServiceLinks: false,
    relaxed: true,
    values: configMapValues,
    container: { envFrom: [configMapFrom(), configMapFrom('1_')], env: literalEnv },
    want: [...fromWant('CONFIG_MAP', '1_'), ...MASTER],
  },
  {
    name: 'configmap, service env vars',
    ns: 'test1',
    enableServiceLinks: true,
    values: configMapValues,
    container: { envFrom: [configMapFrom(), configMapFrom('p_')], env: literalEnv },
    want: [...fromWant('CONFIG_MAP', 'p_'), ...TEST1, ...MASTER],
  },
  {
    name: 'configmap_missing',
    ns: 'test1',
    enableServiceLinks: false,
    container: { envFrom: [configMapFrom()] },
    error: /test-config-map/,
  },
  {
    name: 'configmap_missing_optional',
    ns: 'test',
    enableServiceLinks: false,
    container: { envFrom: [{ configMapRef: { name: 'missing-config-map', optional: true } }] },
    want: [...MASTER],
  },
  {
    name: 'configmap_invalid_keys_valid',
    ns: 'test',
    enableServiceLinks: false,
    values: { configMaps: { 'test-config-map': { '1234': 'abc' } } },
    container: { envFrom: [configMapFrom('p_')] },
    want: [['p_1234', 'abc'], ...MASTER],
  },
  {
    name: 'secret',
    ns: 'test1',
    enableServiceLinks: false,
    values: secretValues,
    container: { envFrom: [secretFrom(), secretFrom('p_')], env: literalEnv },
    want: [...fromWant('SECRET', 'p_'), ...MASTER],
  },
  {
    name: 'secret, service env vars',
    ns: 'test1',
    enableServiceLinks: true,
    values: secretValues,
    container: { envFrom: [secretFrom(), secretFrom('p_')], env: literalEnv },
    want: [...fromWant('SECRET', 'p_'), ...TEST1, ...MASTER],
  },
  {
    name: 'secret_missing',
    ns: 'test1',
    enableServiceLinks: false,
    container: { envFrom: [secretFrom()] },
    error: /test-secret/,
  },
  {
    name: 'secret_missing_optional',
    ns: 'test',
    enableServiceLinks: false,
    container: { envFrom: [{ secretRef: { name: 'missing-secret', optional: true } }] },
    want: [...MASTER],
  },
  {
    name: 'secret_invalid_keys_valid',
    ns: 'test',
    enableServiceLinks: false,
    values: { secrets: { 'test-secret': { '1234.name': 'abc' } } },
    container: { envFrom: [secretFrom('p_')] },
    want: [['p_1234.name', 'abc'], ...MASTER],
  },
  {
    name: 'nil_enableServiceLinks',
    ns: 'test',
    enableServiceLinks: undefined,
    values: { secrets: { 'test-secret': { '1234.name': 'abc' } } },
    container: { envFrom: [secretFrom('p_')] },
    error: /enableServiceLinks/,
  },
];

const sorted = (list: Array<[string, string]>) => [...list].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

test('TestMakeEnvironmentVariables', () => {
  for (const c of cases) {
    const pod: Pod = {
      metadata: { namespace: c.ns, name: 'dapi-test-pod-name', annotations: {} },
      spec: {
        serviceAccountName: 'special',
        nodeName: 'node-name',
        ...(c.enableServiceLinks !== undefined ? { enableServiceLinks: c.enableServiceLinks } : {}),
        containers: [{ name: 'c', ...c.container }],
      },
    };
    const run = () =>
      makeEnvironmentVariables(pod, pod.spec!.containers[0], {
        podIPs: c.podIPs ?? [],
        nodeIPs: [HOST_IP, HOST_IPV6],
        services: c.noServices ? [] : SERVICES,
        ...(c.values ? { values: c.values } : {}),
        relaxedEnvVarNames: c.relaxed ?? false,
      });
    if (c.error) {
      assert.throws(run, (err: unknown) => err instanceof SyncpodError && c.error!.test(err.message), c.name);
      continue;
    }
    const got = run().map((e) => [e.name, e.value] as [string, string]);
    assert.deepEqual(sorted(got), sorted(c.want!), c.name);
  }
});
