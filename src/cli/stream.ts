// Streaming commands: exec, attach, port-forward (flows in src/stream/).
import type { Context } from './context';
import type { AttachOptions, ExecOptions, PortForwardOptions } from './usage-defs';
import { attachToContainer, execInContainer, type StreamDeps } from '../stream/exec';
import { parsePortSpecs, portForward as forward } from '../stream/port-forward';
import type { TargetFlags } from '../state/targets';
import { parseGoDuration } from '../config/duration';
import { MAX_TIMEOUT_MS } from '../config/settings';
import { SyncpodError } from '../errors';
import { withInterrupt } from './signals';

/** Quiet time after local stdin EOF before the session is closed (README: "Ending stdin"). */
const EOF_LINGER_MS = 500;

function deps(ctx: Context, signal?: AbortSignal): StreamDeps {
  const s = ctx.settings();
  return {
    runtime: ctx.cri().runtime,
    io: ctx.io as StreamDeps['io'],
    timeoutMs: s.timeoutMs,
    debug: (l) => ctx.debug(l),
    signal,
  };
}

function target(
  args: string[],
  opts: { pod?: string; namespace?: string; container?: string },
): { target: TargetFlags; rest: string[] } {
  if (opts.pod !== undefined)
    return { target: { pod: opts.pod, namespace: opts.namespace, container: opts.container }, rest: args };
  if (opts.namespace !== undefined) throw new SyncpodError('--namespace needs --pod');
  return { target: { id: args[0], container: opts.container }, rest: args.slice(1) };
}

/** --timeout for exec -s: whole seconds as crictl (10), or a duration (1m30s). */
function execTimeoutSeconds(value: string | undefined): number {
  if (value === undefined) return 0;
  const ns = /^\d+$/.test(value) ? Number(value) * 1e9 : parseGoDuration(value);
  if (ns === undefined || ns < 0)
    throw new SyncpodError(`--timeout: expected seconds or a duration like 30s, got ${JSON.stringify(value)}`);
  // ExecSync's timeout is int64 seconds, and syncpod waits for it: at most what a timer holds.
  if (ns / 1e6 > MAX_TIMEOUT_MS)
    throw new SyncpodError(`--timeout: at most ${Math.floor(MAX_TIMEOUT_MS / 3.6e6)}h, got ${JSON.stringify(value)}`);
  return Math.ceil(ns / 1e9);
}

export async function exec(ctx: Context, args: string[], opts: ExecOptions): Promise<number> {
  const { target: t, rest } = target(args, opts);
  if (rest[0] === '--') rest.shift(); // kubectl's `exec ID -- CMD`
  const timeoutSeconds = execTimeoutSeconds(opts.timeout);
  if (opts.timeout !== undefined && !opts.sync) throw new SyncpodError('--timeout applies to exec -s (ExecSync) only');
  return withInterrupt((signal) =>
    execInContainer(deps(ctx, signal), {
      target: t,
      cmd: rest,
      stdin: !!opts.interactive,
      tty: !!opts.tty,
      sync: !!opts.sync,
      timeoutSeconds,
      eofLingerMs: EOF_LINGER_MS,
    }),
  );
}

export async function attach(ctx: Context, args: string[], opts: AttachOptions): Promise<number> {
  const { target: t, rest } = target(args, opts);
  if (rest.length) throw new SyncpodError(`attach takes one container, got extra arguments: ${rest.join(' ')}`);
  return withInterrupt((signal) =>
    attachToContainer(deps(ctx, signal), {
      target: t,
      stdin: !!(opts.interactive || opts.stdin),
      tty: !!opts.tty,
      eofLingerMs: EOF_LINGER_MS,
    }),
  );
}

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
