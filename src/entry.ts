// Bundle entry: runs main() on the real process and exits with its code once stdout and stderr
// have been flushed (a pipe may still hold output when main returns).
import { writeSync } from 'node:fs';
import { main } from './main';

// The first write error on stdout other than a closed pipe (ENOSPC on a full disk, EIO, ...): the
// data is cut, so the run ends with exit 1 and one line naming the cause, never exit 0.
let stdoutFailure: NodeJS.ErrnoException | undefined;

// A closed pipe on stdout (`syncpod ps | head -1`) ends the output, not with a stack trace; any
// other write error is a failure (stdoutFailed).
function stdoutError(err: NodeJS.ErrnoException): void {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  stdoutFailed(err);
}

function stdoutFailed(err: NodeJS.ErrnoException): void {
  if (stdoutFailure) return;
  stdoutFailure = err;
  // The work in progress (a sync) still finishes; only the exit code and this line report the loss.
  if (!stderr().destroyed) stderr().write(`syncpod: cannot write to stdout: ${err.message}\n`);
}

// Node makes process.stdout on first access: for a file or a pipe that loads its whole stream
// machinery (about 1.5 ms), which `--version`, help and usage errors do not need. The stream is
// made, with its error handler, when a command first uses it.
let stdoutStream: NodeJS.WriteStream | undefined;
function stdout(): NodeJS.WriteStream {
  if (!stdoutStream) {
    stdoutStream = process.stdout;
    stdoutStream.on('error', stdoutError);
  }
  return stdoutStream;
}

/**
 * A whole text for stdout before any stream exists (help, --version, usage): written to file
 * descriptor 1 directly, as Node's stdout itself does for files and terminals. A pipe that cannot
 * take it now (EAGAIN) gets the rest through the stream; other errors are handled as the stream's
 * are (stdoutError).
 */
function writeOut(text: string): void {
  if (stdoutStream) {
    stdoutStream.write(text);
    return;
  }
  const bytes = Buffer.from(text);
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(1, bytes, done);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EAGAIN') stdout().write(bytes.subarray(done));
    else stdoutError(e);
  }
}

function exitAfterFlush(code: number): void {
  // A failed write may be recorded on the stream before its 'error' event has been emitted.
  const pendingError = stdoutStream?.errored as NodeJS.ErrnoException | null | undefined;
  if (pendingError && pendingError.code !== 'EPIPE') stdoutFailed(pendingError);
  const exitCode = stdoutFailure ? 1 : code;
  const streams = [stdoutStream, stderrStream].filter((s): s is NodeJS.WriteStream => s !== undefined);
  let pending = streams.length;
  if (pending === 0) process.exit(exitCode);
  const done = (): void => {
    if (--pending === 0) process.exit(exitCode);
  };
  for (const stream of streams) {
    if (stream.destroyed) done();
    else stream.write('', done);
  }
}

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
  get stdout() {
    return stdout();
  },
  writeOut,
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
