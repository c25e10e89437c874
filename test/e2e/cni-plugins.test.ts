// The CNI layer against Debian's real plugins (/usr/lib/cni): bridge + host-local in a private
// subnet. Everything happens in network namespaces this test creates: a "host" namespace in which
// the plugins run (so the bridge lives there) and a sandbox namespace that gets eth1. The machine's
// own interfaces are never touched. Needs root, iproute2 and nsenter; fails clearly without them.

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { access, mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { promisify } from 'node:util';
import { ChildProcessCniExec } from '../../src/cni/child-process-cni-exec';
import { cacheFilePath } from '../../src/cni/cache';
import { CniSetupError } from '../../src/cni/errors';
import { checkNetwork, setupNetwork, teardownNetwork } from '../../src/cni/network';
import type { CniOptions, NetworkRequest } from '../../src/cni/types';

const run = promisify(execFile);
const PLUGIN_DIR = '/usr/lib/cni';

async function ip(...args: string[]): Promise<string> {
  return (await run('ip', args)).stdout;
}

interface Env {
  tmp: string;
  hostNs: string;
  podNs: string;
  subnetPrefix: string;
  bridge: string;
  network: string;
}

let env: Env | undefined;
const createdNs: string[] = [];

async function prerequisites(): Promise<void> {
  assert.equal(process.getuid?.(), 0, 'the CNI plugin test must run as root (it creates network namespaces)');
  for (const plugin of ['bridge', 'host-local', 'tuning']) {
    await access(join(PLUGIN_DIR, plugin)).catch(() =>
      assert.fail(`missing ${join(PLUGIN_DIR, plugin)}: install Debian's containernetworking-plugins`),
    );
  }
  await run('ip', ['-V']).catch(() => assert.fail('missing "ip" (iproute2)'));
  await run('nsenter', ['--version']).catch(() => assert.fail('missing "nsenter" (util-linux)'));
}

before(async () => {
  await prerequisites();
  const rand = randomBytes(3).toString('hex');
  const tmp = await mkdtemp(join(tmpdir(), 'syncpod-cni-'));
  env = {
    tmp,
    hostNs: `syncpod-cni-h${rand}`,
    podNs: `syncpod-cni-${rand}`,
    subnetPrefix: `10.199.${randomBytes(1)[0]}`,
    bridge: `spcni${rand}`,
    network: `spnet-${rand}`,
  };
  for (const ns of [env.hostNs, env.podNs]) {
    await ip('netns', 'add', ns);
    createdNs.push(ns);
  }
  await ip('-n', env.hostNs, 'link', 'set', 'lo', 'up');
});

after(async () => {
  for (const ns of createdNs) await ip('netns', 'del', ns).catch(() => undefined);
  if (env !== undefined) await rm(env.tmp, { recursive: true, force: true });
});

function must(): Env {
  assert.ok(env !== undefined, 'test environment was not created');
  return env;
}

/** A fresh conf dir with one list: bridge (+ host-local IPAM in the test's dir) and extra plugins. */
async function confDirWith(name: string, extraPlugins: object[]): Promise<string> {
  const e = must();
  const dir = join(e.tmp, `conf-${name}`);
  await mkdir(dir, { recursive: true });
  const list = {
    cniVersion: '1.0.0',
    name: e.network,
    plugins: [
      {
        type: 'bridge',
        bridge: e.bridge,
        isGateway: false,
        ipMasq: false,
        ipam: { type: 'host-local', subnet: `${e.subnetPrefix}.0/24`, dataDir: join(e.tmp, 'ipam') },
      },
      ...extraPlugins,
    ],
  };
  await writeFile(join(dir, '10-spnet.conflist'), JSON.stringify(list, null, 2));
  return dir;
}

function options(confDir: string): CniOptions {
  return { confDir, binDirs: [PLUGIN_DIR], cacheDir: join(must().tmp, 'cache'), timeoutMs: 30_000 };
}

function request(containerId: string): NetworkRequest {
  const e = must();
  return {
    containerId,
    netnsPath: `/run/netns/${e.podNs}`,
    ifname: 'eth1',
    podNamespace: 'default',
    podName: 'web',
    podUid: '0c9d6b8e-3f2a-4d7e-9b1c-5a6f7e8d9c0b',
  };
}

function deps(): { exec: ChildProcessCniExec } {
  return { exec: new ChildProcessCniExec({ pluginNetns: `/run/netns/${must().hostNs}` }) };
}

/** IPv4 addresses (CIDR) on eth1 inside the sandbox namespace; null when there is no eth1. */
async function eth1Addresses(): Promise<string[] | null> {
  const links = JSON.parse(await ip('-n', must().podNs, '-j', 'addr', 'show')) as {
    ifname: string;
    addr_info: { family: string; local: string; prefixlen: number }[];
  }[];
  const eth1 = links.find((l) => l.ifname === 'eth1');
  if (eth1 === undefined) return null;
  return eth1.addr_info.filter((a) => a.family === 'inet').map((a) => `${a.local}/${a.prefixlen}`);
}

/** Addresses host-local holds for the test network (files named after the address). */
async function reservedAddresses(): Promise<string[]> {
  const e = must();
  const dir = join(e.tmp, 'ipam', e.network);
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => /^\d+\.\d+\.\d+\.\d+$/.test(n)).sort();
}

