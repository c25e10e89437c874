// Shared wiring for the read commands: colours, clock, the protobuf JSON port, -o parsing.
import { SyncpodError } from '../errors';
import type { Context } from './context';
import { ansiColours, plainColours, type Colours } from '../render/colour';
import { toProtoJSON } from '../cri/json';
import { runtimeV1 } from '../cri/gen/runtime-v1';
import type { ListOutput, ProtoJSON } from '../render/list-output';
import type { JsonObject } from '../render/json';

export function coloursFor(ctx: Context): Colours {
  return ctx.colour ? ansiColours : plainColours;
}

export function nowNs(ctx: Context): bigint {
  return BigInt(Math.round(ctx.now())) * 1_000_000n;
}

/** Protobuf JSON (crictl's -o json) for messages of the API version in use. */
export function protoJSON(ctx: Context): ProtoJSON {
  return (typeName: string, message: unknown) => toProtoJSON(runtimeV1, typeName, message) as JsonObject;
}

export function listOutput(value: string | undefined, allowed: readonly string[] = ['table', 'json', 'yaml']): ListOutput {
  const v = (value ?? 'table').toLowerCase();
  if (!allowed.includes(v)) throw new SyncpodError(`--output: must be one of ${allowed.join(', ')}, got "${value}"`);
  return v as ListOutput;
}

/** kubelet's runtimeRequestTimeout default: the deadline of mutating runtime calls. */
export const RUNTIME_REQUEST_TIMEOUT_MS = 2 * 60 * 1000;

/** --dry-run of a step command: the request as protobuf JSON. */
export function printRequest(ctx: Context, typeName: string, request: unknown): void {
  ctx.out(JSON.stringify(toProtoJSON(runtimeV1, typeName, request), null, 2));
}

export type StatusFormat = 'json' | 'yaml' | 'go-template' | 'table';

/** -o for the inspect commands: go-template needs --template, --template needs go-template. */
export function statusOutput(value: string | undefined, template: string | undefined, allowed: readonly StatusFormat[] = ['json', 'yaml', 'go-template', 'table']): StatusFormat {
  const v = (value ?? 'json').toLowerCase();
  if (!(allowed as readonly string[]).includes(v)) throw new SyncpodError(`--output: must be one of ${allowed.join(', ')}, got "${value}"`);
  if (v === 'go-template' && !template) throw new SyncpodError('-o go-template needs --template');
  if (v !== 'go-template' && template !== undefined) throw new SyncpodError('--template is used only with -o go-template');
  return v as StatusFormat;
}
