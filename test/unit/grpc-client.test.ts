// syncpod's gRPC client (src/cri/grpc-client.ts: grpc-js set up as kubelet dials a runtime) against
// real servers on private unix sockets: grpc-js's server for the calls a runtime answers, and
// node:http2 servers that misbehave on purpose (wrong HTTP status, wrong content-type, oversized or
// compressed frames, a reset stream, two answers to a unary call, no answer at all). What is
// checked is what a caller of the CRI client sees: the status code and the words of the details.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http2 from 'node:http2';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { GrpcClient, GrpcStatusError, Status, connectionDetails, grpcTarget } from '../../src/cri/grpc-client';
import { CriService, type RuntimeMethods } from '../../src/cri/grpc-runtime-service';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grpc-client-'));
const closers: Array<() => void> = [];
after(() => {
  for (const c of closers) c();
  fs.rmSync(dir, { recursive: true, force: true });
});
let socketCount = 0;
const socketPath = () => path.join(dir, `s${socketCount++}.sock`);

const raw = { serialize: (b: Buffer) => b, deserialize: (b: Buffer) => b };
const method = (p: string, responseStream = false) => ({
  path: p,
  requestStream: false,
  responseStream,
  requestSerialize: raw.serialize,
  requestDeserialize: raw.deserialize,
  responseSerialize: raw.serialize,
  responseDeserialize: raw.deserialize,
});

/** A grpc-js server on a new socket with the test service's handlers. */
async function grpcServer(handlers: grpc.UntypedServiceImplementation): Promise<string> {
  const sock = socketPath();
  const server = new grpc.Server();
  server.addService(
    {
      Echo: method('/t.T/Echo'),
      Fail: method('/t.T/Fail'),
      Hang: method('/t.T/Hang'),
      Count: method('/t.T/Count', true),
    } as grpc.ServiceDefinition,
    handlers,
  );
  await new Promise<void>((res, rej) =>
    server.bindAsync(`unix:${sock}`, grpc.ServerCredentials.createInsecure(), (e) => (e ? rej(e) : res())),
  );
  closers.push(() => server.forceShutdown());
  return sock;
}

/** A node:http2 server on a new socket that answers every stream with `onStream`. */
async function h2Server(
  onStream: (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) => void,
): Promise<string> {
  const sock = socketPath();
  const server = http2.createServer();
  server.on('stream', (stream, headers) => {
    stream.on('error', () => {});
    onStream(stream, headers);
  });
  // At the end the server drops its connections: a stream it never read (the Trailers-Only case)
  // would otherwise hold the client's graceful close, and with it the test process, forever.
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (s) => sessions.add(s));
  await new Promise<void>((r) => server.listen(sock, r));
  closers.push(() => {
    for (const s of sessions) s.destroy();
    server.close();
  });
  return sock;
}

/** A message as gRPC frames it on the wire: flag byte 0, four bytes big-endian length, the bytes. */
function frame(message: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(message.length, 1);
  return Buffer.concat([head, message]);
}

/** A server on a new socket that accepts connections and never says a word. */
async function silentServer(): Promise<string> {
  const sock = socketPath();
  const held: net.Socket[] = [];
  const server = net.createServer((c) => held.push(c));
  await new Promise<void>((r) => server.listen(sock, r));
  closers.push(() => {
    held.forEach((c) => c.destroy());
    server.close();
  });
  return sock;
}

/** A server that drops the connection 20 ms into each call, after answering the headers or not. */
async function droppingServer(afterHeaders: boolean): Promise<string> {
  const sock = socketPath();
  const server = http2.createServer();
  const sockets: net.Socket[] = [];
  server.on('connection', (c: net.Socket) => sockets.push(c));
  server.on('stream', (stream) => {
    stream.on('error', () => {});
    if (afterHeaders) stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
    setTimeout(() => sockets.forEach((c) => c.destroy()), 20);
  });
  await new Promise<void>((r) => server.listen(sock, r));
  closers.push(() => server.close());
  return sock;
}

async function rejection(p: Promise<unknown>): Promise<GrpcStatusError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof GrpcStatusError, `expected a GrpcStatusError, got ${String(err)}`);
    return err;
  }
  assert.fail('the call succeeded');
}

