// What containerd's own configuration file says about the settings a kubelet depends on: the cgroup
// driver of the default runtime (runc's SystemdCgroup option), the CNI directories,
// restrict_oom_score_adj and the sandbox (pause) image. Both layouts are read:
//
//   version 2 (containerd 1.x, and 2.x after migrating it in memory)
//     plugins."io.containerd.grpc.v1.cri"                        one table for all of CRI:
//       .containerd.default_runtime_name, .containerd.runtimes.NAME.options.SystemdCgroup,
//       .cni.bin_dir (one directory), .cni.conf_dir, .restrict_oom_score_adj, .sandbox_image
//   version 3 (containerd 2.x)
//     plugins."io.containerd.cri.v1.runtime"   .containerd…, .cni.bin_dirs (a list), .cni.conf_dir,
//                                              .restrict_oom_score_adj
//     plugins."io.containerd.cri.v1.images"    .pinned_images.sandbox
//   version 1 (no `version` line; plugins.cri): read as version 2's table under its old name.
//
// `imports` are followed as containerd does (relative to the importing file, globs, each file once);
// a plugin table in a later file replaces the whole table of an earlier one (containerd merges its
// plugins map by plugin name, values replaced entirely), and a version 2 file read by containerd 2.x
// has its CRI table moved to the runtime and images plugins (bin_dir becoming bin_dirs). Defaults
// are containerd's where a key is absent (SystemdCgroup false, /opt/cni/bin, /etc/cni/net.d, false);
// the sandbox image's default depends on the release, so an absent one is reported as not set.
// Pure: files are read by the caller (src/node/containerd-process.ts).

export interface ConfigValue<T> {
  value: T;
  /** The key as spelled in the file that set it, or that containerd would read (default). */
  key: string;
  /** The file that set it; absent: containerd's default. */
  file?: string;
}

export interface ContainerdConfig {
  /** The main file (as containerd names it) and every imported file read, in order. */
  files: string[];
  /** The main file's `version` (1 when it has none). */
  version: number;
  runtimeName: ConfigValue<string>;
  cgroupDriver: ConfigValue<'systemd' | 'cgroupfs'>;
  cniBinDirs: ConfigValue<string[]>;
  cniConfDir: ConfigValue<string>;
  restrictOOMScoreAdj: ConfigValue<boolean>;
  /** Absent when no file sets it (containerd then uses its release's default pause image). */
  sandboxImage?: ConfigValue<string>;
}

/** Where containerd's configuration was read from, or why it was not. */
export type ContainerdConfigRead =
  | {
      found: true;
      config: ContainerdConfig;
      /** How the file was found: "containerd pid N --config …", "default path". */
      via: string;
    }
  | { found: false; why: string };

