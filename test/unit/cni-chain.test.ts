// The plugin chain logic with fake plugins: small shell scripts written by the test that record the
// environment and stdin they get, or fail the ways real plugins can (a CNI error, a hang, garbage).
// They run through the real ChildProcessCniExec; no network namespace is touched (the fakes ignore
// CNI_NETNS).

import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ChildProcessCniExec } from '../../src/cni/child-process-cni-exec';
import { cacheFilePath } from '../../src/cni/cache';
import { CniSetupError } from '../../src/cni/errors';
import { checkNetwork, describeInvocations, setupNetwork, teardownNetwork } from '../../src/cni/network';
import type { CniOptions, NetworkRequest } from '../../src/cni/types';

let root = '';
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'syncpod-cni-chain-'));
});
after(() => rm(root, { recursive: true, force: true }));

let dirs: { bin: string; bin2: string; conf: string; cache: string; record: string };
let caseNo = 0;

beforeEach(async () => {
  const base = join(root, String(++caseNo));
  dirs = {
    bin: join(base, 'bin'),
    bin2: join(base, 'bin2'),
    conf: join(base, 'conf'),
    cache: join(base, 'cache'),
    record: join(base, 'record'),
  };
  for (const d of Object.values(dirs)) await mkdir(d, { recursive: true });
});

/** A plugin that records every call (env + stdin) and answers ADD with `result`. */
async function recorder(name: string, result: object): Promise<void> {
  const script = `#!/bin/sh
d='${dirs.record}'
n=$(cat "$d/count" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$d/count"
env | grep '^CNI_' | sort > "$d/$n.env"
cat > "$d/$n.stdin"
echo "${name} $CNI_COMMAND" > "$d/$n.who"
if [ "$CNI_COMMAND" = ADD ]; then printf '%s' '${JSON.stringify(result)}'; fi
`;
  await writePlugin(name, script);
}

async function writePlugin(name: string, script: string, dir = dirs.bin): Promise<void> {
  await writeFile(join(dir, name), script);
  await chmod(join(dir, name), 0o755);
}

interface Call {
  who: string;
  env: Record<string, string>;
  stdin: Record<string, unknown>;
}

async function calls(): Promise<Call[]> {
  const count = Number((await readFile(join(dirs.record, 'count'), 'utf8').catch(() => '0')).trim());
  const out: Call[] = [];
  for (let n = 1; n <= count; n++) {
    const env: Record<string, string> = {};
    for (const line of (await readFile(join(dirs.record, `${n}.env`), 'utf8')).split('\n').filter(Boolean)) {
      const eq = line.indexOf('=');
      env[line.slice(0, eq)] = line.slice(eq + 1);
    }
    out.push({
      who: (await readFile(join(dirs.record, `${n}.who`), 'utf8')).trim(),
      env,
      stdin: JSON.parse(await readFile(join(dirs.record, `${n}.stdin`), 'utf8')),
    });
  }
  return out;
}

async function conflist(list: object, file = '10-test.conflist'): Promise<void> {
  await writeFile(join(dirs.conf, file), JSON.stringify(list));
}

function options(over: Partial<CniOptions> = {}): CniOptions {
  return { confDir: dirs.conf, binDirs: [dirs.bin, dirs.bin2], cacheDir: dirs.cache, timeoutMs: 10_000, ...over };
}

const request: NetworkRequest = {
  containerId: 'abc123',
  netnsPath: '/run/netns/fake-pod',
  ifname: 'eth0',
  podNamespace: 'shop',
  podName: 'web-0',
  podUid: 'uid-1',
  portMappings: [
    { protocol: 'TCP', containerPort: 80, hostPort: 8080, hostIp: '' },
    { protocol: 'UDP', containerPort: 53, hostPort: 0, hostIp: '' },
  ],
  annotations: { team: 'a' },
};

const exec = new ChildProcessCniExec();
const deps = { exec };

