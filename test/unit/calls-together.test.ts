import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listRuntime } from '../../src/state/pod-status';
import { allInOrder } from '../../src/cri/together';

const failAfter = (ms: number, what: string) =>
  new Promise<never>((_, reject) => setTimeout(() => reject(new Error(what)), ms));

test('the two lists of a hung runtime: the error names ListPodSandbox, the call made first, even when ListContainers fails first', async () => {
  const runtime = {
    call: (method: string) =>
      method === 'ListPodSandbox'
        ? failAfter(30, 'no answer to ListPodSandbox')
        : failAfter(1, 'no answer to ListContainers'),
  };
  await assert.rejects(listRuntime(runtime as never), /no answer to ListPodSandbox/);
});

test('allInOrder: values in call order; with one failure that failure; with none every value', async () => {
  assert.deepEqual(await allInOrder([Promise.resolve(1), new Promise<string>((r) => setTimeout(() => r('b'), 5))]), [
    1,
    'b',
  ]);
  await assert.rejects(allInOrder([Promise.resolve(1), failAfter(2, 'second')]), /second/);
  await assert.rejects(allInOrder([failAfter(20, 'first'), failAfter(1, 'second')]), /first/);
});
