// The kubelet's command line, read the way kubelet's pflag set reads it (cmd/kubelet/app/options,
// kubelet 1.29–1.37): `--name=value`, `--name value`, bare boolean flags, `_` and `-` equal in
// names, the last occurrence wins, `--cluster-dns` values accumulate, `--feature-gates` merge per
// gate. Only the flags that carry node settings syncpod uses are kept. Pure.
import { isIP } from 'node:net';
import { SyncpodError } from '../errors';

/** KubeletConfiguration fields (v1beta1 JSON names) that a kubelet flag can set. */
export type FlagField =
  | 'cgroupDriver'
  | 'cgroupRoot'
  | 'cgroupsPerQOS'
  | 'clusterDNS'
  | 'allowedUnsafeSysctls'
  | 'clusterDomain'
  | 'resolvConf'
  | 'staticPodPath'
  | 'containerRuntimeEndpoint'
  | 'imageServiceEndpoint';

/** Flag name -> the KubeletConfiguration field it overrides (AddKubeletConfigFlags). */
export const CONFIG_FLAGS: Record<string, { field: FlagField; kind: 'string' | 'bool' | 'list' }> = {
  'cgroup-driver': { field: 'cgroupDriver', kind: 'string' },
  'cgroup-root': { field: 'cgroupRoot', kind: 'string' },
  'cgroups-per-qos': { field: 'cgroupsPerQOS', kind: 'bool' },
  'cluster-dns': { field: 'clusterDNS', kind: 'list' },
  'allowed-unsafe-sysctls': { field: 'allowedUnsafeSysctls', kind: 'list' },
  'cluster-domain': { field: 'clusterDomain', kind: 'string' },
  'resolv-conf': { field: 'resolvConf', kind: 'string' },
  'pod-manifest-path': { field: 'staticPodPath', kind: 'string' },
  'container-runtime-endpoint': { field: 'containerRuntimeEndpoint', kind: 'string' },
  'image-service-endpoint': { field: 'imageServiceEndpoint', kind: 'string' },
};

/** Kubelet flags that take no value (`--name` alone means true); every other flag takes one. */
const BOOL_FLAGS = new Set([
  'help',
  'version',
  'enable-server',
  'fail-swap-on',
  'anonymous-auth',
  'authentication-token-webhook',
  'rotate-server-certificates',
  'rotate-certificates',
  'enable-debugging-handlers',
  'contention-profiling',
  'cgroups-per-qos',
  'runonce',
  'cpu-cfs-quota',
  'enable-controller-attach-detach',
  'make-iptables-util-chains',
  'kernel-memcg-notification',
  'local-storage-capacity-isolation',
  'serialize-image-pulls',
  'protect-kernel-defaults',
  'register-node',
  'seccomp-default',
  'exit-on-lock-contention',
  'register-schedulable',
  'keep-terminated-pod-volumes',
  'experimental-allocatable-ignore-eviction',
  'log-json-split-stream',
  'log-text-split-stream',
]);

export interface FlagValue<T> {
  value: T;
  /** The flag as written, e.g. `--cgroup-driver`. */
  flag: string;
}

export interface KubeletCommandLine {
  configFile?: string;
  configDir?: string;
  rootDir?: string;
  hostnameOverride?: string;
  /** Config fields set on the command line. */
  fields: Partial<Record<FlagField, FlagValue<unknown>>>;
  /** Gates set with --feature-gates (merged over the config's gates per gate). */
  featureGates: Record<string, boolean>;
}

/** Go's strconv.ParseBool. */
export function parseGoBool(text: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  return undefined;
}

/** `A=true,B=false` (cliflag MapStringBool): entries trimmed, each NAME=BOOL. */
export function parseGateList(text: string, where: string): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const raw of text.split(',')) {
    const part = raw.trim();
    if (part === '') continue;
    const eq = part.indexOf('=');
    const value = eq > 0 ? parseGoBool(part.slice(eq + 1).trim()) : undefined;
    if (eq <= 0 || value === undefined) throw new SyncpodError(`${where}: "${part}" is not NAME=true|false`);
    out[part.slice(0, eq).trim()] = value;
  }
  return out;
}

/**
 * Reads argv (without argv[0]). `where` names the process in errors ("kubelet pid 812"). A value
 * the kubelet itself would have refused is an error: such a kubelet does not run.
 */
export function parseKubeletArgs(argv: string[], where: string): KubeletCommandLine {
  const out: KubeletCommandLine = { fields: {}, featureGates: {} };
  const listSeen = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') break;
    if (!arg.startsWith('-') || arg === '-') continue;
    const body = arg.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = (eq >= 0 ? body.slice(0, eq) : body).replace(/_/g, '-');
    let value: string | undefined = eq >= 0 ? body.slice(eq + 1) : undefined;
    const spec = CONFIG_FLAGS[name];
    const isBool = BOOL_FLAGS.has(name);
    if (value === undefined && !isBool) {
      const next = argv[i + 1];
      const known =
        spec !== undefined || ['config', 'config-dir', 'root-dir', 'hostname-override', 'feature-gates'].includes(name);
      // pflag takes the next word as the value of a flag that needs one; for flags syncpod does
      // not know, a following `--flag` is taken as the next flag instead.
      if (next !== undefined && (known || !next.startsWith('-'))) {
        value = next;
        i++;
      }
    }
    const flag = `--${name}`;
    const need = (): string => {
      if (value === undefined) throw new SyncpodError(`${where}: flag ${flag} needs an argument`);
      return value;
    };
    switch (name) {
      case 'config':
        out.configFile = need();
        continue;
      case 'config-dir':
        out.configDir = need();
        continue;
      case 'root-dir':
        out.rootDir = need();
        continue;
      case 'hostname-override':
        out.hostnameOverride = need();
        continue;
      case 'feature-gates':
        Object.assign(out.featureGates, parseGateList(need(), `${where}: ${flag}`));
        continue;
    }
    if (!spec) continue;
    if (spec.kind === 'bool') {
      const b = value === undefined ? true : parseGoBool(value);
      if (b === undefined) throw new SyncpodError(`${where}: ${flag}: "${value}" is not a boolean`);
      out.fields[spec.field] = { value: b, flag };
    } else if (spec.kind === 'list') {
      const items = need() === '' ? [] : need().split(',');
      const bad = spec.field === 'clusterDNS' ? items.find((ip) => isIP(ip) === 0) : undefined;
      if (bad !== undefined) throw new SyncpodError(`${where}: ${flag}: "${bad}" is not an IP address`);
      const prev = listSeen.has(spec.field) ? ((out.fields[spec.field]?.value as string[]) ?? []) : [];
      out.fields[spec.field] = { value: [...prev, ...items], flag };
      listSeen.add(spec.field);
    } else {
      if (name === 'cgroup-driver' && need() !== 'cgroupfs' && need() !== 'systemd') {
        throw new SyncpodError(`${where}: ${flag}: must be cgroupfs or systemd, got "${need()}"`);
      }
      out.fields[spec.field] = { value: need(), flag };
    }
  }
  return out;
}
