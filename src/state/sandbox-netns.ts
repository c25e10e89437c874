// A sandbox's network, as the runtime reports it: PodSandboxStatus(verbose) -> where its network
// namespace is, whether it has one of its own, and the sandbox fields its CNI step needs.
//
// Facts used (read in the runtimes' sources and checked against containerd 1.6 in test/harness):
// - containerd: info["info"] is JSON with `pid`, `netNamespaceClosed`, `config` (the
//   PodSandboxConfig it was run with, Go JSON: snake_case keys, enums as numbers, zero values
//   omitted), `runtimeSpec` (OCI spec; linux.namespaces[type=network].path is the netns) and
//   `cniResult` (Interfaces keyed by name, Sandbox set for interfaces inside the pod).
// - CRI-O: info["info"] is JSON with `image`, `pid` and `runtimeSpec`; no sandbox config, but the
//   spec's annotations carry io.kubernetes.cri-o.{PortMappings,CgroupParent,Annotations,HostNetwork}.
// The pure part (parseSandboxNetwork, networkRequestFor, refusals) is apart from the I/O at the end.

import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { SyncpodError } from '../errors';
import type { DnsConfig, NetworkRequest, PortMapping } from '../cni/types';
import type * as T from '../cri/types';
import type { RuntimeService } from '../cri/grpc-runtime-service';
import { isObj, type Obj } from '../json-object';

export type RuntimeFlavour = 'containerd' | 'cri-o' | 'unknown';

/** What syncpod knows about one sandbox's network, from one PodSandboxStatus(verbose) response. */
export interface SandboxNetwork {
  id: string;
  name: string;
  namespace: string;
  uid: string;
  ready: boolean;
  /** linux.namespaces.options.network == NODE (or the runtime's own host-network marker). */
  hostNetwork: boolean;
  /** network.ip ('' when the runtime reports none). */
  ip: string;
  /** Netns path from the OCI spec of the sandbox, if the runtime showed one. */
  specNetnsPath?: string;
  /** Sandbox process id (0 or absent when it is not running). */
  pid?: number;
  /** containerd: the runtime closed the sandbox's netns. */
  netnsClosed?: boolean;
  /** Interfaces inside the pod the runtime's own CNI call reported (containerd's cniResult), sorted. */
  runtimeInterfaces?: string[];
  portMappings?: PortMapping[];
  dns?: DnsConfig;
  cgroupParent?: string;
  /** CRI-O: the resolv.conf it wrote from the sandbox's DNS config (io.kubernetes.cri-o.ResolvPath). */
  resolvPath?: string;
  annotations: Record<string, string>;
  flavour: RuntimeFlavour;
  /** What could not be learned (printed to stderr by the CLI). */
  notes: string[];
}

/** The first present key among spellings (camelCase protobuf JSON, snake_case Go JSON, Go field names). */
function pick(obj: Obj, ...keys: string[]): unknown {
  for (const k of keys) if (obj[k] !== undefined && obj[k] !== null) return obj[k];
  return undefined;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const num = (v: unknown): number =>
  typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : 0;
const strList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

function strMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObj(v)) return out;
  for (const k of Object.keys(v).sort()) if (typeof v[k] === 'string') out[k] = v[k] as string;
  return out;
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** CRI Protocol enum: a name, or Go JSON's number (TCP 0, UDP 1, SCTP 2); absent means TCP. */
function protocolOf(v: unknown): PortMapping['protocol'] {
  if (v === 1 || (typeof v === 'string' && v.toUpperCase() === 'UDP')) return 'UDP';
  if (v === 2 || (typeof v === 'string' && v.toUpperCase() === 'SCTP')) return 'SCTP';
  return 'TCP';
}

function portMappingsOf(v: unknown): PortMapping[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isObj).map((p) => ({
    protocol: protocolOf(pick(p, 'protocol', 'Protocol')),
    containerPort: num(pick(p, 'containerPort', 'container_port', 'ContainerPort')),
    hostPort: num(pick(p, 'hostPort', 'host_port', 'HostPort')),
    hostIp: str(pick(p, 'hostIp', 'host_ip', 'hostIP', 'HostIP', 'HostIp')),
  }));
}

