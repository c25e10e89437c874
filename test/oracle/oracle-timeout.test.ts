// The runner's limit per scenario (npm run test:oracle): a kubelet code path that never returns must
// end as one line naming the scenario, not hang the run (or CI). The oracle here is a real process
// that speaks the oracle's line protocol and never answers the scenario named "hangs"; every other
// scenario gets an answer naming the process that gave it, so the test sees a fresh oracle take over.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runScenarios } from '../../scripts/oracle/run';
import type { Scenario } from '../../scripts/oracle/scenario';

const HANGING_ORACLE = `#!/usr/bin/env node
const rl = require('node:readline').createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const { name } = JSON.parse(line);
  if (name === 'hangs') return;
  if (name === 'crashes') {
    process.stderr.write('panic: close of closed channel\\n\\ngoroutine 1 [running]:\\nmain.main()\\n');
    process.exit(2);
  }
  if (name === 'panics') {
    // As the Go oracle answers a panic in one of kubelet's goroutines: the calls made, and the panic.
    process.stdout.write(JSON.stringify({ name, sandboxes: [], containers: [], calls: [], panic: 'index out of range [3] with length 3' }) + '\\n');
    return;
  }
  process.stdout.write(JSON.stringify({ name, error: 'answered by pid ' + process.pid }) + '\\n');
});
`;

const scenario = (name: string): Scenario => ({
  name,
  pod: {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default', uid: `uid-${name}` },
    spec: { containers: [{ name: 'app', image: 'busybox:1.36' }] },
  },
});

/** Runs the scenarios `names` through the stand-in oracle; returns the report and the lines logged. */
async function runThroughStandIn(release: string, names: string[], timeoutMs: number) {
  const dir = mkdtempSync(join(tmpdir(), 'syncpod-oracle-standin-'));
  try {
    const bin = join(dir, 'oracle');
    writeFileSync(bin, HANGING_ORACLE);
    chmodSync(bin, 0o755);
    const lines: string[] = [];
    const report = await runScenarios(release, bin, names.map(scenario), undefined, undefined, {
      timeoutMs,
      log: (l) => lines.push(l),
    });
    return { report, lines };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The pid an answer names (the stand-in answers with its own). */
const pid = (e?: string) => /answered by pid (\d+)/.exec(e ?? '')?.[1];

test('a scenario whose kubelet side never answers is one line naming it; the next runs on a fresh oracle', {
  timeout: 30_000,
}, async () => {
  // The limit runs from the scenario's line, so for the first scenario on a fresh oracle it includes
  // the stand-in's Node start-up, which a loaded machine can stretch past a second: 5 s.
  const { report, lines } = await runThroughStandIn('v1.37.2', ['before', 'hangs', 'after'], 5000);
  assert.equal(report.scenarios, 3);
  assert.deepEqual(
    report.disagree.map((d) => d.scenario.name),
    ['before', 'hangs', 'after'],
  );
  const [before, hung, after] = report.disagree;
  assert.match(hung.error ?? '', /^kubelet: no answer within 5 s/);
  assert.equal(lines.length, 1, lines.join('\n'));
  assert.match(lines[0], /^oracle v1\.37\.2: scenario hangs: kubelet's side: no answer within 5 s/);
  assert.ok(pid(before.error) && pid(after.error), `${before.error} / ${after.error}`);
  assert.notEqual(pid(after.error), pid(before.error), 'the scenario after the hung one ran on a new oracle process');
});

test('a scenario that crashes the kubelet side (a Go panic) names the panic; the next runs at once on a fresh oracle', {
  timeout: 30_000,
}, async () => {
  // Far above the whole run: a crashed oracle must not be waited for.
  const { report, lines } = await runThroughStandIn('v1.31.14', ['before', 'crashes', 'after'], 20_000);
  const [before, crashed, after] = report.disagree;
  assert.equal(crashed.scenario.name, 'crashes');
  assert.equal(crashed.error, 'kubelet: oracle exited (2): panic: close of closed channel');
  assert.deepEqual(lines, [
    "oracle v1.31.14: scenario crashes: kubelet's side: oracle exited (2): panic: close of closed channel",
  ]);
  assert.ok(pid(after.error), `the scenario after the crash was answered: ${after.error}`);
  assert.notEqual(pid(after.error), pid(before.error));
});

test('a panic kubelet recovered in a goroutine is named, the scenario disagrees, and the same oracle goes on', {
  timeout: 30_000,
}, async () => {
  const { report, lines } = await runThroughStandIn('v1.29.6', ['before', 'panics', 'after'], 20_000);
  const [before, panicked, after] = report.disagree;
  assert.equal(panicked.scenario.name, 'panics');
  assert.equal(panicked.error, 'kubelet: panic: index out of range [3] with length 3');
  assert.deepEqual(lines, [
    "oracle v1.29.6: scenario panics: kubelet's side: panic: index out of range [3] with length 3",
  ]);
  assert.equal(pid(after.error), pid(before.error), 'no new oracle process: the panic did not end it');
});
