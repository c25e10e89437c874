// What the workflows get from a command's Context: the CRI services (opened on first use), the
// node's filesystem and host facts, stdin, the clock, kubelet's deadlines.
import { randomBytes } from 'node:crypto';
import type { Context } from './context';
import { inputText } from '../manifest/utf8';
import { readInputFileSync } from '../read-input';
import { existsSync } from 'node:fs';
import { hostUnder, readInputFile, readNodeDir } from '../workflows/host-facts';
import { onHost } from '../config/host-root';
import { listPodsApi } from '../state/pods-api';
import type { NodePlanDeps } from '../workflows/node-plan';
import { executeDeps as realExecuteDeps, PULL_TIMEOUT_MS, requestTimeoutMs } from '../workflows/runtime-deps';
import type { StepDeps } from '../workflows/step-requests';
import type { ExecuteDeps } from '../sync/execute';
import { nodeFsUnder } from '../sync/node-fs';
import { systemClock } from '../workflows/runtime-deps';
import type { DetectedKubelet } from '../kubelet/kubelet-version';
import type { NodeProfile } from '../node/types';
import { detectedForRules, profileWithRuntime, withProfile, type NodeFlagValues } from '../workflows/node-profile';

export function stepDeps(ctx: Context): StepDeps {
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

export function executeDeps(ctx: Context): ExecuteDeps {
  return realExecuteDeps(ctx.cri(), ctx.settings().timeoutMs, systemClock, nodeFsUnder(ctx.settings().hostRoot));
}

/** The deadline of a mutating step call: kubelet's 2 minutes, or the CRI deadline when longer. */
export function stepTimeoutMs(ctx: Context): number {
  return requestTimeoutMs(ctx.settings().timeoutMs);
}

/**
 * The node flags with each unset one taken from the node profile (the running kubelet, and the
 * runtime's cgroup driver from RuntimeConfig), and what the kubelet rules take as detected.
 */
export async function profiledNode<T extends NodeFlagValues>(
  ctx: Context,
  opts: T,
): Promise<{ opts: T & ReturnType<typeof withProfile>; detected: DetectedKubelet; profile: NodeProfile }> {
  const profile = await profileWithRuntime(
    (rt) => ctx.nodeProfile(opts, rt),
    () => ctx.cri().runtime,
  );
  return { opts: withProfile(opts, profile), detected: detectedForRules(profile), profile };
}

/** What `plan --node`, `sync --node` and the node-wide commands read: the runtime, the node's files, the Pods API. */
export function nodeDeps(ctx: Context): NodePlanDeps {
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
