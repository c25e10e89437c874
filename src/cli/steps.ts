// Step commands, crictl-compatible where crictl has them: runp, create, start, stop, rm, stopp,
// rmp, pull, rmi. A pod manifest gives kubelet's configs (the same generators and executor helpers
// `sync` uses); crictl-style config files are sent as they are. --dry-run prints the exact request.
import * as fs from 'node:fs';
import * as os from 'node:os';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Pod } from '../kubelet/api-types';
import { registryAuth } from './registry-auth';
import type { Context } from './context';
import { SyncpodError, errorLine } from '../errors';
import type { SandboxOptions } from '../kubelet/sandbox-config';
import type { ContainerNodeOptions, ExecuteDeps } from '../sync/execute';
import type { ValueSources } from '../kubelet/env';
import type { LoadedPod } from '../manifest/types';
import type * as T from '../cri/types';
import { resolveKubeletRules, type DetectedKubelet } from '../kubelet/kubelet-version';
import { detectedForRules, profileWithRuntime, withProfile, type NodeFlagValues } from '../workflows/node-profile';
import type { NodeProfile } from '../node/types';
import { parseFeatureGates } from './plan';
import { HUGEPAGES_DIR, nodeFs, readHugePageSizes } from '../sync/node-fs';
import { hugePageUnitSize } from '../kubelet/resources';
import { findSpecContainer, formatConfigSeen, nextRestartCount } from '../sync/kubelet-rules';
import { fromProtoJSON, toProtoJSON } from '../cri/json';
import { runtimeV1 } from '../cri/gen/runtime-v1';
import { loadManifests, parseOrdinalFlag } from '../manifest/load';
import { observePods } from '../state/pod-status';
import { generatePodSandboxConfig } from '../kubelet/sandbox-config';
import { applyEffect } from '../sync/fs-effects';
import { resolveSandboxIds } from './sandbox';
import { generateContainerConfig } from '../kubelet/container-config';
import { buildContainerLogsDirectory } from '../kubelet/labels';
import { StepError, containerFileInputs, ensureImageExists } from '../sync/execute';
import { applyDefaultImageTag } from '../kubelet/image-ref';
import { redactCreateContainerRequest, redactionNote } from '../sync/redact';
import { userNamespaceRange } from '../sync/userns';
import { dryRunCri } from '../sync/dry-run';
import { parse as parseYaml } from 'yaml';
import type { ImageMethods } from '../cri/grpc-runtime-service';
import type { FsEffect } from '../kubelet/mounts';
import type { NodeOptions, CreateOptions, PullOptions, RmiOptions, RunpOptions } from './commands';
import { RUNTIME_REQUEST_TIMEOUT_MS, printRequest } from './output';

const PULL_TIMEOUT_MS = 30 * 60 * 1000;

function readText(ctx: Context, file: string, what: string): Promise<string> | string {
  if (file === '-') return ctx.readStdin();
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new SyncpodError(`${what} ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : errorLine(err)}`);
  }
}

/** `--env-file`: `NAMESPACE/NAME/KEY=VALUE` (a Secret or ConfigMap key of that namespace) or `KEY=VALUE`. */
export function parseEnvFile(text: string, file: string, namespace: string): ValueSources {
  const out: Required<ValueSources> = { env: {}, secrets: {}, configMaps: {} };
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const eq = line.indexOf('=');
    if (eq <= 0) throw new SyncpodError(`${file}:${i + 1}: expected NAMESPACE/NAME/KEY=VALUE or KEY=VALUE`);
    const key = line.slice(0, eq);
    const value = line.slice(eq + 1);
    const parts = key.split('/');
    if (parts.length === 1) out.env[key] = value;
    else if (parts.length === 3) {
      if (parts[0] !== namespace) return;
      (out.secrets[parts[1]] ??= {})[parts[2]] = value;
      (out.configMaps[parts[1]] ??= {})[parts[2]] = value;
    } else throw new SyncpodError(`${file}:${i + 1}: expected NAMESPACE/NAME/KEY=VALUE or KEY=VALUE`);
  });
  return out;
}

