// Endpoints that are not a working CRI runtime: every case is a one-line error naming the
// endpoint and the cause, exit code 1, within the deadline. Fakes are only for what a real
// containerd cannot produce (a v1alpha2-only runtime, a server that never answers).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http2 from 'node:http2';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as loader from '@grpc/proto-loader';
import { assertOneLineError, syncpod, worldReadableCli } from './helpers';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-conn-'));
const servers: Array<{ close(): void }> = [];

function protoService(version: 'v1' | 'v1alpha2'): any {
  const def = loader.loadSync(path.join(__dirname, '..', '..', 'proto', 'runtime', version, 'api.proto'), {
    longs: String,
    enums: String,
    defaults: true,
  });
  return (grpc.loadPackageDefinition(def) as any).runtime[version];
}

async function startGrpc(socket: string, setup: (server: grpc.Server) => void): Promise<void> {
  const server = new grpc.Server();
  setup(server);
  await new Promise<void>((resolve, reject) =>
    server.bindAsync(`unix://${socket}`, grpc.ServerCredentials.createInsecure(), (err) =>
      err ? reject(err) : resolve(),
    ),
  );
  servers.push({ close: () => server.forceShutdown() });
}

const sockets = {
  missing: path.join(dir, 'missing.sock'),
  regularFile: path.join(dir, 'not-a-socket'),
  refused: path.join(dir, 'refused.sock'),
  garbage: path.join(dir, 'garbage.sock'),
  silent: path.join(dir, 'silent.sock'),
  hanging: path.join(dir, 'hanging.sock'),
  alpha: path.join(dir, 'alpha.sock'),
  closer: path.join(dir, 'closer.sock'),
  web: path.join(dir, 'web.sock'),
};

before(async () => {
  fs.writeFileSync(sockets.regularFile, 'hello');
  // A socket file nobody listens on: a child binds it and exits without cleaning up.
  spawnSync(process.execPath, [
    '-e',
    `require('net').createServer().listen(${JSON.stringify(sockets.refused)}, () => process.exit(0))`,
  ]);
  // Speaks something other than HTTP/2: answers every connection with a line of text and closes.
  const garbage = net.createServer((c) => c.end('SSH-2.0-not-grpc\r\n'));
  await new Promise<void>((r) => garbage.listen(sockets.garbage, r));
  servers.push({ close: () => garbage.close() });
  // Accepts connections and never says a word.
  const held: net.Socket[] = [];
  const silent = net.createServer((c) => held.push(c));
  await new Promise<void>((r) => silent.listen(sockets.silent, r));
  servers.push({
    close: () => {
      held.forEach((c) => c.destroy());
      silent.close();
    },
  });
  // Accepts each connection and closes it at once (a service restarting, or not meant for clients).
  const closer = net.createServer((c) => c.destroy());
  await new Promise<void>((r) => closer.listen(sockets.closer, r));
  servers.push({ close: () => closer.close() });
  // An HTTP/2 web server: answers every request 200 with an HTML page.
  const web = http2.createServer();
  web.on('stream', (stream) => {
    stream.on('error', () => {});
    stream.respond({ ':status': 200, 'content-type': 'text/html' });
    stream.end('<html><body>Welcome to nginx!</body></html>');
  });
  await new Promise<void>((r) => web.listen(sockets.web, r));
  servers.push({ close: () => web.close() });
  // A gRPC server that implements runtime.v1 but never answers its calls.
  const v1 = protoService('v1');
  await startGrpc(sockets.hanging, (s) =>
    s.addService(v1.RuntimeService.service, { version: () => {}, listPodSandbox: () => {} }),
  );
  // A runtime that only knows runtime.v1alpha2 (as containerd < 1.5 or old CRI-O).
  const alpha = protoService('v1alpha2');
  await startGrpc(sockets.alpha, (s) => {
    s.addService(alpha.RuntimeService.service, {
      version: (_call: any, cb: any) =>
        cb(null, {
          version: '0.1.0',
          runtimeName: 'fake-alpha',
          runtimeVersion: '0.0.1',
          runtimeApiVersion: 'v1alpha2',
        }),
      listPodSandbox: (_call: any, cb: any) =>
        cb(null, {
          items: [
            {
              id: 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90',
              metadata: { name: 'old-pod', namespace: 'legacy', uid: 'u-1', attempt: 2 },
              state: 'SANDBOX_READY',
              createdAt: String(BigInt(Date.now() - 3600_000) * 1_000_000n),
              labels: {},
              annotations: {},
              runtimeHandler: '',
            },
          ],
        }),
    });
  });
});

