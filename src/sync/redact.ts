// Redaction of values that came from Secrets in requests shown to a user (`--dry-run` of sync and
// create): the CreateContainer env values whose source is a Secret (secretKeyRef, envFrom
// secretRef, an --env-file entry used for either, or a value expanded from one) are replaced.
// Data in, data out; the CLI decides (--show-secrets) whether to call it.
import type { Pod } from '../kubelet/api-types';
import type * as T from '../cri/types';
import { secretEnvNames, type ValueSources } from '../kubelet/env';
import { LABEL_CONTAINER_NAME } from '../kubelet/types';
import type { RecordedRequest } from './dry-run';

export const REDACTED_VALUE = '<redacted: from a Secret; --show-secrets shows it>';
const REDACTED_BYTES = new TextEncoder().encode(REDACTED_VALUE);

function specContainer(pod: Pod, name: string) {
  const all = [
    ...(pod.spec?.initContainers ?? []),
    ...(pod.spec?.containers ?? []),
    ...(pod.spec?.ephemeralContainers ?? []),
  ];
  return all.find((c) => c.name === name);
}

/** A copy of a CreateContainer request with the pod's secret-sourced env values replaced; `redacted` counts them. */
export function redactCreateContainerRequest<R extends { config?: T.ContainerConfig }>(
  request: R,
  pod: Pod,
  values: ValueSources | undefined,
): { request: R; redacted: number } {
  const name = request.config?.labels?.[LABEL_CONTAINER_NAME];
  const container = name === undefined ? undefined : specContainer(pod, name);
  if (!container || !request.config) return { request, redacted: 0 };
  const secret = new Set(secretEnvNames(pod, container as Parameters<typeof secretEnvNames>[1], values));
  let redacted = 0;
  const secretValues: string[] = [];
  const envs = (request.config.envs ?? []).map((kv) => {
    if (!secret.has(kv.key)) return kv;
    redacted++;
    const text = Buffer.from(kv.value as Uint8Array).toString('utf8');
    if (text !== '') secretValues.push(text);
    return { key: kv.key, value: REDACTED_BYTES };
  });
  if (redacted === 0) return { request, redacted };
  // A secret expanded into the command, the arguments or a mount path ($(VAR), subPathExpr) is the
  // same secret: every occurrence of a redacted value is replaced there too (longest first).
  secretValues.sort((a, b) => b.length - a.length);
  const hide = (text: string) => secretValues.reduce((t, v) => t.split(v).join(REDACTED_VALUE), text);
  const config = {
    ...request.config,
    envs,
    command: (request.config.command ?? []).map(hide),
    args: (request.config.args ?? []).map(hide),
    mounts: (request.config.mounts ?? []).map((m) => ({
      ...m,
      containerPath: hide(m.containerPath),
      hostPath: hide(m.hostPath),
    })),
  };
  return { request: { ...request, config }, redacted };
}

/** Recorded dry-run requests with secret-sourced values replaced (CreateContainer only carries them). */
export function redactRecorded(
  recorded: RecordedRequest[],
  pod: Pod,
  values: ValueSources | undefined,
): { recorded: RecordedRequest[]; redacted: number } {
  let redacted = 0;
  const out = recorded.map((r) => {
    if (r.rpc !== 'CreateContainer') return r;
    const x = redactCreateContainerRequest(r.request as T.CreateContainerRequest, pod, values);
    redacted += x.redacted;
    return { ...r, request: x.request };
  });
  return { recorded: out, redacted };
}

/** The stderr line that says values were hidden, or undefined when none were. */
export function redactionNote(redacted: number): string | undefined {
  if (redacted === 0) return undefined;
  return `${redacted} value${redacted === 1 ? '' : 's'} from Secrets redacted; --show-secrets prints them`;
}
