// What CRI requests shown to a user leave out. Registry credentials in a PullImage request
// (`pull --dry-run` unless --show-secrets, `--debug`'s request lines always): the secret fields are
// replaced, the username and server stay. Environment values of a CreateContainer request in
// `--debug`'s lines: the CRI layer cannot tell which came from Secrets, so none is logged (the keys are).
import type * as T from './types';

/** The AuthConfig fields that are secrets (the username and server address are not). */
const AUTH_SECRETS = ['password', 'auth', 'identityToken', 'registryToken'] as const;
export const REDACTED_CREDENTIAL = '<redacted: a registry credential; --show-secrets shows it>';

/** A copy of a PullImage request whose registry credentials are replaced (empty ones stay empty); `redacted` counts them. */
export function redactPullRequest<R extends { auth?: T.AuthConfig | null }>(
  request: R,
): { request: R; redacted: number } {
  if (!request.auth) return { request, redacted: 0 };
  const auth: Record<string, unknown> = { ...request.auth };
  let redacted = 0;
  for (const key of AUTH_SECRETS) {
    if (typeof auth[key] === 'string' && auth[key] !== '') {
      auth[key] = REDACTED_CREDENTIAL;
      redacted++;
    }
  }
  return redacted === 0
    ? { request, redacted }
    : { request: { ...request, auth: auth as unknown as T.AuthConfig }, redacted };
}

/** The stderr line after a dry run that hid credentials, or undefined when none were. */
export function credentialsNote(redacted: number): string | undefined {
  if (redacted === 0) return undefined;
  return `${redacted} registry credential${redacted === 1 ? '' : 's'} redacted; --show-secrets prints ${redacted === 1 ? 'it' : 'them'}`;
}

export const ENV_NOT_LOGGED = '<not logged: --debug never logs environment values; sync/create --dry-run shows them>';

/** The protobuf JSON of a CreateContainerRequest with every environment value replaced (the keys stay). */
export function hideEnvValuesInJSON(json: unknown): unknown {
  const config = (json as { config?: { envs?: Array<{ key?: unknown; value?: unknown }> } | null } | null)?.config;
  if (!config?.envs?.length) return json;
  return {
    ...(json as object),
    config: { ...config, envs: config.envs.map((e) => ({ ...e, value: ENV_NOT_LOGGED })) },
  };
}
