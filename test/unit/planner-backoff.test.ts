// Crash-loop back-off estimate: kubelet's 10 s doubling to 300 s, reset after 600 s of running.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateCrashLoopBackOff } from '../../src/kubelet/backoff';

const FIN = Date.UTC(2025, 0, 1, 12, 0, 0);
const s = 1000;

const rows: Array<{
  name: string;
  restartCount: number;
  ran: number;
  since: number;
  delay: number;
  held: boolean;
  remaining: number;
  reset?: boolean;
}> = [
  { name: 'first exit restarts at once', restartCount: 0, ran: 5, since: 0, delay: 0, held: false, remaining: 0 },
  { name: 'second exit waits 10s', restartCount: 1, ran: 5, since: 3, delay: 10, held: true, remaining: 7 },
  { name: 'third exit waits 20s', restartCount: 2, ran: 5, since: 3, delay: 20, held: true, remaining: 17 },
  { name: 'fourth exit waits 40s', restartCount: 3, ran: 5, since: 39.5, delay: 40, held: true, remaining: 1 },
  { name: 'the delay has passed', restartCount: 3, ran: 5, since: 40, delay: 40, held: false, remaining: 0 },
  { name: 'sixth exit waits 160s', restartCount: 5, ran: 5, since: 0, delay: 160, held: true, remaining: 160 },
  {
    name: 'seventh exit is capped at 300s',
    restartCount: 6,
    ran: 5,
    since: 100,
    delay: 300,
    held: true,
    remaining: 200,
  },
  { name: 'many exits stay at 300s', restartCount: 50, ran: 5, since: 299, delay: 300, held: true, remaining: 1 },
  {
    name: 'a run longer than 600s resets the back-off',
    restartCount: 8,
    ran: 601,
    since: 1,
    delay: 0,
    held: false,
    remaining: 0,
    reset: true,
  },
  {
    name: 'a run of exactly 600s does not reset it',
    restartCount: 8,
    ran: 600,
    since: 1,
    delay: 300,
    held: true,
    remaining: 299,
    reset: false,
  },
];

for (const r of rows) {
  test(r.name, () => {
    const e = estimateCrashLoopBackOff({
      restartCount: r.restartCount,
      startedAt: FIN - r.ran * s,
      finishedAt: FIN,
      now: FIN + r.since * s,
    });
    assert.equal(e.delaySeconds, r.delay);
    assert.equal(e.heldBack, r.held);
    assert.equal(e.remainingSeconds, r.remaining);
    if (r.reset !== undefined) assert.equal(e.reset, r.reset);
  });
}

test('a smaller configured maximum caps the delay', () => {
  const e = estimateCrashLoopBackOff({
    restartCount: 4,
    startedAt: FIN - s,
    finishedAt: FIN,
    now: FIN,
    maxSeconds: 60,
  });
  assert.equal(e.delaySeconds, 60);
});
