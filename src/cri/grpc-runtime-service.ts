// The CRI client: gRPC calls over a unix socket (grpc-js, grpc-client.ts), the project's generated
// codecs (no proto parsing or reflection at start), a per-call deadline, runtime.v1 -> v1alpha2
// negotiation, and every failure mapped to one line naming the endpoint and the cause.
import { hideEnvValuesInJSON, redactPullRequest } from './redact';
import { SyncpodError } from '../errors';
import { decodeMessage, encodeMessage } from './codec';
import { GrpcClient, GrpcStatusError, Status as Code } from './grpc-client';
import { parseEndpoint, socketProblem, type Endpoint } from './endpoint';
import type { ProtoPackage } from './gen/schema';
import { runtimeV1 } from './gen/runtime-v1';
import { runtimeV1alpha2 } from './gen/runtime-v1alpha2';
import { toProtoJSON } from './json';
import type * as T from './types';

/** The CRI API package spoken on the wire: runtime.v1, or runtime.v1alpha2 for old runtimes. */
export type ApiVersion = 'v1' | 'v1alpha2';

/** The RPCs syncpod uses, by CRI method name (request/response types generated from proto/). */
export type RuntimeMethods = Pick<
  T.RuntimeServiceMethods,
  | 'Version'
  | 'Status'
  | 'RunPodSandbox'
  | 'StopPodSandbox'
  | 'RemovePodSandbox'
  | 'PodSandboxStatus'
  | 'ListPodSandbox'
  | 'CreateContainer'
  | 'StartContainer'
  | 'StopContainer'
  | 'RemoveContainer'
  | 'ListContainers'
  | 'ContainerStatus'
  | 'ExecSync'
  | 'Exec'
  | 'Attach'
  | 'PortForward'
  | 'ContainerStats'
  | 'ListContainerStats'
  | 'PodSandboxStats'
  | 'ListPodSandboxStats'
  | 'UpdateContainerResources'
  | 'UpdatePodSandboxResources'
  | 'ReopenContainerLog'
  | 'CheckpointContainer'
  | 'RuntimeConfig'
  | 'GetContainerEvents'
  | 'UpdateRuntimeConfig'
  | 'ListMetricDescriptors'
  | 'ListPodSandboxMetrics'
>;
export type ImageMethods = Pick<
  T.ImageServiceMethods,
  'ListImages' | 'ImageStatus' | 'PullImage' | 'RemoveImage' | 'ImageFsInfo'
>;

export type Request<M, K extends keyof M> = M[K] extends [infer Q, unknown] ? T.DeepPartial<Q> : never;
export type Response<M, K extends keyof M> = M[K] extends [unknown, infer R] ? R : never;
/** The message type of a server-streaming method. */
export type StreamMessage<M, K extends keyof M> = Response<M, K>;

/** A CRI call failed with a status from the runtime (not a connection problem). */
export class CriCallError extends SyncpodError {
  constructor(
    message: string,
    readonly code: number,
    readonly details: string,
  ) {
    super(message);
  }
  get notFound(): boolean {
    return this.code === Code.NOT_FOUND;
  }
}

const PACKAGES: Record<ApiVersion, ProtoPackage> = { v1: runtimeV1, v1alpha2: runtimeV1alpha2 };
function protoPackage(api: ApiVersion): ProtoPackage {
  return PACKAGES[api];
}

function isUnknownService(err: unknown): boolean {
  return err instanceof GrpcStatusError && err.code === Code.UNIMPLEMENTED;
}

export interface ServiceOptions {
  timeoutMs: number;
  /** Forced API version; undefined = negotiate. */
  api?: ApiVersion;
  /** Called with one-line notes (negotiation, timings) when --debug is on. */
  debug?: (line: string) => void;
}

/** One CRI service (RuntimeService or ImageService) on one endpoint. */
export class CriService<M> {
  private channel: GrpcClient | undefined;
  private negotiated: ApiVersion | undefined;
  readonly endpoint: Endpoint;

  constructor(
    endpoint: Endpoint | string,
    private readonly service: 'RuntimeService' | 'ImageService',
    private readonly options: ServiceOptions,
  ) {
    this.endpoint = typeof endpoint === 'string' ? parseEndpoint(endpoint) : endpoint;
    this.negotiated = options.api;
  }

