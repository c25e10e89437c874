// The one mask every output stream goes through (render/secret-mask.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { MASKED, SecretMask, maskedStream } from '../../src/render/secret-mask';

test('a value is masked as written, JSON-escaped, base64, and as path segments; short values are not', () => {
  const m = new SecretMask();
  assert.equal(m.mask('nothing registered: s3cr3t'), 'nothing registered: s3cr3t');
  m.add(['s3cr3t "quoted"', '../deep/er-value', 'on']);
  assert.equal(m.mask('arg=s3cr3t "quoted"'), `arg=${MASKED}`);
  assert.equal(m.mask(JSON.stringify({ a: 's3cr3t "quoted"' })), `{"a":"${MASKED}"}`);
  assert.equal(m.mask(Buffer.from('s3cr3t "quoted"').toString('base64')), MASKED);
  assert.equal(m.mask('mkdir -p /v/deep/er-value'), `mkdir -p /v/${MASKED}/${MASKED}`);
  assert.equal(m.mask('restartPolicy: on'), 'restartPolicy: on', 'two characters are not masked in free text');
  m.reveal();
  assert.equal(m.mask('arg=s3cr3t "quoted"'), 'arg=s3cr3t "quoted"', '--show-secrets');
});

test('the masked stream masks text and byte chunks and keeps the stream itself', async () => {
  const m = new SecretMask();
  const raw = new PassThrough() as PassThrough & { isTTY?: boolean };
  raw.isTTY = true;
  const out = maskedStream(raw, m);
  m.add(['hunter22']);
  out.write('pw=hunter22\n');
  out.write(Buffer.from('again hunter22\n'));
  out.end();
  assert.equal(out.isTTY, true);
  const chunks: Buffer[] = [];
  for await (const c of raw) chunks.push(c as Buffer);
  assert.equal(Buffer.concat(chunks).toString(), `pw=${MASKED}\nagain ${MASKED}\n`);
});
