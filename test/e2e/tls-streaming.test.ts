// exec against a runtime whose streaming server speaks https with a certificate of a private CA.
// bin/syncpod is executed as an operator runs it (its own shebang, not `node bin/syncpod`): the
// launcher keeps Node from loading NODE_EXTRA_CA_CERTS at start (see bin/syncpod), so these tests
// check that the file still decides which https streaming servers syncpod trusts, as it would for
// any Node program. The runtime is a stand-in (grpc-js on a private socket: containerd's streaming
// server here serves plain http); the streaming server is a real https WebSocket server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { WebSocketServer } from 'ws';
import * as grpc from '@grpc/grpc-js';
import { decodeMessage, encodeMessage } from '../../src/cri/codec';
import { runtimeV1 } from '../../src/cri/gen/runtime-v1';
import { syncpod } from './helpers';

const CONTAINER = 'c0ffee0000000000000000000000000000000000000000000000000000000001';
let dir: string;
let socket: string;
let caFile: string;
let server: grpc.Server;
let web: https.Server;
let execUrl: string;

function method(name: string, request: string, response: string) {
  return {
    path: `/runtime.v1.RuntimeService/${name}`,
    requestStream: false,
    responseStream: false,
    requestSerialize: (v: unknown) => encodeMessage(runtimeV1, request, v),
    requestDeserialize: (b: Buffer) => decodeMessage(runtimeV1, request, b),
    responseSerialize: (v: unknown) => encodeMessage(runtimeV1, response, v),
    responseDeserialize: (b: Buffer) => decodeMessage(runtimeV1, response, b),
  };
}

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-tls-'));
  socket = path.join(dir, 'cri.sock');
  const key = path.join(dir, 'key.pem');
  caFile = path.join(dir, 'ca.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', caFile, '-days', '2'].concat([
      '-subj',
      '/CN=syncpod test streaming server',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ]),
    { stdio: 'ignore' },
  );
  web = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(caFile) });
  const wss = new WebSocketServer({
    server: web,
    handleProtocols: (offered) => (offered.has('v4.channel.k8s.io') ? 'v4.channel.k8s.io' : false),
  });
  wss.on('connection', (ws) => {
    ws.send(Buffer.concat([Buffer.from([1]), Buffer.from('hello over tls\n')]));
    ws.send(Buffer.concat([Buffer.from([3]), Buffer.from('{"metadata":{},"status":"Success"}')]), () => ws.close(1000));
  });
  await new Promise<void>((res) => web.listen(0, '127.0.0.1', res));
  execUrl = `https://127.0.0.1:${(web.address() as AddressInfo).port}/exec/token`;

  server = new grpc.Server();
  server.addService(
    {
      Version: method('Version', 'VersionRequest', 'VersionResponse'),
      ListContainers: method('ListContainers', 'ListContainersRequest', 'ListContainersResponse'),
      Exec: method('Exec', 'ExecRequest', 'ExecResponse'),
    } as never,
    {
      Version: (_call: unknown, cb: (e: null, v: unknown) => void) =>
        cb(null, { version: '0.1.0', runtimeName: 'stand-in', runtimeVersion: '1', runtimeApiVersion: 'v1' }),
      ListContainers: (_call: unknown, cb: (e: null, v: unknown) => void) =>
        cb(null, {
          containers: [
            {
              id: CONTAINER,
              podSandboxId: 'f00d'.repeat(16),
              metadata: { name: 'app', attempt: 0 },
              image: { image: 'busybox' },
              imageRef: 'sha256:' + '0'.repeat(64),
              state: 'CONTAINER_RUNNING',
              createdAt: '1700000000000000000',
              labels: {},
              annotations: {},
            },
          ],
        }),
      Exec: (_call: unknown, cb: (e: null, v: unknown) => void) => cb(null, { url: execUrl }),
    },
  );
  await new Promise<void>((res, rej) =>
    server.bindAsync(`unix:${socket}`, grpc.ServerCredentials.createInsecure(), (e) => (e ? rej(e) : res())),
  );
});

after(() => {
  server?.forceShutdown();
  web?.closeAllConnections();
  web?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** bin/syncpod itself, executed as from a shell, with `env` added to the helper's PATH, HOME and CRI_CONFIG_FILE. */
const run = (args: string[], env: Record<string, string>) =>
  syncpod(['-r', `unix://${socket}`, ...args], { env, asProgram: true });

describe('https streaming server and NODE_EXTRA_CA_CERTS', () => {
  test('the CA named by NODE_EXTRA_CA_CERTS is trusted: exec runs over wss', async () => {
    const r = await run(['exec', CONTAINER.slice(0, 12), 'echo'], { NODE_EXTRA_CA_CERTS: caFile });
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, 'hello over tls\n', '']);
  });

  test('without it the server is refused in one line naming the URL and the certificate', async () => {
    const r = await run(['exec', CONTAINER.slice(0, 12), 'echo'], {});
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(
      r.stderr,
      /^syncpod: streaming server https:\/\/127\.0\.0\.1:\d+\/exec\/token: self[- ]signed certificate\n$/,
    );
  });

  test('an unreadable NODE_EXTRA_CA_CERTS is a warning, as Node makes it, and the CA is not trusted', async () => {
    const r = await run(['exec', CONTAINER.slice(0, 12), 'echo'], {
      NODE_EXTRA_CA_CERTS: path.join(dir, 'none.pem'),
    });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /NODE_EXTRA_CA_CERTS \S+none\.pem: cannot be read \(ENOENT\); extra certificates ignored\n/);
    assert.match(r.stderr, /streaming server https:\S+: self[- ]signed certificate\n$/);
  });
});
