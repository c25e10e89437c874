// Opening a WebSocket to the runtime's streaming server (the URL an Exec/Attach/PortForward RPC
// returned), with every failure turned into one line naming the URL and the cause.
import type WebSocket from 'ws';
import { SyncpodError } from '../errors';
import { decodeFrame, encodeFrame } from './channels';
import { streamingTrust } from './tls-trust';

export interface StreamConnection {
  /** The negotiated subprotocol (v4.channel.k8s.io, ...). */
  readonly protocol: string;
  send(channel: number, data: Uint8Array, done?: (err?: Error) => void): void;
  /** Bytes queued in the socket and not yet written (for flow control of stdin/port data). */
  readonly buffered: number;
  onFrame(handler: (channel: number, data: Buffer) => void): void;
  /** Called once when the connection is gone (by either side); `error` for abnormal ends. */
  onClose(handler: (error?: Error) => void): void;
  /** Stop / restart reading (backpressure from a slow local writer). */
  pause(): void;
  resume(): void;
  close(): void;
}

function describeFailure(url: string, err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return `streaming server ${url}: connection refused (is the runtime's stream server reachable from this network namespace?)`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `streaming server ${url}: unreachable (${err.code})`;
    case 'ETIMEDOUT':
      return `streaming server ${url}: connection timed out`;
    case 'ECONNRESET':
      return `streaming server ${url}: connection reset`;
    default:
      return `streaming server ${url}: ${err.message}`;
  }
}

/** Connects and resolves once the server accepted one of `protocols`. */
export function openStream(
  url: string,
  protocols: readonly string[],
  opts: { timeoutMs: number; debug?: (line: string) => void },
): Promise<StreamConnection> {
  const WS = require('ws') as typeof import('ws');
  const wsUrl = url.replace(/^http/, 'ws');
  const trust = streamingTrust(wsUrl);
  if (trust.warning) process.stderr.write(`syncpod: warning: ${trust.warning}\n`);
  return new Promise((resolve, reject) => {
    const ws: WebSocket = new WS.WebSocket(wsUrl, [...protocols], {
      ...(trust.ca ? { ca: trust.ca } : {}),
      perMessageDeflate: false,
      handshakeTimeout: opts.timeoutMs,
      maxPayload: 64 * 1024 * 1024,
    });
    let opened = false;
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c.length + body.length > 300 ? '' : c));
      res.on('end', () => {
        const detail = body.trim().split('\n')[0] ?? '';
        reject(
          new SyncpodError(
            `streaming server ${url}: answered HTTP ${res.statusCode} ${res.statusMessage ?? ''}${detail ? `: ${detail}` : ''}`.trim(),
          ),
        );
      });
      ws.terminate();
    });
    ws.once('error', (err: NodeJS.ErrnoException) => {
      if (!opened) reject(new SyncpodError(describeFailure(url, err), { cause: err }));
    });
    ws.once('open', () => {
      opened = true;
      const protocol = ws.protocol || protocols[0]!;
      if (!protocols.includes(protocol)) {
        ws.terminate();
        reject(
          new SyncpodError(`streaming server ${url}: chose subprotocol "${protocol}", which syncpod does not speak`),
        );
        return;
      }
      opts.debug?.(`streaming ${url}: subprotocol ${protocol}`);
      let closeHandler: ((error?: Error) => void) | undefined;
      let closed = false;
      let closeError: Error | undefined;
      const fireClose = () => {
        if (closed) return;
        closed = true;
        closeHandler?.(closeError);
      };
      ws.on('error', (err: NodeJS.ErrnoException) => {
        closeError ??= new SyncpodError(describeFailure(url, err), { cause: err });
      });
      ws.on('close', fireClose);
      // Frames can arrive in the same read as the handshake, before the caller registers its
      // handler: keep them until then (the port-forward prefix frames come first).
      let frameHandler: ((channel: number, data: Buffer) => void) | undefined;
      const early: Array<{ channel: number; data: Buffer }> = [];
      ws.on('message', (message: Buffer, isBinary: boolean) => {
        const frame = decodeFrame(protocol, isBinary ? message : message.toString('latin1'));
        if (!frame) return;
        if (frameHandler) frameHandler(frame.channel, frame.data);
        else early.push(frame);
      });
      resolve({
        protocol,
        send(channel, data, done) {
          if (ws.readyState !== WS.WebSocket.OPEN) return done?.(new Error('stream closed'));
          ws.send(encodeFrame(protocol, channel, data), { binary: !protocol.includes('base64') }, done);
        },
        get buffered() {
          return ws.bufferedAmount;
        },
        onFrame(handler) {
          frameHandler = handler;
          for (const f of early.splice(0)) handler(f.channel, f.data);
        },
        onClose(handler) {
          closeHandler = handler;
          if (closed) handler(closeError);
        },
        pause: () => ws.pause(),
        resume: () => ws.resume(),
        close: () => {
          if (ws.readyState === WS.WebSocket.OPEN) ws.close(1000);
          else if (ws.readyState === WS.WebSocket.CONNECTING) ws.terminate();
        },
      });
    });
  });
}
