// Issue 9 item 7: --dry-run shows no value that came from a Secret unless --show-secrets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../src/kubelet/api-types';
import { generateContainerConfig } from '../../src/kubelet/container-config';
import { makeEnvironmentVariables, secretEnvNames } from '../../src/kubelet/env';
import { REDACTED_VALUE, redactionNote, redactRecorded } from '../../src/sync/redact';
import { GATES_133 } from '../fixtures/gates';

const pod: Pod = {
  metadata: { name: 'web', namespace: 'shop', uid: 'u-1' },
  spec: {
    enableServiceLinks: true,
    containers: [
      {
        name: 'app',
        image: 'nginx',
        envFrom: [{ secretRef: { name: 'db' }, prefix: 'DB_' }, { configMapRef: { name: 'cfg' } }],
        env: [
          { name: 'PW', valueFrom: { secretKeyRef: { name: 'api', key: 'token' } } },
          { name: 'FALLBACK', valueFrom: { secretKeyRef: { name: 'missing', key: 'k' } } },
          { name: 'URL', value: 'https://u:$(PW)@host' },
          { name: 'MODE', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'MODE' } } },
          { name: 'DB_USER', value: 'overridden in the spec' },
          { name: 'PLAIN', value: 'hello $(MODE)' },
        ],
      },
    ],
  },
};
const values = {
  secrets: { db: { USER: 'admin', PASS: 'hunter2' }, api: { token: 's3cret' } },
  configMaps: { cfg: { MODE: 'fast' } },
  env: { FALLBACK: 'from-env-file' },
};

test('variables from Secrets (and values expanded from them) are marked; configMap and literal values are not', () => {
  const envs = makeEnvironmentVariables(pod, pod.spec!.containers[0]!, { podIPs: [], nodeIPs: [], values });
  assert.deepEqual(
    envs.filter((e) => e.secret).map((e) => e.name),
    ['DB_PASS', 'PW', 'FALLBACK', 'URL'],
  );
  assert.deepEqual(secretEnvNames(pod, pod.spec!.containers[0]!, values), ['DB_PASS', 'PW', 'FALLBACK', 'URL']);
  assert.deepEqual(
    secretEnvNames(pod, pod.spec!.containers[0]!, undefined),
    ['PW', 'FALLBACK', 'URL'],
    'without values the references still count',
  );
});

test('recorded CreateContainer requests lose their secret values; everything else is left as it was', () => {
  const { config } = generateContainerConfig(pod, pod.spec!.containers[0]!, 'regular', {
    resolvConf: null,
    restartCount: 0,
    imageRef: 'sha256:1',
    podIPs: [],
    terminationLogName: '00000000',
    hugePageSizes: [],
    values,
    gates: GATES_133,
  });
  const recorded = [
    { service: 'RuntimeService' as const, rpc: 'RunPodSandbox', request: { config: {} } },
    { service: 'RuntimeService' as const, rpc: 'CreateContainer', request: { podSandboxId: 'x', config } },
  ];
  const { recorded: shown, redacted } = redactRecorded(recorded, pod, values);
  assert.equal(redacted, 4);
  assert.equal(shown[0], recorded[0]);
  const text = (v: Uint8Array) => new TextDecoder().decode(v);
  const envs = Object.fromEntries(
    (shown[1]!.request as { config: typeof config }).config.envs.map((kv) => [kv.key, text(kv.value)]),
  );
  assert.deepEqual(envs, {
    DB_PASS: REDACTED_VALUE,
    DB_USER: 'overridden in the spec',
    MODE: 'fast',
    PW: REDACTED_VALUE,
    FALLBACK: REDACTED_VALUE,
    URL: REDACTED_VALUE,
    PLAIN: 'hello fast',
  });
  const all = JSON.stringify(shown, (_k, v) => (v instanceof Uint8Array ? text(v) : v));
  for (const secret of ['hunter2', 's3cret', 'from-env-file']) assert.ok(!all.includes(secret), secret);
  assert.equal(text(config.envs.find((e) => e.key === 'PW')!.value), 's3cret', 'the request sent is not touched');
  assert.equal(redactionNote(4), '4 values from Secrets redacted; --show-secrets prints them');
  assert.equal(redactionNote(0), undefined);
});

test('a secret expanded into the command or the arguments ($(VAR)) is redacted there too', () => {
  const container = {
    ...pod.spec!.containers[0]!,
    command: ['sh', '-c', 'echo $(PW) $(MODE)'],
    args: ['--password=$(PW)', '--db=$(DB_PASS)', '--mode=$(MODE)'],
  };
  const withArgs: Pod = { ...pod, spec: { ...pod.spec!, containers: [container] } };
  const { config } = generateContainerConfig(withArgs, container, 'regular', {
    resolvConf: null,
    restartCount: 0,
    imageRef: 'sha256:1',
    podIPs: [],
    terminationLogName: '00000000',
    hugePageSizes: [],
    values,
    gates: GATES_133,
  });
  assert.deepEqual(
    config.args,
    ['--password=s3cret', '--db=hunter2', '--mode=fast'],
    'the request sent carries the values',
  );
  const recorded = [
    { service: 'RuntimeService' as const, rpc: 'CreateContainer', request: { podSandboxId: 'x', config } },
  ];
  const shown = (redactRecorded(recorded, withArgs, values).recorded[0]!.request as { config: typeof config }).config;
  assert.deepEqual(shown.command, ['sh', '-c', `echo ${REDACTED_VALUE} fast`]);
  assert.deepEqual(shown.args, [`--password=${REDACTED_VALUE}`, `--db=${REDACTED_VALUE}`, '--mode=fast']);
});
