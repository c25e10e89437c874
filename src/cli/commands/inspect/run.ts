// `syncpod inspect`: the handler (flags in ./command.ts, man page text in ./man.ts).
import type { Context } from '../../context';
import { STATUS_OUTPUTS, nowNs, protoJSON, statusOutput } from '../../output';
import { listContainers } from '../../../workflows/look-lists';
import { containerListFlags, filteredIds, resolveContainerIds } from '../../ids';
import { formatInspectContainers } from '../../../render/inspect-view';
import { formatContainerStatusTable } from '../../../render/inspect-table';
import { systemZone } from '../../../render/text';
import type { InspectOptions } from './command';

export async function inspect(ctx: Context, args: string[], opts: InspectOptions): Promise<number> {
  const output = statusOutput(opts.output, opts.template, STATUS_OUTPUTS);
  const { runtime, image } = ctx.cri();
  const flags = containerListFlags(opts);
  const ids = args.length
    ? await resolveContainerIds(ctx, args)
    : await filteredIds(flags, async () => (await listContainers(runtime, image, flags)).map((c) => c.id));
  const responses = [];
  for (const id of ids)
    responses.push(await runtime.call('ContainerStatus', { containerId: id, verbose: !opts.quiet }));
  if (output === 'table')
    ctx.io.stdout.write(formatContainerStatusTable(responses, { nowNs: nowNs(ctx), verbose: !opts.quiet }));
  else
    ctx.io.stdout.write(
      formatInspectContainers(responses, { output, template: opts.template, toJSON: protoJSON(ctx), zone: systemZone }),
    );
  return 0;
}
