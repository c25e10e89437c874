// Reading what a user names as input (manifests, '-', crictl.yaml, --env-file, config files) with
// one size limit: a device such as /dev/zero or a runaway pipe is refused with one line instead of
// being read until memory runs out. Errors other than the limit keep their errno code for callers.
import { closeSync, openSync, readSync } from 'node:fs';
import { SyncpodError } from './errors';

/** Far above any manifest (a 5000-pod `kubectl get pods -o json` is ~100 MiB less), far below memory. */
export const MAX_INPUT_BYTES = 128 * 1024 * 1024;
const CHUNK = 1 << 20;

function tooLarge(label: string, limit: number, why = 'not a manifest or config file?'): SyncpodError {
  return new SyncpodError(`${label}: larger than ${limit / 1024 / 1024} MiB: refused (${why})`);
}

/**
 * The bytes of a file (or device, FIFO) at most `limit` (default MAX_INPUT_BYTES) long; past it,
 * reading stops and the file is refused with `why` (manifests have their own, lower limit).
 */
export function readInputFileSync(path: string, label = path, limit = MAX_INPUT_BYTES, why?: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(CHUNK);
      const n = readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) break;
      total += n;
      if (total > limit) throw tooLarge(label, limit, why);
      chunks.push(buf.subarray(0, n));
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

/** A stream (stdin) to its end, at most MAX_INPUT_BYTES; past that it is left and refused. */
export function readInputStream(stream: NodeJS.ReadableStream, label: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (c: Buffer | string): void => {
      const b = Buffer.isBuffer(c) ? c : Buffer.from(c);
      total += b.length;
      if (total > MAX_INPUT_BYTES) {
        stream.removeListener('data', onData);
        stream.pause();
        reject(tooLarge(label, MAX_INPUT_BYTES));
        return;
      }
      chunks.push(b);
    };
    stream.on('data', onData);
    stream.on('end', () => resolve(Buffer.concat(chunks, total)));
    stream.on('error', reject);
  });
}
