// The order in which kubelet lists a pod's sandboxes, newest first. Every SyncPod decision that
// reads "the newest sandbox" (podSandboxChanged, the pod IP, the active sandbox of 1.37's init path,
// the sandbox a container is created in) reads the first of this order, so it is mirrored per minor
// (read in k8s.io/kubernetes v1.29.6 … v1.37.2, pkg/kubelet/kuberuntime):
// - up to 1.34, GetPodStatus lists the pod's sandboxes and sorts them by creation time alone;
// - 1.35 sorts them by attempt alone (creation time only for a sandbox without metadata);
// - from 1.36, GetPods sorts every sandbox by attempt, and within one attempt (or without metadata)
//   by creation time, then by id, and GetPodStatus takes the pod's sandboxes in that order.
// Kubelet sorts with Go's sort.Sort, which for a pod's few sandboxes (up to 12) is an insertion sort
// over the runtime's list order: sandboxes the comparison does not tell apart keep that order.
// The same insertion sort over the same list order gives kubelet's result. Pure.

/** How a kubelet minor orders a pod's sandboxes. */
export type SandboxOrder = 'created' | 'attempt' | 'attempt-then-created';

/** The sandbox order of a kubelet minor. */
export function sandboxOrderOfMinor(minor: number): SandboxOrder {
  if (minor <= 34) return 'created';
  if (minor === 35) return 'attempt';
  return 'attempt-then-created';
}

/** What the order reads of a sandbox: its id, creation time (ns, decimal) and attempt (none without metadata). */
export interface SandboxOrderKey {
  id: string;
  createdAt: string;
  attempt: number | undefined;
}

const created = (s: SandboxOrderKey): bigint => BigInt(s.createdAt || '0');

/** Whether a comes before b in kubelet's order (Go's Less). */
export function sandboxBefore(order: SandboxOrder, a: SandboxOrderKey, b: SandboxOrderKey): boolean {
  const noAttempt = a.attempt === undefined || b.attempt === undefined;
  switch (order) {
    case 'created':
      return created(a) > created(b);
    case 'attempt':
      return noAttempt ? created(a) > created(b) : (a.attempt as number) > (b.attempt as number);
    case 'attempt-then-created':
      if (noAttempt || a.attempt === b.attempt) {
        if (created(a) !== created(b)) return created(a) > created(b);
        return a.id < b.id;
      }
      return (a.attempt as number) > (b.attempt as number);
  }
}

/**
 * The items newest first as kubelet orders them, from the runtime's list order: an insertion sort,
 * as Go's sort.Sort does for up to 12 items (a pod has a few sandboxes). Returns a new array.
 */
export function inKubeletSandboxOrder<T>(
  order: SandboxOrder,
  items: readonly T[],
  key: (t: T) => SandboxOrderKey,
): T[] {
  const out = [...items];
  const keys = out.map(key);
  for (let i = 1; i < out.length; i++) {
    for (let j = i; j > 0 && sandboxBefore(order, keys[j], keys[j - 1]); j--) {
      [out[j], out[j - 1]] = [out[j - 1], out[j]];
      [keys[j], keys[j - 1]] = [keys[j - 1], keys[j]];
    }
  }
  return out;
}
