import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runtimeV1 } from '../../src/cri/gen/runtime-v1';
import { criStopSignal, LINUX_STOP_SIGNALS, WINDOWS_STOP_SIGNALS } from '../../src/kubelet/stop-signals';

test('stop signals: the one list names every CRI Signal value once (RUNTIME_DEFAULT aside), in the API spelling', () => {
  const values = Object.keys(runtimeV1.enums.Signal.values).filter((v) => v !== 'SIGNAL_RUNTIME_DEFAULT');
  const mapped = LINUX_STOP_SIGNALS.map((n) => criStopSignal(n));
  assert.deepEqual([...mapped].sort(), [...values].sort());
  assert.equal(criStopSignal('SIGRTMIN+1'), 'SIGNAL_SIGRTMINPLUS1');
  assert.equal(criStopSignal('SIGRTMAX-14'), 'SIGNAL_SIGRTMAXMINUS14');
  assert.equal(criStopSignal('SIGNOPE'), undefined);
  for (const w of WINDOWS_STOP_SIGNALS) assert.ok(LINUX_STOP_SIGNALS.includes(w), w);
});