const RESULT_A = {
  cniVersion: '1.0.0',
  interfaces: [{ name: 'eth0', sandbox: '/run/netns/fake-pod' }],
  ips: [{ address: '10.1.0.5/24', gateway: '10.1.0.1', interface: 0 }],
};
const RESULT_B = { ...RESULT_A, routes: [{ dst: '0.0.0.0/0', gw: '10.1.0.1' }] };

async function twoPluginNetwork(cniVersion = '1.0.0', extra: object = {}): Promise<void> {
  await recorder('fake-a', RESULT_A);
  await recorder('fake-b', RESULT_B);
  await conflist({
    cniVersion,
    name: 'testnet',
    ...extra,
    plugins: [
      { type: 'fake-a', mode: 'x' },
      { type: 'fake-b', capabilities: { portMappings: true, bandwidth: true } },
    ],
  });
}

describe('ADD', () => {
  test('runs plugins in order with the CNI environment, injected stdin and prevResult; caches the final result', async () => {
    await twoPluginNetwork();
    const outcome = await setupNetwork(request, options(), deps);

    const seen = await calls();
    assert.deepEqual(
      seen.map((c) => c.who),
      ['fake-a ADD', 'fake-b ADD'],
    );
    assert.deepEqual(seen[0].env, {
      CNI_ARGS:
        'IgnoreUnknown=1;K8S_POD_NAMESPACE=shop;K8S_POD_NAME=web-0;K8S_POD_INFRA_CONTAINER_ID=abc123;K8S_POD_UID=uid-1',
      CNI_COMMAND: 'ADD',
      CNI_CONTAINERID: 'abc123',
      CNI_IFNAME: 'eth0',
      CNI_NETNS: '/run/netns/fake-pod',
      CNI_PATH: `${dirs.bin}:${dirs.bin2}`,
    });
    // First plugin: its own keys plus name/cniVersion; no capabilities declared -> no runtimeConfig.
    assert.deepEqual(seen[0].stdin, { type: 'fake-a', mode: 'x', cniVersion: '1.0.0', name: 'testnet' });
    // Second plugin: prevResult is the first plugin's result; runtimeConfig has only what it declares
    // and what the sandbox has (hostPort > 0 mappings, protocol lower-case; no bandwidth annotation).
    assert.deepEqual(seen[1].stdin.prevResult, RESULT_A);
    assert.deepEqual(seen[1].stdin.runtimeConfig, {
      portMappings: [{ hostPort: 8080, containerPort: 80, protocol: 'tcp', hostIP: '' }],
    });

    assert.deepEqual(outcome.rawResult, RESULT_B);
    assert.deepEqual(outcome.result.routes, [{ dst: '0.0.0.0/0', gw: '10.1.0.1' }]);

    const cached = JSON.parse(await readFile(cacheFilePath(dirs.cache, 'testnet', 'abc123', 'eth0'), 'utf8'));
    assert.equal(cached.kind, 'cniCacheV1');
    assert.equal(
      Buffer.from(cached.config, 'base64').toString('utf8'),
      await readFile(join(dirs.conf, '10-test.conflist'), 'utf8'),
    );
    assert.deepEqual(cached.result, RESULT_B);
    assert.equal(cached.netns, '/run/netns/fake-pod');
    assert.deepEqual(cached.capabilityArgs.portMappings, [
      { hostPort: 8080, containerPort: 80, protocol: 'tcp', hostIP: '' },
    ]);
  });

  test('refuses to ADD again while a cache entry exists, running nothing', async () => {
    await twoPluginNetwork();
    await setupNetwork(request, options(), deps);
    await assert.rejects(setupNetwork(request, options(), deps), /already set up for sandbox abc123 on eth0/);
    assert.equal((await calls()).length, 2);
  });

  test('a CNI error part-way runs DEL for the whole chain and reports both errors', async () => {
    await recorder('fake-a', RESULT_A);
    await writePlugin(
      'fake-err',
      `#!/bin/sh\ncat >/dev/null\necho '{"cniVersion":"1.0.0","code":7,"msg":"bad bridge name","details":"name too long"}'\nexit 1\n`,
    );
    await conflist({ cniVersion: '1.0.0', name: 'testnet', plugins: [{ type: 'fake-a' }, { type: 'fake-err' }] });
    await assert.rejects(setupNetwork(request, options(), deps), (err: Error) => {
      assert.ok(err instanceof CniSetupError);
      assert.equal(
        err.message,
        'network setup failed: CNI plugin "fake-err" failed (ADD): bad bridge name [code 7 (invalid network config)]; details: name too long; ' +
          'cleanup DEL also failed: CNI plugin "fake-err" failed (DEL): bad bridge name [code 7 (invalid network config)]; details: name too long',
      );
      return true;
    });
    const seen = await calls();
    assert.deepEqual(
      seen.map((c) => c.who),
      ['fake-a ADD', 'fake-a DEL'],
    );
    assert.equal(seen[1].stdin.prevResult, undefined, 'no prevResult: nothing was cached');
    assert.deepEqual(await readdir(join(dirs.cache)).catch(() => []), []);
  });

  test('a plugin that hangs is killed after the timeout', async () => {
    const pidFile = join(dirs.record, 'hang.pid');
    await writePlugin('fake-hang', `#!/bin/sh\necho $$ > '${pidFile}'\nexec sleep 60\n`);
    await conflist({ cniVersion: '1.0.0', name: 'testnet', plugins: [{ type: 'fake-hang' }] });
    await assert.rejects(
      setupNetwork(request, options({ timeoutMs: 300 }), deps),
      /CNI plugin "fake-hang" \(ADD\) did not finish within 300 ms and was killed/,
    );
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    assert.throws(() => process.kill(pid, 0), /ESRCH/, 'the plugin process is gone');
  });

  test('non-zero exit with garbage, stderr only, and invalid JSON on success are reported as such', async () => {
    await writePlugin('fake-garbage', '#!/bin/sh\ncat >/dev/null\necho "segfault at 0x0 <core dumped>"\nexit 3\n');
    await writePlugin('fake-stderr', '#!/bin/sh\ncat >/dev/null\necho "cannot open config" >&2\nexit 2\n');
    await writePlugin('fake-badjson', '#!/bin/sh\ncat >/dev/null\necho "{oops"\n');
    const cases: [string, RegExp][] = [
      [
        'fake-garbage',
        /^network setup failed: CNI plugin "fake-garbage" \(ADD\): exited with code 3 and printed something that is not a CNI error: "segfault at 0x0 <core dumped>"; /,
      ],
      [
        'fake-stderr',
        /^network setup failed: CNI plugin "fake-stderr" \(ADD\): exited with code 2; stderr: "cannot open config"; /,
      ],
      ['fake-badjson', /^network setup failed: CNI plugin "fake-badjson" \(ADD\): printed invalid JSON: /],
    ];
    for (const [type, expected] of cases) {
      await conflist({ cniVersion: '1.0.0', name: 'testnet', plugins: [{ type }] });
      await assert.rejects(setupNetwork(request, options(), deps), (err: Error) => {
        assert.match(err.message, expected);
        assert.equal(err.message.includes('\n'), false, 'one line');
        return true;
      });
    }
  });

  test('a plugin type with a path separator is refused before anything runs', async () => {
    await recorder('fake-a', RESULT_A);
    await conflist({ cniVersion: '1.0.0', name: 'testnet', plugins: [{ type: 'fake-a' }, { type: '../bin/fake-a' }] });
    await assert.rejects(
      setupNetwork(request, options(), deps),
      /CNI plugin type "\.\.\/bin\/fake-a" in network "testnet" is a path/,
    );
    assert.deepEqual(await calls(), []);
  });

  test('a missing plugin names every directory searched, before anything runs', async () => {
    await recorder('fake-a', RESULT_A);
    await conflist({ cniVersion: '1.0.0', name: 'testnet', plugins: [{ type: 'fake-a' }, { type: 'nope' }] });
    await assert.rejects(setupNetwork(request, options(), deps), (err: Error) => {
      assert.equal(
        err.message,
        `CNI plugin "nope" of network "testnet" not found in ${dirs.bin}:${dirs.bin2} (set --cni-bin-dir)`,
      );
      return true;
    });
    assert.deepEqual(await calls(), []);
  });

  test('plugins are found in later directories of the search path', async () => {
    await recorder('fake-a', RESULT_A);
    await writePlugin(
      'fake-b',
      (await readFile(join(dirs.bin, 'fake-a'), 'utf8')).replace('fake-a', 'fake-b'),
      dirs.bin2,
    );
    await conflist({ cniVersion: '1.0.0', name: 'testnet', plugins: [{ type: 'fake-a' }, { type: 'fake-b' }] });
    await setupNetwork(request, options(), deps);
    assert.deepEqual(
      (await calls()).map((c) => c.who),
      ['fake-a ADD', 'fake-b ADD'],
    );
  });
});

