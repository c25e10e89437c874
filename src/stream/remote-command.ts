// One exec/attach session over an open channel connection: stdin out on channel 0, stdout and
// stderr in on 1 and 2, the end status on 3, terminal sizes on 4.
//
// Ending stdin: the v4 protocol has no half-close (v5 added one; containerd does not serve v5),
// so the runtime closes the command's stdin only when the connection closes. On local stdin EOF
// (without -t) syncpod keeps reading until the command has been silent for `eofLingerMs` (or has
// ended by itself), then closes the connection: the command sees EOF. Output it writes after that
// is not received, and its exit status is not known then (the session ends with code 0).
import { Channel, parseCommandEnd, resizeMessage, type CommandEnd } from './channels';
import type { StreamConnection } from './connect';
import type { TerminalOutput } from './terminal';
import { SyncpodError } from '../errors';

export interface RemoteCommandIo {
  stdin?: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** The local terminal whose size is sent (with -t). */
  terminal?: TerminalOutput;
}

export interface RemoteCommandOptions {
  stdin: boolean;
  tty: boolean;
  /** Quiet time after local stdin EOF before the connection is closed (see the header). */
  eofLingerMs: number;
  signal?: AbortSignal;
}

export type SessionEnd = CommandEnd | { kind: 'stdin-closed' } | { kind: 'interrupted' };

const STDIN_HIGH_WATER = 4 << 20;

/** Runs the session to its end; resolves with how it ended, rejects on a broken connection. */
export function runRemoteCommand(
  conn: StreamConnection,
  io: RemoteCommandIo,
  opts: RemoteCommandOptions,
): Promise<SessionEnd> {
  return new Promise((resolve, reject) => {
    let status = '';
    let stdinClosedByUs = false;
    let interrupted = false;
    let lingerTimer: NodeJS.Timeout | undefined;
    const cleanups: Array<() => void> = [];

    const writeOut = (stream: NodeJS.WritableStream, data: Buffer) => {
      if (!stream.write(data)) {
        conn.pause();
        stream.once('drain', () => conn.resume());
      }
    };
    const closeForEof = () => {
      stdinClosedByUs = true;
      conn.close();
    };
    const armLinger = () => {
      if (lingerTimer === undefined) return;
      clearTimeout(lingerTimer);
      lingerTimer = setTimeout(closeForEof, opts.eofLingerMs);
    };

    conn.onFrame((channel, data) => {
      if (channel === Channel.stdout) writeOut(io.stdout, data);
      else if (channel === Channel.stderr) writeOut(io.stderr, data);
      else if (channel === Channel.error) status += data.toString('utf8');
      armLinger();
    });

    conn.onClose((error) => {
      if (lingerTimer) clearTimeout(lingerTimer);
      for (const c of cleanups) c();
      if (status.trim() !== '') return resolve(parseCommandEnd(status, conn.protocol));
      if (interrupted) return resolve({ kind: 'interrupted' });
      if (stdinClosedByUs) return resolve({ kind: 'stdin-closed' });
      if (error) return reject(error);
      resolve({ kind: 'exit', code: 0 });
    });

    if (opts.signal) {
      const onAbort = () => {
        interrupted = true;
        conn.close();
      };
      if (opts.signal.aborted) onAbort();
      else {
        opts.signal.addEventListener('abort', onAbort, { once: true });
        cleanups.push(() => opts.signal!.removeEventListener('abort', onAbort));
      }
    }

    if (opts.tty && io.terminal) {
      const term = io.terminal;
      const sendSize = () => {
        if (term.columns && term.rows) conn.send(Channel.resize, resizeMessage(term.columns, term.rows));
      };
      sendSize();
      term.on('resize', sendSize);
      cleanups.push(() => term.removeListener('resize', sendSize));
    }

    if (opts.stdin && io.stdin) {
      const stdin = io.stdin;
      const onData = (chunk: Buffer | string) => {
        const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        conn.send(Channel.stdin, data, () => {
          if (stdin.isPaused() && conn.buffered < STDIN_HIGH_WATER / 4) stdin.resume();
        });
        if (conn.buffered > STDIN_HIGH_WATER) stdin.pause();
      };
      const onEnd = () => {
        if (opts.tty) return; // a terminal never ends; a pipe with -t was refused before
        lingerTimer = setTimeout(closeForEof, opts.eofLingerMs);
      };
      const onError = (err: Error) => reject(new SyncpodError(`reading standard input: ${err.message}`));
      stdin.on('data', onData);
      stdin.once('end', onEnd);
      stdin.once('error', onError);
      cleanups.push(() => {
        stdin.removeListener('data', onData);
        stdin.removeListener('end', onEnd);
        stdin.removeListener('error', onError);
        stdin.pause();
      });
    }
  });
}
