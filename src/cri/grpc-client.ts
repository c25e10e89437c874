// The gRPC client of every CRI call and of the kubelet's Pods API: @grpc/grpc-js on a unix socket.
// Messages cross it already encoded (codec.ts does the protobuf, from the tables that
// scripts/gen-proto.mjs derives from proto/ with @grpc/proto-loader), so grpc-js's serializers are
// the identity. grpc-js does the protocol: framing, the deadline (grpc-timeout, enforced on the
// client too), statuses, the 16 MiB limits, one HTTP/2 connection shared by concurrent calls,
// reconnecting after GOAWAY or a dropped connection, transparent retry of a stream the server
// refused unread. This file only sets the channel up the way kubelet and crictl dial a runtime and
// words grpc-js's connection errors the way grpc-go reports them.
//
// grpc-js is required at the first call, not at import: `--version`, `help` and every command that
// makes no call never load it.
import type * as Grpc from '@grpc/grpc-js';
import * as path from 'node:path';
import { VERSION } from '../version';

/** gRPC status codes (numbers from the gRPC spec; the same as grpc-js's `status`). */
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
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/**
 * How the channel is set up. The limits are kubelet's (maxMsgSize in its remote runtime client);
 * the reconnect back-off starts small because a runtime restarting on this node is back within
 * a second, and is capped so that a long-running `sync` or `doctor --every` notices it soon.
 */
export function channelOptions(userAgent: string): Grpc.ChannelOptions {
  return {
    'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
    'grpc.primary_user_agent': userAgent,
    'grpc.initial_reconnect_backoff_ms': 100,
    'grpc.max_reconnect_backoff_ms': 5000,
    // This client's connection is its own: close() closes it, and two endpoints never share one.
    'grpc.use_local_subchannel_pool': 1,
    // A large list arrives without waiting for WINDOW_UPDATEs.
    'grpc-node.flow_control_window': MAX_MESSAGE_BYTES,
  };
}

export interface CallOptions {
  /** Deadline in milliseconds from now; none = no deadline. */
  timeoutMs?: number;
  /**
   * For a call without a deadline (a stream that may stay open for hours): the connection must be
   * up within this many milliseconds, else the call ends DEADLINE_EXCEEDED. Without it a socket
   * that accepts and never speaks HTTP/2 would hold the call forever (grpc-js has no connect timeout).
   */
  connectTimeoutMs?: number;
  /** Aborting cancels the call (it then rejects with CANCELLED). */
  signal?: AbortSignal;
}

/** The messages travel as bytes: serializing is the identity both ways. */
const asBytes = (b: Buffer): Buffer => b;

let grpcModule: typeof Grpc | undefined;
function grpc(): typeof Grpc {
  return (grpcModule ??= require('@grpc/grpc-js') as typeof Grpc);
}

/** A grpc-js client for one unix socket, created at the first call. */
export class GrpcClient {
  private client: Grpc.Client | undefined;
  /** The calls running: close() ends each of them. */
  private readonly running = new Set<(err: GrpcStatusError) => void>();

  constructor(
    readonly socketPath: string,
    private readonly userAgent = `syncpod/${VERSION}`,
  ) {}

  private get(): Grpc.Client {
    if (!this.client) {
      const g = grpc();
      this.client = new g.Client(
        grpcTarget(this.socketPath),
        g.credentials.createInsecure(),
        channelOptions(this.userAgent),
      );
    }
    return this.client;
  }

  /**
   * A unary call: exactly one response message, or a GrpcStatusError. It goes out as grpc-js's
   * server-streaming call (the same bytes on the wire) so that the count of messages is checked
   * here: grpc-js's unary call, given a second message, waits for the deadline instead of failing.
   */
  async unary(path: string, request: Buffer, opts: CallOptions = {}): Promise<Buffer> {
    let message: Buffer | undefined;
    await this.serverStream(
      path,
      request,
      (m) => {
        if (message)
          throw new GrpcStatusError(
            Status.INTERNAL,
            'cardinality violation: received a second response message for a unary call',
          );
        message = m;
      },
      opts,
    );
    if (!message)
      throw new GrpcStatusError(
        Status.INTERNAL,
        'cardinality violation: received no response message for a unary call',
      );
    return message;
  }

  /**
   * Bookkeeping of one call: it ends once, by its own outcome, by `signal` (CANCELLED) or by
   * close() (UNAVAILABLE); ended early, the grpc-js call is cancelled and nothing more is delivered.
   */
  private track(
    signal: AbortSignal | undefined,
    cancel: () => void,
    settle: (err: GrpcStatusError | undefined) => void,
  ) {
    let done = false;
    const end = (err: GrpcStatusError | undefined) => {
      if (done) return;
      done = true;
      signal?.removeEventListener('abort', onAbort);
      this.running.delete(stop);
      settle(err);
    };
    const stop = (err: GrpcStatusError) => {
      if (done) return;
      end(err);
      cancel();
    };
    const onAbort = () => stop(new GrpcStatusError(Status.CANCELLED, 'cancelled on client'));
    signal?.addEventListener('abort', onAbort, { once: true });
    this.running.add(stop);
    return Object.assign(end, {
      stop,
      get done() {
        return done;
      },
    });
  }

