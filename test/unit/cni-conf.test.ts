// Network config loading: lexical order, skipped files as warnings, .conf -> one-plugin list,
// --network selection, version selection.

import { join } from 'node:path';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadNetworkConfig, parseConf, parseConfList } from '../../src/cni/conf';

const fixtures = join(__dirname, '..', 'fixtures', 'cni');
const confdir = join(fixtures, 'confdir');

describe('loadNetworkConfig', () => {
  test('takes the first usable file in lexical order and reports the skipped ones', async () => {
    const loaded = await loadNetworkConfig(confdir);
    assert.equal(loaded.file, join(confdir, '20-single.conf'));
    assert.equal(loaded.network.name, 'single');
    const warnings = loaded.warnings.map((w) => w.replace(confdir, 'DIR'));
    assert.equal(warnings.length, 3);
    assert.equal(warnings[0], 'skipping CNI config DIR/05-notype.conf: no "type" (perhaps this is a .conflist?)');
    assert.equal(warnings[1], 'skipping CNI config DIR/10-empty.conflist: no plugins in list');
    // "100-" sorts before "20-": byte order, as libcni's sort.Strings. (JSON.parse's text varies by Node.)
    assert.match(warnings[2], /^skipping CNI config DIR\/100-broken\.json: invalid JSON: /);
  });

  test('a single .conf becomes a one-plugin list with its name and version', async () => {
    const { network } = await loadNetworkConfig(confdir);
    assert.equal(network.cniVersion, '0.3.1');
    assert.equal(network.plugins.length, 1);
    assert.equal(network.plugins[0].type, 'bridge');
    assert.deepEqual(JSON.parse(network.bytes), {
      name: 'single',
      cniVersion: '0.3.1',
      plugins: [
        {
          cniVersion: '0.3.1',
          name: 'single',
          type: 'bridge',
          bridge: 'cni0',
          ipam: { type: 'host-local', subnet: '10.22.0.0/16' },
        },
      ],
    });
  });

  test('--network picks the named network', async () => {
    const loaded = await loadNetworkConfig(confdir, 'chain');
    assert.equal(loaded.file, join(confdir, '30-chain.conflist'));
    assert.deepEqual(
      loaded.network.plugins.map((p) => [p.type, p.capabilities]),
      [
        ['bridge', []],
        ['portmap', ['portMappings']],
      ],
    );
    assert.equal(loaded.network.disableCheck, true);
  });

  test('errors name the directory', async () => {
    await assert.rejects(
      loadNetworkConfig(confdir, 'nope'),
      (e: Error) => e.message === `no CNI network named "nope" in ${confdir}`,
    );
    await assert.rejects(
      loadNetworkConfig(join(fixtures, 'does-not-exist')),
      (e: Error) =>
        e.message === `no CNI network config found in ${join(fixtures, 'does-not-exist')} (*.conf, *.conflist, *.json)`,
    );
  });
});

describe('parsing', () => {
  const cases: { name: string; text: string; list: boolean; expect: string | RegExp }[] = [
    {
      name: 'highest supported of cniVersion/cniVersions wins',
      list: true,
      expect: '1.0.0',
      text: '{"name":"n","cniVersion":"0.4.0","cniVersions":["1.0.0","9.9.9"],"plugins":[{"type":"x"}]}',
    },
    { name: 'no version means 0.1.0', list: true, expect: '0.1.0', text: '{"name":"n","plugins":[{"type":"x"}]}' },
    { name: 'single conf without version is 0.1.0', list: false, expect: '0.1.0', text: '{"name":"n","type":"x"}' },
    { name: 'list without plugins key', list: true, expect: /no "plugins"/, text: '{"name":"n","cniVersion":"1.0.0"}' },
    {
      name: 'plugin without type',
      list: true,
      expect: /plugin 0: plugin has no "type"/,
      text: '{"name":"n","plugins":[{"bridge":"x"}]}',
    },
    {
      name: 'network name with a slash',
      list: true,
      expect: /invalid network name "a\/b"/,
      text: '{"name":"a/b","plugins":[{"type":"x"}]}',
    },
    {
      name: 'malformed version',
      list: true,
      expect: /invalid cniVersion "1.0"/,
      text: '{"name":"n","cniVersion":"1.0","plugins":[{"type":"x"}]}',
    },
    {
      name: 'disableCheck not a boolean',
      list: true,
      expect: /"disableCheck" must be true or false/,
      text: '{"name":"n","disableCheck":"yes","plugins":[{"type":"x"}]}',
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const parse = () => (c.list ? parseConfList(c.text) : parseConf(c.text));
      if (typeof c.expect === 'string') assert.equal(parse().cniVersion, c.expect);
      else assert.throws(parse, c.expect);
    });
  }
});
