// Registry credentials for `pull`, as crictl takes them: --creds USER[:PASS] (env CRICTL_CREDS),
// --auth BASE64 (env CRICTL_AUTH), or -u USER with the password asked for (no echo on a terminal;
// from the first line of stdin otherwise, so scripts can pipe it).
import type { Context } from '../../context';
import type * as T from '../../../cri/types';
import { SyncpodError } from '../../../errors';
import { invocationSecrets } from '../../../render/secret-mask';

export interface AuthFlags {
  creds?: string;
  auth?: string;
  username?: string;
}

/** Reads a password: without echo from a terminal, else the first line of stdin. */
function readPassword(ctx: Context): Promise<string> {
  const stdin = ctx.io.stdin as NodeJS.ReadStream;
  ctx.io.stderr.write('Enter Password:');
  return new Promise((resolve, reject) => {
    let text = '';
    const tty = !!stdin.isTTY && typeof stdin.setRawMode === 'function';
    if (tty) stdin.setRawMode(true);
    const finish = (err?: Error) => {
      stdin.removeListener('data', onData);
      stdin.removeListener('end', onEnd);
      if (tty) stdin.setRawMode(false);
      stdin.pause();
      ctx.io.stderr.write('\n');
      if (err) reject(err);
      else resolve(text);
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of chunk.toString()) {
        if (ch === '\r' || ch === '\n') return finish();
        if (ch === '\u0003') return finish(new SyncpodError('password entry interrupted'));
        if (ch === '\u007f' || ch === '\b') text = text.slice(0, -1);
        else text += ch;
      }
    };
    const onEnd = () => finish();
    stdin.on('data', onData);
    stdin.once('end', onEnd);
    stdin.resume();
  });
}

/** The credentials, their secret parts kept out of every output (render/secret-mask.ts). */
export async function registryAuth(ctx: Context, flags: AuthFlags): Promise<T.AuthConfig | undefined> {
  const auth = await readRegistryAuth(ctx, flags);
  const a = auth as { password?: string; auth?: string } | undefined;
  if (a?.password) invocationSecrets.add([a.password]);
  if (a?.auth) {
    const decoded = Buffer.from(a.auth, 'base64').toString('utf8');
    invocationSecrets.add([a.auth, decoded, decoded.slice(decoded.indexOf(':') + 1)]);
  }
  return auth;
}

async function readRegistryAuth(ctx: Context, flags: AuthFlags): Promise<T.AuthConfig | undefined> {
  if (flags.username) return { username: flags.username, password: await readPassword(ctx) } as T.AuthConfig;
  const creds = flags.creds ?? (ctx.io.env.CRICTL_CREDS || undefined);
  const auth = flags.auth ?? (ctx.io.env.CRICTL_AUTH || undefined);
  if (creds && auth) throw new SyncpodError('both --creds and --auth are specified (or CRICTL_CREDS and CRICTL_AUTH)');
  if (creds) {
    const i = creds.indexOf(':');
    const username = i < 0 ? creds : creds.slice(0, i);
    if (username === '') throw new SyncpodError("--creds: username can't be empty");
    return { username, password: i < 0 ? '' : creds.slice(i + 1) } as T.AuthConfig;
  }
  if (auth) return { auth } as T.AuthConfig;
  return undefined;
}
