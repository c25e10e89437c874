// port-forward: local TCP listeners; every accepted connection gets its own PortForward URL (the
// streaming server's tokens are single-use) and its own WebSocket with `?port=N`: channel 0 carries
// the data, channel 1 the runtime's error text, each opened by a 2-byte port prefix.
import * as net from 'node:net';
import { SyncpodError } from '../errors';
import { resolvePodTarget, type TargetFlags } from '../state/targets';
import { PORT_FORWARD_PROTOCOLS, PortPrefixStripper } from './channels';
import { openStream, type StreamConnection } from './connect';
import type { StreamDeps } from './exec';
import { runtimeLister } from './lister';

export interface PortSpec {
  /** 0: any free port. */
  local: number;
  remote: number;
}

function portNumber(text: string, what: string, allowZero: boolean): number {
  if (!/^\d+$/.test(text)) throw new SyncpodError(`${what} ${JSON.stringify(text)} is not a port number`);
  const n = Number(text);
  if (n > 65535 || (n === 0 && !allowZero)) throw new SyncpodError(`${what} ${text} is out of range (1-65535)`);
  return n;
}

/** kubectl's forms: REMOTE (same local port), LOCAL:REMOTE, :REMOTE (any free local port). */
export function parsePortSpecs(args: readonly string[]): PortSpec[] {
  if (args.length === 0) throw new SyncpodError('at least one port ([LOCAL:]REMOTE) is required');
  return args.map((arg) => {
    const parts = arg.split(':');
    if (parts.length > 2) throw new SyncpodError(`port ${JSON.stringify(arg)}: expected [LOCAL:]REMOTE`);
    if (parts.length === 1) {
      const p = portNumber(parts[0]!, 'port', false);
      return { local: p, remote: p };
    }
    return {
      local: parts[0] === '' ? 0 : portNumber(parts[0]!, 'local port', true),
      remote: portNumber(parts[1]!, 'remote port', false),
    };
  });
}

export interface PortForwardOptions {
  target: TargetFlags;
  ports: PortSpec[];
  /** Local addresses to listen on (default 127.0.0.1). */
  addresses: string[];
  /** Quiet time after a local client half-closes before its connection is closed. */
  eofLingerMs: number;
}

function explainForwardError(text: string, remote: number, podId: string): string {
  const first = text.trim().split('\n')[0] ?? '';
  if (/connection refused/i.test(first))
    return `port-forward: nothing listens on port ${remote} in pod ${podId.slice(0, 13)} (${first})`;
  return `port-forward: port ${remote} in pod ${podId.slice(0, 13)}: ${first}`;
}

function listen(address: string, port: number, onConnection: (s: net.Socket) => void): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer({ noDelay: true }, onConnection);
    server.once('error', (err: NodeJS.ErrnoException) => {
      const where = `${address.includes(':') ? `[${address}]` : address}:${port}`;
      if (err.code === 'EADDRINUSE') reject(new SyncpodError(`port-forward: local port ${where} is in use`));
      else if (err.code === 'EACCES') reject(new SyncpodError(`port-forward: no permission to listen on ${where}`));
      else if (err.code === 'EADDRNOTAVAIL')
        reject(new SyncpodError(`port-forward: ${address} is not an address of this host`));
      else reject(new SyncpodError(`port-forward: listening on ${where}: ${err.message}`));
    });
    server.listen({ host: address, port, exclusive: true }, () => resolve(server));
  });
}

