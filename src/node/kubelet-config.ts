// The kubelet's configuration as kubelet 1.29–1.37 assembles it (cmd/kubelet/app/server.go:
// loadConfigFile, mergeKubeletConfigurations, kubeletConfigFlagPrecedence; pkg/kubelet/apis/config/
// v1beta1/defaults.go SetDefaults_KubeletConfiguration): the --config file, then every `*.conf`
// drop-in of --config-dir in lexical path order applied as a JSON merge patch (RFC 7386: mappings
// merge, lists and scalars are replaced, null removes), then the command-line flags (feature gates
// merged per gate), then defaults for what is still unset. Pure: texts in, settings with sources out.
import { isIP } from 'node:net';
import { SyncpodError } from '../errors';
import type { FlagField, KubeletCommandLine } from './kubelet-flags';
import type { KubeletSettings, Sourced } from './types';

export const KUBELET_CONFIG_API_VERSION = 'kubelet.config.k8s.io/v1beta1';
export const KUBELET_CONFIG_KIND = 'KubeletConfiguration';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type ConfigDocument = { [k: string]: Json };

/**
 * Kubelet's defaults for the fields syncpod reads. The same in every kubelet 1.29–1.37:
 * SetDefaults_KubeletConfiguration (cgroupDriver "cgroupfs", cgroupsPerQOS true, resolvConf
 * "/etc/resolv.conf", containerRuntimeEndpoint "unix:///run/containerd/containerd.sock",
 * podLogsDir "/var/log/pods"), options.NewKubeletFlags (root dir "/var/lib/kubelet"); clusterDomain,
 * clusterDNS, cgroupRoot, staticPodPath and imageServiceEndpoint have no default (empty).
 */
export const KUBELET_DEFAULTS = {
  cgroupDriver: 'cgroupfs' as const,
  cgroupRoot: '',
  cgroupsPerQOS: true,
  clusterDNS: [] as string[],
  allowedUnsafeSysctls: [] as string[],
  clusterDomain: '',
  resolvConf: '/etc/resolv.conf',
  podLogsDir: '/var/log/pods',
  rootDir: '/var/lib/kubelet',
  staticPodPath: '',
  hostnameOverride: '',
  containerRuntimeEndpoint: 'unix:///run/containerd/containerd.sock',
  imageServiceEndpoint: '',
};

/** A config file or drop-in, already read. */
export interface ConfigText {
  path: string;
  text: string;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  return JSON.stringify(v);
}

/**
 * Parses one KubeletConfiguration document (YAML or JSON, read as the kubelet's YAML 1.1 reader
 * does). It must name kubelet.config.k8s.io/v1beta1 KubeletConfiguration, as the kubelet requires;
 * fields syncpod does not read are kept unchecked (the kubelet's lenient decoding accepts them).
 */
