// CniExec adapter on node:child_process. A plugin runs in its own process group so that a timeout
// kills it together with anything it started (an IPAM plugin, nsenter's child). Optionally every
// plugin is started through `nsenter --net=<path>`, i.e. inside another network namespace: the
// runtime's "own" namespace can then be a namespace the operator (or a test) created.

import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { CniExec, ExecOutcome, ExecRequest } from './types';

export interface ChildProcessCniExecOptions {
  /** Run plugins inside this network namespace (path such as /run/netns/x) via nsenter --net. */
  pluginNetns?: string;
  /** nsenter binary (default "nsenter", looked up in PATH). */
  nsenterPath?: string;
  /** Base environment (default process.env); inherited CNI_* variables are dropped. */
  baseEnv?: NodeJS.ProcessEnv;
}

export class ChildProcessCniExec implements CniExec {
  constructor(private readonly options: ChildProcessCniExecOptions = {}) {}

  async findPlugin(name: string, dirs: string[]): Promise<string | undefined> {
    for (const dir of dirs) {
      const candidate = join(dir, name);
      try {
        if ((await stat(candidate)).isFile()) return candidate;
      } catch {}
    }
    return undefined;
  }

  run(request: ExecRequest): Promise<ExecOutcome> {
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(this.options.baseEnv ?? process.env)) {
      if (value !== undefined && !key.startsWith('CNI_')) env[key] = value;
    }
    Object.assign(env, request.env);

    const netns = this.options.pluginNetns;
    const file = netns === undefined ? request.pluginPath : (this.options.nsenterPath ?? 'nsenter');
    const args = netns === undefined ? [] : [`--net=${netns}`, '--', request.pluginPath];

    return new Promise((resolve, reject) => {
      const child = spawn(file, args, { env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      let timedOut = false;
      let settled = false;

      const timer = setTimeout(() => {
        timedOut = true;
        try {
          if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      }, request.timeoutMs);

      child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
      // A plugin that exits without reading stdin closes the pipe; that is not our error.
      child.stdin.on('error', () => undefined);
      child.on('error', (err) => {
        clearTimeout(timer);
        if (!settled) {
          settled = true;
          reject(err);
        }
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        if (settled) return;
        settled = true;
        resolve({
          exitCode: code,
          stdout: Buffer.concat(stdout).toString('utf8'),
          stderr: Buffer.concat(stderr).toString('utf8'),
          timedOut,
        });
      });
      child.stdin.end(request.stdin);
    });
  }
}
