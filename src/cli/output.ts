// Shared wiring for the read commands: colours, clock, the protobuf JSON port, -o parsing.
import { SyncpodError } from '../errors';
import type { Context } from './context';
import { runtimeProtoJSON } from '../render/proto-json';
import type { ListOutput, ProtoJSON } from '../render/list-output';

export function nowNs(ctx: Context): bigint {
  return BigInt(Math.round(ctx.now())) * 1_000_000n;
}

/** Protobuf JSON (crictl's -o json) for messages of the API version in use. */
export function protoJSON(_ctx: Context): ProtoJSON {
  return runtimeProtoJSON;
}

/** The one `-o` parser: the value, case-insensitive, must be one of `allowed`. */
export function parseOutput<const F extends string>(value: string, allowed: readonly F[]): F {
  const v = value.toLowerCase();
  if (!(allowed as readonly string[]).includes(v))
    throw new SyncpodError(`--output: must be one of ${allowed.join(', ')}, got "${value}"`);
  return v as F;
}

/** -o of the list commands. */
export const LIST_OUTPUTS = ['table', 'json', 'yaml'] as const satisfies readonly ListOutput[];
/** -o of the inspect commands. */
export const INSPECT_OUTPUTS = ['json', 'yaml'] as const;

/** --dry-run of a step command: the request as protobuf JSON. */
export function printRequest(ctx: Context, typeName: string, request: unknown): void {
  ctx.out(JSON.stringify(runtimeProtoJSON(typeName, request), null, 2));
}

export type StatusFormat = 'json' | 'yaml' | 'go-template' | 'table';
export const STATUS_OUTPUTS = ['json', 'yaml', 'go-template', 'table'] as const satisfies readonly StatusFormat[];

/** -o of the inspect commands: go-template needs --template, --template needs go-template. */
export function statusOutput<const F extends StatusFormat>(
  value: string,
  template: string | undefined,
  allowed: readonly F[],
): F {
  const v = parseOutput(value, allowed);
  if (v === 'go-template' && !template) throw new SyncpodError('-o go-template needs --template');
  if (v !== 'go-template' && template !== undefined)
    throw new SyncpodError('--template is used only with -o go-template');
  return v;
}

/**
 * The width syncpod's own tables and views are fitted to: the terminal's columns when stdout is a
 * terminal, else COLUMNS when it is a number, else 100.
 */
export function outputWidth(ctx: Pick<Context, 'io'>): number {
  const out = ctx.io.stdout;
  if (out.isTTY && out.columns && out.columns > 0) return out.columns;
  const env = Number(ctx.io.env.COLUMNS);
  return Number.isInteger(env) && env > 0 ? env : 100;
}
