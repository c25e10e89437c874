// `syncpod events`: the handler (flags in ./command.ts, man page text in ./man.ts).
import type { Context } from '../../context';
import type { EventsOptions } from './command';
import { INSPECT_OUTPUTS, parseOutput, protoJSON } from '../../output';
import { withInterrupt } from '../../signals';
import { yamlText } from '../../../render/yaml';
import { protoJSONText } from '../../../render/json';

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
