// What exec, attach and port-forward share: the streaming flow's dependencies and the target they name
// (an ID, or kubectl's --pod/-n/--container). Flows in src/stream/.
import type { Context } from './context';
import type { StreamDeps } from '../stream/exec';
import type { TargetFlags } from '../state/targets';
import { SyncpodError } from '../errors';

/** Quiet time after local stdin EOF before the session is closed (README: "Ending stdin"). */
export const EOF_LINGER_MS = 500;

export function deps(ctx: Context, signal?: AbortSignal): StreamDeps {
  const s = ctx.settings();
  return {
    runtime: ctx.cri().runtime,
    io: ctx.io as StreamDeps['io'],
    timeoutMs: s.timeoutMs,
    debug: (l) => ctx.debug(l),
    signal,
  };
}

export function target(
  args: string[],
  opts: { pod?: string; namespace?: string; container?: string },
): { target: TargetFlags; rest: string[] } {
  if (opts.pod !== undefined)
    return { target: { pod: opts.pod, namespace: opts.namespace, container: opts.container }, rest: args };
  if (opts.namespace !== undefined) throw new SyncpodError('--namespace needs --pod');
  return { target: { id: args[0], container: opts.container }, rest: args.slice(1) };
}
