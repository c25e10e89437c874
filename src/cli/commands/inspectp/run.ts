// `syncpod inspectp`: the handler (flags in ./command.ts, man page text in ./man.ts).
import type { Context } from '../../context';
import { STATUS_OUTPUTS, nowNs, protoJSON, statusOutput } from '../../output';
import { listPods } from '../../../workflows/look-lists';
import { filteredIds, resolveSandboxIds } from '../../ids';
import { formatInspectPods } from '../../../render/inspect-view';
import { formatPodStatusTable } from '../../../render/inspect-table';
import { systemZone } from '../../../render/text';
import type { InspectpOptions } from './command';

export async function inspectp(ctx: Context, args: string[], opts: InspectpOptions): Promise<number> {
  const output = statusOutput(opts.output, opts.template, STATUS_OUTPUTS);
  const { runtime } = ctx.cri();
  const flags = {
    name: opts.name,
    namespace: opts.namespace,
    state: opts.state,
    labels: opts.label,
    latest: opts.latest,
    last: opts.last,
  };
  const ids = args.length
    ? await resolveSandboxIds(ctx, args)
    : await filteredIds(flags, async () => (await listPods(runtime, flags)).map((p) => p.id));
  const responses = [];
  for (const id of ids)
    responses.push(await runtime.call('PodSandboxStatus', { podSandboxId: id, verbose: !opts.quiet }));
  if (output === 'table')
    ctx.io.stdout.write(formatPodStatusTable(responses, { nowNs: nowNs(ctx), verbose: !opts.quiet }));
  else
    ctx.io.stdout.write(
      formatInspectPods(responses, { output, template: opts.template, toJSON: protoJSON(ctx), zone: systemZone }),
    );
  return 0;
}
