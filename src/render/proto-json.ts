// Protobuf JSON (crictl's -o json) of CRI messages, with the runtime.v1 schema the codecs are
// generated from: the one port the list and inspect views and the --dry-run requests print through.
import { runtimeV1 } from '../cri/gen/runtime-v1';
import { toProtoJSON } from '../cri/json';
import type { JsonObject } from './json';
import type { ProtoJSON } from './list-output';

export const runtimeProtoJSON: ProtoJSON = (typeName: string, message: unknown) =>
  toProtoJSON(runtimeV1, typeName, message) as JsonObject;
