// The runtime's cgroup driver, from the CRI RuntimeConfig RPC (runtime.v1 only; containerd 2.0+,
// CRI-O 1.28+). Runtimes without it answer Unimplemented, which is an answer too: "not told".
import type { RuntimeService } from '../cri/grpc-runtime-service';
import type { RuntimeCgroupDriver } from './types';

export async function runtimeCgroupDriver(runtime: RuntimeService): Promise<RuntimeCgroupDriver> {
  const endpoint = runtime.endpoint.text;
  try {
    // Negotiate first: an Unimplemented RuntimeConfig must not be read as "no runtime.v1".
    if (runtime.apiVersion === undefined) await runtime.call('Version', {});
    if (runtime.apiVersion !== 'v1') return { answered: false, why: 'runtime.v1alpha2 has no RuntimeConfig', endpoint };
    const res = await runtime.call('RuntimeConfig', {});
    const driver = res.linux?.cgroupDriver;
    if (driver === undefined) return { answered: false, why: 'the answer has no linux configuration', endpoint };
    return { answered: true, cgroupDriver: driver === 'SYSTEMD' ? 'systemd' : 'cgroupfs', endpoint };
  } catch (err) {
    const code = (err as { code?: number }).code;
    return {
      answered: false,
      why: code === 12 ? 'RuntimeConfig is not implemented' : (err as Error).message,
      endpoint,
    };
  }
}