function nodeIPs(): string[] {
  const v4: string[] = [];
  const v6: string[] = [];
  for (const [, addrs] of Object.entries(os.networkInterfaces()).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    for (const a of addrs ?? []) {
      if (a.internal) continue;
      if (a.family === 'IPv4') v4.push(a.address);
      else if (!a.address.startsWith('fe80')) v6.push(a.address);
    }
  }
  return [...v4.slice(0, 1), ...v6.slice(0, 1)];
}

export interface NodeSettings {
  sandbox: Omit<SandboxOptions, 'configSeen'>;
  container: ContainerNodeOptions;
  podLogsRoot: string;
  legacyLogDir: string;
}

/** A node fact kubelet reads from the host: its huge page sizes, in /sys/kernel/mm/hugepages order. */
function hostHugePageSizes(): string[] {
  try {
    return readHugePageSizes(HUGEPAGES_DIR, hugePageUnitSize);
  } catch (err) {
    throw new SyncpodError(`${HUGEPAGES_DIR}: ${errorLine(err)}`);
  }
}

/** Node/kubelet flags (`nodeOptions` in program.ts) to generator options for this pod. */
export function nodeSettings(opts: Partial<NodeOptions> & { runtime?: string; featureGates?: string }, pod: Pod, detected: DetectedKubelet = {}): NodeSettings {
  const rules = resolveKubeletRules(opts.kubeletVersion, parseFeatureGates(opts.featureGates), detected);
  const podLogsRoot = String(opts.podLogsRoot ?? '/var/log/pods').replace(/\/+$/, '') || '/';
  let resolvConf: string | null = null;
  const resolvPath = opts.resolvConf ?? '/etc/resolv.conf';
  if (resolvPath !== '') {
    try {
      resolvConf = fs.readFileSync(resolvPath, 'utf8');
    } catch (err) {
      throw new SyncpodError(`--resolv-conf ${resolvPath}: ${errorLine(err)}`);
    }
  }
  const runtimeClassHandlers: Record<string, string> = {};
  for (const m of opts.runtimeClass ?? []) {
    const eq = String(m).indexOf('=');
    if (eq <= 0) throw new SyncpodError(`--runtime-class: "${m}" is not NAME=HANDLER`);
    runtimeClassHandlers[m.slice(0, eq)] = m.slice(eq + 1);
  }
  const driver = opts.cgroupDriver ?? 'cgroupfs';
  if (driver !== 'cgroupfs' && driver !== 'systemd') throw new SyncpodError(`--cgroup-driver: must be cgroupfs or systemd, got "${driver}"`);
  const ips = nodeIPs();
  const base = {
    podLogsRoot,
    kubeletRoot: opts.podDirRoot ?? '/var/lib/kubelet',
    clusterDNS: opts.clusterDns ? String(opts.clusterDns).split(',').map((s) => s.trim()).filter(Boolean) : [],
    clusterDomain: opts.clusterDomain ?? 'cluster.local',
    resolvConf,
    nodeIPs: ips,
    cgroupDriver: driver as 'cgroupfs' | 'systemd',
    cgroupParent: opts.cgroupParent,
    // A node fact kubelet reads from the host: cgroup v2 when the unified hierarchy is mounted.
    cgroupVersion: (fs.existsSync('/sys/fs/cgroup/cgroup.controllers') ? 2 : 1) as 1 | 2,
    // The config-generation gates of the resolved kubelet rules (resolved once, here).
    gates: rules.gates,
    userNamespace:
      pod.spec?.hostUsers === false && rules.gates.UserNamespacesSupport && pod.metadata?.uid
        ? userNamespaceRange(opts.podDirRoot ?? '/var/lib/kubelet', pod.metadata.uid)
        : undefined,
  };
  let values: ValueSources | undefined;
  if (opts.envFile) {
    let text: string;
    try {
      text = fs.readFileSync(opts.envFile, 'utf8');
    } catch (err) {
      throw new SyncpodError(`--env-file ${opts.envFile}: ${errorLine(err)}`);
    }
    values = parseEnvFile(text, opts.envFile, pod.metadata?.namespace ?? 'default');
  }
  let nodeHostsFile: string | undefined;
  if (pod.spec?.hostNetwork === true) nodeHostsFile = fs.readFileSync('/etc/hosts', 'utf8');
  return {
    sandbox: { ...base, runtimeHandler: opts.runtime ?? opts.runtimeHandler, runtimeClassHandlers },
    container: {
      ...base,
      values,
      nodeAllocatable: { cpu: String(os.cpus().length), memory: String(os.totalmem()) },
      memoryCapacityBytes: os.totalmem(),
      hugePageSizes: hostHugePageSizes(),
      nodeHostsFile,
      hashScheme: rules.hashScheme,
      hashWithoutResources: rules.minor <= 30 && rules.gates.InPlacePodVerticalScaling,
    },
    podLogsRoot,
    // kubelet's /var/log/containers sits beside /var/log/pods; keep that relation for other roots.
    legacyLogDir: `${podLogsRoot.slice(0, podLogsRoot.lastIndexOf('/')) || ''}/containers`,
  };
}