test('unary calls round-trip bytes through grpc-js, including a message of several flow-control windows', async () => {
  const sock = await grpcServer({
    Echo: (call: grpc.ServerUnaryCall<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) =>
      cb(null, Buffer.concat([Buffer.from('echo:'), call.request])),
  });
  const ch = new GrpcClient(sock);
  try {
    assert.equal((await ch.unary('/t.T/Echo', Buffer.from('hi'), { timeoutMs: 5000 })).toString(), 'echo:hi');
    const big = Buffer.alloc(3 * 1024 * 1024, 7);
    const back = await ch.unary('/t.T/Echo', big, { timeoutMs: 5000 });
    assert.equal(back.length, big.length + 5);
    assert.ok(back.subarray(5).equals(big));
    // Several calls at once share the connection.
    const answers = await Promise.all(['a', 'b', 'c'].map((s) => ch.unary('/t.T/Echo', Buffer.from(s))));
    assert.deepEqual(answers.map(String), ['echo:a', 'echo:b', 'echo:c']);
  } finally {
    ch.close();
  }
});

test('a status from the server keeps its code and its percent-decoded message; an unknown method is UNIMPLEMENTED', async () => {
  const sock = await grpcServer({
    Fail: (_call: unknown, cb: grpc.sendUnaryData<Buffer>) =>
      cb({ code: Status.NOT_FOUND, details: 'container "ü 100%" not found' }),
  });
  const ch = new GrpcClient(sock);
  try {
    const e = await rejection(ch.unary('/t.T/Fail', Buffer.alloc(0), { timeoutMs: 5000 }));
    assert.equal(e.code, Status.NOT_FOUND);
    assert.equal(e.details, 'container "ü 100%" not found');
    const u = await rejection(ch.unary('/t.T/Nope', Buffer.alloc(0), { timeoutMs: 5000 }));
    assert.equal(u.code, Status.UNIMPLEMENTED);
  } finally {
    ch.close();
  }
});

test('the deadline is sent as grpc-timeout and enforced: a call nobody answers ends DEADLINE_EXCEEDED', async () => {
  let seen: string | undefined;
  const sock = await h2Server((_stream, headers) => {
    seen = String(headers['grpc-timeout']);
  });
  const ch = new GrpcClient(sock);
  const e = await rejection(ch.unary('/t.T/Hang', Buffer.alloc(0), { timeoutMs: 300 }));
  assert.equal(e.code, Status.DEADLINE_EXCEEDED);
  // grpc-js sends the time left when the request goes out, in milliseconds.
  const m = /^(\d+)m$/.exec(seen ?? '');
  assert.ok(m && Number(m[1]) <= 300 && Number(m[1]) >= 200, `grpc-timeout ${seen}`);
  ch.close();
});

test('a server that accepts the connection and never speaks HTTP/2 is cut off at the deadline', async () => {
  const sock = await silentServer();
  const ch = new GrpcClient(sock);
  const e = await rejection(ch.unary('/t.T/Echo', Buffer.alloc(0), { timeoutMs: 300 }));
  assert.equal(e.code, Status.DEADLINE_EXCEEDED);
  ch.close();
});

test('server streaming: messages in order, then OK; an abort cancels the call and the server sees it', async () => {
  let serverCancelled!: () => void;
  const cancelled = new Promise<void>((r) => (serverCancelled = r));
  const sock = await grpcServer({
    Count: (call: grpc.ServerWritableStream<Buffer, Buffer>) => {
      const n = call.request.readUInt8(0);
      for (let i = 0; i < n; i++) call.write(Buffer.from([i]));
      if (n < 100) return call.end();
      call.on('cancelled', () => serverCancelled());
    },
  });
  const ch = new GrpcClient(sock);
  try {
    const got: number[] = [];
    await ch.serverStream('/t.T/Count', Buffer.from([5]), (m) => got.push(m[0]!));
    assert.deepEqual(got, [0, 1, 2, 3, 4]);

    const ac = new AbortController();
    const seen: number[] = [];
    const call = ch.serverStream(
      '/t.T/Count',
      Buffer.from([200]),
      (m) => {
        seen.push(m[0]!);
        if (seen.length === 3) ac.abort();
      },
      { signal: ac.signal },
    );
    const e = await rejection(call);
    assert.equal(e.code, Status.CANCELLED);
    assert.equal(seen.length, 3, 'no message after the abort');
    await cancelled;
  } finally {
    ch.close();
  }
});

