// `inspectp`, `inspect`, `inspecti`, `info` and `version` as crictl prints them.
//
// inspect/info go through crictl's outputStatusData: the status as protobuf JSON (pods and
// containers with their timestamps rewritten as RFC 3339 in the local zone), each verbose `info`
// entry beside it (values starting with "{" parsed as JSON, others with quotes trimmed), all of it
// re-marshalled by Go's encoding/json — so keys come out sorted at every level, and <>& escaped.
// One id prints one object, several print an array.

import { SyncpodError } from '../errors';
import type {
  ContainerStatusResponse,
  ImageStatusResponse,
  PodSandboxStatusResponse,
  RuntimeFeatures,
  RuntimeHandler,
  StatusResponse,
  VersionResponse,
} from '../cri/types';
import { goJSONText, type JsonObject, type JsonValue } from './json';
import type { ProtoJSON } from './list-output';
import { formatRFC3339Nano, GO_ZERO_TIME_RFC3339, parseNs, type Zone } from './text';
import { yamlText } from './yaml';
import { executeGoTemplate } from './go-template';

export type StatusOutput = 'json' | 'yaml' | 'go-template';

export interface StatusViewOptions {
  /** json (crictl's default for inspect commands) or yaml. */
  output: StatusOutput;
  /** The template for go-template output. */
  template?: string;
  toJSON: ProtoJSON;
  /** Zone for the rewritten timestamps (crictl uses the local zone). */
  zone: Zone;
}

/** One entry of crictl's statusData: the status JSON plus extra keys and the verbose info map. */
export interface StatusEntry {
  status?: JsonObject;
  runtimeHandlers?: JsonValue[];
  features?: JsonObject;
  info: Record<string, string>;
}

function infoValue(key: string, value: string): JsonValue {
  if (!value.startsWith('{')) return value.replace(/^"+|"+$/g, '');
  try {
    return JSON.parse(value) as JsonValue;
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new SyncpodError(`the runtime's info entry ${JSON.stringify(key)} is not valid JSON: ${reason}`);
  }
}

function entryObject(entry: StatusEntry): JsonObject {
  const obj: JsonObject = {};
  if (entry.status !== undefined) obj.status = entry.status;
  if (entry.runtimeHandlers !== undefined) obj.runtimeHandlers = entry.runtimeHandlers;
  if (entry.features !== undefined) obj.features = entry.features;
  for (const key of Object.keys(entry.info).sort()) obj[key] = infoValue(key, entry.info[key]);
  return obj;
}

/**
 * crictl's outputStatusData: "" for no entries, one object, or an array of them; go-template runs
 * the template on each entry's object and ends each result with a newline (crictl's Println).
 */
export function formatStatusEntries(entries: readonly StatusEntry[], output: StatusOutput, template = ''): string {
  if (entries.length === 0) return '';
  const objects = entries.map(entryObject);
  if (output === 'go-template') return objects.map((o) => executeGoTemplate(template, o) + '\n').join('');
  const value: JsonValue = objects.length === 1 ? objects[0] : objects;
  return output === 'json' ? goJSONText(value) + '\n' : yamlText(value, { goFold: true }) + '\n';
}

/**
 * crictl 1.37 writes an inspected status field by field from the Go struct (marshalMapInOrder), so
 * an unset sub-message of the status itself is null, while one deeper down is left out (protojson).
 */
function nullsForUnset(json: JsonObject, messageFields: readonly string[]): JsonObject {
  for (const f of messageFields) if (!(f in json)) json[f] = null;
  return json;
}

/** A pod sandbox status as crictl marshals it: createdAt as RFC 3339 in `zone`. */
export function podSandboxStatusJSON(status: unknown, toJSON: ProtoJSON, zone: Zone): JsonObject {
  const json = nullsForUnset(toJSON('PodSandboxStatus', status), ['metadata', 'network', 'linux']);
  json.createdAt = formatRFC3339Nano(parseNs(json.createdAt as string), zone);
  return json;
}

/**
 * A container status as crictl marshals it: createdAt always, startedAt unless the container was
 * only created, finishedAt when exited (or unknown with a finish time); Go's zero time otherwise.
 */
