// Names that become parts of host paths (pods/<uid>, <ns>_<name>_<uid>, containers/<name>,
// volume-subpaths/<volume>/<container>/<index>). Kubelet joins them as given: the API server
// validates names and namespaces as DNS names and sets uid to a UUID, and a static pod's uid is
// kept from its manifest or computed as hex (kubelet config/common.go applyDefaults). syncpod
// reads manifests no API server saw, so it checks them itself, before anything happens. Pure.
import { SyncpodError } from '../errors';

/**
 * What syncpod takes as metadata.uid: a UUID as the API server assigns, the 32 hex digits kubelet
 * computes for a static pod, or another name of 1–128 letters, digits, '-', '_' and '.', starting
 * and ending with a letter or digit (so never '.', '..', a '/', or a NUL).
 */
export const POD_UID = /^[A-Za-z0-9]([-A-Za-z0-9_.]{0,126}[A-Za-z0-9])?$/;
export const POD_UID_HELP =
  "must be 1-128 letters, digits, '-', '_' or '.', starting and ending with a letter or digit (a UUID as the API server assigns, or kubelet's hex uid of a static pod)";

export function isPodUid(uid: string): boolean {
  return POD_UID.test(uid);
}

/** One component of a path: not empty, '.' or '..', without '/' or NUL, at most 255 bytes. */
const utf8 = new TextEncoder();

export function isPathComponent(s: string): boolean {
  return s !== '' && s !== '.' && s !== '..' && !s.includes('/') && !s.includes('\0') && utf8.encode(s).length <= 255;
}

/** Throws when `value` cannot be one component of a host path (the last guard before a path is built). */
export function checkPathComponent(what: string, value: string): string {
  if (!isPathComponent(value))
    throw new SyncpodError(`${what} ${JSON.stringify(value)} cannot be used in a host path: refused`);
  return value;
}

/** The length of the uid syncpod gives a pod whose manifest has none (a UUID). */
export const FRESH_UID_LENGTH = 36;
/** The most bytes one name in a path may have (NAME_MAX). */
export const NAME_MAX = 255;

/**
 * Bytes of `<namespace>_<name>_<uid>`, the pod's log directory name (BuildPodLogsDirectory): a
 * valid namespace (63) and name (253) can make it longer than NAME_MAX, and then kubelet's mkdir
 * of it fails and the pod never gets a sandbox. `uid` absent: the fresh uid syncpod would give.
 */
export function podLogDirNameBytes(namespace: string, name: string, uid?: string): number {
  return (
    utf8.encode(namespace).length + utf8.encode(name).length + (uid ? utf8.encode(uid).length : FRESH_UID_LENGTH) + 2
  );
}
