// CRI endpoints: `unix://` URLs and bare socket paths, as crictl accepts them.
import { statSync } from 'node:fs';
import { posix } from 'node:path';
import { SyncpodError } from '../errors';

export interface Endpoint {
  /** As the user gave it (shown in error messages). */
  text: string;
  /** The endpoint as a `unix://` URL (what a bare socket path means). */
  target: string;
  socketPath: string;
}

/** sun_path is 108 bytes on Linux, one of them the terminating NUL. */
export const MAX_SOCKET_PATH_BYTES = 107;

export function parseEndpoint(text: string): Endpoint {
  const t = text.trim();
  let path: string;
  if (t.startsWith('unix://')) path = t.slice('unix://'.length);
  else if (t.startsWith('unix:')) path = t.slice('unix:'.length);
  else if (t.startsWith('/')) path = t;
  else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(t)) {
    throw new SyncpodError(`endpoint "${text}": unsupported protocol (use unix:///path/to.sock or a socket path)`);
  } else if (t === '') {
    throw new SyncpodError('endpoint is empty');
  } else path = t;
  if (!path.startsWith('/')) {
    throw new SyncpodError(`endpoint "${text}": the socket path must be absolute`);
  }
  // The kernel's sockaddr_un holds 108 bytes with the terminating NUL: a longer path would be cut and the
  // connection would go to whatever socket the first 107 bytes name (grpc-go refuses it as well).
  const bytes = Buffer.byteLength(posix.normalize(path).replace(/^\/+/, '/'));
  if (bytes > MAX_SOCKET_PATH_BYTES) {
    throw new SyncpodError(
      `endpoint "${text}": the socket path is ${bytes} bytes, longer than a unix socket address holds (${MAX_SOCKET_PATH_BYTES})`,
    );
  }
  return { text: t, target: `unix://${path}`, socketPath: path };
}

/**
 * Explains, before any gRPC is attempted, why a socket path cannot be a CRI endpoint
 * (missing file, not a socket, permission denied). Returns undefined when it looks usable.
 */
export function socketProblem(ep: Endpoint): string | undefined {
  try {
    const st = statSync(ep.socketPath);
    if (!st.isSocket()) return `${ep.socketPath} is not a socket`;
    return undefined;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return `no such socket: ${ep.socketPath} (is the runtime running?)`;
    if (code === 'EACCES') return `permission denied on ${ep.socketPath} (run as root?)`;
    if (code === 'ENOTDIR') return `no such socket: ${ep.socketPath}`;
    return `${ep.socketPath}: ${(err as Error).message}`;
  }
}
