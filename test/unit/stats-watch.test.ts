// stats/statsp -w: frames on crictl 1.37's 500 ms ticker (first frame at the first tick; a frame
// longer than a tick is followed at once; missed ticks dropped), a clear before each table frame.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextTick, repeat, type StatsDeps } from '../../src/workflows/stats';
import type { RuntimeService } from '../../src/cri/grpc-runtime-service';

/** A clock that only moves when the flow sleeps or a frame takes its time; stops after `frames`. */
function run(output: 'table' | 'json', frameMs: number, frames: number, watch = true) {
  let clock = 1000;
  const starts: number[] = [];
  const written: string[] = [];
  const abort = new AbortController();
  const deps: StatsDeps = {
    runtime: {} as RuntimeService,
    write: (t) => void written.push(t),
    sleep: async (ms) => {
      clock += ms;
    },
    now: () => clock,
    toJSON: () => ({}),
  };
  const done = repeat(deps, { output, sampleMs: 0, watch, signal: abort.signal }, async () => {
    starts.push(clock - 1000);
    clock += frameMs;
    if (starts.length === frames) abort.abort();
    return `frame ${starts.length}\n`;
  });
  return done.then((code) => ({ code, starts, written }));
}

test('the first tick is 500 ms after the start; ticks follow every 500 ms', () => {
  assert.equal(nextTick(0, 0), 500);
  assert.equal(nextTick(0, 499), 500);
  assert.equal(nextTick(0, 500), 1000);
  assert.equal(nextTick(100, 1750), 2100);
});

test('-o json frames: one per tick, nothing cleared; Ctrl-C during a frame drops that frame, exit 0', async () => {
  const r = await run('json', 20, 4);
  assert.deepEqual(r.starts, [500, 1000, 1500, 2000]);
  assert.deepEqual(r.written, ['frame 1\n', 'frame 2\n', 'frame 3\n']);
  assert.equal(r.code, 0);
});

test('table frames that outlast a tick (a 1 s sample) follow at once; each starts with the clear-screen sequence', async () => {
  const r = await run('table', 1100, 3);
  assert.deepEqual(r.starts, [500, 1600, 2700]);
  assert.deepEqual(r.written, ['\u001b[2J\u001b[Hframe 1\n', '\u001b[2J\u001b[Hframe 2\n']);
});

test('a frame ending just before a tick waits for it', async () => {
  const r = await run('table', 450, 3);
  assert.deepEqual(r.starts, [500, 1000, 1500]);
});

test('without -w: one frame at once, no clear-screen sequence', async () => {
  const r = await run('table', 1100, 2, false);
  assert.deepEqual(r.starts, [0]);
  assert.deepEqual(r.written, ['frame 1\n']);
});
