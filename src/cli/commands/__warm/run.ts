// `syncpod __warm` (hidden): loads every command's code and runs the list commands end to end
// (and a pod's sync --dry-run and plan) without a runtime, so that the build can store their compiled code in V8's code cache
// (scripts/build.mjs writes one cache per bundle file). The runs make real gRPC calls: the client
// side (grpc-js, cri/grpc-client.ts, codecs) is compiled only when a call is made, so
// a list command's cached code covers it only if the warm-up calls too. The calls go to a node:http2 server
// on a private socket that answers ListPodSandbox and ListContainers with sample lists
// (src/workflows/warm-runtime.ts).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import type { Context } from '../../context';
import { warmRuntimeServer } from '../../../workflows/warm-runtime';
import { wrappedTable } from '../../../render/wrapped-table';

/** A pod with an init container, two containers, probes, env, resources and a volume: the sync path's code. */
const WARM_POD = `apiVersion: v1
kind: Pod
metadata: {name: warm, namespace: default, uid: 00000000-0000-4000-8000-000000000000, labels: {app: warm}}
spec:
  initContainers:
  - {name: init, image: docker.io/library/busybox:latest, command: [sh, -c, "true"]}
  containers:
  - name: app
    image: docker.io/library/busybox:latest
    command: [sh, -c, "sleep 3600"]
    env: [{name: A, value: "1"}]
    ports: [{containerPort: 8080}]
    resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {memory: 128Mi}}
    readinessProbe: {exec: {command: ["true"]}}
    volumeMounts: [{name: scratch, mountPath: /scratch}]
  - {name: sidecar, image: docker.io/library/busybox:latest, command: [sh, -c, "sleep 3600"]}
  volumes: [{name: scratch, emptyDir: {}}]
`;

export async function warm(ctx: Context): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-warm-'));
  const socket = path.join(dir, 'cri.sock');
  const server = warmRuntimeServer();
  const discard = new Writable({ write: (_chunk, _enc, done) => done() });
  const run = async (args: string[]) => {
    const code = await ctx.program.run(['--no-node-profile', '-r', `unix://${socket}`, ...args], {
      ...ctx.io,
      stdout: discard,
      stderr: discard,
      env: { NO_COLOR: '1' },
    });
    if (code !== 0) throw new Error(`warm-up run of ${args.join(' ')} failed`);
  };
  try {
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socket, resolve));
    // The list commands first, alone: the files they load are cached as these runs leave them
    // (boot.cjs freezes them), so the warm-up below adds nothing a list command would read.
    for (const args of [['pods'], ['ps', '-a'], ['ps', '-a', '-o', 'json']]) await run(args);
    (globalThis as { __syncpodFreezeCodeCaches?: () => void }).__syncpodFreezeCodeCaches?.();
    for (const load of ctx.program.loaders) await load();
    const manifest = path.join(dir, 'pod.yaml');
    fs.writeFileSync(manifest, WARM_POD);
    const nodeDirs = ['--pod-logs-root', path.join(dir, 'logs'), '--pod-dir-root', path.join(dir, 'pods')];
    for (const args of [
      ['sync', '--dry-run', '--yes', '-o', 'json', ...nodeDirs, manifest],
      ['plan', ...nodeDirs, manifest],
    ])
      await run(args);
  } finally {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  // The packages other outputs load (colour, progress, streaming, syncpod's own tables), so that
  // their files are cached too; a small table compiles cli-table3's layout.
  for (const load of [() => require('chalk'), () => require('ora'), () => require('ws')]) load();
  wrappedTable(['STEP', 'REASON'], [['1', 'a reason long enough to wrap']], { width: 20, wrap: [1] });
  return 0;
}
