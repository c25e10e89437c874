// What stats and statsp share: the flow's dependencies from the Context and the --seconds sample.
import type { Context } from './context';
import { protoJSON } from './output';
import type { StatsDeps } from '../workflows/stats';
import { SyncpodError } from '../errors';
import { MAX_TIMEOUT_MS } from '../config/settings';
import { sleep } from './signals';

export function deps(ctx: Context): StatsDeps {
  return {
    runtime: ctx.cri().runtime,
    write: (t) => void ctx.io.stdout.write(t),
    sleep,
    now: () => performance.now(),
    toJSON: protoJSON(ctx),
  };
}

export function sampleMs(seconds: number): number {
  if (seconds < 0) throw new SyncpodError('--seconds must not be negative');
  if (seconds * 1000 > MAX_TIMEOUT_MS)
    throw new SyncpodError(`--seconds must be at most ${Math.floor(MAX_TIMEOUT_MS / 1000)}`);
  return seconds * 1000;
}
