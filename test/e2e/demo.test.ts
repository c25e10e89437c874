// `npm run demo -- --keep` as a newcomer runs it: the demo ends with exit code 0 and a few lines for
// its last step, leaves a lab that every command it prints reaches from the host's shell (ps, logs,
// exec, exec -it, attach, port-forward, plan), and `npm run demo -- --stop` leaves nothing behind.
// Uses the checkout's .lab/demo (a demo kept there is replaced).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { podCgroupsOf } from '../harness/lab';

const ROOT = path.join(__dirname, '..', '..');
const LAB = path.join(ROOT, '.lab', 'demo');

function bash(script: string, timeoutMs = 30_000): { code: number | null; out: string } {
  const r = spawnSync('bash', ['-c', script], { cwd: ROOT, encoding: 'utf8', timeout: timeoutMs, env: cleanEnv() });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

/** The user's environment: no lab endpoint of the test harness. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.CONTAINER_RUNTIME_ENDPOINT;
  delete env.IMAGE_SERVICE_ENDPOINT;
  return env;
}

test('npm run demo -- --keep: every printed command works from the host shell; --stop leaves nothing', async () => {
  const demo = bash('bash scripts/demo.sh --keep', 300_000);
  assert.equal(demo.code, 0, demo.out);
  const lines = demo.out.split('\n');
  assert.deepEqual(
    lines.filter((l) => /#\s*$/.test(l)),
    [],
    'no step has an empty "# " comment',
  );
  // The last step is the --detailed-exitcode plan: its command, a few lines, and the exit code.
  const last = lines.map((l) => l.startsWith('$ syncpod plan --detailed-exitcode')).lastIndexOf(true);
  const code = lines.findIndex((l, i) => i > last && /^exit code \d+$/.test(l));
  assert.ok(last > 0 && code > last && code - last <= 12, `last step: ${lines.slice(last, last + 15).join('\n')}`);
  assert.equal(lines[code], 'exit code 0');
  const uid = /using the fresh uid ([0-9a-f-]{36})/.exec(demo.out)?.[1];
  assert.ok(uid, 'the sync names the pod uid');

  const start = lines.indexOf('The lab keeps running. From your shell (as root):');
  assert.ok(start > 0, demo.out);
  const block = lines.slice(start + 1).filter((l) => l.startsWith('  '));
  const exportLine = block[0]!.trim();
  assert.match(exportLine, /^export PATH=".*\/bin:\$PATH" CONTAINER_RUNTIME_ENDPOINT=unix:\/\/\S+$/);
  const commands = block
    .slice(1)
    .map((l) => l.replace(/\s+# .*$/, '').trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const find = (re: RegExp): string => {
    const c = commands.find((x) => re.test(x));
    assert.ok(c, `a printed command matching ${re}: ${commands.join(' | ')}`);
    return c!;
  };
  assert.match(demo.out, /^Stop it and remove everything: npm run demo -- --stop$/m);
  const inShell = (cmd: string, timeoutMs?: number) => bash(`${exportLine}\n${cmd}`, timeoutMs);

  const ps = inShell(find(/^syncpod ps -a$/));
  assert.equal(ps.code, 0, ps.out);
  assert.match(ps.out, /Running\s+app\s/);
  const logs = inShell(find(/^syncpod logs /));
  assert.equal(logs.code, 0, logs.out);
  assert.match(logs.out, /^tick$/m);
  const exec = inShell(find(/^syncpod exec [0-9a-f]+ hostname$/));
  assert.deepEqual([exec.code, exec.out], [0, 'web\n']);
  const byName = inShell(find(/^syncpod exec --pod web /));
  assert.deepEqual([byName.code, byName.out], [0, 'hello from web\n']);
  // exec -it needs a terminal: script(1) gives it one; the shell runs one command and exits.
  const tty = find(/^syncpod exec -it /);
  const it = inShell(`echo 'tty; exit 3' | script -qec "${tty}" /dev/null`);
  assert.match(it.out, /\/dev\/pts\/\d+/, it.out);
  // attach shows ticks as they come and ends only when interrupted, as crictl attach: waited for
  // until a tick shows (not for a fixed time, which a loaded machine's start-up can use up), then
  // still running, then interrupted.
  const attach = inShell(
    `out=$(mktemp); ${find(/^syncpod attach /)} >$out 2>&1 &\n` +
      `for i in $(seq 600); do grep -qx tick $out && break; kill -0 $! 2>/dev/null || break; sleep 0.1; done\n` +
      'kill -0 $! && echo attach-still-running; kill $!; wait $!; cat $out; rm -f $out',
    90_000,
  );
  assert.match(attach.out, /^attach-still-running$/m, attach.out);
  assert.match(attach.out, /^tick$/m, attach.out);
  const forward = find(/^syncpod port-forward .* &$/);
  const curl = find(/^curl /);
  const pf = inShell(`${forward}\nfor i in $(seq 300); do ${curl} && break; sleep 0.2; done\nkill %1`, 90_000);
  assert.match(pf.out, /^hello from web$/m, pf.out);
  const plan = inShell(find(/^syncpod plan /));
  assert.equal(plan.code, 0, plan.out);
  assert.match(plan.out, /^No changes\./m);

  const netns = fs.readFileSync(path.join(LAB, 'netns'), 'utf8').trim();
  const stop = bash('bash scripts/demo.sh --stop');
  assert.equal(stop.code, 0, stop.out);
  assert.match(stop.out, /^The demo containerd was stopped/m);
  assert.ok(!fs.existsSync(LAB), '.lab/demo is gone');
  assert.ok(!spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout.includes(netns), `netns ${netns} is gone`);
  const procs = spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter((l) => l.includes(LAB));
  assert.deepEqual(procs, [], 'no containerd, shim or stream bridge of the demo runs');
  assert.deepEqual(
    fs
      .readFileSync('/proc/mounts', 'utf8')
      .split('\n')
      .filter((l) => l.includes(LAB)),
    [],
  );
  assert.deepEqual(podCgroupsOf([uid!]), [], "the demo pod's cgroups are gone");
  const again = bash('bash scripts/demo.sh --stop');
  assert.match(again.out, /^No demo lab to stop/m);
});
