// Finds the configuration file of the containerd that serves a CRI socket, and reads it
// (src/node/containerd-config.ts says what is taken from it). The containerd is a process whose comm
// is "containerd" in our PID namespace whose configuration (its --config/-c, else
// /etc/containerd/config.toml; its --address/-a over the file's grpc.address) names the socket. Its
// files are read under /proc/PID/root when it runs in another mount namespace. With no containerd
// process to be seen and the endpoint at containerd's default socket, /etc/containerd/config.toml is
// read. Never throws: a file that cannot be read or parsed is the answer's `why`.
import * as fs from 'node:fs';
import {
  containerdConfigFacts,
  grpcAddress,
  importsOf,
  type ContainerdConfigRead,
  type ParsedFile,
} from './containerd-config';
import {
  flagValue,
  notServedBy,
  problem,
  processesNamed,
  resolveFrom,
  sameSocket,
  socketPath,
} from './runtime-process';

export { socketPath } from './runtime-process';

export const DEFAULT_CONTAINERD_CONFIG = '/etc/containerd/config.toml';
const DEFAULT_SOCKETS = ['/run/containerd/containerd.sock', '/var/run/containerd/containerd.sock'];

export interface ContainerdLookup {
  /** The runtime endpoint (unix:///run/containerd/containerd.sock, or a bare path). */
  endpoint: string;
  /** /proc of the node (under --host-root). */
  proc?: string;
  /** Prefix of the node's files (--host-root), '' for this machine. */
  hostRoot?: string;
  parseToml: (text: string) => Record<string, unknown>;
}

/** A shell-style glob's last path part (containerd's imports may use *). */
function expandGlob(prefix: string, path: string): string[] {
  if (!path.includes('*')) return [path];
  const slash = path.lastIndexOf('/');
  const dir = path.slice(0, slash) || '/';
  const pattern = path.slice(slash + 1);
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]*')}$`,
  );
  try {
    return fs
      .readdirSync(prefix + dir)
      .filter((n) => re.test(n))
      .sort()
      .map((n) => `${dir === '/' ? '' : dir}/${n}`);
  } catch {
    return [];
  }
}

/** The main file and its imports, parsed; throws an Error naming the file. */
function readFiles(prefix: string, main: string, parseToml: ContainerdLookup['parseToml']): ParsedFile[] {
  const out: ParsedFile[] = [];
  const seen = new Set<string>();
  const pending = [main];
  while (pending.length) {
    const path = pending.shift()!;
    if (seen.has(path)) continue;
    seen.add(path);
    let text: string;
    try {
      text = fs.readFileSync(prefix + path, 'utf8');
    } catch (err) {
      throw new Error(`${path}: ${problem(err)}`);
    }
    let doc: Record<string, unknown>;
    try {
      doc = parseToml(text);
    } catch (err) {
      throw new Error(`${path}: not TOML (${problem(err)})`);
    }
    const f = { path, doc };
    out.push(f);
    for (const i of importsOf(f)) pending.push(...expandGlob(prefix, i));
  }
  return out;
}

/** containerd's configuration for the runtime at `endpoint`, or why none was read. */
export function readContainerdConfig(q: ContainerdLookup): ContainerdConfigRead {
  const sock = socketPath(q.endpoint);
  if (!sock) return { found: false, why: `${q.endpoint} is not a unix socket` };
  const hostRoot = (q.hostRoot ?? '').replace(/\/+$/, '');
  const procs = processesNamed(q.proc ?? `${hostRoot}/proc`, 'containerd');
  const problems: string[] = [];
  for (const p of procs) {
    const given = flagValue(p.args, 'config', 'c');
    const file = given ? resolveFrom(p.cwd, given) : DEFAULT_CONTAINERD_CONFIG;
    // A process in another mount namespace is read through its root; ours under --host-root.
    const prefix = p.rootPrefix || hostRoot;
    let files: ParsedFile[];
    try {
      files = readFiles(prefix, file, q.parseToml);
    } catch (err) {
      const address = flagValue(p.args, 'address', 'a');
      const missingDefault = !given && (err as Error).message.endsWith('no such file or directory');
      // containerd without a config file runs on its defaults (and its default socket).
      if (missingDefault && sameSocket(address ?? DEFAULT_SOCKETS[0], sock))
        return { found: false, why: `containerd pid ${p.pid} runs without a config file (${file} does not exist)` };
      if (address && sameSocket(address, sock))
        return { found: false, why: `containerd pid ${p.pid}: ${(err as Error).message}` };
      problems.push(`pid ${p.pid}: ${(err as Error).message}`);
      continue;
    }
    const address = flagValue(p.args, 'address', 'a') ?? grpcAddress(files[0].doc);
    if (!sameSocket(address, sock)) continue;
    try {
      return {
        found: true,
        config: containerdConfigFacts(files),
        via: `containerd pid ${p.pid}${given ? ` --config ${given}` : ` (default ${DEFAULT_CONTAINERD_CONFIG})`}`,
      };
    } catch (err) {
      return { found: false, why: (err as Error).message };
    }
  }
  if (procs.length === 0 && DEFAULT_SOCKETS.some((d) => sameSocket(d, sock))) {
    try {
      const files = readFiles(hostRoot, DEFAULT_CONTAINERD_CONFIG, q.parseToml);
      return {
        found: true,
        config: containerdConfigFacts(files),
        via: `${DEFAULT_CONTAINERD_CONFIG} (no containerd process seen; the default socket)`,
      };
    } catch (err) {
      return { found: false, why: (err as Error).message };
    }
  }
  return notServedBy('containerd', sock, procs.length, problems);
}