/**
 * The node flags with each unset one taken from the node profile (the running kubelet, and the
 * runtime's cgroup driver from RuntimeConfig), and what the kubelet rules take as detected.
 */
export async function profiledNode<T extends NodeFlagValues>(
  ctx: Context,
  opts: T,
): Promise<{ opts: T & ReturnType<typeof withProfile>; detected: DetectedKubelet; profile: NodeProfile }> {
  const profile = await profileWithRuntime((rt) => ctx.nodeProfile(opts, rt), () => ctx.cri().runtime);
  return { opts: withProfile(opts, profile), detected: detectedForRules(profile), profile };
}

/** Sets metadata.uid (the API types mark it read-only). */
export function setUid(pod: Pod, uid: string): void {
  (pod.metadata as { uid?: string }).uid = uid;
}

/** kubelet sets spec.nodeName before it ever sees a pod; a manifest may lack it. */
export function withNodeName(pod: Pod, opts: { nodeName?: string }): void {
  if (pod.spec && !pod.spec.nodeName) pod.spec.nodeName = opts.nodeName ?? os.hostname();
}

export function executeDeps(ctx: Context): ExecuteDeps {
  const { runtime, image } = ctx.cri();
  return {
    runtime,
    image,
    fs: nodeFs,
    clock: { now: () => ctx.now(), monotonic: () => performance.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) },
    randomHex: () => randomBytes(4).toString('hex'),
    requestTimeoutMs: Math.max(ctx.settings().timeoutMs, RUNTIME_REQUEST_TIMEOUT_MS),
    pullTimeoutMs: PULL_TIMEOUT_MS,
  };
}

/** kubernetes.io/config.seen: kept from the pod's newest sandbox (kubelet keeps the pod in memory), else now. */
export function configSeenFor(ctx: Context, sandboxes: T.PodSandboxStatus[]): string {
  const kept = sandboxes.map((s) => s.annotations?.['kubernetes.io/config.seen']).find((v) => v);
  return kept ?? formatConfigSeen(ctx.now(), -new Date(ctx.now()).getTimezoneOffset());
}

function parseDoc(text: string, file: string): unknown {
  try {
    return parseYaml(text);
  } catch (err) {
    throw new SyncpodError(`${file}: not valid YAML or JSON: ${errorLine(err)}`);
  }
}

function isManifest(doc: unknown): boolean {
  return !!doc && typeof doc === 'object' && ('kind' in doc || 'apiVersion' in doc || 'spec' in doc);
}

async function loadOnePod(ctx: Context, file: string, text: string, ordinalFlag: string | undefined): Promise<LoadedPod> {
  const options = { ordinal: parseOrdinalFlag(ordinalFlag) };
  const loaded = file === '-' ? await loadManifests(['-'], async () => text, options) : await loadManifests([file], () => ctx.readStdinBytes(), options);
  if (loaded.length !== 1) throw new SyncpodError(`${file}: holds ${loaded.length} pods; give a file with one pod`);
  return loaded[0];
}

