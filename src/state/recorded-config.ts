// The old spec of a container as the runtime reports it: ContainerStatus(verbose) `info` holds the
// CRI config kubelet sent (containerd: `info.info` is JSON with `config`, the ContainerConfig in the
// CRI's snake_case field names). CRI-O's verbose info carries no config; then only what the status
// and annotations say (image, hash, ports) is known.
import { isObj } from '../json-object';
import type { RecordedConfig } from '../kubelet/recorded-config';
import { ANNOTATION_CONTAINER_PORTS, ANNOTATION_PRESTOP_HANDLER } from '../kubelet/types';

const strings = (v: unknown): string[] | undefined =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;

/** The recorded config of one container from its status annotations and verbose info. */
export function recordedConfigOf(
  annotations: Record<string, string> | undefined,
  info: Record<string, string> | undefined,
): RecordedConfig {
  const out: RecordedConfig = {
    portsAnnotation: annotations?.[ANNOTATION_CONTAINER_PORTS] ?? '',
    preStopAnnotation: annotations?.[ANNOTATION_PRESTOP_HANDLER] ?? '',
  };
  let parsed: unknown;
  try {
    parsed = info?.info ? JSON.parse(info.info) : undefined;
  } catch {
    parsed = undefined;
  }
  const config = isObj(parsed) && isObj(parsed.config) ? parsed.config : undefined;
  if (!config) return out;
  const image = isObj(config.image) ? config.image : {};
  if (typeof image.user_specified_image === 'string' && image.user_specified_image)
    out.userImage = image.user_specified_image;
  out.command = strings(config.command) ?? [];
  out.args = strings(config.args) ?? [];
  out.workingDir = typeof config.working_dir === 'string' ? config.working_dir : '';
  out.envs = (Array.isArray(config.envs) ? config.envs : []).filter(isObj).map((e) => ({
    key: typeof e.key === 'string' ? e.key : '',
    value: typeof e.value === 'string' ? e.value : '',
  }));
  out.mounts = (Array.isArray(config.mounts) ? config.mounts : []).filter(isObj).map((m) => ({
    containerPath: typeof m.container_path === 'string' ? m.container_path : '',
    readonly: m.readonly === true,
  }));
  out.tty = config.tty === true;
  out.stdin = config.stdin === true;
  return out;
}
