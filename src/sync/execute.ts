// The executor: follows a plan's steps in kubelet's SyncPod order (kuberuntime_manager.go SyncPod,
// kubelet 1.33) and performs them over CRI, recording one result per step. It decides nothing the
// plan did not decide; it only applies kubelet's rules for *how* each step is done (one function per
// step kind in steps/, each with its inputs and outputs) and where a failure stops the sync (kill
// pod / kill container / reset / create sandbox / resize / init start stop it; init-container
// removal, ephemeral and regular starts do not).
//
// Cleanup after a failure is kubelet's, which is: none. A sandbox whose RunPodSandbox succeeded
// stays even if PodSandboxStatus then fails; a container whose CreateContainer succeeded stays
// when StartContainer fails (the next sync sees it in CREATED state and plans around it); a
// container whose postStart hook failed is killed (FailedPostStartHook) but not removed.
import type { Pod } from '../kubelet/api-types';
import { generatePodSandboxConfig, type SandboxOptions } from '../kubelet/sandbox-config';
import type { PodStatus } from '../kubelet/types';
import type { Plan, PlanStep, StepAction } from '../plan/plan';
import { runPodSandbox, sandboxPodIPs } from './steps/create-sandbox';
import { killContainer, killPod, resetContainer } from './steps/kill';
import { removeContainer } from './steps/remove-container';
import { startContainer } from './steps/start-container';
import { runStep, type StepContext } from './steps/step-context';
import { updateContainerResources, updatePodSandboxResources } from './steps/update-resources';
import type { Clock, ContainerNodeOptions, ImageCaller, RuntimeCaller, StepResult, SyncFs, SyncHooks } from './types';

export { StepError, type ContainerNodeOptions } from './types';

export interface ExecuteDeps {
  runtime: RuntimeCaller;
  image: ImageCaller;
  fs: SyncFs;
  clock: Clock;
  /** 8 lowercase hex digits (the termination-log file name; random in kubelet). */
  randomHex(): string;
  /** Deadline of mutating runtime calls (kubelet's runtimeRequestTimeout: 2m). */
  requestTimeoutMs: number;
  /** Deadline of PullImage. */
  pullTimeoutMs: number;
  /** Why the operator stopped the sync (SIGINT, SIGTERM), once they did: no further step is begun. */
  interrupted?: () => string | undefined;
}

export interface ExecuteInput {
  plan: Plan;
  /** The pod as kubelet holds it: API defaults applied, uid set. */
  pod: Pod;
  /** The observed status the plan was computed from. */
  status: PodStatus;
  sandboxOptions: SandboxOptions;
  containerOptions: ContainerNodeOptions;
  /** Directory of kubelet's legacy log symlinks (/var/log/containers). */
  legacyLogDir: string;
  /** Which plan of the sync this is (results carry it). */
  round?: number;
}

export interface ExecuteOutcome {
  ok: boolean;
  results: StepResult[];
  /** The step where kubelet would have stopped the sync, if it stopped. */
  stoppedAt?: number;
  /** Set when the operator interrupted the sync: why, and the step not begun. */
  interrupted?: { why: string; beforeStep: number };
  /** The sandbox in use after the steps ('' when none). */
  sandboxId: string;
  /** Init containers started in this execution (for --wait). */
  startedInit: Array<{ name: string; containerId: string }>;
}

/** What the steps before have left for the ones after: the sandbox, the pod IPs, image volumes pulled. */
interface SyncState {
  sandboxId: string;
  podIPs: string[];
  pulledImageVolumes: Map<string, string>;
}

/** Whether a failure of this step ends the sync (kubelet returns from SyncPod there). */
export function stopsSync(action: StepAction): boolean {
  return action !== 'remove-init-container' && action !== 'start-container' && action !== 'start-ephemeral-container';
}

const START_KIND = {
  'start-container': 'regular',
  'start-init-container': 'init',
  'start-ephemeral-container': 'ephemeral',
} as const;

