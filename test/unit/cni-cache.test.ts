// The result cache in libcni's format: the fixture is a cache file laid out as libcni writes it
// (cniCacheV1 keys in libcni's order, config base64-encoded).

import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  decodeCacheEntry,
  encodeCacheEntry,
  findCacheEntries,
  readCacheEntry,
  writeCacheEntry,
} from '../../src/cni/cache';
import { normaliseResult } from '../../src/cni/result';

const fixture = join(__dirname, '..', 'fixtures', 'cni', 'cache', 'podnet-4a1f0c-eth0');

describe('cache entries', () => {
  test('a libcni-format entry decodes to its parts, and encodes back byte for byte', async () => {
    const text = await readFile(fixture, 'utf8');
    const entry = decodeCacheEntry(text, fixture);
    assert.equal(entry.networkName, 'podnet');
    assert.equal(entry.containerId, '4a1f0c');
    assert.equal(entry.ifName, 'eth0');
    assert.equal(JSON.parse(entry.config).plugins[0].type, 'bridge');
    assert.deepEqual(entry.cniArgs[3], ['K8S_POD_INFRA_CONTAINER_ID', '4a1f0c']);
    assert.equal(encodeCacheEntry(entry), text);
  });

  test('written where libcni looks, 0600 in a 0700 dir; found by sandbox and interface', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'syncpod-cni-cache-'));
    try {
      const entry = decodeCacheEntry(await readFile(fixture, 'utf8'), fixture);
      const file = await writeCacheEntry(dir, entry);
      assert.equal(file, join(dir, 'results', 'podnet-4a1f0c-eth0'));
      assert.equal((await stat(file)).mode & 0o777, 0o600);
      assert.equal((await stat(join(dir, 'results'))).mode & 0o777, 0o700);
      assert.deepEqual(await readCacheEntry(dir, 'podnet', '4a1f0c', 'eth0'), entry);
      assert.equal(await readCacheEntry(dir, 'podnet', '4a1f0c', 'eth1'), undefined);
      assert.deepEqual(
        (await findCacheEntries(dir, '4a1f0c', 'eth0')).map((e) => e.networkName),
        ['podnet'],
      );
      assert.deepEqual(await findCacheEntries(dir, '4a1f0', 'eth0'), []);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('an entry of another kind is refused with the file named', () => {
    assert.throws(
      () => decodeCacheEntry('{"kind":"other"}', '/x/y'),
      /CNI cache entry \/x\/y is not of kind cniCacheV1/,
    );
  });
});

describe('normaliseResult', () => {
  test('1.0.0 result as data', async () => {
    const entry = decodeCacheEntry(await readFile(fixture, 'utf8'), fixture);
    assert.deepEqual(normaliseResult(entry.result!, '1.0.0'), {
      cniVersion: '1.0.0',
      interfaces: [{ name: 'eth0', mac: '6a:1e:0f:33:aa:01', sandbox: '/var/run/netns/cni-1234' }],
      ips: [{ address: '10.22.0.7/16', gateway: '10.22.0.1', interface: 0 }],
      routes: [{ dst: '0.0.0.0/0' }],
      dns: { nameservers: [], search: [], options: [] },
    });
  });

  test('0.2.0 ip4/ip6 result converted', () => {
    const r = normaliseResult(
      {
        ip4: { ip: '10.1.0.2/24', gateway: '10.1.0.1', routes: [{ dst: '0.0.0.0/0' }] },
        ip6: { ip: 'fd00::2/64' },
        dns: { nameservers: ['10.1.0.1'] },
      },
      '0.2.0',
    );
    assert.equal(r.cniVersion, '0.2.0');
    assert.deepEqual(r.ips, [{ address: '10.1.0.2/24', gateway: '10.1.0.1' }, { address: 'fd00::2/64' }]);
    assert.deepEqual(r.routes, [{ dst: '0.0.0.0/0' }]);
    assert.deepEqual(r.dns.nameservers, ['10.1.0.1']);
  });
});
