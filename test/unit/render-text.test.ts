// Table-driven checks of the formatting rules behind the read views.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatRFC3339Nano, goFormatG, humanDuration, humanSize, truncateId, utcZone } from '../../src/render/text';
import { goJSONText } from '../../src/render/json';
import { crictlTable, tableLines } from '../../src/render/table';
import { compareYamlKeys, yamlText } from '../../src/render/yaml';
import { parse as parseYaml } from 'yaml';
import { ansiColours, chooseColours, plainColours } from '../../src/render/colour';
import { shortImage } from '../../src/render/containers-view';
import { seeded } from '../fixtures/seeded';

const S = 1_000_000_000n;

test('human durations follow go-units', () => {
  const cases: Array<[bigint, string]> = [
    [-5n * S, 'Less than a second'],
    [S / 2n, 'Less than a second'],
    [S, '1 second'],
    [59n * S, '59 seconds'],
    [60n * S, 'About a minute'],
    [119n * S, 'About a minute'],
    [120n * S, '2 minutes'],
    [59n * 60n * S, '59 minutes'],
    [60n * 60n * S, 'About an hour'],
    [89n * 60n * S, 'About an hour'],
    [90n * 60n * S, '2 hours'],
    [47n * 3600n * S, '47 hours'],
    [48n * 3600n * S, '2 days'],
    [13n * 86400n * S, '13 days'],
    [14n * 86400n * S, '2 weeks'],
    [59n * 86400n * S, '8 weeks'],
    [60n * 86400n * S, '2 months'],
    [729n * 86400n * S, '24 months'],
    [730n * 86400n * S, '2 years'],
  ];
  for (const [ns, want] of cases) assert.equal(humanDuration(ns), want, `${ns}ns`);
});

test('human sizes follow go-units HumanSizeWithPrecision(3)', () => {
  const cases: Array<[number, string]> = [
    [0, '0B'],
    [999, '999B'],
    [1000, '1kB'],
    [1234, '1.23kB'],
    [321520, '322kB'],
    [999_999, '1e+03kB'],
    [70_544_635, '70.5MB'],
    [1_500_000_000, '1.5GB'],
  ];
  for (const [bytes, want] of cases) assert.equal(humanSize(bytes), want, String(bytes));
});

test("Go's %g", () => {
  const cases: Array<[number, number, string]> = [
    [12.3456, 3, '12.3'],
    [100, 3, '100'],
    [0.00001, 3, '1e-05'],
    [123456, 3, '1.23e+05'],
    [2.5, 4, '2.5'],
  ];
  for (const [v, p, want] of cases) assert.equal(goFormatG(v, p), want, `${v} %.${p}g`);
});

test('ids are cut to 13 characters after an optional prefix', () => {
  const cases: Array<[string, string, string]> = [
    ['0123456789abcdef', '', '0123456789abc'],
    ['short', '', 'short'],
    ['sha256:0123456789abcdef', 'sha256:', '0123456789abc'],
    ['<none>', 'sha256:', '<none>'],
  ];
  for (const [id, prefix, want] of cases) assert.equal(truncateId(id, prefix), want);
});

test('the IMAGE column shortens only real digests', () => {
  const hex = 'a'.repeat(64);
  assert.equal(shortImage(`sha256:${hex}`), 'aaaaaaaaaaaaa');
  assert.equal(shortImage('sha256:abc'), 'sha256:abc');
  assert.equal(shortImage('nginx:1.25'), 'nginx:1.25');
  assert.equal(shortImage(`docker.io/library/nginx@sha256:${hex}`), `docker.io/library/nginx@sha256:${hex}`);
});

test('RFC 3339 timestamps as Go prints them', () => {
  const cases: Array<[bigint, number, string]> = [
    [0n, 0, '1970-01-01T00:00:00Z'],
    [1_700_000_000_000_000_000n, 0, '2023-11-14T22:13:20Z'],
    [1_700_000_000_100_000_000n, 0, '2023-11-14T22:13:20.1Z'],
    [1_700_000_000_000_000_001n, 0, '2023-11-14T22:13:20.000000001Z'],
    [1_700_000_000_000_000_000n, -330, '2023-11-14T16:43:20-05:30'],
    [1_700_000_000_000_000_000n, 60, '2023-11-14T23:13:20+01:00'],
  ];
  for (const [ns, offset, want] of cases) {
    assert.equal(formatRFC3339Nano(ns, offset === 0 ? utcZone : { offsetMinutes: () => offset }), want);
  }
});

test('tables pad every column but the last to max(20, widest + 3)', () => {
  const out = crictlTable([
    ['A', 'LONG HEADER', 'LAST'],
    ['a-value-that-is-longer-than-twenty', 'x', 'tail  with  spaces'],
  ]);
  const lines = out.split('\n');
  assert.equal(lines.length, 3);
  assert.equal(lines[0], 'A' + ' '.repeat(36) + 'LONG HEADER' + ' '.repeat(9) + 'LAST');
  assert.equal(
    lines[1],
    'a-value-that-is-longer-than-twenty' + ' '.repeat(3) + 'x' + ' '.repeat(19) + 'tail  with  spaces',
  );
  assert.equal(lines[2], '');
  assert.equal(crictlTable([]), '');
});

