// The feature gates the CRI config generators read. They come resolved, once per invocation, from
// resolveKubeletRules(...).gates (src/kubelet/features.ts holds each gate's per-version defaults);
// the generators never resolve a version themselves.
import type { GateName } from './features';

export const CONFIG_GATE_NAMES = [
  'ContainerStopSignals',
  'EnvFiles',
  'HostnameOverride',
  'ImageVolume',
  'NodeSwap',
  'PodLevelResources',
  'ProcMountType',
  'RecursiveReadOnlyMounts',
  'RelaxedEnvironmentVariableValidation',
  'SupplementalGroupsPolicy',
  'UserNamespacesSupport',
] as const satisfies readonly GateName[];

export type ConfigGateName = (typeof CONFIG_GATE_NAMES)[number];
/** Effective gate values (a KubeletRules.gates record fits). */
export type ConfigGates = Readonly<Record<ConfigGateName, boolean>>;
