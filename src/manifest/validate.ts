// Validation of what the plan and the config generators rely on, with field paths, in the spirit
// of the API server's pkg/apis/core/validation (not all of it). Runs on the defaulted pod. Pure.

import { isIP } from 'node:net';
import type { Pod } from '../kubelet/api-types';
import { parseNormalizedImage } from '../kubelet/image-ref';
import { isPodUid, NAME_MAX, POD_UID_HELP, podLogDirNameBytes } from '../kubelet/path-names';
import { parseQuantity, toBytes, toMilliCPU, type Quantity } from '../kubelet/quantity';
import { sysctlToDots } from '../kubelet/sandbox-config';
import { LINUX_STOP_SIGNALS, WINDOWS_STOP_SIGNALS } from '../kubelet/stop-signals';
import { VOLUME_SOURCE_KEYS } from '../kubelet/volume-sources';
import { DEFAULT_API_RULES, type ApiRules } from './api-rules';
import { isObj, type Obj } from '../json-object';

export interface Problem {
  /** Field path inside the document, e.g. `spec.containers[1].image`. */
  path: string;
  message: string;
}

/** Where the pod's parts sit in the document (a template's metadata comes from its workload). */
export interface PodPaths {
  metadata: string;
  spec: string;
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_HELP =
  "must be a DNS-1123 label (lower-case letters, digits and '-', starting and ending with a letter or digit, at most 63 characters)";
const SUBDOMAIN_HELP =
  "must be a DNS-1123 subdomain (lower-case letters, digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters)";

const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const QUALIFIED_HELP =
  "must be a qualified name: an optional DNS subdomain prefix and '/', then at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit";
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const LABEL_VALUE_HELP =
  "a label value must be empty or at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit";
/** IsRelaxedEnvVarName (RelaxedEnvironmentVariableValidation on, the default from 1.32): printable ASCII except '='. */
const ENV_NAME = /^[\x20-\x3c\x3e-\x7e]+$/;
const ENV_NAME_HELP = "must consist of printable ASCII characters except '='";
/** IsEnvVarName (the gate off, or before 1.30 when there was none). */
const ENV_NAME_STRICT = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;
const ENV_NAME_STRICT_HELP =
  "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit";

function qualifiedName(k: string): boolean {
  const slash = k.lastIndexOf('/');
  const [prefix, name] = slash < 0 ? ['', k] : [k.slice(0, slash), k.slice(slash + 1)];
  if (slash >= 0 && (prefix.length === 0 || prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix))) return false;
  return name.length > 0 && name.length <= 63 && QUALIFIED_NAME.test(name);
}

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const HOST_PATH_TYPES = [
  '',
  'BlockDevice',
  'CharDevice',
  'Directory',
  'DirectoryOrCreate',
  'File',
  'FileOrCreate',
  'Socket',
];
const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
const CONFIG_KEY_HELP = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
const PORT_NAME_HELP =
  'must be an IANA service name: at most 15 lower-case letters, digits and hyphens, at least one letter, no leading, trailing or consecutive hyphens';
const SYSCTL_NAME = /^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$/;
const ANNOTATIONS_MAX_BYTES = 256 * 1024;
const utf8 = new TextEncoder();
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const PULL_POLICIES = ['Always', 'Never', 'IfNotPresent'];
const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];
const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

const show = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : String(JSON.stringify(v)));

class Collector {
  readonly problems: Problem[] = [];
  add(path: string, message: string): void {
    this.problems.push({ path, message });
  }
  required(path: string): void {
    this.add(path, 'required');
  }
  invalid(path: string, value: unknown, why: string): void {
    this.add(path, `invalid value ${show(value)}: ${why}`);
  }
  oneOf(path: string, value: unknown, allowed: readonly string[]): void {
    if (typeof value === 'string' && allowed.includes(value)) return;
    this.add(path, `unsupported value ${show(value)}: supported values: ${allowed.map((a) => `"${a}"`).join(', ')}`);
  }
  /** A list at `path`, or [] after reporting that it is not one. */
  list(path: string, v: unknown): unknown[] {
    if (v === undefined || v === null) return [];
    if (Array.isArray(v)) return v;
    this.add(path, 'must be a list');
    return [];
  }
  object(path: string, v: unknown): v is Obj {
    if (isObj(v)) return true;
    this.add(path, 'must be an object');
    return false;
  }
  /** Whether `v` is a string; reports a non-string (YAML 1.1 booleans get a hint) and returns false. */
  string(path: string, v: unknown): v is string {
    if (typeof v === 'string') return true;
    const hint =
      typeof v === 'boolean' ? ' (YAML reads unquoted y, n, yes, no, on, off, true, false as booleans: quote it)' : '';
    this.invalid(path, v, `must be a string${hint}`);
    return false;
  }
  label(path: string, v: unknown): void {
    if (!this.string(path, v)) return;
    if (v.length > 63 || !DNS1123_LABEL.test(v)) this.invalid(path, v, LABEL_HELP);
  }
  subdomain(path: string, v: unknown): void {
    if (!this.string(path, v)) return;
    if (v.length > 253 || !DNS1123_SUBDOMAIN.test(v)) this.invalid(path, v, SUBDOMAIN_HELP);
  }
}

/**
 * Every problem, in document order (metadata, then spec fields), as the API server of `api` (its
 * minor and gates) validates a new pod. Empty when the pod is usable.
 */
export function validatePod(
  pod: Pod,
  paths: PodPaths = { metadata: 'metadata', spec: 'spec' },
  api: ApiRules = DEFAULT_API_RULES,
): Problem[] {
  const c = new Collector();
  const meta = pod.metadata as unknown;
  if (c.object(paths.metadata, meta)) {
    if (meta.name === undefined || meta.name === '') c.required(`${paths.metadata}.name`);
    else c.subdomain(`${paths.metadata}.name`, meta.name);
    if (meta.namespace !== undefined) c.label(`${paths.metadata}.namespace`, meta.namespace);
    // The API server sets uid itself; a manifest's uid becomes a host path (pods/<uid>), so it is checked here.
    if (meta.uid !== undefined && meta.uid !== '' && c.string(`${paths.metadata}.uid`, meta.uid) && !isPodUid(meta.uid))
      c.invalid(`${paths.metadata}.uid`, meta.uid, POD_UID_HELP);
    // <namespace>_<name>_<uid> is one directory name (the pod's log directory): kubelet cannot make
    // it longer than NAME_MAX, and never starts such a pod (its sandbox needs that directory).
    if (typeof meta.name === 'string' && meta.name.length <= 253 && DNS1123_SUBDOMAIN.test(meta.name)) {
      const ns = typeof meta.namespace === 'string' && meta.namespace !== '' ? meta.namespace : 'default';
      const uid = typeof meta.uid === 'string' && meta.uid !== '' ? meta.uid : undefined;
      const bytes = podLogDirNameBytes(ns, meta.name, uid);
      if (bytes > NAME_MAX)
        c.add(
          `${paths.metadata}.name`,
          `too long with its namespace and uid: the pod's log directory <namespace>_<name>_<uid> would have ${bytes} bytes, over the ${NAME_MAX} one file name may have (kubelet could not create it and would never start the pod)`,
        );
    }
    if (isObj(meta.labels)) {
      for (const [k, v] of Object.entries(meta.labels)) {
        const at = `${paths.metadata}.labels`;
        if (!qualifiedName(k)) c.invalid(at, k, QUALIFIED_HELP);
        else if (typeof v === 'string' && (v.length > 63 || !LABEL_VALUE.test(v)))
          c.invalid(`${at}.${k}`, v, LABEL_VALUE_HELP);
      }
    }
    if (isObj(meta.annotations)) {
      let size = 0;
      for (const [k, v] of Object.entries(meta.annotations)) {
        if (!qualifiedName(k)) c.invalid(`${paths.metadata}.annotations`, k, QUALIFIED_HELP);
        size += utf8.encode(k).length + (typeof v === 'string' ? utf8.encode(v).length : 0);
      }
      // ValidateAnnotationsSize (TotalAnnotationSizeLimitB).
      if (size > ANNOTATIONS_MAX_BYTES)
        c.add(
          `${paths.metadata}.annotations`,
          `too long: must have at most ${ANNOTATIONS_MAX_BYTES} bytes (keys and values), has ${size}`,
        );
    }
  }
  const spec = pod.spec as unknown;
  if (c.object(paths.spec, spec)) validateSpec(c, spec, paths.spec, api);
  return c.problems;
}

