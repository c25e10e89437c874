// Container environment and $(VAR) expansion, mirroring kubelet 1.33 (kubelet_pods.go
// makeEnvironmentVariables, envvars/envvars.go, third_party/forked/golang/expansion,
// container/helpers.go ExpandContainerCommandAndArgs / ExpandContainerVolumeMounts). Pure.
//
// Deliberate differences from kubelet:
// - Order. Kubelet collects variables in a Go map and emits them in random order. Here the order
//   is deterministic: envFrom keys (sorted within each source), then `env` entries in spec order;
//   a later definition of a name replaces the value where the name first appeared. Service
//   variables not defined by the container follow, services sorted by name.
// - Service links. Kubelet adds variables for the `kubernetes` service of `default` and (with
//   enableServiceLinks) every service of the pod's namespace, read from the API server. syncpod
//   has no API server: it adds service variables only for services passed in `services`.
// - Secrets and ConfigMaps are not read from an API server: their values come from `values`.
//   Without RelaxedEnvironmentVariableValidation, envFrom keys that are not valid variable names
//   are skipped like kubelet does, but without its InvalidEnvironmentVariableNames event.
// - A `$` followed by a non-ASCII character is kept as written (Go's expander splits the UTF-8
//   sequence there).

import type { Container, EnvVar as ApiEnvVar, EnvVarSource as ApiEnvVarSource, Pod } from './api-types';
import { SyncpodError } from '../errors';
import { joinInVolume, parseEnvFileValue } from './env-file';
import { parseQuantity, toBytes, toMilliCPU } from './quantity';

export interface EnvVar {
  name: string;
  value: string;
  /** The value came from a Secret (secretKeyRef, envFrom secretRef) or was expanded from one. */
  secret?: true;
}

/**
 * Expand: `$$` -> `$`, `$(NAME)` -> mapping(NAME), an unterminated `$(` and any other `$x` are kept.
 */
export function expand(input: string, mapping: (name: string) => string): string {
  let out = '';
  let checkpoint = 0;
  for (let cursor = 0; cursor < input.length; cursor++) {
    if (input[cursor] !== '$' || cursor + 1 >= input.length) continue;
    out += input.slice(checkpoint, cursor);
    const next = input[cursor + 1]!;
    let advance = 1;
    if (next === '$') {
      out += '$';
    } else if (next === '(') {
      const close = input.indexOf(')', cursor + 2);
      if (close >= 0) {
        out += mapping(input.slice(cursor + 2, close));
        advance = close - cursor;
      } else {
        out += '$(';
      }
    } else {
      out += '$' + next;
    }
    cursor += advance;
    checkpoint = cursor + 1;
  }
  return out + input.slice(checkpoint);
}

/** MappingFuncFor: the first map that has the name wins; unknown names stay as `$(NAME)`. */
export function mappingFuncFor(...maps: ReadonlyMap<string, string>[]): (name: string) => string {
  return (name) => {
    for (const m of maps) {
      const v = m.get(name);
      if (v !== undefined) return v;
    }
    return `$(${name})`;
  };
}

function envMap(envs: EnvVar[]): Map<string, string> {
  const m = new Map<string, string>();
  for (const e of envs) m.set(e.name, e.value);
  return m;
}

/** ExpandContainerCommandAndArgs against the final environment; empty lists stay empty. */
export function expandContainerCommandAndArgs(
  container: Container,
  envs: EnvVar[],
): { command: string[]; args: string[] } {
  const mapping = mappingFuncFor(envMap(envs));
  return {
    command: (container.command ?? []).map((c) => expand(c, mapping)),
    args: (container.args ?? []).map((a) => expand(a, mapping)),
  };
}

/** ExpandContainerVolumeMounts for subPathExpr: every referenced variable must be set and non-empty. */
export function expandSubPathExpr(expr: string, envs: EnvVar[]): string {
  const m = envMap(envs);
  const missing = new Set<string>();
  const out = expand(expr, (name) => {
    const v = m.get(name);
    if (v === undefined || v === '') missing.add(name);
    return v ?? '';
  });
  if (missing.size > 0) throw new SyncpodError(`missing value for ${[...missing].sort().join(', ')}`);
  return out;
}

