// gRPC over HTTP/2 on one unix socket, as the CRI and the kubelet's Pods API speak it: unary and
// server-streaming calls carrying already-encoded messages (codec.ts does the protobuf), a
// deadline per call (sent as grpc-timeout and enforced here), and every failure turned into a
// gRPC status (code + details) the way grpc-go's client reports it.
//
// Why not grpc-js: see the README, "Why syncpod speaks gRPC itself". In short, everything here is
// the wire protocol of https://github.com/grpc/grpc/blob/master/doc/PROTOCOL-HTTP2.md on node:http2
// (framing, headers, trailers, status mapping); grpc-js adds name resolution, load balancing,
// retries, TLS and channelz that a unix socket does not need, and its loading and its first call
// cost about 7 ms of every list command (ps -a of 200 containers: 75 -> 68 ms).
import type * as http2 from 'node:http2';
import * as net from 'node:net';
import { VERSION } from '../version';

/** gRPC status codes (numbers from the gRPC spec). */
export const Status = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

/** A call ended with a status other than OK: `code` and `details` as the server (or the client side) gave them. */
export class GrpcStatusError extends Error {
  constructor(
    readonly code: number,
    readonly details: string,
  ) {
    super(`${statusName(code)}: ${details}`);
    this.name = 'GrpcStatusError';
  }
}

function statusName(code: number): string {
  return Object.keys(Status).find((k) => Status[k as keyof typeof Status] === code) ?? `status ${code}`;
}

/** kubelet's and crictl's limit for a message in either direction (16 MiB). */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** HTTP/2 flow-control window for the connection and each stream: a large list arrives without waiting for WINDOW_UPDATEs. */
const WINDOW_BYTES = 16 * 1024 * 1024;

export interface CallOptions {
  /** Deadline in milliseconds from now; none = no deadline. */
  timeoutMs?: number;
  /** Aborting cancels the call (it then rejects with CANCELLED). */
  signal?: AbortSignal;
}

/** One HTTP/2 connection at a time to `socketPath`, opened at the first call and reopened after it closes. */
export class GrpcChannel {
  /** The connection new calls go on. */
  private connection: Connection | undefined;
  /** Every connection not yet closed: the current one and any retired after a GOAWAY still finishing calls. */
  private readonly live = new Set<Connection>();

  constructor(
    readonly socketPath: string,
    private readonly userAgent = `syncpod/${VERSION}`,
  ) {}

  /** A unary call: exactly one response message, or a GrpcStatusError. */
  async unary(path: string, request: Buffer, opts: CallOptions = {}): Promise<Buffer> {
    const messages: Buffer[] = [];
    await this.call(path, request, opts, (m) => {
      if (messages.length > 0) throw new GrpcStatusError(Status.INTERNAL, 'cardinality violation: received a second response message for a unary call');
      messages.push(m);
    });
    if (messages.length === 0) throw new GrpcStatusError(Status.INTERNAL, 'cardinality violation: received no response message for a unary call');
    return messages[0]!;
  }

  /** A server-streaming call: each message to `onMessage` as it arrives; resolves when the server ends the stream with OK. */
  serverStream(path: string, request: Buffer, onMessage: (message: Buffer) => void, opts: CallOptions = {}): Promise<void> {
    return this.call(path, request, opts, onMessage);
  }

  /** Closes every connection; calls still running end with UNAVAILABLE. */
  close(): void {
    this.connection = undefined;
    for (const c of this.live) {
      c.error ??= new Error('the client closed the connection');
      c.session.destroy();
    }
    this.live.clear();
  }

  /** No new calls on `c`; it closes once the calls still running on it have ended. */
  private retire(c: Connection): void {
    if (this.connection === c) this.connection = undefined;
    if (!c.session.closed) c.session.close();
  }

