// The bulk removals that know kubelet (`stop -a`, `rm -a`, `rmp -a` with --node): which of the
// runtime's sandboxes and containers belong to a pod this node should run. Those are kept — kubelet
// would start them again at once — and the rest go. A pod is the desired pod's when its uid is the
// desired pod's (or kubelet's uid of it: mirror pods, the Pods API), when a desired pod without a
// uid matches it by namespace/name as plan --node matches, or — for a static pod whose uid syncpod
// had to compute — under the static pod's namespace/name at any uid, since the uid kubelet gave it
// is not known here and removing the running static pod would only make kubelet restart it.
import { LABEL_POD_UID } from '../kubelet/types';
import { SyncpodError, errorLine } from '../errors';
import { podsApiSocket, type PodIdentity } from '../state/pods-api';
import { listRuntime, matchPods, type RuntimeLists } from '../state/pod-status';
import type { NodePlanDeps } from './node-plan';
import { loadNodeInputs, type NodeInputDeps, type NodeInputRequest } from './node-inputs';

export interface DesiredOwners {
  /** Pod uid -> why it stays ("desired pod ns/name", "pod known to kubelet"). */
  owners: Map<string, string>;
  /** Desired pods that could not be read: removing anything is unsafe then. */
  problems: string[];
}

/** The owners of live pods among the node's desired pods (no CRI call: the lists are given). */
export async function desiredOwners(
  req: NodeInputRequest,
  deps: NodeInputDeps,
  lists: RuntimeLists,
): Promise<DesiredOwners> {
  const inputs = await loadNodeInputs(req, deps);
  const owners = new Map<string, string>();
  const refs = inputs.desired.map((d) => {
    const computed = d.source.kind === 'static-pod' && d.source.uidSource === 'computed';
    return {
      namespace: d.pod.metadata?.namespace ?? 'default',
      name: d.pod.metadata?.name ?? '',
      uid: computed ? '' : (d.pod.metadata?.uid ?? ''),
      computed,
      given: d.pod.metadata?.uid ?? '',
    };
  });
  matchPods(refs, lists).forEach((m, i) => {
    const r = refs[i]!;
    const why = `desired pod ${r.namespace}/${r.name}`;
    for (const uid of [r.given, m.uid, ...(r.computed ? m.candidates : [])]) if (uid) owners.set(uid, why);
  });
  for (const uid of inputs.knownUids)
    if (!owners.has(uid)) owners.set(uid, 'pod known to kubelet (finished, or listed by its Pods API)');
  return { owners, problems: inputs.problems };
}

/** The pod uid label of a sandbox or container ('' without one: made by hand, never a desired pod's). */
/**
 * `--node` of the bulk removals: the owners among the runtime's pods of the node's desired pods (the
 * given inputs, and the pods the kubelet's Pods API names where its socket exists). Problems reading
 * an input are returned (removing anything is unsafe then); no desired pod input at all is refused.
 */
export async function ownersOnNode(
  inputs: { nodeName: string; staticPodPath?: string; files: string[] },
  kubeletRootDir: string,
  deps: NodePlanDeps,
): Promise<DesiredOwners> {
  const socket = podsApiSocket(kubeletRootDir);
  const problems: string[] = [];
  let podsApi: PodIdentity[] | undefined;
  try {
    podsApi = await deps.podsApi(socket);
  } catch (err) {
    problems.push(errorLine(err));
  }
  if (inputs.staticPodPath === undefined && inputs.files.length === 0 && podsApi === undefined && problems.length === 0)
    throw new SyncpodError(
      "--node: no desired pods were given (no --static-pod-path, no kubelet's staticPodPath, no --pods, no kubelet Pods API), so nothing would be kept; nothing was done",
    );
  const lists: RuntimeLists = await listRuntime(deps.runtime);
  const r = await desiredOwners(
    { ...inputs, podsApi, podsApiSocket: podsApi ? socket : undefined },
    deps.inputs,
    lists,
  );
  r.problems.unshift(...problems);
  return r;
}

export function podUidOf(labels: Record<string, string> | undefined): string {
  return labels?.[LABEL_POD_UID] ?? '';
}
