// One `syncpod sync`: execute the plan and, with --wait, do what kubelet's repeated syncs would:
// after an init container was started (or one was found still running, e.g. after an interrupted
// sync), wait for it to finish, observe again, plan again and go on (bounded by the wait timeout
// and a round limit). Observation and planning are passed in.
import type { Pod } from '../kubelet/api-types';
import type { PodStatus } from '../kubelet/types';
import { isRestartableInitContainer } from '../kubelet/pod-util';
import { killsSomething, type Plan } from '../plan/plan';
import { errorLine } from '../errors';
import { executePlan, type ExecuteDeps, type ExecuteInput } from './execute';
import type { StepResult, SyncHooks } from './types';

export interface SyncPodInput extends Omit<ExecuteInput, 'plan' | 'status' | 'round'> {
  plan: Plan;
  status: PodStatus;
  /** Wait for started init containers and re-plan (kubelet's next syncs). */
  wait: boolean;
  waitTimeoutMs: number;
}

export interface SyncPodDeps extends ExecuteDeps {
  /** Observes the pod again and plans (the pod keeps its uid). */
  replan(pod: Pod): Promise<{ plan: Plan; status: PodStatus }>;
  /** Called before a re-plan that kills something is executed; throws to refuse. */
  confirmKill(plan: Plan): Promise<void>;
}

export interface SyncPodOutcome {
  ok: boolean;
  results: StepResult[];
  rounds: number;
  /** The last plan executed. */
  plan: Plan;
  /** Why the sync stopped early, in words ('' when it finished). */
  stopped: string;
}

const MAX_ROUNDS = 64;
const POLL_MS = 200;

/**
 * Non-restartable init containers of the newest sandbox that are running: kubelet's plan has nothing
 * to do while one runs, but --wait is not done until it exits (sidecars are expected to keep running).
 */
function runningInits(pod: Pod, status: PodStatus): Array<{ name: string; containerId: string }> {
  const sandboxId = status.sandboxStatuses[0]?.id;
  const inits = pod.spec?.initContainers ?? [];
  return status.containerStatuses
    .filter((c) => c.podSandboxId === sandboxId && c.state === 'running')
    .filter((c) => inits.some((i) => i.name === c.name && !isRestartableInitContainer(i)))
    .map((c) => ({ name: c.name, containerId: c.id }));
}

export async function syncPod(input: SyncPodInput, deps: SyncPodDeps, hooks: SyncHooks = {}): Promise<SyncPodOutcome> {
  const results: StepResult[] = [];
  let plan = input.plan;
  let status = input.status;
  let ok = true;
  for (let round = 1; ; round++) {
    hooks.planned?.(round, plan.steps);
    const out = await executePlan({ ...input, plan, status, round }, deps, hooks);
    results.push(...out.results);
    if (!out.ok) ok = false;
    if (out.interrupted) {
      const { why, beforeStep } = out.interrupted;
      return { ok: false, results, rounds: round, plan, stopped: `${why} before step ${beforeStep} of plan ${round}` };
    }
    if (out.stoppedAt !== undefined) {
      return {
        ok: false,
        results,
        rounds: round,
        plan,
        stopped: `stopped at step ${out.stoppedAt} of plan ${round}, as kubelet would`,
      };
    }
    // Running before this plan and untouched by it (nothing was killed): waited for like a started one.
    const found = plan.steps.some(killsSomething)
      ? []
      : runningInits(input.pod, status).filter((r) => !out.startedInit.some((s) => s.containerId === r.containerId));
    const waitFor = [...out.startedInit, ...found];
    if (!input.wait || waitFor.length === 0) return { ok, results, rounds: round, plan, stopped: '' };
    if (round >= MAX_ROUNDS)
      return { ok: false, results, rounds: round, plan, stopped: `gave up after ${MAX_ROUNDS} plans` };

    // Wait for the init containers just started (or found running) to finish (classic: one; sidecars are not waited for).
    for (const init of waitFor) {
      const spec = input.pod.spec?.initContainers?.find((c) => c.name === init.name);
      if ((spec as { restartPolicy?: string } | undefined)?.restartPolicy === 'Always') continue;
      const waitStep = { step: 0, action: 'wait-init-container' as const, target: init.name };
      hooks.stepStarted?.(round, waitStep);
      const t0 = deps.clock.monotonic();
      let rpcMs = 0;
      let result: StepResult;
      // Durations are filled in below; the container id is kept where the wait read one.
      const waited = (outcome: { ok: boolean; error?: string; message: string }, containerId?: string): StepResult => ({
        round,
        step: 0,
        action: 'wait-init-container',
        target: init.name,
        ok: outcome.ok,
        ...(outcome.error ? { error: outcome.error } : {}),
        message: outcome.message,
        durationMs: 0,
        rpcMs: 0,
        calls: [],
        ...(containerId ? { containerId } : {}),
      });
      try {
        for (;;) {
          const c0 = deps.clock.monotonic();
          const st = await deps.runtime.call(
            'ContainerStatus',
            { containerId: init.containerId, verbose: false },
            { timeoutMs: deps.requestTimeoutMs },
          );
          rpcMs += deps.clock.monotonic() - c0;
          const s = st.status;
          if (s && s.state === 'CONTAINER_EXITED') {
            const okExit = s.exitCode === 0;
            const message = `exited with code ${s.exitCode}${s.reason ? ` (${s.reason})` : ''}`;
            result = waited(
              { ok: okExit, error: okExit ? undefined : 'InitContainerFailed', message },
              init.containerId,
            );
            break;
          }
          if (deps.clock.monotonic() - t0 > input.waitTimeoutMs) {
            const state =
              s?.state === 'CONTAINER_RUNNING'
                ? 'running'
                : (s?.state ?? 'unknown').replace('CONTAINER_', '').toLowerCase();
            const message = `still ${state} after ${Math.round(input.waitTimeoutMs / 1000)}s (--wait-timeout)`;
            result = waited({ ok: false, error: 'WaitTimeout', message }, init.containerId);
            break;
          }
          const why = deps.interrupted?.();
          if (why) {
            const message = `${why} while waiting for init container ${init.name} to finish`;
            result = waited({ ok: false, error: 'Interrupted', message }, init.containerId);
            break;
          }
          await deps.clock.sleep(POLL_MS);
        }
      } catch (err) {
        result = waited({ ok: false, error: 'SyncError', message: errorLine(err) });
      }
      result.durationMs = deps.clock.monotonic() - t0;
      result.rpcMs = rpcMs;
      results.push(result);
      hooks.stepFinished?.(result);
      if (!result.ok) ok = false;
      if (result.error === 'WaitTimeout' || result.error === 'SyncError' || result.error === 'Interrupted')
        return { ok: false, results, rounds: round, plan, stopped: result.message };
    }
    const next = await deps.replan(input.pod);
    if (!next.plan.changes && runningInits(input.pod, next.status).length === 0)
      return { ok, results, rounds: round, plan: next.plan, stopped: '' };
    if (next.plan.steps.some(killsSomething)) {
      try {
        await deps.confirmKill(next.plan);
      } catch (err) {
        return { ok: false, results, rounds: round, plan: next.plan, stopped: errorLine(err) };
      }
    }
    plan = next.plan;
    status = next.status;
  }
}
