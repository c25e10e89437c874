// What every list view shares: the -o choice, the protojson port and the envelope printers.

import type { Colours } from './colour';
import { protoJSONText, type JsonObject } from './json';
import { yamlText } from './yaml';

export type ListOutput = 'table' | 'json' | 'yaml';

/** Converts a decoded CRI message to its protobuf JSON (defaults emitted); the lead passes toProtoJSON. */
export type ProtoJSON = (typeName: string, message: unknown) => JsonObject;

export interface ListViewOptions {
  output: ListOutput;
  /** -q: ids only, one per line (ignored with -o json|yaml, as in crictl). */
  quiet?: boolean;
  /** --no-trunc: full ids. */
  noTrunc?: boolean;
  /** Current time in ns since the epoch, for "x ago". */
  nowNs: bigint;
  colours: Colours;
  /** Needed for -o json|yaml. */
  toJSON?: ProtoJSON;
}

/**
 * The response message printed like crictl's outputProtobufObjAsJSON / AsYAML, e.g.
 * ListPodSandboxResponse → `{"items": [...]}`. Ends with a newline (YAML with a blank line, since
 * crictl prints go-yaml's document with Println).
 */
export function formatEnvelope(
  output: 'json' | 'yaml',
  typeName: string,
  message: unknown,
  toJSON: ProtoJSON | undefined,
): string {
  if (!toJSON) throw new Error(`internal: -o ${output} needs a protobuf JSON converter`);
  const json = toJSON(typeName, message);
  return output === 'json' ? protoJSONText(json) + '\n' : yamlText(json, { goFold: true }) + '\n';
}

/** -q: each id on its own line. */
export function formatQuiet(ids: readonly string[]): string {
  return ids.map((id) => `${id}\n`).join('');
}
