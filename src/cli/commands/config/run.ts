// `config`: read and change crictl's client config file (the file every crictl and syncpod read).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Context } from '../../context';
import type { ConfigOptions } from './command';
import { CrictlConfigFile } from '../../../config/crictl-config-edit';
import { crictlConfigPath } from '../../../config/settings';
import { crictlTable } from '../../../render/table';
import { SyncpodError } from '../../../errors';
import { readInputFileSync } from '../../../read-input';

function configPath(ctx: Context): string {
  return crictlConfigPath(ctx.flags, ctx.io.env).path;
}

function readText(file: string): string | undefined {
  try {
    return readInputFileSync(file).toString('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (err instanceof SyncpodError) throw err;
    throw new SyncpodError(`config file ${file}: ${(err as Error).message}`);
  }
}

export async function config(ctx: Context, args: string[], opts: ConfigOptions): Promise<number> {
  const file = configPath(ctx);
  const cfg = CrictlConfigFile.parse(file, readText(file));
  const modes = [opts.get !== undefined, opts.set.length > 0, !!opts.list, args.length > 0].filter(Boolean).length;
  if (modes !== 1) throw new SyncpodError('give one of --get KEY, --set KEY=VALUE, --list, or KEY VALUE');
  if (opts.get !== undefined) {
    ctx.io.stdout.write(`${cfg.get(opts.get)}\n`);
    return 0;
  }
  if (opts.list) {
    ctx.io.stdout.write(crictlTable([['KEY', 'VALUE'], ...cfg.list()]));
    return 0;
  }
  // --set k=v,... or the old form `config KEY VALUE`
  cfg.set(opts.set.length ? opts.set : [`${args[0]}=${args[1] ?? ''}`]);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.syncpod-${process.pid}`;
  fs.writeFileSync(tmp, cfg.toString(), { mode: 0o644 });
  fs.renameSync(tmp, file);
  return 0;
}
