// `syncpod sync POD.yaml`: load, lock the pod, observe and plan, confirm kills, execute in
// SyncPod's order (src/sync/), show the results. The command only wires flags to those modules.
import { randomUUID } from 'node:crypto';
import type { Pod } from '../kubelet/api-types';
import type { Context } from './context';
import { SyncpodError, errorLine } from '../errors';
import type { Plan } from '../plan/plan';
import type { PodStatus } from '../kubelet/types';
import type { RuntimeService } from '../cri/grpc-runtime-service';
import type { SyncHooks } from '../sync/types';
import { parseTimeout } from '../config/settings';
import { parseFeatureGates, planPods } from './plan';
import { resolveKubeletRules } from '../kubelet/kubelet-version';
import { nodeSettings, executeDeps, configSeenFor, setUid, withNodeName, profiledNode } from './steps';
import { buildPlan, killsSomething } from '../plan/plan';
import { observePods } from '../state/pod-status';
import { acquirePodLock } from '../sync/lock';
import * as view from '../render/sync-view';
import { syncPod } from '../sync/sync-pod';
import { executePlan, type ExecuteDeps, type ExecuteInput } from '../sync/execute';
import { redactRecorded, redactionNote } from '../sync/redact';
import { dryRunCri, dryRunFs, type RecordedRequest } from '../sync/dry-run';
import { toProtoJSON } from '../cri/json';
import { runtimeV1 } from '../cri/gen/runtime-v1';
import { renderPlans } from '../render/plan-view';
import type { SyncOptions } from './commands';
import { syncNodeCommand } from './node';
import { withNodeProfile } from '../workflows/node-profile';

function parseDuration(text: string, flag: string): number {
  try {
    return parseTimeout(String(text), flag);
  } catch (err) {
    throw new SyncpodError(`${flag}: ${errorLine(err)}`);
  }
}

function killSummary(plan: Plan): string {
  const kills = plan.steps.filter(killsSomething);
  return kills.map((s) => (s.action === 'kill-pod' ? `the pod ${s.target}` : s.action === 'reset-container' ? `container ${s.target} (removed: restart all)` : `container ${s.target}`)).join(', ');
}

async function ask(ctx: Context, question: string): Promise<boolean> {
  ctx.io.stderr.write(`${question} [y/N] `);
  const answer = await new Promise<string>((resolve) => {
    const stdin = ctx.io.stdin as NodeJS.ReadStream;
    const onData = (d: Buffer | string) => {
      stdin.removeListener('data', onData);
      stdin.pause();
      resolve(String(d).trim());
    };
    stdin.on('data', onData);
    stdin.resume();
  });
  return /^y(es)?$/i.test(answer);
}

