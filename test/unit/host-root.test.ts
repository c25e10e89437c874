// --host-root / SYNCPOD_HOST_ROOT: the one mapping of node paths, and what settings take under it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { endpointOnHost, onHost, parseHostRoot } from '../../src/config/host-root';
import { resolveSettings, type GlobalFlags } from '../../src/config/settings';

const settings = (flags: GlobalFlags, env: Record<string, string> = {}, files: Record<string, string> = {}) =>
  resolveSettings({ flags, env, readFile: (p) => files[p], parseYaml: parse });

test('onHost: absolute node paths go under the root; relative paths and root / are unchanged', () => {
  const rows: Array<[string, string, string]> = [
    ['/', '/var/log/pods/x/0.log', '/var/log/pods/x/0.log'],
    ['/host', '/var/log/pods/x/0.log', '/host/var/log/pods/x/0.log'],
    ['/host', '/proc/1/ns/net', '/host/proc/1/ns/net'],
    ['/host', '/', '/host/'],
    ['/host', 'relative/file', 'relative/file'],
  ];
  for (const [root, p, want] of rows) assert.equal(onHost(root, p), want, `${root} ${p}`);
});

test('endpointOnHost: unix sockets and bare paths are node paths; other schemes are kept', () => {
  assert.equal(
    endpointOnHost('/host', 'unix:///run/containerd/containerd.sock'),
    'unix:///host/run/containerd/containerd.sock',
  );
  assert.equal(endpointOnHost('/host', '/run/crio/crio.sock'), '/host/run/crio/crio.sock');
  assert.equal(endpointOnHost('/host', 'tcp://127.0.0.1:1234'), 'tcp://127.0.0.1:1234');
  assert.equal(endpointOnHost('/', 'unix:///run/containerd/containerd.sock'), 'unix:///run/containerd/containerd.sock');
});

test('parseHostRoot: default /, trailing slashes dropped, a relative path refused in one line', () => {
  assert.equal(parseHostRoot(undefined), '/');
  assert.equal(parseHostRoot('/host/'), '/host');
  assert.equal(parseHostRoot('///'), '/');
  assert.throws(() => parseHostRoot('host'), {
    name: 'SyncpodError',
    message: '--host-root: "host" is not an absolute path',
  });
});

test('settings: flag over SYNCPOD_HOST_ROOT; every endpoint and the default crictl.yaml under the root', () => {
  const files = { '/node/etc/crictl.yaml': 'runtime-endpoint: unix:///run/k3s/containerd/containerd.sock\n' };
  const fromEnv = settings({}, { SYNCPOD_HOST_ROOT: '/node' }, files);
  assert.equal(fromEnv.hostRoot, '/node');
  assert.deepEqual(fromEnv.runtimeEndpoints, ['unix:///node/run/k3s/containerd/containerd.sock']);
  const flag = settings({ hostRoot: '/other' }, { SYNCPOD_HOST_ROOT: '/node' });
  assert.equal(flag.hostRoot, '/other');
  assert.deepEqual(flag.runtimeEndpoints, [
    'unix:///other/run/containerd/containerd.sock',
    'unix:///other/run/crio/crio.sock',
    'unix:///other/var/run/cri-dockerd.sock',
  ]);
  const explicit = settings({
    hostRoot: '/node',
    runtimeEndpoint: 'unix:///run/containerd/containerd.sock',
    imageEndpoint: '/run/img.sock',
  });
  assert.deepEqual(explicit.runtimeEndpoints, ['unix:///node/run/containerd/containerd.sock']);
  assert.equal(explicit.imageEndpoint, '/node/run/img.sock');
  assert.equal(settings({}).hostRoot, '/');
  assert.throws(() => settings({}, { SYNCPOD_HOST_ROOT: 'rel' }), {
    message: 'SYNCPOD_HOST_ROOT: "rel" is not an absolute path',
  });
});