export function parseConfigDocument(file: ConfigText, parseYaml: (text: string) => unknown): ConfigDocument {
  if (file.text.trim() === '') throw new SyncpodError(`kubelet config ${file.path}: the file is empty`);
  let doc: unknown;
  try {
    doc = parseYaml(file.text);
  } catch (err) {
    const msg = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new SyncpodError(`kubelet config ${file.path}: ${msg}`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new SyncpodError(
      `kubelet config ${file.path}: expected a KubeletConfiguration mapping, got ${describe(doc)}`,
    );
  }
  const d = doc as ConfigDocument;
  if (d.apiVersion !== KUBELET_CONFIG_API_VERSION || d.kind !== KUBELET_CONFIG_KIND) {
    const got =
      d.apiVersion === undefined && d.kind === undefined
        ? 'no apiVersion/kind'
        : `${String(d.apiVersion ?? '')} ${String(d.kind ?? '')}`.trim();
    throw new SyncpodError(
      `kubelet config ${file.path}: apiVersion/kind must be ${KUBELET_CONFIG_API_VERSION} ${KUBELET_CONFIG_KIND}, got ${got}`,
    );
  }
  const { apiVersion: _a, kind: _k, ...rest } = d;
  checkFields(file.path, rest);
  return rest;
}

const STRING_FIELDS = [
  'cgroupDriver',
  'cgroupRoot',
  'clusterDomain',
  'resolvConf',
  'podLogsDir',
  'staticPodPath',
  'containerRuntimeEndpoint',
  'imageServiceEndpoint',
];

/** Type checks for the fields syncpod reads (null is allowed: in a drop-in it removes the field). */
function checkFields(path: string, doc: ConfigDocument): void {
  const bad = (field: string, want: string, v: unknown): never => {
    throw new SyncpodError(`kubelet config ${path}: ${field}: expected ${want}, got ${describe(v)}`);
  };
  for (const f of STRING_FIELDS) {
    const v = doc[f];
    if (v !== undefined && v !== null && typeof v !== 'string') bad(f, 'a string', v);
  }
  const driver = doc.cgroupDriver;
  if (typeof driver === 'string' && driver !== '' && driver !== 'cgroupfs' && driver !== 'systemd') {
    throw new SyncpodError(`kubelet config ${path}: cgroupDriver: must be cgroupfs or systemd, got "${driver}"`);
  }
  const qos = doc.cgroupsPerQOS;
  if (qos !== undefined && qos !== null && typeof qos !== 'boolean') bad('cgroupsPerQOS', 'true or false', qos);
  const dns = doc.clusterDNS;
  if (dns !== undefined && dns !== null) {
    if (!Array.isArray(dns)) bad('clusterDNS', 'a list of IP addresses', dns);
    (dns as Json[]).forEach((ip, i) => {
      if (typeof ip !== 'string' || isIP(ip) === 0) {
        throw new SyncpodError(`kubelet config ${path}: clusterDNS[${i}]: ${describe(ip)} is not an IP address`);
      }
    });
  }
  const unsafe = doc.allowedUnsafeSysctls;
  if (unsafe !== undefined && unsafe !== null) {
    if (!Array.isArray(unsafe) || unsafe.some((s) => typeof s !== 'string'))
      bad('allowedUnsafeSysctls', 'a list of sysctl names or patterns', unsafe);
  }
  const gates = doc.featureGates;
  if (gates !== undefined && gates !== null) {
    if (typeof gates !== 'object' || Array.isArray(gates))
      bad('featureGates', 'a mapping of gate names to true/false', gates);
    for (const [name, v] of Object.entries(gates as Record<string, Json>)) {
      if (v !== null && typeof v !== 'boolean') bad(`featureGates.${name}`, 'true or false', v);
    }
  }
}

/**
 * Paths in the main config file are relative to its directory (configfiles resolveRelativePaths over
 * KubeletConfigurationPathRefs: staticPodPath, resolvConf and, in current trees, podLogsDir).
 */
export function resolveRelativePaths(doc: ConfigDocument, configPath: string): ConfigDocument {
  const dir = configPath.slice(0, configPath.lastIndexOf('/')) || '/';
  const out = { ...doc };
  for (const f of ['staticPodPath', 'resolvConf', 'podLogsDir']) {
    const v = out[f];
    if (typeof v === 'string' && v !== '' && !v.startsWith('/')) out[f] = joinPath(dir, v);
  }
  return out;
}

function joinPath(dir: string, rel: string): string {
  const parts = `${dir}/${rel}`.split('/');
  const stack: string[] = [];
  for (const p of parts) {
    if (p === '' || p === '.') continue;
    if (p === '..') stack.pop();
    else stack.push(p);
  }
  return '/' + stack.join('/');
}

/** RFC 7386 JSON merge patch (gopkg.in/evanphx/json-patch MergePatch). */
export function mergePatch(target: Json | undefined, patch: Json): Json | undefined {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const base: { [k: string]: Json } =
    target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete base[k];
    else {
      const merged = mergePatch(base[k], v);
      if (merged !== undefined) base[k] = merged;
    }
  }
  return base;
}

export interface KubeletConfigInputs {
  commandLine: KubeletCommandLine;
  /** The --config file, parsed (relative paths not yet resolved). */
  configFile?: { path: string; doc: ConfigDocument };
  /** Drop-ins in the order kubelet applies them. */
  dropIns: Array<{ path: string; doc: ConfigDocument }>;
}

type Layer = { value: Json | undefined; source: Sourced<unknown>['source']; from?: string };

/** One field through the layers: file, then each drop-in (merge patch), keeping who set it last. */
function layered(inputs: KubeletConfigInputs, field: string): Layer {
  let cur: Layer = { value: undefined, source: 'default' };
  if (inputs.configFile && inputs.configFile.doc[field] !== undefined) {
    cur = { value: inputs.configFile.doc[field], source: 'kubelet-config', from: inputs.configFile.path };
  }
  for (const d of inputs.dropIns) {
    if (!(field in d.doc)) continue;
    const v = d.doc[field];
    cur =
      v === null
        ? { value: undefined, source: 'default' }
        : { value: mergePatch(cur.value, v), source: 'drop-in', from: d.path };
  }
  return cur;
}

