// The CRI lists a streaming command needs to find its target.
import type { RuntimeService } from '../cri/grpc-runtime-service';
import type { TargetLister } from '../state/targets';

export function runtimeLister(runtime: RuntimeService): TargetLister {
  return {
    listPods: async () => (await runtime.call('ListPodSandbox', {})).items,
    listContainers: async (podSandboxId) =>
      (await runtime.call('ListContainers', podSandboxId ? { filter: { podSandboxId } } : {})).containers,
  };
}
