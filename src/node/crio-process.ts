// Finds the configuration of the CRI-O that serves a CRI socket, and reads it (src/node/crio-config.ts
// says what is taken from it and in which order). The CRI-O is a process whose comm is "crio" in our
// PID namespace whose configuration (its files, then its --listen or $CONTAINER_LISTEN) names the
// socket; its main file and drop-in directory come from its command line or environment as CRI-O
// takes them. Its files are read under /proc/PID/root when it runs in another mount namespace. With
// no crio process to be seen and the endpoint at CRI-O's default socket, the default files are read.
// Never throws: a file that cannot be read or parsed is the answer's `why`.
import * as fs from 'node:fs';
import type { ParsedFile } from './containerd-config';
import {
  crioConfigFacts,
  crioListen,
  DEFAULT_CRIO_CONFIG,
  DEFAULT_CRIO_CONFIG_DIR,
  DEFAULT_CRIO_SOCKET,
  type CrioCommandLine,
  type CrioConfigRead,
} from './crio-config';
import {
  flagValue,
  flagValues,
  notServedBy,
  problem,
  processesNamed,
  resolveFrom,
  sameSocket,
  socketPath,
  type RuntimeProcess,
} from './runtime-process';

export interface CrioLookup {
  /** The runtime endpoint (unix:///var/run/crio/crio.sock, or a bare path). */
  endpoint: string;
  /** /proc of the node (under --host-root). */
  proc?: string;
  /** Prefix of the node's files (--host-root), '' for this machine. */
  hostRoot?: string;
  parseToml: (text: string) => Record<string, unknown>;
}

/** A setting from a flag, else its environment variable (as urfave/cli gives it to CRI-O). */
function given(p: Pick<RuntimeProcess, 'args' | 'env'>, flag: string, env: string, short?: string) {
  const v = flagValue(p.args, flag, short);
  if (v !== undefined) return { value: v, flag: `--${flag}` };
  if (env in p.env) return { value: p.env[env], env };
  return undefined;
}

/** What CRI-O's command line and environment set of the settings syncpod reads (paths made absolute). */
export function crioCommandLine(p: Pick<RuntimeProcess, 'args' | 'env' | 'cwd'>): CrioCommandLine {
  const abs = <T extends { value: string }>(v: T | undefined) =>
    v && v.value !== '' ? { ...v, value: resolveFrom(p.cwd, v.value) } : v;
  const out: CrioCommandLine = {};
  const manager = given(p, 'cgroup-manager', 'CONTAINER_CGROUP_MANAGER');
  if (manager) out.cgroupManager = manager;
  const netDir = abs(given(p, 'cni-config-dir', 'CONTAINER_CNI_CONFIG_DIR'));
  if (netDir) out.networkDir = netDir;
  // A repeatable flag; one value holding commas is split (CRI-O's StringSliceTrySplit, and urfave/cli
  // for the environment variable).
  const split = (vs: string[]) =>
    (vs.length === 1 && vs[0].includes(',') ? vs[0].split(',').map((s) => s.trim()) : vs).map((d) =>
      resolveFrom(p.cwd, d),
    );
  // (crio's environment, not syncpod's)
  const pluginsEnv = 'CONTAINER_CNI_PLUGIN_DIR';
  const plugins = flagValues(p.args, 'cni-plugin-dir');
  if (plugins.length) out.pluginDirs = { value: split(plugins), flag: '--cni-plugin-dir' };
  else if (pluginsEnv in p.env) out.pluginDirs = { value: split([p.env[pluginsEnv]]), env: pluginsEnv };
  const image = given(p, 'pause-image', 'CONTAINER_PAUSE_IMAGE');
  if (image) out.pauseImage = image;
  const listen = abs(given(p, 'listen', 'CONTAINER_LISTEN'));
  if (listen) out.listen = listen;
  return out;
}

function parse(prefix: string, path: string, parseToml: CrioLookup['parseToml']): ParsedFile {
  let text: string;
  try {
    text = fs.readFileSync(prefix + path, 'utf8');
  } catch (err) {
    throw new Error(`${path}: ${problem(err)}`);
  }
  try {
    return { path, doc: parseToml(text) };
  } catch (err) {
    throw new Error(`${path}: not TOML (${problem(err)})`);
  }
}

