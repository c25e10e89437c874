// `syncpod __warm` (hidden): loads every command's code and exercises the hot paths without a
// runtime, so that the build can store their compiled code in V8's code cache (scripts/build.mjs
// writes one cache per bundle file).
import type { Context } from './context';
import { COMMANDS } from './commands';
import { runtimeV1 } from '../cri/gen/runtime-v1';
import { encodeMessage, decodeMessage } from '../cri/codec';
import { toProtoJSON } from '../cri/json';
import { formatPods } from '../render/pods-view';
import { plainColours } from '../render/colour';

export async function warm(_ctx: Context): Promise<number> {
  for (const command of COMMANDS) await command.load();
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
  // A table render, so the table layout's code is in the cache too.
  formatPods(decoded.items, { output: 'table', nowNs: 1_700_000_100_000_000_000n, colours: plainColours });
  const grpc = require('@grpc/grpc-js') as typeof import('@grpc/grpc-js');
  const client = new grpc.Client('unix:///nonexistent/syncpod-warm.sock', grpc.credentials.createInsecure());
  client.close();
  // The packages other outputs load (colour, progress, streaming), so that their files are cached too.
  for (const load of [() => require('chalk'), () => require('ora'), () => require('ws')]) load();
  return 0;
}