  /** A server-streaming call: each message to `onMessage` as it arrives; resolves when the server ends the stream with OK. */
  serverStream(
    path: string,
    request: Buffer,
    onMessage: (message: Buffer) => void,
    opts: CallOptions = {},
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (opts.signal?.aborted)
        return reject(new GrpcStatusError(Status.CANCELLED, 'cancelled before the call started'));
      const end = this.track(
        opts.signal,
        () => call.cancel(),
        (err) => (err ? reject(err) : resolve()),
      );
      const client = this.get();
      const call = client.makeServerStreamRequest(
        path,
        asBytes,
        asBytes,
        request,
        new (grpc().Metadata)(),
        callOptions(opts),
      );
      // grpc-js does not look at the response's content-type; a server that answers with another
      // (an HTTP/2 web server on the socket) is refused here, as grpc-go does, instead of its body
      // being read as gRPC frames.
      call.on('metadata', (md: Grpc.Metadata) => {
        const type = String(md.get('content-type')[0] ?? '');
        if (!end.done && !/^application\/grpc(?:[+;]|$)/.test(type)) {
          end.stop(new GrpcStatusError(Status.INTERNAL, `malformed response: content-type ${JSON.stringify(type)}`));
        }
      });
      if (opts.connectTimeoutMs !== undefined) this.requireConnection(client, opts.connectTimeoutMs, end);
      call.on('data', (message: Buffer) => {
        if (end.done) return;
        try {
          onMessage(message);
        } catch (err) {
          // The consumer could not take the message: the call ends here, with that error.
          end.stop(
            err instanceof GrpcStatusError
              ? err
              : new GrpcStatusError(Status.INTERNAL, `failed to read a response message: ${(err as Error).message}`),
          );
        }
      });
      call.on('error', (err: Grpc.ServiceError) => end(statusError(err)));
      call.on('status', (s: Grpc.StatusObject) => {
        if (s.code === Status.OK) end(undefined);
      });
    });
  }

  /** Ends the call with DEADLINE_EXCEEDED unless the channel is READY within `ms`. */
  private requireConnection(
    client: Grpc.Client,
    ms: number,
    end: { done: boolean; stop: (err: GrpcStatusError) => void },
  ): void {
    const g = grpc();
    const channel = client.getChannel();
    const deadline = Date.now() + ms;
    const watch = (state: Grpc.connectivityState) => {
      if (end.done || state === g.connectivityState.READY) return;
      channel.watchConnectivityState(state, deadline, (err) => {
        if (end.done) return;
        if (err) end.stop(new GrpcStatusError(Status.DEADLINE_EXCEEDED, `no connection within ${ms} ms`));
        else watch(channel.getConnectivityState(false));
      });
    };
    watch(channel.getConnectivityState(false));
  }

  /** Closes the connection; calls still running end with UNAVAILABLE (or CANCELLED). */
  close(): void {
    for (const stop of [...this.running])
      stop(new GrpcStatusError(Status.UNAVAILABLE, 'the client closed the connection'));
    this.client?.close();
    this.client = undefined;
  }
}

/**
 * grpc-js's target for a socket path. An absolute path is given as unix:///PATH, normalised: grpc-js
 * reads "unix://tmp/x" as authority "tmp" and the relative path "x", so a path that starts with
 * "//" (unix:////tmp/x.sock) would reach another socket.
 */
export function grpcTarget(socketPath: string): string {
  return path.isAbsolute(socketPath)
    ? `unix://${path.posix.normalize(socketPath).replace(/^\/+/, '/')}`
    : `unix:${socketPath}`;
}

function callOptions(opts: CallOptions): Grpc.CallOptions {
  return opts.timeoutMs === undefined ? {} : { deadline: new Date(Date.now() + opts.timeoutMs) };
}

/** grpc-js's error for a failed call as a GrpcStatusError, its details in grpc-go's words. */
export function statusError(err: Partial<Grpc.ServiceError>): GrpcStatusError {
  // grpc-js ends a call whose response it could not decode (a compressed message when none was
  // negotiated) without a code or details.
  if (typeof err.code !== 'number')
    return new GrpcStatusError(Status.INTERNAL, 'the response message could not be read (compressed or malformed)');
  const code = err.code;
  const details = String(err.details ?? err.message ?? '');
  if (code === Status.UNAVAILABLE) return new GrpcStatusError(code, connectionDetails(details));
  return new GrpcStatusError(code, details);
}

/**
 * grpc-js wraps why a connection could not be made in "No connection established. Last error:
 * <error> (<timestamp>). Resolution note: …"; the cause is the error, as grpc-go says it
 * ("connection error: desc = …").
 */
export function connectionDetails(details: string): string {
  const m = /Last error: (.*?)(?: \(\d{4}-\d\d-\d\dT[^)]*\))?\.?(?: Resolution note:.*)?$/s.exec(details);
  // Node's "Error: connect ECONNREFUSED /x.sock" is said without the class name, as grpc-go says it.
  return (m ? m[1]! : details).trim().replace(/^Error: /, '');
}