export interface ParsedFile {
  /** The path as containerd sees it. */
  path: string;
  /** The parsed TOML document. */
  doc: Record<string, unknown>;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export const CRI_V2 = 'io.containerd.grpc.v1.cri';
export const CRI_RUNTIME_V3 = 'io.containerd.cri.v1.runtime';
export const CRI_IMAGES_V3 = 'io.containerd.cri.v1.images';
const DEFAULT_BIN_DIRS = ['/opt/cni/bin'];
const DEFAULT_CONF_DIR = '/etc/cni/net.d';

/** A TOML key part, quoted when it is not a bare key (as containerd's own config dump writes them). */
const part = (k: string) => (/^[A-Za-z0-9_-]+$/.test(k) ? k : `"${k}"`);
const keyOf = (...parts: string[]) => parts.map(part).join('.');

/** The file's `version` (containerd treats a missing one as 1). */
export function configVersion(doc: Obj): number {
  return typeof doc.version === 'number' ? doc.version : typeof doc.version === 'bigint' ? Number(doc.version) : 1;
}

/** One file's CRI tables, each with the key prefix it is spelled with in that file. */
interface Tables {
  runtime?: { table: Obj; prefix: string[]; file: string };
  images?: { table: Obj; prefix: string[]; file: string };
}

function tablesOf(f: ParsedFile): Tables {
  const plugins = isObj(f.doc.plugins) ? f.doc.plugins : {};
  const version = configVersion(f.doc);
  const out: Tables = {};
  // version 1 named the CRI plugin "cri"; version 2 its full id; both are one table for all of CRI.
  const v2Name = version <= 1 ? 'cri' : CRI_V2;
  const v2 = isObj(plugins[v2Name]) ? plugins[v2Name] : undefined;
  if (version >= 3 || isObj(plugins[CRI_RUNTIME_V3]) || isObj(plugins[CRI_IMAGES_V3])) {
    if (isObj(plugins[CRI_RUNTIME_V3]))
      out.runtime = { table: plugins[CRI_RUNTIME_V3], prefix: ['plugins', CRI_RUNTIME_V3], file: f.path };
    if (isObj(plugins[CRI_IMAGES_V3]))
      out.images = { table: plugins[CRI_IMAGES_V3], prefix: ['plugins', CRI_IMAGES_V3], file: f.path };
  }
  if (version < 3 && v2) {
    // containerd 2.x moves these into the runtime and images plugins, keeping what those already set.
    out.runtime ??= { table: v2, prefix: ['plugins', v2Name], file: f.path };
    out.images ??= { table: v2, prefix: ['plugins', v2Name], file: f.path };
  }
  return out;
}

function at(table: Obj, path: string[]): unknown {
  let v: unknown = table;
  for (const p of path) {
    if (!isObj(v)) return undefined;
    v = v[p];
  }
  return v;
}

/**
 * The settings, from the main file followed by its imports (as `readImports` resolved them). Throws
 * an Error naming the file and key when a value has the wrong type (containerd refuses such a file).
 */
export function containerdConfigFacts(files: readonly ParsedFile[]): ContainerdConfig {
  if (files.length === 0) throw new Error('no containerd config file');
  const main = files[0];
  const version = configVersion(main.doc);
  let runtime: Tables['runtime'];
  let images: Tables['images'];
  for (const f of files) {
    const t = tablesOf(f);
    if (t.runtime) runtime = t.runtime;
    if (t.images) images = t.images;
  }
  const v3 = version >= 3;
  const defaultPrefix = v3 ? ['plugins', CRI_RUNTIME_V3] : ['plugins', version <= 1 ? 'cri' : CRI_V2];
  const bad = (file: string, key: string, want: string, got: unknown): Error =>
    new Error(`${file}: ${key} must be ${want}, got ${JSON.stringify(got)}`);

  const rt = runtime?.table ?? {};
  const rtPrefix = runtime?.prefix ?? defaultPrefix;
  const rtFile = runtime?.file;
  const value = <T>(path: string[], check: (v: unknown) => v is T, want: string, dflt: T): ConfigValue<T> => {
    const v = at(rt, path);
    const key = keyOf(...rtPrefix, ...path);
    if (v === undefined) return { value: dflt, key };
    if (!check(v)) throw bad(rtFile ?? main.path, key, want, v);
    return { value: v, key, file: rtFile };
  };
  const isString = (v: unknown): v is string => typeof v === 'string';
  const isBool = (v: unknown): v is boolean => typeof v === 'boolean';

  const named = value(['containerd', 'default_runtime_name'], isString, 'a string', 'runc');
  const runtimeName: ConfigValue<string> = named.value === '' ? { ...named, value: 'runc' } : named;
  const systemd = value(
    ['containerd', 'runtimes', runtimeName.value, 'options', 'SystemdCgroup'],
    isBool,
    'true or false',
    false,
  );
  const cgroupDriver: ConfigValue<'systemd' | 'cgroupfs'> = {
    ...systemd,
    value: systemd.value ? 'systemd' : 'cgroupfs',
  };

  // bin_dirs (2.1+; a version 2 file's bin_dir is migrated to it), else bin_dir (containerd 1.x and 2.0).
  const list = at(rt, ['cni', 'bin_dirs']);
  const single = at(rt, ['cni', 'bin_dir']);
  let cniBinDirs: ConfigValue<string[]>;
  if (list !== undefined && !(Array.isArray(list) && list.length === 0 && single !== undefined)) {
    const key = keyOf(...rtPrefix, 'cni', 'bin_dirs');
    if (!Array.isArray(list) || !list.every(isString)) throw bad(rtFile ?? main.path, key, 'a list of strings', list);
    cniBinDirs = { value: list.length ? list : DEFAULT_BIN_DIRS, key, file: list.length ? rtFile : undefined };
  } else if (single !== undefined) {
    const key = keyOf(...rtPrefix, 'cni', 'bin_dir');
    if (!isString(single)) throw bad(rtFile ?? main.path, key, 'a string', single);
    cniBinDirs = { value: single ? [single] : DEFAULT_BIN_DIRS, key, file: single ? rtFile : undefined };
  } else {
    cniBinDirs = { value: DEFAULT_BIN_DIRS, key: keyOf(...rtPrefix, 'cni', v3 ? 'bin_dirs' : 'bin_dir') };
  }
  const conf = value(['cni', 'conf_dir'], isString, 'a string', DEFAULT_CONF_DIR);
  const cniConfDir = conf.value === '' ? { value: DEFAULT_CONF_DIR, key: conf.key } : conf;
  const restrictOOMScoreAdj = value(['restrict_oom_score_adj'], isBool, 'true or false', false);

  let sandboxImage: ConfigValue<string> | undefined;
  if (images) {
    const v3Images = images.prefix[1] === CRI_IMAGES_V3;
    const path = v3Images ? ['pinned_images', 'sandbox'] : ['sandbox_image'];
    const v = at(images.table, path);
    const key = keyOf(...images.prefix, ...path);
    if (v !== undefined) {
      if (!isString(v)) throw bad(images.file, key, 'a string', v);
      if (v !== '') sandboxImage = { value: v, key, file: images.file };
    }
  }
  return {
    files: files.map((f) => f.path),
    version,
    runtimeName,
    cgroupDriver,
    cniBinDirs,
    cniConfDir,
    restrictOOMScoreAdj,
    sandboxImage,
  };
}

/** The file's `imports`, resolved as containerd does: relative to the importing file's directory. */
export function importsOf(f: ParsedFile): string[] {
  const list = Array.isArray(f.doc.imports) ? f.doc.imports.filter((i): i is string => typeof i === 'string') : [];
  const dir = f.path.slice(0, f.path.lastIndexOf('/')) || '/';
  return list.map((p) => (p.startsWith('/') ? p : `${dir}/${p}`).replace(/\/\.\//g, '/').replace(/\/{2,}/g, '/'));
}

/** The gRPC socket the file configures (containerd's default when absent). */
export function grpcAddress(doc: Obj): string {
  const grpc = isObj(doc.grpc) ? doc.grpc : {};
  return typeof grpc.address === 'string' && grpc.address ? grpc.address : '/run/containerd/containerd.sock';
}
