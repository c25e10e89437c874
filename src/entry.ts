// Bundle entry: runs main() on the real process and exits with its code once stdout and stderr
// have been flushed (a pipe may still hold output when main returns).
import { main } from './main';

function exitAfterFlush(code: number): void {
  let pending = 2;
  const done = (): void => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

// A closed pipe on stdout (`syncpod ps | head -1`) ends the output, not with a stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
});

main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  // process.stdin is created on first access (about 2 ms); only commands that read '-' need it.
  get stdin() {
    return process.stdin;
  },
  env: process.env,
}).then(exitAfterFlush, (err) => {
  process.stderr.write(`syncpod: ${err instanceof Error ? err.message : String(err)}\n`);
  exitAfterFlush(1);
});