/** A Service as needed for service-link variables (the API server is not read). */
export interface ServiceInfo {
  namespace: string;
  name: string;
  /** Spec.clusterIP; "" and "None" services are skipped. */
  clusterIP: string;
  ports: Array<{ name?: string; port: number; protocol?: string }>;
}

function envName(s: string): string {
  return s.replace(/-/g, '_').toUpperCase();
}

function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** envvars.FromServices for one service: *_SERVICE_HOST/PORT and the Docker-link variables. */
export function serviceEnvVars(svc: ServiceInfo): EnvVar[] {
  if (svc.clusterIP === '' || svc.clusterIP === 'None' || svc.ports.length === 0) return [];
  const prefix = envName(svc.name);
  const out: EnvVar[] = [
    { name: `${prefix}_SERVICE_HOST`, value: svc.clusterIP },
    { name: `${prefix}_SERVICE_PORT`, value: String(svc.ports[0]!.port) },
  ];
  for (const p of svc.ports) {
    if (p.name) out.push({ name: `${prefix}_SERVICE_PORT_${envName(p.name)}`, value: String(p.port) });
  }
  svc.ports.forEach((p, i) => {
    const proto = p.protocol || 'TCP';
    const url = `${proto.toLowerCase()}://${joinHostPort(svc.clusterIP, p.port)}`;
    if (i === 0) out.push({ name: `${prefix}_PORT`, value: url });
    const pp = `${prefix}_PORT_${p.port}_${proto.toUpperCase()}`;
    out.push(
      { name: pp, value: url },
      { name: `${pp}_PROTO`, value: proto.toLowerCase() },
      { name: `${pp}_PORT`, value: String(p.port) },
      { name: `${pp}_ADDR`, value: svc.clusterIP },
    );
  });
  return out;
}

/**
 * getServiceEnvVarMap: `kubernetes` of `default` always, services of the pod's namespace when
 * enableServiceLinks; services sorted by name for a stable order.
 */
export function serviceEnvironment(
  services: ServiceInfo[],
  namespace: string,
  enableServiceLinks: boolean,
): Map<string, string> {
  const chosen = new Map<string, ServiceInfo>();
  for (const s of services) {
    if (s.clusterIP === '' || s.clusterIP === 'None') continue;
    if (s.namespace === 'default' && s.name === 'kubernetes') {
      if (!chosen.has(s.name)) chosen.set(s.name, s);
    } else if (s.namespace === namespace && enableServiceLinks) {
      chosen.set(s.name, s);
    }
  }
  const out = new Map<string, string>();
  for (const name of [...chosen.keys()].sort())
    for (const e of serviceEnvVars(chosen.get(name)!)) out.set(e.name, e.value);
  return out;
}

/** Values of Secrets and ConfigMaps, which syncpod cannot read from an API server. */
export interface ValueSources {
  /** Variable name -> value (the user's env file); used for secretKeyRef/configMapKeyRef not found below. */
  env?: Record<string, string>;
  /** Secret name -> key -> value. */
  secrets?: Record<string, Record<string, string>>;
  /** ConfigMap name -> key -> value. */
  configMaps?: Record<string, Record<string, string>>;
}

export interface EnvironmentInputs {
  /** The pod's IPs (sandbox IPs), any order; sorted by the node's IP family preference. */
  podIPs: string[];
  /** The node's IPs, primary first (status.hostIP/hostIPs). */
  nodeIPs: string[];
  values?: ValueSources;
  /** Services for service-link variables; none when absent (see the file comment). */
  services?: ServiceInfo[];
  /** Node allocatable (cpu, memory, ephemeral-storage) for resourceFieldRef limits not set. */
  nodeAllocatable?: Record<string, string>;
  /**
   * RelaxedEnvironmentVariableValidation (beta on from 1.32, then GA): envFrom keys are kept whatever
   * their form. Off: keys that are not C-style names are skipped. Default true.
   */
  relaxedEnvVarNames?: boolean;
  /** env valueFrom.fileKeyRef (EnvFiles gate). Absent or disabled: such variables are empty, as kubelet leaves them. */
  envFiles?: EnvFileInputs;
}