function validateSpec(c: Collector, spec: Obj, at: string, api: ApiRules): void {
  const volumeNames = validateVolumes(c, spec, at);
  const containers = c.list(`${at}.containers`, spec.containers);
  if (Array.isArray(spec.containers) && containers.length === 0) c.required(`${at}.containers`);
  if (spec.containers === undefined || spec.containers === null) c.required(`${at}.containers`);

  const seen = new Map<string, string>();
  for (const list of CONTAINER_LISTS) {
    const items = list === 'containers' ? containers : c.list(`${at}.${list}`, spec[list]);
    items.forEach((item, i) => {
      const path = `${at}.${list}[${i}]`;
      if (c.object(path, item)) validateContainer(c, item, path, list, spec, seen, volumeNames, api);
    });
  }

  hostPortConflicts(c, at, containers);
  validatePodFields(c, spec, at, volumeNames);
  for (const list of CONTAINER_LISTS) {
    c.list(`${at}.${list}`, spec[list]).forEach((ctr, i) => {
      if (isObj(ctr)) validateHandlers(c, ctr, `${at}.${list}[${i}]`, spec.terminationGracePeriodSeconds);
    });
  }

  c.oneOf(`${at}.restartPolicy`, spec.restartPolicy, RESTART_POLICIES);
  c.oneOf(`${at}.dnsPolicy`, spec.dnsPolicy, DNS_POLICIES);
  if (spec.dnsPolicy === 'None') {
    const dns = spec.dnsConfig;
    if (!isObj(dns) || !Array.isArray(dns.nameservers) || dns.nameservers.length === 0) {
      c.add(`${at}.dnsConfig.nameservers`, 'required when dnsPolicy is "None"');
    }
  }
  if (spec.hostname !== undefined && spec.hostname !== '') c.label(`${at}.hostname`, spec.hostname);
  if (spec.subdomain !== undefined && spec.subdomain !== '') c.label(`${at}.subdomain`, spec.subdomain);
  if (spec.overhead !== undefined) validateQuantities(c, `${at}.overhead`, spec.overhead);
  if (typeof spec.activeDeadlineSeconds === 'number' && spec.activeDeadlineSeconds < 1) {
    c.invalid(`${at}.activeDeadlineSeconds`, spec.activeDeadlineSeconds, 'must be between 1 and 2147483647, inclusive');
  }
  if (typeof spec.terminationGracePeriodSeconds === 'number' && spec.terminationGracePeriodSeconds < 0) {
    c.invalid(
      `${at}.terminationGracePeriodSeconds`,
      spec.terminationGracePeriodSeconds,
      'must be greater than or equal to 0',
    );
  }
  if (isObj(spec.securityContext)) {
    validateIds(c, `${at}.securityContext`, spec.securityContext);
    validateSysctls(c, `${at}.securityContext.sysctls`, spec.securityContext.sysctls, {
      hostNetwork: spec.hostNetwork === true,
      hostIPC: spec.hostIPC === true,
    });
  }
}

/** validateSysctls: the kernel's name grammar (dots or slashes between segments), each name once. */
function validateSysctls(c: Collector, at: string, v: unknown, host: { hostNetwork: boolean; hostIPC: boolean }): void {
  const names = new Set<string>();
  c.list(at, v).forEach((s, i) => {
    if (!isObj(s)) return;
    const path = `${at}[${i}].name`;
    if (s.name === undefined || s.name === '') return c.required(path);
    if (!c.string(path, s.name)) return;
    if (s.name.length > 253 || !SYSCTL_NAME.test(s.name))
      c.invalid(path, s.name, `must have at most 253 characters and match regex ${SYSCTL_NAME.source}`);
    else if (names.has(s.name)) c.add(path, `duplicate value ${show(s.name)}`);
    // ValidateHostSysctl: a namespaced sysctl of a namespace the pod shares with the host would be
    // the node's own setting.
    const ns = sysctlNamespace(s.name);
    if (host.hostNetwork && ns === 'net') c.invalid(path, s.name, "may not be specified when 'hostNetwork' is true");
    else if (host.hostIPC && ns === 'ipc') c.invalid(path, s.name, "may not be specified when 'hostIPC' is true");
    names.add(s.name);
  });
}

/** The IPC sysctls by name (component-helpers node/util/sysctl), beside the `fs.mqueue.` and `net.` prefixes. */
const IPC_SYSCTLS = new Set([
  'kernel.sem',
  'kernel.shmall',
  'kernel.shmmax',
  'kernel.shmmni',
  'kernel.shm_rmid_forced',
  'kernel.shm',
  'kernel.msgmax',
  'kernel.msgmnb',
  'kernel.msgmni',
  'kernel.msg',
]);

/** GetNamespace (k8s.io/component-helpers node/util/sysctl, 1.29–1.37): which namespace a sysctl belongs to. */
function sysctlNamespace(name: string): 'net' | 'ipc' | undefined {
  const dotted = sysctlToDots(name);
  const star = dotted.indexOf('*');
  const n = star >= 0 ? dotted.slice(0, star) : dotted;
  if (IPC_SYSCTLS.has(n)) return 'ipc';
  if (n.startsWith('net.')) return 'net';
  if (n.startsWith('fs.mqueue.')) return 'ipc';
  return undefined;
}

/** The name of a Secret or ConfigMap a pod reads: a DNS-1123 subdomain (ValidateSecretName / ValidateConfigMapName). */
function objectName(c: Collector, path: string, v: unknown, required: boolean): void {
  if (v === undefined || v === null || v === '') {
    if (required) c.required(path);
    else c.invalid(path, '', SUBDOMAIN_HELP);
    return;
  }
  c.subdomain(path, v);
}

