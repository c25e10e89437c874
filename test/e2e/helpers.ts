// Spawning the built CLI the way a user or a script does.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
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
  /** Argv prefix to run the CLI through (e.g. nsenter into a stand-in kubelet's namespaces). */
  prefix?: string[];
  /** Run this copy of the CLI instead of the checkout's bin/syncpod. */
  cli?: string;
  /** Execute the file itself, as a shell runs it (its #! line), instead of `node -- FILE`. */
  asProgram?: boolean;
}

/** The environment a test runs the CLI in: PATH and HOME of the test, no crictl config file, then `extra`. */
export function cliEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/root',
    CRI_CONFIG_FILE: '',
    ...extra,
  };
}

export function syncpod(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    // `--` ends node's own options, as bin/syncpod's #! line does: Node 20 would otherwise take a
    // later `--env-file FILE` (syncpod's flag) as its own.
    const cli = opts.cli ?? SYNCPOD;
    const argv = opts.asProgram ? [cli, ...args] : [process.execPath, '--', cli, ...args];
    if (opts.netns) argv.unshift('nsenter', `--net=/run/netns/${opts.netns}`, '--');
    if (opts.prefix) argv.unshift(...opts.prefix);
    const child = spawn(argv[0], argv.slice(1), {
      env: cliEnv(opts.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `syncpod ${args.join(' ')} did not finish within ${opts.timeoutMs ?? 60000} ms\nstdout: ${stdout}\nstderr: ${stderr}`,
        ),
      );
    }, opts.timeoutMs ?? 60000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    // A syncpod that exits before reading stdin (a refusal) closes the pipe: EPIPE on our side is
    // not the test's failure; the exit code and output above are what the test checks.
    child.stdin.on('error', () => undefined);
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

/**
 * A world-readable copy of the built CLI (the bundle needs nothing from node_modules), for runs as
 * an unprivileged user: the checkout may sit in a directory nobody cannot enter. Returns the path
 * of its bin/syncpod and a function that removes the copy.
 */
export function worldReadableCli(): { cli: string; remove: () => void } {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'syncpod-cli-'));
  fs.cpSync(path.join(path.dirname(SYNCPOD), '..', 'dist'), path.join(copy, 'dist'), { recursive: true });
  fs.mkdirSync(path.join(copy, 'bin'));
  fs.copyFileSync(SYNCPOD, path.join(copy, 'bin', 'syncpod'));
  fs.chmodSync(copy, 0o755);
  const cli = path.join(copy, 'bin', 'syncpod');
  const probe = spawnSync('setpriv', [
    '--reuid=65534',
    '--regid=65534',
    '--clear-groups',
    process.execPath,
    '-e',
    `require('fs').accessSync(${JSON.stringify(cli)})`,
  ]);
  if (probe.status !== 0) throw new Error(`nobody cannot read the copied CLI: ${probe.stderr}`);
  return { cli, remove: () => fs.rmSync(copy, { recursive: true, force: true }) };
}

/**
 * What the runtime created a container with, from `inspect`'s verbose info. containerd echoes the
 * CRI config it was given (info.config: envs, command, args, mounts); CRI-O shows only the OCI spec
 * it made of it (info.runtimeSpec: process.env holds the image's and CRI-O's own variables around
 * the CRI ones, process.args is the command then its args, mounts hold CRI-O's own beside the CRI
 * ones). Throws when the info has neither, so a test reading it cannot pass on an empty answer.
 */
export interface CreatedWith {
  /** 'cri-config': exactly what was sent; 'oci-spec': what the runtime made of it (a superset). */
  kind: 'cri-config' | 'oci-spec';
  env: string[];
  args: string[];
  /** containerPath<-hostPath. */
  mounts: string[];
}
export function createdWith(insp: any): CreatedWith {
  const config = insp?.info?.config;
  if (config && typeof config === 'object') {
    return {
      kind: 'cri-config',
      env: (config.envs ?? []).map((e: any) => `${e.key}=${e.value}`),
      args: [...(config.command ?? []), ...(config.args ?? [])],
      mounts: (config.mounts ?? []).map(
        (m: any) => `${m.container_path ?? m.containerPath}<-${m.host_path ?? m.hostPath}`,
      ),
    };
  }
  const spec = insp?.info?.runtimeSpec;
  if (spec && typeof spec === 'object') {
    return {
      kind: 'oci-spec',
      env: spec.process?.env ?? [],
      args: spec.process?.args ?? [],
      mounts: (spec.mounts ?? []).map((m: any) => `${m.destination}<-${m.source}`),
    };
  }
  throw new Error(
    `inspect's info has neither config (containerd) nor runtimeSpec (CRI-O): ${JSON.stringify(insp?.info)}`,
  );
}

/**
 * Asserts that the container was created with what `sent` (a CreateContainer config as syncpod's
 * --dry-run prints it: envs base64) asked for: equal on containerd; on CRI-O, the sent variables
 * in order among the spec's, the command and args as the spec's args, every sent mount among the
 * spec's. `normalise` rewrites a host path before comparing (e.g. a random file name).
 */
export function assertCreatedAsSent(insp: any, sent: any, normalise: (p: string) => string = (p) => p): void {
  const got = createdWith(insp);
  const sentEnv = (sent.envs ?? []).map((e: any) => `${e.key}=${Buffer.from(e.value, 'base64').toString()}`);
  const sentArgs = [...(sent.command ?? []), ...(sent.args ?? [])];
  const mount = (m: string) => {
    const at = m.indexOf('<-');
    return `${m.slice(0, at)}<-${normalise(m.slice(at + 2))}`;
  };
  const sentMounts = (sent.mounts ?? []).map((m: any) =>
    mount(`${m.containerPath ?? m.container_path}<-${m.hostPath ?? m.host_path}`),
  );
  if (got.kind === 'cri-config') {
    assertDeepEqual(got.env, sentEnv, 'envs');
    assertDeepEqual(got.args, sentArgs, 'command and args');
    assertDeepEqual(got.mounts.map(mount), sentMounts, 'mounts');
    return;
  }
  // CRI-O merges the image's variables and its own (HOSTNAME, container=crio, TERM) with the sent
  // ones: each sent variable holds its (last) sent value, and they keep their order.
  const byKey = (list: string[]) => {
    const m = new Map<string, string>();
    for (const kv of list) m.set(kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1));
    return m;
  };
  const want = byKey(sentEnv);
  const have = byKey(got.env);
  assertDeepEqual(
    [...want.keys()].map((k) => `${k}=${have.get(k)}`),
    [...want.entries()].map(([k, v]) => `${k}=${v}`),
    'the sent envs in the spec env',
  );
  const order = [...have.keys()].filter((k) => want.has(k));
  assertDeepEqual(order, [...want.keys()], 'the sent envs in the order sent');
  if (sentArgs.length) assertDeepEqual(got.args, sentArgs, 'command and args');
  const specMounts = new Set(got.mounts.map(mount));
  const missing = sentMounts.filter((m: string) => !specMounts.has(m));
  assertDeepEqual(missing, [], `sent mounts not in the spec (spec: ${[...specMounts].join(', ')})`);
}

function assertDeepEqual(a: unknown, b: unknown, what: string): void {
  const sa = JSON.stringify(a);
  const sb = JSON.stringify(b);
  if (sa !== sb) throw new Error(`${what}: got ${sa}, sent ${sb}`);
}