after(() => {
  for (const s of servers) s.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('connection errors', () => {
  test('a socket that does not exist', async () => {
    const r = await syncpod(['-r', `unix://${sockets.missing}`, 'pods']);
    assertOneLineError(r, new RegExp(`endpoint unix://${sockets.missing}: no such socket`));
  });

  test('a bare path that is a regular file, not a socket', async () => {
    const r = await syncpod(['-r', sockets.regularFile, 'ps']);
    assertOneLineError(r, /is not a socket/);
  });

  test('a socket nobody listens on: connection refused', async () => {
    assert.ok(fs.existsSync(sockets.refused), 'stale socket file was created');
    const r = await syncpod(['-r', `unix://${sockets.refused}`, 'version']);
    assertOneLineError(r, /connection refused/);
  });

  test('a server that does not speak gRPC', async () => {
    const r = await syncpod(['-r', `unix://${sockets.garbage}`, '--timeout', '3s', 'pods']);
    assertOneLineError(r, new RegExp(`endpoint unix://${sockets.garbage}: (not a gRPC server|no answer)`));
  });

  test('a server that accepts and closes the connection at once: one wording, whatever the timing', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await syncpod(['-r', `unix://${sockets.closer}`, '--timeout', '3s', 'pods']);
      assertOneLineError(
        r,
        new RegExp(
          `^syncpod: endpoint unix://${sockets.closer}: not a gRPC server, or it closed the connection \\(the connection was closed before HTTP/2 was set up\\)$`,
          'm',
        ),
      );
    }
  });

  test('an HTTP/2 server that is not gRPC (an HTML answer) is named as such', async () => {
    const r = await syncpod(['-r', `unix://${sockets.web}`, '--timeout', '3s', 'pods']);
    assertOneLineError(
      r,
      new RegExp(
        `endpoint unix://${sockets.web}: not a gRPC server \\(malformed response: content-type "text/html"\\)`,
      ),
    );
  });

  test('a socket written with a leading // is the same socket', async () => {
    const r = await syncpod(['-r', `unix:///${sockets.alpha}`, '--timeout', '3s', 'pods', '-o', 'json'], {
      prefix: ['sh', '-c', 'cd / && exec "$@"', 'sh'],
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).items[0].metadata.name, 'old-pod');
  });

  test('events on a socket that accepts and never speaks HTTP/2 ends at --timeout instead of waiting forever', async () => {
    // A hang would meet the helper's own limit (15 s) and fail the one-line assertion; the line names the deadline.
    const r = await syncpod(['-r', `unix://${sockets.silent}`, '--timeout', '700ms', 'events'], { timeoutMs: 15000 });
    assertOneLineError(r, /no answer to GetContainerEvents within 700ms/);
  });

  test('a server that accepts and never answers is cut off at the deadline', async () => {
    const r = await syncpod(['-r', `unix://${sockets.silent}`, '--timeout', '700ms', 'pods'], { timeoutMs: 15000 });
    assertOneLineError(r, /no answer to ListPodSandbox within 700ms/);
  });

  test('a gRPC server that never answers a call is cut off at the deadline', async () => {
    const r = await syncpod(['-r', `unix://${sockets.hanging}`, '--timeout', '500ms', 'version'], { timeoutMs: 15000 });
    assertOneLineError(r, new RegExp(`endpoint unix://${sockets.hanging}: no answer to Version within 500ms`));
  });

  test('permission denied for a user who may not open the socket', async (t) => {
    // Root passes file permissions, so run the CLI as nobody against a socket only root may use.
    // The checkout may sit in a directory nobody cannot enter: run a world-readable copy.
    const { cli, remove } = worldReadableCli();
    t.after(remove);
    const privateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-perm-'));
    t.after(() => fs.rmSync(privateDir, { recursive: true, force: true }));
    fs.chmodSync(privateDir, 0o755);
    const sock = path.join(privateDir, 'root-only.sock');
    const server = net.createServer(() => {});
    await new Promise<void>((r) => server.listen(sock, r));
    t.after(() => server.close());
    fs.chmodSync(sock, 0o600);
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(
        'setpriv',
        ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, cli, '-r', `unix://${sock}`, 'pods'],
        {
          env: { PATH: process.env.PATH ?? '', CRI_CONFIG_FILE: '' },
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    assertOneLineError(r, /permission denied/);
  });

  test('an endpoint with an unsupported scheme', async () => {
    const r = await syncpod(['-r', 'tcp://127.0.0.1:1', 'pods']);
    assertOneLineError(r, /unsupported protocol/);
  });

  test('--debug shows the stack of an error', async () => {
    const r = await syncpod(['-r', `unix://${sockets.missing}`, '--debug', 'pods']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /\n\s+at /);
  });
});

describe('API negotiation', () => {
  test('falls back to runtime.v1alpha2 when v1 is unimplemented, and version says so', async () => {
    const r = await syncpod(['-r', `unix://${sockets.alpha}`, 'version']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /RuntimeName:\s+fake-alpha/);
    assert.match(r.stdout, /RuntimeApiVersion:\s+v1alpha2/);
    assert.equal(r.stdout.split('\n').length, 5, 'crictl prints four lines');
    assert.match(r.stderr, /CRI API in use:\s+v1alpha2/);
  });

  test('lists pods over runtime.v1alpha2', async () => {
    const r = await syncpod(['-r', `unix://${sockets.alpha}`, 'pods', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.items.length, 1);
    assert.equal(out.items[0].metadata.name, 'old-pod');
    assert.equal(out.items[0].state, 'SANDBOX_READY');
  });

  test('--api v1 against a v1alpha2-only runtime is a clear error', async () => {
    const r = await syncpod(['-r', `unix://${sockets.alpha}`, '--api', 'v1', 'pods']);
    assertOneLineError(r, /not implemented by runtime\.v1/);
  });

  test('--api v1alpha2 is used as forced', async () => {
    const r = await syncpod(['-r', `unix://${sockets.alpha}`, '--api', 'v1alpha2', 'version']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /CRI API in use:\s+v1alpha2/);
  });
});
