// plan --node and sync --node (and doctor's plan of the node): the whole node's desired pods against
// the runtime, once or --every; shared by the plan, sync and doctor commands.
import { randomUUID } from 'node:crypto';
import type { Context } from './context';
import type { PlanOptions } from './commands/plan/command';
import type { SyncOptions } from './commands/sync/command';
import { SyncpodError, errorLine } from '../errors';
import { detailedExitCode, npdStatus, NPD_MAX_LINE, NPD_UNKNOWN } from '../plan/node-plan';
import { lockPodOnNode } from '../workflows/pod-lock';
import { nodePlanRequest, planNode, type NodePlanRequest } from '../workflows/node-plan';
import { syncNode } from '../workflows/node-sync';
import type { ResolvedNodeFlags } from '../workflows/node-profile';
import { everyMs, everyUntilSignalled } from './every';
import { parseTimeout } from '../config/settings';
import { renderNodePlan, renderNodeSync } from '../render/node-plan-view';
import { plainProgress } from '../render/sync-view';
import { yamlText } from '../render/yaml';
import { executeDeps, nodeDeps, orphanLogRemover } from '../workflows/invocation-deps';
import { outputWidth, parseOutput } from './output';
import type { PlanView } from '../render/plan-view';
import { hostUnder, localVolumeDataReader } from '../workflows/host-facts';
import { readVolumeData } from '../workflows/volume-data';
import { configSeenFor, legacyLogDirOf, nodeSettings, podLogsRootOf } from '../workflows/node-settings';
import { resolveRules } from '../workflows/plan-pods';

/** The node plan request of these flags (the node profile fills what they leave unset). */
export function nodeRequest(
  ctx: Context,
  args: string[],
  opts: (PlanOptions | SyncOptions) & ResolvedNodeFlags,
): NodePlanRequest {
  const featureGates = 'featureGates' in opts ? opts.featureGates : undefined;
  return {
    ...nodePlanRequest({ ...opts, featureGates }, args, ctx.nodeProfile(opts), ctx.settings().hostRoot),
    volumeData: readVolumeData(opts, localVolumeDataReader),
  };
}

function reportLines(ctx: Context, notes: string[], problems: string[]): void {
  for (const n of notes) ctx.io.stderr.write(`note: ${n}\n`);
  for (const p of problems) ctx.io.stderr.write(`syncpod: ${p}\n`);
}

/** `plan --node [FILE...]`. */
export async function planNodeCommand(
  ctx: Context,
  args: string[],
  opts: PlanOptions & ResolvedNodeFlags,
  view: PlanView = { colours: ctx.colours, width: outputWidth(ctx), verbose: !!opts.verbose },
): Promise<number> {
  const output = parseOutput(opts.output, ['table', 'json', 'yaml', 'npd']);
  if (output === 'npd') {
    // node-problem-detector reads the exit code (0 OK, 1 NonOK, 2 Unknown) and one line of stdout.
    try {
      const r = await planNode(nodeRequest(ctx, args, opts), nodeDeps(ctx));
      const s = npdStatus(r.plan);
      ctx.out(s.line);
      return s.exitCode;
    } catch (err) {
      ctx.out(`Unknown: ${errorLine(err)}`.slice(0, NPD_MAX_LINE));
      return NPD_UNKNOWN;
    }
  }
  if (opts.every !== undefined) return planNodeEvery(ctx, args, opts, output, view);
  const r = await planNode(nodeRequest(ctx, args, opts), nodeDeps(ctx));
  reportLines(ctx, r.notes, r.plan.problems);
  if (output === 'table') {
    ctx.io.stdout.write(renderNodePlan(r.plan, view));
  } else if (output === 'json') {
    ctx.out(JSON.stringify(r.plan, null, 2));
  } else {
    ctx.out(yamlText(JSON.parse(JSON.stringify(r.plan))));
  }
  if (r.plan.problems.length > 0) return 1;
  return opts.detailedExitcode ? detailedExitCode(r.plan) : 0;
}

