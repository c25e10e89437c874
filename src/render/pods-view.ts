// `pods`: crictl's table (POD ID, CREATED, STATE, NAME, NAMESPACE, ATTEMPT, RUNTIME), -q and -o json|yaml.

import type { PodSandbox, PodSandboxState } from '../cri/types';
import type { Colours } from './colour';
import { formatEnvelope, formatQuiet, type ListViewOptions } from './list-output';
import { crictlTable } from './table';
import { timeAgo, truncateId } from './text';

export const POD_COLUMNS = ['POD ID', 'CREATED', 'STATE', 'NAME', 'NAMESPACE', 'ATTEMPT', 'RUNTIME'] as const;

/** Table names of pod states. */
export function podStateName(state: PodSandboxState): string {
  return state === 'SANDBOX_READY' ? 'Ready' : state === 'SANDBOX_NOTREADY' ? 'NotReady' : String(state);
}

function podStateCell(state: PodSandboxState, colours: Colours): string {
  const paint = state === 'SANDBOX_READY' ? colours.good : colours.bad;
  return paint(podStateName(state));
}

/** The runtime handler, or "(default)" when empty. */
export function runtimeHandlerName(handler: string): string {
  return handler === '' ? '(default)' : handler;
}

/** Renders pods (already filtered and ordered) as crictl prints them to stdout. */
export function formatPods(pods: readonly PodSandbox[], opts: ListViewOptions): string {
  if (opts.output !== 'table')
    return formatEnvelope(opts.output, 'ListPodSandboxResponse', { items: pods }, opts.toJSON);
  if (opts.quiet) return formatQuiet(pods.map((p) => p.id));
  const rows: string[][] = [POD_COLUMNS.map((name) => opts.colours.header(name))];
  for (const pod of pods) {
    rows.push([
      opts.noTrunc ? pod.id : truncateId(pod.id),
      timeAgo(pod.createdAt, opts.nowNs),
      podStateCell(pod.state, opts.colours),
      pod.metadata?.name ?? '',
      pod.metadata?.namespace ?? '',
      String(pod.metadata?.attempt ?? 0),
      runtimeHandlerName(pod.runtimeHandler),
    ]);
  }
  return crictlTable(rows);
}
