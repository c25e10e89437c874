// What the workflows get from one invocation (a command's Context satisfies Invocation): the CRI
// services (opened on first use), the node's filesystem and host facts, stdin, the clock, kubelet's
// deadlines.
import { randomBytes } from 'node:crypto';
import { inputText } from '../utf8';
import { readInputFileSync } from '../read-input';
import { existsSync, statfsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { UpgradeNodeDeps } from './upgrade-node';
import { runtimeCgroupDriver } from '../node/runtime-config';
import { hostUnder, readInputFile, readNodeDir } from './host-facts';
import { onHost } from '../config/host-root';
import { listPodsApi } from '../state/pods-api';
import type { NodePlanDeps } from './node-plan';
import { executeDeps as realExecuteDeps, PULL_TIMEOUT_MS, requestTimeoutMs } from './runtime-deps';
import type { StepDeps } from './step-requests';
import type { ExecuteDeps } from '../sync/execute';
import { nodeFsUnder, removePodLogs } from '../sync/node-fs';
import { systemClock } from './runtime-deps';
import type { DetectedKubelet } from '../kubelet/kubelet-version';
import type { NodeProfile } from '../node/types';
import { detectedForRules, profileWithRuntime, withProfile, type NodeFlagValues } from './node-profile';
import type { CriServices } from '../cri/connect';
import type { ImageCaller, RuntimeCaller } from '../sync/types';
import type { RuntimeCgroupDriver } from '../node/types';

/** What the flows need of one invocation: its settings, CRI services, node profile, stdin and clock. */
export interface Invocation {
  settings(): { hostRoot: string; timeoutMs: number };
  cri(): CriServices;
  runtime: RuntimeCaller;
  image: ImageCaller;
  nodeProfile(flags: NodeFlagValues, runtimeCgroupDriver?: RuntimeCgroupDriver): NodeProfile;
  readStdin(): Promise<string>;
  now(): number;
  io: { stderr: { write(text: string): unknown } };
}

export function stepDeps(ctx: Invocation): StepDeps {
  return {
    runtime: ctx.runtime,
    image: ctx.image,
    fs: nodeFsUnder(ctx.settings().hostRoot),
    host: hostUnder(ctx.settings().hostRoot),
    readFile: (path) => inputText(readInputFileSync(path), path),
    readStdin: () => ctx.readStdin(),
    now: () => ctx.now(),
    randomHex: () => randomBytes(4).toString('hex'),
    pullTimeoutMs: PULL_TIMEOUT_MS,
    note: (line) => void ctx.io.stderr.write(`${line}\n`),
  };
}

export function executeDeps(ctx: Invocation): ExecuteDeps {
  return realExecuteDeps(ctx.cri(), ctx.settings().timeoutMs, systemClock, nodeFsUnder(ctx.settings().hostRoot));
}

/** The deadline of a mutating step call: kubelet's 2 minutes, or the CRI deadline when longer. */
export function stepTimeoutMs(ctx: Invocation): number {
  return requestTimeoutMs(ctx.settings().timeoutMs);
}

/**
 * The node flags with each unset one taken from the node profile (the running kubelet, and the
 * runtime's cgroup driver from RuntimeConfig), and what the kubelet rules take as detected.
 */
export async function profiledNode<T extends NodeFlagValues>(
  ctx: Invocation,
  opts: T,
): Promise<{ opts: T & ReturnType<typeof withProfile>; detected: DetectedKubelet; profile: NodeProfile }> {
  const profile = await profileWithRuntime(
    (rt) => ctx.nodeProfile(opts, rt),
    () => ctx.cri().runtime,
  );
  return { opts: withProfile(opts, profile), detected: detectedForRules(profile), profile };
}

/** What `plan --node`, `sync --node` and the node-wide commands read: the runtime, the node's files, the Pods API. */
export function nodeDeps(ctx: Invocation): NodePlanDeps {
  const { runtime, image } = ctx.cri();
  const root = ctx.settings().hostRoot;
  return {
    runtime,
    image,
    fs: nodeFsUnder(root),
    inputs: {
      readDir: (p) => readNodeDir(onHost(root, p)),
      readFile: readInputFile,
      readNodeFile: (p) => readInputFile(onHost(root, p)),
      readStdin: () => ctx.readStdin(),
    },
    podsApi: (socket) =>
      listPodsApi(onHost(root, socket), { timeoutMs: ctx.settings().timeoutMs, exists: (p) => existsSync(p) }),
    now: () => ctx.now(),
  };
}

/** Removes an orphan's log files and legacy symlinks on the node (node paths under `hostRoot`). */
export function orphanLogRemover(
  hostRoot: string,
  legacyLogDir: string,
): (podLogsDir: string, containerIds: string[]) => ReturnType<typeof removePodLogs> {
  return (dir, ids) => removePodLogs(hostRoot, dir, legacyLogDir, ids);
}

/** What `plan --upgrade-to` and `doctor --upgrade-to` read of the node for the target kubelet's start-up checks. */
export function upgradeNodeDeps(ctx: Invocation, profile: NodeProfile): UpgradeNodeDeps {
  const root = ctx.settings().hostRoot;
  return {
    profile,
    readNodeFile: (p) => readFile(onHost(root, p), 'utf8'),
    cgroup: () => cgroupOf(onHost(root, '/sys/fs/cgroup')),
    runtimeVersion: async () => {
      const rt = ctx.cri().runtime;
      const v = await rt.call('Version', {});
      return {
        name: v.runtimeName,
        version: v.runtimeVersion,
        apiVersion: v.version,
        criApi: rt.apiVersion ?? 'v1',
        endpoint: rt.endpoint.text,
      };
    },
    runtimeConfig: async () => profile.runtimeCgroupDriver ?? runtimeCgroupDriver(ctx.cri().runtime),
  };
}

/** cgroup v2 when /sys/fs/cgroup is the unified hierarchy (statfs type cgroup2fs), as kubelet's libcontainer tells. */
function cgroupOf(path: string): { version: 1 | 2; from: string } {
  try {
    const type = statfsSync(path).type;
    if (type === CGROUP2_SUPER_MAGIC) return { version: 2, from: `statfs ${path}: cgroup2fs` };
    return {
      version: 1,
      from: `statfs ${path}: ${type === TMPFS_MAGIC ? 'tmpfs' : `0x${type.toString(16)}`} (not cgroup2fs)`,
    };
  } catch {
    return existsSync(`${path}/cgroup.controllers`)
      ? { version: 2, from: `${path}/cgroup.controllers exists` }
      : { version: 1, from: `${path}/cgroup.controllers absent` };
  }
}
const CGROUP2_SUPER_MAGIC = 0x63677270;
const TMPFS_MAGIC = 0x01021994;

/** What is at a node path (under --host-root), for plan's hostPath type checks. */
export function nodePathKind(hostRoot: string): (path: string) => string | undefined {
  const fs = nodeFsUnder(hostRoot);
  return (p) => fs.kind(p);
}
