// `syncpod events`: the handler (flags in ./command.ts, man page text in ./man.ts).
import type { Context } from '../../context';
import type { EventsOptions } from './command';
import { protoJSON, statusOutput } from '../../output';
import { withInterrupt } from '../../signals';
import { yamlText } from '../../../render/yaml';
import { protoJSONText } from '../../../render/json';
import { checkGoTemplate, executeGoTemplate } from '../../../render/go-template';
import { errorLine } from '../../../errors';

/**
 * Each event as crictl 1.37 prints it, until Ctrl-C: -o json its indented protobuf JSON and a
 * newline, -o yaml its YAML (go-yaml's) and an empty line, -o go-template the template's text and a
 * newline. The template is parsed before anything is asked; an event it cannot be run on is said on
 * stderr and the stream goes on (crictl goes on too).
 */
export async function events(ctx: Context, _args: string[], opts: EventsOptions): Promise<number> {
  const output = statusOutput(opts.output, opts.template, ['json', 'yaml', 'go-template']);
  const template = opts.template ?? '';
  if (output === 'go-template') checkGoTemplate(template);
  const toJSON = protoJSON(ctx);
  await withInterrupt((signal) =>
    ctx.cri().runtime.stream(
      'GetContainerEvents',
      {},
      (ev) => {
        const json = toJSON('ContainerEventResponse', ev);
        if (output === 'json') ctx.io.stdout.write(`${protoJSONText(json)}\n`);
        else if (output === 'yaml') ctx.io.stdout.write(`${yamlText(json, { goFold: true })}\n`);
        else {
          try {
            ctx.io.stdout.write(`${executeGoTemplate(template, json)}\n`);
          } catch (err) {
            ctx.io.stderr.write(`syncpod: ${errorLine(err)}\n`);
          }
        }
      },
      signal,
    ),
  );
  return 0;
}