function dnsOf(v: unknown): DnsConfig {
  const d = isObj(v) ? v : {};
  return {
    servers: strList(pick(d, 'servers', 'Servers')),
    searches: strList(pick(d, 'searches', 'Searches')),
    options: strList(pick(d, 'options', 'Options')),
  };
}

/** NamespaceMode from a name or Go JSON's number (POD 0, CONTAINER 1, NODE 2, TARGET 3). */
function isNodeMode(v: unknown): boolean {
  return v === 'NODE' || v === 2;
}

const CRIO = 'io.kubernetes.cri-o.';

/** Everything the status response says about the sandbox's network (pure). */
export function parseSandboxNetwork(resp: T.PodSandboxStatusResponse): SandboxNetwork {
  const status = resp.status;
  if (status === undefined) throw new SyncpodError('the runtime returned a sandbox status without a status');
  const notes: string[] = [];
  const info = parseJson(resp.info?.info);
  const verbose: Obj = isObj(info) ? info : {};
  if (!isObj(info)) {
    notes.push(
      `the runtime gave no verbose sandbox info for ${status.id}: netns path, port mappings, DNS and cgroup parent are unknown`,
    );
  }
  const spec = isObj(verbose.runtimeSpec) ? verbose.runtimeSpec : undefined;
  const specLinux = spec !== undefined && isObj(spec.linux) ? spec.linux : {};
  const specAnnotations = spec !== undefined ? strMap(spec.annotations) : {};
  const config = isObj(verbose.config) ? verbose.config : undefined;
  const flavour: RuntimeFlavour =
    config !== undefined || 'cniResult' in verbose || 'netNamespaceClosed' in verbose
      ? 'containerd'
      : Object.keys(specAnnotations).some((k) => k.startsWith(CRIO))
        ? 'cri-o'
        : 'unknown';

  let specNetnsPath: string | undefined;
  if (Array.isArray(specLinux.namespaces)) {
    for (const ns of specLinux.namespaces) {
      if (isObj(ns) && ns.type === 'network' && typeof ns.path === 'string' && ns.path !== '') specNetnsPath = ns.path;
    }
  }

  const configLinux = config !== undefined && isObj(pick(config, 'linux')) ? (pick(config, 'linux') as Obj) : {};
  const configSc = isObj(pick(configLinux, 'security_context', 'securityContext'))
    ? (pick(configLinux, 'security_context', 'securityContext') as Obj)
    : {};
  const configNsOpts = isObj(pick(configSc, 'namespace_options', 'namespaceOptions'))
    ? (pick(configSc, 'namespace_options', 'namespaceOptions') as Obj)
    : {};
  const hostNetwork =
    isNodeMode(status.linux?.namespaces?.options?.network) ||
    isNodeMode(configNsOpts.network) ||
    specAnnotations[`${CRIO}HostNetwork`] === 'true';

  let portMappings: PortMapping[] | undefined;
  let dns: DnsConfig | undefined;
  let cgroupParent: string | undefined;
  let resolvPath: string | undefined;
  let annotations: Record<string, string> = strMap(status.annotations);
  if (config !== undefined) {
    portMappings = portMappingsOf(pick(config, 'port_mappings', 'portMappings'));
    dns = dnsOf(pick(config, 'dns_config', 'dnsConfig'));
    const cg = str(pick(configLinux, 'cgroup_parent', 'cgroupParent'));
    cgroupParent = cg === '' ? undefined : cg;
    const fromConfig = pick(config, 'annotations');
    if (isObj(fromConfig)) annotations = strMap(fromConfig);
  } else if (flavour === 'cri-o') {
    portMappings = portMappingsOf(parseJson(specAnnotations[`${CRIO}PortMappings`]));
    const cg = specAnnotations[`${CRIO}CgroupParent`] ?? '';
    cgroupParent = cg === '' ? undefined : cg;
    const podAnnotations = parseJson(specAnnotations[`${CRIO}Annotations`]);
    if (isObj(podAnnotations)) annotations = strMap(podAnnotations);
    // No DNS config in its info: it is read back from the resolv.conf CRI-O wrote of it (withResolvConf).
    resolvPath = specAnnotations[`${CRIO}ResolvPath`] || undefined;
    if (resolvPath === undefined)
      notes.push(
        "CRI-O's verbose info has no sandbox DNS config nor resolv.conf path: the dns capability is not passed",
      );
  } else if (isObj(info)) {
    notes.push('the runtime does not echo the sandbox config: port mappings, DNS and cgroup parent are not passed');
  }

  let runtimeInterfaces: string[] | undefined;
  const cniResult = verbose.cniResult;
  if (isObj(cniResult) && isObj(cniResult.Interfaces)) {
    const ifs = cniResult.Interfaces;
    runtimeInterfaces = Object.keys(ifs)
      .filter((name) => isObj(ifs[name]) && str((ifs[name] as Obj).Sandbox) !== '')
      .sort();
  }

  const pid = num(verbose.pid);
  return {
    id: status.id,
    name: status.metadata?.name ?? '',
    namespace: status.metadata?.namespace ?? '',
    uid: status.metadata?.uid ?? '',
    ready: status.state === 'SANDBOX_READY',
    hostNetwork,
    ip: status.network?.ip ?? '',
    ...(specNetnsPath !== undefined ? { specNetnsPath } : {}),
    ...(pid > 0 ? { pid } : {}),
    ...(typeof verbose.netNamespaceClosed === 'boolean' ? { netnsClosed: verbose.netNamespaceClosed } : {}),
    ...(runtimeInterfaces !== undefined ? { runtimeInterfaces } : {}),
    ...(portMappings !== undefined ? { portMappings } : {}),
    ...(dns !== undefined ? { dns } : {}),
    ...(cgroupParent !== undefined ? { cgroupParent } : {}),
    ...(resolvPath !== undefined ? { resolvPath } : {}),
    annotations,
    flavour,
    notes,
  };
}

