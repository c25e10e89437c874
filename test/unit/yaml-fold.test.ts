// go-yaml v2's folding of long one-line scalars (crictl's -o yaml, through sigs.k8s.io/yaml), as
// syncpod reproduces it for crictl-shaped output. The first case is containerd 2.4's cgroup v1
// deprecation condition as crictl 1.37 printed it (`info -o yaml`, live in crictl-parity).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { goYamlFold, yamlText } from '../../src/render/yaml';

const MESSAGE =
  '{"io.containerd.deprecation/cgroup-v1":"The support for cgroup v1 is deprecated since containerd v2.2 and will be removed by no later than May 2029. Upgrade the host to use cgroup v2."}';

test("a single-quoted value in a sequence item's mapping: broken at the first space past column 80, indented at its key + 2", () => {
  const text = yamlText({ status: { conditions: [{ message: MESSAGE, type: 'X' }] } }, { goFold: true });
  assert.equal(
    text,
    `status:
  conditions:
  - message: '{"io.containerd.deprecation/cgroup-v1":"The support for cgroup v1 is
      deprecated since containerd v2.2 and will be removed by no later than May 2029.
      Upgrade the host to use cgroup v2."}'
    type: X
`,
  );
  assert.deepEqual(parse(text), { status: { conditions: [{ message: MESSAGE, type: 'X' }] } });
});

test('plain and double-quoted values fold too; a double space is never the break; keys and short lines stay', () => {
  const plain = `${'word '.repeat(17)}a  b ${'tail '.repeat(10)}end`;
  const double = `tab\there ${'more '.repeat(20)}x  y ${'z '.repeat(30)}end`;
  const value = { top: plain, nested: { d: double }, short: 'a b c', [`key ${'k'.repeat(90)}`]: 'v' };
  const text = yamlText(value, { goFold: true });
  assert.deepEqual(parse(text), value, 'the same values when read');
  for (const line of text.split('\n')) {
    // a fold happens only past column 80, so no line but a key line ends short of it while followed by more of its scalar
    assert.ok(!/ $/.test(line), `no trailing space: ${JSON.stringify(line)}`);
  }
  assert.ok(text.includes(`key ${'k'.repeat(90)}: v`), 'a long key is never folded');
  assert.ok(text.includes('short: a b c\n'));
  // double-quoted continuation keeps an escaped leading space when the break is at the first of two
  assert.ok(/\n {4}\\ |\n {4}\S/.test(text), text);
});

test('block scalars (multi-line strings) are left as they are', () => {
  const text =
    'a: |-\n  one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen\nb: c\n';
  assert.equal(goYamlFold(text), text);
});

test('without goFold (syncpod documents) nothing is folded', () => {
  assert.equal(yamlText({ m: MESSAGE }), `m: '${MESSAGE}'\n`);
});
