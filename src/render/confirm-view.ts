// sync's question before it kills: the plan's steps that stop or remove something, each with its
// reason, then one question. Rendered from the Plan only.
import type { Plan } from '../plan/plan';

const STOPS_OR_REMOVES = new Set(['kill-pod', 'kill-container', 'reset-container', 'remove-init-container']);

/** The lines of the question (the caller adds ` [y/N] `): what is stopped or removed and why, then "Go ahead?". */
export function killConfirmation(plan: Pick<Plan, 'pod' | 'steps' | 'duplicates'>): string {
  const lines = [`sync of ${plan.pod.namespace}/${plan.pod.name} stops or removes:`];
  for (const d of plan.duplicates) {
    const running = d.containers.filter((c) => c.state === 'running').length;
    lines.push(
      `  first  ${d.kubelet === 'kill' ? 'kill and remove' : 'remove'} duplicate uid ${d.uid}` +
        (running ? ` (${running} running container${running === 1 ? '' : 's'})` : '') +
        `: ${d.reason}`,
    );
  }
  for (const s of plan.steps.filter((x) => STOPS_OR_REMOVES.has(x.action))) {
    const id = s.containerId ? ` ${s.containerId.slice(0, 13)}` : '';
    lines.push(`  ${s.step}  ${s.action} ${s.target}${id}: ${s.reason}`);
  }
  lines.push('Go ahead?');
  return lines.join('\n');
}