  private connect(): Connection {
    const current = this.connection;
    if (current && !current.session.closed && !current.session.destroyed && current.error === undefined) return current;
    // The socket is opened before node:http2 is loaded: loading it takes several milliseconds, in
    // which the runtime accepts the connection and sends its SETTINGS, instead of after.
    const socket = net.connect(this.socketPath);
    const { connect } = require('node:http2') as typeof http2;
    const session = connect('http://localhost', {
      createConnection: () => socket,
      settings: { enablePush: false, initialWindowSize: WINDOW_BYTES },
    });
    const connection: Connection = { session, active: 0 };
    // A failed connection (refused, reset, not HTTP/2) ends its streams; the first error says why.
    session.on('error', (err) => (connection.error ??= err));
    session.once('connect', () => session.setLocalWindowSize(WINDOW_BYTES));
    // After a GOAWAY (the runtime shutting down or restarting) the calls already sent finish on
    // this connection; new calls open another.
    session.on('goaway', () => this.retire(connection));
    session.on('close', () => {
      if (this.connection === connection) this.connection = undefined;
      this.live.delete(connection);
    });
    this.connection = connection;
    this.live.add(connection);
    return connection;
  }

  private call(path: string, request: Buffer, opts: CallOptions, onMessage: (message: Buffer) => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (opts.signal?.aborted) return reject(new GrpcStatusError(Status.CANCELLED, 'cancelled before the call started'));
      if (request.length > MAX_MESSAGE_BYTES) {
        return reject(new GrpcStatusError(Status.RESOURCE_EXHAUSTED, `request message larger than max (${request.length} vs. ${MAX_MESSAGE_BYTES})`));
      }
      const headers: http2.OutgoingHttpHeaders = {
        ':method': 'POST',
        ':path': path,
        'content-type': 'application/grpc',
        te: 'trailers',
        'user-agent': this.userAgent,
      };
      if (opts.timeoutMs !== undefined) headers['grpc-timeout'] = grpcTimeout(opts.timeoutMs);

      let settled = false;
      let connection: Connection | undefined;
      let stream: http2.ClientHttp2Stream | undefined;
      const finish = (code: number, details: string) => {
        if (settled) return;
        settled = true;
        if (timer) clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        // A stream still open (our request not all sent, a deadline, a cancel) is reset; one that
        // completed closes by itself.
        if (stream && !stream.closed && !(stream.writableFinished && stream.readableEnded)) stream.close(H2_CANCEL);
        if (connection) release(connection);
        if (code === Status.OK) resolve();
        else reject(new GrpcStatusError(code, details));
      };
      const onAbort = () => finish(Status.CANCELLED, 'cancelled on client');
      const timer = opts.timeoutMs !== undefined ? setTimeout(() => finish(Status.DEADLINE_EXCEEDED, 'deadline exceeded'), opts.timeoutMs) : undefined;
      opts.signal?.addEventListener('abort', onAbort, { once: true });

      /** One try on the current connection; `again` once more on a new one if the server refused the stream unread. */
      const attempt = (again: boolean) => {
        const c = (connection = this.connect());
        hold(c);
        let status: { code: number; details: string } | undefined;
        let streamError: Error | undefined;
        let s: http2.ClientHttp2Stream;
        try {
          s = stream = c.session.request(headers);
        } catch (err) {
          return finish(Status.UNAVAILABLE, (c.error ?? (err as Error)).message);
        }
        const frames = new FrameReader();
        /** The call's end once the server has given its status and the response has been read. */
        const ended = () => {
          if (!status) return false;
          if (status.code === Status.OK && frames.pending > 0) finish(Status.INTERNAL, 'the stream ended inside a message');
          else finish(status.code, status.details);
          return true;
        };
        s.on('response', (h, flags) => {
          const httpStatus = Number(h[':status']);
          if (httpStatus !== 200) return finish(httpStatusToGrpc(httpStatus), `received HTTP status code ${httpStatus}`);
          const type = String(h['content-type'] ?? '');
          if (!GRPC_CONTENT_TYPE.test(type)) return finish(Status.INTERNAL, `malformed response: content-type ${JSON.stringify(type)}`);
          // Trailers-Only: the status comes in headers that end the stream (elsewhere it is ignored).
          if (flags & H2_FLAG_END_STREAM) status = readStatus(h);
        });
        s.on('trailers', (t) => (status = readStatus(t)));
        s.on('data', (chunk: Buffer) => {
          if (settled) return;
          try {
            for (const message of frames.push(chunk)) {
              onMessage(message);
              if (settled) break; // cancelled from inside onMessage: nothing more is delivered
            }
          } catch (err) {
            if (err instanceof GrpcStatusError) finish(err.code, err.details);
            else finish(Status.INTERNAL, `failed to read a response message: ${(err as Error).message}`);
          }
        });
        // The server's side is over: with its status the call is done, even if it has not read the
        // whole request (it may answer before reading; the stream is then reset).
        s.on('end', ended);
        s.on('error', (err) => (streamError ??= err));
        s.on('close', () => {
          if (settled || ended()) return;
          const rst = s.rstCode ?? H2_NO_ERROR;
          // Refused before the server read it (RST_STREAM REFUSED_STREAM, or sent after the server's
          // GOAWAY): nothing was done, so it is sent again on a new connection, once, as gRPC's
          // transparent retry does.
          const code = (streamError as NodeJS.ErrnoException | undefined)?.code;
          if (again && (rst === H2_REFUSED_STREAM || code === 'ERR_HTTP2_GOAWAY_SESSION')) {
            release(c);
            this.retire(c);
            return attempt(false);
          }
          // No status. The connection broke (its error, or the one Node cancelled the stream with;
          // a socket closed without a word leaves no error but a destroyed session), or the server
          // reset the stream (RST_STREAM), or it ended the stream without trailers.
          const resetByServer = code === 'ERR_HTTP2_STREAM_ERROR';
          const cause = c.error ?? (resetByServer ? undefined : causeOf(streamError));
          if (cause) return finish(Status.UNAVAILABLE, cause.message);
          if (c.session.destroyed && !resetByServer) return finish(Status.UNAVAILABLE, 'connection dropped: the runtime closed the connection');
          if (rst !== H2_NO_ERROR || resetByServer) return finish(rstCodeToGrpc(rst), `stream terminated by RST_STREAM with HTTP/2 error code ${rst}`);
          finish(Status.INTERNAL, 'the server closed the stream without sending trailers');
        });
        s.end(frame(request));
      };
      attempt(true);
    });
  }
}

