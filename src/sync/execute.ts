// The executor: follows a plan's steps in kubelet's SyncPod order (kuberuntime_manager.go SyncPod,
// kubelet 1.33) and performs them over CRI, recording one result per step. It decides nothing the
// plan did not decide; it only applies kubelet's rules for *how* each step is done and where a
// failure stops the sync (kill pod / kill container / create sandbox / init start stop it;
// init-container removal, ephemeral and regular starts do not).
//
// Cleanup after a failure is kubelet's, which is: none. A sandbox whose RunPodSandbox succeeded
// stays even if PodSandboxStatus then fails; a container whose CreateContainer succeeded stays
// when StartContainer fails (the next sync sees it in CREATED state and plans around it); a
// container whose postStart hook failed is killed (FailedPostStartHook) but not removed.
import type { Pod } from '../kubelet/api-types';
import type * as T from '../cri/types';
import { CriCallError } from '../cri/grpc-runtime-service';
import { errorLine } from '../errors';
import type { ContainerOptions } from '../kubelet/container-config';
import { formatPod } from '../kubelet/labels';
import { generatePodSandboxConfig, type SandboxOptions } from '../kubelet/sandbox-config';
import { emptyLinuxResources } from '../kubelet/resources';
import type { ContainerStatus, PodStatus } from '../kubelet/types';
import type { Plan, PlanStep } from '../plan/plan';
import { applyEffect } from './fs-effects';
import { prepareContainer } from './prepare-container';
import { StepError } from './types';

export { StepError } from './types';
export { ensureImageExists } from './prepare-container';
import {
  findSpecContainer,
  goDurationSeconds,
  killGracePeriod,
  legacyLogSymlinkName,
  MIN_GRACE_PERIOD_SECONDS,
  type AnyContainer,
} from './kubelet-rules';
import type { CallTiming, Clock, ImageCaller, RuntimeCaller, StepResult, SyncFs, SyncHooks } from './types';

/** Per-instance fields are filled by the executor; everything else comes from the node flags. */
export type ContainerNodeOptions = Omit<
  ContainerOptions,
  'restartCount' | 'imageRef' | 'imageUser' | 'podIPs' | 'terminationLogName' | 'targetContainerId'
>;

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
  /** The sandbox in use after the steps ('' when none). */
  sandboxId: string;
  /** Init containers started in this execution (for --wait). */
  startedInit: Array<{ name: string; containerId: string }>;
}

function isNotFound(err: unknown): boolean {
  return err instanceof CriCallError && err.notFound;
}

/** Wraps a CRI service so every call made during one step is timed into `calls`. */
function timed<S extends { call: (...a: any[]) => Promise<any> }>(svc: S, clock: Clock, calls: CallTiming[]): S {
  return {
    call: async (method: string, req: unknown, opts?: unknown) => {
      const t0 = clock.monotonic();
      try {
        const res = await svc.call(method, req, opts);
        calls.push({ rpc: method, ms: clock.monotonic() - t0, ok: true });
        return res;
      } catch (err) {
        calls.push({ rpc: method, ms: clock.monotonic() - t0, ok: false });
        throw err;
      }
    },
  } as unknown as S;
}

interface StepContext {
  rt: RuntimeCaller;
  img: ImageCaller;
  notes: string[];
}

