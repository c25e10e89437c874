// The Kubernetes channel protocols a CRI streaming server speaks over WebSocket (the facts of
// k8s.io/apimachinery's wsstream and remotecommand, as containerd 1.6-2.2 serve them):
// every message starts with a channel number; `*.base64.*` variants send text frames whose first
// character is the channel digit and whose rest is base64. Pure: no sockets here.

/** Offered in this order; the server picks the first it supports (containerd has no v5). */
export const CHANNEL_PROTOCOLS = [
  'v4.channel.k8s.io',
  'v4.base64.channel.k8s.io',
  'channel.k8s.io',
  'base64.channel.k8s.io',
] as const;
/** Port-forward over WebSocket knows only these. */
export const PORT_FORWARD_PROTOCOLS = ['v4.channel.k8s.io', 'v4.base64.channel.k8s.io'] as const;

/** remotecommand channel numbers. */
export const Channel = { stdin: 0, stdout: 1, stderr: 2, error: 3, resize: 4 } as const;

export function isBase64Protocol(protocol: string): boolean {
  return protocol.includes('base64');
}

/** One outgoing message: channel byte + payload (binary), or digit + base64 (text). */
export function encodeFrame(protocol: string, channel: number, data: Uint8Array): Buffer | string {
  if (isBase64Protocol(protocol)) return String.fromCharCode(48 + channel) + Buffer.from(data).toString('base64');
  const out = Buffer.allocUnsafe(data.length + 1);
  out[0] = channel;
  out.set(data, 1);
  return out;
}

/** One incoming message; undefined for an empty one (the server's channel-open frames can be empty). */
export function decodeFrame(protocol: string, message: Buffer | string): { channel: number; data: Buffer } | undefined {
  if (isBase64Protocol(protocol)) {
    const text = typeof message === 'string' ? message : message.toString('latin1');
    if (text.length === 0) return undefined;
    return { channel: text.charCodeAt(0) - 48, data: Buffer.from(text.slice(1), 'base64') };
  }
  const buf = typeof message === 'string' ? Buffer.from(message, 'latin1') : message;
  if (buf.length === 0) return undefined;
  return { channel: buf[0]!, data: buf.subarray(1) };
}

/** What the error channel said when a remote command ended. */
export type CommandEnd = { kind: 'exit'; code: number } | { kind: 'error'; message: string };

/**
 * Reads the error channel's payload. v4 sends a metav1.Status: Success (exit 0), Failure with
 * reason NonZeroExitCode and the code in details.causes[reason=ExitCode], or another Failure whose
 * message is the error. Older protocols send the error text itself.
 */
export function parseCommandEnd(payload: string, protocol: string): CommandEnd {
  const text = payload.trim();
  if (!protocol.startsWith('v4.')) return text === '' ? { kind: 'exit', code: 0 } : { kind: 'error', message: text };
  let status: {
    status?: string;
    reason?: string;
    message?: string;
    details?: { causes?: { reason?: string; message?: string }[] };
  };
  try {
    status = JSON.parse(text);
  } catch {
    return { kind: 'error', message: text };
  }
  if (status.status === 'Success') return { kind: 'exit', code: 0 };
  if (status.reason === 'NonZeroExitCode') {
    const cause = status.details?.causes?.find((c) => c.reason === 'ExitCode');
    const code = Number(cause?.message);
    if (Number.isInteger(code)) return { kind: 'exit', code };
  }
  return { kind: 'error', message: status.message || `remote command failed (${text})` };
}

/** The terminal-resize message (channel 4): Go's TerminalSize marshalled by encoding/json. */
export function resizeMessage(columns: number, rows: number): Buffer {
  return Buffer.from(JSON.stringify({ Width: columns, Height: rows }));
}

/**
 * Port-forward: the server opens a data and an error channel per requested port (2i, 2i+1) and
 * starts each with the port number, 2 bytes little-endian. Strips that prefix once per channel.
 */
export class PortPrefixStripper {
  private readonly pending = new Map<number, Buffer>();
  private readonly done = new Set<number>();

  constructor(private readonly ports: readonly number[]) {}

  /** The payload without the prefix; throws if a channel opens with another port's number. */
  strip(channel: number, data: Buffer): Buffer {
    if (this.done.has(channel)) return data;
    const have = Buffer.concat([this.pending.get(channel) ?? Buffer.alloc(0), data]);
    if (have.length < 2) {
      this.pending.set(channel, have);
      return Buffer.alloc(0);
    }
    this.pending.delete(channel);
    this.done.add(channel);
    const expected = this.ports[channel >> 1];
    const got = have.readUInt16LE(0);
    if (expected !== undefined && got !== expected) {
      throw new Error(`the streaming server opened channel ${channel} for port ${got}, expected ${expected}`);
    }
    return have.subarray(2);
  }
}
