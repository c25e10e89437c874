// The demo's stream bridge. The demo's containerd lives in a network namespace of its own, so its
// streaming server (exec, attach, port-forward) listens on 127.0.0.1:PORT there, an address nobody
// answers in the host's namespace. Two halves of this script, joined by a unix socket (a file, the
// same in both namespaces), make 127.0.0.1:PORT answer in the host's namespace too:
//   node demo-stream-bridge.mjs host PORT SOCKET   listens on 127.0.0.1:PORT, passes each connection to SOCKET
//   node demo-stream-bridge.mjs lab PORT SOCKET    (run with nsenter --net into the lab's namespace)
//                                                 listens on SOCKET, connects each to 127.0.0.1:PORT there
// Bytes are passed as they are (HTTP upgrade, SPDY, WebSocket). The demo starts both halves detached;
// `npm run demo -- --stop` (and the lab's cleanup) ends them.
import * as fs from 'node:fs';
import * as net from 'node:net';

const [mode, portText, socket] = process.argv.slice(2);
const port = Number(portText);
if ((mode !== 'host' && mode !== 'lab') || !Number.isInteger(port) || port <= 0 || !socket) {
  process.stderr.write('usage: demo-stream-bridge.mjs host|lab PORT SOCKET\n');
  process.exit(2);
}

/** Joins a connection to a new one made with `target`; either side ending or failing ends both. */
function join(conn, target) {
  const other = net.connect({ ...target, allowHalfOpen: true });
  conn.pipe(other);
  other.pipe(conn);
  const end = () => {
    conn.destroy();
    other.destroy();
  };
  conn.on('error', end);
  other.on('error', end);
  conn.on('close', end);
  other.on('close', end);
}

const server = net.createServer({ allowHalfOpen: true }, (conn) =>
  join(conn, mode === 'host' ? { path: socket } : { host: '127.0.0.1', port }),
);
server.on('error', (err) => {
  process.stderr.write(`demo-stream-bridge ${mode}: ${err.message}\n`);
  process.exit(1);
});
if (mode === 'lab') {
  fs.rmSync(socket, { force: true });
  server.listen(socket, () => process.stdout.write('ready\n'));
} else {
  server.listen({ host: '127.0.0.1', port }, () => process.stdout.write('ready\n'));
}
