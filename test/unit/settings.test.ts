// Endpoint, timeout and config-file resolution as crictl does it: flag > env > crictl.yaml > defaults.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { DEFAULT_RUNTIME_ENDPOINTS, parseTimeout, resolveSettings, type GlobalFlags } from '../../src/config/settings';
import { parseEndpoint } from '../../src/cri/endpoint';

function settings(flags: GlobalFlags, env: Record<string, string> = {}, files: Record<string, string> = {}) {
  return resolveSettings({ flags, env, readFile: (p) => files[p], parseYaml: parse });
}

describe('endpoint resolution', () => {
  const file = {
    '/etc/crictl.yaml':
      'runtime-endpoint: unix:///from/config.sock\nimage-endpoint: unix:///img/config.sock\ntimeout: 7\ndebug: true\n',
  };
  const cases: Array<[string, GlobalFlags, Record<string, string>, Record<string, string>, string, string]> = [
    [
      'the flag wins over env and config',
      { runtimeEndpoint: 'unix:///flag.sock' },
      { CONTAINER_RUNTIME_ENDPOINT: 'unix:///env.sock' },
      file,
      'unix:///flag.sock',
      'flag',
    ],
    [
      'env wins over the config file',
      {},
      { CONTAINER_RUNTIME_ENDPOINT: 'unix:///env.sock' },
      file,
      'unix:///env.sock',
      'env',
    ],
    ['the config file wins over the defaults', {}, {}, file, 'unix:///from/config.sock', 'config'],
    ['nothing set: the first default', {}, {}, {}, DEFAULT_RUNTIME_ENDPOINTS[0], 'default'],
  ];
  for (const [name, flags, env, files, endpoint, source] of cases) {
    test(name, () => {
      const s = settings(flags, env, files);
      assert.equal(s.runtimeEndpoints[0], endpoint);
      assert.equal(s.runtimeEndpointSource, source);
    });
  }

  test('without configuration, the three default sockets are probed in crictl order', () => {
    assert.deepEqual(settings({}).runtimeEndpoints, [
      'unix:///run/containerd/containerd.sock',
      'unix:///run/crio/crio.sock',
      'unix:///var/run/cri-dockerd.sock',
    ]);
  });

  test('the image endpoint: flag, env, config, else the runtime endpoint', () => {
    assert.equal(settings({ imageEndpoint: 'unix:///i.sock' }, {}, file).imageEndpoint, 'unix:///i.sock');
    assert.equal(settings({}, { IMAGE_SERVICE_ENDPOINT: 'unix:///ie.sock' }, file).imageEndpoint, 'unix:///ie.sock');
    assert.equal(settings({}, {}, file).imageEndpoint, 'unix:///img/config.sock');
    assert.equal(settings({}, {}, {}).imageEndpoint, undefined);
  });

  test('--config and CRI_CONFIG_FILE name the file', () => {
    const files = { '/x.yaml': 'runtime-endpoint: /x.sock\n', '/y.yaml': 'runtime-endpoint: /y.sock\n' };
    assert.equal(settings({ config: '/x.yaml' }, { CRI_CONFIG_FILE: '/y.yaml' }, files).runtimeEndpoints[0], '/x.sock');
    assert.equal(settings({}, { CRI_CONFIG_FILE: '/y.yaml' }, files).runtimeEndpoints[0], '/y.sock');
  });
});

describe('timeout and debug', () => {
  test('default 2s; config seconds; flag durations', () => {
    assert.equal(settings({}).timeoutMs, 2000);
    assert.equal(settings({}, {}, { '/etc/crictl.yaml': 'timeout: 7\n' }).timeoutMs, 7000);
    assert.equal(settings({ timeout: '500ms' }, {}, { '/etc/crictl.yaml': 'timeout: 7\n' }).timeoutMs, 500);
    assert.equal(settings({}, {}, { '/etc/crictl.yaml': 'debug: true\n' }).debug, true);
  });
  for (const [text, ms] of [
    ['2s', 2000],
    ['1m30s', 90000],
    ['3', 3000],
    ['250ms', 250],
    ['1.5s', 1500],
  ] as const) {
    test(`--timeout ${text} is ${ms} ms`, () => assert.equal(parseTimeout(text), ms));
  }
  for (const bad of ['soon', '2x', '-1s', '0s', '']) {
    test(`--timeout "${bad}" is refused`, () => assert.throws(() => parseTimeout(bad), /--timeout/));
  }
  test('crictl.yaml timeout has the same ceiling as --timeout (596h)', () => {
    assert.throws(() => parseTimeout('99999999999'), {
      message: '--timeout: must be between 1ms and 596h, got "99999999999"',
    });
    assert.throws(() => settings({}, {}, { '/etc/crictl.yaml': 'timeout: 99999999999\n' }), {
      message: '/etc/crictl.yaml: timeout: must be between 1ms and 596h, got "99999999999"',
    });
    assert.equal(settings({}, {}, { '/etc/crictl.yaml': 'timeout: 2147483\n' }).timeoutMs, 2147483000);
  });
});

