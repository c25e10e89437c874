// Where syncpod connects and how long it waits, resolved the way crictl does it:
// flag > environment variable > config file (crictl.yaml) > the running kubelet's endpoints (node
// profile) > crictl's default sockets.
import type { ApiVersion } from '../cri/grpc-runtime-service';
import { SyncpodError } from '../errors';
import { parseGoDuration } from './duration';
import { endpointOnHost, hostRootOf, onHost } from './host-root';

export const DEFAULT_RUNTIME_ENDPOINTS = [
  'unix:///run/containerd/containerd.sock',
  'unix:///run/crio/crio.sock',
  'unix:///var/run/cri-dockerd.sock',
];
export const DEFAULT_CONFIG_FILE = '/etc/crictl.yaml';
export const DEFAULT_TIMEOUT_MS = 2000;

export type { ApiVersion };

export type Source = 'flag' | 'env' | 'config' | 'kubelet' | 'default';

/** Global options as given on the command line (undefined = not given). */
export interface GlobalFlags {
  runtimeEndpoint?: string;
  imageEndpoint?: string;
  timeout?: string;
  config?: string;
  debug?: boolean;
  api?: string;
  /** --no-node-profile: do not read the running kubelet. */
  noNodeProfile?: boolean;
  hostRoot?: string;
}

/** The keys of crictl's config file that syncpod understands. */
export interface ConfigFile {
  path: string;
  runtimeEndpoint?: string;
  imageEndpoint?: string;
  timeoutSeconds?: number;
  debug?: boolean;
  pullImageOnCreate?: boolean;
  disablePullOnRun?: boolean;
}

export interface Settings {
  /** Endpoints to try in order; one element unless nothing was configured. */
  runtimeEndpoints: string[];
  runtimeEndpointSource: Source;
  /** undefined: same as the runtime endpoint that answers. */
  imageEndpoint?: string;
  imageEndpointSource: Source;
  timeoutMs: number;
  debug: boolean;
  /** undefined: negotiate (v1, falling back to v1alpha2 on Unimplemented). */
  api?: ApiVersion;
  configFile?: ConfigFile;
  /** Where the node's root is seen from here ('/' unless --host-root / SYNCPOD_HOST_ROOT). */
  hostRoot: string;
}

export interface SettingsInputs {
  flags: GlobalFlags;
  env: Record<string, string | undefined>;
  /** Returns the file's text, or undefined when it does not exist; throws on other errors. */
  readFile: (path: string) => string | undefined;
  /** Parses YAML text (injected so the yaml package loads only when a config file exists). */
  parseYaml: (text: string) => unknown;
  /**
   * The running kubelet's containerRuntimeEndpoint/imageServiceEndpoint; asked only when flag, env
   * and crictl.yaml name no runtime endpoint. Absent or undefined: no kubelet (or --no-node-profile).
   */
  kubeletEndpoints?: () => { runtime: string; image?: string } | undefined;
}

/** The longest timeout: what a timer can wait (2^31-1 ms, about 24.8 days). */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Parses a timeout: a Go-style duration ("2s", "500ms", "1m30s") or plain seconds ("2"). The range
 * is checked here, before anything uses it: at least 1ms (a zero deadline would fail every call
 * and blame the runtime) and at most MAX_TIMEOUT_MS.
 */
export function parseTimeout(text: string, what = '--timeout'): number {
  const t = text.trim();
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(t)) ms = Number(t) * 1000;
  else {
    const ns = parseGoDuration(t);
    if (ns === undefined) throw new SyncpodError(`${what}: invalid duration "${text}" (use e.g. 2s, 500ms, 1m)`);
    ms = ns / 1e6;
  }
  if (!(ms >= 1) || ms > MAX_TIMEOUT_MS) {
    throw new SyncpodError(`${what}: must be between 1ms and ${Math.floor(MAX_TIMEOUT_MS / 3.6e6)}h, got "${text}"`);
  }
  return Math.round(ms);
}

function parseBool(path: string, key: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  const s = String(value).toLowerCase();
  if (['1', 't', 'true'].includes(s)) return true;
  if (['0', 'f', 'false'].includes(s)) return false;
  throw new SyncpodError(`${path}: ${key}: not a boolean: "${String(value)}"`);
}

/** The yaml package's error as `line L, column C: what` (it writes "what at line L, column C:"). */
export function yamlErrorLine(err: unknown): string {
  const first = err instanceof Error ? err.message.split('\n')[0]! : String(err);
  const m = /^(.*) at line (\d+), column (\d+):?$/.exec(first);
  const what = m ? m[1]! : first;
  const text = /Maximum call stack size exceeded/.test(what) ? 'nested too deeply' : what;
  return m ? `line ${m[2]}, column ${m[3]}: ${text}` : text;
}

