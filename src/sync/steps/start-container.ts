// kubelet's startContainer (kuberuntime_container.go, kubelet 1.37) for a regular, init or ephemeral
// container: back-off, the container config (prepareContainer: image, restart count, fs work),
// CreateContainer, StartContainer, the legacy log symlink, then the postStart hook; a failed hook
// kills the container (FailedPostStartHook) and fails the step, the container is not removed.
import type { Pod } from '../../kubelet/api-types';
import type * as T from '../../cri/types';
import { errorLine } from '../../errors';
import { formatPod } from '../../kubelet/labels';
import type { ContainerStatus } from '../../kubelet/types';
import type { PlanBackOff } from '../../plan/plan';
import { findSpecContainer, goDurationSeconds, legacyLogSymlinkName } from '../kubelet-rules';
import { prepareContainer } from '../prepare-container';
import { type ContainerNodeOptions, StepError } from '../types';
import { killContainer } from './kill';
import { runLifecycleHook } from './lifecycle-hook';
import type { StepContext } from './step-context';

export interface StartContainerInput {
  pod: Pod;
  name: string;
  kind: 'regular' | 'init' | 'ephemeral';
  backOff?: PlanBackOff;
  /** The sandbox to create the container in ('' when there is none: the step fails). */
  sandboxId: string;
  sandboxConfig: T.PodSandboxConfig;
  podIPs: string[];
  /** The observed statuses (restart counts, an ephemeral container's target). */
  statuses: ContainerStatus[];
  containerOptions: ContainerNodeOptions;
  /** Directory of kubelet's legacy log symlinks (/var/log/containers). */
  legacyLogDir: string;
}

export interface StartContainerDeps {
  /** 8 lowercase hex digits (the termination-log file name). */
  randomHex(): string;
  pullTimeoutMs: number;
  /** Image volumes pulled so far in this SyncPod (kubelet pulls each once, before the containers). */
  pulledImageVolumes: Map<string, string>;
  /** Milliseconds since the epoch (the atomic writer's timestamped directory of file volumes). */
  now?(): number;
}

/** Returns the created container's id; throws with kubelet's codes (CrashLoopBackOff, ErrImagePull, ...). */
export async function startContainer(
  c: StepContext,
  s: StartContainerInput,
  deps: StartContainerDeps,
): Promise<{ containerId: string }> {
  const { pod, name } = s;
  if (s.backOff?.heldBack) {
    throw new StepError(
      'CrashLoopBackOff',
      `back-off ${goDurationSeconds(s.backOff.delaySeconds)} restarting failed container=${name} pod=${formatPod(pod)}`,
    );
  }
  const found = findSpecContainer(pod, name);
  if (!found) throw new StepError('CreateContainerConfigError', `pod has no container named ${name}`);
  const spec = found.container;
  if (!s.sandboxId) throw new StepError('CreateContainerError', 'no sandbox to create the container in');
  const { config, restartCount } = await prepareContainer(
    {
      pod,
      container: spec,
      kind: s.kind,
      sandboxConfig: s.sandboxConfig,
      podIPs: s.podIPs,
      statuses: s.statuses,
      containerOptions: s.containerOptions,
    },
    {
      img: c.img,
      fs: c.fs,
      randomHex: deps.randomHex,
      pullTimeoutMs: deps.pullTimeoutMs,
      requestTimeoutMs: c.requestTimeoutMs,
      pulledImageVolumes: deps.pulledImageVolumes,
      now: deps.now,
    },
    c.notes,
  );
  let containerId: string;
  try {
    containerId = (
      await c.rt.call(
        'CreateContainer',
        { podSandboxId: s.sandboxId, config, sandboxConfig: s.sandboxConfig },
        { timeoutMs: c.requestTimeoutMs },
      )
    ).containerId;
  } catch (err) {
    throw new StepError('CreateContainerError', errorLine(err));
  }
  c.notes.push(`created ${containerId.slice(0, 13)} (restart count ${restartCount})`);
  try {
    await c.rt.call('StartContainer', { containerId }, { timeoutMs: c.requestTimeoutMs });
  } catch (err) {
    throw new StepError('RunContainerError', errorLine(err));
  }
  c.notes.push('started');
  linkLegacyLog(c, s, `${s.sandboxConfig.logDirectory}/${config.logPath}`, containerId);
  const postStart = spec.lifecycle?.postStart;
  if (postStart) {
    try {
      // kubelet waits for a postStart hook until it ends (no grace period bounds it), then goes on.
      const note = await runLifecycleHook(c, { containerId, handler: postStart, which: 'postStart' });
      if (note) c.notes.push(note);
    } catch (err) {
      const hookErr = errorLine(err);
      try {
        c.notes.push(await killContainer(c, { pod, containerId, name, reason: 'FailedPostStartHook' }));
      } catch (killErr) {
        c.notes.push(`kill after FailedPostStartHook failed: ${errorLine(killErr)}`);
      }
      throw new StepError('PostStartHookError', `PostStartHook failed: ${hookErr}`);
    }
  }
  return { containerId };
}

/** The legacy /var/log/containers symlink, only when the log file exists; a failure is not the step's. */
function linkLegacyLog(c: StepContext, s: StartContainerInput, logFile: string, containerId: string): void {
  if (!c.fs.exists(logFile)) return;
  try {
    c.fs.mkdirAll(s.legacyLogDir, 0o755);
    c.fs.symlink(
      logFile,
      `${s.legacyLogDir}/${legacyLogSymlinkName(s.pod.metadata!.name!, s.pod.metadata!.namespace!, s.name, containerId)}`,
    );
  } catch {
    /* kubelet logs this and goes on */
  }
}
