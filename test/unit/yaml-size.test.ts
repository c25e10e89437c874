// Manifests bounded by size: an object may expand (aliases counted at every use) to what the API
// server admits, a manifest file to MAX_MANIFEST_BYTES; both refused with one line naming the file
// and document before any value is built.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LineCounter, parse } from 'yaml';
import { loadManifests } from '../../src/manifest/load';
import { parseManifestText, yamlDocuments } from '../../src/manifest/parse';
import { KUBECTL_YAML_OPTIONS } from '../../src/manifest/yaml-read';
import { MAX_MANIFEST_BYTES, MAX_OBJECT_BYTES } from '../../src/manifest/yaml-size';
import { parseGivenPods } from '../../src/workflows/node-inputs';

const KiB = 1024;
const podHead = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: laughs\n  annotations:\n';
const podTail = 'spec:\n  containers:\n  - name: c\n    image: busybox\n';

/** One 512 KiB string referenced by `uses` aliases: the issue's 557 KB "billion laughs". */
function laughs(uses: number): string {
  let s = `${podHead}    a: &a "${'x'.repeat(512 * KiB)}"\n`;
  for (let i = 0; i < uses; i++) s += `    b${i}: *a\n`;
  return s + podTail;
}

function refusal(text: string, file = 'pod.yaml'): string {
  try {
    parseManifestText(text, file);
  } catch (err) {
    assert.equal((err as Error).name, 'SyncpodError');
    return (err as Error).message;
  }
  return 'accepted';
}

test('a 512 KiB string used by 998 aliases is refused before it is expanded, naming file, document and limit', () => {
  assert.equal(
    refusal(laughs(998)),
    'pod.yaml: document 1: the object expands to 499.5 MiB (YAML aliases included), over the 3 MiB the API server admits for one object: refused',
  );
  // Five uses stay under 3 MiB: the limit is on size, not on aliases as such (the annotation
  // size rule then names the field).
  assert.match(refusal(laughs(4)), /^pod\.yaml: document 1: metadata\.annotations: too long/);
});

test('an anchor counts wherever it stands: document start, a map value, a sequence item, a block scalar, a flow collection', () => {
  const big = 'y'.repeat(400 * KiB);
  const rows: Array<[string, string]> = [
    ['map value', `a: &a {k: "${big}"}\n${[...Array(8)].map((_, i) => `b${i}: *a`).join('\n')}\n`],
    ['sequence item', `a:\n- &a ["${big}"]\n${[...Array(8)].map(() => '- *a').join('\n')}\n`],
    ['block scalar', `a: &a |\n  ${big}\n${[...Array(8)].map((_, i) => `b${i}: *a`).join('\n')}\n`],
    [
      'nested aliases',
      `a: &a "${'z'.repeat(64 * KiB)}"\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b]\n`,
    ],
    ['merge keys', `a: &a {k: "${big}"}\n${[...Array(8)].map((_, i) => `b${i}: {<<: *a}`).join('\n')}\n`],
  ];
  for (const [what, text] of rows) {
    const json = JSON.stringify(parse(text, { ...KUBECTL_YAML_OPTIONS, maxAliasCount: -1 } as never)).length;
    assert.ok(json > MAX_OBJECT_BYTES, `${what}: the row expands past the limit (${json})`);
    assert.match(refusal(text), /the object expands to [\d.]+ MiB \(YAML aliases included\)/, what);
  }
  // The same shapes with one use are no problem for the size check.
  assert.doesNotMatch(refusal(`a: &a {k: "${big}"}\nb: *a\n`), /expands/);
});

