// Bundle entry: runs main() on the real process and exits with its code once stdout and stderr
// have been flushed (a pipe may still hold output when main returns).
import { main } from './main';

// The first write error on stdout other than a closed pipe (ENOSPC on a full disk, EIO, ...): the
// data is cut, so the run ends with exit 1 and one line naming the cause, never exit 0.
let stdoutFailure: NodeJS.ErrnoException | undefined;

function stdoutFailed(err: NodeJS.ErrnoException): void {
  if (stdoutFailure) return;
  stdoutFailure = err;
  // The work in progress (a sync) still finishes; only the exit code and this line report the loss.
  if (!stderr().destroyed) stderr().write(`syncpod: cannot write to stdout: ${err.message}\n`);
}

function exitAfterFlush(code: number): void {
  // A failed write may be recorded on the stream before its 'error' event has been emitted.
  const pendingError = process.stdout.errored as NodeJS.ErrnoException | null;
  if (pendingError && pendingError.code !== 'EPIPE') stdoutFailed(pendingError);
  const exitCode = stdoutFailure ? 1 : code;
  const streams = stderrStream ? [process.stdout, stderrStream] : [process.stdout];
  let pending = streams.length;
  const done = (): void => {
    if (--pending === 0) process.exit(exitCode);
  };
  for (const stream of streams) {
    if (stream.destroyed) done();
    else stream.write('', done);
  }
}

// A closed pipe on stdout (`syncpod ps | head -1`) ends the output, not with a stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  stdoutFailed(err);
});

// stderr carries progress and warnings only: once its reader has gone (EPIPE) or it fails, later
// lines are dropped and the work goes on; progress never decides whether a sync completes.
// Node creates the stream on first access (about 3 ms for a pipe: net and a socket), and most runs
// write nothing there, so it is made, and given its error handler, when first used.
let stderrStream: NodeJS.WriteStream | undefined;
function stderr(): NodeJS.WriteStream {
  if (!stderrStream) {
    stderrStream = process.stderr;
    stderrStream.on('error', () => {});
  }
  return stderrStream;
}

main(process.argv.slice(2), {
  stdout: process.stdout,
  get stderr() {
    return stderr();
  },
  // process.stdin is created on first access (about 2 ms); only commands that read '-' need it.
  get stdin() {
    return process.stdin;
  },
  env: process.env,
}).then(exitAfterFlush, (err) => {
  if (!stderr().destroyed) stderr().write(`syncpod: ${err instanceof Error ? err.message : String(err)}\n`);
  exitAfterFlush(1);
});
