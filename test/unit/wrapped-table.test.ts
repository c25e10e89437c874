// syncpod's own tables (src/render/wrapped-table.ts): borderless, fitted to the terminal width by
// wrapping only the columns allowed to wrap, never cutting a word, an id or a name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { invocationSecrets } from '../../src/render/secret-mask';
import { wrappedTable, wrappedTableRows, wrapText } from '../../src/render/wrapped-table';

const REASON =
  'definition changed: hash 1234abcd (name+image) differs from 99887766 in the container annotation, so kubelet restarts it';
const ID = 'f00dfeedbeef0123456789abcdef0123456789abcdef0123456789abcdef0123';

const table: Array<[string, () => string, string[]]> = [
  [
    'short rows: columns as wide as their widest cell plus 3 spaces, no borders',
    () =>
      wrappedTable(
        ['STEP', 'ACTION', 'TARGET'],
        [
          ['1', 'kill-container', 'app'],
          ['2', 'start-container', 'sidecar'],
        ],
      ),
    ['STEP   ACTION            TARGET', '1      kill-container    app', '2      start-container   sidecar'],
  ],
  [
    'a long reason wraps word by word under its column within 60 columns',
    () => wrappedTable(['STEP', 'TARGET', 'REASON'], [['1', 'app', REASON]], { width: 60, wrap: [2] }),
    [
      'STEP   TARGET   REASON',
      '1      app      definition changed: hash 1234abcd',
      '                (name+image) differs from 99887766 in the',
      '                container annotation, so kubelet restarts it',
    ],
  ],
  [
    'no width left for the wrap column: the id keeps its width and the line runs past the terminal',
    () => wrappedTable(['ID', 'MESSAGE'], [[ID, 'a b c d e f g h i j k l m n o p q r s t']], { width: 40, wrap: [1] }),
    [
      `ID${' '.repeat(ID.length + 1)}MESSAGE`,
      `${ID}   a b c d e f g h`,
      `${' '.repeat(ID.length + 3)}i j k l m n o p`,
      `${' '.repeat(ID.length + 3)}q r s t`,
    ],
  ],
  ['no rows: the header alone', () => wrappedTable(['A', 'B'], [], { wrap: [1] }), ['A   B']],
];

for (const [name, render, want] of table) {
  test(name, () => assert.deepEqual(render().split('\n'), want));
}

test('every line fits the width when the fixed columns leave room, none ends in a space, no word is cut', () => {
  const rows = Array.from({ length: 30 }, (_, i) => [
    String(i + 1),
    `container-${i}`,
    `${REASON} ${'x'.repeat(i % 15)}`,
  ]);
  for (const width of [50, 80, 100, 132]) {
    const text = wrappedTable(['STEP', 'TARGET', 'REASON'], rows, { width, wrap: [2] });
    for (const line of text.split('\n')) {
      assert.ok(line.length <= width, `${width}: ${line}`);
      assert.equal(line, line.trimEnd());
    }
    const words = (s: string) => s.split(/\s+/).filter(Boolean).sort();
    assert.deepEqual(
      words(text),
      words(['STEP TARGET REASON', ...rows.map((r) => r.join(' '))].join(' ')),
      'every word, whole',
    );
  }
});

test('a word longer than the share of a wrap column widens it instead of being cut', () => {
  const text = wrappedTable(['NAME', 'REASON'], [['web', `see ${'y'.repeat(50)} for why`]], { width: 30, wrap: [1] });
  assert.ok(text.includes('y'.repeat(50)), text);
  assert.ok(!text.includes('…'), text);
});

test('rows come back as their lines, so a caller paints a wrapped row whole', () => {
  const rows = wrappedTableRows(
    ['STEP', 'REASON'],
    [
      ['1', REASON],
      ['2', 'short'],
    ],
    { width: 40, wrap: [1] },
  );
  assert.equal(rows.length, 3);
  assert.deepEqual(rows[0], ['STEP   REASON']);
  assert.ok(rows[1]!.length > 1);
  assert.deepEqual(rows[2], ['2      short']);
});

test('a long TARGET moves to its own line instead of squeezing REASON below ~30 characters', () => {
  const target = '/sys/fs/cgroup/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1234.slice';
  const reason = 'the pod cgroup is missing: kubelet creates it before the sandbox (pod-level resources)';
  const rows = wrappedTableRows(
    ['STEP', 'ACTION', 'TARGET', 'REASON'],
    [
      ['pre', 'create-cgroup', target, reason],
      ['1', 'start-container', 'app', 'never started'],
    ],
    { width: 100, wrap: [3], moveLong: [2] },
  );
  const [first, second] = [rows[1]!, rows[2]!];
  assert.match(first[0]!, /^pre\s+create-cgroup\s+↓\s+the pod cgroup is missing/);
  assert.equal(first.at(-1), `  ↳ target ${target}`);
  assert.match(second[0]!, /^1\s+start-container\s+app\s+never started$/);
  for (const l of rows.flat()) assert.ok(l.length <= 100, l);
  // Without moveLong the same table keeps the target in place and squeezes the reason.
  const squeezed = wrappedTableRows(
    ['STEP', 'ACTION', 'TARGET', 'REASON'],
    [['pre', 'create-cgroup', target, reason]],
    {
      width: 130,
      wrap: [3],
    },
  );
  assert.ok(squeezed[1]!.length > 2);
});

test('a Secret value with spaces is masked before the cell is wrapped (its words never reach a line of their own)', () => {
  const value = 'correct-horse battery-staple Sup3r-S3cret-7f1c';
  invocationSecrets.add([value]);
  try {
    const text = wrappedTable(
      ['STEP', 'MESSAGE'],
      [['1', `unable to provision SubPath \`../${value}\`: must not contain '..'`]],
      { width: 40, wrap: [1] },
    );
    for (const word of value.split(' ')) assert.ok(!text.includes(word), `${word} printed:\n${text}`);
    assert.match(text, /<redacted>/);
    const lines = wrapText(`the value ${value} again`, 20).join('\n');
    for (const word of value.split(' ')) assert.ok(!lines.includes(word), `${word} printed:\n${lines}`);
  } finally {
    invocationSecrets.clear();
  }
});
