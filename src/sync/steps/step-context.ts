// What one executor step works with (its CRI callers timed per call, the node filesystem, the clock,
// kubelet's request deadline) and what it leaves (notes: what it did, in order), and runStep, which
// turns a step body into kubelet's SyncResult shape: ok with the notes, or the error code and line.
import { CriCallError } from '../../cri/grpc-runtime-service';
import { errorLine } from '../../errors';
import type { PlanStep } from '../../plan/plan';
import {
  type CallTiming,
  type Clock,
  type ImageCaller,
  type RuntimeCaller,
  StepError,
  type StepResult,
  type SyncFs,
} from '../types';

export interface StepContext {
  rt: RuntimeCaller;
  img: ImageCaller;
  fs: SyncFs;
  clock: Clock;
  /** Deadline of mutating runtime calls (kubelet's runtimeRequestTimeout). */
  requestTimeoutMs: number;
  /** What the step has done so far, in order: the result's message, or "done before" on failure. */
  notes: string[];
}

/** What a step is given before it runs: the untimed services (runStep times every call). */
export interface StepServices {
  runtime: RuntimeCaller;
  image: ImageCaller;
  fs: SyncFs;
  clock: Clock;
  requestTimeoutMs: number;
}

export function isNotFound(err: unknown): boolean {
  return err instanceof CriCallError && err.notFound;
}

/** Wraps a CRI service so every call made through it is timed into `calls`. */
export function timed<S extends { call: (...a: any[]) => Promise<any> }>(svc: S, clock: Clock, calls: CallTiming[]): S {
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

/**
 * Runs one plan step's body with a fresh context and records its result: ok (the body's extra fields,
 * the notes as message) or failed (a StepError's code, else SyncError; the notes as "done before").
 */
export async function runStep(
  services: StepServices,
  round: number,
  step: Pick<PlanStep, 'step' | 'action' | 'target'>,
  body: (c: StepContext) => Promise<Partial<StepResult> | undefined>,
): Promise<StepResult> {
  const calls: CallTiming[] = [];
  const c: StepContext = {
    rt: timed(services.runtime, services.clock, calls),
    img: timed(services.image, services.clock, calls),
    fs: services.fs,
    clock: services.clock,
    requestTimeoutMs: services.requestTimeoutMs,
    notes: [],
  };
  const base = { round, step: step.step, action: step.action, target: step.target, durationMs: 0, rpcMs: 0, calls };
  const t0 = services.clock.monotonic();
  let result: StepResult;
  try {
    const extra = (await body(c)) ?? {};
    result = { ...base, ok: true, message: c.notes.join('; '), ...extra };
  } catch (err) {
    const code = err instanceof StepError ? err.code : 'SyncError';
    const done = c.notes.length ? ` (done before: ${c.notes.join('; ')})` : '';
    result = { ...base, ok: false, error: code, message: errorLine(err) + done };
  }
  result.durationMs = services.clock.monotonic() - t0;
  result.rpcMs = calls.reduce((s, x) => s + x.ms, 0);
  return result;
}
