// kubelet's startContainer up to CreateContainer (kuberuntime_container.go, kubelet 1.33): the
// image per pull policy, the restart count, the ephemeral container's target, the container config
// and its filesystem work. The one path for the executor's start steps and `create --container`.
import type { Pod } from '../kubelet/api-types';
import type * as T from '../cri/types';
import { errorLine } from '../errors';
import { envFileReads, generateContainerConfig } from '../kubelet/container-config';
import { imageVolumesOf } from '../kubelet/mounts';
import { buildContainerLogsDirectory } from '../kubelet/labels';
import type { ContainerStatus } from '../kubelet/types';
import { type ContainerNodeOptions, StepError } from './types';
import { applyDefaultImageTag, defaultImagePullPolicy, isValidImageReference } from '../kubelet/image-ref';
import { applyEffect, describeEffect } from './fs-effects';
import { nextRestartCount, type AnyContainer } from './kubelet-rules';
import type { ImageCaller, SyncFs } from './types';

export interface PrepareContainerInput {
  /** The pod as kubelet holds it (defaults applied, uid and nodeName set). */
  pod: Pod;
  container: AnyContainer;
  kind: 'regular' | 'init' | 'ephemeral';
  /** The sandbox config the container is created in (CreateContainer sends it too). */
  sandboxConfig: T.PodSandboxConfig;
  podIPs: string[];
  /** The pod's observed container statuses (restart counts, the ephemeral container's target). */
  statuses: ContainerStatus[];
  containerOptions: ContainerNodeOptions;
  /** `create --no-pull`: use the image only if it is present. */
  noPull?: boolean;
}

export interface PrepareContainerDeps {
  img: ImageCaller;
  fs: SyncFs;
  /** 8 lowercase hex digits (the termination-log file name). */
  randomHex(): string;
  pullTimeoutMs: number;
  /** The deadline of ImageStatus inside a sync step: kubelet's runtimeRequestTimeout (absent: the CRI deadline, --timeout). */
  requestTimeoutMs?: number;
  /** Image volumes pulled so far in this run (ImageVolume: pulled once per run). */
  pulledImageVolumes?: Map<string, string>;
  /** Milliseconds since the epoch (the atomic writer's timestamped directory); default the system clock. */
  now?(): number;
}

export interface PreparedContainer {
  config: T.ContainerConfig;
  restartCount: number;
}

/** Throws StepError with kubelet's error codes (ErrImagePull, CreateContainerConfigError, ...). */
export async function prepareContainer(
  input: PrepareContainerInput,
  deps: PrepareContainerDeps,
  notes: string[],
): Promise<PreparedContainer> {
  const { pod, container, kind } = input;
  const name = container.name;
  const { imageRef, imageUser } = await ensureImageExists(
    { img: deps.img, notes, requestTimeoutMs: deps.requestTimeoutMs },
    container,
    input.sandboxConfig,
    deps.pullTimeoutMs,
    { noPull: input.noPull },
  );
  const fileInputs = await containerFileInputs(
    { img: deps.img, notes, requestTimeoutMs: deps.requestTimeoutMs },
    pod,
    container,
    input.containerOptions,
    deps.fs,
    input.sandboxConfig,
    deps.pullTimeoutMs,
    deps.pulledImageVolumes,
  );
  const podLogsRoot = input.containerOptions.podLogsRoot ?? '/var/log/pods';
  const rc = nextRestartCount(input.statuses, name, () =>
    deps.fs.readdir(buildContainerLogsDirectory(podLogsRoot, pod, name)),
  );
  let targetContainerId: string | undefined;
  const target = (container as { targetContainerName?: string }).targetContainerName;
  if (kind === 'ephemeral' && target) {
    targetContainerId = input.statuses.find((s) => s.name === target)?.id;
    if (!targetContainerId)
      throw new StepError('CreateContainerConfigError', `unable to find target container ${target}`);
  }
  try {
    const gen = generateContainerConfig(pod, container, kind, {
      ...input.containerOptions,
      restartCount: rc.count,
      imageRef,
      imageUser,
      podIPs: input.podIPs,
      terminationLogName: deps.randomHex(),
      targetContainerId,
      // os.MkdirTemp's suffix is a random decimal number.
      volumeWrite: { nowMs: deps.now?.() ?? Date.now(), random: String(Number.parseInt(deps.randomHex(), 16)) },
      ...fileInputs,
    });
    for (const e of gen.effects) {
      try {
        applyEffect(deps.fs, e);
      } catch (err) {
        if (err instanceof StepError) throw err;
        // A failed hostPath type check says itself what was checked, volume and path.
        if (e.kind === 'checkHostPath') throw err;
        throw new Error(`${describeEffect(e)}: ${errorLine(err)}`);
      }
    }
    return { config: gen.config, restartCount: rc.count };
  } catch (err) {
    if (err instanceof StepError) throw err;
    throw new StepError('CreateContainerConfigError', errorLine(err));
  }
}