  /** The API version in use (after the first successful call, or when forced). */
  get apiVersion(): ApiVersion | undefined {
    return this.negotiated;
  }

  private getChannel(): GrpcClient {
    if (!this.channel) {
      const problem = socketProblem(this.endpoint);
      if (problem) throw new SyncpodError(`endpoint ${this.endpoint.text}: ${problem}`);
      this.channel = new GrpcClient(this.endpoint.socketPath);
    }
    return this.channel;
  }

  private async unary(api: ApiVersion, method: string, request: unknown, timeoutMs: number): Promise<unknown> {
    const pkg = protoPackage(api);
    const desc = pkg.services[this.service]?.methods[method];
    if (!desc) throw new SyncpodError(`${method} is not part of runtime.${api}.${this.service}`);
    const channel = this.getChannel();
    this.debugMessage(pkg, desc.request, request);
    const bytes = await channel.unary(desc.path, encodeMessage(pkg, desc.request, request), { timeoutMs });
    const value = decodeMessage(pkg, desc.response, bytes);
    this.debugMessage(pkg, desc.response, value);
    return value;
  }

  /** With --debug, each request and response as one line of protobuf JSON (crictl logs both). */
  private debugMessage(pkg: ProtoPackage, typeName: string, message: unknown): void {
    const debug = this.options.debug;
    if (!debug) return;
    // Registry credentials and environment values (Secrets among them) never reach the debug log; crictl prints both.
    const shown = /(^|\.)PullImageRequest$/.test(typeName)
      ? redactPullRequest(message as { auth?: T.AuthConfig | null }).request
      : message;
    const json = toProtoJSON(pkg, typeName, shown);
    debug(
      `${typeName}: ${JSON.stringify(/(^|\.)CreateContainerRequest$/.test(typeName) ? hideEnvValuesInJSON(json) : json)}`,
    );
  }

  /**
   * Calls `method`. The first call negotiates the API version: runtime.v1 unless forced, then
   * runtime.v1alpha2 when the runtime answers Unimplemented for the v1 service.
   */
  async call<K extends keyof M & string>(
    method: K,
    request: Request<M, K>,
    opts: { timeoutMs?: number } = {},
  ): Promise<Response<M, K>> {
    const timeoutMs = opts.timeoutMs ?? this.options.timeoutMs;
    const started = Date.now();
    const api = this.negotiated ?? 'v1';
    try {
      const res = await this.unary(api, method, request, timeoutMs);
      this.negotiated = api;
      this.options.debug?.(`${this.service}/${method} (${api}) on ${this.endpoint.text}: ${Date.now() - started} ms`);
      return res as Response<M, K>;
    } catch (err) {
      // A method only runtime.v1 has (RuntimeConfig, CheckpointContainer…) answered Unimplemented:
      // the method is missing, not the service; v1alpha2 cannot have it either.
      const inV1alpha2 = !!protoPackage('v1alpha2').services[this.service]?.methods[method];
      if (this.negotiated === undefined && isUnknownService(err) && inV1alpha2) {
        this.options.debug?.(
          `${this.service}: runtime.v1 is not implemented on ${this.endpoint.text}; trying runtime.v1alpha2`,
        );
        try {
          const res = await this.unary('v1alpha2', method, request, timeoutMs);
          this.negotiated = 'v1alpha2';
          return res as Response<M, K>;
        } catch (err2) {
          if (isUnknownService(err2)) {
            throw new SyncpodError(
              `endpoint ${this.endpoint.text}: neither runtime.v1 nor runtime.v1alpha2 ${this.service} is implemented (is this a CRI runtime?)`,
            );
          }
          throw this.mapError(err2, method, timeoutMs);
        }
      }
      throw this.mapError(err, method, timeoutMs);
    }
  }