/** validateConfigMapKeySelector / validateSecretKeySelector: the object's name and a key it can hold (IsConfigMapKey). */
function keySelector(c: Collector, at: string, s: Obj): void {
  objectName(c, `${at}.name`, s.name, false);
  if (s.key === undefined || s.key === '') return c.required(`${at}.key`);
  if (!c.string(`${at}.key`, s.key)) return;
  const k = s.key;
  if (k.length > 253) c.invalid(`${at}.key`, k, 'must be no more than 253 characters');
  else if (!CONFIG_KEY.test(k)) c.invalid(`${at}.key`, k, CONFIG_KEY_HELP);
  else if (k === '.' || k === '..') c.invalid(`${at}.key`, k, `must not be '${k}'`);
  else if (k.startsWith('..')) c.invalid(`${at}.key`, k, "must not start with '..'");
}

/**
 * checkHostPortConflicts: a host port (protocol, host IP) is taken once among the regular
 * containers, which run together; without it the second container's port mapping fails at runtime.
 */
function hostPortConflicts(c: Collector, at: string, containers: unknown[]): void {
  const seen = new Map<string, string>();
  containers.forEach((ctr, i) => {
    if (!isObj(ctr) || !Array.isArray(ctr.ports)) return;
    ctr.ports.forEach((p, j) => {
      if (!isObj(p) || typeof p.hostPort !== 'number' || p.hostPort === 0) return;
      const key = `${p.hostPort}/${typeof p.protocol === 'string' ? p.protocol : 'TCP'}${typeof p.hostIP === 'string' && p.hostIP !== '' ? ` on ${p.hostIP}` : ''}`;
      const path = `${at}.containers[${i}].ports[${j}].hostPort`;
      const first = seen.get(key);
      if (first !== undefined) c.add(path, `duplicate value "${key}" (also ${first})`);
      else seen.set(key, path);
    });
  });
}

/** runAsUser/runAsGroup/fsGroup: the API server's range for ids. */
function validateIds(c: Collector, at: string, sc: Obj): void {
  for (const f of ['runAsUser', 'runAsGroup', 'fsGroup']) {
    const v = sc[f];
    if (typeof v === 'number' && (v < 0 || v > 2147483647))
      c.invalid(`${at}.${f}`, v, 'must be between 0 and 2147483647, inclusive');
  }
}

/** A lifecycle or probe handler: exactly one action. */
function oneHandler(c: Collector, at: string, h: unknown, kinds: readonly string[]): void {
  if (!isObj(h)) return;
  const set = kinds.filter((k) => h[k] !== undefined && h[k] !== null);
  if (set.length === 0) c.add(at, `must specify a handler type (one of ${kinds.join(', ')})`);
  else if (set.length > 1)
    c.add(`${at}.${set[1]}`, `forbidden: may not specify more than 1 handler type (also ${set[0]})`);
}

function validateVolumes(c: Collector, spec: Obj, at: string): Set<string> {
  const names = new Set<string>();
  c.list(`${at}.volumes`, spec.volumes).forEach((v, i) => {
    const path = `${at}.volumes[${i}]`;
    if (!c.object(path, v)) return;
    if (v.name === undefined || v.name === '') return c.required(`${path}.name`);
    c.label(`${path}.name`, v.name);
    if (typeof v.name === 'string' && names.has(v.name)) c.add(`${path}.name`, `duplicate value ${show(v.name)}`);
    names.add(String(v.name));
    validateVolumeFiles(c, v, path);
    if (isObj(v.emptyDir) && v.emptyDir.sizeLimit !== undefined)
      quantity(c, `${path}.emptyDir.sizeLimit`, v.emptyDir.sizeLimit);
    const sources = VOLUME_SOURCE_KEYS.filter((k) => v[k] !== undefined && v[k] !== null);
    if (sources.length > 1)
      c.add(`${path}.${sources[1]}`, `forbidden: may not specify more than 1 volume type (also ${sources[0]})`);
    if (isObj(v.hostPath)) {
      if (v.hostPath.path === '' || v.hostPath.path === undefined) c.required(`${path}.hostPath.path`);
      else if (typeof v.hostPath.path === 'string') noBacksteps(c, `${path}.hostPath.path`, v.hostPath.path);
      if (v.hostPath.type !== undefined && v.hostPath.type !== null)
        c.oneOf(`${path}.hostPath.type`, v.hostPath.type, HOST_PATH_TYPES);
    }
    if (isObj(v.secret) && (v.secret.secretName === undefined || v.secret.secretName === ''))
      c.required(`${path}.secret.secretName`);
    if (isObj(v.configMap)) objectName(c, `${path}.configMap.name`, v.configMap.name, true);
    if (
      isObj(v.persistentVolumeClaim) &&
      (v.persistentVolumeClaim.claimName === undefined || v.persistentVolumeClaim.claimName === '')
    ) {
      c.required(`${path}.persistentVolumeClaim.claimName`);
    }
  });
  return names;
}

