// sync's question before a kill: the steps that stop or remove, with their reasons, then one question.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPlan } from '../../src/plan/plan';
import { killConfirmation } from '../../src/render/confirm-view';
import { T0, basePod, healthyStatus } from '../fixtures/planner/base';

test("the question lists the plan's kill steps with their reasons, not the starts, then asks once", () => {
  const pod = basePod();
  const st = healthyStatus(pod, 'name+image');
  pod.spec!.containers[0]!.image = 'nginx:1.26';
  const plan = buildPlan({ pod, podStatus: st, now: T0 });
  assert.equal(
    killConfirmation(plan),
    [
      'sync of shop/web stops or removes:',
      '  1  kill-container app id-app: definition changed: image nginx:1.25 → 1.26 (name+image hash)',
      'Go ahead?',
    ].join('\n'),
  );
});
