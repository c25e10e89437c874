// runtime-config (the runtime's own configuration as it reports it, e.g. the cgroup driver) and
// events (the CRI container event stream, as kubelet's evented PLEG reads it).
import type { Context } from './context';
import type { EventsOptions, RuntimeConfigOptions } from './ops-defs';
import { INSPECT_OUTPUTS, parseOutput, protoJSON } from './output';
import { withInterrupt } from './signals';
import { formatEnvelope } from '../render/list-output';
import { formatRuntimeConfig } from '../render/runtime-config-view';
import { yamlText } from '../render/yaml';
import { protoJSONText } from '../render/json';

const RUNTIME_CONFIG_OUTPUTS = ['table', 'json', 'yaml'] as const;

export async function runtimeConfig(ctx: Context, _args: string[], opts: RuntimeConfigOptions): Promise<number> {
  const output = parseOutput(opts.output, RUNTIME_CONFIG_OUTPUTS);
  const res = await ctx.cri().runtime.call('RuntimeConfig', {});
  if (output === 'table') ctx.io.stdout.write(formatRuntimeConfig(res));
  else ctx.io.stdout.write(formatEnvelope(output, 'RuntimeConfigResponse', res, protoJSON(ctx)));
  return 0;
}

/**
 * Each event as crictl 1.37 prints it, until Ctrl-C: -o json its indented protobuf JSON and a
 * newline, -o yaml its YAML (go-yaml's) and an empty line.
 */
export async function events(ctx: Context, _args: string[], opts: EventsOptions): Promise<number> {
  const output = parseOutput(opts.output, INSPECT_OUTPUTS);
  const toJSON = protoJSON(ctx);
  await withInterrupt((signal) =>
    ctx.cri().runtime.stream(
      'GetContainerEvents',
      {},
      (ev) => {
        const json = toJSON('ContainerEventResponse', ev);
        ctx.io.stdout.write(output === 'json' ? `${protoJSONText(json)}\n` : `${yamlText(json, { goFold: true })}\n`);
      },
      signal,
    ),
  );
  return 0;
}
