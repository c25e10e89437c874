// --host-root DIR / SYNCPOD_HOST_ROOT: where the node's root filesystem is seen from here — '/' on
// the node itself, '/host' in the DaemonSet and the debug pod (deploy/). Every path that names
// something on the node (runtime sockets, crictl.yaml, kubelet's directories and config, /proc,
// CNI directories and cache, network namespaces, log files the runtime reports, the lock
// directory) goes through onHost() at the point where syncpod touches it; what syncpod sends to the
// runtime stays a host path. syncpod's own inputs (manifests, --env-file, report files) are not
// mapped. Pure string functions: no I/O.
import { SyncpodError } from '../errors';

/** Validates the --host-root / SYNCPOD_HOST_ROOT value: an absolute directory path, '/' by default. */
export function parseHostRoot(text: string | undefined, where = '--host-root'): string {
  if (text === undefined || text === '') return '/';
  if (!text.startsWith('/')) throw new SyncpodError(`${where}: "${text}" is not an absolute path`);
  const trimmed = text.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** --host-root over SYNCPOD_HOST_ROOT over '/' (the one precedence; settings and the node profile use it). */
export function hostRootOf(flag: string | undefined, env: Record<string, string | undefined>): string {
  return flag !== undefined
    ? parseHostRoot(flag)
    : parseHostRoot(env.SYNCPOD_HOST_ROOT || undefined, 'SYNCPOD_HOST_ROOT');
}

/** The node path `p` as seen from here: `root` + `p` for an absolute `p`, else `p` unchanged. */
export function onHost(root: string, p: string): string {
  if (root === '/' || !p.startsWith('/')) return p;
  return `${root}${p}`;
}

/** A CRI endpoint as seen from here: unix socket paths are node paths; other schemes are kept. */
export function endpointOnHost(root: string, endpoint: string): string {
  if (root === '/') return endpoint;
  if (endpoint.startsWith('unix://')) return `unix://${onHost(root, endpoint.slice('unix://'.length))}`;
  if (endpoint.startsWith('/')) return onHost(root, endpoint);
  return endpoint;
}