/** What fileKeyRef needs: the volumes' host paths and the texts of the files read from them. */
export interface EnvFileInputs {
  enabled: boolean;
  /** Host path of a pod volume, undefined when the pod has no such (host-path backed) volume. */
  volumePath: (volumeName: string) => string | undefined;
  /** Host path of an env file -> its text; a path missing here could not be read. */
  files: Readonly<Record<string, string>>;
}

const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

/** sortPodIPs: first IP of the node's primary family, then the first of the other family. */
export function sortPodIPs(podIPs: string[], nodeIPs: string[]): string[] {
  const v6 = (ip: string): boolean => ip.includes(':');
  const primaryV6 = nodeIPs.length > 0 && v6(nodeIPs[0]!);
  const out: string[] = [];
  const first = podIPs.find((ip) => v6(ip) === primaryV6);
  const second = podIPs.find((ip) => v6(ip) !== primaryV6);
  if (first !== undefined) out.push(first);
  if (second !== undefined) out.push(second);
  return out;
}

/** Go's %q for the ASCII-printable text of labels/annotations (FormatMap). */
function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + '"';
}

/** fieldpath.FormatMap: labels or annotations as sorted key="value" lines (env fieldRef, downwardAPI volumes). */
export function formatMap(m: Readonly<Record<string, string>>): string {
  return Object.keys(m)
    .sort()
    .map((k) => `${k}=${goQuote(m[k]!)}`)
    .join('\n');
}

function fieldRefValue(pod: Pod, path: string, inputs: EnvironmentInputs, where: string): string {
  const sub = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(path);
  if (sub) {
    const map = (sub[1] === 'labels' ? pod.metadata?.labels : pod.metadata?.annotations) ?? {};
    return map[sub[2]!] ?? '';
  }
  const podIPs = sortPodIPs(inputs.podIPs, inputs.nodeIPs);
  const needNode = (): string[] => {
    if (inputs.nodeIPs.length === 0)
      throw new SyncpodError(`${where}: fieldRef ${path} needs the node's IP (not given)`);
    return inputs.nodeIPs;
  };
  switch (path) {
    case 'metadata.name':
      return pod.metadata?.name ?? '';
    case 'metadata.namespace':
      return pod.metadata?.namespace ?? '';
    case 'metadata.uid':
      return pod.metadata?.uid ?? '';
    case 'metadata.labels':
      return formatMap(pod.metadata?.labels ?? {});
    case 'metadata.annotations':
      return formatMap(pod.metadata?.annotations ?? {});
    case 'spec.nodeName':
      return pod.spec?.nodeName ?? '';
    case 'spec.serviceAccountName':
      return pod.spec?.serviceAccountName ?? '';
    case 'status.hostIP':
      return needNode()[0]!;
    case 'status.hostIPs':
      return needNode().join(',');
    case 'status.podIP':
      return podIPs[0] ?? '';
    case 'status.podIPs':
      return podIPs.join(',');
    default:
      throw new SyncpodError(`${where}: fieldRef ${path} is not supported`);
  }
}

