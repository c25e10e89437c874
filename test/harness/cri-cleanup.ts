// Removes every pod sandbox of a lab through CRI (independent of syncpod's own client, so a
// broken client cannot leave a lab behind).
import * as path from 'node:path';

export async function cleanPods(endpoint: string): Promise<void> {
  const grpc = await import('@grpc/grpc-js');
  const loader = await import('@grpc/proto-loader');
  const def = loader.loadSync(path.join(__dirname, '..', '..', 'proto', 'runtime', 'v1', 'api.proto'), {
    longs: String,
    enums: String,
    defaults: true,
  });
  const pkg = grpc.loadPackageDefinition(def) as any;
  const client = new pkg.runtime.v1.RuntimeService(endpoint, grpc.credentials.createInsecure());
  const call = (method: string, req: unknown): Promise<any> =>
    new Promise((resolve, reject) => {
      client[method](req, { deadline: Date.now() + 20_000 }, (err: Error | null, res: unknown) =>
        err ? reject(err) : resolve(res),
      );
    });
  try {
    const { items } = await call('listPodSandbox', {});
    for (const p of items ?? []) {
      await call('stopPodSandbox', { podSandboxId: p.id });
      await call('removePodSandbox', { podSandboxId: p.id });
    }
    const { containers } = await call('listContainers', {});
    for (const c of containers ?? []) await call('removeContainer', { containerId: c.id });
  } finally {
    client.close();
  }
}
