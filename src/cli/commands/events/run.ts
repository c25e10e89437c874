// `syncpod events`: the handler (flags in ./command.ts, man page text in ./man.ts).
import type { Context } from '../../context';
import type { EventsOptions } from './command';
import { INSPECT_OUTPUTS, parseOutput, protoJSON } from '../../output';
import { withInterrupt } from '../../signals';
import { yamlText } from '../../../render/yaml';

/** One event per line with -o json (compact), a YAML document each with -o yaml; until Ctrl-C. */
export async function events(ctx: Context, _args: string[], opts: EventsOptions): Promise<number> {
  const output = parseOutput(opts.output, INSPECT_OUTPUTS);
  const toJSON = protoJSON(ctx);
  await withInterrupt((signal) =>
    ctx.cri().runtime.stream(
      'GetContainerEvents',
      {},
      (ev) => {
        const json = toJSON('ContainerEventResponse', ev);
        ctx.io.stdout.write(output === 'json' ? JSON.stringify(json) + '\n' : `---\n${yamlText(json)}`);
      },
      signal,
    ),
  );
  return 0;
}
