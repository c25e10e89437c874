// Picks the runtime and image endpoints from the settings and opens the two CRI services.
import { SyncpodError } from '../errors';
import type { Settings } from '../config/settings';
import { parseEndpoint, socketProblem } from './endpoint';
import {
  CriService,
  type ImageMethods,
  type RuntimeMethods,
  type ImageService,
  type RuntimeService,
} from './grpc-runtime-service';

export interface CriServices {
  runtime: RuntimeService;
  image: ImageService;
  close(): void;
}

/**
 * The runtime endpoint: the configured one, or (nothing configured) the first of crictl's
 * default sockets that exists.
 */
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

export function openCri(settings: Settings, debug?: (l: string) => void): CriServices {
  const runtimeText = chooseRuntimeEndpoint(settings, debug);
  const runtimeEp = parseEndpoint(runtimeText);
  const imageEp = settings.imageEndpoint ? parseEndpoint(settings.imageEndpoint) : runtimeEp;
  const opts = { timeoutMs: settings.timeoutMs, api: settings.api, debug };
  const runtime = new CriService<RuntimeMethods>(runtimeEp, 'RuntimeService', opts);
  const image = new CriService<ImageMethods>(imageEp, 'ImageService', opts);
  return {
    runtime,
    image,
    close() {
      runtime.close();
      image.close();
    },
  };
}
