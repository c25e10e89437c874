// `plan --node`: every pod this node should run against everything it runs. Load the desired pods
// (static pods, given files, the Pods API), list the runtime once, observe each desired pod from
// those lists, plan it with kubelet.syncPod's preflight, and find the orphans in the same lists: the
// orphan view costs no CRI call beyond what planning makes (2 lists, 1 Status, 1 ListImages when a
// start is planned, a status call for each desired pod's newest sandbox and each of its containers
// that is not running: the lists carry the rest).
import * as fs from 'node:fs';
import * as os from 'node:os';
import { onHost } from '../config/host-root';
import type { SysctlNode } from '../plan/plan';
import { sysctlNodeOf } from './node-settings';
import { SyncpodError } from '../errors';
import { parseFeatureGates } from '../kubelet/features';
import { resolveKubeletRules } from '../kubelet/kubelet-version';
import type { NodeProfile } from '../node/types';
import { podsApiSocket } from '../state/pods-api';
import { detectedForRules, type ResolvedNodeFlags } from './node-profile';
import type { VolumeData } from '../kubelet/volumes';
import type { RuntimeService, ImageService } from '../cri/grpc-runtime-service';
import type * as T from '../cri/types';
import { rulesOf, type ComputePodActionsOptions } from '../kubelet/compute-pod-actions';
import { findOrphans } from '../kubelet/orphans';
import { buildNodePlan, staticPodReplacement, type NodePlan, type NodePodPlan } from '../plan/node-plan';
import { addAssumption, buildPlan, type PlanAssumption } from '../plan/plan';
import { buildPreflight } from '../plan/preflight';
import {
  imageFacts,
  mountedV1Subsystems,
  orphansWithCgroups,
  podFsFacts,
  runtimeNetwork,
  type NodeCgroupSettings,
} from '../state/node-facts';
import { listRuntime, observePods, type ObservedPod, type RuntimeLists } from '../state/pod-status';
import type { PodIdentity } from '../state/pods-api';
import type { SyncFs } from '../sync/types';
import { loadNodeInputs, type DesiredPod, type NodeInputDeps } from './node-inputs';
import { allInOrder } from '../cri/together';

export interface NodePlanRequest {
  nodeName: string;
  staticPodPath?: string;
  files: string[];
  kubeletRoot: string;
  /** The Pods API socket to read; undefined: do not read it. */
  podsApiSocket?: string;
  cgroup: NodeCgroupSettings;
  options: ComputePodActionsOptions;
  /** --configmap/--secret/--service-account-token data and --skip-volume (default: none). */
  volumeData?: VolumeData;
  /** What kubelet's sysctl admission reads on the node. */
  sysctlNode?: SysctlNode;
}

/** The node flags a node plan reads (the node profile already filled the unset ones). */
export interface NodeRequestFlags extends ResolvedNodeFlags {
  kubeletVersion?: string;
  /** --feature-gates as given (they win over the kubelet's own, from the profile). */
  featureGates?: string;
  staticPodPath?: string;
  /** --pods-api-socket: a path, or 'none' / '' for no Pods API. */
  podsApiSocket?: unknown;
}

/** Flags, files and the node profile -> the node plan request; the kubelet rules are resolved once here. */
export function nodePlanRequest(
  flags: NodeRequestFlags,
  files: string[],
  profile: NodeProfile,
  hostRoot: string,
): NodePlanRequest {
  const kubeletRoot = String(flags.podDirRoot ?? '/var/lib/kubelet');
  const driver = flags.cgroupDriver ?? 'cgroupfs';
  if (driver !== 'cgroupfs' && driver !== 'systemd')
    throw new SyncpodError(`--cgroup-driver: must be cgroupfs or systemd, got "${driver}"`);
  const socketFlag = flags.podsApiSocket as string | undefined;
  const featureGates = { ...detectedForRules(profile).featureGates, ...parseFeatureGates(flags.featureGates) };
  return {
    nodeName: flags.nodeName ?? os.hostname(),
    staticPodPath: flags.staticPodPath,
    files,
    kubeletRoot,
    podsApiSocket: socketFlag === 'none' || socketFlag === '' ? undefined : (socketFlag ?? podsApiSocket(kubeletRoot)),
    cgroup: {
      cgroupsPerQOS: flags.cgroupsPerQos,
      cgroupRoot: flags.cgroupRoot,
      cgroupDriver: driver,
      cgroupVersion: fs.existsSync(onHost(hostRoot, '/sys/fs/cgroup/cgroup.controllers')) ? 2 : 1,
    },
    options: {
      kubeletVersion: flags.kubeletVersion,
      featureGates,
      rules: resolveKubeletRules(flags.kubeletVersion, featureGates),
    },
    // The kernel is shared with the host (a DaemonSet's container reports the node's release).
    sysctlNode: sysctlNodeOf(flags, { kernelRelease: () => os.release() }),
  };
}

export interface NodePlanDeps {
  runtime: Pick<RuntimeService, 'call'>;
  image: Pick<ImageService, 'call'>;
  fs: SyncFs;
  inputs: NodeInputDeps;
  /** ListPods of the Pods API; undefined when there is no socket. */
  podsApi(socket: string): Promise<PodIdentity[] | undefined>;
  now(): number;
}

export interface PlannedNodePod {
  desired: DesiredPod;
  observed: ObservedPod;
  plan: NodePodPlan;
}

export interface NodePlanResult {
  plan: NodePlan;
  pods: PlannedNodePod[];
  lists: RuntimeLists;
  status: T.StatusResponse | undefined;
  notes: string[];
  /** Whether the Pods API answered (its pods are desired-pod knowledge). */
  podsApiRead: boolean;
}

