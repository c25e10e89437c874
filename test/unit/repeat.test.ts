// plan --node --every: the loop runs, survives a failed run, waits the rest of the interval, stops on abort.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { repeatEvery } from '../../src/workflows/repeat';

test('runs every interval from each start, reports errors and goes on, stops when aborted', async () => {
  let clock = 0;
  const waits: number[] = [];
  const errors: string[] = [];
  const abort = new AbortController();
  let calls = 0;
  const runs = await repeatEvery(
    600_000,
    async () => {
      calls++;
      clock += 1000; // each run takes 1 s
      if (calls === 2) throw new Error('runtime restarting');
    },
    {
      signal: abort.signal,
      sleep: async (ms) => {
        waits.push(ms);
        clock += ms;
        if (waits.length === 3) abort.abort();
      },
      onError: (err) => errors.push((err as Error).message),
    },
    () => clock,
  );
  assert.equal(runs, 3);
  assert.deepEqual(waits, [599_000, 599_000, 599_000]);
  assert.deepEqual(errors, ['runtime restarting']);
});