/**
 * The DNS config of a resolv.conf as CRI-O writes it from the sandbox's DNSConfig (`search` line,
 * `nameserver` lines, `options` line; CRI-O copies the node's resolv.conf when the config is empty).
 */
export function resolvConfDns(text: string): DnsConfig {
  const dns: DnsConfig = { servers: [], searches: [], options: [] };
  for (const raw of text.split('\n')) {
    const [key, ...rest] = raw
      .replace(/[#;].*$/, '')
      .trim()
      .split(/\s+/);
    if (key === 'nameserver' && rest[0]) dns.servers.push(rest[0]);
    else if (key === 'search' || key === 'domain') dns.searches = rest;
    else if (key === 'options') dns.options.push(...rest);
  }
  return dns;
}

export type NetVerb = 'set up' | 'tear down' | 'check';

/** Refusals that need no I/O: host network for every verb; a NOTREADY sandbox for set up and check. */
export function refuseSandbox(sb: SandboxNetwork, verb: NetVerb): void {
  if (sb.hostNetwork) {
    throw new SyncpodError(`sandbox ${sb.id} uses the host network: there is no pod network namespace to ${verb}`);
  }
  if (!sb.ready && verb !== 'tear down') {
    throw new SyncpodError(
      `sandbox ${sb.id} is NOTREADY: its network namespace is gone, there is nothing to ${verb} (net-teardown still works)`,
    );
  }
}

/**
 * Whether the sandbox already has `ifname`: from the interfaces seen inside its netns when they could
 * be listed; otherwise from the runtime's report (containerd's cniResult, or a pod IP on eth0).
 * Returns a reason, or undefined when the interface is free.
 */
export function existingInterface(
  sb: SandboxNetwork,
  ifname: string,
  insideNetns: string[] | undefined,
): string | undefined {
  if (insideNetns !== undefined) {
    if (!insideNetns.includes(ifname)) return undefined;
    const by =
      sb.runtimeInterfaces?.includes(ifname) || (ifname === 'eth0' && sb.ip !== '')
        ? ' (set up by the runtime in RunPodSandbox)'
        : '';
    return `interface ${ifname} already exists in its network namespace${by}`;
  }
  if (sb.runtimeInterfaces?.includes(ifname)) return `the runtime reports interface ${ifname} from its own CNI setup`;
  if (sb.runtimeInterfaces === undefined && ifname === 'eth0' && sb.ip !== '') {
    return `the runtime reports pod IP ${sb.ip}, i.e. it set up eth0 itself`;
  }
  return undefined;
}

export function alreadyAttachedError(sb: SandboxNetwork, ifname: string, reason: string): SyncpodError {
  return new SyncpodError(
    `sandbox ${sb.id} already has ${ifname}: ${reason}; pick another --ifname or run net-teardown first`,
  );
}

/** The CNI layer's request for this sandbox on `ifname`, with the netns path to pass ('' allowed for DEL). */
export function networkRequestFor(sb: SandboxNetwork, ifname: string, netnsPath: string): NetworkRequest {
  return {
    containerId: sb.id,
    netnsPath,
    ifname,
    podNamespace: sb.namespace,
    podName: sb.name,
    podUid: sb.uid,
    ...(sb.portMappings !== undefined ? { portMappings: sb.portMappings } : {}),
    ...(sb.dns !== undefined ? { dns: sb.dns } : {}),
    ...(sb.cgroupParent !== undefined ? { cgroupParent: sb.cgroupParent } : {}),
    annotations: sb.annotations,
  };
}

/** Candidate netns paths in order of preference: the spec's path, then /proc/<pid>/ns/net. */
export function netnsCandidates(sb: SandboxNetwork): string[] {
  const out: string[] = [];
  if (sb.specNetnsPath !== undefined) out.push(sb.specNetnsPath);
  if (sb.pid !== undefined) out.push(`/proc/${sb.pid}/ns/net`);
  return out;
}

/** Interface names from `ip -j link show` output (sorted), or undefined when it is not that JSON. */
export function parseIpLinkJson(text: string): string[] | undefined {
  const parsed = parseJson(text.trim());
  if (!Array.isArray(parsed)) return undefined;
  return parsed
    .filter(isObj)
    .map((l) => str(l.ifname))
    .filter((n) => n !== '')
    .sort();
}

// ---- I/O ----

export async function observeSandboxNetwork(runtime: RuntimeService, id: string): Promise<SandboxNetwork> {
  const resp = await runtime.call('PodSandboxStatus', { podSandboxId: id, verbose: true });
  return parseSandboxNetwork(resp);
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The sandbox with its DNS config read from CRI-O's resolv.conf (as `at` maps node paths), when the
 * runtime's info had none; a file that cannot be read is a note instead.
 */
export async function withResolvConf(
  sb: SandboxNetwork,
  at: (nodePath: string) => string = (p) => p,
): Promise<SandboxNetwork> {
  if (sb.dns !== undefined || sb.resolvPath === undefined) return sb;
  try {
    return { ...sb, dns: resolvConfDns(await readFile(at(sb.resolvPath), 'utf8')) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    return {
      ...sb,
      notes: [
        ...sb.notes,
        `cannot read CRI-O's resolv.conf of the sandbox (${sb.resolvPath}: ${code}): the dns capability is not passed`,
      ],
    };
  }
}

/** The first candidate netns path that exists (as `at` maps node paths, e.g. under --host-root), or undefined. */
export async function locateNetns(
  sb: SandboxNetwork,
  at: (nodePath: string) => string = (p) => p,
): Promise<string | undefined> {
  if (sb.netnsClosed === true) return undefined;
  for (const p of netnsCandidates(sb).map(at)) if (await exists(p)) return p;
  return undefined;
}

/** Interface names inside a netns (nsenter --net=PATH ip -j link show), or an error text. */
export function interfacesInNetns(netnsPath: string, timeoutMs = 10_000): Promise<string[] | { error: string }> {
  return new Promise((resolve) => {
    execFile(
      'nsenter',
      [`--net=${netnsPath}`, '--', 'ip', '-j', 'link', 'show'],
      { timeout: timeoutMs, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (err) {
          resolve({ error: (stderr || err.message).trim().split('\n')[0] });
          return;
        }
        resolve(parseIpLinkJson(stdout) ?? { error: 'ip -j link show printed no JSON list' });
      },
    );
  });
}