interface Connection {
  session: http2.ClientHttp2Session;
  /** The first error of the connection (it then ends every call on it). */
  error?: Error;
  /** Calls running on it. */
  active: number;
}

/** While calls run, a connection keeps the process alive; idle, it does not (a forgotten close cannot hang a command). */
function hold(c: Connection): void {
  if (c.active++ === 0) c.session.ref();
}

function release(c: Connection): void {
  if (--c.active === 0 && !c.session.destroyed) c.session.unref();
}

/** A message as gRPC frames it: one byte "compressed" (0), four bytes big-endian length, the bytes. */
export function frame(message: Buffer): Buffer {
  const out = Buffer.allocUnsafe(5 + message.length);
  out[0] = 0;
  out.writeUInt32BE(message.length, 1);
  message.copy(out, 5);
  return out;
}

/**
 * Splits the DATA bytes of a response into messages, across chunk boundaries. Bytes are joined once
 * per message (when it is complete), so a server sending a message a byte at a time costs time in
 * proportion to its size, not to its square.
 */
export class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Length of the message being read, from its header; -1 until the header is in. */
  private length = -1;

  /** Bytes received that do not yet make a whole message. */
  get pending(): number {
    return this.buffered;
  }

  push(chunk: Buffer): Buffer[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const out: Buffer[] = [];
    for (;;) {
      if (this.length < 0) {
        if (this.buffered < 5) break;
        // At most five chunks to join here: fewer than five bytes came before this one.
        const head = this.chunks[0]!.length >= 5 ? this.chunks[0]! : this.joined();
        if (head[0]! & 1) throw new GrpcStatusError(Status.INTERNAL, 'received a compressed message, but no compression was negotiated');
        if (head[0]! !== 0) throw new GrpcStatusError(Status.INTERNAL, `malformed message frame (flags ${head[0]})`);
        const length = head.readUInt32BE(1);
        if (length > MAX_MESSAGE_BYTES) throw new GrpcStatusError(Status.RESOURCE_EXHAUSTED, `received message larger than max (${length} vs. ${MAX_MESSAGE_BYTES})`);
        this.length = length;
      }
      if (this.buffered < 5 + this.length) break;
      const all = this.joined();
      out.push(all.subarray(5, 5 + this.length));
      const rest = all.subarray(5 + this.length);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.buffered = rest.length;
      this.length = -1;
    }
    return out;
  }

  /** The buffered bytes as one buffer. */
  private joined(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.buffered)];
    return this.chunks[0]!;
  }
}