/** The pod's uid: the manifest's, else the newest pod of that namespace/name, else a fresh one (said on stderr). */
async function podWithUid(ctx: Context, loaded: LoadedPod) {
  const pod = loaded.pod;
  const ref = { namespace: pod.metadata?.namespace ?? 'default', name: pod.metadata?.name ?? '', uid: pod.metadata?.uid ?? '' };
  const [observed] = await observePods(ctx.cri().runtime, [ref]);
  if (!pod.metadata!.uid) {
    if (observed.match.uid) setUid(pod, observed.match.uid);
    else {
      setUid(pod, randomUUID());
      ctx.io.stderr.write(`pod ${ref.namespace}/${ref.name} has no uid and none exists on this node: using the fresh uid ${pod.metadata!.uid}\n`);
    }
  }
  return { pod, observed };
}

export async function runp(ctx: Context, args: string[], given: RunpOptions): Promise<number> {
  const file = args[0];
  const { opts, detected } = await profiledNode(ctx, given);
  const text = await readText(ctx, file, 'pod config');
  const doc = parseDoc(text, file);
  let request: { config: T.PodSandboxConfig; runtimeHandler: string };
  let effects: FsEffect[] = [];
  if (isManifest(doc)) {
    const loaded = await loadOnePod(ctx, file, text, opts.ordinal);
    const { pod, observed } = await podWithUid(ctx, loaded);
    const newest = observed.status.sandboxStatuses[0];
    const attempt = opts.attempt ?? (newest ? newest.attempt + 1 : 0);
    if (attempt < 0) throw new SyncpodError('--attempt must not be negative');
    const settings = nodeSettings(opts, pod, detected);
    const gen = generatePodSandboxConfig(pod, attempt, { ...settings.sandbox, configSeen: configSeenFor(ctx, observed.sandboxes) });
    request = { config: gen.config, runtimeHandler: gen.runtimeHandler };
    effects = gen.effects;
  } else {
    if (opts.attempt !== undefined) throw new SyncpodError('--attempt applies to pod manifests; a PodSandboxConfig carries metadata.attempt');
    const config = fromProtoJSON(runtimeV1, 'PodSandboxConfig', doc, file === '-' ? '<stdin>' : file) as unknown as T.PodSandboxConfig;
    request = { config, runtimeHandler: opts.runtime ?? opts.runtimeHandler ?? '' };
    if (config.logDirectory) effects = [{ kind: 'mkdir', path: config.logDirectory, mode: 0o755, why: 'pod log directory' }];
  }
  if (opts.dryRun) {
    printRequest(ctx, 'RunPodSandboxRequest', request);
    return 0;
  }
  for (const e of effects) applyEffect(nodeFs, e);
  const deps = executeDeps(ctx);
  const res = await ctx.cri().runtime.call('RunPodSandbox', request, { timeoutMs: deps.requestTimeoutMs }).catch((err) => {
    throw new SyncpodError(`run pod sandbox: ${errorLine(err)}`);
  });
  ctx.out(res.podSandboxId);
  return 0;
}

