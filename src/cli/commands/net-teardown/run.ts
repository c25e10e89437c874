// `syncpod net-teardown`: the handler (flags in ./command.ts, man page text in ./man.ts).
import type { Context } from '../../context';
import type { NetOptions } from '../../command-flags';
import { run } from '../../cni-command';

export const netTeardown = (ctx: Context, args: string[], opts: NetOptions) => run(ctx, 'DEL', args, opts);
