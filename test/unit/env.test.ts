import { test } from 'node:test';
import { withInputFlags } from '../fixtures/input-flags';
import assert from 'node:assert/strict';
import type { Container, Pod } from '../../src/kubelet/api-types';
import {
  expand,
  expandContainerCommandAndArgs,
  expandSubPathExpr,
  makeEnvironmentVariables,
  mappingFuncFor,
  serviceEnvVars,
  sortPodIPs,
  type EnvironmentInputs,
} from '../../src/kubelet/env';

test('$(VAR) expansion rules', () => {
  const mapping = mappingFuncFor(
    new Map([
      ['A', 'alpha'],
      ['B', 'beta'],
      ['REF', '$(A)'],
      ['EMPTY', ''],
    ]),
  );
  const cases: Array<[string, string, string]> = [
    ['defined variable', '$(A)', 'alpha'],
    ['two variables and text', 'x-$(A)-$(B)-y', 'x-alpha-beta-y'],
    ['undefined stays as written', '$(NOPE)', '$(NOPE)'],
    ['empty value is defined', '[$(EMPTY)]', '[]'],
    ['$$ is a literal $', 'cost $$5', 'cost $5'],
    ['$$(A) escapes the reference', '$$(A)', '$(A)'],
    ['$$$(A): escaped $ then reference', '$$$(A)', '$alpha'],
    ['unterminated $( kept', 'echo $(A', 'echo $(A'],
    ['the first ) closes the reference: name "A $(B" is undefined', '$(A $(B)', '$(A $(B)'],
    ['unterminated at the end', 'x $(', 'x $('],
    ['$ followed by another character', '$A and $1', '$A and $1'],
    ['trailing lone $', 'price$', 'price$'],
    ['no recursion into values', '$(REF)', '$(A)'],
    ['empty name', '$()', '$()'],
    ['no operator', 'plain text', 'plain text'],
  ];
  for (const [name, input, want] of cases) assert.equal(expand(input, mapping), want, name);
});

const pod: Pod = {
  metadata: {
    name: 'web',
    namespace: 'shop',
    uid: 'u-1',
    labels: { app: 'web', tier: 'front' },
    annotations: { note: 'say "hi"' },
  },
  spec: { nodeName: 'node-1', serviceAccountName: 'builder', enableServiceLinks: true, containers: [] },
};
const inputs: EnvironmentInputs = { podIPs: ['fd00::7', '10.1.2.3'], nodeIPs: ['192.168.1.5', 'fd00::1'] };
const envOf = (c: Partial<Container>, i: Partial<EnvironmentInputs> = {}, p: Pod = pod) =>
  makeEnvironmentVariables(p, { name: 'app', image: 'x', ...c }, { ...inputs, ...i }).map(
    (e) => `${e.name}=${e.value}`,
  );

test('env keeps spec order, later duplicates override in place, expansion sees earlier variables only', () => {
  assert.deepEqual(
    envOf({
      env: [
        { name: 'GREETING', value: 'hello $(NAME)' },
        { name: 'NAME', value: 'world' },
        { name: 'MSG', value: '$(GREETING), $(NAME)!' },
        { name: 'GREETING', value: 'bye' },
        { name: 'UNSET' },
      ],
    }),
    ['GREETING=bye', 'NAME=world', 'MSG=hello $(NAME), world!', 'UNSET='],
  );
});

test('fieldRef values', () => {
  const cases: Array<[string, string]> = [
    ['metadata.name', 'web'],
    ['metadata.namespace', 'shop'],
    ['metadata.uid', 'u-1'],
    ["metadata.labels['tier']", 'front'],
    ["metadata.labels['missing']", ''],
    ["metadata.annotations['note']", 'say "hi"'],
    ['metadata.labels', 'app="web"\ntier="front"'],
    ['metadata.annotations', 'note="say \\"hi\\""'],
    ['spec.nodeName', 'node-1'],
    ['spec.serviceAccountName', 'builder'],
    ['status.hostIP', '192.168.1.5'],
    ['status.hostIPs', '192.168.1.5,fd00::1'],
    ['status.podIP', '10.1.2.3'],
    ['status.podIPs', '10.1.2.3,fd00::7'],
  ];
  for (const [path, want] of cases) {
    assert.deepEqual(
      envOf({ env: [{ name: 'V', valueFrom: { fieldRef: { fieldPath: path } } }] }),
      [`V=${want}`],
      path,
    );
  }
  assert.throws(
    () => envOf({ env: [{ name: 'V', valueFrom: { fieldRef: { fieldPath: 'status.phase' } } }] }),
    /container app: env V: fieldRef status\.phase is not supported/,
  );
  assert.throws(
    () => envOf({ env: [{ name: 'V', valueFrom: { fieldRef: { fieldPath: 'status.hostIP' } } }] }, { nodeIPs: [] }),
    /needs the node's IP/,
  );
});

