// The requests of the step commands (runp, create, pull): from a pod manifest, kubelet's configs
// for the pod as it is on this node (its uid, its sandbox attempt, config.seen kept); from a crictl
// config file, the file as it is. Dependencies come in as interfaces; nothing here prints.
import { readVolumeData } from './volume-data';
import { localVolumeDataReader } from './host-facts';
import { randomUUID } from 'node:crypto';
import type { KubeletRules } from '../kubelet/kubelet-version';
import type { Pod } from '../kubelet/api-types';
import type * as T from '../cri/types';
import { runtimeV1 } from '../cri/gen/runtime-v1';
import { fromProtoJSON } from '../cri/json';
import { SyncpodError, errorLine } from '../errors';
import type { FsEffect } from '../kubelet/mounts';
import { generatePodSandboxConfig } from '../kubelet/sandbox-config';
import { loadManifests, parseOrdinalFlag } from '../manifest/load';
import { apiRulesOfKubelet } from '../manifest/api-rules';
import { readYamlValues } from '../manifest/parse';
import type { LoadedPod } from '../manifest/types';
import { observePods, type ObservedPod } from '../state/pod-status';
import { dryRunCri, dryRunFs } from '../sync/dry-run';
import { findSpecContainer } from '../sync/kubelet-rules';
import { prepareContainer } from '../sync/prepare-container';
import { redactCreateContainerRequest, redactionNote } from '../sync/redact';
import { applyEffect } from '../sync/fs-effects';
import { credentialsNote, redactPullRequest } from '../cri/redact';
import { StepError, type ImageCaller, type RuntimeCaller, type SyncFs } from '../sync/types';
import type { HostFacts } from './host-facts';
import { configSeenFor, nodeSettings, setUid, withNodeName, type NodeFlags } from './node-settings';
import type { KubeletSelection } from './plan-pods';

export interface StepDeps {
  runtime: RuntimeCaller;
  image: ImageCaller;
  fs: SyncFs;
  host: HostFacts;
  readFile(path: string): string;
  readStdin(): Promise<string>;
  now(): number;
  randomHex(): string;
  pullTimeoutMs: number;
  /** A line for stderr (a fresh uid, pull notes). */
  note(line: string): void;
}

/** A config or manifest file ('-' for stdin): its text and its parsed first document. */
export interface ConfigDocument {
  file: string;
  text: string;
  doc: unknown;
  /** A Kubernetes object (kind/apiVersion/spec), not a crictl config. */
  isManifest: boolean;
}

export async function readConfigDocument(
  file: string,
  what: string,
  deps: Pick<StepDeps, 'readFile' | 'readStdin'>,
): Promise<ConfigDocument> {
  const label = file === '-' ? '<stdin>' : file;
  let text: string;
  if (file === '-') text = await deps.readStdin();
  else {
    try {
      text = deps.readFile(file);
    } catch (err) {
      if (err instanceof SyncpodError) throw err;
      throw new SyncpodError(
        `${what} ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : errorLine(err)}`,
      );
    }
  }
  // Read as kubectl (manifests) and crictl (sigs.k8s.io/yaml for config files) read YAML.
  const docs = readYamlValues(text, label);
  const looksManifest = (doc: unknown): boolean =>
    !!doc && typeof doc === 'object' && ('kind' in doc || 'apiVersion' in doc || 'spec' in doc);
  const isManifest = docs.some(looksManifest);
  if (!isManifest && docs.length > 1)
    throw new SyncpodError(`${label}: ${docs.length} documents: a ${what} file holds one`);
  return { file, text, doc: docs[0] ?? null, isManifest };
}

/** A crictl-style config file as the CRI message it names. */
export function criMessage<M>(typeName: string, d: ConfigDocument): M {
  return fromProtoJSON(runtimeV1, typeName, d.doc, d.file === '-' ? '<stdin>' : d.file) as unknown as M;
}

async function loadOnePod(
  d: ConfigDocument,
  deps: Pick<StepDeps, 'readStdin'>,
  kubelet: KubeletSelection,
  ordinalFlag?: string,
): Promise<LoadedPod> {
  const options = { ordinal: parseOrdinalFlag(ordinalFlag), api: apiRulesOfKubelet(kubelet.rules) };
  const loaded =
    d.file === '-'
      ? await loadManifests(['-'], async () => d.text, options)
      : await loadManifests([d.file], () => deps.readStdin(), options);
  if (loaded.length !== 1) throw new SyncpodError(`${d.file}: holds ${loaded.length} pods; give a file with one pod`);
  return loaded[0];
}