  /**
   * A server-streaming call (GetContainerEvents): every message to `onMessage` until the runtime
   * ends the stream or `signal` fires (then it resolves). Uses the API version negotiated so far
   * (runtime.v1 unless an earlier call fell back).
   */
  async stream<K extends keyof M & string>(
    method: K,
    request: Request<M, K>,
    onMessage: (message: StreamMessage<M, K>) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    const api = this.negotiated ?? 'v1';
    const pkg = protoPackage(api);
    const desc = pkg.services[this.service]?.methods[method];
    if (!desc) throw new SyncpodError(`${method} is not part of runtime.${api}.${this.service}`);
    const channel = this.getChannel();
    this.debugMessage(pkg, desc.request, request);
    try {
      await channel.serverStream(
        desc.path,
        encodeMessage(pkg, desc.request, request),
        (bytes) => {
          const message = decodeMessage(pkg, desc.response, bytes);
          this.debugMessage(pkg, desc.response, message);
          onMessage(message as StreamMessage<M, K>);
        },
        // No deadline for the stream itself (it runs until cancelled), but the connection must come up
        // within --timeout.
        { signal, connectTimeoutMs: this.options.timeoutMs },
      );
    } catch (err) {
      // Cancelled by the caller: the stream ends as asked.
      if (signal?.aborted && err instanceof GrpcStatusError && err.code === Code.CANCELLED) return;
      throw this.mapError(err, method, this.options.timeoutMs);
    }
  }

  /** Turns a failed call's status into one line naming the endpoint and the cause. */
  private mapError(err: unknown, method: string, timeoutMs: number): unknown {
    if (!(err instanceof GrpcStatusError)) return err;
    const ep = this.endpoint.text;
    const details = err.details.trim();
    switch (err.code) {
      case Code.DEADLINE_EXCEEDED:
        return new SyncpodError(
          `endpoint ${ep}: no answer to ${method} within ${formatMs(timeoutMs)} (runtime hung or not a CRI server; raise --timeout?)`,
          { cause: err },
        );
      case Code.UNAVAILABLE: {
        const cause = describeUnavailable(details);
        return new SyncpodError(`endpoint ${ep}: ${cause}`, { cause: err });
      }
      case Code.UNIMPLEMENTED:
        return new CriCallError(
          `${method}: not implemented by runtime.${this.negotiated ?? 'v1'} on ${ep}${details ? `: ${details}` : ''}`,
          err.code,
          details,
        );
      case Code.PERMISSION_DENIED:
      case Code.UNAUTHENTICATED:
        return new CriCallError(
          `endpoint ${ep}: ${method}: permission denied${details ? `: ${details}` : ''}`,
          err.code,
          details,
        );
      case Code.INTERNAL:
        if (/protocol error|received http|http\/1|malformed|parse/i.test(details)) {
          return new SyncpodError(`endpoint ${ep}: not a gRPC server (${details})`, { cause: err });
        }
        return new CriCallError(`${method}: ${details || 'internal error'}`, err.code, details);
      default:
        return new CriCallError(`${method}: ${details || codeName(err.code)}`, err.code, details);
    }
  }

  close(): void {
    this.channel?.close();
    this.channel = undefined;
  }
}

function codeName(code: number): string {
  const names: Record<number, string> = {
    1: 'cancelled',
    2: 'unknown error',
    3: 'invalid argument',
    5: 'not found',
    6: 'already exists',
    8: 'resource exhausted',
    9: 'failed precondition',
    13: 'internal error',
  };
  return names[code] ?? `gRPC status ${code}`;
}

function describeUnavailable(details: string): string {
  if (/ECONNREFUSED|connection refused/i.test(details)) return 'connection refused (is the runtime running?)';
  if (/EACCES|permission denied/i.test(details)) return 'permission denied (run as root?)';
  if (/ENOENT|no such file/i.test(details)) return 'no such socket (is the runtime running?)';
  // grpc-js says "Connection dropped" only for a connection that was up (the server's HTTP/2
  // settings had arrived): the runtime went away during the call (killed, restarted).
  if (/^Connection dropped$/i.test(details))
    return 'the runtime closed the connection during the call (did it stop or restart?)';
  // grpc-js says "Failed to connect" or "read ECONNRESET" (which one depends on timing) when the
  // server accepts the connection and closes it before HTTP/2 is up: one wording for both.
  if (/^Failed to connect$|ECONNRESET|socket closed/i.test(details)) {
    return 'not a gRPC server, or it closed the connection (the connection was closed before HTTP/2 was set up)';
  }
  if (/Protocol error|Received HTTP|GOAWAY|http2/i.test(details)) {
    return `not a gRPC server, or it closed the connection (${details})`;
  }
  return `unavailable: ${details || 'connection failed'}`;
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

export type RuntimeService = CriService<RuntimeMethods>;
export type ImageService = CriService<ImageMethods>;