/** Every file under `dir`, recursively, in lexical order per directory (Go's filepath.Walk). */
function walk(prefix: string, dir: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(prefix + dir, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return [];
    if (code === 'ENOTDIR') return [dir];
    throw new Error(`${dir}: ${problem(err)}`);
  }
  const out: string[] = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const p = `${dir.replace(/\/+$/, '')}/${e.name}`;
    if (e.isDirectory()) out.push(...walk(prefix, p));
    else out.push(p);
  }
  return out;
}

/** The files CRI-O reads for these settings, parsed; throws an Error naming the file. */
function readCrioFiles(
  prefix: string,
  p: Pick<RuntimeProcess, 'args' | 'env' | 'cwd'>,
  parseToml: CrioLookup['parseToml'],
): { files: ParsedFile[]; mainFile: { path: string; read: boolean }; dropInDir: string } {
  const cfg = given(p, 'config', 'CONTAINER_CONFIG', 'c');
  const dirGiven = given(p, 'config-dir', 'CONTAINER_CONFIG_DIR', 'd');
  const main = cfg ? (cfg.value === '' ? '' : resolveFrom(p.cwd, cfg.value)) : DEFAULT_CRIO_CONFIG;
  const dropInDir = dirGiven ? resolveFrom(p.cwd, dirGiven.value) : DEFAULT_CRIO_CONFIG_DIR;
  const files: ParsedFile[] = [];
  let read = false;
  if (main !== '') {
    // A missing main file is skipped unless it was named (CRI-O then refuses to start).
    const exists = fs.existsSync(prefix + main);
    if (exists || cfg) {
      files.push(parse(prefix, main, parseToml));
      read = true;
    }
  }
  for (const f of walk(prefix, dropInDir)) files.push(parse(prefix, f, parseToml));
  return { files, mainFile: { path: main, read }, dropInDir };
}

/** How the files were found: the process and the flags that named them. */
function via(p: RuntimeProcess): string {
  const parts = [`crio pid ${p.pid}`];
  const cfg = flagValue(p.args, 'config', 'c');
  const dir = flagValue(p.args, 'config-dir', 'd');
  if (cfg !== undefined) parts.push(`--config ${cfg}`);
  if (dir !== undefined) parts.push(`--config-dir ${dir}`);
  return parts.join(' ');
}

/** CRI-O's configuration for the runtime at `endpoint`, or why none was read. */
export function readCrioConfig(q: CrioLookup): CrioConfigRead {
  const sock = socketPath(q.endpoint);
  if (!sock) return { found: false, why: `${q.endpoint} is not a unix socket` };
  const hostRoot = (q.hostRoot ?? '').replace(/\/+$/, '');
  const procs = processesNamed(q.proc ?? `${hostRoot}/proc`, 'crio');
  const problems: string[] = [];
  for (const p of procs) {
    const prefix = p.rootPrefix || hostRoot;
    const cmd = crioCommandLine(p);
    let read: ReturnType<typeof readCrioFiles>;
    try {
      read = readCrioFiles(prefix, p, q.parseToml);
    } catch (err) {
      // The socket is known without the files only when the command line names it.
      if (cmd.listen && sameSocket(cmd.listen.value, sock))
        return { found: false, why: `crio pid ${p.pid}: ${(err as Error).message}`, pid: p.pid };
      problems.push(`pid ${p.pid}: ${(err as Error).message}`);
      continue;
    }
    if (!sameSocket(crioListen(read.files, cmd), sock)) continue;
    try {
      return { found: true, config: crioConfigFacts(read.files, read, cmd), via: via(p) };
    } catch (err) {
      return { found: false, why: (err as Error).message, pid: p.pid };
    }
  }
  if (procs.length === 0 && sameSocket(DEFAULT_CRIO_SOCKET, sock)) {
    const none: RuntimeProcess = { pid: 0, args: [], env: {}, cwd: '/', rootPrefix: '' };
    try {
      const read = readCrioFiles(hostRoot, none, q.parseToml);
      return {
        found: true,
        config: crioConfigFacts(read.files, read),
        via: `${DEFAULT_CRIO_CONFIG} and ${DEFAULT_CRIO_CONFIG_DIR} (no crio process seen; the default socket)`,
      };
    } catch (err) {
      return { found: false, why: (err as Error).message };
    }
  }
  return notServedBy('crio', sock, procs.length, problems);
}