describe('DEL', () => {
  test('runs in reverse order with the cached result as prevResult and removes the cache entry', async () => {
    await twoPluginNetwork();
    await setupNetwork(request, options(), deps);
    const outcome = await teardownNetwork({ ...request, portMappings: [] }, options(), deps);
    const dels = (await calls()).slice(2);
    assert.deepEqual(
      dels.map((c) => c.who),
      ['fake-b DEL', 'fake-a DEL'],
    );
    for (const c of dels) assert.deepEqual(c.stdin.prevResult, RESULT_B);
    // Capability args come from the cache (what ADD used), not from the teardown request.
    assert.deepEqual(dels[0].stdin.runtimeConfig, {
      portMappings: [{ hostPort: 8080, containerPort: 80, protocol: 'tcp', hostIP: '' }],
    });
    assert.equal(outcome.configSource, 'cache');
    assert.deepEqual(await readdir(join(dirs.cache, 'results')), []);
  });

  test('uses the cached config even after the conf dir changed', async () => {
    await twoPluginNetwork();
    await setupNetwork(request, options(), deps);
    await rm(join(dirs.conf, '10-test.conflist'));
    await teardownNetwork(request, options(), deps);
    assert.deepEqual(
      (await calls()).slice(2).map((c) => c.who),
      ['fake-b DEL', 'fake-a DEL'],
    );
  });

  test('cniVersion 0.3.1 gets no prevResult on DEL', async () => {
    await twoPluginNetwork('0.3.1');
    await setupNetwork(request, options(), deps);
    const outcome = await teardownNetwork(request, options(), deps);
    for (const c of (await calls()).slice(2)) assert.equal(c.stdin.prevResult, undefined);
    assert.match(outcome.notes.join(), /predates 0\.4\.0/);
  });

  test('without a cache entry DEL runs with the current config and no prevResult; a second time too', async () => {
    await twoPluginNetwork();
    for (let i = 0; i < 2; i++) {
      const outcome = await teardownNetwork(request, options(), deps);
      assert.equal(outcome.configSource, 'conf-dir');
      assert.match(outcome.notes.join(), /no cached result for sandbox abc123 on eth0/);
    }
    const seen = await calls();
    assert.deepEqual(
      seen.map((c) => c.who),
      ['fake-b DEL', 'fake-a DEL', 'fake-b DEL', 'fake-a DEL'],
    );
    assert.equal(seen[0].stdin.prevResult, undefined);
  });

  test('with neither cache nor config it succeeds with a note and runs nothing', async () => {
    const outcome = await teardownNetwork(request, options(), deps);
    assert.equal(outcome.network, null);
    assert.match(outcome.notes.join(), /nothing to tear down/);
  });

  test('a failing DEL keeps the cache entry so DEL can be retried', async () => {
    await recorder('fake-a', RESULT_A);
    await conflist({ cniVersion: '1.0.0', name: 'testnet', plugins: [{ type: 'fake-a' }] });
    await setupNetwork(request, options(), deps);
    await writePlugin('fake-a', `#!/bin/sh\ncat >/dev/null\necho '{"code":11,"msg":"busy"}'\nexit 1\n`);
    await assert.rejects(
      teardownNetwork(request, options(), deps),
      /network teardown failed: CNI plugin "fake-a" failed \(DEL\): busy \[code 11 \(try again later\)\] \(cache entry kept/,
    );
    assert.deepEqual(await readdir(join(dirs.cache, 'results')), ['testnet-abc123-eth0']);
  });
});

describe('CHECK', () => {
  test('runs in order with the cached result', async () => {
    await twoPluginNetwork();
    await setupNetwork(request, options(), deps);
    const outcome = await checkNetwork(request, options(), deps);
    const checks = (await calls()).slice(2);
    assert.deepEqual(
      checks.map((c) => c.who),
      ['fake-a CHECK', 'fake-b CHECK'],
    );
    for (const c of checks) assert.deepEqual(c.stdin.prevResult, RESULT_B);
    assert.equal(outcome.skipped, false);
  });

  test('is refused below cniVersion 0.4.0 and skipped with disableCheck, running nothing', async () => {
    await twoPluginNetwork('0.3.1');
    await setupNetwork(request, options(), deps);
    await assert.rejects(
      checkNetwork(request, options(), deps),
      /CHECK needs cniVersion 0\.4\.0 or later; network "testnet" uses 0\.3\.1/,
    );
    await teardownNetwork(request, options(), deps);

    await twoPluginNetwork('1.0.0', { disableCheck: true });
    await setupNetwork(request, options(), deps);
    const ran = (await calls()).length;
    const outcome = await checkNetwork(request, options(), deps);
    assert.equal(outcome.skipped, true);
    assert.equal((await calls()).length, ran);
  });

  test('without a cache entry there is nothing to check', async () => {
    await twoPluginNetwork();
    await assert.rejects(checkNetwork(request, options(), deps), /no cached CNI result for sandbox abc123 on eth0/);
  });
});

describe('dry run', () => {
  test('ADD shows per plugin the environment and stdin without running anything', async () => {
    await twoPluginNetwork();
    const plan = await describeInvocations('ADD', request, options(), deps);
    assert.deepEqual(await calls(), []);
    assert.deepEqual(
      plan.invocations.map((i) => [i.type, i.pluginPath]),
      [
        ['fake-a', join(dirs.bin, 'fake-a')],
        ['fake-b', join(dirs.bin, 'fake-b')],
      ],
    );
    assert.equal(plan.invocations[0].env.CNI_COMMAND, 'ADD');
    assert.equal(plan.invocations[1].stdin.prevResult, '<result of plugin 0 (fake-a)>');
    // What the dry run shows is what a real run passes.
    await setupNetwork(request, options(), deps);
    const seen = await calls();
    assert.deepEqual(seen[0].stdin, plan.invocations[0].stdin);
    assert.deepEqual(seen[0].env, plan.invocations[0].env);
  });

  test('DEL shows reverse order and the cached prevResult; a missing plugin is a warning', async () => {
    await twoPluginNetwork();
    await setupNetwork(request, options(), deps);
    await rm(join(dirs.bin, 'fake-a'));
    const plan = await describeInvocations('DEL', request, options(), deps);
    assert.deepEqual(
      plan.invocations.map((i) => [i.type, i.pluginPath]),
      [
        ['fake-b', join(dirs.bin, 'fake-b')],
        ['fake-a', null],
      ],
    );
    assert.deepEqual(plan.invocations[0].stdin.prevResult, RESULT_B);
    assert.match(plan.warnings.join(), /CNI plugin "fake-a" of network "testnet" not found/);
  });
});