test("crictl's tables count a wide (CJK) character as one column, as Go's tabwriter counts runes", () => {
  const cjk = '名前名前名前名前名前名前'; // 12 runes, 24 terminal columns
  const out = crictlTable([
    ['NAME', 'STATE'],
    [cjk, 'Ready'],
    ['e\u0301', 'x'], // a combining mark is a rune of its own too
  ]);
  assert.equal(out, `NAME${' '.repeat(16)}STATE\n${cjk}${' '.repeat(8)}Ready\ne\u0301${' '.repeat(18)}x\n`);
  // syncpod's own views (no minimum) keep terminal columns: the CJK cell takes 24 of them.
  assert.equal(tableLines([[cjk, 'x']])[0], `${cjk}${' '.repeat(3)}x`);
  assert.equal(
    tableLines([
      [cjk, 'x'],
      ['a', 'y'],
    ])[1],
    `a${' '.repeat(26)}y`,
  );
});

test('painted cells take the width of their text, and the last column is never padded', () => {
  const paint = (t: string) => `\u001b[32m${t}\u001b[39m`;
  const strip = (t: string) => t.replace(/\u001b\[\d+m/g, '');
  const plain = crictlTable([
    ['STATE', 'NAME'],
    ['Running', 'short'],
    ['Exited', 'a-much-longer-last-cell'],
  ]);
  const coloured = crictlTable([
    [paint('STATE'), 'NAME'],
    [paint('Running'), 'short'],
    ['Exited', paint('a-much-longer-last-cell')],
  ]);
  assert.equal(strip(coloured), plain);
  assert.equal(
    plain,
    'STATE' +
      ' '.repeat(15) +
      'NAME\nRunning' +
      ' '.repeat(13) +
      'short\nExited' +
      ' '.repeat(14) +
      'a-much-longer-last-cell\n',
  );
  assert.ok(coloured.split('\n').every((line) => !line.endsWith(' ')));
});

test('without a minimum width, columns are the widest cell plus 3 spaces (plan and CNI tables)', () => {
  assert.deepEqual(
    tableLines([
      ['STEP', 'ACTION', 'REASON'],
      ['1', 'kill-pod', ''],
      ['12', 'x', 'why'],
    ]),
    ['STEP   ACTION     REASON', '1      kill-pod', '12     x          why'],
  );
  assert.deepEqual(tableLines([]), []);
});

test("inspect JSON is Go's encoding/json: sorted keys, HTML characters escaped", () => {
  assert.equal(
    goJSONText({ b: 'x<y>&z', a: [1, true, null], c: {}, d: [] }),
    '{\n  "a": [\n    1,\n    true,\n    null\n  ],\n  "b": "x\\u003cy\\u003e\\u0026z",\n  "c": {},\n  "d": []\n}',
  );
});

test('YAML strings a YAML 1.1 or 1.2 reader or go-yaml would misread stay quoted, as go-yaml quotes them; others stay plain', () => {
  const cases: Array<[string, string]> = [
    ['plain', 'v: plain\n'],
    ['', 'v: ""\n'],
    ['1700000000000000000', 'v: "1700000000000000000"\n'],
    ['1.5', 'v: "1.5"\n'],
    ['-.5e3', 'v: "-.5e3"\n'],
    ['.inf', 'v: ".inf"\n'],
    ['0x1F', 'v: "0x1F"\n'],
    ['0o17', 'v: "0o17"\n'],
    ['012', 'v: "012"\n'],
    ['true', 'v: "true"\n'],
    ['yes', 'v: "yes"\n'],
    ['off', 'v: "off"\n'],
    ['n', 'v: "n"\n'],
    ['Y', 'v: "Y"\n'],
    ['null', 'v: "null"\n'],
    ['~', 'v: "~"\n'],
    ['<<', 'v: "<<"\n'],
    ['2023-11-14T22:13:20Z', 'v: "2023-11-14T22:13:20Z"\n'],
    ['1:20', 'v: "1:20"\n'],
    ['a: b', "v: 'a: b'\n"],
    ['- x', "v: '- x'\n"],
    ['{"a":1}', 'v: \'{"a":1}\'\n'],
    ["it's", "v: it's\n"],
    ['#comment', "v: '#comment'\n"],
    ['a #b', "v: 'a #b'\n"],
    [' lead', "v: ' lead'\n"],
    // go-yaml single-quotes what only cannot be plain (crictl on CRI-O: io.kubernetes.cri-o.Volumes: '[]').
    ['[]', "v: '[]'\n"],
    ['*ref', "v: '*ref'\n"],
    ["'s'", "v: '''s'''\n"],
    ['10.88.0.4', 'v: 10.88.0.4\n'],
    ['sha256:abc', 'v: sha256:abc\n'],
    ['two\nlines', 'v: |-\n  two\n  lines\n'],
    ['ends\n', 'v: |\n  ends\n'],
    // go-yaml's own number syntax (crictl reads these back as numbers): '_' dropped, base prefixes in either case.
    ['0X1F', 'v: "0X1F"\n'],
    ['0O17', 'v: "0O17"\n'],
    ['0B1', 'v: "0B1"\n'],
    ['1e3_0', 'v: "1e3_0"\n'],
    ['0b102', 'v: 0b102\n'],
    // What go-yaml double-quotes whatever else holds: a tab or a character beyond its printable set
    // (escaped as it escapes them), a space before a line break, a multi-line string ending in a space.
    ['a\tb', 'v: "a\\tb"\n'],
    ['#!/bin/sh\n\techo hi\n', 'v: "#!/bin/sh\\n\\techo hi\\n"\n'],
    ['emoji \u{1F600}', 'v: "emoji \\U0001F600"\n'],
    ['a\ufeffb', 'v: "a\\uFEFFb"\n'],
    ['a\nb ', 'v: "a\\nb "\n'],
    // A string starting like a document marker is single-quoted.
    ['---', "v: '---'\n"],
    ['--- x', "v: '--- x'\n"],
    ['...', "v: '...'\n"],
  ];
  for (const [value, want] of cases) {
    const text = yamlText({ v: value });
    assert.equal(text, want, JSON.stringify(value));
    for (const version of ['1.1', '1.2'] as const) {
      assert.deepEqual(parseYaml(text, { version }), { v: value }, `${JSON.stringify(value)} read as YAML ${version}`);
    }
  }
  const long = `${'x'.repeat(90)} ${'y'.repeat(90)}`;
  assert.equal(yamlText({ v: long }), `v: ${long}\n`, 'no line folding');
  assert.equal(yamlText({ true: 1, n: 2 }), '"n": 2\n"true": 1\n', 'keys are quoted too');
});

test('YAML layout: nested maps indented, sequences not, empty collections inline', () => {
  assert.equal(
    yamlText({ list: [{ a: 1, b: [] }, [1, 2]], m: { k: {} }, num: 1.5, z: false }),
    'list:\n- a: 1\n  b: []\n- - 1\n  - 2\nm:\n  k: {}\nnum: 1.5\nz: false\n',
  );
});

test("YAML key order is go-yaml's: non-letters first, digit runs numerically", () => {
  const keys = ['kA', 'k10', 'k9', 'k_', 'k.', 'b', 'a', 'a.b', 'ab'];
  assert.deepEqual([...keys].sort(compareYamlKeys), ['a', 'a.b', 'ab', 'b', 'k.', 'k_', 'k9', 'k10', 'kA']);
});

test('terminal colours are 16-colour SGR codes; empty text stays empty', () => {
  assert.equal(ansiColours.header('H'), '\u001b[1mH\u001b[22m');
  assert.equal(ansiColours.good('Running'), '\u001b[32mRunning\u001b[39m');
  assert.equal(ansiColours.bad('Exited'), '\u001b[31mExited\u001b[39m');
  assert.equal(ansiColours.pending('Created'), '\u001b[33mCreated\u001b[39m');
  assert.equal(ansiColours.good(''), '');
  assert.equal(plainColours.bad('Exited'), 'Exited');
});

test('colour only on a terminal without NO_COLOR or --no-color', () => {
  const cases: Array<[boolean, string | undefined, boolean, typeof plainColours]> = [
    [true, undefined, false, ansiColours],
    [true, '', false, ansiColours],
    [true, '1', false, plainColours],
    [true, undefined, true, plainColours],
    [false, undefined, false, plainColours],
  ];
  for (const [isTTY, noColorEnv, noColorFlag, want] of cases) {
    assert.equal(
      chooseColours({ isTTY, noColorEnv, noColorFlag }),
      want,
      JSON.stringify({ isTTY, noColorEnv, noColorFlag }),
    );
  }
});

test('tableLines: rows of one-line cells come out as the general (multi-line) layout lays them out', () => {
  const random = seeded(20261127);
  const words = [
    '',
    'a',
    'web',
    'Running',
    'localhost/syncpod/busybox:1.36',
    'trailing  ',
    '\u001b[1mbold\u001b[0m',
    '名前',
    'x'.repeat(25),
  ];
  for (let round = 0; round < 50; round++) {
    const rows: string[][] = [];
    const n = 1 + Math.floor(random() * 8);
    for (let r = 0; r < n; r++) {
      const width = 1 + Math.floor(random() * 5);
      rows.push(Array.from({ length: width }, () => words[Math.floor(random() * words.length)]!));
    }
    // A last row holding an empty two-line cell takes the general path and widens no column.
    const general = tableLines([...rows, ['\n']], 20).slice(0, -1);
    assert.deepEqual(tableLines(rows, 20), general, JSON.stringify(rows));
  }
});
