// exec and attach: find the container, ask the runtime for a streaming URL (or run ExecSync for
// -s), run the session, and turn its end into syncpod's exit code (the command's, as kubectl).
import { SyncpodError } from '../errors';
import { GrpcStatusError, Status } from '../cri/grpc-client';
import type { RuntimeService } from '../cri/grpc-runtime-service';
import type { Container } from '../cri/types';
import { resolveContainerTarget, type TargetFlags } from '../state/targets';
import { CHANNEL_PROTOCOLS } from './channels';
import { openStream } from './connect';
import { runtimeLister } from './lister';
import { runRemoteCommand, type SessionEnd } from './remote-command';
import { requireTerminal, withRawTerminal, type TerminalInput, type TerminalOutput } from './terminal';

export interface StreamIo {
  stdin: NodeJS.ReadableStream & TerminalInput;
  stdout: NodeJS.WritableStream & TerminalOutput;
  stderr: NodeJS.WritableStream;
}

export interface StreamDeps {
  runtime: RuntimeService;
  io: StreamIo;
  /** Deadline of each CRI call and of the WebSocket handshake. */
  timeoutMs: number;
  debug?: (line: string) => void;
  /** Aborted on Ctrl-C (without -t: with -t, Ctrl-C is a byte for the remote terminal). */
  signal?: AbortSignal;
}

export interface SessionOptions {
  target: TargetFlags;
  stdin: boolean;
  tty: boolean;
  /** Quiet time after local stdin EOF before the connection is closed (remote-command.ts). */
  eofLingerMs: number;
}

/** Exit code 130 for a session ended by Ctrl-C, as a shell reports SIGINT. */
const INTERRUPTED = 130;

async function runningContainer(deps: StreamDeps, target: TargetFlags): Promise<Container> {
  const c = await resolveContainerTarget(runtimeLister(deps.runtime), target);
  if (c.state !== 'CONTAINER_RUNNING') {
    const state = c.state.replace(/^CONTAINER_/, '').toLowerCase();
    throw new SyncpodError(
      `container ${c.id.slice(0, 13)} (${c.metadata?.name ?? ''}) is not running (state ${state})`,
    );
  }
  return c;
}

function exitCodeOf(end: SessionEnd): number {
  switch (end.kind) {
    case 'exit':
      return end.code;
    case 'error':
      throw new SyncpodError(end.message);
    case 'interrupted':
      return INTERRUPTED;
    case 'stdin-closed':
      return 0;
  }
}

async function stream(deps: StreamDeps, url: string, opts: SessionOptions): Promise<number> {
  const conn = await openStream(url, CHANNEL_PROTOCOLS, { timeoutMs: deps.timeoutMs, debug: deps.debug });
  const { io } = deps;
  const session = () =>
    runRemoteCommand(
      conn,
      {
        stdin: opts.stdin ? io.stdin : undefined,
        stdout: io.stdout,
        stderr: io.stderr,
        terminal: opts.tty ? io.stdout : undefined,
      },
      { stdin: opts.stdin, tty: opts.tty, eofLingerMs: opts.eofLingerMs, signal: deps.signal },
    );
  const end = opts.tty && opts.stdin ? await withRawTerminal(io.stdin, session) : await session();
  return exitCodeOf(end);
}

export interface ExecOptions extends SessionOptions {
  cmd: string[];
  /** -s: ExecSync instead of a stream. */
  sync: boolean;
  /** ExecSync timeout in seconds (0: none). */
  timeoutSeconds: number;
}

export async function execInContainer(deps: StreamDeps, opts: ExecOptions): Promise<number> {
  if (opts.cmd.length === 0) throw new SyncpodError('a command to run is required');
  if (opts.tty && !opts.sync) requireTerminal(deps.io.stdin, deps.io.stdout, opts.stdin);
  const c = await runningContainer(deps, opts.target);
  if (opts.sync) {
    // The call's deadline covers the command's own timeout; 0 means the command may run for long.
    const timeoutMs = opts.timeoutSeconds > 0 ? opts.timeoutSeconds * 1000 + deps.timeoutMs : 24 * 3600 * 1000;
    const res = await deps.runtime
      .call('ExecSync', { containerId: c.id, cmd: opts.cmd, timeout: String(opts.timeoutSeconds) }, { timeoutMs })
      .catch((err: unknown) => {
        throw commandTimedOut(err, opts.timeoutSeconds, deps.timeoutMs) ?? err;
      });
    const timedOut = runtimeTimedOut(res, opts.timeoutSeconds);
    if (timedOut) throw timedOut;
    if (res.stdout.length) deps.io.stdout.write(res.stdout);
    if (res.stderr.length) deps.io.stderr.write(res.stderr);
    return res.exitCode;
  }
  const { url } = await deps.runtime.call('Exec', {
    containerId: c.id,
    cmd: opts.cmd,
    tty: opts.tty,
    stdin: opts.stdin,
    stdout: true,
    stderr: !opts.tty,
  });
  return stream(deps, url, opts);
}

/**
 * With --timeout, a deadline on ExecSync (the runtime's own status, or the call's deadline of the command's
 * timeout plus --timeout) means the command outlived its timeout: say that, not that the runtime hung.
 */
function commandTimedOut(err: unknown, timeoutSeconds: number, marginMs: number): SyncpodError | undefined {
  if (timeoutSeconds <= 0) return undefined;
  const status = err instanceof GrpcStatusError ? err : (err as { cause?: unknown } | undefined)?.cause;
  if (!(status instanceof GrpcStatusError) || status.code !== Status.DEADLINE_EXCEEDED) return undefined;
  return new SyncpodError(
    `exec -s: the command did not end within its timeout of ${timeoutSeconds}s ` +
      `(the runtime had ${marginMs / 1000}s more to stop it and report)`,
    { cause: err },
  );
}

/** The words conmon (CRI-O's monitor) puts on stderr when it stopped an exec at its timeout. */
export const CONMON_TIMED_OUT = 'command timed out';

/**
 * CRI-O answers an ExecSync whose command outlived its timeout with exit code -1 and conmon's
 * "command timed out" on stderr (kubelet's prober needs a non-zero code), where containerd ends the
 * call with DEADLINE_EXCEEDED: said in the same words as that.
 */
export function runtimeTimedOut(
  res: { exitCode: number; stdout: Uint8Array; stderr: Uint8Array },
  timeoutSeconds: number,
): SyncpodError | undefined {
  if (timeoutSeconds <= 0 || res.exitCode !== -1 || res.stdout.length > 0) return undefined;
  if (Buffer.from(res.stderr).toString('utf8') !== CONMON_TIMED_OUT) return undefined;
  return new SyncpodError(
    `exec -s: the command did not end within its timeout of ${timeoutSeconds}s (the runtime stopped it: "${CONMON_TIMED_OUT}")`,
  );
}

export async function attachToContainer(deps: StreamDeps, opts: SessionOptions): Promise<number> {
  if (opts.tty) requireTerminal(deps.io.stdin, deps.io.stdout, opts.stdin);
  const c = await runningContainer(deps, opts.target);
  const { url } = await deps.runtime.call('Attach', {
    containerId: c.id,
    tty: opts.tty,
    stdin: opts.stdin,
    stdout: true,
    stderr: !opts.tty,
  });
  return stream(deps, url, opts);
}
