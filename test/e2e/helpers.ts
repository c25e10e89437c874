// Spawning the built CLI the way a user or a script does.
import { spawn } from 'node:child_process';
import * as path from 'node:path';

export const SYNCPOD = path.join(__dirname, '..', '..', 'bin', 'syncpod');

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string>;
  input?: string;
  timeoutMs?: number;
  /** Run inside this network namespace (nsenter --net), e.g. a lab's, so CNI plugins act there. */
  netns?: string;
}

export function syncpod(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const argv = [process.execPath, SYNCPOD, ...args];
    if (opts.netns) argv.unshift('nsenter', `--net=/run/netns/${opts.netns}`, '--');
    const child = spawn(argv[0], argv.slice(1), {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', CRI_CONFIG_FILE: '', ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`syncpod ${args.join(' ')} did not finish within ${opts.timeoutMs ?? 60000} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, opts.timeoutMs ?? 60000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** Asserts the error contract: exit 1, exactly one line on stderr, no stack trace. */
export function assertOneLineError(r: RunResult, pattern: RegExp): void {
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  if (r.code !== 1) throw new Error(`expected exit code 1, got ${r.code}; stderr: ${r.stderr}`);
  if (lines.length !== 1) throw new Error(`expected one stderr line, got ${lines.length}:\n${r.stderr}`);
  if (/\n\s+at /.test(r.stderr)) throw new Error(`stack trace in stderr:\n${r.stderr}`);
  if (!pattern.test(lines[0])) throw new Error(`stderr line ${JSON.stringify(lines[0])} does not match ${pattern}`);
}
