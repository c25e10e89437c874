// The documented classes of difference: what kubelet decides from state it keeps in memory or in
// its checkpoints, which a tool outside kubelet cannot see. A disagreement in none of these is a
// defect of the mirror. Each class is listed in README "Kubelet oracle" with an example scenario.
//
// For kubelet v1.37.2 none is needed (kubelet's cases and seeds 1-7 of 500 agree call for call);
// one class is declared for 1.33-1.36 below, and one for a panic of kubelet's own code (1.29-1.31). The scenarios hold kubelet's own state where the plans assume it: a fresh back-off table, the
// actuated resources equal to what the runtime reports (memory request and pod-level resources as
// the spec), the pod cgroup as those set it, and prober results given to both sides. A class added
// here must match precisely (the scenario's facts and both call lists), never "any resize".
import { sameCalls } from './compare';
import type { Scenario } from './scenario';

/**
 * sidecar-liveness-success: kubelet's prober holds a liveness success for a running sidecar, and
 * kubelet (measured for 1.33–1.36) resizes that sidecar in place only once its liveness probe has a result.
 * syncpod can be told a liveness failure (--liveness-failed) but not a success, so it waits for the
 * probe and plans no resize. The class holds only when the whole difference is that sidecar's
 * UpdateContainerResources calls and the pod-level UpdatePodSandboxResources around them.
 */
function sidecarLivenessSuccess(scenario: Scenario, syncpod: string[], kubelet: string[]): boolean {
  const sidecars = new Set(
    (scenario.pod.spec?.initContainers ?? [])
      .filter((c: any) => c.restartPolicy === 'Always' && c.livenessProbe)
      .map((c: any) => c.name as string)
      .filter((name: string) => scenario.liveness?.[name] === 'success'),
  );
  if (sidecars.size === 0) return false;
  const resized = kubelet.filter((l) => {
    const [op, target] = l.split(' ');
    return op === 'UpdateContainerResources' && sidecars.has(target);
  });
  if (resized.length === 0) return false;
  const rest = kubelet.filter((l) => !resized.includes(l) && !l.startsWith('UpdatePodSandboxResources '));
  const ours = syncpod.filter((l) => !l.startsWith('UpdatePodSandboxResources '));
  return rest.length === ours.length && rest.every((l, i) => l === ours[i]);
}

/**
 * kubelet-kill-duplicate-panic: kubelet's own code panics ("close of closed channel" in its
 * termination ordering, measured for 1.29.6, 1.30.14 and 1.31.14) when it kills a pod in which two
 * running containers have one name: each kill closes that name's channel. A real kubelet process
 * crashes there, after both StopContainer calls, and its next sync goes on from the containers
 * stopped. The class holds only for that panic (once per extra instance), with two running containers of one name in the
 * scenario, and when every call kubelet's code made (it carries on past the recovered panic in the
 * oracle) is the call syncpod plans, in order.
 */
function killDuplicatePanic(scenario: Scenario, syncpod: string[], kubelet: string[], panic?: string): boolean {
  // One panic per extra instance ("; " between them): three running containers of one name, two.
  if (!panic?.split('; ').every((p) => p === 'close of closed channel')) return false;
  const running = (scenario.containers ?? []).filter((c) => c.state === 'CONTAINER_RUNNING').map((c) => c.name);
  if (new Set(running).size === running.length) return false;
  return sameCalls(syncpod, kubelet);
}

export function classify(
  scenario: Scenario,
  syncpod: string[],
  kubelet: string[],
  kubeletPanic?: string,
): string | undefined {
  if (kubeletPanic)
    return killDuplicatePanic(scenario, syncpod, kubelet, kubeletPanic) ? 'kubelet-kill-duplicate-panic' : undefined;
  if (sidecarLivenessSuccess(scenario, syncpod, kubelet)) return 'sidecar-liveness-success';
  return undefined;
}