/** EnsureImageExists: pull per imagePullPolicy; returns the image id and the image's user. */
export async function ensureImageExists(
  c: { img: ImageCaller; notes: string[]; requestTimeoutMs?: number },
  spec: AnyContainer,
  sandboxConfig: T.PodSandboxConfig,
  pullTimeoutMs: number,
  opts: { noPull?: boolean } = {},
): Promise<{ imageRef: string; imageUser?: { uid?: string; username?: string } }> {
  const given = spec.image ?? '';
  if (!isValidImageReference(given))
    throw new StepError('InvalidImageName', `Failed to apply default image tag "${given}": couldn't parse image name`);
  const image = applyDefaultImageTag(given);
  const policy = spec.imagePullPolicy ?? defaultImagePullPolicy(given);
  const status = async () => {
    try {
      return (
        await c.img.call(
          'ImageStatus',
          { image: { image }, verbose: false },
          c.requestTimeoutMs === undefined ? {} : { timeoutMs: c.requestTimeoutMs },
        )
      ).image;
    } catch (err) {
      throw new StepError('ImageInspectError', `Failed to inspect image "${image}": ${errorLine(err)}`);
    }
  };
  let present = await status();
  if (opts.noPull && !present?.id)
    throw new StepError('ErrImageNeverPull', `image ${given} is not present and --no-pull was given`);
  const pull = !opts.noPull && (policy === 'Always' || (policy === 'IfNotPresent' && !present?.id));
  if (policy === 'Never' && !present?.id) {
    throw new StepError('ErrImageNeverPull', `Container image "${given}" is not present with pull policy of Never`);
  }
  let imageRef = present?.id ?? '';
  if (pull) {
    try {
      const res = await c.img.call('PullImage', { image: { image }, sandboxConfig }, { timeoutMs: pullTimeoutMs });
      imageRef = res.imageRef;
    } catch (err) {
      throw new StepError('ErrImagePull', `Failed to pull image "${given}": ${errorLine(err)}`);
    }
    c.notes.push(`pulled ${given}`);
    present = await status();
  } else {
    c.notes.push(`image present`);
  }
  const uid = present?.uid?.value;
  return {
    imageRef,
    imageUser:
      uid !== undefined ? { uid: String(uid) } : present?.username ? { username: present.username } : undefined,
  };
}

/**
 * What a container's config needs from outside the pure generator: its image volumes pulled
 * (ImageVolume; per the volume's pull policy, once per run) and the env files its fileKeyRef
 * entries read (EnvFiles).
 */
export async function containerFileInputs(
  c: { img: ImageCaller; notes: string[]; requestTimeoutMs?: number },
  pod: Pod,
  spec: AnyContainer,
  options: ContainerNodeOptions,
  fs: SyncFs,
  sandboxConfig: T.PodSandboxConfig,
  pullTimeoutMs: number,
  pulled: Map<string, string> = new Map(),
): Promise<{ imageVolumes: Record<string, string>; envFiles: Record<string, string> }> {
  const imageVolumes: Record<string, string> = {};
  if (options.gates.ImageVolume) {
    const mounted = new Set((spec.volumeMounts ?? []).map((m) => m.name));
    for (const v of imageVolumesOf(pod)) {
      if (!mounted.has(v.name)) continue;
      let ref = pulled.get(v.name);
      if (ref === undefined) {
        const image = {
          name: `volume ${v.name}`,
          image: v.reference,
          ...(v.pullPolicy ? { imagePullPolicy: v.pullPolicy } : {}),
        };
        ref = (await ensureImageExists(c, image, sandboxConfig, pullTimeoutMs)).imageRef;
        pulled.set(v.name, ref);
      }
      imageVolumes[v.name] = ref;
    }
  }
  const envFiles: Record<string, string> = {};
  for (const r of envFileReads(pod, spec, options)) {
    if (r.path in envFiles) continue;
    let text: string | undefined;
    try {
      text = fs.readInVolume(r.volumePath, r.rel);
    } catch (err) {
      throw new StepError(
        'CreateContainerConfigError',
        `container ${spec.name}: env ${r.envName}: fileKeyRef of volume "${r.volumeName}": ${errorLine(err)}`,
      );
    }
    if (text !== undefined) envFiles[r.path] = text;
  }
  return { imageVolumes, envFiles };
}
