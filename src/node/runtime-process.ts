// What the config readers of containerd (containerd-process.ts) and CRI-O (crio-process.ts) share:
// the processes of one name in our PID namespace, with their command line, environment and working
// directory, read through /proc; a flag's value as Go's flag packages take it; the socket of a unix
// endpoint; an error as a short reason. Never throws.
import * as fs from 'node:fs';

export interface RuntimeProcess {
  pid: number;
  /** argv[1..]. */
  args: string[];
  /** Its environment (empty when it cannot be read). */
  env: Record<string, string>;
  cwd: string;
  /** '' when it shares our mount namespace, else /proc/PID/root (its files are read through that). */
  rootPrefix: string;
}

/** The socket path of a unix endpoint; undefined for other schemes. */
export function socketPath(endpoint: string): string | undefined {
  if (endpoint.startsWith('/')) return endpoint;
  const m = /^unix:\/\/(.*)$/.exec(endpoint);
  if (!m) return undefined;
  return `/${m[1].replace(/^\/+/, '')}`;
}

/** The same socket, /var/run and /run being one directory. */
export function sameSocket(a: string, b: string): boolean {
  const norm = (p: string) => p.replace(/^\/var\/run\//, '/run/').replace(/\/{2,}/g, '/');
  return norm(a) === norm(b);
}

/**
 * The last value given to a flag (`--long v`, `--long=v`, `-long v`, `-s v`, `-s=v`), as Go's flag
 * and urfave/cli packages read it; undefined when not given.
 */
export function flagValue(args: readonly string[], long: string, short?: string): string | undefined {
  return flagValues(args, long, short).at(-1);
}

/** Every value given to a flag, in order (a repeatable flag such as CRI-O's --cni-plugin-dir). */
export function flagValues(args: readonly string[], long: string, short?: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === `--${long}` || a === `-${long}` || (short && a === `-${short}`)) {
      if (i + 1 < args.length) out.push(args[++i]);
    } else if (a.startsWith(`--${long}=`)) out.push(a.slice(long.length + 3));
    else if (a.startsWith(`-${long}=`)) out.push(a.slice(long.length + 2));
    else if (short && a.startsWith(`-${short}=`)) out.push(a.slice(short.length + 2));
  }
  return out;
}

/** A path given on a command line, made absolute against the process's working directory. */
export function resolveFrom(cwd: string, p: string): string {
  return p.startsWith('/') ? p : `${cwd.replace(/\/+$/, '')}/${p}`.replace(/\/\.\//g, '/');
}

function environOf(file: string): Record<string, string> {
  const env: Record<string, string> = {};
  try {
    for (const kv of fs.readFileSync(file, 'utf8').split('\0')) {
      const eq = kv.indexOf('=');
      if (eq > 0) env[kv.slice(0, eq)] = kv.slice(eq + 1);
    }
  } catch {
    /* not ours to read: no environment */
  }
  return env;
}

/** The processes whose comm is `comm` in our PID namespace, lowest pid first. */
export function processesNamed(proc: string, comm: string): RuntimeProcess[] {
  let names: string[];
  let ourPidNs: string;
  let ourMntNs: string;
  try {
    names = fs.readdirSync(proc);
    ourPidNs = fs.readlinkSync(`${proc}/self/ns/pid`);
    ourMntNs = fs.readlinkSync(`${proc}/self/ns/mnt`);
  } catch {
    return [];
  }
  const out: RuntimeProcess[] = [];
  for (const name of names) {
    const c = name.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    try {
      if (fs.readFileSync(`${proc}/${name}/comm`, 'latin1') !== `${comm}\n`) continue;
      if (fs.readlinkSync(`${proc}/${name}/ns/pid`) !== ourPidNs) continue;
      const argv = fs.readFileSync(`${proc}/${name}/cmdline`, 'utf8').split('\0');
      if (argv[argv.length - 1] === '') argv.pop();
      const sameMounts = fs.readlinkSync(`${proc}/${name}/ns/mnt`) === ourMntNs;
      out.push({
        pid: Number(name),
        args: argv.slice(1),
        env: environOf(`${proc}/${name}/environ`),
        cwd: fs.readlinkSync(`${proc}/${name}/cwd`),
        rootPrefix: sameMounts ? '' : `${proc}/${name}/root`,
      });
    } catch {
      /* exited while being read, or not ours to read */
    }
  }
  return out.sort((a, b) => a.pid - b.pid);
}

/**
 * Why no process named `runtime` was found serving `sock`: none runs here, or those that run serve
 * other sockets (with what went wrong reading them).
 */
export function notServedBy(
  runtime: string,
  sock: string,
  procsSeen: number,
  problems: readonly string[],
): { found: false; why: string } {
  return {
    found: false,
    why:
      procsSeen === 0
        ? `no ${runtime} process runs here (the runtime at ${sock} may be another)`
        : `no ${runtime} process here serves ${sock}${problems.length ? ` (${problems.join('; ')})` : ''}`,
  };
}

/** An fs error as a short reason. */
export function problem(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory';
  return ((err as Error).message ?? String(err)).split('\n')[0];
}