/** The pod's uid: the manifest's, else the newest pod of that namespace/name, else a fresh one (said as a note). */
export async function podWithUid(
  loaded: LoadedPod,
  deps: Pick<StepDeps, 'runtime' | 'note'>,
  rules: Pick<KubeletRules, 'sandboxOrder'>,
): Promise<{ pod: Pod; observed: ObservedPod }> {
  const pod = loaded.pod;
  const ref = {
    namespace: pod.metadata?.namespace ?? 'default',
    name: pod.metadata?.name ?? '',
    uid: pod.metadata?.uid ?? '',
  };
  const [observed] = await observePods(deps.runtime, [ref], { sandboxOrder: rules.sandboxOrder });
  if (!pod.metadata!.uid) {
    if (observed.match.uid) setUid(pod, observed.match.uid);
    else {
      setUid(pod, randomUUID());
      deps.note(
        `pod ${ref.namespace}/${ref.name} has no uid and none exists on this node: using the fresh uid ${pod.metadata!.uid}`,
      );
    }
  }
  return { pod, observed };
}

export interface SandboxRequest {
  request: { config: T.PodSandboxConfig; runtimeHandler: string };
  effects: FsEffect[];
}

/** `runp`: RunPodSandbox for a manifest (kubelet's config, next attempt) or a PodSandboxConfig file. */
export async function sandboxRequest(
  d: ConfigDocument,
  o: { attempt?: number; runtimeHandler?: string; ordinal?: string; node: NodeFlags; kubelet: KubeletSelection },
  deps: StepDeps,
): Promise<SandboxRequest> {
  if (!d.isManifest) {
    if (o.attempt !== undefined)
      throw new SyncpodError('--attempt applies to pod manifests; a PodSandboxConfig carries metadata.attempt');
    const config = criMessage<T.PodSandboxConfig>('PodSandboxConfig', d);
    const effects: FsEffect[] = config.logDirectory
      ? [{ kind: 'mkdir', path: config.logDirectory, mode: 0o755, why: 'pod log directory' }]
      : [];
    return { request: { config, runtimeHandler: o.runtimeHandler ?? '' }, effects };
  }
  const { pod, observed } = await podWithUid(await loadOnePod(d, deps, o.kubelet, o.ordinal), deps, o.kubelet.rules);
  const newest = observed.status.sandboxStatuses[0];
  const attempt = o.attempt ?? (newest ? newest.attempt + 1 : 0);
  if (attempt < 0) throw new SyncpodError('--attempt must not be negative');
  const settings = nodeSettings({ ...o.node, runtimeHandler: o.runtimeHandler }, pod, o.kubelet.rules, deps.host);
  const gen = generatePodSandboxConfig(pod, attempt, {
    ...settings.sandbox,
    configSeen: configSeenFor(deps.now(), observed.sandboxes),
  });
  return { request: { config: gen.config, runtimeHandler: gen.runtimeHandler }, effects: gen.effects };
}

/** `pull --pod-config`: the sandbox config sent with the pull (kubelet's, for a manifest). */
export async function pullSandboxConfig(
  d: ConfigDocument,
  o: { node: NodeFlags; kubelet: KubeletSelection },
  deps: StepDeps,
): Promise<T.PodSandboxConfig> {
  if (!d.isManifest) return criMessage<T.PodSandboxConfig>('PodSandboxConfig', d);
  const { pod, observed } = await podWithUid(await loadOnePod(d, deps, o.kubelet), deps, o.kubelet.rules);
  const newest = observed.status.sandboxStatuses[0];
  const settings = nodeSettings(o.node, pod, o.kubelet.rules, deps.host);
  return generatePodSandboxConfig(pod, newest?.attempt ?? 0, {
    ...settings.sandbox,
    configSeen: configSeenFor(deps.now(), observed.sandboxes),
  }).config;
}

export interface ContainerRequest {
  podSandboxId: string;
  config: T.ContainerConfig;
  sandboxConfig: T.PodSandboxConfig;
}

/**
 * `create --container NAME`: kubelet's startContainer up to CreateContainer for a container of the
 * manifest, in the given sandbox (the executor's own prepare-container path). With dryRun the pull
 * is decided but not made and no filesystem work is done.
 */
