// A sandbox's network step, as libcni's AddNetworkList / DelNetworkList / CheckNetworkList and their
// callers (containerd's CRI plugin, kubelet's dockershim) do it: ADD in list order passing each
// result on as prevResult, the final result cached; DEL in reverse order with the cached result
// (spec >= 0.4.0); CHECK in order with the cached result (spec >= 0.4.0, unless disableCheck).
// A failed ADD is followed by DEL of the whole chain, as the callers of libcni do.

import { resolve } from 'node:path';
import { SyncpodError } from '../errors';
import {
  cacheFilePath,
  findCacheEntries,
  readCacheEntry,
  removeCacheEntry,
  writeCacheEntry,
  type CacheEntry,
} from './cache';
import { CNI_NAME_PATTERN, loadNetworkConfig, parseConfList } from './conf';
import {
  CniConfigError,
  CniInvalidOutputError,
  CniPluginError,
  CniPluginNotFoundError,
  CniSetupError,
  CniTimeoutError,
  oneLine,
} from './errors';
import { normaliseResult } from './result';
import { buildInvocation, cniArgsFor, runtimeConfFor, type RuntimeConf } from './runtime-conf';
import type {
  CheckOutcome,
  CniCommand,
  CniExec,
  CniOptions,
  Invocation,
  InvocationRecord,
  Json,
  JsonObject,
  NetworkConfigList,
  NetworkRequest,
  SetupOutcome,
  TeardownOutcome,
} from './types';
import { versionAtLeast } from './version';

export const DEFAULT_CNI_BIN_DIRS = ['/opt/cni/bin', '/usr/lib/cni'];
/** Upper bound for one plugin run unless --cni-timeout says otherwise (syncpod's choice). */
export const DEFAULT_CNI_TIMEOUT_MS = 60_000;

export interface CniDeps {
  exec: CniExec;
}

/**
 * Split a --cni-bin-dir value (DIR[:DIR...]); empty parts are dropped and relative ones made
 * absolute against the working directory (plugins get CNI_PATH and run elsewhere).
 */
export function parseBinDirs(value: string): string[] {
  return value
    .split(':')
    .filter((d) => d !== '')
    .map((d) => resolve(d));
}

const MAX_IFNAME = 15;

/** Refuse a request libcni would refuse, before anything runs. */
export function validateRequest(request: NetworkRequest, command: CniCommand): void {
  if (request.containerId === '') throw new CniConfigError('sandbox id (CNI_CONTAINERID) is empty');
  if (!CNI_NAME_PATTERN.test(request.containerId)) {
    throw new CniConfigError(`sandbox id "${request.containerId}" has characters CNI does not allow`);
  }
  const ifname = request.ifname;
  if (ifname === '') throw new CniConfigError('interface name is empty');
  if (ifname.length > MAX_IFNAME) {
    throw new CniConfigError(`interface name "${ifname}" is longer than ${MAX_IFNAME} characters`);
  }
  if (ifname === '.' || ifname === '..' || /[/:\s]/.test(ifname)) {
    throw new CniConfigError(`interface name "${ifname}" is ".", ".." or contains '/', ':' or whitespace`);
  }
  if (command !== 'DEL' && request.netnsPath === '') {
    throw new CniConfigError(`${command} needs the sandbox's network namespace path (CNI_NETNS)`);
  }
}

/** Refuse plugin types that are paths (before anything runs); resolve the others, or null if missing. */
async function resolvePlugins(
  network: NetworkConfigList,
  binDirs: string[],
  exec: CniExec,
): Promise<(string | null)[]> {
  for (const plugin of network.plugins) {
    if (plugin.type.includes('/') || plugin.type === '.' || plugin.type === '..') {
      throw new CniConfigError(
        `CNI plugin type "${plugin.type}" in network "${network.name}" is a path; a type names a binary in --cni-bin-dir`,
      );
    }
  }
  if (binDirs.length === 0) throw new CniConfigError('no CNI plugin directories given (--cni-bin-dir)');
  const out: (string | null)[] = [];
  for (const plugin of network.plugins) out.push((await exec.findPlugin(plugin.type, binDirs)) ?? null);
  return out;
}

