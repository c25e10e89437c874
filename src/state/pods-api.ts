// A client for the kubelet's local Pods API (KEP-4188, feature gate PodsAPI; alpha in 1.36, beta in
// 1.37): gRPC service `v1alpha1.Pods` on the unix socket <kubelet root>/pods-api/pods-api.sock.
// ListPods answers { repeated bytes pods = 1 }, each a v1.Pod in Kubernetes' protobuf encoding
// (k8s.io/api/core/v1 generated.proto), with the status kubelet computed; FAILED_PRECONDITION
// while kubelet's pod sources have not synced yet.
//
// What is read: identity only (metadata name 1, namespace 3, uid 5, annotations 12; spec.nodeName
// 10; status.phase 1). The whole v1.Pod schema is not carried here, so pods are planned from their
// manifests; the Pods API tells which uids kubelet knows (never orphans) and the real uid of each
// static pod (kubernetes.io/config.source = file).
import type { ProtoPackage } from '../cri/gen/schema';
import { decodeMessage, encodeMessage } from '../cri/codec';
import { GrpcClient, GrpcStatusError, Status } from '../cri/grpc-client';
import { SyncpodError, errorLine } from '../errors';

export const PODS_API_SOCKET_DIR = 'pods-api';
export const PODS_API_SOCKET_NAME = 'pods-api.sock';
export const PODS_API_LIST_PATH = '/v1alpha1.Pods/ListPods';

/** `<root>/pods-api/pods-api.sock`. */
export function podsApiSocket(kubeletRoot: string): string {
  return `${kubeletRoot.replace(/\/+$/, '')}/${PODS_API_SOCKET_DIR}/${PODS_API_SOCKET_NAME}`;
}

export interface PodIdentity {
  namespace: string;
  name: string;
  uid: string;
  nodeName: string;
  phase: string;
  /** kubernetes.io/config.source ('' when absent). */
  configSource: string;
}

/** The service and the parts of v1.Pod that are read (field numbers of the Kubernetes protobuf schema). */
export const PODS_API_PROTO: ProtoPackage = {
  package: 'v1alpha1',
  messages: {
    ListPodsRequest: { fields: [] },
    ListPodsResponse: { fields: [{ name: 'pods', protoName: 'pods', number: 1, type: 'bytes', repeated: true }] },
    Pod: {
      fields: [
        { name: 'metadata', protoName: 'metadata', number: 1, type: 'message', ref: 'ObjectMeta' },
        { name: 'spec', protoName: 'spec', number: 2, type: 'message', ref: 'PodSpec' },
        { name: 'status', protoName: 'status', number: 3, type: 'message', ref: 'PodStatus' },
      ],
    },
    ObjectMeta: {
      fields: [
        { name: 'name', protoName: 'name', number: 1, type: 'string' },
        { name: 'namespace', protoName: 'namespace', number: 3, type: 'string' },
        { name: 'uid', protoName: 'uid', number: 5, type: 'string' },
        { name: 'annotations', protoName: 'annotations', number: 12, type: 'string', map: 'string' },
      ],
    },
    PodSpec: { fields: [{ name: 'nodeName', protoName: 'nodeName', number: 10, type: 'string' }] },
    PodStatus: { fields: [{ name: 'phase', protoName: 'phase', number: 1, type: 'string' }] },
  },
  enums: {},
  services: {
    Pods: {
      methods: {
        ListPods: {
          path: PODS_API_LIST_PATH,
          request: 'ListPodsRequest',
          response: 'ListPodsResponse',
          requestStream: false,
          responseStream: false,
        },
      },
    },
  },
};

interface DecodedPod {
  metadata?: { name: string; namespace: string; uid: string; annotations: Record<string, string> };
  spec?: { nodeName: string };
  status?: { phase: string };
}

/** One v1.Pod (Kubernetes protobuf bytes) to its identity. */
export function decodePodIdentity(bytes: Uint8Array): PodIdentity {
  const p = decodeMessage(PODS_API_PROTO, 'Pod', bytes) as DecodedPod;
  return {
    namespace: p.metadata?.namespace ?? '',
    name: p.metadata?.name ?? '',
    uid: p.metadata?.uid ?? '',
    nodeName: p.spec?.nodeName ?? '',
    phase: p.status?.phase ?? '',
    configSource: p.metadata?.annotations?.['kubernetes.io/config.source'] ?? '',
  };
}

/** Encodes a pod identity the way the Pods API sends it (for stand-in servers in tests). */
export function encodePodIdentity(
  p: Omit<PodIdentity, 'configSource'> & { annotations?: Record<string, string> },
): Buffer {
  return encodeMessage(PODS_API_PROTO, 'Pod', {
    metadata: { name: p.name, namespace: p.namespace, uid: p.uid, annotations: p.annotations ?? {} },
    spec: { nodeName: p.nodeName },
    status: { phase: p.phase },
  });
}

/**
 * ListPods on `socket`. Returns undefined when there is no socket (no kubelet, or the gate is off);
 * throws a one-line error naming the socket when it exists but does not answer.
 */
export async function listPodsApi(
  socket: string,
  opts: { timeoutMs: number; exists(path: string): boolean },
): Promise<PodIdentity[] | undefined> {
  if (!opts.exists(socket)) return undefined;
  const channel = new GrpcClient(socket);
  try {
    const bytes = await channel.unary(PODS_API_LIST_PATH, encodeMessage(PODS_API_PROTO, 'ListPodsRequest', {}), {
      timeoutMs: opts.timeoutMs,
    });
    const res = decodeMessage(PODS_API_PROTO, 'ListPodsResponse', bytes) as { pods: Buffer[] };
    return res.pods.map(decodePodIdentity);
  } catch (err) {
    if (!(err instanceof GrpcStatusError)) throw err;
    if (err.code === Status.FAILED_PRECONDITION) {
      throw new SyncpodError(
        `Pods API ${socket}: kubelet has not finished reading its pod sources yet (${err.details || 'FAILED_PRECONDITION'}); try again`,
      );
    }
    if (err.code === Status.UNIMPLEMENTED)
      throw new SyncpodError(`Pods API ${socket}: ${PODS_API_LIST_PATH} is not served (another API version?)`);
    if (err.code === Status.DEADLINE_EXCEEDED)
      throw new SyncpodError(`Pods API ${socket}: no answer within ${opts.timeoutMs} ms`);
    throw new SyncpodError(`Pods API ${socket}: ${err.details || errorLine(err)}`);
  } finally {
    channel.close();
  }
}
