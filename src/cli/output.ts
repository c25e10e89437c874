// Shared wiring for the read commands: colours, clock, the protobuf JSON port, -o parsing.
import { SyncpodError } from '../errors';
import type { Context } from './context';
import type { Colours } from '../render/colour';
import type { ListOutput, ProtoJSON } from '../render/list-output';
import type { JsonObject } from '../render/json';

export function coloursFor(ctx: Context): Colours {
  const c = require('../render/colour') as typeof import('../render/colour');
  return ctx.colour ? c.ansiColours : c.plainColours;
}

export function nowNs(ctx: Context): bigint {
  return BigInt(Math.round(ctx.now())) * 1_000_000n;
}

/** Protobuf JSON (crictl's -o json) for messages of the API version in use. */
export function protoJSON(ctx: Context): ProtoJSON {
  const { toProtoJSON } = require('../cri/json') as typeof import('../cri/json');
  const { runtimeV1 } = require('../cri/gen/runtime-v1') as typeof import('../cri/gen/runtime-v1');
  return (typeName: string, message: unknown) => toProtoJSON(runtimeV1, typeName, message) as JsonObject;
}

export function listOutput(value: string | undefined, allowed: readonly string[] = ['table', 'json', 'yaml']): ListOutput {
  const v = (value ?? 'table').toLowerCase();
  if (!allowed.includes(v)) throw new SyncpodError(`--output: must be one of ${allowed.join(', ')}, got "${value}"`);
  return v as ListOutput;
}
