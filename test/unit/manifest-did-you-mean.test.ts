// An unknown manifest field names the nearest known field at that path when it looks like a typo.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { didYouMean } from '../../src/manifest/schema';

const cases: Array<[string, string[], string]> = [
  ['imagee', ['image', 'imagePullPolicy', 'name'], '; did you mean "image"?'],
  ['comand', ['command', 'args'], '; did you mean "command"?'],
  ['ImagePullPolicy', ['image', 'imagePullPolicy'], '; did you mean "imagePullPolicy"?'],
  ['colour', ['image', 'name'], ''],
  ['x', ['a', 'b'], ''],
];
for (const [key, known, want] of cases)
  test(`${key} → ${JSON.stringify(want)}`, () => assert.equal(didYouMean(key, known), want));
