// `syncpod attach`: the handler (flags in ./command.ts, man page text in ./man.ts).
import type { Context } from '../../context';
import type { AttachOptions } from './command';
import { attachToContainer } from '../../../stream/exec';
import { SyncpodError } from '../../../errors';
import { withInterrupt } from '../../signals';
import { EOF_LINGER_MS, deps, target } from '../../stream-target';

export async function attach(ctx: Context, args: string[], opts: AttachOptions): Promise<number> {
  const { target: t, rest } = target(args, opts);
  if (rest.length) throw new SyncpodError(`attach takes one container, got extra arguments: ${rest.join(' ')}`);
  return withInterrupt((signal) =>
    attachToContainer(deps(ctx, signal), {
      target: t,
      stdin: !!(opts.interactive || opts.stdin),
      tty: !!opts.tty,
      eofLingerMs: EOF_LINGER_MS,
    }),
  );
}