export async function create(ctx: Context, args: string[], opts: CreateOptions): Promise<number> {
  const [podArg, configFile, sandboxFile] = args;
  const [podSandboxId] = await resolveSandboxIds(ctx, [podArg]);
  const { runtime } = ctx.cri();
  const deps = executeDeps(ctx);
  let request: { podSandboxId: string; config: T.ContainerConfig; sandboxConfig: T.PodSandboxConfig };
  if (opts.container !== undefined) {
    if (sandboxFile !== undefined) throw new SyncpodError('with --container the pod manifest gives the sandbox config; drop the third argument');
    request = await kubeletContainerRequest(ctx, podSandboxId, configFile, { ...opts, container: opts.container }, deps);
  } else {
    if (sandboxFile === undefined) throw new SyncpodError('create needs CONTAINER.json SANDBOX.json, or a pod manifest with --container NAME');
    const cDoc = parseDoc(await readText(ctx, configFile, 'container config'), configFile);
    if (isManifest(cDoc)) throw new SyncpodError(`${configFile}: is a pod manifest; name the container with --container`);
    const sDoc = parseDoc(await readText(ctx, sandboxFile, 'pod config'), sandboxFile);
    request = {
      podSandboxId,
      config: fromProtoJSON(runtimeV1, 'ContainerConfig', cDoc, configFile) as unknown as T.ContainerConfig,
      sandboxConfig: fromProtoJSON(runtimeV1, 'PodSandboxConfig', sDoc, sandboxFile) as unknown as T.PodSandboxConfig,
    };
    if (!opts.dryRun && request.sandboxConfig.logDirectory && request.config.logPath) {
      const path = `${request.sandboxConfig.logDirectory}/${request.config.logPath}`;
      fs.mkdirSync(path.slice(0, path.lastIndexOf('/')), { recursive: true, mode: 0o755 });
    }
  }
  if (opts.dryRun) {
    printRequest(ctx, 'CreateContainerRequest', request);
    return 0;
  }
  const res = await runtime.call('CreateContainer', request, { timeoutMs: deps.requestTimeoutMs }).catch((err) => {
    throw new SyncpodError(`creating container: ${errorLine(err)}`);
  });
  ctx.out(res.containerId);
  return 0;
}

/** kubelet's startContainer up to CreateContainer: image per pull policy, restart count, config, fs effects. */
async function kubeletContainerRequest(ctx: Context, podSandboxId: string, file: string, given: CreateOptions & { container: string }, deps: ExecuteDeps) {
  const { opts, detected } = await profiledNode(ctx, given);
  const { runtime, image } = ctx.cri();

  const sb = (await runtime.call('PodSandboxStatus', { podSandboxId, verbose: false })).status;
  if (!sb) throw new SyncpodError(`pod sandbox ${podSandboxId.slice(0, 13)}: the runtime returned no status`);
  const loaded = await loadOnePod(ctx, file, await readText(ctx, file, 'pod manifest'), opts.ordinal);
  const pod = loaded.pod;
  const meta = pod.metadata!;
  const where = `${loaded.source.file}: document ${loaded.source.document}`;
  if (sb.metadata?.name !== meta.name || sb.metadata?.namespace !== meta.namespace) {
    throw new SyncpodError(`${where}: pod ${meta.namespace}/${meta.name} does not match sandbox ${podSandboxId.slice(0, 13)} (${sb.metadata?.namespace}/${sb.metadata?.name})`);
  }
  if (meta.uid && meta.uid !== sb.metadata?.uid) throw new SyncpodError(`${where}: metadata.uid ${meta.uid} differs from the sandbox's uid ${sb.metadata?.uid}`);
  setUid(pod, sb.metadata?.uid ?? '');
  withNodeName(pod, opts);
  const found = findSpecContainer(pod, opts.container);
  if (!found) throw new SyncpodError(`${where}: pod ${meta.namespace}/${meta.name} has no container named ${opts.container}`);
  const settings = nodeSettings(opts, pod, detected);
  const [observed] = await observePods(runtime, [{ namespace: meta.namespace!, name: meta.name!, uid: meta.uid! }]);
  const sandboxConfig = generatePodSandboxConfig(pod, sb.metadata?.attempt ?? 0, { ...settings.sandbox, configSeen: configSeenFor(ctx, [sb]) }).config;
  const notes: string[] = [];
  let imageRef: string;
  let imageUser: { uid?: string; username?: string } | undefined;
  try {
    if (opts.pull === false) {
      const st = (await image.call('ImageStatus', { image: { image: applyDefaultImageTag(found.container.image ?? '') }, verbose: false })).image;
      if (!st?.id) throw new SyncpodError(`image ${found.container.image} is not present and --no-pull was given`);
      imageRef = st.id;
      imageUser = st.uid !== undefined ? { uid: String(st.uid.value) } : st.username ? { username: st.username } : undefined;
    } else if (opts.dryRun) {
      // Decide the pull without pulling: the request then names the image id kubelet would use.
      const dry = dryRunCri<ImageMethods>(image, 'ImageService', []);
      ({ imageRef, imageUser } = await ensureImageExists({ img: dry, notes }, found.container, sandboxConfig, deps.pullTimeoutMs));
    } else {
      ({ imageRef, imageUser } = await ensureImageExists({ img: image, notes }, found.container, sandboxConfig, deps.pullTimeoutMs));
    }
  } catch (err) {
    throw new SyncpodError(err instanceof StepError ? `${err.code}: ${err.message}` : errorLine(err));
  }
  let fileInputs: Awaited<ReturnType<typeof containerFileInputs>>;
  try {
    const img = opts.dryRun ? dryRunCri<ImageMethods>(image, 'ImageService', []) : image;
    fileInputs = await containerFileInputs({ img, notes }, pod, found.container, settings.container, deps.fs, sandboxConfig, deps.pullTimeoutMs);
  } catch (err) {
    throw new SyncpodError(err instanceof StepError ? `${err.code}: ${err.message}` : errorLine(err));
  }
  if (notes.length) ctx.io.stderr.write(`${opts.container}: ${notes.join('; ')}\n`);
  const rc = nextRestartCount(observed.status.containerStatuses, opts.container, () =>
    deps.fs.readdir(buildContainerLogsDirectory(settings.podLogsRoot, pod, opts.container)),
  );
  const podIPs = pod.spec?.hostNetwork === true || sb.state !== 'SANDBOX_READY' ? [] : [sb.network?.ip ?? '', ...(sb.network?.additionalIps ?? []).map((a) => a.ip)].filter(Boolean);
  const target = (found.container as { targetContainerName?: string }).targetContainerName;
  const gen = generateContainerConfig(pod, found.container, found.kind, {
    ...settings.container,
    restartCount: rc.count,
    imageRef,
    imageUser,
    podIPs,
    terminationLogName: deps.randomHex(),
    targetContainerId: target ? observed.status.containerStatuses.find((s) => s.name === target)?.id : undefined,
    ...fileInputs,
  });
  if (!opts.dryRun) for (const e of gen.effects) applyEffect(deps.fs, e);
  const request = { podSandboxId, config: gen.config, sandboxConfig };
  if (!opts.dryRun || opts.showSecrets) return request;
  // Printed, not sent: values from Secrets are redacted (issue 9 item 7).
  const shown = redactCreateContainerRequest(request, pod, settings.container.values);
  const note = redactionNote(shown.redacted);
  if (note) ctx.io.stderr.write(`${note}\n`);
  return shown.request;
}

