// The certificates a wss:// streaming connection trusts. Node loads the file named by
// NODE_EXTRA_CA_CERTS at start, before any JavaScript runs; bin/syncpod keeps it from doing so
// (that costs more than syncpod's own start, and only a runtime's https streaming server needs it),
// so the file is read here, when a TLS connection is about to be made, and added to Node's
// bundled roots just as Node would have added it. An unreadable file is ignored with a warning,
// as Node ignores it.
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';

export interface TlsTrust {
  /** The trusted certificates (PEM); undefined: Node's defaults. */
  ca?: string[];
  /** A line for stderr when the extra file could not be used. */
  warning?: string;
}

/** The file's answer, read once per process as Node reads it (port-forward opens a stream per connection). */
const readOnce = new Map<string, TlsTrust>();

export function streamingTrust(url: string, env: NodeJS.ProcessEnv = process.env): TlsTrust {
  const file = env.NODE_EXTRA_CA_CERTS;
  if (!/^(https|wss):/i.test(url) || !file) return {};
  const known = readOnce.get(file);
  if (known) return { ca: known.ca }; // the warning, like Node's, is given once
  let trust: TlsTrust;
  try {
    trust = { ca: [...rootCertificates, readFileSync(file, 'utf8')] };
  } catch (err) {
    const cause = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    trust = { warning: `NODE_EXTRA_CA_CERTS ${file}: cannot be read (${cause}); extra certificates ignored` };
  }
  readOnce.set(file, trust);
  return trust;
}
