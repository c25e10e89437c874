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
