// The summary line of a plan, as data (counts) and wording ("Plan: kill 1 container, start 2
// containers." / "No changes. …"), plus the overall line for several plans. Pure.

export interface PlanCounts {
  killPod: number;
  killContainers: number;
  removeInitContainers: number;
  /** RestartAllContainers: containers removed so the pod restarts in place. */
  resetContainers: number;
  /** Containers resized in place (UpdateContainerResources; a container may get one call per resource). */
  updateContainers: number;
  /** Pod-level resize calls (UpdatePodSandboxResources, 1.33+). */
  updatePod: number;
  createSandbox: number;
  startEphemeralContainers: number;
  startInitContainers: number;
  startContainers: number;
  /** Starts that kubelet would currently refuse with CrashLoopBackOff (estimate). */
  heldBack: number;
  /** Other uids of the pod's namespace/name that kubelet would kill and remove (single-pod plans). */
  duplicatePods: number;
  /** kill-pod steps that only stop already stopped sandboxes again (no change). */
  sandboxesStoppedAgain: number;
}

export interface PlanSummary {
  changes: boolean;
  counts: PlanCounts;
  text: string;
}

/** The parts of a plan the summary reads (a Plan satisfies it). */
export interface SummarizablePlan {
  kubeletVersion: string;
  pod: { namespace: string; name: string };
  steps: Array<{ action: string; target?: string; backOff?: { heldBack: boolean }; alreadyStopped?: true }>;
  waiting: string[];
  /** Other uids of the pod's namespace/name and kubelet's verdict on each. */
  duplicates?: Array<{ kubelet: 'kill' | 'remove' }>;
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

export function countSteps(steps: SummarizablePlan['steps']): PlanCounts {
  const counts: PlanCounts = {
    killPod: 0,
    killContainers: 0,
    removeInitContainers: 0,
    resetContainers: 0,
    updateContainers: 0,
    updatePod: 0,
    createSandbox: 0,
    startEphemeralContainers: 0,
    startInitContainers: 0,
    startContainers: 0,
    heldBack: 0,
    duplicatePods: 0,
    sandboxesStoppedAgain: 0,
  };
  const resized = new Set<string>();
  for (const s of steps) {
    switch (s.action) {
      case 'kill-pod':
        if (s.alreadyStopped) counts.sandboxesStoppedAgain++;
        else counts.killPod++;
        break;
      case 'kill-container':
        counts.killContainers++;
        break;
      case 'remove-init-container':
        counts.removeInitContainers++;
        break;
      case 'reset-container':
        counts.resetContainers++;
        break;
      case 'update-container-resources':
        if (!resized.has(s.target ?? '')) counts.updateContainers++;
        resized.add(s.target ?? '');
        break;
      case 'update-pod-sandbox-resources':
        counts.updatePod++;
        break;
      case 'create-sandbox':
        counts.createSandbox++;
        break;
      case 'start-ephemeral-container':
        counts.startEphemeralContainers++;
        break;
      case 'start-init-container':
        counts.startInitContainers++;
        break;
      case 'start-container':
        counts.startContainers++;
        break;
    }
    if (s.backOff?.heldBack) counts.heldBack++;
  }
  return counts;
}

/** The action phrases of a plan in SyncPod order, e.g. ["kill 1 container", "start 2 containers"]. */
export function actionPhrases(c: PlanCounts): string[] {
  const parts: string[] = [];
  if (c.killPod) parts.push('kill pod');
  if (c.killContainers) parts.push(`kill ${plural(c.killContainers, 'container', 'containers')}`);
  if (c.removeInitContainers)
    parts.push(`remove ${plural(c.removeInitContainers, 'init container', 'init containers')}`);
  if (c.resetContainers)
    parts.push(`reset ${plural(c.resetContainers, 'container', 'containers')} (restart all in place)`);
  if (c.createSandbox) parts.push('create sandbox');
  if (c.startEphemeralContainers) {
    parts.push(`start ${plural(c.startEphemeralContainers, 'ephemeral container', 'ephemeral containers')}`);
  }
  if (c.startInitContainers) parts.push(`start ${plural(c.startInitContainers, 'init container', 'init containers')}`);
  if (c.updatePod && c.updateContainers)
    parts.push(`resize pod and ${plural(c.updateContainers, 'container', 'containers')} in place`);
  else if (c.updatePod) parts.push('resize pod in place');
  else if (c.updateContainers) parts.push(`resize ${plural(c.updateContainers, 'container', 'containers')} in place`);
  if (c.startContainers) parts.push(`start ${plural(c.startContainers, 'container', 'containers')}`);
  return parts;
}

export function summarizePlan(plan: SummarizablePlan): PlanSummary {
  const counts = countSteps(plan.steps);
  const duplicates = plan.duplicates ?? [];
  counts.duplicatePods = duplicates.length;
  const parts = actionPhrases(counts);
  if (duplicates.length) {
    // Done first: kubelet's housekeeping clears the other uids while the pod itself is synced.
    const verb = duplicates.some((d) => d.kubelet === 'kill') ? 'kill and remove' : 'remove';
    parts.unshift(`${verb} ${plural(duplicates.length, 'duplicate pod (another uid)', 'duplicate pods (other uids)')}`);
  }
  const pod = `${plan.pod.namespace}/${plan.pod.name}`;
  if (parts.length === 0) {
    const text =
      plan.waiting.length > 0
        ? `No changes. Kubelet ${plan.kubeletVersion} waits: ${plan.waiting.join('; ')}.`
        : counts.sandboxesStoppedAgain > 0
          ? `No changes. Pod ${pod} has nothing running and its sandboxes are stopped; kubelet ${plan.kubeletVersion} sends StopPodSandbox again, which changes nothing.`
          : `No changes. Pod ${pod} is what kubelet ${plan.kubeletVersion} would keep running.`;
    return { changes: false, counts, text };
  }
  let text = `Plan: ${parts.join(', ')}.`;
  if (counts.heldBack) {
    text += ` ${plural(counts.heldBack, 'start is', 'starts are')} held back by crash-loop back-off now (estimate).`;
  }
  return { changes: true, counts, text };
}

/** One line for several plans: "3 pods: 1 with changes, 2 without." */
export function summarizePlans(plans: Array<{ summary: PlanSummary }>): string {
  const changed = plans.filter((p) => p.summary.changes).length;
  const total = plans.length;
  if (total === 0) return 'No pods.';
  const unchanged = total - changed;
  if (changed === 0) return `No changes in ${plural(total, 'pod', 'pods')}.`;
  return `${plural(total, 'pod', 'pods')}: ${changed} with changes, ${unchanged} without.`;
}
