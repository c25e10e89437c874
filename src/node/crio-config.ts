// What CRI-O's own configuration says about the settings a kubelet depends on: the cgroup manager
// (CRI-O's name for the cgroup driver), the CNI directories, the pause (sandbox) image and the socket
// it listens on. CRI-O v1.34 reads, in this order, each one over the last, key by key:
//
//   the main file        --config/-c, else $CONTAINER_CONFIG, else /etc/crio/crio.conf (a missing
//                        default file is skipped; `--config ""` reads none)
//   the drop-ins         every file under --config-dir/-d, else $CONTAINER_CONFIG_DIR, else
//                        /etc/crio/crio.conf.d, walked recursively in lexical order (any name)
//   its command line     --cgroup-manager, --cni-config-dir, --cni-plugin-dir, --pause-image, --listen,
//                        each also from its environment variable (the flag wins)
//
//   [crio.api]      listen          default /var/run/crio/crio.sock
//   [crio.runtime]  cgroup_manager  "systemd" (default) or "cgroupfs"
//   [crio.image]    pause_image     the release's default (registry.k8s.io/pause:3.10 in v1.34)
//   [crio.network]  network_dir     default /etc/cni/net.d/
//                   plugin_dirs     default ["/opt/cni/bin/"]; the deprecated plugin_dir is appended
//
// A later file replaces a key it sets (a list whole) and keeps the others. Key names and defaults are
// those of CRI-O v1.34.0's pkg/config and internal/criocli. Pure: files and the process's command
// line are read by the caller (src/node/crio-process.ts).
import type { ParsedFile } from './containerd-config';

export interface CrioValue<T> {
  value: T;
  /** The TOML key that sets it (also when a flag or the environment did). */
  key: string;
  /** The file that set it. */
  file?: string;
  /** The command-line flag that set it (over every file). */
  flag?: string;
  /** The environment variable that set it (over every file; a flag wins over it). */
  env?: string;
}

export interface CrioConfig {
  /** The main file (when one was read), then every drop-in file, in the order CRI-O reads them. */
  files: string[];
  /** The main file CRI-O reads (or would read), and whether it exists. */
  mainFile: { path: string; read: boolean };
  /** The drop-in directory. */
  dropInDir: string;
  cgroupManager: CrioValue<'systemd' | 'cgroupfs'>;
  networkDir: CrioValue<string>;
  pluginDirs: CrioValue<string[]>;
  /** Absent when neither a file nor the command line sets it (CRI-O then uses its release's default). */
  pauseImage?: CrioValue<string>;
  listen: CrioValue<string>;
}

/** Where CRI-O's configuration was read from, or why it was not. */
export type CrioConfigRead =
  | {
      found: true;
      config: CrioConfig;
      /** How it was found: "crio pid N --config …". */
      via: string;
    }
  | {
      found: false;
      why: string;
      /** The crio process serving the endpoint, when there is one (its files could not be read). */
      pid?: number;
    };

/** What CRI-O's command line and environment set (flag or environment variable, already resolved). */
export interface CrioCommandLine {
  cgroupManager?: { value: string; flag?: string; env?: string };
  networkDir?: { value: string; flag?: string; env?: string };
  pluginDirs?: { value: string[]; flag?: string; env?: string };
  pauseImage?: { value: string; flag?: string; env?: string };
  listen?: { value: string; flag?: string; env?: string };
}

export const DEFAULT_CRIO_CONFIG = '/etc/crio/crio.conf';
export const DEFAULT_CRIO_CONFIG_DIR = '/etc/crio/crio.conf.d';
export const DEFAULT_CRIO_SOCKET = '/var/run/crio/crio.sock';
const DEFAULT_NETWORK_DIR = '/etc/cni/net.d/';
const DEFAULT_PLUGIN_DIRS = ['/opt/cni/bin/'];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';

/**
 * CRI-O's settings from its files (main file first, then the drop-ins, as crio-process.ts found them)
 * and its command line. Throws an Error naming the file and key when a value has the wrong type or
 * the cgroup manager is neither systemd nor cgroupfs (CRI-O refuses to start with such a file).
 */
