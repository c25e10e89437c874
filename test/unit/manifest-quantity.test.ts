import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  canonicalQuantity,
  formatQuantity,
  parseQuantity,
  roundUpToMilli,
  toBytes,
  toMilliCPU,
} from '../../src/kubelet/quantity';

test('quantities: canonical text, milli-CPU and bytes', () => {
  // [input, canonical after parsing, canonical once stored (milli-rounded), milli, bytes]
  const rows: Array<[string | number, string, string, number, number]> = [
    ['500m', '500m', '500m', 500, 1],
    ['1', '1', '1', 1000, 1],
    ['0.5', '500m', '500m', 500, 1],
    ['1.5', '1500m', '1500m', 1500, 2],
    ['2.000', '2', '2', 2000, 2],
    ['1000', '1k', '1k', 1000000, 1000],
    ['256Mi', '256Mi', '256Mi', 268435456000, 268435456],
    ['200Mi', '200Mi', '200Mi', 209715200000, 209715200],
    ['512Ki', '512Ki', '512Ki', 524288000, 524288],
    ['0.5Gi', '512Mi', '512Mi', 536870912000, 536870912],
    ['1.5Ki', '1536', '1536', 1536000, 1536],
    ['1024', '1024', '1024', 1024000, 1024],
    ['1G', '1G', '1G', 1e12, 1e9],
    ['500M', '500M', '500M', 5e11, 5e8],
    ['1e3', '1e3', '1e3', 1000000, 1000],
    ['1E3', '1E3', '1E3', 1000000, 1000],
    ['1000e0', '1e3', '1e3', 1000000, 1000],
    ['1E', '1E', '1E', 1e21, 1e18],
    ['100u', '100u', '1m', 1, 1],
    ['1001u', '1001u', '2m', 2, 1],
    ['1000u', '1m', '1m', 1, 1],
    ['0.0000000001', '1n', '1m', 1, 1],
    ['0', '0', '0', 0, 0],
    ['0.0', '0', '0', 0, 0],
    ['01', '01', '01', 1000, 1],
    ['+1', '+1', '+1', 1000, 1],
    ['-1', '-1', '-1', -1000, -1],
    [0.5, '500m', '500m', 500, 1],
    [2, '2', '2', 2000, 2],
    [1e21, '1e21', '1e21', 1e24, 1e21],
  ];
  for (const [input, parsed, stored, milli, bytes] of rows) {
    const q = parseQuantity(input);
    const what = JSON.stringify(input);
    assert.equal(formatQuantity(q), parsed, `${what} parsed`);
    assert.equal(formatQuantity(roundUpToMilli(q)), stored, `${what} stored`);
    assert.equal(canonicalQuantity(input), stored, `${what} canonicalQuantity`);
    if (Math.abs(milli) <= Number.MAX_SAFE_INTEGER) assert.equal(toMilliCPU(q), milli, `${what} milli`);
    if (Math.abs(bytes) <= Number.MAX_SAFE_INTEGER) assert.equal(toBytes(q), bytes, `${what} bytes`);
  }
});

test('quantities: bad input is a one-line error with the API server reason', () => {
  const format = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
  const rows: Array<[string, string]> = [
    ['', `invalid quantity "": ${format}`],
    ['abc', `invalid quantity "abc": ${format}`],
    ['1.2.3', `invalid quantity "1.2.3": ${format}`],
    ['1 Gi', `invalid quantity "1 Gi": ${format}`],
    ['1ki', `invalid quantity "1ki": unable to parse quantity's suffix`],
    ['1Gb', `invalid quantity "1Gb": ${format}`],
    ['5e', `invalid quantity "5e": unable to parse quantity's suffix`],
  ];
  for (const [input, message] of rows) {
    assert.throws(() => parseQuantity(input), { name: 'SyncpodError', message }, JSON.stringify(input));
  }
});

test('quantities: integer views refuse values beyond 2^53', () => {
  assert.throws(() => toBytes(parseQuantity('100E')), { message: 'quantity 100E is too large for bytes' });
  assert.throws(() => toMilliCPU(parseQuantity('100P')), { message: 'quantity 100P is too large for milli-CPU' });
});