test('responses that are not gRPC: the HTTP status mapped as the gRPC spec says; a body that is not gRPC is refused', async () => {
  for (const [httpStatus, code] of [
    [400, Status.INTERNAL],
    [401, Status.UNAUTHENTICATED],
    [403, Status.PERMISSION_DENIED],
    [404, Status.UNIMPLEMENTED],
    [429, Status.UNAVAILABLE],
    [502, Status.UNAVAILABLE],
    [503, Status.UNAVAILABLE],
    [504, Status.UNAVAILABLE],
    [500, Status.UNKNOWN],
  ] as const) {
    const sock = await h2Server((stream) =>
      stream.respond({ ':status': httpStatus, 'content-type': 'text/plain' }, { endStream: true }),
    );
    const ch = new GrpcClient(sock);
    const e = await rejection(ch.unary('/t.T/Echo', Buffer.alloc(0), { timeoutMs: 2000 }));
    assert.equal(e.code, code, `HTTP ${httpStatus}: ${e.message}`);
    assert.match(e.details, new RegExp(`HTTP status code ${httpStatus}`));
    ch.close();
  }

  // grpc-js does not look at the content-type (an HTML page would be read as gRPC frames, its first
  // bytes a length far over the limit); the client checks it, as grpc-go does.
  const sockHtml = await h2Server((stream) => {
    stream.respond({ ':status': 200, 'content-type': 'text/html' });
    stream.end('<html>');
  });
  const chHtml = new GrpcClient(sockHtml);
  const eHtml = await rejection(chHtml.unary('/t.T/Echo', Buffer.alloc(0), { timeoutMs: 2000 }));
  assert.equal(eHtml.code, Status.INTERNAL);
  assert.match(eHtml.details, /malformed response: content-type "text\/html"/);
  chHtml.close();
});

/** A server that answers with 200, application/grpc, the given DATA and the given trailers (none: the stream just ends). */
function answering(data: Buffer, trailers?: Record<string, string>) {
  return (stream: http2.ServerHttp2Stream) => {
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: trailers !== undefined });
    if (trailers) stream.on('wantTrailers', () => stream.sendTrailers(trailers));
    stream.end(data);
  };
}

test('malformed answers: oversized, compressed, two messages for a unary call, none, a cut message, no status', async () => {
  const cases: Array<[string, Buffer, Record<string, string> | undefined, number, RegExp]> = [
    [
      'a message over 16 MiB',
      Buffer.from([0, 0x01, 0x00, 0x00, 0x01]),
      { 'grpc-status': '0' },
      Status.RESOURCE_EXHAUSTED,
      /larger than max \(16777217 vs 16777216\)/,
    ],
    [
      'a compressed message',
      Buffer.concat([Buffer.from([1, 0, 0, 0, 1]), Buffer.from('x')]),
      { 'grpc-status': '0' },
      Status.INTERNAL,
      /compressed/,
    ],
    [
      'two messages',
      Buffer.concat([frame(Buffer.from('a')), frame(Buffer.from('b'))]),
      { 'grpc-status': '0' },
      Status.INTERNAL,
      /second response message/,
    ],
    ['no message', Buffer.alloc(0), { 'grpc-status': '0' }, Status.INTERNAL, /no response message/],
    // grpc-js drops the unfinished bytes; what is left is a unary call without its answer.
    [
      'a message cut short',
      Buffer.from([0, 0, 0, 0, 9, 1, 2]),
      { 'grpc-status': '0' },
      Status.INTERNAL,
      /no response message/,
    ],
    [
      'trailers without grpc-status',
      frame(Buffer.from('a')),
      { 'x-other': '1' },
      Status.UNKNOWN,
      /HTTP status code 200/,
    ],
    ['no trailers at all', frame(Buffer.from('a')), undefined, Status.INTERNAL, /without gRPC status/],
    // (grpc-js reads grpc-status with parseInt: an empty value passes as OK, "0x5" as 5. A runtime
    // never sends either; the cases that were here for the hand-written parser are gone with it.)
  ];
  for (const [name, data, trailers, code, details] of cases) {
    const sock = await h2Server(answering(data, trailers));
    const ch = new GrpcClient(sock);
    const e = await rejection(ch.unary('/t.T/Echo', Buffer.alloc(0), { timeoutMs: 2000 }));
    assert.equal(e.code, code, `${name}: ${e.message}`);
    assert.match(e.details, details, name);
    ch.close();
  }
});

