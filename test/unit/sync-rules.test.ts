// Pure executor rules (grace period, restart count by log dir, Go durations, config.seen format)
// and the per-pod lock (exclusive, stale-owner takeover).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  formatConfigSeen,
  goDurationSeconds,
  killGracePeriod,
  restartCountFromLogDir,
} from '../../src/sync/kubelet-rules';
import { acquirePodLock, lockPath } from '../../src/sync/lock';
import { renderSyncReport } from '../../src/render/sync-view';

test('killGracePeriod: deletion grace, else termination grace (probe overrides), else 2', () => {
  const c = { name: 'a', livenessProbe: { terminationGracePeriodSeconds: 5 } } as any;
  assert.equal(
    killGracePeriod(
      { metadata: { deletionGracePeriodSeconds: 7 }, spec: { terminationGracePeriodSeconds: 30 } } as any,
      c,
      '',
    ),
    7,
  );
  assert.equal(killGracePeriod({ spec: { terminationGracePeriodSeconds: 30 } } as any, c, ''), 30);
  assert.equal(killGracePeriod({ spec: { terminationGracePeriodSeconds: 30 } } as any, c, 'LivenessProbe'), 5);
  assert.equal(killGracePeriod({ spec: { terminationGracePeriodSeconds: 30 } } as any, c, 'StartupProbe'), 30);
  assert.equal(killGracePeriod({ spec: {} } as any, c, ''), 2);
});

test('restart count from the log directory counts rotated files', () => {
  for (const [entries, want] of [
    [undefined, 0],
    [[], 0],
    [['0.log'], 1],
    [['0.log', '2.log.20240101-000102', 'x.log', '10.txt'], 3],
  ] as const) {
    assert.equal(restartCountFromLogDir(entries as string[] | undefined), want);
  }
});

test('Go duration text and the config.seen layout', () => {
  assert.deepEqual([10, 59, 80, 300].map(goDurationSeconds), ['10s', '59s', '1m20s', '5m0s']);
  const ms = Date.UTC(2025, 0, 2, 3, 4, 5, 67);
  assert.equal(formatConfigSeen(ms, 0), '2025-01-02T03:04:05.067000000Z');
  assert.equal(formatConfigSeen(ms, 120), '2025-01-02T05:04:05.067000000+02:00');
  assert.equal(formatConfigSeen(ms, -330), '2025-01-01T21:34:05.067000000-05:30');
});

test('the pod lock is exclusive, released, and taken over from a dead owner', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-lock-'));
  try {
    const a = await acquirePodLock('ns', 'web', { dir, timeoutMs: 1000 });
    await assert.rejects(acquirePodLock('ns', 'web', { dir, timeoutMs: 150 }), /pod ns\/web is held by pid \d+/);
    a.release();
    const b = await acquirePodLock('ns', 'web', { dir, timeoutMs: 100 });
    b.release();
    fs.writeFileSync(lockPath(dir, 'ns/web'), '999999999\n');
    const c = await acquirePodLock('ns', 'web', { dir, timeoutMs: 100 });
    assert.equal(fs.readFileSync(c.path, 'utf8').split(' ')[0], String(process.pid));
    c.release();
    assert.ok(!fs.existsSync(c.path));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the summary table is rendered from the results', () => {
  const text = renderSyncReport(
    {
      pod: { namespace: 'ns', name: 'web', uid: 'u1' },
      ok: false,
      stopped: 'stopped at step 1 of plan 1, as kubelet would',
      rounds: 1,
      results: [
        {
          round: 1,
          step: 1,
          action: 'create-sandbox',
          target: 'ns/web attempt 0',
          ok: false,
          error: 'CreatePodSandboxError',
          message: 'boom',
          durationMs: 12.4,
          rpcMs: 11,
          calls: [],
        },
      ],
      timings: { totalMs: 50, planMs: 10, rpcMs: 20, ownMs: 30 },
    },
    { timings: true },
  );
  assert.equal(
    text,
    [
      'Pod ns/web (uid u1)',
      'STEP   ACTION           TARGET             RESULT                  DURATION   RPC    MESSAGE',
      '1      create-sandbox   ns/web attempt 0   CreatePodSandboxError   12ms       11ms   boom',
      'Sync failed: 1 of 1 steps failed; stopped at step 1 of plan 1, as kubelet would.',
      "Timings: total 50ms, in runtime RPCs 20ms, syncpod's own 30ms (observe+plan 10ms).",
      '',
    ].join('\n'),
  );
});