function validateContainer(
  c: Collector,
  ctr: Obj,
  path: string,
  list: (typeof CONTAINER_LISTS)[number],
  spec: Obj,
  seen: Map<string, string>,
  volumeNames: Set<string>,
  api: ApiRules,
): void {
  const envName = api.gates.RelaxedEnvironmentVariableValidation ? ENV_NAME : ENV_NAME_STRICT;
  const envHelp = api.gates.RelaxedEnvironmentVariableValidation ? ENV_NAME_HELP : ENV_NAME_STRICT_HELP;
  if (ctr.name === undefined || ctr.name === '') c.required(`${path}.name`);
  else {
    c.label(`${path}.name`, ctr.name);
    const name = String(ctr.name);
    const first = seen.get(name);
    if (first !== undefined) c.add(`${path}.name`, `duplicate value ${show(name)} (also ${first})`);
    else seen.set(name, `${path}.name`);
  }

  if (ctr.image === undefined || ctr.image === '') c.required(`${path}.image`);
  else if (c.string(`${path}.image`, ctr.image)) {
    if (ctr.image.trim() !== ctr.image)
      c.invalid(`${path}.image`, ctr.image, 'must not have leading or trailing whitespace');
    else {
      // The API server takes any string; kubelet then fails the container with InvalidImageName
      // after creating the sandbox. Refused here, before anything happens.
      try {
        parseNormalizedImage(ctr.image);
      } catch (err) {
        c.invalid(
          `${path}.image`,
          ctr.image,
          `not an image reference kubelet can pull (${(err as Error).message.replace(/^couldn't parse image name "[^"]*": /, '')})`,
        );
      }
    }
  }
  if (Array.isArray(ctr.env)) {
    ctr.env.forEach((e, i) => {
      if (isObj(e) && typeof e.name === 'string' && !envName.test(e.name))
        c.invalid(`${path}.env[${i}].name`, e.name, envHelp);
      if (isObj(e) && e.value !== undefined && e.value !== null && e.value !== '' && isObj(e.valueFrom)) {
        c.add(`${path}.env[${i}].valueFrom`, 'forbidden: may not be specified when `value` is not empty');
      }
      if (isObj(e) && isObj(e.valueFrom)) validateEnvValueFrom(c, `${path}.env[${i}].valueFrom`, e.valueFrom);
    });
  }
  if (Array.isArray(ctr.envFrom)) {
    ctr.envFrom.forEach((e, i) => {
      if (!isObj(e)) return;
      if (typeof e.prefix === 'string' && e.prefix !== '' && !envName.test(e.prefix))
        c.invalid(`${path}.envFrom[${i}].prefix`, e.prefix, envHelp);
      // ValidateEnvFrom: exactly one of configMapRef and secretRef, naming the object.
      const set = (['configMapRef', 'secretRef'] as const).filter((k) => e[k] !== undefined && e[k] !== null);
      if (set.length === 0) c.add(`${path}.envFrom[${i}]`, 'must specify one of: `configMapRef` or `secretRef`');
      else if (set.length > 1)
        c.add(
          `${path}.envFrom[${i}]`,
          'may not have more than one field specified at a time (configMapRef, secretRef)',
        );
      for (const k of set) if (isObj(e[k])) objectName(c, `${path}.envFrom[${i}].${k}.name`, (e[k] as Obj).name, true);
    });
  }
  if (isObj(ctr.lifecycle)) {
    for (const hook of ['postStart', 'preStop'])
      oneHandler(c, `${path}.lifecycle.${hook}`, ctr.lifecycle[hook], ['exec', 'httpGet', 'tcpSocket', 'sleep']);
  }
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    oneHandler(c, `${path}.${probe}`, ctr[probe], ['exec', 'httpGet', 'tcpSocket', 'grpc']);
    const pr = ctr[probe];
    if (!isObj(pr)) continue;
    // validateProbe (API defaults already filled zeros in), and validate{Liveness,Startup}Probe.
    for (const f of [
      'initialDelaySeconds',
      'timeoutSeconds',
      'periodSeconds',
      'successThreshold',
      'failureThreshold',
    ]) {
      if (typeof pr[f] === 'number' && pr[f] < 0)
        c.invalid(`${path}.${probe}.${f}`, pr[f], 'must be greater than or equal to 0');
    }
    if (probe !== 'readinessProbe' && typeof pr.successThreshold === 'number' && pr.successThreshold > 1)
      c.invalid(`${path}.${probe}.successThreshold`, pr.successThreshold, 'must be 1');
    if (typeof pr.terminationGracePeriodSeconds === 'number' && pr.terminationGracePeriodSeconds <= 0) {
      c.invalid(
        `${path}.${probe}.terminationGracePeriodSeconds`,
        pr.terminationGracePeriodSeconds,
        'must be greater than 0',
      );
    }
  }
  if (isObj(ctr.securityContext)) validateIds(c, `${path}.securityContext`, ctr.securityContext);
  validateContainerFields(c, ctr, path, { hostUsers: spec.hostUsers !== false, minor: api.minor });

  // Unset only when the image is not a string, which is reported above.
  if (ctr.imagePullPolicy !== undefined) c.oneOf(`${path}.imagePullPolicy`, ctr.imagePullPolicy, PULL_POLICIES);
  validateRestartRules(c, ctr, path, list, api);
  if (list === 'initContainers' && ctr.restartPolicy !== 'Always') {
    // validateInitContainers: hooks and probes belong to sidecars (restartPolicy Always) only.
    for (const f of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
      if (ctr[f] !== undefined && ctr[f] !== null)
        c.add(`${path}.${f}`, 'forbidden: may not be set for init containers without restartPolicy=Always');
    }
  }
  if (isObj(ctr.lifecycle) && ctr.lifecycle.stopSignal !== undefined && ctr.lifecycle.stopSignal !== null)
    validateStopSignal(c, `${path}.lifecycle.stopSignal`, ctr.lifecycle.stopSignal, spec.os);

  const portNames = new Set<string>();
  c.list(`${path}.ports`, ctr.ports).forEach((p, i) => {
    const pp = `${path}.ports[${i}]`;
    if (!c.object(pp, p)) return;
    validatePort(c, p, pp, spec.hostNetwork === true);
    // validateContainerPorts: a name is an IANA service name (IsValidPortName), once per container.
    if (p.name === undefined || p.name === '' || !c.string(`${pp}.name`, p.name)) return;
    const n = p.name;
    if (
      n.length > 15 ||
      !/^[-a-z0-9]+$/.test(n) ||
      !/[a-z]/.test(n) ||
      n.includes('--') ||
      n.startsWith('-') ||
      n.endsWith('-')
    )
      c.invalid(`${pp}.name`, n, PORT_NAME_HELP);
    else if (portNames.has(n)) c.add(`${pp}.name`, `duplicate value ${show(n)}`);
    portNames.add(n);
  });

  if (ctr.resources !== undefined && c.object(`${path}.resources`, ctr.resources)) {
    const r = ctr.resources;
    const limits =
      r.limits === undefined
        ? new Map<string, Quantity>()
        : validateQuantities(c, `${path}.resources.limits`, r.limits);
    const requests =
      r.requests === undefined
        ? new Map<string, Quantity>()
        : validateQuantities(c, `${path}.resources.requests`, r.requests);
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (lim !== undefined && compare(req, lim) > 0) {
        const limit = String((r.limits as Obj)[name]);
        c.invalid(
          `${path}.resources.requests.${name}`,
          (r.requests as Obj)[name],
          `must be less than or equal to ${name} limit of ${limit}`,
        );
      }
    }
  }

  const mountPaths = new Set<string>();
  c.list(`${path}.volumeMounts`, ctr.volumeMounts).forEach((m, i) => {
    const mp = `${path}.volumeMounts[${i}]`;
    if (!c.object(mp, m)) return;
    if (m.name === undefined || m.name === '') c.required(`${mp}.name`);
    else if (!volumeNames.has(String(m.name))) c.add(`${mp}.name`, `not found: the pod has no volume ${show(m.name)}`);
    if (m.mountPath === undefined || m.mountPath === '') c.required(`${mp}.mountPath`);
    else if (typeof m.mountPath === 'string') {
      if (mountPaths.has(m.mountPath)) c.invalid(`${mp}.mountPath`, m.mountPath, 'must be unique');
      mountPaths.add(m.mountPath);
    }
    const subPath = m.subPath;
    if (typeof subPath === 'string' && subPath !== '') localDescendingPath(c, `${mp}.subPath`, subPath);
    if (typeof m.subPathExpr === 'string' && m.subPathExpr !== '') {
      if (typeof subPath === 'string' && subPath !== '')
        c.invalid(`${mp}.subPathExpr`, m.subPathExpr, 'subPathExpr and subPath are mutually exclusive');
      localDescendingPath(c, `${mp}.subPathExpr`, m.subPathExpr);
    }
  });
}