describe('config file errors are one line naming the file', () => {
  const cases: Array<[string, RegExp]> = [
    ['runtime-endpoint: /a\nbogus: 1\n', /\/etc\/crictl\.yaml: config option "bogus" is not valid/],
    ['timeout: soon\n', /\/etc\/crictl\.yaml: timeout: not a whole number of seconds/],
    ['debug: maybe\n', /\/etc\/crictl\.yaml: debug: not a boolean/],
    ['- a\n- b\n', /\/etc\/crictl\.yaml: expected a mapping/],
    ['runtime-endpoint: [unclosed\n', /\/etc\/crictl\.yaml: /],
  ];
  for (const [text, re] of cases) {
    test(JSON.stringify(text), () => assert.throws(() => settings({}, {}, { '/etc/crictl.yaml': text }), re));
  }
  test('an explicitly named config file that does not exist', () => {
    assert.throws(() => settings({ config: '/nope.yaml' }), /config file \/nope\.yaml: no such file/);
  });
  test('--api accepts v1 and v1alpha2 only', () => {
    assert.equal(settings({ api: 'v1alpha2' }).api, 'v1alpha2');
    assert.throws(() => settings({ api: 'v2' }), /--api: must be v1 or v1alpha2/);
  });
});

describe('endpoints', () => {
  for (const [text, target] of [
    ['unix:///run/containerd/containerd.sock', 'unix:///run/containerd/containerd.sock'],
    ['/run/crio/crio.sock', 'unix:///run/crio/crio.sock'],
    ['unix:/var/run/x.sock', 'unix:///var/run/x.sock'],
  ] as const) {
    test(`${text} -> ${target}`, () => assert.equal(parseEndpoint(text).target, target));
  }
  test('other schemes and relative paths are refused', () => {
    assert.throws(() => parseEndpoint('tcp://10.0.0.1:1234'), /unsupported protocol/);
    assert.throws(() => parseEndpoint('npipe:////./pipe/x'), /unsupported protocol|absolute/);
    assert.throws(() => parseEndpoint('run/x.sock'), /must be absolute/);
  });
});

describe("the running kubelet's endpoints (node profile)", () => {
  const kubelet = () => ({ runtime: 'unix:///kubelet/runtime.sock', image: 'unix:///kubelet/image.sock' });
  const withKubelet = (flags: GlobalFlags, env: Record<string, string> = {}, files: Record<string, string> = {}) =>
    resolveSettings({ flags, env, readFile: (p) => files[p], parseYaml: parse, kubeletEndpoints: kubelet });
  test("used only when flag, env and crictl.yaml name nothing, before crictl's default sockets", () => {
    const s = withKubelet({});
    assert.deepEqual(s.runtimeEndpoints, ['unix:///kubelet/runtime.sock']);
    assert.equal(s.runtimeEndpointSource, 'kubelet');
    assert.equal(s.imageEndpoint, 'unix:///kubelet/image.sock');
    assert.equal(s.imageEndpointSource, 'kubelet');
  });
  test("crictl's own sources win, and then the kubelet's image endpoint is not mixed in", () => {
    for (const s of [
      withKubelet({ runtimeEndpoint: 'unix:///flag.sock' }),
      withKubelet({}, { CONTAINER_RUNTIME_ENDPOINT: 'unix:///env.sock' }),
      withKubelet({}, {}, { '/etc/crictl.yaml': 'runtime-endpoint: unix:///cfg.sock\n' }),
    ]) {
      assert.notEqual(s.runtimeEndpointSource, 'kubelet');
      assert.equal(s.imageEndpoint, undefined);
    }
  });
  test("no kubelet: crictl's defaults as before", () => {
    const s = resolveSettings({
      flags: {},
      env: {},
      readFile: () => undefined,
      parseYaml: parse,
      kubeletEndpoints: () => undefined,
    });
    assert.equal(s.runtimeEndpointSource, 'default');
    assert.equal(s.runtimeEndpoints.length, 3);
  });
});