export function crioConfigFacts(
  files: readonly ParsedFile[],
  where: { mainFile: { path: string; read: boolean }; dropInDir: string },
  cmd: CrioCommandLine = {},
): CrioConfig {
  const last = <T>(
    table: string,
    name: string,
    check: (v: unknown) => v is T,
    want: string,
  ): { value: T; key: string; file: string } | undefined => {
    let found: { value: T; key: string; file: string } | undefined;
    const key = `crio.${table}.${name}`;
    for (const f of files) {
      const crio = isObj(f.doc.crio) ? f.doc.crio : undefined;
      const t = crio && isObj(crio[table]) ? crio[table] : undefined;
      if (!t || !(name in t)) continue;
      const v = t[name];
      if (!check(v)) throw new Error(`${f.path}: ${key} must be ${want}, got ${JSON.stringify(v)}`);
      found = { value: v, key, file: f.path };
    }
    return found;
  };
  const over = <T>(
    fromFiles: CrioValue<T> | undefined,
    key: string,
    c: { value: T; flag?: string; env?: string } | undefined,
  ): CrioValue<T> | undefined =>
    c
      ? {
          ...(fromFiles ?? { key }),
          value: c.value,
          ...(c.flag ? { flag: c.flag } : {}),
          ...(c.env ? { env: c.env } : {}),
        }
      : fromFiles;
  const setting = <T>(
    table: string,
    name: string,
    check: (v: unknown) => v is T,
    want: string,
    c: { value: T; flag?: string; env?: string } | undefined,
  ): CrioValue<T> | undefined => over(last(table, name, check, want), `crio.${table}.${name}`, c);

  const mgr = setting('runtime', 'cgroup_manager', isString, 'a string', cmd.cgroupManager) ?? {
    value: 'systemd',
    key: 'crio.runtime.cgroup_manager',
  };
  if (mgr.value !== 'systemd' && mgr.value !== 'cgroupfs') {
    const what = mgr.flag ? `crio ${mgr.flag}` : mgr.env ? `crio's ${mgr.env}` : `${mgr.file}: ${mgr.key}`;
    throw new Error(`${what} must be "systemd" or "cgroupfs", got ${JSON.stringify(mgr.value)}`);
  }
  const cgroupManager = { ...mgr, value: mgr.value as 'systemd' | 'cgroupfs' };

  const networkDir = setting('network', 'network_dir', isString, 'a string', cmd.networkDir) ?? {
    value: DEFAULT_NETWORK_DIR,
    key: 'crio.network.network_dir',
  };

  const isList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
  let pluginDirs = setting('network', 'plugin_dirs', isList, 'a list of strings', cmd.pluginDirs) ?? {
    value: DEFAULT_PLUGIN_DIRS,
    key: 'crio.network.plugin_dirs',
  };
  // CRI-O appends the deprecated plugin_dir to whatever plugin_dirs came to be.
  const single = last('network', 'plugin_dir', isString, 'a string');
  if (single && single.value !== '') pluginDirs = { ...pluginDirs, value: [...pluginDirs.value, single.value] };

  const image = setting('image', 'pause_image', isString, 'a string', cmd.pauseImage);
  const pauseImage = image && image.value !== '' ? image : undefined;

  const listen = setting('api', 'listen', isString, 'a string', cmd.listen) ?? {
    value: DEFAULT_CRIO_SOCKET,
    key: 'crio.api.listen',
  };

  return {
    files: files.map((f) => f.path),
    mainFile: where.mainFile,
    dropInDir: where.dropInDir,
    cgroupManager,
    networkDir,
    pluginDirs,
    pauseImage,
    listen,
  };
}

/** The socket CRI-O listens on (its command line over its files), read even where another key is wrong. */
export function crioListen(files: readonly ParsedFile[], cmd: CrioCommandLine = {}): string {
  if (cmd.listen) return cmd.listen.value;
  let listen = DEFAULT_CRIO_SOCKET;
  for (const f of files) {
    const crio = isObj(f.doc.crio) ? f.doc.crio : undefined;
    const api = crio && isObj(crio.api) ? crio.api : undefined;
    if (api && typeof api.listen === 'string') listen = api.listen;
  }
  return listen;
}

/** Where a value came from, in words: the flag, the environment variable, the file and key, or CRI-O's default. */
export function crioOrigin(v: CrioValue<unknown>): string {
  if (v.flag) return `crio ${v.flag}`;
  if (v.env) return `crio's environment ${v.env}`;
  if (v.file) return `${v.file} ${v.key}`;
  return `CRI-O's default (${v.key} not set)`;
}
