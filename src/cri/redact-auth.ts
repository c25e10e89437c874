// Registry credentials in a PullImage request shown to a user (`pull --dry-run`, `--debug`'s request
// lines): the secret fields are replaced unless --show-secrets; the username and server stay.
import type * as T from './types';

/** The AuthConfig fields that are secrets (the username and server address are not). */
const AUTH_SECRETS = ['password', 'auth', 'identityToken', 'registryToken'] as const;
export const REDACTED_CREDENTIAL = '<redacted: a registry credential; --show-secrets shows it>';

/** A copy of a PullImage request whose registry credentials are replaced (empty ones stay empty); `redacted` counts them. */
export function redactPullRequest<R extends { auth?: T.AuthConfig | null }>(request: R): { request: R; redacted: number } {
  if (!request.auth) return { request, redacted: 0 };
  const auth: Record<string, unknown> = { ...request.auth };
  let redacted = 0;
  for (const key of AUTH_SECRETS) {
    if (typeof auth[key] === 'string' && auth[key] !== '') {
      auth[key] = REDACTED_CREDENTIAL;
      redacted++;
    }
  }
  return redacted === 0 ? { request, redacted } : { request: { ...request, auth: auth as unknown as T.AuthConfig }, redacted };
}