/** The grpc-timeout header: at most eight digits and a unit. */
export function grpcTimeout(ms: number): string {
  const m = Math.max(0, Math.ceil(ms));
  if (m < 1e8) return `${m}m`;
  const s = Math.ceil(m / 1000);
  if (s < 1e8) return `${s}S`;
  return `${Math.min(Math.ceil(s / 3600), 99_999_999)}H`;
}

function readStatus(h: http2.IncomingHttpHeaders): { code: number; details: string } {
  const raw = h['grpc-status'];
  const text = String(Array.isArray(raw) ? raw[0] : raw);
  const code = /^\d{1,9}$/.test(text) ? Number(text) : -1;
  if (raw === undefined || code < 0) {
    return { code: Status.UNKNOWN, details: raw === undefined ? 'the server sent trailers without grpc-status' : `malformed grpc-status ${JSON.stringify(raw)}` };
  }
  const message = h['grpc-message'];
  return { code, details: decodeGrpcMessage(String((Array.isArray(message) ? message[0] : message) ?? '')) };
}

/** grpc-message is percent-encoded UTF-8; a malformed escape is kept as sent. */
function decodeGrpcMessage(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The gRPC spec's mapping for a response whose HTTP status is not 200. */
export function httpStatusToGrpc(httpStatus: number): number {
  switch (httpStatus) {
    case 400:
      return Status.INTERNAL;
    case 401:
      return Status.UNAUTHENTICATED;
    case 403:
      return Status.PERMISSION_DENIED;
    case 404:
      return Status.UNIMPLEMENTED;
    case 429:
    case 502:
    case 503:
    case 504:
      return Status.UNAVAILABLE;
    default:
      return Status.UNKNOWN;
  }
}

/** HTTP/2 error codes (RFC 9113, section 7) that the gRPC spec maps to a status. */
const H2_NO_ERROR = 0x0;
const H2_REFUSED_STREAM = 0x7;
const H2_CANCEL = 0x8;
const H2_ENHANCE_YOUR_CALM = 0xb;
const H2_INADEQUATE_SECURITY = 0xc;
/** The END_STREAM flag of a HEADERS frame (Node passes the frame's flags with 'response'). */
const H2_FLAG_END_STREAM = 0x1;
/** application/grpc, alone or with a codec suffix (+proto) or parameters. */
const GRPC_CONTENT_TYPE = /^application\/grpc(?:[+;]|$)/;

/** The gRPC spec's mapping for a stream reset without a status (every other code is INTERNAL). */
function rstCodeToGrpc(rstCode: number): number {
  switch (rstCode) {
    case H2_REFUSED_STREAM:
      return Status.UNAVAILABLE;
    case H2_CANCEL:
      return Status.CANCELLED;
    case H2_ENHANCE_YOUR_CALM:
      return Status.RESOURCE_EXHAUSTED;
    case H2_INADEQUATE_SECURITY:
      return Status.PERMISSION_DENIED;
    default:
      return Status.INTERNAL;
  }
}

/** Node wraps a connection failure in the streams it cancels; the wrapped error says what happened. */
function causeOf(err: Error | undefined): Error | undefined {
  const cause = (err as { cause?: unknown } | undefined)?.cause;
  return cause instanceof Error ? cause : err;
}
