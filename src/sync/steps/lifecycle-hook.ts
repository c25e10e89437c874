// kubelet's handlerRunner.Run for the handlers syncpod can run here (lifecycle/handlers.go, kubelet
// 1.37): exec through ExecSync, sleep on the clock. httpGet and tcpSocket are reported, not run.
import type { AnyContainer } from '../kubelet-rules';
import type { StepContext } from './step-context';

export type LifecycleHandler = NonNullable<NonNullable<AnyContainer['lifecycle']>['postStart']>;

export interface HookInput {
  containerId: string;
  handler: LifecycleHandler;
  which: 'postStart' | 'preStop';
  /**
   * How long kubelet waits for the hook, in seconds: a preStop hook gets what is left of the grace
   * period (executePreStopHook); a postStart hook is waited for until it ends (undefined).
   */
  limitSeconds?: number;
}

/** Runs the handler; returns a note ('' for no handler), throws when the handler fails. */
export async function runLifecycleHook(c: StepContext, h: HookInput): Promise<string> {
  const { handler, which } = h;
  if (handler.exec) {
    const limit = h.limitSeconds ?? 0;
    const res = await c.rt.call(
      'ExecSync',
      { containerId: h.containerId, cmd: handler.exec.command ?? [], timeout: String(limit) },
      { timeoutMs: c.requestTimeoutMs + limit * 1000 },
    );
    if (res.exitCode !== 0) {
      const text = (b: Uint8Array | undefined) =>
        Buffer.from(b ?? [])
          .toString('utf8')
          .trim();
      const out = text(res.stderr) || text(res.stdout);
      throw new Error(`${which} hook exited with code ${res.exitCode}${out ? `: ${out.split('\n')[0]}` : ''}`);
    }
    return `${which} hook ran`;
  }
  const sleep = (handler as { sleep?: { seconds: number } }).sleep;
  if (sleep) {
    const seconds = Math.max(0, sleep.seconds);
    const waited = h.limitSeconds === undefined ? seconds : Math.min(seconds, Math.max(0, h.limitSeconds));
    await c.clock.sleep(waited * 1000);
    return waited < seconds
      ? `${which} sleep ${seconds}s cut to ${waited}s (grace period)`
      : `${which} sleep ${seconds}s`;
  }
  if (handler.httpGet || handler.tcpSocket)
    return `${which} ${handler.httpGet ? 'httpGet' : 'tcpSocket'} handler not run (syncpod runs exec and sleep handlers only)`;
  return '';
}