export async function containerRequest(
  podSandboxId: string,
  d: ConfigDocument,
  o: {
    container: string;
    ordinal?: string;
    noPull: boolean;
    dryRun: boolean;
    showSecrets: boolean;
    node: NodeFlags;
    kubelet: KubeletSelection;
  },
  deps: StepDeps,
): Promise<ContainerRequest> {
  const sb = (await deps.runtime.call('PodSandboxStatus', { podSandboxId, verbose: false })).status;
  if (!sb) throw new SyncpodError(`pod sandbox ${podSandboxId.slice(0, 13)}: the runtime returned no status`);
  const loaded = await loadOnePod(d, deps, o.kubelet, o.ordinal);
  const pod = loaded.pod;
  const meta = pod.metadata!;
  const where = `${loaded.source.file}: document ${loaded.source.document}`;
  if (sb.metadata?.name !== meta.name || sb.metadata?.namespace !== meta.namespace) {
    throw new SyncpodError(
      `${where}: pod ${meta.namespace}/${meta.name} does not match sandbox ${podSandboxId.slice(0, 13)} (${sb.metadata?.namespace}/${sb.metadata?.name})`,
    );
  }
  if (meta.uid && meta.uid !== sb.metadata?.uid)
    throw new SyncpodError(`${where}: metadata.uid ${meta.uid} differs from the sandbox's uid ${sb.metadata?.uid}`);
  setUid(pod, sb.metadata?.uid ?? '');
  withNodeName(pod, o.node.nodeName, deps.host);
  const found = findSpecContainer(pod, o.container);
  if (!found)
    throw new SyncpodError(`${where}: pod ${meta.namespace}/${meta.name} has no container named ${o.container}`);
  const settings = nodeSettings(o.node, pod, o.kubelet.rules, deps.host, readVolumeData(o.node, localVolumeDataReader));
  const [observed] = await observePods(
    deps.runtime,
    [{ namespace: meta.namespace!, name: meta.name!, uid: meta.uid! }],
    { sandboxOrder: o.kubelet.rules.sandboxOrder },
  );
  const sandboxConfig = generatePodSandboxConfig(pod, sb.metadata?.attempt ?? 0, {
    ...settings.sandbox,
    configSeen: configSeenFor(deps.now(), [sb]),
  }).config;
  const podIPs =
    pod.spec?.hostNetwork === true || sb.state !== 'SANDBOX_READY'
      ? []
      : [sb.network?.ip ?? '', ...(sb.network?.additionalIps ?? []).map((a) => a.ip)].filter(Boolean);
  const notes: string[] = [];
  try {
    const { config } = await prepareContainer(
      {
        pod,
        container: found.container,
        kind: found.kind,
        sandboxConfig,
        podIPs,
        statuses: observed.status.containerStatuses,
        containerOptions: settings.container,
        noPull: o.noPull,
      },
      {
        // Decide the pull without pulling, and record the filesystem work instead of doing it.
        img: o.dryRun ? dryRunCri(deps.image, 'ImageService', []) : deps.image,
        fs: o.dryRun ? dryRunFs(deps.fs, []) : deps.fs,
        randomHex: deps.randomHex,
        pullTimeoutMs: deps.pullTimeoutMs,
      },
      notes,
    );
    if (notes.length) deps.note(`${o.container}: ${notes.join('; ')}`);
    const request = { podSandboxId, config, sandboxConfig };
    if (!o.dryRun || o.showSecrets) return request;
    // Printed, not sent: values from Secrets are redacted (issue 9 item 7).
    const shown = redactCreateContainerRequest(request, pod, settings.container.values);
    const note = redactionNote(shown.redacted);
    if (note) deps.note(note);
    return shown.request;
  } catch (err) {
    throw new SyncpodError(err instanceof StepError ? `${err.code}: ${err.message}` : errorLine(err));
  }
}

/** runp's filesystem work before RunPodSandbox (the pod's log directory), as kubelet does it. */
/**
 * A crictl-style CreateContainer request from CONTAINER.json and SANDBOX.json: the files as they are,
 * except that an image without userSpecifiedImage gets its own name there, as crictl 1.37's
 * `create` does (CRI-O refuses a request without it: it verifies signatures against that name).
 */
export function crictlContainerRequest(
  podSandboxId: string,
  container: ConfigDocument,
  sandbox: ConfigDocument,
): ContainerRequest {
  const config = criMessage<T.ContainerConfig>('ContainerConfig', container);
  if (config.image?.image && !config.image.userSpecifiedImage)
    config.image = { ...config.image, userSpecifiedImage: config.image.image };
  return { podSandboxId, config, sandboxConfig: criMessage<T.PodSandboxConfig>('PodSandboxConfig', sandbox) };
}

export function applySandboxEffects(effects: FsEffect[], fs: SyncFs): void {
  for (const e of effects) applyEffect(fs, e);
}

/** pull --dry-run: the request as shown (credentials redacted unless --show-secrets) and the line saying so. */
export function shownPullRequest<R extends { auth?: T.AuthConfig | null }>(
  request: R,
  showSecrets: boolean,
): { request: R; note: string | undefined } {
  const shown = showSecrets ? { request, redacted: 0 } : redactPullRequest(request);
  return { request: shown.request, note: credentialsNote(shown.redacted) };
}
