// PodSandboxChanged of pkg/kubelet/kuberuntime/util/util.go (same rules in kubelet 1.29–1.37; in
// k8s.io/kubernetes v1.37.2 it has a fourth result that computePodActions discards):
// whether the pod needs a new sandbox, the attempt number of that sandbox, and the sandbox id
// computePodActions reports. Pure.

import type { Pod } from './api-types';
import type { SandboxChange } from './pod-actions';
import type { PodStatus } from './types';

export interface SandboxDecision {
  createSandbox: boolean;
  attempt: number;
  sandboxId: string;
  change: SandboxChange | null;
}

export function podSandboxChanged(pod: Pod, podStatus: PodStatus): SandboxDecision {
  const sandboxes = podStatus.sandboxStatuses;
  if (sandboxes.length === 0) {
    return {
      createSandbox: true,
      attempt: 0,
      sandboxId: '',
      change: {
        code: 'no-sandbox',
        message: 'No sandbox for pod can be found. Need to start a new one',
        sandboxId: '',
      },
    };
  }
  const newest = sandboxes[0];
  const next = newest.attempt + 1;
  const readyCount = sandboxes.filter((s) => s.state === 'ready').length;
  if (readyCount > 1) {
    return {
      createSandbox: true,
      attempt: next,
      sandboxId: newest.id,
      change: {
        code: 'multiple-ready',
        message: 'Multiple sandboxes are ready for Pod. Need to reconcile them',
        sandboxId: newest.id,
        readyCount,
      },
    };
  }
  if (newest.state !== 'ready') {
    return {
      createSandbox: true,
      attempt: next,
      sandboxId: newest.id,
      change: {
        code: 'not-ready',
        message: 'No ready sandbox for pod can be found. Need to start a new one',
        sandboxId: newest.id,
      },
    };
  }
  const hostNetwork = pod.spec?.hostNetwork === true;
  const mode = newest.networkNamespaceMode ?? 'POD';
  const wanted = hostNetwork ? 'NODE' : 'POD';
  if (mode !== wanted) {
    return {
      createSandbox: true,
      attempt: next,
      sandboxId: '',
      change: {
        code: 'network-namespace-changed',
        message: 'Sandbox for pod has changed. Need to start a new one',
        sandboxId: newest.id,
        mode,
        wanted,
        hostNetwork,
      },
    };
  }
  if (!hostNetwork && newest.hasNetwork && newest.ip === '') {
    return {
      createSandbox: true,
      attempt: next,
      sandboxId: newest.id,
      change: {
        code: 'no-ip',
        message: 'Sandbox for pod has no IP address. Need to start a new one',
        sandboxId: newest.id,
      },
    };
  }
  return { createSandbox: false, attempt: newest.attempt, sandboxId: newest.id, change: null };
}
