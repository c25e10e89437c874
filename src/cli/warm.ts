// `syncpod __warm` (hidden): exercises the hot paths without a runtime, so that the build can
// store their compiled code in V8's code cache (scripts/build.mjs).
import type { Context } from './context';

export async function warm(_ctx: Context): Promise<number> {
  const { runtimeV1 } = require('../cri/gen/runtime-v1') as typeof import('../cri/gen/runtime-v1');
  const { encodeMessage, decodeMessage } = require('../cri/codec') as typeof import('../cri/codec');
  const { toProtoJSON } = require('../cri/json') as typeof import('../cri/json');
  const sample = {
    items: [
      {
        id: 'f'.repeat(64),
        metadata: { name: 'warm', namespace: 'default', uid: 'u', attempt: 1 },
        state: 'SANDBOX_READY',
        createdAt: '1700000000000000000',
        labels: { a: 'b' },
        annotations: { c: 'd' },
        runtimeHandler: '',
      },
    ],
  };
  const bytes = encodeMessage(runtimeV1, 'ListPodSandboxResponse', sample);
  const decoded = decodeMessage(runtimeV1, 'ListPodSandboxResponse', bytes);
  JSON.stringify(toProtoJSON(runtimeV1, 'ListPodSandboxResponse', decoded));
  // A table render, so cli-table3's code is in the cache too.
  const { formatPods } = require('../render/pods-view') as typeof import('../render/pods-view');
  const { plainColours } = require('../render/colour') as typeof import('../render/colour');
  formatPods(decoded.items, { output: 'table', nowNs: 1_700_000_100_000_000_000n, colours: plainColours });
  const grpc = require('@grpc/grpc-js') as typeof import('@grpc/grpc-js');
  const client = new grpc.Client('unix:///nonexistent/syncpod-warm.sock', grpc.credentials.createInsecure());
  client.close();
  return 0;
}
