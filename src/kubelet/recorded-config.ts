// What the runtime keeps of the CreateContainer request kubelet sent (kubelet's generateContainerConfig,
// 1.37): the container's CRI config as the runtime reports it (containerd: ContainerStatus verbose
// `info.config`), plus what kubelet writes into the container's annotations (ports, preStop). This is
// the only place the old spec of a running container can be read from; probes, lifecycle hooks
// other than preStop, and most of securityContext are not recorded. Pure.

import type { Container } from './api-types';
import { expand, mappingFuncFor } from './env';
import { parseQuantity, toBytes, toMilliCPU } from './quantity';

/** The fields of a container's recorded CRI config that a plan compares; absent fields were not reported. */
export interface RecordedConfig {
  /** The image the container was asked for (user_specified_image), when the runtime kept it. */
  userImage?: string;
  command?: string[];
  args?: string[];
  workingDir?: string;
  /** Environment as sent (service links and resolved references included). */
  envs?: Array<{ key: string; value: string }>;
  /** Container paths of the mounts, with read-only. */
  mounts?: Array<{ containerPath: string; readonly: boolean }>;
  tty?: boolean;
  stdin?: boolean;
  /** Annotation io.kubernetes.container.ports as written (JSON), '' when absent. */
  portsAnnotation?: string;
  /** Annotation io.kubernetes.container.preStopHandler as written (JSON), '' when absent. */
  preStopAnnotation?: string;
}

/** Mounts kubelet adds to every container itself (not from volumeMounts). */
export function isKubeletOwnMount(containerPath: string, c: Container): boolean {
  return containerPath === '/etc/hosts' || containerPath === (c.terminationMessagePath || '/dev/termination-log');
}

/** A port as an operator reads it: `name 8080/TCP` or `80/TCP`, `hostPort` when set. */
export function portText(p: { name?: string; containerPort?: number; hostPort?: number; protocol?: string }): string {
  const base = `${p.containerPort ?? 0}/${p.protocol || 'TCP'}`;
  const host = p.hostPort ? ` host ${p.hostPort}` : '';
  return `${p.name ? `${p.name} ` : ''}${base}${host}`;
}

/** The ports of the annotation kubelet writes (JSON of the container's ports), as portText lines. */
export function recordedPorts(annotation: string): string[] | undefined {
  if (annotation === '') return [];
  try {
    const v = JSON.parse(annotation) as unknown;
    if (!Array.isArray(v)) return undefined;
    return v.map((p) => portText(p as Record<string, never>));
  } catch {
    return undefined;
  }
}

/**
 * The literal environment a container's spec gives (value, $(VAR) expanded against earlier entries
 * as kubelet does); entries from valueFrom are named with value undefined (their values are resolved
 * from Secrets, ConfigMaps or the pod and are never shown).
 */
export function specEnv(c: Container): Array<{ key: string; value: string | undefined }> {
  const known = new Map<string, string>();
  const out: Array<{ key: string; value: string | undefined }> = [];
  for (const e of c.env ?? []) {
    if (e.valueFrom) {
      out.push({ key: e.name, value: undefined });
      known.delete(e.name);
      continue;
    }
    const v = expand(e.value ?? '', mappingFuncFor(known));
    known.set(e.name, v);
    out.push({ key: e.name, value: v });
  }
  return out;
}

/** Environment names kubelet adds for services (enableServiceLinks) and the API server. */
export function isServiceLinkEnv(key: string): boolean {
  return /_(SERVICE_HOST|SERVICE_PORT(_[A-Z0-9_]+)?|PORT(_\d+_(TCP|UDP|SCTP)(_(PROTO|PORT|ADDR))?)?)$/.test(key);
}

/** CPU and memory as the spec asks (millicores, bytes); undefined when not set. */
export function specCpuMemory(c: Container): { cpuLimit?: number; cpuRequest?: number; memoryLimit?: number } {
  const r = c.resources ?? {};
  const q = (v: string | number | undefined, f: (x: ReturnType<typeof parseQuantity>) => number) =>
    v === undefined ? undefined : f(parseQuantity(v));
  const cpuLimit = q(r.limits?.cpu, toMilliCPU);
  const memoryLimit = q(r.limits?.memory, toBytes);
  // An unset request defaults to the limit (API defaulting), as kubelet sees it.
  const cpuRequest = q(r.requests?.cpu, toMilliCPU) ?? cpuLimit;
  return { cpuLimit, cpuRequest, memoryLimit };
}
