// exec -s with --timeout: CRI-O's answer to a command that outlived it (exit -1 and conmon's words)
// is said as a timeout, as containerd's DEADLINE_EXCEEDED is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runtimeTimedOut } from '../../src/stream/exec';

const res = (exitCode: number, stderr: string, stdout = '') => ({
  exitCode,
  stdout: Buffer.from(stdout),
  stderr: Buffer.from(stderr),
});

test('CRI-O\'s timed-out ExecSync (exit -1, stderr "command timed out") is one timeout line; anything else is the command\'s own answer', () => {
  const e = runtimeTimedOut(res(-1, 'command timed out'), 1);
  assert.equal(
    e?.message,
    'exec -s: the command did not end within its timeout of 1s (the runtime stopped it: "command timed out")',
  );
  assert.equal(runtimeTimedOut(res(-1, 'command timed out'), 0), undefined, 'no --timeout: no timeout to blame');
  assert.equal(runtimeTimedOut(res(255, 'command timed out'), 1), undefined, "the command's own exit code");
  assert.equal(runtimeTimedOut(res(-1, 'command timed out\n'), 1), undefined, 'the command printed it itself');
  assert.equal(runtimeTimedOut(res(-1, 'command timed out', 'out'), 1), undefined);
  assert.equal(runtimeTimedOut(res(0, ''), 1), undefined);
});
