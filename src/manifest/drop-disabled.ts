// dropDisabledFields (pkg/api/pod/util.go, read in the 1.35 and 1.36 trees, zongruxie4/kubernetes@964d79dd):
// before validating a new Pod or pod template, the API server clears the fields whose feature gate
// is off, so the pod is admitted without them rather than refused. Only gates the minor has do
// this (before a gate existed its field was not in the schema). Each drop is said as a note.
// Works on the defaulted pod's plain objects; pure.

import type { Pod } from '../kubelet/api-types';
import { gateSpecAt, type GateName } from '../kubelet/features';
import { gateOff, type ApiRules } from './api-rules';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

/** The gates whose off state makes the API server clear a field, in the order dropDisabledFields runs. */
export const DROPPING_GATES: readonly GateName[] = [
  'UserNamespacesSupport', 'SupplementalGroupsPolicy', 'PodLevelResources', 'ProcMountType', 'InPlacePodVerticalScaling',
  'SidecarContainers', 'ContainerRestartRules', 'RecursiveReadOnlyMounts', 'HostnameOverride', 'EnvFiles', 'ImageVolume',
  'ContainerStopSignals',
];

/**
 * Clears, in place, what the API server of `api` clears from a new pod's spec, and returns one note
 * per cleared field (`spec.containers[0].restartPolicy: dropped: the API server of 1.34 with
 * ContainerRestartRules off clears it`).
 */
export function dropDisabledFields(pod: Pod, api: ApiRules, specPath = 'spec'): string[] {
  const spec = pod.spec as unknown;
  if (!isObj(spec)) return [];
  const notes: string[] = [];
  const off = (gate: GateName): boolean => gateSpecAt(gate, api.minor) !== undefined && !api.gates[gate];
  const drop = (o: Obj, key: string, at: string, gate: GateName, how = 'clears it'): void => {
    if (o[key] === undefined || o[key] === null) return;
    delete o[key];
    notes.push(`${at}: dropped: ${gateOff(api, gate)} ${how}`);
  };
  const containers = (each: (c: Obj, at: string, list: (typeof LISTS)[number]) => void): void => {
    for (const list of LISTS) {
      const items = spec[list];
      if (!Array.isArray(items)) continue;
      items.forEach((c, i) => {
        if (isObj(c)) each(c, `${specPath}.${list}[${i}]`, list);
      });
    }
  };
  const sc = isObj(spec.securityContext) ? spec.securityContext : undefined;

  // hostUsers sits in the internal type's security context, in v1 on the spec itself.
  if (off('UserNamespacesSupport')) drop(spec, 'hostUsers', `${specPath}.hostUsers`, 'UserNamespacesSupport');
  if (off('SupplementalGroupsPolicy') && sc) drop(sc, 'supplementalGroupsPolicy', `${specPath}.securityContext.supplementalGroupsPolicy`, 'SupplementalGroupsPolicy');
  if (off('PodLevelResources')) drop(spec, 'resources', `${specPath}.resources`, 'PodLevelResources');
  if (off('ProcMountType')) {
    containers((c, at) => {
      const csc = c.securityContext;
      if (isObj(csc) && typeof csc.procMount === 'string' && csc.procMount !== 'Default') {
        csc.procMount = 'Default';
        notes.push(`${at}.securityContext.procMount: set to Default: ${gateOff(api, 'ProcMountType')} resets it`);
      }
    });
  }
  if (off('InPlacePodVerticalScaling')) containers((c, at) => drop(c, 'resizePolicy', `${at}.resizePolicy`, 'InPlacePodVerticalScaling'));
  if (off('SidecarContainers')) {
    containers((c, at, list) => {
      if (list === 'initContainers') drop(c, 'restartPolicy', `${at}.restartPolicy`, 'SidecarContainers');
    });
  }
  if (off('ContainerRestartRules')) {
    // dropContainerRestartRules: a sidecar keeps restartPolicy Always; every other restartPolicy and all rules go.
    containers((c, at, list) => {
      if (list !== 'initContainers' || c.restartPolicy !== 'Always') drop(c, 'restartPolicy', `${at}.restartPolicy`, 'ContainerRestartRules');
      drop(c, 'restartPolicyRules', `${at}.restartPolicyRules`, 'ContainerRestartRules');
    });
  }
  if (off('RecursiveReadOnlyMounts')) {
    containers((c, at) => {
      if (!Array.isArray(c.volumeMounts)) return;
      c.volumeMounts.forEach((m, j) => {
        if (isObj(m)) drop(m, 'recursiveReadOnly', `${at}.volumeMounts[${j}].recursiveReadOnly`, 'RecursiveReadOnlyMounts');
      });
    });
  }
  if (off('HostnameOverride')) drop(spec, 'hostnameOverride', `${specPath}.hostnameOverride`, 'HostnameOverride');
  if (off('EnvFiles')) {
    containers((c, at) => {
      if (!Array.isArray(c.env)) return;
      c.env.forEach((e, j) => {
        if (isObj(e) && isObj(e.valueFrom)) drop(e.valueFrom, 'fileKeyRef', `${at}.env[${j}].valueFrom.fileKeyRef`, 'EnvFiles');
      });
    });
  }
  if (off('ImageVolume') && Array.isArray(spec.volumes)) {
    // dropImageVolumes: the image volumes go, and every mount of one.
    const names = new Set<string>();
    spec.volumes = spec.volumes.filter((v, i) => {
      if (!isObj(v) || v.image === undefined || v.image === null) return true;
      names.add(String(v.name));
      notes.push(`${specPath}.volumes[${i}]: dropped: ${gateOff(api, 'ImageVolume')} clears image volumes`);
      return false;
    });
    if (names.size > 0) {
      containers((c, at) => {
        if (!Array.isArray(c.volumeMounts)) return;
        const kept = c.volumeMounts.filter((m) => !(isObj(m) && names.has(String(m.name))));
        if (kept.length !== c.volumeMounts.length) {
          notes.push(`${at}.volumeMounts: the mounts of image volumes dropped with them`);
          c.volumeMounts = kept;
        }
      });
    }
  }
  if (off('ContainerStopSignals')) {
    containers((c, at) => {
      const l = c.lifecycle;
      if (!isObj(l)) return;
      drop(l, 'stopSignal', `${at}.lifecycle.stopSignal`, 'ContainerStopSignals');
      if (Object.keys(l).length === 0) delete c.lifecycle;
    });
  }
  return notes;
}