export function containerStatusJSON(status: unknown, toJSON: ProtoJSON, zone: Zone): JsonObject {
  const json = nullsForUnset(toJSON('ContainerStatus', status), ['metadata', 'image', 'resources', 'user']);
  const state = json.state as string;
  json.createdAt = formatRFC3339Nano(parseNs(json.createdAt as string), zone);
  json.startedAt =
    state !== 'CONTAINER_CREATED' ? formatRFC3339Nano(parseNs(json.startedAt as string), zone) : GO_ZERO_TIME_RFC3339;
  const finished = parseNs(json.finishedAt as string);
  json.finishedAt =
    state === 'CONTAINER_EXITED' || (state === 'CONTAINER_UNKNOWN' && finished > 0n)
      ? formatRFC3339Nano(finished, zone)
      : GO_ZERO_TIME_RFC3339;
  return json;
}

/** `inspectp ID...` (responses fetched with verbose unless -q). */
export function formatInspectPods(responses: readonly PodSandboxStatusResponse[], opts: StatusViewOptions): string {
  return formatStatusEntries(
    responses.map((r) => ({
      status: podSandboxStatusJSON(r.status ?? {}, opts.toJSON, opts.zone),
      info: r.info ?? {},
    })),
    opts.output,
    opts.template,
  );
}

/** `inspect ID...`. */
export function formatInspectContainers(
  responses: readonly ContainerStatusResponse[],
  opts: StatusViewOptions,
): string {
  return formatStatusEntries(
    responses.map((r) => ({ status: containerStatusJSON(r.status ?? {}, opts.toJSON, opts.zone), info: r.info ?? {} })),
    opts.output,
    opts.template,
  );
}

/** `inspecti REF...`: the image as protobuf JSON (no time rewriting); `refs[i]` names responses[i]. */
export function formatInspectImages(
  responses: readonly ImageStatusResponse[],
  refs: readonly string[],
  opts: Omit<StatusViewOptions, 'zone'>,
): string {
  const entries = responses.map((r, i): StatusEntry => {
    if (!r.image) throw new SyncpodError(`no such image ${JSON.stringify(refs[i] ?? '')} present`);
    return { status: opts.toJSON('Image', r.image), info: r.info ?? {} };
  });
  return formatStatusEntries(entries, opts.output, opts.template);
}

// Go's encoding/json of the generated structs (snake_case tags, omitempty), as crictl info does.
function handlerJSON(h: RuntimeHandler): JsonObject {
  const out: JsonObject = {};
  if (h.name !== '') out.name = h.name;
  if (h.features) {
    const f: JsonObject = {};
    if (h.features.recursiveReadOnlyMounts) f.recursive_read_only_mounts = true;
    if (h.features.userNamespaces) f.user_namespaces = true;
    out.features = f;
  }
  return out;
}

function featuresJSON(f: RuntimeFeatures): JsonObject {
  const out: JsonObject = {};
  if (f.supplementalGroupsPolicy) out.supplemental_groups_policy = true;
  if (f.userNamespacesHostNetwork) out.user_namespaces_host_network = true;
  if (f.mountOptions) out.mount_options = true;
  return out;
}

/**
 * `info`: status conditions (protobuf JSON), runtimeHandlers and features (Go JSON of the structs:
 * snake_case, false/empty left out; absent when the runtime sent none) and the verbose info map.
 */
export function formatInfo(response: StatusResponse, opts: Omit<StatusViewOptions, 'zone'>): string {
  const entry: StatusEntry = { status: opts.toJSON('RuntimeStatus', response.status ?? {}), info: response.info ?? {} };
  if (response.runtimeHandlers && response.runtimeHandlers.length > 0) {
    entry.runtimeHandlers = response.runtimeHandlers.map(handlerJSON);
  }
  if (response.features) entry.features = featuresJSON(response.features);
  return formatStatusEntries([entry], opts.output, opts.template);
}

/** `version`: crictl's four lines, each "Key:  value" (Println adds a second space). */
export function formatVersion(v: VersionResponse): string {
  return (
    `Version:  ${v.version}\n` +
    `RuntimeName:  ${v.runtimeName}\n` +
    `RuntimeVersion:  ${v.runtimeVersion}\n` +
    `RuntimeApiVersion:  ${v.runtimeApiVersion}\n`
  );
}