/** Reads crictl's config file format: a flat YAML mapping of known keys. */
export function parseConfigFile(path: string, text: string, parseYaml: (t: string) => unknown): ConfigFile {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new SyncpodError(`${path}: ${yamlErrorLine(err)}`);
  }
  const cfg: ConfigFile = { path };
  if (doc === null || doc === undefined) return cfg;
  if (typeof doc !== 'object' || Array.isArray(doc)) {
    throw new SyncpodError(
      `${path}: expected a mapping of options such as "runtime-endpoint: unix:///run/containerd/containerd.sock"`,
    );
  }
  for (const [key, value] of Object.entries(doc as Record<string, unknown>)) {
    switch (key) {
      case 'runtime-endpoint':
        cfg.runtimeEndpoint = value == null ? '' : String(value);
        break;
      case 'image-endpoint':
        cfg.imageEndpoint = value == null ? '' : String(value);
        break;
      case 'timeout': {
        const n = typeof value === 'number' ? value : Number(String(value));
        if (!Number.isInteger(n))
          throw new SyncpodError(`${path}: timeout: not a whole number of seconds: "${String(value)}"`);
        // The same ceiling as --timeout (a timer cannot wait longer); 0 or less means crictl's default.
        if (n * 1000 > MAX_TIMEOUT_MS)
          throw new SyncpodError(
            `${path}: timeout: must be between 1ms and ${Math.floor(MAX_TIMEOUT_MS / 3.6e6)}h, got "${String(value)}"`,
          );
        cfg.timeoutSeconds = n;
        break;
      }
      case 'debug':
        cfg.debug = parseBool(path, key, value);
        break;
      case 'pull-image-on-create':
        cfg.pullImageOnCreate = parseBool(path, key, value);
        break;
      case 'disable-pull-on-run':
        cfg.disablePullOnRun = parseBool(path, key, value);
        break;
      case 'max-retries':
        break; // accepted for crictl compatibility; syncpod does not retry connections
      default:
        throw new SyncpodError(`${path}: config option "${key}" is not valid`);
    }
  }
  return cfg;
}

export function parseApiVersion(text: string | undefined): ApiVersion | undefined {
  if (text === undefined || text === '' || text === 'auto') return undefined;
  if (text === 'v1' || text === 'v1alpha2') return text;
  throw new SyncpodError(`--api: must be v1 or v1alpha2, got "${text}"`);
}

/** crictl's client config file: -c, else CRI_CONFIG_FILE (syncpod's inputs), else the node's /etc/crictl.yaml (under --host-root). */
export function crictlConfigPath(
  flags: { config?: string; hostRoot?: string },
  env: Record<string, string | undefined>,
): { path: string; explicit: boolean } {
  const explicitConfig = flags.config ?? (env.CRI_CONFIG_FILE || undefined);
  return explicitConfig !== undefined
    ? { path: explicitConfig, explicit: true }
    : { path: onHost(hostRootOf(flags.hostRoot, env), DEFAULT_CONFIG_FILE), explicit: false };
}

export function resolveSettings(inputs: SettingsInputs): Settings {
  const { flags, env } = inputs;
  const hostRoot = hostRootOf(flags.hostRoot, env);
  const { path: configPath, explicit } = crictlConfigPath(flags, env);
  let configFile: ConfigFile | undefined;
  let text: string | undefined;
  try {
    text = inputs.readFile(configPath);
  } catch (err) {
    if (err instanceof SyncpodError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new SyncpodError(
      `config file ${configPath}: ${code === 'EACCES' ? 'permission denied' : (err as Error).message}`,
    );
  }
  if (text === undefined) {
    if (explicit) throw new SyncpodError(`config file ${configPath}: no such file`);
  } else {
    configFile = parseConfigFile(configPath, text, inputs.parseYaml);
  }

  let runtimeEndpoints: string[];
  let runtimeEndpointSource: Source;
  if (flags.runtimeEndpoint) {
    runtimeEndpoints = [flags.runtimeEndpoint];
    runtimeEndpointSource = 'flag';
  } else if (env.CONTAINER_RUNTIME_ENDPOINT) {
    runtimeEndpoints = [env.CONTAINER_RUNTIME_ENDPOINT];
    runtimeEndpointSource = 'env';
  } else if (configFile?.runtimeEndpoint) {
    runtimeEndpoints = [configFile.runtimeEndpoint];
    runtimeEndpointSource = 'config';
  } else {
    runtimeEndpoints = [...DEFAULT_RUNTIME_ENDPOINTS];
    runtimeEndpointSource = 'default';
  }
  const kubelet = runtimeEndpointSource === 'default' ? inputs.kubeletEndpoints?.() : undefined;
  if (kubelet) {
    runtimeEndpoints = [kubelet.runtime];
    runtimeEndpointSource = 'kubelet';
  }

  let imageEndpoint: string | undefined;
  let imageEndpointSource: Source = 'default';
  if (flags.imageEndpoint) {
    imageEndpoint = flags.imageEndpoint;
    imageEndpointSource = 'flag';
  } else if (env.IMAGE_SERVICE_ENDPOINT) {
    imageEndpoint = env.IMAGE_SERVICE_ENDPOINT;
    imageEndpointSource = 'env';
  } else if (configFile?.imageEndpoint) {
    imageEndpoint = configFile.imageEndpoint;
    imageEndpointSource = 'config';
  } else if (kubelet?.image) {
    imageEndpoint = kubelet.image;
    imageEndpointSource = 'kubelet';
  }

  let timeoutMs = DEFAULT_TIMEOUT_MS;
  if (flags.timeout !== undefined) timeoutMs = parseTimeout(flags.timeout);
  else if (configFile?.timeoutSeconds !== undefined && configFile.timeoutSeconds > 0)
    timeoutMs = configFile.timeoutSeconds * 1000;

  return {
    runtimeEndpoints: runtimeEndpoints.map((e) => endpointOnHost(hostRoot, e)),
    runtimeEndpointSource,
    imageEndpoint: imageEndpoint === undefined ? undefined : endpointOnHost(hostRoot, imageEndpoint),
    imageEndpointSource,
    timeoutMs,
    debug: flags.debug ?? configFile?.debug ?? false,
    api: parseApiVersion(flags.api),
    configFile,
    hostRoot,
  };
}
