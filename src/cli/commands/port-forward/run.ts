// `syncpod port-forward`: the handler (flags in ./command.ts, man page text in ./man.ts).
import type { Context } from '../../context';
import type { PortForwardOptions } from './command';
import { parsePortSpecs, portForward as forward } from '../../../stream/port-forward';
import { SyncpodError } from '../../../errors';
import { withInterrupt } from '../../signals';
import { EOF_LINGER_MS, deps } from '../../stream-target';

export async function portForward(ctx: Context, args: string[], opts: PortForwardOptions): Promise<number> {
  const t = opts.pod !== undefined ? { pod: opts.pod, namespace: opts.namespace } : { id: args[0] };
  if (opts.pod === undefined && opts.namespace !== undefined) throw new SyncpodError('--namespace needs --pod');
  const ports = parsePortSpecs(opts.pod !== undefined ? args : args.slice(1));
  const addresses = String(opts.address ?? '127.0.0.1')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean)
    .map((a) => (a === 'localhost' ? '127.0.0.1' : a));
  return withInterrupt((signal) =>
    forward(deps(ctx, signal), { target: t, ports, addresses, eofLingerMs: EOF_LINGER_MS }),
  );
}
