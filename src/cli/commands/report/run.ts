// `syncpod report FILE...|-`: node plans and doctor reports from the DaemonSet's logs merged into one fleet view.
import type { Context } from '../../context';
import type { ReportOptions } from './command';
import { LIST_OUTPUTS, outputWidth, parseOutput } from '../../output';
import { SyncpodError } from '../../../errors';
import { inputText } from '../../../utf8';
import { readInputFileSync } from '../../../read-input';
import { buildFleetReport, type FleetInput } from '../../../fleet/report';
import { renderFleetReport } from '../../../render/report-view';
import { yamlText } from '../../../render/yaml';

async function readInput(ctx: Context, file: string): Promise<FleetInput> {
  if (file === '-') return { name: '<stdin>', text: await ctx.readStdin() };
  try {
    return { name: file, text: inputText(readInputFileSync(file), file) };
  } catch (err) {
    if (err instanceof SyncpodError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file or directory'
        : code === 'EACCES'
          ? 'permission denied'
          : (err as Error).message;
    throw new SyncpodError(`${file}: cannot read: ${why}`, { cause: err });
  }
}

export async function report(ctx: Context, args: string[], opts: ReportOptions): Promise<number> {
  const output = parseOutput(opts.output, LIST_OUTPUTS);
  if (args.filter((a) => a === '-').length > 1) throw new SyncpodError("'-' (stdin) can be given once");
  const inputs: FleetInput[] = [];
  for (const file of args) inputs.push(await readInput(ctx, file));
  const r = buildFleetReport(inputs);
  if (output === 'table') ctx.out(renderFleetReport(r, ctx.colours, outputWidth(ctx)));
  else if (output === 'json') ctx.out(JSON.stringify(r, null, 2));
  else ctx.out(yamlText(r));
  if (!opts.detailedExitcode) return 0;
  if (r.summary.nodesWithErrors > 0) {
    ctx.warn(`${r.summary.nodesWithErrors} of ${r.summary.nodes} nodes reported errors`);
    return 1;
  }
  return r.summary.nodesWithChanges > 0 || r.summary.nodesWithDoctorFindings > 0 ? 2 : 0;
}