const STATIC_UID_NOTE: Omit<PlanAssumption, 'affectsOutcome'> = {
  id: 'static-uid-computed',
  short: "The static pod's uid was computed by syncpod, not taken from kubelet.",
  detail:
    'syncpod hashes the manifest, node name and path (fnv-128a); kubelet hashes a Go dump of its internal pod type: give the mirror pods (kubectl get pods -o yaml) or read the Pods API to match the pod kubelet already runs.',
};

/** Plans every desired pod of the node and finds the orphans. */
export async function planNode(req: NodePlanRequest, deps: NodePlanDeps): Promise<NodePlanResult> {
  let podsApi: PodIdentity[] | undefined;
  const problems: string[] = [];
  if (req.podsApiSocket) {
    try {
      podsApi = await deps.podsApi(req.podsApiSocket);
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  const inputs = await loadNodeInputs(
    {
      nodeName: req.nodeName,
      staticPodPath: req.staticPodPath,
      files: req.files,
      podsApi,
      podsApiSocket: req.podsApiSocket,
    },
    deps.inputs,
  );
  problems.push(...inputs.problems);

  const [lists, statusRes] = await allInOrder([
    listRuntime(deps.runtime as RuntimeService),
    deps.runtime.call('Status', { verbose: false }),
  ]);
  const observed = await observePods(
    deps.runtime as RuntimeService,
    inputs.desired.map((d) => ({
      namespace: d.pod.metadata?.namespace ?? 'default',
      name: d.pod.metadata?.name ?? '',
      uid: d.pod.metadata?.uid ?? '',
    })),
    { lists, lean: true, sandboxOrder: rulesOf(req.options).sandboxOrder },
  );
  const now = deps.now();
  const network = runtimeNetwork(statusRes);
  const v1Subsystems =
    req.cgroup.cgroupVersion === 1 ? mountedV1Subsystems(deps.fs, req.cgroup.cgroupMount) : undefined;

  const planned = inputs.desired.map((d, i) => {
    const o = observed[i];
    const isStatic = d.source.kind === 'static-pod';
    const plan = buildPlan({
      pod: d.pod,
      podStatus: o.status,
      now,
      options: req.options,
      matchedBy: o.match.by,
      // A static pod is exactly what kubelet holds (no API server, no admission): nothing is missing.
      podSource: isStatic || d.pod.metadata?.uid ? 'api-server' : 'manifest',
      volumeData: req.volumeData,
      sysctlNode: req.sysctlNode,
    });
    if (isStatic && d.source.uidSource === 'computed') addAssumption(plan, { ...STATIC_UID_NOTE });
    return { d, o, plan };
  });

  let images: T.Image[] = [];
  if (planned.some((p) => p.plan.steps.some((s) => s.action.startsWith('start-')))) {
    images = (await deps.image.call('ListImages', {})).images;
  }

  const pods: PlannedNodePod[] = planned.map(({ d, o, plan }) => {
    // A pod with no uid yet (a manifest never run here) gets one at sync: its paths are shown with <uid>.
    const pod = d.pod.metadata?.uid
      ? d.pod
      : { ...d.pod, metadata: { ...d.pod.metadata, uid: o.match.uid || '<uid>' } };
    const facts = {
      network,
      ...podFsFacts(deps.fs, pod, {
        ...req.cgroup,
        kubeletRoot: req.kubeletRoot,
        v1Subsystems,
        podLevelResources: rulesOf(req.options).gates.PodLevelResources,
      }),
      images: imageFacts(images, d.pod, plan),
      volumes: plan.volumes,
    };
    const built = buildPreflight(d.pod, facts);
    // A pod kubelet's admission rejects (SysctlForbidden) never gets to the preflight: blocked.
    const preflight = plan.rejected ? { ...built, blocked: plan.blocked } : built;
    const nodePodPlan: NodePodPlan = { ...plan, source: d.source, preflight };
    return { desired: d, observed: o, plan: nodePodPlan };
  });

  const desiredUids = new Set<string>([...inputs.knownUids]);
  for (const p of pods) {
    if (p.desired.pod.metadata?.uid) desiredUids.add(p.desired.pod.metadata.uid);
    if (p.observed.match.uid) desiredUids.add(p.observed.match.uid);
  }
  const orphans = orphansWithCgroups(
    deps.fs,
    findOrphans(desiredUids, lists.sandboxes, lists.containers, now),
    req.cgroup,
  );
  // A static pod file that changed: a new uid with nothing on the node, and the old uid of the same
  // name among the orphans. One entry, the old pod's termination before the new pod's sync.
  // The old uid's running containers are read (verbose) to say what changed in the file.
  const replacements = pods.flatMap((p) => {
    const st = p.observed.status;
    if (p.desired.source.kind !== 'static-pod' || st.sandboxStatuses.length || st.containerStatuses.length) return [];
    const old = orphans.find((o) => o.namespace === p.plan.pod.namespace && o.name === p.plan.pod.name);
    return old ? [{ p, old }] : [];
  });
  const olds = await observePods(
    deps.runtime as RuntimeService,
    replacements.map(({ old }) => ({ namespace: old.namespace, name: old.name, uid: old.uid })),
    { lists, lean: true, sandboxOrder: rulesOf(req.options).sandboxOrder },
  );
  const rules = rulesOf(req.options);
  replacements.forEach(({ p, old }, i) => {
    p.plan.replaces = staticPodReplacement(p.plan, old, {
      pod: p.desired.pod,
      containers: { statuses: olds[i]!.status.containerStatuses, rules },
    });
  });
  return {
    plan: buildNodePlan(
      req.nodeName,
      pods.map((p) => p.plan),
      orphans,
      problems,
      new Date(now).toISOString(),
    ),
    pods,
    lists,
    status: statusRes,
    notes: inputs.notes,
    podsApiRead: podsApi !== undefined,
  };
}