/** The body of one plan step: calls the step's function with its inputs and folds its outputs into `state`. */
function stepBody(
  input: ExecuteInput,
  deps: ExecuteDeps,
  state: SyncState,
  step: PlanStep,
): (c: StepContext) => Promise<Partial<StepResult> | undefined> {
  const { pod, status, plan } = input;
  const logPathOf = (id: string) => status.containerStatuses.find((s) => s.id === id)?.logPath ?? '';
  const nameOf = (id: string) => status.containerStatuses.find((s) => s.id === id)?.name ?? '';
  switch (step.action) {
    case 'kill-pod':
      return async (c) => {
        const containers = (step.containerIds ?? []).map((id) => ({ id, name: nameOf(id) }));
        await killPod(c, { pod, containers, sandboxIds: step.sandboxIds ?? [] });
        return undefined;
      };
    case 'kill-container':
      return async (c) => {
        const id = step.containerId!;
        const reason = plan.actions.containersToKill.find((k) => k.containerId === id)?.kubeletReason ?? '';
        c.notes.push(await killContainer(c, { pod, containerId: id, name: step.target, reason }));
        return { containerId: id };
      };
    case 'remove-init-container':
      return async (c) => {
        const id = step.containerId!;
        const r = { pod, containerId: id, name: step.target, logPath: logPathOf(id), legacyLogDir: input.legacyLogDir };
        await removeContainer(c, r);
        return { containerId: id };
      };
    case 'reset-container':
      return async (c) => {
        const id = step.containerId!;
        const logPath = logPathOf(id);
        const r = { pod, containerId: id, name: step.target, logPath, legacyLogDir: input.legacyLogDir };
        await resetContainer(c, { ...r, kill: step.kill === true });
        return { containerId: id };
      };
    case 'create-sandbox':
      return async (c) => {
        // The id is kept as soon as RunPodSandbox answered, even when the status call then fails.
        state.sandboxId = await runPodSandbox(c, {
          pod,
          attempt: plan.actions.attempt,
          sandboxOptions: input.sandboxOptions,
        });
        state.podIPs = await sandboxPodIPs(c, state.sandboxId, pod, state.podIPs);
        return { sandboxId: state.sandboxId };
      };
    case 'update-container-resources':
      return async (c) => {
        const id = step.containerId!;
        await updateContainerResources(c, { containerId: id, name: step.target, resources: step.resources! });
        return { containerId: id };
      };
    case 'update-pod-sandbox-resources':
      return async (c) => {
        await updatePodSandboxResources(c, {
          sandboxId: state.sandboxId,
          resources: step.resources!,
          overhead: step.overhead!,
          resource: step.resource ?? 'memory',
          rejects: Number(plan.kubelet.rulesVersion.split('.')[1]) >= 36,
        });
        return { sandboxId: state.sandboxId };
      };
    case 'start-container':
    case 'start-init-container':
    case 'start-ephemeral-container':
      return async (c) => {
        const sandboxConfig = generatePodSandboxConfig(pod, plan.actions.attempt, input.sandboxOptions).config;
        const started = await startContainer(
          c,
          {
            pod,
            name: step.target,
            kind: START_KIND[step.action as keyof typeof START_KIND],
            backOff: step.backOff,
            sandboxId: state.sandboxId,
            sandboxConfig,
            podIPs: state.podIPs,
            statuses: status.containerStatuses,
            containerOptions: input.containerOptions,
            legacyLogDir: input.legacyLogDir,
          },
          {
            randomHex: deps.randomHex,
            pullTimeoutMs: deps.pullTimeoutMs,
            pulledImageVolumes: state.pulledImageVolumes,
            now: () => deps.clock.now(),
          },
        );
        return { containerId: started.containerId };
      };
  }
}

export async function executePlan(
  input: ExecuteInput,
  deps: ExecuteDeps,
  hooks: SyncHooks = {},
): Promise<ExecuteOutcome> {
  const { plan } = input;
  const round = input.round ?? 1;
  const results: StepResult[] = [];
  const startedInit: ExecuteOutcome['startedInit'] = [];
  const state: SyncState = {
    sandboxId: plan.actions.createSandbox ? '' : plan.actions.sandboxId,
    podIPs: input.status.ips,
    pulledImageVolumes: new Map(),
  };
  for (const step of plan.steps) {
    const why = deps.interrupted?.();
    if (why)
      return {
        ok: false,
        results,
        interrupted: { why, beforeStep: step.step },
        sandboxId: state.sandboxId,
        startedInit,
      };
    hooks.stepStarted?.(round, step);
    const r = await runStep(deps, round, step, stepBody(input, deps, state, step));
    results.push(r);
    hooks.stepFinished?.(r);
    if (r.ok && step.action === 'start-init-container' && r.containerId)
      startedInit.push({ name: step.target, containerId: r.containerId });
    if (!r.ok && stopsSync(step.action))
      return { ok: false, results, stoppedAt: step.step, sandboxId: state.sandboxId, startedInit };
  }
  return {
    // A failed ephemeral container start is kubelet's to ignore.
    ok: results.every((r) => r.ok || r.action === 'start-ephemeral-container'),
    results,
    sandboxId: state.sandboxId,
    startedInit,
  };
}
