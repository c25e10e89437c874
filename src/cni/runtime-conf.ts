// The runtime side of an invocation: CNI_ARGS, capability arguments and the per-plugin stdin,
// derived from a sandbox the way containerd's CRI plugin and libcni do (facts: containerd
// sandbox_run.go, CNI SPEC.md 1.1.0 "Deriving request configuration", CONVENTIONS.md).

import { CniConfigError } from './errors';
import type { CniCommand, Invocation, JsonObject, NetworkConfigList, NetworkRequest, PluginConf, Json } from './types';

export const INGRESS_BANDWIDTH_ANNOTATION = 'kubernetes.io/ingress-bandwidth';
export const EGRESS_BANDWIDTH_ANNOTATION = 'kubernetes.io/egress-bandwidth';
export const POD_ANNOTATIONS_CAPABILITY = 'io.kubernetes.cri.pod-annotations';
/** containerd sets every burst to the largest uint32. */
export const BANDWIDTH_BURST = 4294967295;

/** CNI_ARGS pairs in the order syncpod passes them. */
export function cniArgsFor(request: NetworkRequest): [string, string][] {
  return [
    ['IgnoreUnknown', '1'],
    ['K8S_POD_NAMESPACE', request.podNamespace],
    ['K8S_POD_NAME', request.podName],
    ['K8S_POD_INFRA_CONTAINER_ID', request.containerId],
    ['K8S_POD_UID', request.podUid],
  ];
}

export function formatCniArgs(pairs: [string, string][]): string {
  return pairs.map(([k, v]) => `${k}=${v}`).join(';');
}

const BINARY_SUFFIX: Record<string, number> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};
const DECIMAL_SUFFIX: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

/**
 * The integer value of a Kubernetes resource quantity ("10M", "1Gi", "1.5k", "2e6"), rounded up as
 * resource.Quantity.Value() does. Throws CniConfigError for anything else.
 */
export function parseQuantity(text: string, what: string): number {
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?)$/.exec(text.trim());
  if (m === null) throw new CniConfigError(`${what}: "${text}" is not a quantity (e.g. 10M, 1Gi)`);
  const base = Number(m[1]);
  let factor = 1;
  if (m[2] !== undefined) factor = 10 ** Number(m[2].slice(1));
  else if (m[3] !== undefined) factor = BINARY_SUFFIX[m[3]] ?? DECIMAL_SUFFIX[m[3]];
  return Math.ceil(base * factor);
}

function bandwidthValue(annotations: Record<string, string>, key: string): number | undefined {
  const text = annotations[key];
  if (text === undefined) return undefined;
  const value = parseQuantity(text, `annotation ${key}`);
  if (value < 1e3) throw new CniConfigError(`annotation ${key}: ${text} is unreasonably small (< 1kbit)`);
  if (value > 1e15) throw new CniConfigError(`annotation ${key}: ${text} is unreasonably large (> 1Pbit)`);
  return value;
}

/**
 * Capability arguments offered to every plugin; each plugin gets only the ones it declares.
 * Keys are emitted in sorted order for deterministic output.
 */
export function capabilityArgsFor(request: NetworkRequest): JsonObject {
  const caps: JsonObject = {};
  const annotations = request.annotations ?? {};

  const ingress = bandwidthValue(annotations, INGRESS_BANDWIDTH_ANNOTATION);
  const egress = bandwidthValue(annotations, EGRESS_BANDWIDTH_ANNOTATION);
  if (ingress !== undefined || egress !== undefined) {
    const bw: JsonObject = {};
    if (ingress !== undefined) Object.assign(bw, { ingressRate: ingress, ingressBurst: BANDWIDTH_BURST });
    if (egress !== undefined) Object.assign(bw, { egressRate: egress, egressBurst: BANDWIDTH_BURST });
    caps.bandwidth = bw;
  }
  if (request.cgroupParent !== undefined && request.cgroupParent !== '') caps.cgroupPath = request.cgroupParent;
  if (request.dns !== undefined) {
    caps.dns = {
      servers: [...request.dns.servers],
      searches: [...request.dns.searches],
      options: [...request.dns.options],
    };
  }
  const sortedAnnotations: JsonObject = {};
  for (const key of Object.keys(annotations).sort()) sortedAnnotations[key] = annotations[key];
  caps[POD_ANNOTATIONS_CAPABILITY] = sortedAnnotations;

  const mappings = (request.portMappings ?? []).filter((p) => p.hostPort > 0);
  if (mappings.length > 0) {
    caps.portMappings = mappings.map((p) => ({
      hostPort: p.hostPort,
      containerPort: p.containerPort,
      protocol: p.protocol.toLowerCase(),
      hostIP: p.hostIp,
    }));
  }
  const sorted: JsonObject = {};
  for (const key of Object.keys(caps).sort()) sorted[key] = caps[key];
  return sorted;
}

/** Environment of one invocation (CNI_* only; the exec adds its own process environment). */
export function invocationEnv(command: CniCommand, runtime: RuntimeConf, binDirs: string[]): Record<string, string> {
  return {
    CNI_COMMAND: command,
    CNI_CONTAINERID: runtime.containerId,
    CNI_NETNS: runtime.netnsPath,
    CNI_IFNAME: runtime.ifname,
    CNI_ARGS: formatCniArgs(runtime.cniArgs),
    CNI_PATH: binDirs.join(':'),
  };
}

/** libcni's RuntimeConf: the attachment plus its arguments. */
export interface RuntimeConf {
  containerId: string;
  netnsPath: string;
  ifname: string;
  cniArgs: [string, string][];
  capabilityArgs: JsonObject;
}

export function runtimeConfFor(request: NetworkRequest): RuntimeConf {
  return {
    containerId: request.containerId,
    netnsPath: request.netnsPath,
    ifname: request.ifname,
    cniArgs: cniArgsFor(request),
    capabilityArgs: capabilityArgsFor(request),
  };
}

/**
 * The stdin of one plugin: its configuration with `cniVersion` and `name` of the list set,
 * `runtimeConfig` holding the capability arguments the plugin declares (omitted when none apply)
 * and `prevResult` when there is one. Other keys pass through unchanged, `capabilities` included,
 * as libcni sends them.
 */
export function pluginStdin(
  network: NetworkConfigList,
  plugin: PluginConf,
  capabilityArgs: JsonObject,
  prevResult: Json | undefined,
): JsonObject {
  const out: JsonObject = { ...plugin.raw, cniVersion: network.cniVersion, name: network.name };
  const runtimeConfig: JsonObject = {};
  for (const cap of plugin.capabilities) {
    if (capabilityArgs[cap] !== undefined) runtimeConfig[cap] = capabilityArgs[cap];
  }
  if (Object.keys(runtimeConfig).length > 0) out.runtimeConfig = runtimeConfig;
  if (prevResult !== undefined) out.prevResult = prevResult;
  return out;
}

/** Build one invocation record (used both to run and to describe). */
export function buildInvocation(
  command: CniCommand,
  network: NetworkConfigList,
  index: number,
  pluginPath: string | null,
  runtime: RuntimeConf,
  binDirs: string[],
  prevResult: Json | undefined,
): Invocation {
  const plugin = network.plugins[index];
  return {
    command,
    network: network.name,
    index,
    type: plugin.type,
    pluginPath,
    env: invocationEnv(command, runtime, binDirs),
    stdin: pluginStdin(network, plugin, runtime.capabilityArgs, prevResult),
  };
}