function validatePort(c: Collector, p: Obj, at: string, hostNetwork: boolean): void {
  const inRange = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 65535;
  const RANGE = 'must be between 1 and 65535, inclusive';
  if (p.containerPort === undefined || p.containerPort === 0) c.required(`${at}.containerPort`);
  else if (!inRange(p.containerPort)) c.invalid(`${at}.containerPort`, p.containerPort, RANGE);
  if (p.hostPort !== undefined && p.hostPort !== 0 && !inRange(p.hostPort))
    c.invalid(`${at}.hostPort`, p.hostPort, RANGE);
  else if (hostNetwork && p.hostPort !== p.containerPort && inRange(p.containerPort)) {
    c.invalid(
      `${at}.hostPort`,
      p.hostPort,
      `must match containerPort ${p.containerPort as number} when hostNetwork is true`,
    );
  }
  c.oneOf(`${at}.protocol`, p.protocol, PROTOCOLS);
}

/** Parse every quantity of a resource list; returns the ones that parsed, in sorted key order. */
function validateQuantities(c: Collector, at: string, v: unknown): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  if (!c.object(at, v)) return out;
  for (const name of Object.keys(v).sort()) {
    const q = quantity(c, `${at}.${name}`, v[name]);
    if (q !== undefined && fitsKubelet(c, `${at}.${name}`, name, v[name], q)) out.set(name, q);
  }
  return out;
}

/**
 * Whether kubelet's integer view of the quantity (MilliValue for cpu, Value for the others) holds
 * it; kubelet's int64 arithmetic would wrap silently, syncpod's stops at 2^53 (see quantity.ts).
 */
function fitsKubelet(c: Collector, path: string, name: string, raw: unknown, q: Quantity): boolean {
  try {
    if (name === 'cpu') toMilliCPU(q);
    else toBytes(q);
    return true;
  } catch {
    c.invalid(path, raw, `too large (at most ${Number.MAX_SAFE_INTEGER}${name === 'cpu' ? 'm' : ''})`);
    return false;
  }
}

/** validateLocalDescendingPath: relative, and no '..' element. */
function localDescendingPath(c: Collector, path: string, p: string): void {
  if (p.startsWith('/')) c.invalid(path, p, 'must be a relative path');
  noBacksteps(c, path, p);
}

/** validatePathNoBacksteps: no '..' element. */
function noBacksteps(c: Collector, path: string, p: string): void {
  if (p.split('/').includes('..')) c.invalid(path, p, "must not contain '..'");
}

/** The fieldRef paths the API server takes for env (validEnvDownwardAPIFieldPathExpressions, 1.29+). */
const ENV_FIELD_PATHS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
];
/** validContainerResourceFieldPathExpressions, plus the hugepages-<size> prefixes. */
const ENV_RESOURCES = [
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
];
const ENV_SOURCES = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef', 'fileKeyRef'];

/** validateEnvVarValueFrom: exactly one source; fieldRef and resourceFieldRef name what kubelet can fill in. */
function validateEnvValueFrom(c: Collector, at: string, from: Obj): void {
  const set = ENV_SOURCES.filter((k) => from[k] !== undefined && from[k] !== null);
  if (set.length === 0)
    return c.add(
      at,
      `must specify one of: ${ENV_SOURCES.slice(0, 4)
        .map((k) => `\`${k}\``)
        .join(', ')} or \`fileKeyRef\``,
    );
  if (set.length > 1) return c.add(at, `may not have more than one field specified at a time (${set.join(', ')})`);
  const f = from.fieldRef;
  if (isObj(f) && typeof f.fieldPath === 'string') {
    const sub = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(f.fieldPath);
    if (sub) {
      if (!qualifiedName(sub[1] === 'annotations' ? sub[2]!.toLowerCase() : sub[2]!))
        c.invalid(`${at}.fieldRef.fieldPath`, f.fieldPath, QUALIFIED_HELP);
    } else if (!ENV_FIELD_PATHS.includes(f.fieldPath)) {
      c.add(
        `${at}.fieldRef.fieldPath`,
        `unsupported value ${show(f.fieldPath)}: supported values: ${ENV_FIELD_PATHS.map((p) => `"${p}"`).join(', ')}, metadata.labels['KEY'], metadata.annotations['KEY']`,
      );
    }
  } else if (isObj(f)) c.required(`${at}.fieldRef.fieldPath`);
  const r = from.resourceFieldRef;
  if (isObj(r) && typeof r.resource === 'string') {
    if (!ENV_RESOURCES.includes(r.resource) && !/^(limits|requests)\.hugepages-/.test(r.resource)) {
      c.add(
        `${at}.resourceFieldRef.resource`,
        `unsupported value ${show(r.resource)}: supported values: ${ENV_RESOURCES.map((p) => `"${p}"`).join(', ')}, limits.hugepages-SIZE, requests.hugepages-SIZE`,
      );
    }
  } else if (isObj(r)) c.required(`${at}.resourceFieldRef.resource`);
  if (isObj(from.configMapKeyRef)) keySelector(c, `${at}.configMapKeyRef`, from.configMapKeyRef);
  if (isObj(from.secretKeyRef)) keySelector(c, `${at}.secretKeyRef`, from.secretKeyRef);
  if (isObj(from.fileKeyRef)) fileKeySelector(c, `${at}.fileKeyRef`, from.fileKeyRef);
}

/** validateFileKeySelector (1.34+): a key as env names are, a volume name, a path with no '..' element. */
function fileKeySelector(c: Collector, at: string, s: Obj): void {
  if (s.key === undefined || s.key === '') c.required(`${at}.key`);
  else if (c.string(`${at}.key`, s.key) && !ENV_NAME.test(s.key)) c.invalid(`${at}.key`, s.key, ENV_NAME_HELP);
  if (s.volumeName === undefined || s.volumeName === '') c.required(`${at}.volumeName`);
  else c.label(`${at}.volumeName`, s.volumeName);
  if (s.path === undefined || s.path === '') c.required(`${at}.path`);
  else if (c.string(`${at}.path`, s.path)) noBacksteps(c, `${at}.path`, s.path);
}

function quantity(c: Collector, path: string, v: unknown): Quantity | undefined {
  let q: Quantity;
  try {
    q = parseQuantity(v as string | number);
  } catch (err) {
    c.add(path, (err as Error).message);
    return undefined;
  }
  if (q.mantissa < 0n) {
    c.invalid(path, v, 'must be greater than or equal to 0');
    return undefined;
  }
  return q;
}

function compare(a: Quantity, b: Quantity): number {
  // Both are non-negative here. Far-apart magnitudes are decided without building huge numbers.
  const magnitude = (q: Quantity): number =>
    q.mantissa === 0n ? -Infinity : q.mantissa.toString().length + q.exponent;
  const [ma, mb] = [magnitude(a), magnitude(b)];
  if (ma !== mb && (ma === -Infinity || mb === -Infinity || Math.abs(ma - mb) > 1)) return ma < mb ? -1 : 1;
  const e = Math.min(a.exponent, b.exponent);
  const x = a.mantissa * 10n ** BigInt(a.exponent - e);
  const y = b.mantissa * 10n ** BigInt(b.exponent - e);
  return x < y ? -1 : x > y ? 1 : 0;
}

// ---- More of ValidatePodSpec (pkg/apis/core/validation, 1.29–1.36): names other objects are
// found by, DNS and /etc/hosts entries kubelet writes, security profiles, tolerations, files of
// projected volumes. Each of these otherwise reached the runtime (or the pod's files) as given.

