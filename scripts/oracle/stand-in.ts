// A CRI runtime stand-in on a unix socket (grpc-js, the CRI API's runtime.v1 wire names): it
// serves one scenario's sandboxes, containers and images as the oracle resolved them, so that
// syncpod reads the state over gRPC exactly as on a node. It answers the calls `syncpod plan`
// makes (Version, the lists, the statuses, ImageStatus); every call that would change the
// runtime is refused, as nothing may change during a plan.
import * as grpc from '@grpc/grpc-js';
import { decodeMessage, encodeMessage } from '../../src/cri/codec';
import { runtimeV1 } from '../../src/cri/gen/runtime-v1';

/** A resolved scenario's runtime state: CRI statuses in the protobuf JSON mapping. */
export interface RuntimeState {
  sandboxes: Array<Record<string, any>>;
  containers: Array<{ podSandboxId: string; status: Record<string, any> }>;
  images: string[];
}

type Handler = (req: any) => unknown;

const EMPTY: RuntimeState = { sandboxes: [], containers: [], images: [] };

function labelsMatch(selector: Record<string, string> | undefined, labels: Record<string, string> = {}): boolean {
  return Object.entries(selector ?? {}).every(([k, v]) => labels[k] === v);
}

function sandboxItem(s: Record<string, any>): Record<string, any> {
  return {
    id: s.id,
    metadata: s.metadata,
    state: s.state ?? 'SANDBOX_READY',
    createdAt: s.createdAt ?? '0',
    labels: s.labels ?? {},
    annotations: s.annotations ?? {},
    runtimeHandler: s.runtimeHandler ?? '',
  };
}

function containerItem(c: RuntimeState['containers'][number]): Record<string, any> {
  const s = c.status;
  return {
    id: s.id,
    podSandboxId: c.podSandboxId,
    metadata: s.metadata,
    image: s.image,
    imageRef: s.imageRef ?? '',
    state: s.state ?? 'CONTAINER_CREATED',
    createdAt: s.createdAt ?? '0',
    labels: s.labels ?? {},
    annotations: s.annotations ?? {},
  };
}

/** The stand-in server; `state` is swapped between scenarios. */
export class CriStandIn {
  state: RuntimeState = EMPTY;
  private server = new grpc.Server();

  private handlers(): Record<string, Record<string, Handler>> {
    const notFound = (what: string) => Object.assign(new Error(`${what} not found`), { code: grpc.status.NOT_FOUND });
    return {
      RuntimeService: {
        Version: () => ({
          version: '0.1.0',
          runtimeName: 'oracle-stand-in',
          runtimeVersion: '1',
          runtimeApiVersion: 'v1',
        }),
        ListPodSandbox: (req) => {
          const f = req.filter ?? {};
          const items = this.state.sandboxes
            .filter((s) => !f.id || s.id === f.id)
            .filter((s) => !f.state || s.state === f.state.state)
            .filter((s) => labelsMatch(f.labelSelector, s.labels))
            .map(sandboxItem);
          return { items };
        },
        PodSandboxStatus: (req) => {
          const s = this.state.sandboxes.find((x) => x.id === req.podSandboxId);
          if (!s) throw notFound(`sandbox ${req.podSandboxId}`);
          return { status: s, info: {}, containersStatuses: [], timestamp: '0' };
        },
        ListContainers: (req) => {
          const f = req.filter ?? {};
          const containers = this.state.containers
            .filter((c) => !f.id || c.status.id === f.id)
            .filter((c) => !f.podSandboxId || c.podSandboxId === f.podSandboxId)
            .filter((c) => !f.state || c.status.state === f.state.state)
            .filter((c) => labelsMatch(f.labelSelector, c.status.labels))
            .map(containerItem);
          return { containers };
        },
        ContainerStatus: (req) => {
          const c = this.state.containers.find((x) => x.status.id === req.containerId);
          if (!c) throw notFound(`container ${req.containerId}`);
          return { status: c.status, info: {} };
        },
      },
      ImageService: {
        ImageStatus: (req) => {
          const name = req.image?.image ?? '';
          if (!this.state.images.includes(name)) return {};
          return { image: { id: `sha256:${name}`, repoTags: [name], repoDigests: [], size: '1000', username: '' } };
        },
        ListImages: () => ({
          images: this.state.images.map((n) => ({ id: `sha256:${n}`, repoTags: [n], repoDigests: [], size: '1000' })),
        }),
      },
    };
  }

  async listen(socket: string): Promise<void> {
    for (const [service, methods] of Object.entries(this.handlers())) {
      const definition: Record<string, unknown> = {};
      const impl: Record<string, unknown> = {};
      for (const [method, handle] of Object.entries(methods)) {
        definition[method] = {
          path: `/runtime.v1.${service}/${method}`,
          requestStream: false,
          responseStream: false,
          requestSerialize: (v: unknown) => encodeMessage(runtimeV1, `${method}Request`, v),
          requestDeserialize: (b: Buffer) => decodeMessage(runtimeV1, `${method}Request`, b),
          responseSerialize: (v: unknown) => encodeMessage(runtimeV1, `${method}Response`, v),
          responseDeserialize: (b: Buffer) => decodeMessage(runtimeV1, `${method}Response`, b),
        };
        impl[method] = (call: { request: unknown }, cb: (err: unknown, v?: unknown) => void) => {
          try {
            cb(null, handle(call.request));
          } catch (e) {
            cb(e);
          }
        };
      }
      this.server.addService(definition as grpc.ServiceDefinition, impl as grpc.UntypedServiceImplementation);
    }
    await new Promise<void>((res, rej) =>
      this.server.bindAsync(`unix:${socket}`, grpc.ServerCredentials.createInsecure(), (e) => (e ? rej(e) : res())),
    );
  }

  close(): void {
    this.server.forceShutdown();
  }
}
