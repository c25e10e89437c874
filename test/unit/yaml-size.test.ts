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
import { MAX_MANIFEST_BYTES, MAX_MANIFEST_OBJECTS, MAX_OBJECT_BYTES } from '../../src/manifest/yaml-size';
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

/** `n` one-line pods (about 80 bytes each: 8 MiB holds 87,000 of them). */
const tinyPods = (n: number, from = 0): string =>
  [...Array(n)]
    .map(
      (_, i) =>
        `kind: Pod\napiVersion: v1\nmetadata: {name: p${from + i}}\nspec: {containers: [{name: a, image: b}]}\n`,
    )
    .join('---\n');

test('one invocation reads at most 2000 objects: documents and List items counted before any is built', () => {
  assert.equal(MAX_MANIFEST_OBJECTS, 2000);
  const line = (where: string) =>
    `${where}more than 2000 objects (non-empty documents and List items) in one invocation, far more than a node runs (kubelet's maxPods, 110 by default): refused; split the input`;
  // 2000 pass; empty documents (a trailing or doubled `---`, comments) are no objects.
  assert.equal(parseManifestText(`${tinyPods(2000)}\n---\n---\n# end\n`, 'pods.yaml').length, 2000);
  assert.equal(refusal(tinyPods(2001), 'pods.yaml'), line('pods.yaml: document 2001: '));
  // Counted on the syntax tree: a broken first pod is not what is reported, nothing was composed.
  const broken = `kind: Pod\napiVersion: v1\nmetadata: {name: BAD_NAME}\n---\n${tinyPods(2000)}`;
  assert.equal(refusal(broken, 'pods.yaml'), line('pods.yaml: document 2001: '));
  const items = [...Array(2001)].map(
    (_, i) => `- {kind: Pod, apiVersion: v1, metadata: {name: p${i}}, spec: {containers: [{name: a, image: b}]}}`,
  );
  assert.equal(
    refusal(`apiVersion: v1\nkind: List\nitems:\n${items.join('\n')}\n`, 'list.yaml'),
    line('list.yaml: document 1: items[2000]: '),
  );
});

test('the bounds are for one invocation: files of a directory and several arguments share them', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-objects-'));
  try {
    fs.mkdirSync(path.join(dir, 'many'));
    for (const [i, name] of ['a.yaml', 'b.yaml', 'c.yaml'].entries())
      fs.writeFileSync(path.join(dir, 'many', name), tinyPods(800, i * 800));
    await assert.rejects(
      loadManifests([path.join(dir, 'many')], async () => ''),
      {
        name: 'SyncpodError',
        message: `${path.join(dir, 'many', 'c.yaml')}: document 401: more than 2000 objects (non-empty documents and List items) in one invocation, far more than a node runs (kubelet's maxPods, 110 by default): refused; split the input`,
      },
    );
    // Two files each under 8 MiB, over it together.
    const big = (name: string) => `${podHead.replace('laughs', name)}    a: "${'y'.repeat(250 * KiB)}"\n${podTail}`;
    const files = [...Array(34)].map((_, i) => {
      const f = path.join(dir, `big-${String(i).padStart(2, '0')}.yaml`);
      fs.writeFileSync(f, big(`big-${i}`));
      return f;
    });
    await assert.rejects(
      loadManifests(files, async () => ''),
      {
        name: 'SyncpodError',
        message: new RegExp(
          `^${files[32]!.replace(/[.]/g, '\\.')}: the manifests of this invocation come to 8\\.\\d MiB with this file, over the 8 MiB syncpod reads at once: refused; split the input$`,
        ),
      },
    );
    assert.equal((await loadManifests(files.slice(0, 32), async () => '')).length, 32);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('plan --node inputs (kubectl get pods -o yaml) get the same bounds', () => {
  const { pods, problems } = parseGivenPods(laughs(998), 'pods.yaml');
  assert.equal(pods.length, 0);
  assert.deepEqual(problems, [
    'pods.yaml: document 1: the object expands to 499.5 MiB (YAML aliases included), over the 3 MiB the API server admits for one object: refused',
  ]);
});

test('plan --node inputs share the object bound: YAML and JSON Lists, over several texts, refuse the run', () => {
  const over =
    "more than 2000 objects (non-empty documents and List items) in one invocation, far more than a node runs (kubelet's maxPods, 110 by default): refused; split the input";
  const item = (i: number) => ({
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name: `p${i}` },
    spec: { containers: [{ name: 'a', image: 'b' }] },
  });
  const json = (n: number) =>
    JSON.stringify({ kind: 'List', apiVersion: 'v1', items: [...Array(n)].map((_, i) => item(i)) });
  assert.throws(() => parseGivenPods(json(2001), 'pods.json'), {
    name: 'SyncpodError',
    message: `pods.json: document 1: items[2000]: ${over}`,
  });
  assert.throws(() => parseGivenPods(tinyPods(2001), 'pods.yaml'), {
    name: 'SyncpodError',
    message: `pods.yaml: document 2001: ${over}`,
  });
  const count = { objects: 0 };
  assert.equal(parseGivenPods(json(1500), 'a.json', count).pods.length, 1500);
  assert.throws(() => parseGivenPods(json(600), 'b.json', count), {
    message: `b.json: document 1: items[500]: ${over}`,
  });
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