async function requirePlugins(network: NetworkConfigList, binDirs: string[], exec: CniExec): Promise<string[]> {
  const paths = await resolvePlugins(network, binDirs, exec);
  return paths.map((p, i) => {
    if (p === null) throw new CniPluginNotFoundError(network.plugins[i].type, binDirs, network.name);
    return p;
  });
}

/** Run one invocation and apply the protocol to its outcome. Returns the parsed result for ADD. */
async function runInvocation(inv: Invocation, exec: CniExec, timeoutMs: number): Promise<JsonObject | undefined> {
  let outcome;
  try {
    outcome = await exec.run({
      pluginPath: inv.pluginPath as string,
      env: inv.env,
      stdin: JSON.stringify(inv.stdin),
      timeoutMs,
    });
  } catch (err) {
    throw new SyncpodError(`CNI plugin "${inv.type}" (${inv.command}) could not be started: ${(err as Error).message}`);
  }
  if (outcome.timedOut) throw new CniTimeoutError(inv.type, inv.command, timeoutMs);
  const stdout = outcome.stdout.trim();
  if (outcome.exitCode !== 0) {
    const how = outcome.exitCode === null ? 'was killed by a signal' : `exited with code ${outcome.exitCode}`;
    if (stdout === '') {
      const stderr = outcome.stderr.trim();
      throw new CniInvalidOutputError(
        inv.type,
        inv.command,
        stderr === '' ? `${how} without an error message` : `${how}; stderr: ${JSON.stringify(oneLine(stderr, 200))}`,
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(stdout);
    } catch {
      parsed = undefined;
    }
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const e = parsed as JsonObject;
      throw new CniPluginError(
        inv.type,
        inv.command,
        typeof e.code === 'number' ? e.code : 0,
        typeof e.msg === 'string' ? e.msg : '(no msg)',
        typeof e.details === 'string' ? e.details : '',
      );
    }
    throw new CniInvalidOutputError(
      inv.type,
      inv.command,
      `${how} and printed something that is not a CNI error: ${JSON.stringify(oneLine(stdout, 200))}`,
    );
  }
  if (inv.command !== 'ADD') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch (err) {
    throw new CniInvalidOutputError(inv.type, inv.command, `printed invalid JSON: ${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new CniInvalidOutputError(inv.type, inv.command, 'printed JSON that is not a result object');
  }
  const result = parsed as JsonObject;
  // libcni gives a result without a version the version of the config it answered.
  if (typeof result.cniVersion !== 'string' || result.cniVersion === '') {
    return { ...result, cniVersion: (inv.stdin.cniVersion as string) ?? '' };
  }
  return result;
}

/** DEL passes the cached result only from spec 0.4.0 on. */
function delPrevResult(network: NetworkConfigList, cached: JsonObject | undefined): Json | undefined {
  return versionAtLeast(network.cniVersion, '0.4.0') ? cached : undefined;
}

/**
 * Run DEL for the chain in reverse order. `stopAtFirstError` follows libcni (teardown);
 * cleanup after a failed ADD tries every plugin and collects the errors instead.
 */
async function runDel(
  network: NetworkConfigList,
  paths: string[],
  runtime: RuntimeConf,
  prevResult: Json | undefined,
  options: CniOptions,
  deps: CniDeps,
  records: InvocationRecord[],
  stopAtFirstError: boolean,
): Promise<Error[]> {
  const errors: Error[] = [];
  for (let i = network.plugins.length - 1; i >= 0; i--) {
    const inv = buildInvocation('DEL', network, i, paths[i], runtime, options.binDirs, prevResult);
    try {
      await runInvocation(inv, deps.exec, options.timeoutMs);
      records.push({ command: 'DEL', type: inv.type, index: i, ok: true });
    } catch (err) {
      records.push({ command: 'DEL', type: inv.type, index: i, ok: false, error: (err as Error).message });
      errors.push(err as Error);
      if (stopAtFirstError) break;
    }
  }
  return errors;
}

/** ADD the sandbox to the pod network; on failure the chain is deleted again and both errors reported. */
export async function setupNetwork(request: NetworkRequest, options: CniOptions, deps: CniDeps): Promise<SetupOutcome> {
  validateRequest(request, 'ADD');
  const loaded = await loadNetworkConfig(options.confDir, options.networkName);
  const network = loaded.network;
  const runtime = runtimeConfFor(request);
  const paths = await requirePlugins(network, options.binDirs, deps.exec);

  const cacheFile = cacheFilePath(options.cacheDir, network.name, request.containerId, request.ifname);
  if ((await readCacheEntry(options.cacheDir, network.name, request.containerId, request.ifname)) !== undefined) {
    throw new CniConfigError(
      `network "${network.name}" is already set up for sandbox ${request.containerId} on ${request.ifname} (cache entry ${cacheFile}); tear it down first`,
    );
  }

  const records: InvocationRecord[] = [];
  let result: JsonObject | undefined;
  for (let i = 0; i < network.plugins.length; i++) {
    const inv = buildInvocation('ADD', network, i, paths[i], runtime, options.binDirs, result);
    try {
      result = await runInvocation(inv, deps.exec, options.timeoutMs);
      records.push({ command: 'ADD', type: inv.type, index: i, ok: true });
    } catch (err) {
      records.push({ command: 'ADD', type: inv.type, index: i, ok: false, error: (err as Error).message });
      const cleanup = await runDel(network, paths, runtime, undefined, options, deps, records, false);
      throw new CniSetupError(err as Error, cleanup, records);
    }
  }
  const finalResult = result as JsonObject;
  try {
    await writeCacheEntry(options.cacheDir, {
      containerId: request.containerId,
      ifName: request.ifname,
      networkName: network.name,
      netns: request.netnsPath,
      config: network.bytes,
      cniArgs: runtime.cniArgs,
      capabilityArgs: runtime.capabilityArgs,
      result: finalResult,
    });
  } catch (err) {
    const cacheError = new SyncpodError(`could not write CNI cache entry ${cacheFile}: ${(err as Error).message}`);
    const cleanup = await runDel(
      network,
      paths,
      runtime,
      delPrevResult(network, finalResult),
      options,
      deps,
      records,
      false,
    );
    throw new CniSetupError(cacheError, cleanup, records);
  }
  return {
    network: network.name,
    configFile: loaded.file,
    containerId: request.containerId,
    ifname: request.ifname,
    result: normaliseResult(finalResult, network.cniVersion),
    rawResult: finalResult,
    cacheFile,
    invocations: records,
    warnings: loaded.warnings,
  };
}

/** The cached attachment of this sandbox/interface (for --network, that network's only). */
async function cachedAttachment(request: NetworkRequest, options: CniOptions): Promise<CacheEntry | undefined> {
  if (options.networkName !== undefined) {
    return readCacheEntry(options.cacheDir, options.networkName, request.containerId, request.ifname);
  }
  const entries = await findCacheEntries(options.cacheDir, request.containerId, request.ifname);
  if (entries.length > 1) {
    throw new CniConfigError(
      `sandbox ${request.containerId} has cached attachments of several networks on ${request.ifname} (${entries
        .map((e) => e.networkName)
        .join(', ')}); choose one with --network`,
    );
  }
  return entries[0];
}

interface Attachment {
  network: NetworkConfigList;
  source: 'cache' | 'conf-dir';
  runtime: RuntimeConf;
  cached?: CacheEntry;
  warnings: string[];
  file?: string;
}

/**
 * What DEL/CHECK work on: the cached config and arguments when there is a cache entry (what was
 * ADDed), else the current config and arguments derived from the request. Undefined when there is
 * neither a cache entry nor any network config.
 */
async function attachmentFor(request: NetworkRequest, options: CniOptions): Promise<Attachment | undefined> {
  const cached = await cachedAttachment(request, options);
  const warnings: string[] = [];
  if (cached !== undefined) {
    let network: NetworkConfigList | undefined;
    try {
      network = parseConfList(cached.config, `cached config of network "${cached.networkName}"`);
    } catch (err) {
      warnings.push(`${(err as Error).message}; using the current config`);
    }
    if (network !== undefined) {
      return {
        network,
        source: 'cache',
        cached,
        warnings,
        runtime: {
          containerId: request.containerId,
          netnsPath: request.netnsPath !== '' ? request.netnsPath : cached.netns,
          ifname: request.ifname,
          cniArgs: cached.cniArgs.length > 0 ? cached.cniArgs : cniArgsFor(request),
          capabilityArgs: cached.capabilityArgs,
        },
      };
    }
  }
  let loaded;
  try {
    loaded = await loadNetworkConfig(options.confDir, cached?.networkName ?? options.networkName);
  } catch (err) {
    if (err instanceof CniConfigError && cached === undefined) return undefined;
    throw err;
  }
  return {
    network: loaded.network,
    source: 'conf-dir',
    cached,
    file: loaded.file,
    warnings: [...warnings, ...loaded.warnings],
    runtime: runtimeConfFor(request),
  };
}

/** DEL the sandbox from its network. Idempotent: nothing cached and nothing configured is success. */
export async function teardownNetwork(
  request: NetworkRequest,
  options: CniOptions,
  deps: CniDeps,
): Promise<TeardownOutcome> {
  validateRequest(request, 'DEL');
  const base = { containerId: request.containerId, ifname: request.ifname };
  const att = await attachmentFor(request, options);
  if (att === undefined) {
    return {
      ...base,
      network: null,
      configSource: 'none',
      invocations: [],
      notes: [`no cached attachment and no CNI network config in ${options.confDir}: nothing to tear down`],
      warnings: [],
    };
  }
  const notes: string[] = [];
  const prev = delPrevResult(att.network, att.cached?.result);
  if (att.cached === undefined) {
    notes.push(
      `no cached result for sandbox ${request.containerId} on ${request.ifname}: DEL ran with ${att.file} and no prevResult`,
    );
  } else if (att.cached.result !== undefined && prev === undefined) {
    notes.push(`cniVersion ${att.network.cniVersion} predates 0.4.0: DEL ran without prevResult`);
  }
  const paths = await requirePlugins(att.network, options.binDirs, deps.exec);
  const records: InvocationRecord[] = [];
  const errors = await runDel(att.network, paths, att.runtime, prev, options, deps, records, true);
  if (errors.length > 0) {
    throw new SyncpodError(`network teardown failed: ${errors[0].message} (cache entry kept; DEL can be retried)`, {
      cause: errors[0],
    });
  }
  await removeCacheEntry(options.cacheDir, att.network.name, request.containerId, request.ifname);
  return {
    ...base,
    network: att.network.name,
    configSource: att.source,
    invocations: records,
    notes,
    warnings: att.warnings,
  };
}

/** CHECK the sandbox's attachment against its cached result. */
export async function checkNetwork(request: NetworkRequest, options: CniOptions, deps: CniDeps): Promise<CheckOutcome> {
  validateRequest(request, 'CHECK');
  const att = await attachmentFor(request, options);
  if (att === undefined || att.cached === undefined) {
    throw new CniConfigError(
      `no cached CNI result for sandbox ${request.containerId} on ${request.ifname} in ${options.cacheDir}: nothing to check`,
    );
  }
  const network = att.network;
  if (!versionAtLeast(network.cniVersion, '0.4.0')) {
    throw new CniConfigError(
      `CHECK needs cniVersion 0.4.0 or later; network "${network.name}" uses ${network.cniVersion}`,
    );
  }
  const base = {
    network: network.name,
    containerId: request.containerId,
    ifname: request.ifname,
    configSource: att.source,
    warnings: att.warnings,
  };
  if (network.disableCheck) {
    return {
      ...base,
      skipped: true,
      invocations: [],
      notes: [`network "${network.name}" sets disableCheck: CHECK skipped`],
    };
  }
  const paths = await requirePlugins(network, options.binDirs, deps.exec);
  const records: InvocationRecord[] = [];
  for (let i = 0; i < network.plugins.length; i++) {
    const inv = buildInvocation('CHECK', network, i, paths[i], att.runtime, options.binDirs, att.cached.result);
    try {
      await runInvocation(inv, deps.exec, options.timeoutMs);
      records.push({ command: 'CHECK', type: inv.type, index: i, ok: true });
    } catch (err) {
      records.push({ command: 'CHECK', type: inv.type, index: i, ok: false, error: (err as Error).message });
      throw new SyncpodError(`network check failed: ${(err as Error).message}`, { cause: err });
    }
  }
  return { ...base, skipped: false, invocations: records, notes: [] };
}

export interface DryRun {
  command: CniCommand;
  network: string | null;
  configSource: 'cache' | 'conf-dir' | 'none';
  invocations: Invocation[];
  notes: string[];
  warnings: string[];
}

/**
 * --dry-run: per plugin, in execution order, the exact CNI environment and stdin that would be
 * passed. For ADD, the prevResult of plugins after the first is only known when the chain runs; it
 * is shown as a placeholder string naming the plugin it would come from.
 */
export async function describeInvocations(
  command: CniCommand,
  request: NetworkRequest,
  options: CniOptions,
  deps: CniDeps,
): Promise<DryRun> {
  validateRequest(request, command);
  let network: NetworkConfigList;
  let runtime: RuntimeConf;
  let source: 'cache' | 'conf-dir';
  let prev: Json | undefined;
  let warnings: string[];
  const notes: string[] = [];
  if (command === 'ADD') {
    const loaded = await loadNetworkConfig(options.confDir, options.networkName);
    network = loaded.network;
    runtime = runtimeConfFor(request);
    source = 'conf-dir';
    warnings = loaded.warnings;
  } else {
    const att = await attachmentFor(request, options);
    if (att === undefined) {
      return {
        command,
        network: null,
        configSource: 'none',
        invocations: [],
        notes: [`no cached attachment and no CNI network config in ${options.confDir}: nothing would run`],
        warnings: [],
      };
    }
    network = att.network;
    runtime = att.runtime;
    source = att.source;
    warnings = att.warnings;
    prev = command === 'DEL' ? delPrevResult(network, att.cached?.result) : att.cached?.result;
    if (command === 'CHECK' && !versionAtLeast(network.cniVersion, '0.4.0')) {
      throw new CniConfigError(
        `CHECK needs cniVersion 0.4.0 or later; network "${network.name}" uses ${network.cniVersion}`,
      );
    }
    if (command === 'CHECK' && network.disableCheck)
      notes.push(`network "${network.name}" sets disableCheck: nothing would run`);
  }
  const paths = await resolvePlugins(network, options.binDirs, deps.exec);
  paths.forEach((p, i) => {
    if (p === null) {
      warnings = [
        ...warnings,
        new CniPluginNotFoundError(network.plugins[i].type, options.binDirs, network.name).message,
      ];
    }
  });
  const order = network.plugins.map((_, i) => i);
  if (command === 'DEL') order.reverse();
  const invocations =
    command === 'CHECK' && network.disableCheck
      ? []
      : order.map((i, n) => {
          const prevResult =
            command === 'ADD'
              ? n === 0
                ? undefined
                : `<result of plugin ${order[n - 1]} (${network.plugins[order[n - 1]].type})>`
              : prev;
          return buildInvocation(command, network, i, paths[i], runtime, options.binDirs, prevResult);
        });
  return { command, network: network.name, configSource: source, invocations, notes, warnings };
}
