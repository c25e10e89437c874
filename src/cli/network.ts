// net-setup, net-teardown, net-check: a sandbox's CNI network step (ADD / DEL / CHECK) with the
// sandbox's identity, netns and config read back from the runtime. Commands only wire flags:
// observation is src/state/sandbox-netns.ts, the protocol src/cni/, the views src/render/cni-view.ts.
import type { Context } from './context';
import { SyncpodError } from '../errors';
import { resolveSandboxIds } from './ids';
import type { CniCommand, CniOptions } from '../cni/types';
import type { NetVerb, SandboxNetwork } from '../state/sandbox-netns';
import * as state from '../state/sandbox-netns';
import { onHost } from '../config/host-root';
import * as cni from '../cni/network';
import * as view from '../render/cni-view';
import { ChildProcessCniExec } from '../cni/child-process-cni-exec';
import { parseTimeout } from '../config/settings';
import type { NetOptions } from './commands';
import { parseOutput } from './output';

function cniOptions(opts: NetOptions, hostRoot: string): CniOptions {
  const at = (p: string): string => onHost(hostRoot, p);
  const nonEmpty = (flag: string, v: unknown): string => {
    if (typeof v !== 'string' || v === '') throw new SyncpodError(`${flag} must not be empty`);
    return v;
  };
  const binDirs = cni.parseBinDirs(nonEmpty('--cni-bin-dir', opts.cniBinDir)).map(at);
  if (binDirs.length === 0) throw new SyncpodError('--cni-bin-dir must name at least one directory');
  if (opts.network !== undefined) nonEmpty('--network', opts.network);
  return {
    confDir: at(nonEmpty('--cni-conf-dir', opts.cniConfDir)),
    binDirs,
    cacheDir: at(nonEmpty('--cni-cache-dir', opts.cniCacheDir)),
    ...(opts.network !== undefined ? { networkName: opts.network as string } : {}),
    timeoutMs: parseTimeout(String(opts.timeout), '--timeout'),
  };
}

const VERB: Record<CniCommand, NetVerb> = { ADD: 'set up', DEL: 'tear down', CHECK: 'check' };

async function run(ctx: Context, command: CniCommand, args: string[], opts: NetOptions): Promise<number> {
  const output = parseOutput(opts.output, ['table', 'json']);
  const hostRoot = ctx.settings().hostRoot;
  const options = cniOptions(opts, hostRoot);
  const ifname = String(opts.ifname ?? 'eth0');
  const dryRun = opts.dryRun === true;

  const [id] = await resolveSandboxIds(ctx, args.slice(0, 1));
  const sb: SandboxNetwork = await state.observeSandboxNetwork(ctx.cri().runtime, id);
  state.refuseSandbox(sb, VERB[command]);
  for (const note of sb.notes) ctx.warn(note);

  const netns = await state.locateNetns(sb, (p) => onHost(hostRoot, p));
  if (netns === undefined && command !== 'DEL') {
    const tried = state.netnsCandidates(sb);
    throw new SyncpodError(
      `cannot find the network namespace of sandbox ${sb.id}${tried.length > 0 ? ` (tried ${tried.join(', ')})` : ' (the runtime reports neither a netns path nor a pid)'}`,
    );
  }

  if (command === 'ADD') {
    const inside = await state.interfacesInNetns(netns as string);
    const listed = Array.isArray(inside) ? inside : undefined;
    if (!Array.isArray(inside)) {
      ctx.warn(
        `could not list the interfaces in ${netns} (${inside.error}); judging ${ifname} by what the runtime reports`,
      );
    }
    const reason = state.existingInterface(sb, ifname, listed);
    if (reason !== undefined) {
      const err = state.alreadyAttachedError(sb, ifname, reason);
      if (!dryRun) throw err;
      ctx.warn(`a real run would refuse: ${err.message}`);
    }
  }

  const request = state.networkRequestFor(sb, ifname, netns ?? '');
  const deps = { exec: new ChildProcessCniExec() };
  const c = ctx.colours;

  if (dryRun) {
    const plan = await cni.describeInvocations(command, request, options, deps);
    for (const w of plan.warnings) ctx.warn(w);
    ctx.io.stdout.write(output === 'json' ? view.renderCniJson(plan) : view.renderDryRun(plan, c));
    return 0;
  }
  if (command === 'ADD') {
    const outcome = await cni.setupNetwork(request, options, deps);
    for (const w of outcome.warnings) ctx.warn(w);
    ctx.io.stdout.write(output === 'json' ? view.renderCniJson(outcome) : view.renderSetupOutcome(outcome, c));
  } else if (command === 'DEL') {
    const outcome = await cni.teardownNetwork(request, options, deps);
    for (const w of outcome.warnings) ctx.warn(w);
    ctx.io.stdout.write(output === 'json' ? view.renderCniJson(outcome) : view.renderTeardownOutcome(outcome, c));
  } else {
    const outcome = await cni.checkNetwork(request, options, deps);
    for (const w of outcome.warnings) ctx.warn(w);
    ctx.io.stdout.write(output === 'json' ? view.renderCniJson(outcome) : view.renderCheckOutcome(outcome, c));
  }
  return 0;
}

export const netSetup = (ctx: Context, args: string[], opts: NetOptions) => run(ctx, 'ADD', args, opts);
export const netTeardown = (ctx: Context, args: string[], opts: NetOptions) => run(ctx, 'DEL', args, opts);
export const netCheck = (ctx: Context, args: string[], opts: NetOptions) => run(ctx, 'CHECK', args, opts);
