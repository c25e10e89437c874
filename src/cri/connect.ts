// Opens the two CRI services (runtime and image) on their endpoints. Which endpoints, deadline and
// API version come from the caller (workflows/connect-runtime.ts maps syncpod's settings to them).
import { parseEndpoint } from './endpoint';
import {
  type ApiVersion,
  CriService,
  type ImageMethods,
  type ImageService,
  type RuntimeMethods,
  type RuntimeService,
} from './grpc-runtime-service';

export interface CriServices {
  runtime: RuntimeService;
  image: ImageService;
  close(): void;
}

export interface CriOptions {
  runtimeEndpoint: string;
  /** The image service's endpoint; absent: the runtime's. */
  imageEndpoint?: string;
  /** The deadline of each call. */
  timeoutMs: number;
  /** Force an API version (otherwise runtime.v1, falling back to v1alpha2 on Unimplemented). */
  api?: ApiVersion;
  debug?: (line: string) => void;
}

export function openCri(o: CriOptions): CriServices {
  const runtimeEp = parseEndpoint(o.runtimeEndpoint);
  const imageEp = o.imageEndpoint ? parseEndpoint(o.imageEndpoint) : runtimeEp;
  const opts = { timeoutMs: o.timeoutMs, api: o.api, debug: o.debug };
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
