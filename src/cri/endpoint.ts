// CRI endpoints: `unix://` URLs and bare socket paths, as crictl accepts them.
import { statSync } from 'node:fs';
import { SyncpodError } from '../errors';

export interface Endpoint {
  /** As the user gave it (shown in error messages). */
  text: string;
  /** The endpoint as a `unix://` URL (what a bare socket path means). */
  target: string;
  socketPath: string;
}

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
