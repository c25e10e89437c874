// --env-file (syncpod's own input): NAMESPACE/NAME/KEY=VALUE or KEY=VALUE lines, as an operator's
// editor may save them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEnvFile } from '../../src/workflows/node-settings';

test('--env-file: a UTF-8 byte order mark, CRLF line ends and comments do not change the keys', () => {
  const text =
    '\uFEFFshop/db/password=s3cret\r\n# a comment\r\nshop/db/user=app\r\nMODE=blue\r\nother/db/password=x\r\n';
  const got = parseEnvFile(text, 'values.env', 'shop');
  assert.deepEqual(got.secrets, { db: { password: 's3cret', user: 'app' } });
  assert.deepEqual(got.env, { MODE: 'blue' });
});

test('--env-file: a line that is no assignment is refused naming file and line', () => {
  assert.throws(
    () => parseEnvFile('A=1\nno assignment\n', 'values.env', 'shop'),
    /^SyncpodError: values\.env:2: expected NAMESPACE\/NAME\/KEY=VALUE or KEY=VALUE$/,
  );
});
