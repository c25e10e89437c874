// Probe results as planner input. kubelet keeps them in its prober managers' memory; syncpod takes
// them from the user (the command line's flags, each given here with the label it is known by) and, for a
// `kubectl get pod -o yaml` dump, from its status: containerStatuses[] / initContainerStatuses[]
// `started: true` on the instance that is still the newest means kubelet's startup manager holds
// Success for it. Flags win over the status. Every result says where it came from. Pure.

import { SyncpodError } from '../errors';
import type { Container, Pod, PodStatus as ApiPodStatus } from '../kubelet/api-types';
import type { ProbeResults } from '../kubelet/pod-actions';
import type { PodStatus } from '../kubelet/types';
import type { PlanProbeInput } from './plan';

/** Containers the user says hold one probe result; `label` is how the user gave them (a flag's name). */
export interface GivenProbeResult {
  label: string;
  probe: PlanProbeInput['probe'];
  result: PlanProbeInput['result'];
  containers: readonly string[];
}

/** `containerd://abc` → `abc`. */
function runtimeId(containerID: string | undefined): string {
  if (!containerID) return '';
  const i = containerID.indexOf('://');
  return i < 0 ? containerID : containerID.slice(i + 3);
}

/**
 * The probe results the plan uses for one pod and where each came from. A given result naming a
 * container the pod lacks, or a container given two results of one probe, is an error naming the
 * labels the results were given with.
 */
export function probeInputs(
  pod: Pod,
  podStatus: PodStatus,
  given: readonly GivenProbeResult[],
  apiStatus?: ApiPodStatus,
): { results: ProbeResults; inputs: PlanProbeInput[] } {
  const specs = new Map<string, Container>();
  for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) specs.set(c.name, c);
  const podRef = `${pod.metadata?.namespace}/${pod.metadata?.name}`;
  const newest = (name: string) => podStatus.containerStatuses.find((s) => s.name === name);
  const inputs: PlanProbeInput[] = [];
  const labelOf = new Map<string, string>();

  for (const { label, probe, result, containers } of given) {
    for (const name of containers) {
      if (!specs.has(name)) throw new SyncpodError(`${label}: pod ${podRef} has no container named "${name}"`);
      const key = `${probe}/${name}`;
      const earlier = labelOf.get(key);
      if (earlier !== undefined && earlier !== label)
        throw new SyncpodError(`${label}: container "${name}" of pod ${podRef} is also given ${earlier}`);
      labelOf.set(key, label);
      const s = newest(name);
      // No instance: there is nothing for kubelet to hold a result for.
      if (s && !inputs.some((i) => i.probe === probe && i.container === name)) {
        inputs.push({ container: name, containerId: s.id, probe, result, from: 'flag' });
      }
    }
  }

  // The dump's status: a started container that is still the newest instance has a startup Success.
  for (const st of [...(apiStatus?.initContainerStatuses ?? []), ...(apiStatus?.containerStatuses ?? [])]) {
    const spec = specs.get(st.name);
    if (!spec?.startupProbe || st.started !== true || !st.state?.running) continue;
    if (labelOf.has(`startup/${st.name}`)) continue;
    const s = newest(st.name);
    if (!s || s.id !== runtimeId(st.containerID)) continue;
    inputs.push({ container: st.name, containerId: s.id, probe: 'startup', result: 'Success', from: 'pod-status' });
  }

  const results: ProbeResults = { liveness: {}, startup: {} };
  for (const i of inputs) results[i.probe]![i.containerId] = i.result;
  inputs.sort((a, b) =>
    a.container === b.container ? (a.probe < b.probe ? -1 : 1) : a.container < b.container ? -1 : 1,
  );
  return { results, inputs };
}