export async function executePlan(
  input: ExecuteInput,
  deps: ExecuteDeps,
  hooks: SyncHooks = {},
): Promise<ExecuteOutcome> {
  const { plan, pod, status } = input;
  const round = input.round ?? 1;
  const results: StepResult[] = [];
  const startedInit: ExecuteOutcome['startedInit'] = [];
  let sandboxId = plan.actions.createSandbox ? '' : plan.actions.sandboxId;
  let podIPs = status.ips;
  const podRef = formatPod(pod);
  const killInfo = new Map(plan.actions.containersToKill.map((k) => [k.containerId, k]));

  const runStep = async (
    step: PlanStep,
    body: (c: StepContext) => Promise<Partial<StepResult> | void>,
  ): Promise<StepResult> => {
    hooks.stepStarted?.(round, step);
    const calls: CallTiming[] = [];
    const c: StepContext = {
      rt: timed(deps.runtime, deps.clock, calls),
      img: timed(deps.image, deps.clock, calls),
      notes: [],
    };
    const t0 = deps.clock.monotonic();
    let result: StepResult;
    try {
      const extra = (await body(c)) ?? {};
      result = {
        round,
        step: step.step,
        action: step.action,
        target: step.target,
        ok: true,
        message: c.notes.join('; '),
        durationMs: 0,
        rpcMs: 0,
        calls,
        ...extra,
      };
    } catch (err) {
      const code = err instanceof StepError ? err.code : 'SyncError';
      const done = c.notes.length ? ` (done before: ${c.notes.join('; ')})` : '';
      result = {
        round,
        step: step.step,
        action: step.action,
        target: step.target,
        ok: false,
        error: code,
        message: errorLine(err) + done,
        durationMs: 0,
        rpcMs: 0,
        calls,
      };
    }
    result.durationMs = deps.clock.monotonic() - t0;
    result.rpcMs = calls.reduce((s, x) => s + x.ms, 0);
    results.push(result);
    hooks.stepFinished?.(result);
    return result;
  };

  const statusById = (id: string): ContainerStatus | undefined => status.containerStatuses.find((s) => s.id === id);

  /** killContainer: grace period, preStop hook, minimum grace, StopContainer (NotFound = done). */
  const killContainer = async (c: StepContext, id: string, name: string, reason: string): Promise<string> => {
    const spec = findSpecContainer(pod, name)?.container;
    let grace = killGracePeriod(pod, spec, reason);
    const preStop = spec?.lifecycle?.preStop;
    if (preStop && grace > 0) {
      const t0 = deps.clock.monotonic();
      const note = await runHook(c, id, preStop, grace, 'preStop');
      if (note) c.notes.push(`${name}: ${note}`);
      grace -= Math.floor((deps.clock.monotonic() - t0) / 1000);
    }
    if (grace < MIN_GRACE_PERIOD_SECONDS) grace = MIN_GRACE_PERIOD_SECONDS;
    try {
      await c.rt.call(
        'StopContainer',
        { containerId: id, timeout: String(grace) },
        { timeoutMs: deps.requestTimeoutMs + grace * 1000 },
      );
    } catch (err) {
      if (!isNotFound(err))
        throw new StepError(
          'KillContainerError',
          `failed to kill container ${name} (${id.slice(0, 13)}): ${errorLine(err)}`,
        );
    }
    return `stopped ${name} ${id.slice(0, 13)} (grace ${grace}s)`;
  };

  /** Runs an exec or sleep lifecycle handler; returns a note, throws on failure. */
  const runHook = async (
    c: StepContext,
    id: string,
    h: NonNullable<AnyContainer['lifecycle']>['preStop'],
    limitSeconds: number,
    which: string,
  ): Promise<string> => {
    if (h?.exec) {
      const res = await c.rt.call(
        'ExecSync',
        { containerId: id, cmd: h.exec.command ?? [], timeout: String(limitSeconds) },
        { timeoutMs: deps.requestTimeoutMs + limitSeconds * 1000 },
      );
      if (res.exitCode !== 0) {
        const out =
          Buffer.from(res.stderr ?? [])
            .toString('utf8')
            .trim() ||
          Buffer.from(res.stdout ?? [])
            .toString('utf8')
            .trim();
        throw new Error(`${which} hook exited with code ${res.exitCode}${out ? `: ${out.split('\n')[0]}` : ''}`);
      }
      return `${which} hook ran`;
    }
    const sleep = (h as { sleep?: { seconds: number } } | undefined)?.sleep;
    if (sleep) {
      await deps.clock.sleep(Math.min(sleep.seconds, limitSeconds) * 1000);
      return `${which} sleep ${sleep.seconds}s`;
    }
    if (h?.httpGet || h?.tcpSocket)
      return `${which} ${h.httpGet ? 'httpGet' : 'tcpSocket'} handler not run (syncpod runs exec and sleep handlers only)`;
    return '';
  };

  /** removeContainer: log files (and the legacy symlink) first, then RemoveContainer. */
  const removeContainer = async (c: StepContext, id: string, name: string): Promise<void> => {
    const logPath = statusById(id)?.logPath ?? '';
    if (logPath) {
      const dir = logPath.slice(0, logPath.lastIndexOf('/'));
      const base = logPath.slice(logPath.lastIndexOf('/') + 1);
      for (const f of (deps.fs.readdir(dir) ?? []).filter((e) => e === base || e.startsWith(base + '.')).sort())
        deps.fs.remove(`${dir}/${f}`);
      c.notes.push(`removed ${logPath}`);
    }
    deps.fs.remove(
      `${input.legacyLogDir}/${legacyLogSymlinkName(pod.metadata!.name!, pod.metadata!.namespace!, name, id)}`,
    );
    try {
      await c.rt.call('RemoveContainer', { containerId: id }, { timeoutMs: deps.requestTimeoutMs });
    } catch (err) {
      if (!isNotFound(err))
        throw new StepError('RemoveContainerError', `failed to remove container ${id.slice(0, 13)}: ${errorLine(err)}`);
    }
    c.notes.push(`removed container ${id.slice(0, 13)}`);
  };

  const sandboxConfigFor = () => generatePodSandboxConfig(pod, plan.actions.attempt, input.sandboxOptions);
  /** Image volumes pulled in this run (kubelet pulls them once per SyncPod, before the containers). */
  const pulledImageVolumes = new Map<string, string>();

  const steps = plan.steps;
  for (const step of steps) {
    switch (step.action) {
      case 'kill-pod': {
        // killPodWithSyncResult: running containers in parallel, then StopPodSandbox for every sandbox.
        const r = await runStep(step, async (c) => {
          const ids = step.containerIds ?? [];
          const settled = await Promise.allSettled(
            ids.map((id) => killContainer(c, id, statusById(id)?.name ?? '', '')),
          );
          const failures: string[] = [];
          settled.forEach((s, i) =>
            s.status === 'fulfilled' ? c.notes.push(s.value) : failures.push(errorLine(s.reason) || ids[i]),
          );
          for (const sid of step.sandboxIds ?? []) {
            try {
              await c.rt.call('StopPodSandbox', { podSandboxId: sid }, { timeoutMs: deps.requestTimeoutMs });
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
        });
        if (!r.ok) return { ok: false, results, stoppedAt: step.step, sandboxId, startedInit };
        break;
      }
      case 'kill-container': {
        const id = step.containerId!;
        const k = killInfo.get(id);
        const r = await runStep(step, async (c) => {
          c.notes.push(await killContainer(c, id, step.target, k?.kubeletReason ?? ''));
          return { containerId: id };
        });
        if (!r.ok) return { ok: false, results, stoppedAt: step.step, sandboxId, startedInit };
        break;
      }
      case 'remove-init-container': {
        // Errors are logged by kubelet, not fatal.
        const id = step.containerId!;
        await runStep(step, async (c) => {
          await removeContainer(c, id, step.target);
          return { containerId: id };
        });
        break;
      }
      case 'reset-container': {
        // RestartAllContainers (kubelet 1.35+): kill without grace period or preStop, then remove; a failure ends the sync.
        const id = step.containerId!;
        const r = await runStep(step, async (c) => {
          if (step.kill) {
            try {
              await c.rt.call('StopContainer', { containerId: id, timeout: '0' }, { timeoutMs: deps.requestTimeoutMs });
              c.notes.push(`stopped ${step.target} ${id.slice(0, 13)} (grace 0s)`);
            } catch (err) {
              if (!isNotFound(err))
                throw new StepError(
                  'KillContainerError',
                  `failed to kill container ${step.target} (${id.slice(0, 13)}): ${errorLine(err)}`,
                );
            }
          }
          await removeContainer(c, id, step.target);
          return { containerId: id };
        });
        if (!r.ok) return { ok: false, results, stoppedAt: step.step, sandboxId, startedInit };
        break;
      }
      case 'create-sandbox': {
        const r = await runStep(step, async (c) => {
          let gen;
          try {
            gen = sandboxConfigFor();
          } catch (err) {
            throw new StepError(
              'CreatePodSandboxError',
              `Failed to generate sandbox config for pod "${podRef}": ${errorLine(err)}`,
            );
          }
          try {
            for (const e of gen.effects) applyEffect(deps.fs, e);
          } catch (err) {
            throw new StepError(
              'CreatePodSandboxError',
              `Failed to create log directory for pod "${podRef}": ${errorLine(err)}`,
            );
          }
          try {
            const res = await c.rt.call(
              'RunPodSandbox',
              { config: gen.config, runtimeHandler: gen.runtimeHandler },
              { timeoutMs: deps.requestTimeoutMs },
            );
            sandboxId = res.podSandboxId;
          } catch (err) {
            throw new StepError(
              'CreatePodSandboxError',
              `Failed to create sandbox for pod "${podRef}": ${errorLine(err)}`,
            );
          }
          c.notes.push(`sandbox ${sandboxId.slice(0, 13)} (attempt ${gen.config.metadata?.attempt})`);
          let st: T.PodSandboxStatusResponse;
          try {
            st = await c.rt.call(
              'PodSandboxStatus',
              { podSandboxId: sandboxId, verbose: false },
              { timeoutMs: deps.requestTimeoutMs },
            );
          } catch (err) {
            throw new StepError('FailedPodSandBoxStatus', `Unable to get pod sandbox status: ${errorLine(err)}`);
          }
          if (!st.status) throw new StepError('FailedPodSandBoxStatus', 'pod sandbox status is nil');
          if (pod.spec?.hostNetwork !== true) {
            const net = st.status.network;
            podIPs = net ? [net.ip, ...(net.additionalIps ?? []).map((a) => a.ip)].filter((ip) => ip !== '') : [];
          }
          if (podIPs.length) c.notes.push(`IP ${podIPs.join(', ')}`);
          return { sandboxId };
        });
        if (!r.ok) return { ok: false, results, stoppedAt: step.step, sandboxId, startedInit };
        break;
      }
      case 'update-container-resources': {
        // SyncPod step 8 (in-place resize): UpdateContainerResources with the values kubelet writes for the spec.
        const id = step.containerId!;
        const r = await runStep(step, async (c) => {
          const want = step.resources!;
          const linux = {
            ...emptyLinuxResources(),
            cpuShares: String(want.cpuShares),
            cpuQuota: String(want.cpuQuota),
            cpuPeriod: String(want.cpuPeriod),
            memoryLimitInBytes: String(want.memoryLimitInBytes),
          };
          try {
            await c.rt.call(
              'UpdateContainerResources',
              { containerId: id, linux },
              { timeoutMs: deps.requestTimeoutMs },
            );
          } catch (err) {
            throw new StepError(
              'UpdateContainerResourcesError',
              `failed to resize container ${step.target} (${id.slice(0, 13)}): ${errorLine(err)}`,
            );
          }
          c.notes.push(`resized ${step.target} ${id.slice(0, 13)}`);
          return { containerId: id };
        });
        if (!r.ok) return { ok: false, results, stoppedAt: step.step, sandboxId, startedInit };
        break;
      }
      case 'start-ephemeral-container':
      case 'start-init-container':
      case 'start-container': {
        const kind =
          step.action === 'start-init-container'
            ? 'init'
            : step.action === 'start-ephemeral-container'
              ? 'ephemeral'
              : 'regular';
        const r = await runStep(step, (c) => startContainer(c, step, kind));
        if (r.ok && kind === 'init' && r.containerId)
          startedInit.push({ name: step.target, containerId: r.containerId });
        // Ephemeral failures are ignored, an init failure stops the sync, regular failures are recorded.
        if (!r.ok && kind === 'init') return { ok: false, results, stoppedAt: step.step, sandboxId, startedInit };
        break;
      }
    }
  }
  return {
    ok: results.every((r) => r.ok || r.action === 'start-ephemeral-container'),
    results,
    sandboxId,
    startedInit,
  };

  async function startContainer(
    c: StepContext,
    step: PlanStep,
    kind: 'regular' | 'init' | 'ephemeral',
  ): Promise<Partial<StepResult>> {
    const name = step.target;
    if (step.backOff?.heldBack) {
      throw new StepError(
        'CrashLoopBackOff',
        `back-off ${goDurationSeconds(step.backOff.delaySeconds)} restarting failed container=${name} pod=${podRef}`,
      );
    }
    const found = findSpecContainer(pod, name);
    if (!found) throw new StepError('CreateContainerConfigError', `pod has no container named ${name}`);
    const spec = found.container;
    if (!sandboxId) throw new StepError('CreateContainerError', 'no sandbox to create the container in');
    const sandboxConfig = sandboxConfigFor().config;
    const { config, restartCount } = await prepareContainer(
      {
        pod,
        container: spec,
        kind,
        sandboxConfig,
        podIPs,
        statuses: status.containerStatuses,
        containerOptions: input.containerOptions,
      },
      {
        img: c.img,
        fs: deps.fs,
        randomHex: deps.randomHex,
        pullTimeoutMs: deps.pullTimeoutMs,
        requestTimeoutMs: deps.requestTimeoutMs,
        pulledImageVolumes,
        now: () => deps.clock.now(),
      },
      c.notes,
    );
    let containerId: string;
    try {
      containerId = (
        await c.rt.call(
          'CreateContainer',
          { podSandboxId: sandboxId, config, sandboxConfig },
          { timeoutMs: deps.requestTimeoutMs },
        )
      ).containerId;
    } catch (err) {
      throw new StepError('CreateContainerError', errorLine(err));
    }
    c.notes.push(`created ${containerId.slice(0, 13)} (restart count ${restartCount})`);
    try {
      await c.rt.call('StartContainer', { containerId }, { timeoutMs: deps.requestTimeoutMs });
    } catch (err) {
      throw new StepError('RunContainerError', errorLine(err));
    }
    c.notes.push('started');
    // The legacy /var/log/containers symlink, only when the log file exists.
    const logFile = `${sandboxConfig.logDirectory}/${config.logPath}`;
    if (deps.fs.exists(logFile)) {
      try {
        deps.fs.mkdirAll(input.legacyLogDir, 0o755);
        deps.fs.symlink(
          logFile,
          `${input.legacyLogDir}/${legacyLogSymlinkName(pod.metadata!.name!, pod.metadata!.namespace!, name, containerId)}`,
        );
      } catch {
        /* kubelet logs this and goes on */
      }
    }
    const postStart = spec.lifecycle?.postStart;
    if (postStart) {
      try {
        const note = await runHook(c, containerId, postStart, 0, 'postStart');
        if (note) c.notes.push(note);
      } catch (err) {
        const hookErr = errorLine(err);
        try {
          c.notes.push(await killContainer(c, containerId, name, 'FailedPostStartHook'));
        } catch (killErr) {
          c.notes.push(`kill after FailedPostStartHook failed: ${errorLine(killErr)}`);
        }
        throw new StepError('PostStartHookError', `PostStartHook failed: ${hookErr}`);
      }
    }
    return { containerId };
  }
}
