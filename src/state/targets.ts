// Which container or pod a command means (exec, attach, port-forward, logs): an ID (or unique
// prefix), as crictl takes it, or names as kubectl takes them (`--pod NAME [-n NAMESPACE]
// [--container NAME]`), matched on the CRI metadata of the newest ready sandbox (for logs, of the
// newest sandbox when none is ready: a finished pod's logs stay readable).
import { SyncpodError } from '../errors';
import type { Container, PodSandbox } from '../cri/types';
import { resolveIdPrefix } from './filters';
import { compareInt64Strings } from '../cri/int64';

export interface TargetFlags {
  /** Container or pod ID / unique prefix (positional). */
  id?: string;
  pod?: string;
  namespace?: string;
  container?: string;
}

export interface TargetLister {
  listPods(): Promise<PodSandbox[]>;
  listContainers(podSandboxId?: string): Promise<Container[]>;
}

const newestFirst = <T extends { createdAt: string }>(a: T, b: T) => compareInt64Strings(b.createdAt, a.createdAt);

export interface TargetChoice {
  /** Also a sandbox that is not ready, when the pod has no ready one (logs); default false. */
  notReady?: boolean;
}

/** The newest ready sandbox with this name and namespace (default "default"). */
export async function resolvePodByName(
  lister: TargetLister,
  name: string,
  namespace = 'default',
  choice: TargetChoice = {},
): Promise<PodSandbox> {
  const pods = (await lister.listPods())
    .filter((p) => p.metadata?.name === name && p.metadata?.namespace === namespace)
    .sort(newestFirst);
  if (pods.length === 0) throw new SyncpodError(`no pod sandbox named ${namespace}/${name}`);
  const ready = pods.find((p) => p.state === 'SANDBOX_READY') ?? (choice.notReady ? pods[0] : undefined);
  if (!ready)
    throw new SyncpodError(
      `pod ${namespace}/${name} has no ready sandbox (newest ${pods[0]!.id.slice(0, 13)} is not ready)`,
    );
  return ready;
}

/** The pod sandbox ID for port-forward: the positional ID prefix, or --pod/-n. */
export async function resolvePodTarget(lister: TargetLister, flags: TargetFlags): Promise<string> {
  if (flags.pod !== undefined) return (await resolvePodByName(lister, flags.pod, flags.namespace)).id;
  if (flags.id === undefined) throw new SyncpodError('a pod sandbox ID (or --pod NAME) is required');
  return resolveIdPrefix(
    flags.id,
    (await lister.listPods()).map((p) => p.id),
    'pod sandbox',
  );
}

/** What a container target needs before anything is asked: an ID, or --pod (which --container needs). */
export function checkContainerTarget(flags: TargetFlags): void {
  if (flags.pod !== undefined) return;
  if (flags.container !== undefined) throw new SyncpodError('--container needs --pod (or give a container ID)');
  if (flags.id === undefined) throw new SyncpodError('a container ID (or --pod NAME --container NAME) is required');
}

/** The container for exec/attach/logs: the positional ID prefix, or --pod/-n/--container. */
export async function resolveContainerTarget(
  lister: TargetLister,
  flags: TargetFlags,
  choice: TargetChoice = {},
): Promise<Container> {
  checkContainerTarget(flags);
  if (flags.pod === undefined) {
    const containers = await lister.listContainers();
    const id = resolveIdPrefix(
      flags.id!, // checkContainerTarget: without --pod there is an ID
      containers.map((c) => c.id),
      'container',
    );
    return containers.find((c) => c.id === id)!;
  }
  const pod = await resolvePodByName(lister, flags.pod, flags.namespace, choice);
  const containers = (await lister.listContainers(pod.id)).sort(newestFirst);
  const where = `pod ${pod.metadata?.namespace}/${pod.metadata?.name}`;
  if (flags.container === undefined) {
    const names = [...new Set(containers.map((c) => c.metadata?.name ?? ''))].sort();
    if (names.length === 1) return containers.find((c) => c.state === 'CONTAINER_RUNNING') ?? containers[0]!;
    if (names.length === 0) throw new SyncpodError(`${where} has no containers`);
    throw new SyncpodError(`${where} has several containers; choose one with --container (${names.join(', ')})`);
  }
  const named = containers.filter((c) => c.metadata?.name === flags.container);
  if (named.length === 0) throw new SyncpodError(`${where} has no container named ${JSON.stringify(flags.container)}`);
  return named.find((c) => c.state === 'CONTAINER_RUNNING') ?? named[0]!;
}