export async function sync(ctx: Context, args: string[], given: SyncOptions): Promise<number> {
  const t0 = performance.now();
  const { opts, detected, profile } = await profiledNode(ctx, given);
  if (opts.node) return syncNodeCommand(ctx, args, withNodeProfile(opts, profile), ask);
  if (args.length !== 1) throw new SyncpodError(args.length === 0 ? 'no manifest given (name one pod manifest, or - for stdin; --node syncs the whole node)' : `sync takes one manifest, got ${args.length} (--node syncs the whole node)`);
  const output = String(given.output ?? 'table').toLowerCase();
  if (output !== 'table' && output !== 'json') throw new SyncpodError(`--output: must be one of table, json, got "${given.output}"`);
  const waitTimeoutMs = parseDuration(given.waitTimeout ?? '5m', '--wait-timeout');

  let planRpcMs = 0;
  let planMs = 0;
  const real = ctx.cri().runtime;
  const timedRuntime = {
    call: async (method: string, req: unknown, o?: { timeoutMs?: number }) => {
      const c0 = performance.now();
      try {
        return await (real.call as any)(method, req, o);
      } finally {
        planRpcMs += performance.now() - c0;
      }
    },
  } as unknown as RuntimeService;

  const p0 = performance.now();
  const planned = await planPods(ctx, { files: args, kubeletVersion: opts.kubeletVersion, selector: opts.selector, ordinal: opts.ordinal, detected });
  if (planned.length !== 1) throw new SyncpodError(`${args[0]}: holds ${planned.length} pods; sync takes one pod (run one sync per pod)`);
  const [{ loaded, observed: firstObserved }] = planned;
  const pod: Pod = loaded.pod;
  const ns = pod.metadata?.namespace ?? 'default';
  const name = pod.metadata?.name ?? '';
  const hadUid = !!pod.metadata?.uid;
  if (!pod.metadata?.uid) {
    if (firstObserved.match.uid) setUid(pod, firstObserved.match.uid);
    else {
      setUid(pod, randomUUID());
      ctx.io.stderr.write(`pod ${ns}/${name} has no uid and none exists on this node: using the fresh uid ${pod.metadata!.uid}\n`);
    }
  }
  withNodeName(pod, opts);
  const settings = nodeSettings(opts, pod, detected);
  // sync has no --feature-gates: the kubelet's gates (node profile) over the version's defaults.
  const rules = resolveKubeletRules(opts.kubeletVersion, parseFeatureGates(undefined), detected);
  const podSource = hadUid ? 'api-server' : 'manifest';

  let lastSandboxes = firstObserved.sandboxes;
  const replan = async (p: Pod): Promise<{ plan: Plan; status: PodStatus }> => {
    const r0 = performance.now();
    const [o] = await observePods(timedRuntime, [{ namespace: ns, name, uid: p.metadata!.uid! }]);
    lastSandboxes = o.sandboxes.length ? o.sandboxes : lastSandboxes;
    const plan = buildPlan({ pod: p, podStatus: o.status, now: ctx.now(), options: { rules }, matchedBy: 'uid-label', podSource });
    planMs += performance.now() - r0;
    return { plan, status: o.status };
  };
  planMs += performance.now() - p0;

  // The lock, then a fresh plan: what another sync did meanwhile is seen.
  const lock = opts.dryRun
    ? undefined
    : await acquirePodLock(ns, name, {
        timeoutMs: Math.max(waitTimeoutMs, 60_000),
        onWait: (pid) => ctx.io.stderr.write(`waiting for pid ${pid}, which is syncing ${ns}/${name}\n`),
      });
  try {
    const first = await replan(pod);
    const confirmKill = async (plan: Plan): Promise<void> => {
      if (opts.yes || opts.dryRun) return;
      const what = killSummary(plan);
      if (!ctx.io.stdin.isTTY) {
        throw new SyncpodError(`the plan kills ${what}; stdin is not a terminal, so pass --yes to allow it (nothing was done)`);
      }
      if (!(await ask(ctx, `Kill ${what}?`))) throw new SyncpodError('not confirmed; nothing was killed');
    };
    if (first.plan.steps.some(killsSomething)) await confirmKill(first.plan);

    const configSeen = configSeenFor(ctx, lastSandboxes);
    const deps = executeDeps(ctx);
    const base = {
      pod,
      sandboxOptions: { ...settings.sandbox, configSeen },
      containerOptions: settings.container,
      legacyLogDir: settings.legacyLogDir,
    };

    if (opts.dryRun) return await dryRun(ctx, first, base, deps, output, opts.showSecrets === true);

    const useSpinner = output !== 'json' && !!ctx.io.stderr.isTTY;
    let hooks: SyncHooks;
    if (useSpinner) {
      const ora = (require('ora') as typeof import('ora')).default;
      hooks = view.spinnerProgress(() => ora({ stream: ctx.io.stderr as NodeJS.WritableStream, color: ctx.colourErr ? 'cyan' : undefined, isEnabled: true }) as any);
    } else {
      hooks = view.plainProgress((l) => ctx.io.stderr.write(l + '\n'));
    }
    const outcome = await syncPod(
      { ...base, plan: first.plan, status: first.status, wait: !!opts.wait, waitTimeoutMs },
      { ...deps, replan, confirmKill },
      hooks,
    );
    const totalMs = performance.now() - t0;
    const rpcMs = planRpcMs + outcome.results.reduce((s, r) => s + r.rpcMs, 0);
    const report = {
      pod: { namespace: ns, name, uid: pod.metadata!.uid! },
      ok: outcome.ok,
      stopped: outcome.stopped,
      rounds: outcome.rounds,
      results: outcome.results,
      ...(opts.timings ? { timings: { totalMs, planMs, rpcMs, ownMs: totalMs - rpcMs } } : {}),
    };
    ctx.io.stdout.write(output === 'json' ? view.syncReportJSON(report) : view.renderSyncReport(report, { timings: !!opts.timings }));
    return outcome.ok ? 0 : 1;
  } finally {
    lock?.release();
  }
}

/** --dry-run: the plan, then every request the executor would send and the filesystem work. */
async function dryRun(
  ctx: Context,
  first: { plan: Plan; status: PodStatus },
  base: Omit<ExecuteInput, 'plan' | 'status'>,
  deps: ExecuteDeps,
  output: string,
  showSecrets: boolean,
): Promise<number> {
  const recorded: RecordedRequest[] = [];
  const fsChanges: string[] = [];
  const out = await executePlan(
    { ...base, ...first },
    { ...deps, runtime: dryRunCri(deps.runtime, 'RuntimeService', recorded), image: dryRunCri(deps.image, 'ImageService', recorded), fs: dryRunFs(deps.fs, fsChanges) },
  );
  // Printed, not sent: values from Secrets are redacted unless --show-secrets (issue 9 item 7).
  const shown = showSecrets ? { recorded, redacted: 0 } : redactRecorded(recorded, base.pod, base.containerOptions.values);
  const note = redactionNote(shown.redacted);
  if (note) ctx.io.stderr.write(`${note}\n`);
  const requests = shown.recorded.map((r) => ({
    service: r.service,
    rpc: r.rpc,
    request: toProtoJSON(runtimeV1, `${r.rpc}Request`, r.request),
  }));
  const failures = out.results.filter((r) => !r.ok).map((r) => `step ${r.step} ${r.action} ${r.target}: ${r.error}: ${r.message}`);
  if (output === 'json') {
    ctx.out(JSON.stringify({ plan: first.plan, requests, filesystem: fsChanges, failures }, null, 2));
  } else {
    let text = renderPlans([first.plan]);
    if (!text.endsWith('\n')) text += '\n';
    text += `\nRequests (${requests.length}), none sent:\n`;
    for (const r of requests) text += `--- ${r.service}/${r.rpc}\n${JSON.stringify(r.request, null, 2)}\n`;
    if (fsChanges.length) text += `\nFilesystem work, none done:\n${fsChanges.map((c) => `  ${c}`).join('\n')}\n`;
    if (failures.length) text += `\nWould fail:\n${failures.map((f) => `  ${f}`).join('\n')}\n`;
    ctx.io.stdout.write(text);
  }
  return failures.length ? 1 : 0;
}
