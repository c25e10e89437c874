// The kill steps (kuberuntime_container.go killContainer, kuberuntime_manager.go killPodWithSyncResult,
// kubelet 1.37): a container's grace period, its preStop hook bounded by that grace period, the
// minimum grace, StopContainer (NotFound means done); a pod's running containers in parallel, then
// every sandbox; the RestartAllContainers reset (no grace period, no preStop, then removal).
import type { Pod } from '../../kubelet/api-types';
import { errorLine } from '../../errors';
import { StepError } from '../types';
import { findSpecContainer, killGracePeriod, MIN_GRACE_PERIOD_SECONDS } from '../kubelet-rules';
import { runLifecycleHook } from './lifecycle-hook';
import { removeContainer, type RemoveContainerInput } from './remove-container';
import { isNotFound, type StepContext } from './step-context';

export interface KillContainerInput {
  pod: Pod;
  containerId: string;
  /** The container's name (its spec gives the grace period and the preStop hook). */
  name: string;
  /** kubelet's kill reason ('' unknown, LivenessProbe, StartupProbe, FailedPostStartHook...). */
  reason: string;
}

/** The longest a timer waits (as config/settings MAX_TIMEOUT_MS). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Stops one container; returns the note `stopped NAME ID (grace Ns)`; throws KillContainerError. */
export async function killContainer(c: StepContext, k: KillContainerInput): Promise<string> {
  const { containerId: id, name } = k;
  const spec = findSpecContainer(k.pod, name)?.container;
  let grace = killGracePeriod(k.pod, spec, k.reason);
  const preStop = spec?.lifecycle?.preStop;
  if (preStop && grace > 0) {
    // kubelet waits for the hook at most the grace period, logs a failure and stops the container anyway.
    const t0 = c.clock.monotonic();
    try {
      const note = await runLifecycleHook(c, {
        containerId: id,
        handler: preStop,
        which: 'preStop',
        limitSeconds: grace,
      });
      if (note) c.notes.push(`${name}: ${note}`);
    } catch (err) {
      c.notes.push(`${name}: preStop hook failed: ${errorLine(err)}`);
    }
    grace -= Math.floor((c.clock.monotonic() - t0) / 1000);
  }
  if (grace < MIN_GRACE_PERIOD_SECONDS) grace = MIN_GRACE_PERIOD_SECONDS;
  try {
    await c.rt.call(
      'StopContainer',
      { containerId: id, timeout: String(grace) },
      // A timer waits at most 2^31-1 ms (terminationGracePeriodSeconds may be up to 2^63-1).
      { timeoutMs: Math.min(c.requestTimeoutMs + grace * 1000, MAX_TIMER_MS) },
    );
  } catch (err) {
    if (!isNotFound(err))
      throw new StepError(
        'KillContainerError',
        `failed to kill container ${name} (${id.slice(0, 13)}): ${errorLine(err)}`,
      );
  }
  return `stopped ${name} ${id.slice(0, 13)} (grace ${grace}s)`;
}

export interface KillPodInput {
  pod: Pod;
  /** The running containers, killed in parallel. */
  containers: Array<{ id: string; name: string }>;
  /** Every sandbox of the pod, stopped after the containers. */
  sandboxIds: string[];
}

/** killPodWithSyncResult; throws KillContainerError or KillPodSandboxError naming every failure. */
export async function killPod(c: StepContext, k: KillPodInput): Promise<void> {
  const settled = await Promise.allSettled(
    k.containers.map((x) => killContainer(c, { pod: k.pod, containerId: x.id, name: x.name, reason: '' })),
  );
  const failures: string[] = [];
  settled.forEach((s, i) =>
    s.status === 'fulfilled' ? c.notes.push(s.value) : failures.push(errorLine(s.reason) || k.containers[i].id),
  );
  for (const sid of k.sandboxIds) {
    try {
      await c.rt.call('StopPodSandbox', { podSandboxId: sid }, { timeoutMs: c.requestTimeoutMs });
      c.notes.push(`stopped sandbox ${sid.slice(0, 13)}`);
    } catch (err) {
      if (!isNotFound(err))
        failures.push(`KillPodSandboxError: failed to stop sandbox ${sid.slice(0, 13)}: ${errorLine(err)}`);
    }
  }
  if (failures.length)
    throw new StepError(
      failures[0].startsWith('KillPodSandboxError') ? 'KillPodSandboxError' : 'KillContainerError',
      failures.join('; '),
    );
}

export interface ResetContainerInput extends RemoveContainerInput {
  /** Whether the container still runs and is stopped first. */
  kill: boolean;
}

/** RestartAllContainers (kubelet 1.35+): StopContainer with no grace period and no preStop, then removal. */
export async function resetContainer(c: StepContext, r: ResetContainerInput): Promise<void> {
  const id = r.containerId;
  if (r.kill) {
    try {
      await c.rt.call('StopContainer', { containerId: id, timeout: '0' }, { timeoutMs: c.requestTimeoutMs });
      c.notes.push(`stopped ${r.name} ${id.slice(0, 13)} (grace 0s)`);
    } catch (err) {
      if (!isNotFound(err))
        throw new StepError(
          'KillContainerError',
          `failed to kill container ${r.name} (${id.slice(0, 13)}): ${errorLine(err)}`,
        );
    }
  }
  await removeContainer(c, r);
}