test('a List is measured item by item: many items may total more than one object, one item may not', () => {
  const item = (name: string, pad: number) =>
    `- {apiVersion: v1, kind: Pod, metadata: {name: ${name}, annotations: {a: "${'p'.repeat(pad)}"}}, spec: {containers: [{name: c, image: busybox}]}}`;
  const many = `apiVersion: v1\nkind: List\nitems:\n${[...Array(8)].map((_, i) => item(`p${i}`, 200 * KiB)).join('\n')}\n`;
  assert.ok(many.length > MAX_OBJECT_BYTES / 2);
  assert.equal(parseManifestText(many, 'list.yaml').length, 8);
  const one = `apiVersion: v1\nkind: List\nitems:\n${item('a', 10)}\n${item('b', MAX_OBJECT_BYTES)}\n`;
  assert.equal(
    refusal(one, 'list.yaml'),
    'list.yaml: document 1: items[1]: the object expands to 3 MiB (YAML aliases included), over the 3 MiB the API server admits for one object: refused',
  );
  // Fields beside `items` are one more object: they cannot hide a large value.
  const beside = `apiVersion: v1\nkind: List\nmetadata: {annotations: {a: "${'q'.repeat(MAX_OBJECT_BYTES)}"}}\nitems: []\n`;
  assert.match(refusal(beside, 'list.yaml'), /^list\.yaml: document 1: the object expands to/);
});

test('a manifest file over the limit is refused after reading at most the limit, naming the file', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-size-'));
  try {
    const file = path.join(dir, 'big.yaml');
    fs.writeFileSync(file, `${podHead}    a: "${'y'.repeat(MAX_MANIFEST_BYTES)}"\n${podTail}`);
    await assert.rejects(
      loadManifests([file], async () => ''),
      {
        name: 'SyncpodError',
        message: `${file}: larger than 8 MiB: refused (a manifest; the API server admits no object over 3 MiB)`,
      },
    );
    // The same text from stdin (read with the general input limit) is refused before parsing.
    const text = fs.readFileSync(file);
    await assert.rejects(
      loadManifests(['-'], async () => text),
      {
        message: '<stdin>: larger than 8 MiB: refused (a manifest; the API server admits no object over 3 MiB)',
      },
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the documents of one manifest together are bounded too', () => {
  const doc = (i: number) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c${i}}\ndata: {a: &a${i} "${'d'.repeat(1400 * KiB)}", b: *a${i}}\n`;
  const text = [...Array(3)].map((_, i) => doc(i)).join('---\n');
  assert.ok(text.length < MAX_MANIFEST_BYTES);
  assert.match(
    refusal(text),
    /^pod\.yaml: document 3: the documents expand to 8\.2 MiB \(YAML aliases included\), over the 8 MiB limit for one manifest: refused$/,
  );
});

test('plan --node inputs (kubectl get pods -o yaml) get the same bounds', () => {
  const { pods, problems } = parseGivenPods(laughs(998), 'pods.yaml');
  assert.equal(pods.length, 0);
  assert.deepEqual(problems, [
    'pods.yaml: document 1: the object expands to 499.5 MiB (YAML aliases included), over the 3 MiB the API server admits for one object: refused',
  ]);
});

test('parse errors keep their line and column after the size check', () => {
  const docs = yamlDocuments('a: [1, 2\n', 'x.yaml', new LineCounter());
  assert.equal(docs.length, 1);
  assert.ok(docs[0]!.errors.length > 0);
  assert.match(refusal('apiVersion: v1\nkind: Pod\nmetadata: {name: [\n'), /^pod\.yaml: line \d+, column \d+: /);
});

test('the largest int64 is a valid terminationGracePeriodSeconds, as the API takes it; 2^63 is not', () => {
  const grace = (v: string) =>
    `apiVersion: v1\nkind: Pod\nmetadata: {name: g}\nspec:\n  terminationGracePeriodSeconds: ${v}\n  containers: [{name: c, image: busybox}]\n`;
  const [pod] = parseManifestText(grace('9223372036854775807'), 'g.yaml');
  assert.ok((pod!.pod.spec?.terminationGracePeriodSeconds ?? 0) > 9.2e18);
  assert.match(
    refusal(grace('9223372036854775808')),
    /terminationGracePeriodSeconds: invalid value .*out of range for a 64-bit integer/,
  );
});
