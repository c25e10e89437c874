// `syncpod sync POD.yaml`: wiring only. The flow (load, lock by namespace/name, observe and plan
// once, confirm kills, execute in SyncPod's order, --wait) is src/workflows/sync-flow.ts; the
// progress and the report are src/render/sync-view.ts.
import { randomUUID } from 'node:crypto';
import type { Context } from '../../context';
import type { SyncOptions } from './command';
import { refuseWithNode, requireNodeFor } from '../../command-flags';
import { executeDeps, profiledNode } from '../../../workflows/invocation-deps';
import { withNodeProfile } from '../../../workflows/node-profile';
import { outputWidth, parseOutput, protoJSON } from '../../output';
import { parseTimeout } from '../../../config/settings';
import { lockPodOnNode } from '../../../workflows/pod-lock';
import type { SyncHooks } from '../../../sync/types';
import * as view from '../../../render/sync-view';
import { hostUnder } from '../../../workflows/host-facts';
import { resolveRules } from '../../../workflows/plan-pods';
import { dryRunSync, runSync, type SyncFlowDeps, type SyncRequest } from '../../../workflows/sync-flow';
import { SyncpodError } from '../../../errors';
import { interruptSync } from '../../signals';
import { syncNodeCommand } from '../../whole-node';

/** A yes/no question on stderr, answered on the terminal's stdin. */
function ask(ctx: Context, question: string): Promise<boolean> {
  ctx.io.stderr.write(`${question} [y/N] `);
  return new Promise<boolean>((resolve) => {
    const stdin = ctx.io.stdin as NodeJS.ReadStream;
    const onData = (d: Buffer | string) => {
      stdin.removeListener('data', onData);
      stdin.pause();
      resolve(/^y(es)?$/i.test(String(d).trim()));
    };
    stdin.on('data', onData);
    stdin.resume();
  });
}

function progress(ctx: Context, output: 'table' | 'json'): SyncHooks {
  // The spinner needs the terminal's width: a terminal that reports 0 columns (a pty nobody sized,
  // as script(1) or `ssh -tt` from a script make) made ora clear lines without end, and sync hung.
  if (output !== 'json' && ctx.io.stderr.isTTY && (ctx.io.stderr.columns ?? 0) > 0)
    return view.terminalProgress(ctx.io.stderr, ctx.coloursErr.enabled);
  return view.plainProgress((l) => ctx.io.stderr.write(l + '\n'));
}

export async function sync(ctx: Context, args: string[], given: SyncOptions): Promise<number> {
  const t0 = performance.now();
  requireNodeFor(given, {
    '--static-pod-path': given.staticPodPath,
    '--pods-api-socket': given.podsApiSocket,
    '--remove-orphans': given.removeOrphans,
  });
  refuseWithNode(given, {
    '--liveness-failed': given.livenessFailed,
    '--startup-failed': given.startupFailed,
    '--startup-succeeded': given.startupSucceeded,
  });
  const { opts, detected, profile } = await profiledNode(ctx, given);
  if (opts.node) return syncNodeCommand(ctx, args, withNodeProfile(opts, profile), ask);
  if (args.length !== 1)
    throw new SyncpodError(
      args.length === 0
        ? 'no manifest given (name one pod manifest, or - for stdin; --node syncs the whole node)'
        : `sync takes one manifest, got ${args.length} (--node syncs the whole node)`,
    );
  const output = parseOutput(opts.output, ['table', 'json']);
  const waitTimeoutMs = parseTimeout(opts.waitTimeout, '--wait-timeout');
  const req: SyncRequest = {
    file: args[0],
    selector: opts.selector,
    ordinal: opts.ordinal,
    kubelet: resolveRules(opts.kubeletVersion, opts.featureGates, detected),
    node: opts,
    yes: !!opts.yes,
    wait: !!opts.wait,
    waitTimeoutMs,
    probes: {
      livenessFailed: opts.livenessFailed,
      startupFailed: opts.startupFailed,
      startupSucceeded: opts.startupSucceeded,
    },
  };
  const deps: SyncFlowDeps = {
    execute: executeDeps(ctx),
    host: hostUnder(ctx.settings().hostRoot),
    readStdin: () => ctx.readStdinBytes(),
    lockPod: (namespace, name, onWait) =>
      lockPodOnNode(ctx.settings().hostRoot, namespace, name, {
        timeoutMs: Math.max(waitTimeoutMs, 60_000),
        onWait,
      }),
    ask: ctx.io.stdin.isTTY ? (q) => ask(ctx, q) : undefined,
    newUid: () => randomUUID(),
    note: (line) => void ctx.io.stderr.write(`${line}\n`),
  };
  if (opts.dryRun) {
    const d = await dryRunSync({ ...req, showSecrets: !!opts.showSecrets }, deps);
    ctx.io.stdout.write(view.renderSyncDryRun(d, output, protoJSON(ctx)));
    return d.failures.length ? 1 : 0;
  }
  const interruption = interruptSync((line) => void ctx.io.stderr.write(`${line}\n`));
  const done = await runSync(
    req,
    { ...deps, execute: { ...deps.execute, interrupted: interruption.why } },
    progress(ctx, output),
  ).finally(() => interruption.dispose());
  const totalMs = performance.now() - t0;
  const { outcome, times } = done;
  const ok = outcome.ok && done.duplicates.every((d) => d.ok);
  const report: view.SyncReport = {
    pod: done.pod,
    ok,
    stopped: outcome.stopped,
    rounds: outcome.rounds,
    results: outcome.results,
    duplicates: done.duplicates,
    ...(opts.timings
      ? { timings: { totalMs, planMs: times.planMs, rpcMs: times.rpcMs, ownMs: totalMs - times.rpcMs } }
      : {}),
  };
  ctx.io.stdout.write(
    output === 'json'
      ? view.syncReportJSON(report)
      : view.renderSyncReport(report, { timings: !!opts.timings, width: outputWidth(ctx) }),
  );
  return interruption.exitCode() ?? (ok ? 0 : 1);
}
