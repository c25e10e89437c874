// The CRI runtime the build's warm-up (`syncpod __warm`) talks to: a node:http2 server on a private
// socket that answers ListPodSandbox and ListContainers with sample lists, and what `sync --dry-run`
// asks besides (Version, ImageStatus), as a runtime would; every other method is Unimplemented.
import * as http2 from 'node:http2';
import { encodeMessage } from '../cri/codec';
import { runtimeV1 } from '../cri/gen/runtime-v1';

const CREATED = '1700000000000000000';
const SANDBOXES = Array.from({ length: 20 }, (_, i) => ({
  id: `${i}`.padStart(64, 'f'),
  metadata: { name: `warm-${i}`, namespace: 'default', uid: `u-${i}`, attempt: 1 },
  state: 'SANDBOX_READY',
  createdAt: CREATED,
  labels: { 'io.kubernetes.pod.name': `warm-${i}` },
  annotations: { c: 'd' },
  runtimeHandler: '',
}));
const CONTAINERS = SANDBOXES.map((s, i) => ({
  id: `${i}`.padStart(64, 'c'),
  podSandboxId: s.id,
  metadata: { name: 'app', attempt: 0 },
  image: { image: 'docker.io/library/busybox:latest' },
  imageRef: `sha256:${'a'.repeat(64)}`,
  state: i % 2 ? 'CONTAINER_RUNNING' : 'CONTAINER_EXITED',
  createdAt: CREATED,
  labels: { 'io.kubernetes.pod.name': s.metadata.name, 'io.kubernetes.pod.namespace': 'default' },
  annotations: { 'io.kubernetes.container.restartCount': '0' },
}));

const ANSWERS: Record<string, Buffer> = {
  '/runtime.v1.RuntimeService/ListPodSandbox': encodeMessage(runtimeV1, 'ListPodSandboxResponse', { items: SANDBOXES }),
  '/runtime.v1.RuntimeService/ListContainers': encodeMessage(runtimeV1, 'ListContainersResponse', {
    containers: CONTAINERS,
  }),
  // What `sync --dry-run` asks besides the lists (the mutating calls are only recorded).
  '/runtime.v1.RuntimeService/Version': encodeMessage(runtimeV1, 'VersionResponse', {
    version: '0.1.0',
    runtimeName: 'warm',
    runtimeVersion: '1',
    runtimeApiVersion: 'v1',
  }),
  '/runtime.v1.ImageService/ImageStatus': encodeMessage(runtimeV1, 'ImageStatusResponse', {
    image: {
      id: `sha256:${'a'.repeat(64)}`,
      repoTags: ['docker.io/library/busybox:latest'],
      repoDigests: [],
      size: '1000',
    },
  }),
};

/** Answers the methods above as a CRI runtime would (one message, grpc-status 0), others Unimplemented. */
export function warmRuntimeServer(): http2.Http2Server {
  const server = http2.createServer();
  server.on('stream', (stream, headers) => {
    const message = ANSWERS[String(headers[':path'])];
    stream.on('data', () => undefined);
    stream.on('end', () => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': message ? '0' : '12' }));
      if (!message) return void stream.end();
      const frame = Buffer.alloc(5 + message.length);
      frame.writeUInt32BE(message.length, 1);
      message.copy(frame, 5);
      stream.end(frame);
    });
  });
  return server;
}
