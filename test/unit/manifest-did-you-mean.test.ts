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

test('through the manifest loader: the suggestion is the nearest known field at the unknown field’s own path', async () => {
  const { parseManifestText } = await import('../../src/manifest/parse');
  const pod = (spec: string) =>
    `apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n${spec
      .split('\n')
      .map((l) => `  ${l}`)
      .join('\n')}\n`;
  const container = (extra: string) => pod(`containers:\n- name: app\n  image: busybox\n  ${extra}`);
  const cases: Array<[string, string, RegExp]> = [
    [
      'a typo of a container field',
      pod('containers:\n- name: app\n  imagee: busybox'),
      /spec\.containers\[0\]\.imagee: unknown field; did you mean "image"\?/,
    ],
    [
      'case only',
      pod('containers:\n- name: app\n  Image: busybox'),
      /spec\.containers\[0\]\.Image: unknown field; did you mean "image"\?/,
    ],
    [
      'a field of resources',
      container('resources: {limitz: {cpu: 1}}'),
      /spec\.containers\[0\]\.resources\.limitz: unknown field; did you mean "limits"\?/,
    ],
    [
      'a field of the pod spec',
      `${container('')}  restartPolicyy: Always\n`,
      /spec\.restartPolicyy: unknown field; did you mean "restartPolicy"\?/,
    ],
    [
      'a volume source',
      `${container('')}  volumes:\n  - name: v\n    emptyDirr: {}\n`,
      /spec\.volumes\[0\]\.emptyDirr: unknown field; did you mean "emptyDir"\?/,
    ],
    // hostNetwork is a pod spec field, not a container's: no suggestion from another path.
    [
      'a field of another path',
      container('hostNetwork: true'),
      /spec\.containers\[0\]\.hostNetwork: unknown field \(line/,
    ],
  ];
  for (const [what, text, want] of cases)
    assert.throws(
      () => parseManifestText(text, 'pod.yaml'),
      (err: Error) => want.test(err.message),
      what,
    );
});