const IP_HELP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
const PROFILE_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];
const STANDARD_CONTAINER_RESOURCES = ['cpu', 'memory', 'ephemeral-storage'];
const FILE_MODE_HELP = 'must be a number between 0 and 0777 (octal), both inclusive';

function ip(c: Collector, path: string, v: unknown): void {
  if (c.string(path, v) && isIP(v) === 0) c.invalid(path, v, IP_HELP);
}

/**
 * A name of another object the pod refers to (service account, priority class, runtime class).
 * spec.nodeName is left to the node matching: `--node-name` as given is what syncpod writes there.
 */
function optionalSubdomain(c: Collector, path: string, v: unknown): void {
  if (v !== undefined && v !== null && v !== '') c.subdomain(path, v);
}

function validatePodFields(c: Collector, spec: Obj, at: string, volumeNames: Set<string>): void {
  for (const f of ['serviceAccountName', 'priorityClassName', 'runtimeClassName'])
    optionalSubdomain(c, `${at}.${f}`, spec[f]);
  c.list(`${at}.hostAliases`, spec.hostAliases).forEach((h, i) => {
    if (!isObj(h)) return;
    const hp = `${at}.hostAliases[${i}]`;
    if (h.ip === undefined || h.ip === '') c.required(`${hp}.ip`);
    else ip(c, `${hp}.ip`, h.ip);
    c.list(`${hp}.hostnames`, h.hostnames).forEach((n, j) => c.subdomain(`${hp}.hostnames[${j}]`, n));
  });
  if (isObj(spec.dnsConfig)) {
    const d = spec.dnsConfig;
    const ns = c.list(`${at}.dnsConfig.nameservers`, d.nameservers);
    if (ns.length > 3) c.invalid(`${at}.dnsConfig.nameservers`, ns, 'must not have more than 3 nameservers');
    ns.forEach((n, i) => ip(c, `${at}.dnsConfig.nameservers[${i}]`, n));
    const searches = c.list(`${at}.dnsConfig.searches`, d.searches);
    if (searches.length > 32)
      c.invalid(`${at}.dnsConfig.searches`, searches, 'must not have more than 32 search paths');
    else if (searches.join(' ').length > 2048)
      c.invalid(
        `${at}.dnsConfig.searches`,
        searches,
        'must not have more than 2048 characters (including spaces) in the search list',
      );
    searches.forEach((n, i) =>
      c.subdomain(`${at}.dnsConfig.searches[${i}]`, typeof n === 'string' ? n.replace(/\.$/, '') : n),
    );
    c.list(`${at}.dnsConfig.options`, d.options).forEach((o, i) => {
      if (isObj(o) && (o.name === undefined || o.name === '')) c.required(`${at}.dnsConfig.options[${i}].name`);
    });
  }
  if (isObj(spec.securityContext)) {
    const sc = spec.securityContext;
    c.list(`${at}.securityContext.supplementalGroups`, sc.supplementalGroups).forEach((g, i) => {
      if (typeof g === 'number' && (g < 0 || g > 2147483647))
        c.invalid(`${at}.securityContext.supplementalGroups[${i}]`, g, 'must be between 0 and 2147483647, inclusive');
    });
    profiles(c, `${at}.securityContext`, sc);
  }
  if (spec.shareProcessNamespace === true && spec.hostPID === true)
    c.invalid(`${at}.shareProcessNamespace`, true, 'ShareProcessNamespace and HostPID cannot both be enabled');
  if (
    isObj(spec.securityContext) &&
    spec.securityContext.fsGroupChangePolicy !== undefined &&
    spec.securityContext.fsGroupChangePolicy !== null
  ) {
    c.oneOf(`${at}.securityContext.fsGroupChangePolicy`, spec.securityContext.fsGroupChangePolicy, [
      'OnRootMismatch',
      'Always',
    ]);
  }
  if (isObj(spec.os) && spec.os.name !== undefined) c.oneOf(`${at}.os.name`, spec.os.name, ['linux', 'windows']);
  c.list(`${at}.readinessGates`, spec.readinessGates).forEach((g, i) => {
    if (isObj(g) && typeof g.conditionType === 'string' && !qualifiedName(g.conditionType))
      c.invalid(`${at}.readinessGates[${i}].conditionType`, g.conditionType, QUALIFIED_HELP);
  });
  c.list(`${at}.tolerations`, spec.tolerations).forEach((t, i) => {
    if (!isObj(t)) return;
    const tp = `${at}.tolerations[${i}]`;
    if (typeof t.key === 'string' && t.key !== '' && !qualifiedName(t.key))
      c.invalid(`${tp}.key`, t.key, QUALIFIED_HELP);
    if ((t.key === undefined || t.key === '') && t.operator !== 'Exists')
      c.invalid(
        `${tp}.operator`,
        t.operator ?? '',
        'operator must be Exists when `key` is empty, which means "match all values and all keys"',
      );
    if (t.operator !== undefined && t.operator !== '') c.oneOf(`${tp}.operator`, t.operator, ['Equal', 'Exists']);
    if (t.operator === 'Exists' && typeof t.value === 'string' && t.value !== '')
      c.invalid(`${tp}.operator`, t.value, "value must be empty when `operator` is 'Exists'");
    if (t.effect !== undefined && t.effect !== '')
      c.oneOf(`${tp}.effect`, t.effect, ['NoSchedule', 'PreferNoSchedule', 'NoExecute']);
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && t.effect !== 'NoExecute')
      c.invalid(`${tp}.effect`, t.effect ?? '', "effect must be 'NoExecute' when `tolerationSeconds` is set");
  });
  const claims = new Set(
    c
      .list(`${at}.volumes`, spec.volumes)
      .filter((v): v is Obj => isObj(v) && (isObj(v.persistentVolumeClaim) || isObj(v.ephemeral)))
      .map((v) => String(v.name)),
  );
  for (const list of CONTAINER_LISTS) {
    c.list(`${at}.${list}`, spec[list]).forEach((ctr, i) => {
      if (!isObj(ctr)) return;
      c.list(`${at}.${list}[${i}].volumeDevices`, ctr.volumeDevices).forEach((d, j) => {
        if (!isObj(d) || typeof d.name !== 'string' || d.name === '') return;
        const dp = `${at}.${list}[${i}].volumeDevices[${j}].name`;
        if (!volumeNames.has(d.name)) c.add(dp, `not found: the pod has no volume ${show(d.name)}`);
        else if (!claims.has(d.name))
          c.invalid(dp, d.name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode');
      });
    });
  }
}