test('pod IPs are ordered by the node primary IP family', () => {
  assert.deepEqual(sortPodIPs(['fd00::7', '10.1.2.3', '10.9.9.9'], ['192.168.1.5']), ['10.1.2.3', 'fd00::7']);
  assert.deepEqual(sortPodIPs(['10.1.2.3', 'fd00::7'], ['fd00::1']), ['fd00::7', '10.1.2.3']);
  assert.deepEqual(sortPodIPs(['10.1.2.3'], []), ['10.1.2.3']);
  assert.deepEqual(sortPodIPs([], ['192.168.1.5']), []);
});

test('resourceFieldRef values with divisors and node-allocatable defaults', () => {
  const resources = { requests: { cpu: '250m', memory: '64Mi' }, limits: { memory: '128Mi' } };
  const ref = (resource: string, divisor?: string) => ({
    name: 'V',
    valueFrom: { resourceFieldRef: { resource, ...(divisor ? { divisor } : {}) } },
  });
  const cases: Array<[string, string | undefined, string]> = [
    ['requests.cpu', undefined, '1'],
    ['requests.cpu', '1m', '250'],
    ['requests.memory', '1Mi', '64'],
    ['limits.memory', undefined, String(128 * 1024 * 1024)],
    ['limits.cpu', undefined, '4'],
  ];
  for (const [resource, divisor, want] of cases) {
    assert.deepEqual(
      envOf({ resources, env: [ref(resource, divisor)] }, { nodeAllocatable: { cpu: '4' } }),
      [`V=${want}`],
      `${resource} / ${divisor ?? '1'}`,
    );
  }
  assert.throws(
    () => envOf({ resources, env: [ref('limits.cpu')] }),
    /no limit, so kubelet uses the node's allocatable cpu \(not given\)/,
  );
  assert.throws(() => envOf({ resources, env: [ref('requests.gpu')] }), /unsupported container resource requests\.gpu/);
});

test('secret and configMap values come from the supplied values, else a clear error', () => {
  const values = {
    secrets: { db: { password: 's3cret' } },
    configMaps: { cfg: { LEVEL: 'debug', 'bad key': 'x', MODE: 'fast' } },
    env: { TOKEN: 'from-env-file' },
  };
  assert.deepEqual(
    envOf(
      {
        envFrom: [{ configMapRef: { name: 'cfg' }, prefix: 'CFG_' }],
        env: [
          { name: 'PW', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
          { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'other', key: 'token' } } },
          { name: 'OPT', valueFrom: { configMapKeyRef: { name: 'none', key: 'k', optional: true } } },
          { name: 'LVL', value: '$(CFG_LEVEL)' },
        ],
      },
      { values, relaxedEnvVarNames: false },
    ),
    ['CFG_LEVEL=debug', 'CFG_MODE=fast', 'PW=s3cret', 'TOKEN=from-env-file', 'LVL=debug'],
  );
  // The kubelet layer names the missing input, not the flag: the command line adds how to give it.
  const missing = [
    [
      () => envOf({ env: [{ name: 'FOO', valueFrom: { secretKeyRef: { name: 'db', key: 'nope' } } }] }, { values }),
      'container app: env FOO: secretKeyRef needs a value',
      'configmap-secret-value',
      'container app: env FOO: secretKeyRef needs a value: pass it with --env-file',
    ],
    [
      () => envOf({ env: [{ name: 'BAR', valueFrom: { configMapKeyRef: { name: 'x', key: 'y' } } }] }),
      'container app: env BAR: configMapKeyRef needs a value',
      'configmap-secret-value',
      'container app: env BAR: configMapKeyRef needs a value: pass it with --env-file',
    ],
    [
      () => envOf({ envFrom: [{ secretRef: { name: 'missing' } }] }),
      'container app: envFrom secret missing needs its values',
      'configmap-secret-values',
      'container app: envFrom secret missing needs its values: pass them with --env-file',
    ],
  ] as const;
  for (const [run, message, needs, shown] of missing) {
    assert.throws(run, { name: 'SyncpodError', message, needs });
    withInputFlags(() => assert.throws(run, { name: 'SyncpodError', message: shown, needs }));
  }
  assert.deepEqual(envOf({ envFrom: [{ secretRef: { name: 'missing', optional: true } }] }), []);
});