test('a stream the server refused unread is sent again (grpc-js transparent retry); other resets are INTERNAL', async () => {
  // Refuses the first stream it sees, answers the rest.
  let seen = 0;
  const flaky = await h2Server((stream) => {
    if (seen++ === 0) stream.close(http2.constants.NGHTTP2_REFUSED_STREAM);
    else answering(frame(Buffer.from('retried')), { 'grpc-status': '0' })(stream);
  });
  const ch1 = new GrpcClient(flaky);
  assert.equal((await ch1.unary('/t.T/Echo', Buffer.alloc(0), { timeoutMs: 2000 })).toString(), 'retried');
  assert.equal(seen, 2);
  ch1.close();

  // A server that refuses everything gets one retry, then the call is UNAVAILABLE; any other reset
  // is not retried.
  const always = [
    [http2.constants.NGHTTP2_REFUSED_STREAM, Status.UNAVAILABLE, 2],
    [http2.constants.NGHTTP2_INTERNAL_ERROR, Status.INTERNAL, 1],
  ] as const;
  for (const [rst, code, wantTries] of always) {
    let tries = 0;
    const sock = await h2Server((stream) => {
      tries++;
      stream.close(rst);
    });
    const ch = new GrpcClient(sock);
    const e = await rejection(ch.unary('/t.T/Echo', Buffer.alloc(0), { timeoutMs: 2000 }));
    assert.equal(e.code, code, e.message);
    assert.equal(tries, wantTries, `reset ${rst}`);
    ch.close();
  }
});

test('connection failures are UNAVAILABLE with the cause: no socket, nobody listening, not HTTP/2', async () => {
  const missing = new GrpcClient(path.join(dir, 'missing.sock'));
  const e1 = await rejection(missing.unary('/t.T/Echo', Buffer.alloc(0), { timeoutMs: 2000 }));
  assert.equal(e1.code, Status.UNAVAILABLE);
  assert.match(e1.details, /ENOENT/);

  const stale = socketPath();
  spawnSync(process.execPath, [
    '-e',
    `require('net').createServer().listen(${JSON.stringify(stale)}, () => process.exit(0))`,
  ]);
  const refused = new GrpcClient(stale);
  const e2 = await rejection(refused.unary('/t.T/Echo', Buffer.alloc(0), { timeoutMs: 2000 }));
  assert.equal(e2.code, Status.UNAVAILABLE);
  assert.match(e2.details, /ECONNREFUSED/);

  const sock = socketPath();
  const garbage = net.createServer((c) => c.end('SSH-2.0-not-grpc\r\n'));
  await new Promise<void>((r) => garbage.listen(sock, r));
  closers.push(() => garbage.close());
  const notH2 = new GrpcClient(sock);
  const e3 = await rejection(notH2.unary('/t.T/Echo', Buffer.alloc(0), { timeoutMs: 2000 }));
  assert.equal(e3.code, Status.UNAVAILABLE, e3.message);

  // The client connects again after a failure: once its back-off (100 ms at first) has passed, a
  // call finds the server that came up since. Calls during the back-off fail fast (UNAVAILABLE),
  // as kubelet's do, rather than wait.
  const later = socketPath();
  const ch = new GrpcClient(later);
  await rejection(ch.unary('/t.T/Echo', Buffer.alloc(0), { timeoutMs: 2000 }));
  const server = http2.createServer();
  server.on('stream', answering(frame(Buffer.from('up')), { 'grpc-status': '0' }));
  await new Promise<void>((r) => server.listen(later, r));
  closers.push(() => server.close());
  let answer: string | undefined;
  for (let i = 0; i < 50 && answer === undefined; i++) {
    try {
      answer = (await ch.unary('/t.T/Echo', Buffer.alloc(0), { timeoutMs: 2000 })).toString();
    } catch (err) {
      assert.equal((err as GrpcStatusError).code, Status.UNAVAILABLE);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  assert.equal(answer, 'up');
  ch.close();
});

test('an idle channel that was never closed does not keep the process alive', async () => {
  const sock = await h2Server(answering(frame(Buffer.from('ok')), { 'grpc-status': '0' }));
  const module = path.resolve(__dirname, '../../src/cri/grpc-client.ts');
  const script = `
    const { GrpcClient } = require(${JSON.stringify(module)});
    new GrpcClient(${JSON.stringify(sock)}).unary('/t.T/Echo', Buffer.alloc(0), { timeoutMs: 5000 })
      .then((b) => console.log('answer', String(b)));
  `;
  // The server runs in this process, so the child is run asynchronously.
  const child = await new Promise<{ code: number | null; out: string }>((resolve) => {
    const c = spawn(process.execPath, ['--import', 'tsx', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    c.stdout.on('data', (d) => (out += d));
    const killer = setTimeout(() => c.kill('SIGKILL'), 10_000);
    c.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, out });
    });
  });
  assert.equal(child.out.trim(), 'answer ok');
  assert.equal(child.code, 0, 'the process was killed after 10 s: the open connection kept it alive');
});