/** seccompProfile and appArmorProfile: a known type; a Localhost profile names its file, other types none. */
function profiles(c: Collector, at: string, sc: Obj): void {
  for (const f of ['seccompProfile', 'appArmorProfile']) {
    const p = sc[f];
    if (!isObj(p)) continue;
    const what = f === 'seccompProfile' ? 'seccomp' : 'AppArmor';
    const local = p.localhostProfile;
    if (p.type === 'Localhost') {
      if (local === undefined || local === null || local === '')
        c.add(`${at}.${f}.localhostProfile`, `required: must be set when ${what} type is Localhost`);
      else if (f === 'seccompProfile' && typeof local === 'string')
        localDescendingPath(c, `${at}.${f}.localhostProfile`, local);
    } else if (PROFILE_TYPES.includes(String(p.type))) {
      if (local !== undefined && local !== null)
        c.invalid(`${at}.${f}.localhostProfile`, local, `can only be set when ${what} type is Localhost`);
    } else c.oneOf(`${at}.${f}.type`, p.type, PROFILE_TYPES);
  }
}

function validateContainerFields(
  c: Collector,
  ctr: Obj,
  path: string,
  pod: { hostUsers: boolean; minor: number },
): void {
  if (isObj(ctr.securityContext)) {
    const sc = ctr.securityContext;
    if (sc.allowPrivilegeEscalation === false) {
      if (sc.privileged === true)
        c.add(`${path}.securityContext`, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true');
      const add = isObj(sc.capabilities) && Array.isArray(sc.capabilities.add) ? sc.capabilities.add : [];
      if (add.includes('CAP_SYS_ADMIN'))
        c.add(
          `${path}.securityContext`,
          'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN',
        );
    }
    profiles(c, `${path}.securityContext`, sc);
    if (sc.procMount !== undefined && sc.procMount !== null)
      c.oneOf(`${path}.securityContext.procMount`, sc.procMount, ['Default', 'Unmasked']);
    // From 1.30: an unmasked /proc (sysrq-trigger, /proc/sys writable by the container's root) only
    // in a user namespace. (A disabled ProcMountType gate has reset it to Default before this.)
    if (sc.procMount === 'Unmasked' && pod.hostUsers && pod.minor >= 30)
      c.invalid(`${path}.securityContext.procMount`, sc.procMount, '`hostUsers` must be false to use `Unmasked`');
  }
  const privileged = isObj(ctr.securityContext) && ctr.securityContext.privileged === true;
  c.list(`${path}.volumeMounts`, ctr.volumeMounts).forEach((m, i) => {
    if (!isObj(m) || m.mountPropagation === undefined || m.mountPropagation === null) return;
    const mp = `${path}.volumeMounts[${i}].mountPropagation`;
    c.oneOf(mp, m.mountPropagation, ['None', 'HostToContainer', 'Bidirectional']);
    if (m.mountPropagation === 'Bidirectional' && !privileged)
      c.add(mp, 'forbidden: Bidirectional mount propagation is available only to privileged containers');
  });
  if (ctr.terminationMessagePolicy !== undefined && ctr.terminationMessagePolicy !== '') {
    c.oneOf(`${path}.terminationMessagePolicy`, ctr.terminationMessagePolicy, ['File', 'FallbackToLogsOnError']);
  }
  if (isObj(ctr.resources)) {
    for (const kind of ['limits', 'requests']) {
      const list = ctr.resources[kind];
      if (!isObj(list)) continue;
      for (const name of Object.keys(list)) {
        const at = `${path}.resources.${kind}`;
        if (!qualifiedName(name)) c.invalid(at, name, QUALIFIED_HELP);
        else if (
          !name.includes('/') &&
          !STANDARD_CONTAINER_RESOURCES.includes(name) &&
          !name.startsWith('hugepages-')
        ) {
          c.invalid(
            at,
            name,
            'must be a standard resource for containers (cpu, memory, ephemeral-storage, hugepages-<size>) or fully qualified (example.com/gpu)',
          );
        }
      }
    }
  }
}

function fileMode(c: Collector, path: string, v: unknown): void {
  if (typeof v === 'number' && (v < 0 || v > 0o777)) c.invalid(path, v, FILE_MODE_HELP);
}

/** validateLocalNonReservedPath: relative, no '..' element, not starting with '..'. */
function itemPath(c: Collector, path: string, v: unknown): void {
  if (v === undefined || v === '') return c.required(path);
  if (typeof v !== 'string') return;
  localDescendingPath(c, path, v);
  if (v.startsWith('..') && !v.split('/').includes('..')) c.invalid(path, v, "must not start with '..'");
}

/** secret, configMap, downwardAPI and projected volumes: modes and the files they write. */
function validateVolumeFiles(c: Collector, v: Obj, path: string): void {
  const items = (at: string, list: unknown): void => {
    c.list(`${at}.items`, list).forEach((it, i) => {
      if (!isObj(it)) return;
      itemPath(c, `${at}.items[${i}].path`, it.path);
      fileMode(c, `${at}.items[${i}].mode`, it.mode);
    });
  };
  for (const k of ['secret', 'configMap', 'downwardAPI', 'projected']) {
    const src = v[k];
    if (!isObj(src)) continue;
    fileMode(c, `${path}.${k}.defaultMode`, src.defaultMode);
    if (k !== 'projected') items(`${path}.${k}`, src.items);
  }
  if (isObj(v.projected)) {
    c.list(`${path}.projected.sources`, v.projected.sources).forEach((src, i) => {
      if (!isObj(src)) return;
      const sp = `${path}.projected.sources[${i}]`;
      for (const k of ['secret', 'configMap']) {
        if (!isObj(src[k])) continue;
        if (src[k].name === undefined || src[k].name === '') c.required(`${sp}.${k}.name`);
        items(`${sp}.${k}`, src[k].items);
      }
      if (isObj(src.downwardAPI)) items(`${sp}.downwardAPI`, src.downwardAPI.items);
      // The API server names the token's path at the projected volume (fldPath.Child("path")), not the source.
      if (isObj(src.serviceAccountToken)) {
        const exp = src.serviceAccountToken.expirationSeconds; // defaulted to 3600 when unset
        const at = `${sp}.serviceAccountToken.expirationSeconds`;
        if (typeof exp === 'number' && exp < 600) c.invalid(at, exp, 'may not specify a duration less than 10 minutes');
        if (typeof exp === 'number' && exp > 2 ** 32)
          c.invalid(at, exp, 'may not specify a duration larger than 2^32 seconds');
        itemPath(c, `${path}.projected.path`, src.serviceAccountToken.path);
      }
    });
  }
}

/** ValidatePortNumOrName: 1–65535, or an IANA service name. */
function portNumOrName(c: Collector, path: string, v: unknown): void {
  if (typeof v === 'number') {
    if (!Number.isInteger(v) || v < 1 || v > 65535) c.invalid(path, v, 'must be between 1 and 65535, inclusive');
  } else if (typeof v === 'string') {
    if (
      v.length > 15 ||
      !/^[-a-z0-9]+$/.test(v) ||
      !/[a-z]/.test(v) ||
      v.includes('--') ||
      v.startsWith('-') ||
      v.endsWith('-')
    )
      c.invalid(path, v, PORT_NAME_HELP);
  } else if (v === undefined || v === null) c.required(path);
}

/**
 * The actions of lifecycle hooks and probes (validateHandler, validateSleepAction): kubelet runs
 * postStart and preStop itself, so a hook it cannot run kills the container it just started.
 */
function validateHandlers(c: Collector, ctr: Obj, path: string, grace: unknown): void {
  const hooks = isObj(ctr.lifecycle)
    ? (['postStart', 'preStop'] as const).map((h) => [`lifecycle.${h}`, (ctr.lifecycle as Obj)[h]] as const)
    : [];
  const probes = (['livenessProbe', 'readinessProbe', 'startupProbe'] as const).map((p) => [p, ctr[p]] as const);
  for (const [name, h] of [...hooks, ...probes]) {
    if (!isObj(h)) continue;
    const at = `${path}.${name}`;
    if (isObj(h.exec) && (!Array.isArray(h.exec.command) || h.exec.command.length === 0))
      c.required(`${at}.exec.command`);
    if (isObj(h.httpGet)) {
      portNumOrName(c, `${at}.httpGet.port`, h.httpGet.port);
      if (h.httpGet.scheme !== undefined && h.httpGet.scheme !== null)
        c.oneOf(`${at}.httpGet.scheme`, h.httpGet.scheme, ['HTTP', 'HTTPS']);
    }
    if (isObj(h.tcpSocket)) portNumOrName(c, `${at}.tcpSocket.port`, h.tcpSocket.port);
    if (isObj(h.grpc)) {
      const port = h.grpc.port;
      if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)
        c.invalid(`${at}.grpc.port`, port ?? '', 'must be between 1 and 65535, inclusive');
    }
    if (isObj(h.sleep) && typeof h.sleep.seconds === 'number') {
      const g = typeof grace === 'number' ? grace : 30;
      if (h.sleep.seconds < 0 || h.sleep.seconds > g)
        c.invalid(
          `${at}.sleep.seconds`,
          h.sleep.seconds,
          `must be non-negative and less than terminationGracePeriodSeconds (${g})`,
        );
    }
  }
}

