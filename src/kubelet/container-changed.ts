// containerChanged of pkg/kubelet/kuberuntime/kuberuntime_manager.go (1.31+ as in k8s.io/kubernetes v1.37.2): the running container's hash
// annotation against the hash the mirrored kubelet computes (whole spec through 1.30, name+image
// from 1.31). Kubelet only sees "changed"; the check also says whether the observed value is the
// other scheme's hash of the same container, missing, or not hex. Pure.

import type { Container } from './api-types';
import { formatHash, hashContainer, hashContainerLegacy, kubeletContainerHash } from './hash';
import type { HashScheme, KubeletRules } from './kubelet-version';
import type { HashCheck } from './pod-actions';
import type { ContainerStatus } from './types';

export function containerChanged(
  container: Container,
  s: ContainerStatus,
  rules: Pick<KubeletRules, 'hashScheme' | 'rulesMinor'>,
): { changed: boolean; check: HashCheck } {
  const scheme = rules.hashScheme;
  const expected = kubeletContainerHash(rules.rulesMinor, container);
  const observed = s.hash;
  const base = { name: container.name, containerId: s.id, scheme, expected: formatHash(expected), observed };
  if (observed === '') return { changed: true, check: { ...base, verdict: 'missing' } };
  if (!/^[0-9a-fA-F]{1,16}$/.test(observed)) return { changed: true, check: { ...base, verdict: 'unparsable' } };
  const value = BigInt(`0x${observed}`);
  if (value === BigInt(expected)) return { changed: false, check: { ...base, verdict: 'match' } };
  const other: HashScheme = scheme === 'name+image' ? 'whole-spec' : 'name+image';
  let otherHash: number | null = null;
  try {
    otherHash =
      other === 'name+image'
        ? hashContainer({ name: container.name, image: container.image })
        : hashContainerLegacy(container);
  } catch {
    otherHash = null;
  }
  if (otherHash !== null && value === BigInt(otherHash)) {
    return { changed: true, check: { ...base, verdict: 'other-scheme', matchedScheme: other } };
  }
  return { changed: true, check: { ...base, verdict: 'changed' } };
}