test('a response sent a byte at a time arrives whole', async () => {
  const message = Buffer.alloc(70_000, 3);
  const bytes = frame(message);
  const sock = await h2Server((stream) => {
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
    let i = 0;
    const next = () => {
      if (i >= bytes.length) return stream.end();
      const chunk = bytes.subarray(i, i + (i < 10 ? 1 : 4096));
      i += chunk.length;
      stream.write(chunk, next);
    };
    next();
  });
  const ch = new GrpcClient(sock);
  const back = await ch.unary('/t.T/Echo', Buffer.alloc(0), { timeoutMs: 5000 });
  assert.ok(back.equals(message));
  ch.close();
});

test("connection errors are said as the cause, without grpc-js's wrapping", () => {
  assert.equal(
    connectionDetails(
      'No connection established. Last error: Error: connect ECONNREFUSED /run/x.sock (2026-11-27T00:40:00.000Z). Resolution note: ',
    ),
    'connect ECONNREFUSED /run/x.sock',
  );
  assert.equal(
    connectionDetails('No connection established. Last error: Protocol error (2026-11-27T00:40:00.000Z)'),
    'Protocol error',
  );
  assert.equal(connectionDetails('Error: connect ENOENT /run/x.sock'), 'connect ENOENT /run/x.sock');
});

test('a socket path written with a leading // reaches that socket, not one relative to the working directory', async () => {
  assert.equal(grpcTarget('//run/containerd/containerd.sock'), 'unix:///run/containerd/containerd.sock');
  assert.equal(grpcTarget('/run/x.sock'), 'unix:///run/x.sock');
  const sock = await grpcServer({
    Echo: (call: grpc.ServerUnaryCall<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) => cb(null, call.request),
  });
  // From the root directory grpc-js would read unix://tmp/… as the relative path "…" under "tmp".
  const cwd = process.cwd();
  process.chdir('/');
  const ch = new GrpcClient(`/${sock}`);
  try {
    assert.equal((await ch.unary('/t.T/Echo', Buffer.from('here'), { timeoutMs: 2000 })).toString(), 'here');
  } finally {
    ch.close();
    process.chdir(cwd);
  }
});

test('a stream without a deadline still needs its connection within connectTimeoutMs (a silent socket ends it)', async () => {
  const sock = await silentServer();
  const ch = new GrpcClient(sock);
  const e = await rejection(ch.serverStream('/t.T/Count', Buffer.alloc(0), () => {}, { connectTimeoutMs: 300 }));
  assert.equal(e.code, Status.DEADLINE_EXCEEDED, e.message);
  ch.close();

  // A stream on a live connection is not cut by it, however long it stays quiet.
  const live = await grpcServer({
    Count: (call: grpc.ServerWritableStream<Buffer, Buffer>) => {
      setTimeout(() => {
        call.write(Buffer.from([1]));
        call.end();
      }, 600);
    },
  });
  const ch2 = new GrpcClient(live);
  const got: number[] = [];
  await ch2.serverStream('/t.T/Count', Buffer.from([1]), (m) => got.push(m[0]!), { connectTimeoutMs: 300 });
  assert.deepEqual(got, [1]);
  ch2.close();
});

test('after a GOAWAY the call in flight finishes, and the next call opens a new connection', async () => {
  const sock = socketPath();
  const server = http2.createServer();
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (s) => sessions.add(s));
  server.on('stream', (stream) => {
    stream.on('error', () => {});
    // The first stream is answered only after the server has said GOAWAY on its connection.
    const session = stream.session!;
    if (sessions.size === 1 && !(session as { saidGoaway?: boolean }).saidGoaway) {
      (session as { saidGoaway?: boolean }).saidGoaway = true;
      session.goaway(http2.constants.NGHTTP2_NO_ERROR, stream.id);
      setTimeout(() => answering(frame(Buffer.from('first')), { 'grpc-status': '0' })(stream), 50);
    } else answering(frame(Buffer.from('second')), { 'grpc-status': '0' })(stream);
  });
  await new Promise<void>((r) => server.listen(sock, r));
  closers.push(() => server.close());
  const ch = new GrpcClient(sock);
  const first = ch.unary('/t.T/Echo', Buffer.alloc(0), { timeoutMs: 2000 });
  await new Promise((r) => setTimeout(r, 20));
  assert.equal((await ch.unary('/t.T/Echo', Buffer.alloc(0), { timeoutMs: 2000 })).toString(), 'second');
  assert.equal((await first).toString(), 'first');
  assert.equal(sessions.size, 2, 'the second call came on a new connection');
  ch.close();
});

