// What the lifecycle commands (start, stop, rm, stopp, rmp) share: one request per ID, or with --dry-run
// the exact requests printed instead.
import type { Context } from './context';
import { printRequest } from './output';

export async function eachId(
  ctx: Context,
  ids: string[],
  typeName: string,
  requestOf: (id: string) => unknown,
  send: (id: string) => Promise<string | void>,
  dryRun: boolean,
): Promise<number> {
  if (dryRun) {
    for (const id of ids) printRequest(ctx, typeName, requestOf(id));
    return 0;
  }
  for (const id of ids) {
    const line = await send(id);
    if (line) ctx.out(line);
  }
  return 0;
}