test('service-link variables only for supplied services', () => {
  const svc = {
    namespace: 'shop',
    name: 'redis-main',
    clusterIP: '10.0.0.11',
    ports: [
      { name: 'db', port: 6379, protocol: 'TCP' },
      { port: 9121, protocol: 'UDP' },
    ],
  };
  assert.deepEqual(
    serviceEnvVars(svc).map((e) => `${e.name}=${e.value}`),
    [
      'REDIS_MAIN_SERVICE_HOST=10.0.0.11',
      'REDIS_MAIN_SERVICE_PORT=6379',
      'REDIS_MAIN_SERVICE_PORT_DB=6379',
      'REDIS_MAIN_PORT=tcp://10.0.0.11:6379',
      'REDIS_MAIN_PORT_6379_TCP=tcp://10.0.0.11:6379',
      'REDIS_MAIN_PORT_6379_TCP_PROTO=tcp',
      'REDIS_MAIN_PORT_6379_TCP_PORT=6379',
      'REDIS_MAIN_PORT_6379_TCP_ADDR=10.0.0.11',
      'REDIS_MAIN_PORT_9121_UDP=udp://10.0.0.11:9121',
      'REDIS_MAIN_PORT_9121_UDP_PROTO=udp',
      'REDIS_MAIN_PORT_9121_UDP_PORT=9121',
      'REDIS_MAIN_PORT_9121_UDP_ADDR=10.0.0.11',
    ],
  );
  assert.deepEqual(serviceEnvVars({ ...svc, clusterIP: 'None' }), [], 'headless');
  assert.equal(
    serviceEnvVars({ namespace: 'd', name: 'v6', clusterIP: 'fd00::10', ports: [{ port: 80 }] })[2]!.value,
    'tcp://[fd00::10]:80',
  );

  const kube = {
    namespace: 'default',
    name: 'kubernetes',
    clusterIP: '10.96.0.1',
    ports: [{ name: 'https', port: 443, protocol: 'TCP' }],
  };
  const other = { namespace: 'elsewhere', name: 'x', clusterIP: '10.0.0.99', ports: [{ port: 1 }] };
  const names = (p: Pod, env: Container['env'] = []) =>
    makeEnvironmentVariables(p, { name: 'app', image: 'x', env }, { ...inputs, services: [svc, kube, other] }).map(
      (e) => e.name,
    );
  const linked = names(pod);
  assert.ok(linked.includes('KUBERNETES_SERVICE_HOST') && linked.includes('REDIS_MAIN_SERVICE_HOST'));
  assert.ok(!linked.some((n) => n.startsWith('X_')), 'services of other namespaces are ignored');
  assert.ok(
    linked.indexOf('KUBERNETES_SERVICE_HOST') < linked.indexOf('REDIS_MAIN_SERVICE_HOST'),
    'services sorted by name',
  );
  const unlinked = names({ ...pod, spec: { ...pod.spec!, enableServiceLinks: false } });
  assert.ok(
    unlinked.includes('KUBERNETES_SERVICE_HOST') && !unlinked.includes('REDIS_MAIN_SERVICE_HOST'),
    'kubernetes service always',
  );
  const overridden = names(pod, [
    { name: 'KUBERNETES_SERVICE_HOST', value: 'mine' },
    { name: 'X', value: '$(REDIS_MAIN_SERVICE_PORT)' },
  ]);
  assert.equal(
    overridden.filter((n) => n === 'KUBERNETES_SERVICE_HOST').length,
    1,
    'a container variable replaces the service one',
  );
  assert.equal(overridden[0], 'KUBERNETES_SERVICE_HOST', 'container variables come first');
  const withExpansion = makeEnvironmentVariables(
    pod,
    { name: 'app', image: 'x', env: [{ name: 'X', value: '$(REDIS_MAIN_SERVICE_PORT)' }] },
    { ...inputs, services: [svc] },
  );
  assert.equal(withExpansion[0]!.value, '6379', 'env values expand service variables');
});

test('command and args expand against the final environment', () => {
  const envs = [
    { name: 'A', value: 'one' },
    { name: 'A', value: 'two' },
    { name: 'B', value: '$(A)' },
  ];
  assert.deepEqual(
    expandContainerCommandAndArgs({ name: 'c', command: ['run', '$(A)'], args: ['--b=$(B)', '$$(A)', '$(C)'] }, envs),
    {
      command: ['run', 'two'],
      args: ['--b=$(A)', '$(A)', '$(C)'],
    },
  );
  assert.deepEqual(expandContainerCommandAndArgs({ name: 'c' }, envs), { command: [], args: [] });
});

test('subPathExpr needs every referenced variable set and non-empty', () => {
  const envs = [
    { name: 'POD', value: 'web' },
    { name: 'EMPTY', value: '' },
  ];
  assert.equal(expandSubPathExpr('logs/$(POD)', envs), 'logs/web');
  assert.throws(() => expandSubPathExpr('$(Z)/$(EMPTY)/$(A)', envs), { message: 'missing value for A, EMPTY, Z' });
});