/** Copies one local connection through one WebSocket; resolves with the runtime's error text, if any. */
function pipeConnection(
  socket: net.Socket,
  conn: StreamConnection,
  remote: number,
  eofLingerMs: number,
): Promise<string> {
  return new Promise((resolve) => {
    const stripper = new PortPrefixStripper([remote]);
    let errorText = '';
    let linger: NodeJS.Timeout | undefined;
    const HIGH = 4 << 20;
    conn.onFrame((channel, raw) => {
      let data: Buffer;
      try {
        data = stripper.strip(channel, raw);
      } catch (err) {
        errorText ||= (err as Error).message;
        conn.close();
        return;
      }
      if (linger) {
        clearTimeout(linger);
        linger = setTimeout(() => conn.close(), eofLingerMs);
      }
      if (data.length === 0) return;
      if (channel === 0) {
        if (!socket.write(data)) {
          conn.pause();
          socket.once('drain', () => conn.resume());
        }
      } else if (channel === 1) errorText += data.toString('utf8');
    });
    conn.onClose((error) => {
      if (linger) clearTimeout(linger);
      if (!errorText && error) errorText = error.message;
      socket.end();
      resolve(errorText);
    });
    socket.on('data', (chunk: Buffer) => {
      conn.send(0, chunk, () => {
        if (socket.isPaused() && conn.buffered < HIGH / 4) socket.resume();
      });
      if (conn.buffered > HIGH) socket.pause();
    });
    // v4 cannot half-close: when the local client ends its side, wait until the pod side is quiet.
    socket.once('end', () => (linger = setTimeout(() => conn.close(), eofLingerMs)));
    socket.once('error', () => conn.close());
    socket.once('close', () => conn.close());
  });
}

/** Forwards until Ctrl-C (exit 0) or until the runtime reports a forwarding error (exit 1). */
export async function portForward(deps: StreamDeps, opts: PortForwardOptions): Promise<number> {
  const podId = await resolvePodTarget(runtimeLister(deps.runtime), opts.target);
  const remotes = [...new Set(opts.ports.map((p) => p.remote))];
  // One call up front: a pod that cannot be forwarded to fails here, before anything listens.
  await deps.runtime.call('PortForward', { podSandboxId: podId, port: remotes });
  const servers: net.Server[] = [];
  const sockets = new Set<net.Socket>();
  let failure: SyncpodError | undefined;
  let finish!: () => void;
  const finished = new Promise<void>((r) => (finish = r));
  const shutdown = () => {
    for (const s of servers) s.close();
    for (const s of sockets) s.destroy();
    finish();
  };

  const handle = (spec: PortSpec, localPort: () => number) => (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    deps.io.stderr.write(`Handling connection for ${localPort()}\n`);
    void (async () => {
      try {
        const { url } = await deps.runtime.call('PortForward', { podSandboxId: podId, port: [spec.remote] });
        const conn = await openStream(
          `${url}${url.includes('?') ? '&' : '?'}port=${spec.remote}`,
          PORT_FORWARD_PROTOCOLS,
          {
            timeoutMs: deps.timeoutMs,
            debug: deps.debug,
          },
        );
        if (socket.destroyed) return conn.close();
        const errorText = await pipeConnection(socket, conn, spec.remote, opts.eofLingerMs);
        if (errorText) throw new SyncpodError(explainForwardError(errorText, spec.remote, podId));
      } catch (err) {
        socket.destroy();
        failure ??= err instanceof SyncpodError ? err : new SyncpodError(`port-forward: ${(err as Error).message}`);
        shutdown();
      }
    })();
  };

  try {
    for (const spec of opts.ports) {
      let chosen = spec.local;
      for (const address of opts.addresses) {
        const server = await listen(
          address,
          chosen,
          handle(spec, () => chosen),
        );
        servers.push(server);
        chosen = (server.address() as net.AddressInfo).port;
        const shown = address.includes(':') ? `[${address}]` : address;
        deps.io.stdout.write(`Forwarding from ${shown}:${chosen} -> ${spec.remote}\n`);
      }
    }
  } catch (err) {
    shutdown();
    throw err;
  }
  const onAbort = () => shutdown();
  if (deps.signal?.aborted) shutdown();
  deps.signal?.addEventListener('abort', onAbort, { once: true });
  await finished;
  deps.signal?.removeEventListener('abort', onAbort);
  if (failure) throw failure;
  return 0;
}
