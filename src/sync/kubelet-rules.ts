// Small kubelet rules the executor needs, mirroring kubelet 1.33 (kuberuntime_container.go
// killContainer grace period, startContainer restart count / calcRestartCountByLogDir, image
// manager EnsureImageExists messages, format.Pod). Pure.
import type { Container, EphemeralContainer, Pod } from '../kubelet/api-types';
import type { ContainerStatus } from '../kubelet/types';

/** kubelet's minimumGracePeriodInSeconds. */
export const MIN_GRACE_PERIOD_SECONDS = 2;

export type AnyContainer = Container | EphemeralContainer;

/** The spec of a container by name: regular, init or ephemeral (kubelet searches all three). */
export function findSpecContainer(
  pod: Pod,
  name: string,
): { container: AnyContainer; kind: 'regular' | 'init' | 'ephemeral' } | undefined {
  const spec = pod.spec;
  const c = spec?.containers?.find((x) => x.name === name);
  if (c) return { container: c, kind: 'regular' };
  const i = spec?.initContainers?.find((x) => x.name === name);
  if (i) return { container: i, kind: 'init' };
  const e = spec?.ephemeralContainers?.find((x) => x.name === name);
  if (e) return { container: e, kind: 'ephemeral' };
  return undefined;
}

/**
 * killContainer's grace period before preStop and the minimum: deletionGracePeriodSeconds, else
 * terminationGracePeriodSeconds (a probe's own value for StartupProbe/LivenessProbe kills), else 2.
 */
export function killGracePeriod(pod: Pod, container: AnyContainer | undefined, reason: string): number {
  const deletion = pod.metadata?.deletionGracePeriodSeconds;
  if (deletion !== undefined && deletion !== null) return deletion;
  const termination = pod.spec?.terminationGracePeriodSeconds;
  if (termination !== undefined && termination !== null) {
    const c = container as Container | undefined;
    if (reason === 'StartupProbe' && c?.startupProbe?.terminationGracePeriodSeconds != null)
      return c.startupProbe.terminationGracePeriodSeconds;
    if (reason === 'LivenessProbe' && c?.livenessProbe?.terminationGracePeriodSeconds != null)
      return c.livenessProbe.terminationGracePeriodSeconds;
    return termination;
  }
  return MIN_GRACE_PERIOD_SECONDS;
}

const LOG_FILE_RE = /^(\d+)\.log(\..*)?$/;

/** calcRestartCountByLogDir: the largest N of `N.log[.*]` in the container's log dir, plus one; 0 if none. */
export function restartCountFromLogDir(entries: string[] | undefined): number {
  let max = -1;
  for (const e of entries ?? []) {
    const m = LOG_FILE_RE.exec(e);
    if (m) max = Math.max(max, Number(m[1]));
  }
  return max + 1;
}

/**
 * startContainer's restart count (§2.5): the newest status with that name + 1; without one, the
 * log directory scan.
 */
export function nextRestartCount(
  statuses: ContainerStatus[],
  name: string,
  logDirEntries: () => string[] | undefined,
): { count: number; from: string } {
  const newest = statuses.find((s) => s.name === name);
  if (newest) return { count: newest.restartCount + 1, from: `restart count of ${newest.id.slice(0, 13)} + 1` };
  const count = restartCountFromLogDir(logDirEntries());
  return { count, from: count === 0 ? 'first instance' : 'from the log directory' };
}

/** Go's time.Duration String() for whole seconds: 10s, 1m20s, 5m0s. */
export function goDurationSeconds(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}h${m}m${s % 60}s` : `${m}m${s % 60}s`;
}

/**
 * kubelet's config.seen timestamp: layout 2006-01-02T15:04:05.000000000Z07:00 in the local zone
 * (`offsetMinutes` east of UTC; 0 writes `Z`).
 */
export function formatConfigSeen(ms: number, offsetMinutes: number): string {
  const local = new Date(ms + offsetMinutes * 60000);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const frac = p(local.getUTCMilliseconds(), 3) + '000000';
  const base = `${local.getUTCFullYear()}-${p(local.getUTCMonth() + 1)}-${p(local.getUTCDate())}T${p(local.getUTCHours())}:${p(local.getUTCMinutes())}:${p(local.getUTCSeconds())}.${frac}`;
  if (offsetMinutes === 0) return `${base}Z`;
  const sign = offsetMinutes > 0 ? '+' : '-';
  const abs = Math.abs(offsetMinutes);
  return `${base}${sign}${p(Math.floor(abs / 60))}:${p(abs % 60)}`;
}

/** kubelet's legacy log symlink name, cut to 251 bytes before `.log`. */
export function legacyLogSymlinkName(
  podName: string,
  namespace: string,
  containerName: string,
  containerId: string,
): string {
  let base = `${podName}_${namespace}_${containerName}-${containerId}`;
  while (Buffer.byteLength(base) > 251) base = base.slice(0, -1);
  return `${base}.log`;
}
