// Renderers of CNI data: golden files for the plain text views, the colour port, JSON from the same data.
// Regenerate goldens with UPDATE_GOLDEN=1 and review the diff.

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DryRun } from '../../src/cni/network';
import type { SetupOutcome, TeardownOutcome } from '../../src/cni/types';
import { renderCniJson, renderDryRun, renderSetupOutcome, renderTeardownOutcome } from '../../src/render/cni-view';
import type { Colours } from '../../src/render/colour';

const goldenDir = join(__dirname, '..', 'fixtures', 'cni', 'golden');

async function golden(name: string, actual: string): Promise<void> {
  const file = join(goldenDir, name);
  if (process.env.UPDATE_GOLDEN === '1') await writeFile(file, actual);
  assert.equal(actual, await readFile(file, 'utf8'));
}

const setup: SetupOutcome = {
  network: 'podnet',
  configFile: '/etc/cni/net.d/10-podnet.conflist',
  containerId: '4a1f0c',
  ifname: 'eth0',
  result: {
    cniVersion: '1.0.0',
    interfaces: [
      { name: 'cni0', mac: '6a:1e:0f:33:aa:00' },
      { name: 'veth1a2b3c4d', mac: '6a:1e:0f:33:aa:02' },
      { name: 'eth0', mac: '6a:1e:0f:33:aa:01', mtu: 1500, sandbox: '/var/run/netns/cni-1234' },
    ],
    ips: [{ address: '10.22.0.7/16', gateway: '10.22.0.1', interface: 2 }],
    routes: [{ dst: '0.0.0.0/0', gw: '10.22.0.1' }],
    dns: { nameservers: ['10.96.0.10'], search: ['default.svc.cluster.local'], options: [] },
  },
  rawResult: {},
  cacheFile: '/var/lib/cni/results/podnet-4a1f0c-eth0',
  invocations: [
    { command: 'ADD', type: 'bridge', index: 0, ok: true },
    { command: 'ADD', type: 'portmap', index: 1, ok: true },
  ],
  warnings: [],
};

const teardown: TeardownOutcome = {
  network: 'podnet',
  containerId: '4a1f0c',
  ifname: 'eth0',
  configSource: 'conf-dir',
  invocations: [
    { command: 'DEL', type: 'portmap', index: 1, ok: true },
    {
      command: 'DEL',
      type: 'bridge',
      index: 0,
      ok: false,
      error: 'CNI plugin "bridge" failed (DEL): busy [code 11 (try again later)]',
    },
  ],
  notes: [
    'no cached result for sandbox 4a1f0c on eth0: DEL ran with /etc/cni/net.d/10-podnet.conflist and no prevResult',
  ],
  warnings: [],
};

const dryRun: DryRun = {
  command: 'ADD',
  network: 'podnet',
  configSource: 'conf-dir',
  notes: [],
  warnings: [],
  invocations: [
    {
      command: 'ADD',
      network: 'podnet',
      index: 0,
      type: 'bridge',
      pluginPath: '/usr/lib/cni/bridge',
      env: {
        CNI_PATH: '/opt/cni/bin:/usr/lib/cni',
        CNI_COMMAND: 'ADD',
        CNI_CONTAINERID: '4a1f0c',
        CNI_NETNS: '/var/run/netns/cni-1234',
        CNI_IFNAME: 'eth0',
        CNI_ARGS:
          'IgnoreUnknown=1;K8S_POD_NAMESPACE=default;K8S_POD_NAME=web;K8S_POD_INFRA_CONTAINER_ID=4a1f0c;K8S_POD_UID=u-1',
      },
      stdin: { type: 'bridge', bridge: 'cni0', cniVersion: '1.0.0', name: 'podnet' },
    },
    {
      command: 'ADD',
      network: 'podnet',
      index: 1,
      type: 'portmap',
      pluginPath: null,
      env: { CNI_COMMAND: 'ADD' },
      stdin: { type: 'portmap', cniVersion: '1.0.0', name: 'podnet', prevResult: '<result of plugin 0 (bridge)>' },
    },
  ],
};

describe('cni-view', () => {
  test('setup outcome: interfaces, addresses with their interface name, routes, DNS, plugin runs', async () => {
    await golden('setup.txt', renderSetupOutcome(setup));
  });

  test('teardown outcome with a note and a failed DEL', async () => {
    await golden('teardown.txt', renderTeardownOutcome(teardown));
  });

  test('dry run: sorted environment and stdin per plugin; a missing plugin is marked', async () => {
    await golden('dry-run.txt', renderDryRun(dryRun));
  });

  test('colour is a port: headings and failures go through it, nothing else does', () => {
    const marks: Colours = {
      enabled: true,
      header: (t) => `<h>${t}</h>`,
      good: (t) => `<ok>${t}</ok>`,
      bad: (t) => `<bad>${t}</bad>`,
      pending: (t) => `<p>${t}</p>`,
      dim: (t) => `<dim>${t}</dim>`,
    };
    const text = renderTeardownOutcome(teardown, marks);
    assert.match(text, /^<ok>network podnet torn down/);
    assert.match(text, /\n<h>COMMAND +PLUGIN +STATUS +ERROR<\/h>\n/);
    assert.match(text, /\nDEL +1:portmap +ok\n/);
    assert.match(text, /\n<bad>DEL +0:bridge +failed +CNI plugin "bridge" failed/);
    assert.doesNotMatch(renderTeardownOutcome(teardown), /\u001b\[/);
  });

  test('JSON view carries the same data', () => {
    assert.deepEqual(JSON.parse(renderCniJson(setup)), setup);
    assert.ok(renderCniJson(dryRun).endsWith('}\n'));
  });
});