test('closing the channel ends the calls still running on it with UNAVAILABLE', async () => {
  const sock = await h2Server(() => {});
  const ch = new GrpcClient(sock);
  const pending = ch.unary('/t.T/Hang', Buffer.alloc(0), { timeoutMs: 5000 });
  await new Promise((r) => setTimeout(r, 50));
  ch.close();
  const e = await rejection(pending);
  assert.equal(e.code, Status.UNAVAILABLE, e.message);
  assert.match(e.details, /client closed the connection/);
});

test('a runtime that drops the connection mid-call is UNAVAILABLE, whether or not it had answered the headers', async () => {
  for (const afterHeaders of [false, true]) {
    const sock = await droppingServer(afterHeaders);
    const ch = new GrpcClient(sock);
    const e = await rejection(ch.unary('/t.T/Echo', Buffer.alloc(0), { timeoutMs: 3000 }));
    assert.equal(e.code, Status.UNAVAILABLE, `${afterHeaders ? 'after' : 'before'} the headers: ${e.message}`);
    ch.close();
  }
});

test('a runtime that stops during a call is said as such, not as a server that never spoke HTTP/2 (containerd killed under `events`)', async () => {
  for (const afterHeaders of [false, true]) {
    const sock = await droppingServer(afterHeaders);
    const svc = new CriService<RuntimeMethods>(`unix://${sock}`, 'RuntimeService', { timeoutMs: 3000, api: 'v1' });
    const stream = svc.stream('GetContainerEvents', {}, () => {});
    await assert.rejects(stream, (e: Error) => {
      assert.equal(
        e.message,
        `endpoint unix://${sock}: the runtime closed the connection during the call (did it stop or restart?)`,
        afterHeaders ? 'after headers' : 'before headers',
      );
      return true;
    });
    svc.close();
  }
});

test('grpc-status in headers that do not end the stream is not the status; Trailers-Only ends the call before the request is read', async () => {
  const sock = await h2Server((stream) => {
    stream.respond(
      { ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '5' },
      { waitForTrailers: true },
    );
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
    stream.end(frame(Buffer.from('fine')));
  });
  const ch = new GrpcClient(sock);
  assert.equal((await ch.unary('/t.T/Echo', Buffer.alloc(0), { timeoutMs: 2000 })).toString(), 'fine');
  ch.close();

  // The server answers NOT_FOUND at once and never reads the 1 MiB request; no deadline is set.
  const early = await h2Server((stream) => {
    stream.pause();
    stream.respond(
      { ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '5', 'grpc-message': 'no such thing' },
      { endStream: true },
    );
  });
  const ch2 = new GrpcClient(early);
  const e = await rejection(ch2.unary('/t.T/Echo', Buffer.alloc(1024 * 1024, 1)));
  assert.equal(e.code, Status.NOT_FOUND);
  assert.equal(e.details, 'no such thing');
  ch2.close();
});

test('a stream cancelled from inside its message callback delivers nothing more, even from the same chunk', async () => {
  const sock = await h2Server((stream) => {
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
    stream.end(Buffer.concat([0, 1, 2, 3, 4].map((i) => frame(Buffer.from([i])))));
  });
  const ch = new GrpcClient(sock);
  const ac = new AbortController();
  const seen: number[] = [];
  const e = await rejection(
    ch.serverStream(
      '/t.T/Count',
      Buffer.alloc(0),
      (m) => {
        seen.push(m[0]!);
        if (m[0] === 1) ac.abort();
      },
      { signal: ac.signal },
    ),
  );
  assert.equal(e.code, Status.CANCELLED);
  assert.deepEqual(seen, [0, 1]);
  ch.close();
});

test('closing the channel also ends calls on a connection retired by GOAWAY', async () => {
  const sock = await h2Server((stream) => {
    // Keeps this stream (GOAWAY names it as processed) and never answers.
    stream.session!.goaway(http2.constants.NGHTTP2_NO_ERROR, stream.id);
  });
  const ch = new GrpcClient(sock);
  const pending = ch.serverStream('/t.T/Count', Buffer.alloc(0), () => {});
  await new Promise((r) => setTimeout(r, 100));
  ch.close();
  const e = await rejection(pending);
  assert.equal(e.code, Status.UNAVAILABLE, e.message);
});
