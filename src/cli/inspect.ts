// Status read commands: inspectp, inspect (crictl's JSON/YAML/go-template/table views).
import type { Context } from './context';
import { STATUS_OUTPUTS, nowNs, protoJSON, statusOutput } from './output';
import { listContainers, listPods } from '../workflows/look-lists';
import { containerListFlags, filteredIds, resolveContainerIds, resolveSandboxIds } from './ids';
import { formatInspectContainers, formatInspectPods } from '../render/inspect-view';
import { formatContainerStatusTable, formatPodStatusTable } from '../render/inspect-table';
import { systemZone } from '../render/text';
import type { InspectOptions, InspectpOptions } from './look-defs';

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