export async function pull(ctx: Context, args: string[], opts: PullOptions): Promise<number> {
  const imageName = args[0];
  if (!imageName) throw new SyncpodError('image name cannot be empty');
  const auth = await registryAuth(ctx, opts);
  let sandboxConfig: T.PodSandboxConfig | undefined;
  if (opts.podConfig) {
    const text = await readText(ctx, opts.podConfig, 'pod config');
    const doc = parseDoc(text, opts.podConfig);
    if (isManifest(doc)) {
      const { pod, observed } = await podWithUid(ctx, await loadOnePod(ctx, opts.podConfig, text, undefined));
      const newest = observed.status.sandboxStatuses[0];
      const node = await profiledNode(ctx, {});
      sandboxConfig = generatePodSandboxConfig(pod, newest?.attempt ?? 0, { ...nodeSettings(node.opts, pod, node.detected).sandbox, configSeen: configSeenFor(ctx, observed.sandboxes) }).config;
    } else {
      sandboxConfig = fromProtoJSON(runtimeV1, 'PodSandboxConfig', doc, opts.podConfig) as unknown as T.PodSandboxConfig;
    }
  }
  const request = { image: { image: imageName }, ...(auth ? { auth } : {}), ...(sandboxConfig ? { sandboxConfig } : {}) };
  if (opts.dryRun) {
    printRequest(ctx, 'PullImageRequest', request);
    return 0;
  }
  const res = await ctx.cri().image.call('PullImage', request, { timeoutMs: PULL_TIMEOUT_MS }).catch((err) => {
    throw new SyncpodError(`pulling image: ${errorLine(err)}`);
  });
  ctx.out(`Image is up to date for ${res.imageRef}`);
  return 0;
}