async function cacheEntries(): Promise<string[]> {
  return readdir(join(must().tmp, 'cache', 'results')).catch(() => [] as string[]);
}

describe('CNI with Debian plugins (bridge + host-local)', () => {
  test('ADD gives the sandbox an address, CHECK passes, DEL removes it and releases the address', async () => {
    const e = must();
    const opts = options(await confDirWith('ok', []));
    const req = request('sandbox-ok-1');

    const setup = await setupNetwork(req, opts, deps());
    assert.equal(setup.network, e.network);
    assert.equal(setup.result.ips.length, 1);
    const address = setup.result.ips[0].address;
    assert.match(address, new RegExp(`^${e.subnetPrefix.replace(/\./g, '\\.')}\\.\\d+/24$`));
    assert.deepEqual(await eth1Addresses(), [address]);
    assert.ok(setup.result.interfaces.some((i) => i.name === 'eth1' && i.sandbox === req.netnsPath));
    assert.deepEqual(await reservedAddresses(), [address.split('/')[0]]);
    // The bridge was made in the test's host namespace, not in the machine's own.
    assert.match(await ip('-n', e.hostNs, '-j', 'link', 'show', e.bridge), new RegExp(e.bridge));
    assert.equal((await ip('-j', 'link', 'show')).includes(`"${e.bridge}"`), false);

    // The cache entry is where libcni would look, in libcni's format.
    const cacheFile = cacheFilePath(opts.cacheDir, e.network, req.containerId, 'eth1');
    assert.equal(setup.cacheFile, cacheFile);
    const cached = JSON.parse(await readFile(cacheFile, 'utf8'));
    assert.equal(cached.kind, 'cniCacheV1');
    assert.equal(cached.containerId, 'sandbox-ok-1');
    assert.equal(cached.ifName, 'eth1');
    assert.equal(cached.networkName, e.network);
    assert.equal(JSON.parse(Buffer.from(cached.config, 'base64').toString('utf8')).name, e.network);
    assert.deepEqual(cached.cniArgs[3], ['K8S_POD_INFRA_CONTAINER_ID', 'sandbox-ok-1']);
    assert.equal(cached.result.ips[0].address, address);

    const check = await checkNetwork(req, opts, deps());
    assert.deepEqual(
      check.invocations.map((r) => [r.type, r.ok]),
      [['bridge', true]],
    );

    const down = await teardownNetwork(req, opts, deps());
    assert.equal(down.configSource, 'cache');
    assert.equal(await eth1Addresses(), null);
    assert.deepEqual(await reservedAddresses(), []);
    assert.deepEqual(await cacheEntries(), []);

    // Idempotent: a second teardown (no cache, no attachment) succeeds and says why.
    const again = await teardownNetwork(req, opts, deps());
    assert.equal(again.configSource, 'conf-dir');
    assert.match(again.notes.join('\n'), /no cached result/);
  });

  test('a missing plugin is reported with the searched dirs and leaves nothing behind', async () => {
    const opts = options(await confDirWith('missing', [{ type: 'syncpod-no-such-plugin' }]));
    await assert.rejects(setupNetwork(request('sandbox-missing-1'), opts, deps()), (err: Error) => {
      assert.match(err.message, /"syncpod-no-such-plugin".*not found in \/usr\/lib\/cni/);
      assert.equal(err.message.includes('\n'), false);
      return true;
    });
    assert.equal(await eth1Addresses(), null);
    assert.deepEqual(await reservedAddresses(), []);
    assert.deepEqual(await cacheEntries(), []);
  });

  test('a real plugin failing after bridge ADD triggers DEL of the chain: nothing is left behind', async () => {
    const opts = options(
      await confDirWith('fail', [{ type: 'tuning', sysctl: { 'net.ipv4.conf.eth1.syncpod_no_such_key': '1' } }]),
    );
    await assert.rejects(setupNetwork(request('sandbox-fail-1'), opts, deps()), (err: Error) => {
      assert.match(err.message, /^network setup failed: CNI plugin "tuning" failed \(ADD\): /);
      assert.match(err.message, /cleanup DEL succeeded$/);
      assert.ok(err instanceof CniSetupError);
      assert.deepEqual(
        err.invocations.map((r) => `${r.command} ${r.type} ${r.ok ? 'ok' : 'failed'}`),
        ['ADD bridge ok', 'ADD tuning failed', 'DEL tuning ok', 'DEL bridge ok'],
      );
      return true;
    });
    assert.equal(await eth1Addresses(), null);
    assert.deepEqual(await reservedAddresses(), []);
    assert.deepEqual(await cacheEntries(), []);
  });
});
