// dropDisabledFields (pkg/api/pod/util.go, read in the 1.35 and 1.36 trees, zongruxie4/kubernetes@964d79dd;
// the drops of the 1.37 fields as the KEPs that came with them say, the 1.37 util.go not being stored):
// before validating a new Pod or pod template, the API server clears the fields whose feature gate
// is off, so the pod is admitted without them rather than refused. Only gates the minor has do
// this (before a gate existed its field was not in the schema). Each drop is said as a note.
// Works on the defaulted pod's plain objects; pure.

import type { Pod } from '../kubelet/api-types';
import { gateSpecAt, type GateName } from '../kubelet/features';
import { gateOff, type ApiRules } from './api-rules';
import { isObj, type Obj } from '../json-object';

const LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;
const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'] as const;

/** The gates whose off state makes the API server clear a field, in the order dropDisabledFields runs. */
export const DROPPING_GATES: readonly GateName[] = [
  'UserNamespacesSupport',
  'SupplementalGroupsPolicy',
  'PodLevelResources',
  'ProcMountType',
  'InPlacePodVerticalScaling',
  'SidecarContainers',
  'ContainerRestartRules',
  'RecursiveReadOnlyMounts',
  'HostnameOverride',
  'EnvFiles',
  'ImageVolume',
  'ContainerStopSignals',
  'EmptyDirVolumeMode',
  'VolumeBindMountOptions',
  'H2CContainerProbe',
  'GRPCContainerProbeTLS',
  'AtomicWriteVolumeUserFields',
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
  if (off('SupplementalGroupsPolicy') && sc)
    drop(
      sc,
      'supplementalGroupsPolicy',
      `${specPath}.securityContext.supplementalGroupsPolicy`,
      'SupplementalGroupsPolicy',
    );
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
  if (off('InPlacePodVerticalScaling'))
    containers((c, at) => drop(c, 'resizePolicy', `${at}.resizePolicy`, 'InPlacePodVerticalScaling'));
  if (off('SidecarContainers')) {
    containers((c, at, list) => {
      if (list === 'initContainers') drop(c, 'restartPolicy', `${at}.restartPolicy`, 'SidecarContainers');
    });
  }
  if (off('ContainerRestartRules')) {
    // dropContainerRestartRules: a sidecar keeps restartPolicy Always; every other restartPolicy and all rules go.
    containers((c, at, list) => {
      if (list !== 'initContainers' || c.restartPolicy !== 'Always')
        drop(c, 'restartPolicy', `${at}.restartPolicy`, 'ContainerRestartRules');
      drop(c, 'restartPolicyRules', `${at}.restartPolicyRules`, 'ContainerRestartRules');
    });
  }
  if (off('RecursiveReadOnlyMounts')) {
    containers((c, at) => {
      if (!Array.isArray(c.volumeMounts)) return;
      c.volumeMounts.forEach((m, j) => {
        if (isObj(m))
          drop(m, 'recursiveReadOnly', `${at}.volumeMounts[${j}].recursiveReadOnly`, 'RecursiveReadOnlyMounts');
      });
    });
  }
  if (off('HostnameOverride')) drop(spec, 'hostnameOverride', `${specPath}.hostnameOverride`, 'HostnameOverride');
  if (off('EnvFiles')) {
    containers((c, at) => {
      if (!Array.isArray(c.env)) return;
      c.env.forEach((e, j) => {
        if (isObj(e) && isObj(e.valueFrom))
          drop(e.valueFrom, 'fileKeyRef', `${at}.env[${j}].valueFrom.fileKeyRef`, 'EnvFiles');
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
  // The 1.37 fields (src/manifest/schema.ts FIELD_ADDED), each dropped from a new pod while its alpha gate is off.
  const volumes = Array.isArray(spec.volumes) ? spec.volumes : [];
  if (off('EmptyDirVolumeMode')) {
    volumes.forEach((v, i) => {
      if (isObj(v) && isObj(v.emptyDir))
        drop(v.emptyDir, 'mode', `${specPath}.volumes[${i}].emptyDir.mode`, 'EmptyDirVolumeMode');
    });
  }
  if (off('VolumeBindMountOptions')) {
    containers((c, at) => {
      if (!Array.isArray(c.volumeMounts)) return;
      c.volumeMounts.forEach((m, j) => {
        if (isObj(m))
          drop(m, 'bindMountOptions', `${at}.volumeMounts[${j}].bindMountOptions`, 'VolumeBindMountOptions');
      });
    });
  }
  const probes = (each: (probe: Obj, at: string) => void): void =>
    containers((c, at) => {
      for (const kind of PROBES) if (isObj(c[kind])) each(c[kind], `${at}.${kind}`);
    });
  if (off('H2CContainerProbe'))
    probes((p, at) => isObj(p.httpGet) && drop(p.httpGet, 'protocol', `${at}.httpGet.protocol`, 'H2CContainerProbe'));
  if (off('GRPCContainerProbeTLS'))
    probes((p, at) => isObj(p.grpc) && drop(p.grpc, 'mode', `${at}.grpc.mode`, 'GRPCContainerProbeTLS'));
  if (off('AtomicWriteVolumeUserFields')) {
    const gate = 'AtomicWriteVolumeUserFields';
    const items = (src: Obj, at: string): void => {
      if (!Array.isArray(src.items)) return;
      src.items.forEach((item, k) => {
        if (isObj(item)) drop(item, 'user', `${at}.items[${k}].user`, gate);
      });
    };
    volumes.forEach((v, i) => {
      if (!isObj(v)) return;
      const at = `${specPath}.volumes[${i}]`;
      for (const kind of ['configMap', 'secret', 'downwardAPI'] as const) {
        if (!isObj(v[kind])) continue;
        drop(v[kind], 'defaultUser', `${at}.${kind}.defaultUser`, gate);
        items(v[kind], `${at}.${kind}`);
      }
      if (!isObj(v.projected)) return;
      drop(v.projected, 'defaultUser', `${at}.projected.defaultUser`, gate);
      if (!Array.isArray(v.projected.sources)) return;
      v.projected.sources.forEach((source, k) => {
        if (!isObj(source)) return;
        const sat = `${at}.projected.sources[${k}]`;
        for (const kind of ['configMap', 'secret', 'downwardAPI'] as const)
          if (isObj(source[kind])) items(source[kind], `${sat}.${kind}`);
        for (const kind of ['serviceAccountToken', 'clusterTrustBundle', 'podCertificate'] as const) {
          if (isObj(source[kind])) drop(source[kind], 'user', `${sat}.${kind}.user`, gate);
        }
      });
    });
  }
  return notes;
}