/**
 * The kubelet's effective settings with the source of each: kubelet flag > drop-ins > config file
 * > kubelet's defaults. A field set to its "unset" value ("" for the defaulted strings) takes the
 * default, as kubelet's defaulting does; resolvConf "" stays "" (kubelet then uses no host resolver).
 */
export function resolveKubeletSettings(inputs: KubeletConfigInputs): KubeletSettings {
  const cl = inputs.commandLine;
  const main = inputs.configFile
    ? { path: inputs.configFile.path, doc: resolveRelativePaths(inputs.configFile.doc, inputs.configFile.path) }
    : undefined;
  const withPaths: KubeletConfigInputs = { ...inputs, configFile: main };
  const pick = <T>(field: FlagField, def: T, emptyIsUnset: boolean): Sourced<T> => {
    const f = cl.fields[field];
    // Flags are applied after defaulting, so a flag's value is taken as written.
    if (f !== undefined) return { value: f.value as T, source: 'kubelet-flag', from: f.flag };
    const l = layered(withPaths, field);
    if (l.value === undefined || (emptyIsUnset && l.value === '')) return { value: def, source: 'default' };
    return { value: l.value as T, source: l.source, from: l.from };
  };
  const d = KUBELET_DEFAULTS;
  const gates: Record<string, Sourced<boolean>> = {};
  const g = layered(withPaths, 'featureGates');
  // Per gate: which layer set it last.
  if (g.value && typeof g.value === 'object' && !Array.isArray(g.value)) {
    for (const [name, value] of Object.entries(g.value)) {
      let src: Layer = { value: undefined, source: 'default' };
      const fileGates = main?.doc.featureGates as Record<string, Json> | undefined;
      if (fileGates && fileGates[name] !== undefined)
        src = { value: fileGates[name], source: 'kubelet-config', from: main!.path };
      for (const dr of withPaths.dropIns) {
        const dg = dr.doc.featureGates as Record<string, Json> | null | undefined;
        if (dg && dg[name] !== undefined && dg[name] !== null)
          src = { value: dg[name], source: 'drop-in', from: dr.path };
      }
      gates[name] = { value: value as boolean, source: src.source, from: src.from };
    }
  }
  for (const [name, value] of Object.entries(cl.featureGates))
    gates[name] = { value, source: 'kubelet-flag', from: '--feature-gates' };
  const sortedGates: Record<string, Sourced<boolean>> = {};
  for (const k of Object.keys(gates).sort()) sortedGates[k] = gates[k];
  return {
    cgroupDriver: pick('cgroupDriver', d.cgroupDriver, true),
    cgroupRoot: pick('cgroupRoot', d.cgroupRoot, false),
    cgroupsPerQOS: pick('cgroupsPerQOS', d.cgroupsPerQOS, false),
    clusterDNS: pick('clusterDNS', d.clusterDNS, false),
    allowedUnsafeSysctls: pick('allowedUnsafeSysctls', d.allowedUnsafeSysctls, false),
    clusterDomain: pick('clusterDomain', d.clusterDomain, false),
    resolvConf: pick('resolvConf', d.resolvConf, false),
    podLogsDir: podLogsDir(withPaths),
    rootDir:
      cl.rootDir !== undefined
        ? { value: cl.rootDir, source: 'kubelet-flag', from: '--root-dir' }
        : { value: d.rootDir, source: 'default' },
    staticPodPath: pick('staticPodPath', d.staticPodPath, false),
    hostnameOverride:
      cl.hostnameOverride !== undefined
        ? { value: cl.hostnameOverride, source: 'kubelet-flag', from: '--hostname-override' }
        : { value: d.hostnameOverride, source: 'default' },
    containerRuntimeEndpoint: pick('containerRuntimeEndpoint', d.containerRuntimeEndpoint, true),
    imageServiceEndpoint: pick('imageServiceEndpoint', d.imageServiceEndpoint, false),
    featureGates: sortedGates,
  };
}

/** podLogsDir has no kubelet flag; kubelet's validation wants it absolute (a drop-in's is not resolved). */
function podLogsDir(inputs: KubeletConfigInputs): Sourced<string> {
  const l = layered(inputs, 'podLogsDir');
  if (l.value === undefined || l.value === '') return { value: KUBELET_DEFAULTS.podLogsDir, source: 'default' };
  if (!(l.value as string).startsWith('/')) {
    throw new SyncpodError(`kubelet config ${l.from}: podLogsDir: must be an absolute path, got "${String(l.value)}"`);
  }
  return { value: l.value as string, source: l.source, from: l.from };
}