/** `plan --node --every DURATION`: one plan per interval until SIGTERM/SIGINT; JSON one line per run. */
async function planNodeEvery(
  ctx: Context,
  args: string[],
  opts: PlanOptions & ResolvedNodeFlags,
  output: string,
  view: PlanView,
): Promise<number> {
  const ms = everyMs(opts.every, output);
  const request = nodeRequest(ctx, args, opts);
  return everyUntilSignalled(ctx, ms, async () => {
    const r = await planNode(request, nodeDeps(ctx));
    reportLines(ctx, r.notes, r.plan.problems);
    if (output === 'table') ctx.io.stdout.write(`${renderNodePlan(r.plan, view)}\n`);
    else if (output === 'json') ctx.out(JSON.stringify(r.plan));
    else ctx.out(`---\n${yamlText(JSON.parse(JSON.stringify(r.plan)))}`);
  });
}

/** `sync --node [--remove-orphans] [FILE...]`. */
export async function syncNodeCommand(
  ctx: Context,
  args: string[],
  opts: SyncOptions & ResolvedNodeFlags,
  ask: (ctx: Context, question: string) => Promise<boolean>,
): Promise<number> {
  const output = parseOutput(opts.output, ['table', 'json']);
  if (opts.dryRun) throw new SyncpodError('--dry-run with --node: run `syncpod plan --node` to see what would be done');
  // Init containers are always waited for with --node (converging a pod); --wait-timeout bounds each.
  const waitTimeoutMs = parseTimeout(opts.waitTimeout, '--wait-timeout');
  const podLogsRoot = podLogsRootOf(opts);
  const parallel = opts.parallel;
  const kubelet = resolveRules(opts.kubeletVersion, undefined);
  if (parallel < 1) throw new SyncpodError(`--parallel: must be at least 1, got ${parallel}`);
  const request = nodeRequest(ctx, args, opts);
  const { report, plan } = await syncNode(
    {
      ...request,
      removeOrphans: !!opts.removeOrphans,
      concurrency: parallel,
      waitTimeoutMs,
      podLogsRoot,
    },
    {
      ...nodeDeps(ctx),
      execute: executeDeps(ctx),
      settingsFor: (pod, sandboxes) => {
        const s = nodeSettings(opts, pod, kubelet.rules, hostUnder(ctx.settings().hostRoot), request.volumeData);
        return {
          sandboxOptions: { ...s.sandbox, configSeen: configSeenFor(ctx.now(), sandboxes) },
          containerOptions: s.container,
          legacyLogDir: s.legacyLogDir,
        };
      },
      lock: async (ns, name) => {
        const l = await lockPodOnNode(ctx.settings().hostRoot, ns, name, {
          timeoutMs: 60_000,
          onWait: (pid) => ctx.io.stderr.write(`waiting for pid ${pid}, which is syncing ${ns}/${name}\n`),
        });
        return () => l.release();
      },
      confirm: async (what) => {
        if (opts.yes) return;
        if (!ctx.io.stdin.isTTY)
          throw new SyncpodError(
            `the node sync kills ${what}; stdin is not a terminal, so pass --yes to allow it (nothing was done)`,
          );
        if (!(await ask(ctx, `Kill ${what}?`))) throw new SyncpodError('not confirmed; nothing was done');
      },
      newUid: () => randomUUID(),
      removeOrphanLogs: orphanLogRemover(ctx.settings().hostRoot, legacyLogDirOf(podLogsRoot)),
      hooks: (pod) => plainProgress((l) => ctx.io.stderr.write(`${pod}: ${l}\n`)),
    },
  );
  reportLines(ctx, [], plan.problems);
  if (output === 'json') ctx.out(JSON.stringify(report, null, 2));
  else {
    ctx.io.stdout.write(renderNodeSync(report, outputWidth(ctx)));
  }
  return report.ok ? 0 : 1;
}
