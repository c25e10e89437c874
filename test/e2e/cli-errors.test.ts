// Errors found before anything runs (no runtime needed): one line, `syncpod: ...`, exit 1.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { assertOneLineError, syncpod } from './helpers';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-cli-errors-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const pod = path.join(dir, 'pod.yaml');
fs.writeFileSync(
  pod,
  'apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers:\n  - {name: app, image: busybox}\n',
);

test('--wait-timeout with a bad duration names the flag once', async () => {
  const r = await syncpod(['sync', '--wait', '--wait-timeout', 'xyz', pod]);
  assertOneLineError(r, /^syncpod: --wait-timeout: invalid duration "xyz" \(use e\.g\. 2s, 500ms, 1m\)$/);
});

for (const t of ['0', '1ns', '9999999999999999s', '100000000h']) {
  test(`--timeout ${t} is refused up front with one line`, async () => {
    const r = await syncpod(['-r', '/nonexistent/syncpod.sock', '--timeout', t, 'pods']);
    assertOneLineError(r, new RegExp(`^syncpod: --timeout: must be between 1ms and 596h, got "${t}"$`));
  });
}

test("commander's usage errors read like every other error", async () => {
  assertOneLineError(await syncpod(['pods', '--bogus']), /^syncpod: unknown option '--bogus'$/);
  assertOneLineError(await syncpod(['net-setup']), /^syncpod: missing required argument 'pod-id'$/);
});

test('logs without a container is refused before a runtime is looked for (an ID or --pod NAME)', async () => {
  assertOneLineError(
    await syncpod(['-r', '/nonexistent/syncpod.sock', 'logs']),
    /^syncpod: a container ID \(or --pod NAME --container NAME\) is required$/,
  );
  assertOneLineError(
    await syncpod(['-r', '/nonexistent/syncpod.sock', 'logs', '--container', 'app']),
    /^syncpod: --container needs --pod \(or give a container ID\)$/,
  );
  assertOneLineError(
    await syncpod(['-r', '/nonexistent/syncpod.sock', 'logs', '--stream', 'both', 'abc']),
    /^syncpod: --stream: must be stdout or stderr, got "both"$/,
  );
});

test('completion without a shell prints the bash script, as crictl', async () => {
  const r = await syncpod(['completion']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^# bash completion for syncpod/);
});

/** `n` one-line pods: about 80 bytes each, so 8 MiB holds 87,000 of them. */
const tinyPods = (n: number): string =>
  [...Array(n)]
    .map((_, i) => `kind: Pod\napiVersion: v1\nmetadata: {name: p${i}}\nspec: {containers: [{name: a, image: b}]}\n`)
    .join('---\n');

test('87,000 one-line pods in 8 MiB: every command that reads manifests refuses in one line before a runtime is looked for', async () => {
  // Before the bound: plan ran 54 s at 2.3 GB and died on "Invalid string length"; sync --dry-run
  // took 39 s and 1.3 GB to say that sync takes one pod.
  const many = path.join(dir, 'many.yaml');
  fs.writeFileSync(many, tinyPods(87000));
  assert.ok(fs.statSync(many).size < 8 * 1024 * 1024);
  const json = path.join(dir, 'many.json');
  const items = [...Array(3000)].map((_, i) => ({
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name: `p${i}` },
    spec: { containers: [{ name: 'a', image: 'b' }] },
  }));
  fs.writeFileSync(json, JSON.stringify({ kind: 'List', apiVersion: 'v1', items }));
  const over =
    "more than 2000 objects \\(non-empty documents and List items\\) in one invocation, far more than a node runs \\(kubelet's maxPods, 110 by default\\): refused; split the input";
  const rows: Array<[string[], string]> = [
    [['plan', many], `${many}: document 2001: ${over}`],
    [['plan', '-o', 'json', many], `${many}: document 2001: ${over}`],
    [['sync', '-y', many], `${many}: document 2001: ${over}`],
    [['sync', '--dry-run', many], `${many}: document 2001: ${over}`],
    [['runp', many], `${many}: document 2001: ${over}`],
    [['create', '--container', 'a', 'abc', many], `${many}: document 2001: ${over}`],
    [['plan', json], `${json}: document 1: items\\[2000\\]: ${over}`],
    // The node-wide commands read given pod files with JSON.parse: the same bound for one JSON List.
    [['plan', '--node', '--pods-api-socket', 'none', json], `${json}: document 1: items\\[2000\\]: ${over}`],
    [['sync', '--node', '-y', '--pods-api-socket', 'none', json], `${json}: document 1: items\\[2000\\]: ${over}`],
    [['plan', '--node', '--pods-api-socket', 'none', many], `${many}: document 2001: ${over}`],
  ];
  for (const [args, line] of rows) {
    const r = await syncpod(['-r', '/nonexistent/syncpod.sock', ...args]);
    assertOneLineError(r, new RegExp(`^syncpod: ${line.replace(/\//g, '\\/')}$`));
  }
});

test('given pod files of plan --node have the 8 MiB manifest bound too, JSON included (it was read up to 128 MiB)', async () => {
  const items = [...Array(1500)].map((_, i) => ({
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name: `p${i}`, annotations: { pad: 'x'.repeat(6000) } },
    spec: { containers: [{ name: 'a', image: 'b' }] },
  }));
  const big = path.join(dir, 'big.json');
  fs.writeFileSync(big, JSON.stringify({ kind: 'List', apiVersion: 'v1', items }));
  assert.ok(fs.statSync(big).size > 8 * 1024 * 1024);
  const r = await syncpod(['-r', '/nonexistent/syncpod.sock', 'plan', '--node', '--pods-api-socket', 'none', big]);
  assertOneLineError(
    r,
    /^syncpod: \S+big\.json: larger than 8 MiB: refused \(a manifest; the API server admits no object over 3 MiB\)$/,
  );
});
