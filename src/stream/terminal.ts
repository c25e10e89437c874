// The local terminal for `-t`: raw mode on, and restored on every way out (normal end, error,
// signals, process exit). Size changes are forwarded by the caller through onResize.
import { SyncpodError } from '../errors';

export interface TerminalInput {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
}
export interface TerminalOutput {
  isTTY?: boolean;
  columns?: number;
  rows?: number;
  on(event: 'resize', listener: () => void): unknown;
  removeListener(event: 'resize', listener: () => void): unknown;
}

/** Refuses -t when there is no terminal to put in raw mode (stdin with -i, stdout otherwise). */
export function requireTerminal(stdin: TerminalInput, stdout: TerminalOutput, interactive: boolean): void {
  if (interactive && !stdin.isTTY)
    throw new SyncpodError('-t: standard input is not a terminal (leave out -t when piping input)');
  if (!interactive && !stdout.isTTY)
    throw new SyncpodError('-t: standard output is not a terminal (leave out -t when redirecting output)');
}

/** Runs `body` with stdin in raw mode (when it is a TTY); the mode is restored however it ends. */
export async function withRawTerminal<T>(stdin: TerminalInput, body: () => Promise<T>): Promise<T> {
  if (!stdin.isTTY || !stdin.setRawMode) return body();
  const restore = () => {
    try {
      stdin.setRawMode!(false);
    } catch {
      /* the terminal is gone */
    }
  };
  const onSignal = (signal: NodeJS.Signals) => {
    restore();
    process.kill(process.pid, signal);
  };
  process.once('exit', restore);
  for (const s of ['SIGTERM', 'SIGHUP', 'SIGQUIT'] as const) process.once(s, onSignal);
  stdin.setRawMode(true);
  try {
    return await body();
  } finally {
    restore();
    process.removeListener('exit', restore);
    for (const s of ['SIGTERM', 'SIGHUP', 'SIGQUIT'] as const) process.removeListener(s, onSignal);
  }
}
