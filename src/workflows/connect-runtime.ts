// syncpod's settings -> the CRI connection: the runtime endpoint chosen as crictl chooses it (the
// configured one, or the first of crictl's default sockets that exists), the image endpoint, the
// call deadline (--timeout) and a forced API version (--api).
import type { Settings } from '../config/settings';
import { openCri, type CriServices } from '../cri/connect';
import { parseEndpoint, socketProblem } from '../cri/endpoint';
import { SyncpodError } from '../errors';

/** The runtime endpoint: the configured one, or (nothing configured) the first default socket that exists. */
export function chooseRuntimeEndpoint(settings: Settings, debug?: (l: string) => void): string {
  if (settings.runtimeEndpointSource !== 'default') return settings.runtimeEndpoints[0];
  for (const candidate of settings.runtimeEndpoints) {
    if (!socketProblem(parseEndpoint(candidate))) {
      debug?.(`no endpoint configured; using the default ${candidate}`);
      return candidate;
    }
  }
  throw new SyncpodError(
    `no runtime endpoint configured and none of the default sockets exists (${settings.runtimeEndpoints.join(', ')}); set --runtime-endpoint or CONTAINER_RUNTIME_ENDPOINT`,
  );
}

export function connectRuntime(settings: Settings, debug?: (l: string) => void): CriServices {
  return openCri({
    runtimeEndpoint: chooseRuntimeEndpoint(settings, debug),
    imageEndpoint: settings.imageEndpoint,
    timeoutMs: settings.timeoutMs,
    api: settings.api,
    debug,
  });
}
