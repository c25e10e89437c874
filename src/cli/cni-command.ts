// What net-setup, net-teardown and net-check share: a sandbox's CNI network step (ADD / DEL / CHECK).
// Wiring only: the flow is src/workflows/sandbox-network.ts, the views src/render/cni-view.ts.
import type { Context } from './context';
import { resolveSandboxIds } from './ids';
import type { CniCommand } from '../cni/types';
import * as view from '../render/cni-view';
import { parseTimeout } from '../config/settings';
import { cniOptionsFrom, sandboxNetwork } from '../workflows/sandbox-network';
import type { NetOptions } from './command-flags';
import { parseOutput } from './output';

export async function run(ctx: Context, command: CniCommand, args: string[], opts: NetOptions): Promise<number> {
  const output = parseOutput(opts.output, ['table', 'json']);
  const hostRoot = ctx.settings().hostRoot;
  const options = cniOptionsFrom({ ...opts, timeoutMs: parseTimeout(String(opts.timeout), '--timeout') }, hostRoot);
  const [sandboxId] = await resolveSandboxIds(ctx, args.slice(0, 1));
  const req = {
    command,
    sandboxId,
    ifname: String(opts.ifname ?? 'eth0'),
    dryRun: opts.dryRun === true,
    options,
    hostRoot,
  };
  const r = await sandboxNetwork(req, ctx.cri().runtime, (l) => ctx.warn(l));
  const c = ctx.colours;
  const text =
    output === 'json'
      ? view.renderCniJson(r.kind === 'dry-run' ? r.plan : r.outcome)
      : r.kind === 'dry-run'
        ? view.renderDryRun(r.plan, c)
        : r.kind === 'ADD'
          ? view.renderSetupOutcome(r.outcome, c)
          : r.kind === 'DEL'
            ? view.renderTeardownOutcome(r.outcome, c)
            : view.renderCheckOutcome(r.outcome, c);
  ctx.io.stdout.write(text);
  return 0;
}
