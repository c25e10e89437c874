// CNI protocol version arithmetic (versions are MAJOR.MINOR.PATCH).

import { CniConfigError } from './errors';

function parts(version: string): [number, number, number] {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(version);
  if (m === null) throw new CniConfigError(`invalid CNI version "${version}" (expected MAJOR.MINOR.PATCH)`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** Negative, zero or positive as a is older than, equal to or newer than b. Throws on malformed input. */
export function compareVersions(a: string, b: string): number {
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < 3; i++) {
    if (pa[i] !== pb[i]) return pa[i] - pb[i];
  }
  return 0;
}

export function versionAtLeast(version: string, minimum: string): boolean {
  return compareVersions(version, minimum) >= 0;
}

/** Whether a version string is well formed. */
export function isVersion(version: string): boolean {
  return /^\d+\.\d+\.\d+$/.test(version);
}