function resourceFieldValue(
  pod: Pod,
  container: Container,
  ref: { containerName?: string; resource: string; divisor?: string | number },
  inputs: EnvironmentInputs,
  where: string,
): string {
  let target = container;
  if (ref.containerName) {
    const all = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
    const found = all.find((c) => c.name === ref.containerName);
    if (!found)
      throw new SyncpodError(`${where}: resourceFieldRef: container ${ref.containerName} not found in the pod`);
    target = found;
  }
  const m = /^(requests|limits)\.(.+)$/.exec(ref.resource);
  if (!m) throw new SyncpodError(`${where}: resourceFieldRef: unsupported container resource ${ref.resource}`);
  const [, kind, name] = m as unknown as [string, 'requests' | 'limits', string];
  if (!['cpu', 'memory', 'ephemeral-storage'].includes(name) && !name.startsWith('hugepages-')) {
    throw new SyncpodError(`${where}: resourceFieldRef: unsupported container resource ${ref.resource}`);
  }
  let raw: unknown = target.resources?.[kind]?.[name];
  if (raw === undefined && kind === 'limits' && !name.startsWith('hugepages-')) {
    raw = inputs.nodeAllocatable?.[name];
    if (raw === undefined) {
      throw new SyncpodError(
        `${where}: resourceFieldRef ${ref.resource}: the container sets no limit, so kubelet uses the node's allocatable ${name} (not given)`,
      );
    }
  }
  const parse = (v: unknown, what: string) => {
    try {
      return parseQuantity((v ?? 0) as string | number);
    } catch (err) {
      throw new SyncpodError(`${where}: resourceFieldRef ${what}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  const q = parse(raw, ref.resource);
  const divisorText =
    ref.divisor === undefined || ref.divisor === '' || ref.divisor === 0 || ref.divisor === '0' ? '1' : ref.divisor;
  const d = parse(divisorText, 'divisor');
  if (name === 'cpu') return String(Math.ceil(toMilliCPU(q) / toMilliCPU(d)));
  return String(Math.ceil(toBytes(q) / toBytes(d)));
}

function lookupValue(
  kind: 'secret' | 'configMap',
  ref: { name?: string; key: string; optional?: boolean },
  varName: string,
  values: ValueSources | undefined,
): string | undefined {
  const objects = kind === 'secret' ? values?.secrets : values?.configMaps;
  const v = objects?.[ref.name ?? '']?.[ref.key] ?? values?.env?.[varName];
  return v;
}

/**
 * makeEnvironmentVariables: envFrom, then env (with $(VAR) expansion against the variables so far
 * and the service variables), then service variables not overridden. Values from Secrets (and
 * values expanded from them) are marked `secret`, so output can redact them.
 */
export function makeEnvironmentVariables(pod: Pod, container: Container, inputs: EnvironmentInputs): EnvVar[] {
  return collectEnvironment(pod, container, inputs, true);
}

/**
 * Names of the container's variables whose value comes from a Secret, found without evaluating
 * anything else (no pod IPs, node facts or values needed): what `--dry-run` output redacts.
 */
export function secretEnvNames(pod: Pod, container: Container, values: ValueSources | undefined): string[] {
  return collectEnvironment(pod, container, { podIPs: [], nodeIPs: [], values }, false)
    .filter((e) => e.secret)
    .map((e) => e.name);
}

/**
 * Values of the container's variables that come from a Secret (the referenced values, and what
 * was expanded from them as far as can be told without node facts): what output must not show.
 */
export function secretEnvValues(pod: Pod, container: Container, values: ValueSources | undefined): string[] {
  return collectEnvironment(pod, container, { podIPs: [], nodeIPs: [], values }, false)
    .filter((e) => e.secret && e.value !== '')
    .map((e) => e.value);
}

interface Held {
  value: string;
  secret: boolean;
}

function collectEnvironment(pod: Pod, container: Container, inputs: EnvironmentInputs, evaluate: boolean): EnvVar[] {
  const where = `container ${container.name}`;
  const namespace = pod.metadata?.namespace ?? '';
  // The API server defaults enableServiceLinks (syncpod's manifest defaults do too); kubelet refuses
  // a pod object without it rather than guess.
  if (evaluate && typeof pod.spec?.enableServiceLinks !== 'boolean') {
    throw new SyncpodError(`${where}: nil pod.spec.enableServiceLinks encountered, cannot construct envvars`);
  }
  const serviceEnv = evaluate
    ? serviceEnvironment(inputs.services ?? [], namespace, pod.spec?.enableServiceLinks === true)
    : new Map<string, string>();
  const env = new Map<string, Held>();

  for (const [i, src] of (container.envFrom ?? []).entries()) {
    const kind = src.configMapRef ? 'configMap' : src.secretRef ? 'secret' : undefined;
    const ref = src.configMapRef ?? src.secretRef;
    if (!kind || !ref) throw new SyncpodError(`${where}: envFrom[${i}] names neither a configMapRef nor a secretRef`);
    const data = (kind === 'secret' ? inputs.values?.secrets : inputs.values?.configMaps)?.[ref.name ?? ''];
    if (data === undefined) {
      if (ref.optional === true || !evaluate) continue;
      throw new SyncpodError(`${where}: envFrom ${kind} ${ref.name ?? ''} needs its values`, {
        needs: 'configmap-secret-values',
      });
    }
    for (const key of Object.keys(data).sort()) {
      const name = (src.prefix ?? '') + key;
      if (inputs.relaxedEnvVarNames === false && !ENV_NAME.test(name)) continue;
      env.set(name, { value: data[key]!, secret: kind === 'secret' });
    }
  }

  const plain = new Map<string, string>();
  for (const [k, v] of env) plain.set(k, v.value);
  const base = mappingFuncFor(plain, serviceEnv);
  for (const e of container.env ?? []) {
    const used: string[] = [];
    const mapping = (name: string): string => {
      used.push(name);
      return base(name);
    };
    const held = envValue(pod, container, e, inputs, mapping, `${where}: env ${e.name}`, evaluate);
    if (held === undefined) continue;
    if (used.some((n) => env.get(n)?.secret === true)) held.secret = true;
    env.set(e.name, held);
    plain.set(e.name, held.value);
  }

  const out: EnvVar[] = [...env].map(([name, h]) =>
    h.secret ? { name, value: h.value, secret: true } : { name, value: h.value },
  );
  for (const [name, value] of serviceEnv) if (!env.has(name)) out.push({ name, value });
  return out;
}

/** Value of one `env` entry; undefined when an optional reference is missing (the variable is skipped). */
function envValue(
  pod: Pod,
  container: Container,
  e: ApiEnvVar,
  inputs: EnvironmentInputs,
  mapping: (name: string) => string,
  where: string,
  evaluate: boolean,
): Held | undefined {
  if (e.value !== undefined && e.value !== '') return { value: expand(e.value, mapping), secret: false };
  const from = e.valueFrom;
  if (!from) return { value: '', secret: false };
  if (from.fieldRef)
    return { value: evaluate ? fieldRefValue(pod, from.fieldRef.fieldPath, inputs, where) : '', secret: false };
  if (from.resourceFieldRef)
    return {
      value: evaluate ? resourceFieldValue(pod, container, from.resourceFieldRef, inputs, where) : '',
      secret: false,
    };
  const keyRef = from.secretKeyRef ?? from.configMapKeyRef;
  const fileRef = (from as ApiEnvVarSource).fileKeyRef;
  if (!keyRef && fileRef && inputs.envFiles?.enabled) {
    const root = inputs.envFiles.volumePath(fileRef.volumeName);
    if (root === undefined)
      throw new SyncpodError(`${where}: cannot find the volume "${fileRef.volumeName}" referenced by FileKeyRef`);
    if (!evaluate) return { value: '', secret: false };
    const path = joinInVolume(root, fileRef.path);
    const text = inputs.envFiles.files[path];
    if (text === undefined) throw new SyncpodError(`${where}: couldn't parse env file ${path}: it could not be read`);
    let v: string | undefined;
    try {
      v = parseEnvFileValue(text, fileRef.key);
    } catch (err) {
      throw new SyncpodError(
        `${where}: couldn't parse env file ${path}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    if (v !== undefined) return { value: v, secret: false };
    if (fileRef.optional === true) return undefined;
    throw new SyncpodError(`${where}: environment variable key "${fileRef.key}" not found in file "${path}"`);
  }
  if (keyRef) {
    const kind = from.secretKeyRef ? 'secret' : 'configMap';
    const secret = kind === 'secret';
    const v = lookupValue(kind, keyRef, e.name, inputs.values);
    if (v !== undefined) return { value: v, secret };
    if (keyRef.optional === true) return undefined;
    if (!evaluate) return { value: '', secret };
    throw new SyncpodError(`${where}: ${kind}KeyRef needs a value`, { needs: 'configmap-secret-value' });
  }
  return { value: '', secret: false };
}
