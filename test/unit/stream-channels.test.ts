// The channel framing of the CRI streaming server (v4.channel.k8s.io and the base64 variant), the
// exit status on the error channel, the port-forward prefixes and kubectl's port forms.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  decodeFrame,
  encodeFrame,
  parseCommandEnd,
  PortPrefixStripper,
  resizeMessage,
} from '../../src/stream/channels';
import { parsePortSpecs } from '../../src/stream/port-forward';
import { SyncpodError } from '../../src/errors';

test('frames: channel byte + payload (binary), digit + base64 (text), both ways', () => {
  const bin = encodeFrame('v4.channel.k8s.io', 0, Buffer.from('hi'));
  assert.deepEqual(bin, Buffer.from([0, 0x68, 0x69]));
  assert.deepEqual(decodeFrame('v4.channel.k8s.io', Buffer.from([2, 0x6f, 0x6b])), {
    channel: 2,
    data: Buffer.from('ok'),
  });
  assert.equal(encodeFrame('v4.base64.channel.k8s.io', 4, Buffer.from('{}')), '4e30=');
  assert.deepEqual(decodeFrame('v4.base64.channel.k8s.io', '1aGk='), { channel: 1, data: Buffer.from('hi') });
  assert.equal(decodeFrame('v4.channel.k8s.io', Buffer.alloc(0)), undefined);
});

test('the error channel: Success, NonZeroExitCode with the code, other failures as their message', () => {
  const cases: Array<[string, string, ReturnType<typeof parseCommandEnd>]> = [
    ['v4.channel.k8s.io', '{"metadata":{},"status":"Success"}', { kind: 'exit', code: 0 }],
    [
      'v4.channel.k8s.io',
      '{"metadata":{},"status":"Failure","message":"command terminated with non-zero exit code: error executing command [sh -c exit 3], exit code 3","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"3"}]}}',
      { kind: 'exit', code: 3 },
    ],
    [
      'v4.channel.k8s.io',
      '{"metadata":{},"status":"Failure","message":"container not running"}',
      { kind: 'error', message: 'container not running' },
    ],
    ['v4.channel.k8s.io', 'not json', { kind: 'error', message: 'not json' }],
    ['channel.k8s.io', '', { kind: 'exit', code: 0 }],
    ['channel.k8s.io', 'exec failed: boom', { kind: 'error', message: 'exec failed: boom' }],
  ];
  for (const [protocol, payload, expected] of cases)
    assert.deepEqual(parseCommandEnd(payload, protocol), expected, payload);
});

test('resize messages are Go TerminalSize JSON', () => {
  assert.equal(resizeMessage(120, 40).toString(), '{"Width":120,"Height":40}');
});

test('port-forward: each channel opens with the port (2 bytes, little-endian), also split over frames', () => {
  const s = new PortPrefixStripper([8080]);
  assert.deepEqual(s.strip(0, Buffer.from([0x90])), Buffer.alloc(0));
  assert.deepEqual(s.strip(0, Buffer.from([0x1f, 0x41])), Buffer.from('A'));
  assert.deepEqual(
    s.strip(0, Buffer.from([0x90, 0x1f])),
    Buffer.from([0x90, 0x1f]),
    'only the first frame carries the prefix',
  );
  assert.deepEqual(s.strip(1, Buffer.from([0x90, 0x1f, 0x65])), Buffer.from('e'));
  assert.throws(
    () => new PortPrefixStripper([80]).strip(0, Buffer.from('HTTP')),
    /opened channel 0 for port 21576, expected 80/,
  );
});

test("port specs in kubectl's forms; bad ones are refused", () => {
  assert.deepEqual(parsePortSpecs(['80', '8080:80', ':443']), [
    { local: 80, remote: 80 },
    { local: 8080, remote: 80 },
    { local: 0, remote: 443 },
  ]);
  for (const [bad, msg] of [
    ['http', /"http" is not a port number/],
    ['0', /out of range/],
    ['1:2:3', /expected \[LOCAL:\]REMOTE/],
    ['80:70000', /remote port 70000 is out of range/],
  ] as const) {
    assert.throws(
      () => parsePortSpecs([bad]),
      (e: Error) => e instanceof SyncpodError && msg.test(e.message),
      bad,
    );
  }
  assert.throws(() => parsePortSpecs([]), /at least one port/);
});