// ---- Container restart rules (KEP-5307, KEP-5532): validateContainers, validateInitContainers and
// validateContainerRestartPolicy of pkg/apis/core/validation/validation.go (1.36 tree,
// zongruxie4/kubernetes@926e9fc8), with the options pkg/api/pod/util.go derives from the gates:
// AllowContainerRestartPolicyRules (ContainerRestartRules) and AllowRestartAllContainers
// (RestartAllContainersOnContainerExits, which also allows rules on sidecars). With
// ContainerRestartRules off from 1.34 on, the fields were already dropped (drop-disabled.ts).

const CONTAINER_RESTART_POLICIES = ['Always', 'Never', 'OnFailure'];
const RULE_OPERATORS = ['In', 'NotIn'];
const MAX_RESTART_RULES = 20;
const MAX_EXIT_CODES = 255;

function hasRules(ctr: Obj): boolean {
  return Array.isArray(ctr.restartPolicyRules) && ctr.restartPolicyRules.length > 0;
}

function validateRestartRules(
  c: Collector,
  ctr: Obj,
  path: string,
  list: (typeof CONTAINER_LISTS)[number],
  api: ApiRules,
): void {
  const policy = ctr.restartPolicy;
  const set = policy !== undefined && policy !== null;
  if (list === 'ephemeralContainers') {
    // validateFieldAllowList: neither is on the ephemeral container's allow list.
    if (set) c.add(`${path}.restartPolicy`, 'forbidden: cannot be set for an Ephemeral Container');
    if (hasRules(ctr)) c.add(`${path}.restartPolicyRules`, 'forbidden: cannot be set for an Ephemeral Container');
    return;
  }
  const allowRules = api.gates.ContainerRestartRules;
  if (list === 'containers') {
    if (allowRules) containerRestartPolicy(c, ctr, path, api);
    else if (set) c.add(`${path}.restartPolicy`, 'forbidden: may not be set for non-init containers');
    return;
  }
  // validateInitContainerRestartPolicy
  if (!set) {
    if (hasRules(ctr))
      c.add(`${path}.restartPolicy`, 'required: must specify restartPolicy when restart rules are used');
    return;
  }
  if (!allowRules) return c.oneOf(`${path}.restartPolicy`, policy, ['Always']);
  if (policy !== 'Always') return containerRestartPolicy(c, ctr, path, api);
  if (api.gates.RestartAllContainersOnContainerExits) containerRestartPolicy(c, ctr, path, api);
  else if (hasRules(ctr))
    c.add(
      `${path}.restartPolicyRules`,
      'forbidden: restartPolicyRules are not allowed for init containers with restart policy Always',
    );
}

/** validateContainerRestartPolicy: the policy, at most 20 rules, each with an action and exit codes. */
function containerRestartPolicy(c: Collector, ctr: Obj, path: string, api: ApiRules): void {
  const policy = ctr.restartPolicy;
  const rules = Array.isArray(ctr.restartPolicyRules) ? ctr.restartPolicyRules : [];
  if (policy === undefined || policy === null) {
    if (rules.length === 0) return;
    c.add(`${path}.restartPolicy`, 'required: must specify restartPolicy when restart rules are used');
  } else c.oneOf(`${path}.restartPolicy`, policy, CONTAINER_RESTART_POLICIES);
  if (rules.length > MAX_RESTART_RULES)
    c.add(`${path}.restartPolicyRules`, `too many: ${rules.length}: must have at most ${MAX_RESTART_RULES} items`);
  const actions = api.gates.RestartAllContainersOnContainerExits ? ['Restart', 'RestartAllContainers'] : ['Restart'];
  rules.forEach((r, i) => {
    if (!isObj(r)) return;
    const rp = `${path}.restartPolicyRules[${i}]`;
    // The API server names only "Restart" as supported, whichever actions it takes.
    if (typeof r.action !== 'string' || !actions.includes(r.action))
      c.add(`${rp}.action`, `unsupported value ${show(r.action ?? '')}: supported values: "Restart"`);
    const codes = r.exitCodes;
    if (!isObj(codes)) return c.add(`${rp}.exitCodes`, 'required: must be specified');
    c.oneOf(`${rp}.exitCodes.operator`, codes.operator ?? '', RULE_OPERATORS);
    if (Array.isArray(codes.values) && codes.values.length > MAX_EXIT_CODES) {
      c.add(`${rp}.exitCodes.values`, `too many: ${codes.values.length}: must have at most ${MAX_EXIT_CODES} items`);
    }
  });
}

/** validateStopSignal: the pod names its OS; Linux takes the signals of the CRI's list, Windows SIGKILL and SIGTERM. */
function validateStopSignal(c: Collector, path: string, signal: unknown, os: unknown): void {
  const name = isObj(os) ? os.name : undefined;
  if (name === undefined || name === null || name === '')
    return c.add(path, 'forbidden: may not be set for containers with empty `spec.os.name`');
  if (name === 'windows' && !WINDOWS_STOP_SIGNALS.includes(String(signal))) c.oneOf(path, signal, WINDOWS_STOP_SIGNALS);
  else if (name === 'linux' && !LINUX_STOP_SIGNALS.includes(String(signal)))
    c.add(path, `unsupported value ${show(signal)}: a Linux signal name such as "SIGTERM", "SIGUSR1" or "SIGRTMIN+1"`);
}
