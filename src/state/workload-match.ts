// Finding a workload's live pod on this node: its controller names pods `<name>-<hash>-<suffix>`
// (Deployment), `<name>-<suffix>` (ReplicaSet, DaemonSet, Job, ReplicationController),
// `<name>-<ordinal>` (StatefulSet), and gives them the template's labels plus its own; the CRI
// sandbox carries the pod's labels (kubelet's newPodLabels), so the live pod is the newest sandbox
// of the namespace whose labels hold the template's and whose name fits the controller's pattern.

import type * as T from '../cri/types';
import { LABEL_POD_NAME, LABEL_POD_NAMESPACE, LABEL_POD_UID } from '../kubelet/types';
import type { ControllerShape } from '../manifest/types';
import { byNewest, type RuntimeLists } from './pod-status';

export interface WorkloadMatch {
  /** The live pod's name and uid. */
  name: string;
  uid: string;
  /** The live sandbox's labels (the pod's labels and kubelet's). */
  labels: Record<string, string>;
  /** How it was found, in words (for the plan). */
  how: string;
  /** Other live pods of the workload on this node (names), newest first. */
  others: string[];
}

const SUFFIX = '[bcdfghjklmnpqrstvwxz2456789]{5}';
const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The controller's pod-name pattern and the label values the name determines. */
function namePattern(shape: ControllerShape): {
  re: RegExp;
  shown: string;
  check?: (m: RegExpExecArray, labels: Record<string, string>) => boolean;
} {
  const n = escapeRegex(shape.name);
  switch (shape.kind) {
    case 'Deployment':
      // The ReplicaSet is `<deployment>-<pod-template-hash>`; its pods add a random suffix.
      return {
        re: new RegExp(`^${n}-([a-z0-9]+)-${SUFFIX}$`),
        shown: `${shape.name}-<pod-template-hash>-<suffix>`,
        check: (m, l) => l['pod-template-hash'] === m[1],
      };
    case 'StatefulSet':
      return { re: new RegExp(`^${escapeRegex(shape.podName)}$`), shown: shape.podName };
    case 'CronJob':
      return { re: new RegExp(`^${n}-[0-9]+-${SUFFIX}$`), shown: `${shape.name}-<scheduled>-<suffix>` };
    case 'Job':
      if (shape.ordinal !== undefined)
        return {
          re: new RegExp(`^${n}-${shape.ordinal}-${SUFFIX}$`),
          shown: `${shape.name}-${shape.ordinal}-<suffix>`,
        };
      return { re: new RegExp(`^${n}-(?:[0-9]+-)?${SUFFIX}$`), shown: `${shape.name}-<suffix>` };
    default:
      return { re: new RegExp(`^${n}-${SUFFIX}$`), shown: `${shape.name}-<suffix>` };
  }
}

/**
 * The newest live pod of the workload in `namespace`, or undefined. Labels the controller sets
 * with known values (a StatefulSet's pod name, a Job's name, a completion index) must match too.
 */
export function matchWorkloadPod(
  lists: RuntimeLists,
  namespace: string,
  shape: ControllerShape,
): WorkloadMatch | undefined {
  const want = { ...shape.matchLabels, ...shape.labelsAdded };
  // A DaemonSet's template generation changes with every template edit: a live pod of an older
  // generation is still the DaemonSet's pod (the plan then shows what changed).
  delete want['pod-template-generation'];
  const pattern = namePattern(shape);
  const found: Array<{ s: T.PodSandbox; name: string; uid: string }> = [];
  for (const s of [...lists.sandboxes].sort(byNewest)) {
    const ns = s.metadata?.namespace ?? s.labels[LABEL_POD_NAMESPACE];
    const name = s.metadata?.name ?? s.labels[LABEL_POD_NAME] ?? '';
    if (ns !== namespace) continue;
    const m = pattern.re.exec(name);
    if (!m) continue;
    if (!Object.entries(want).every(([k, v]) => s.labels[k] === v)) continue;
    if (pattern.check && !pattern.check(m, s.labels)) continue;
    const uid = s.labels[LABEL_POD_UID] ?? s.metadata?.uid ?? '';
    if (uid === '' || found.some((f) => f.uid === uid)) continue;
    found.push({ s, name, uid });
  }
  if (found.length === 0) return undefined;
  const [first, ...rest] = found;
  const selector = Object.entries(shape.matchLabels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  const how =
    `live pod ${first!.name} (uid ${first!.uid}) taken as the ${shape.kind}'s pod: the newest sandbox in namespace ${namespace} named ${pattern.shown}` +
    (selector ? ` with the template's labels ${selector}` : '') +
    (rest.length ? `; ${rest.length} more on this node: ${rest.map((r) => r.name).join(', ')}` : '');
  return { name: first!.name, uid: first!.uid, labels: { ...first!.s.labels }, how, others: rest.map((r) => r.name) };
}
