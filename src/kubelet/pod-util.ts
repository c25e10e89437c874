// Restart-policy helpers of pkg/api/v1/pod/util.go (kubelet 1.34–1.37; ContainerRestartRules,
// KEP-5307) as in k8s.io/kubernetes v1.37.2
// (ContainerShouldRestart, FindMatchingContainerRestartRule).
// Which policy decides whether an exited container restarts. Pure.

import type { Container, ContainerRestartRule, PodSpec } from './api-types';
import type { RestartDecisionSource } from './pod-actions';

/** IsRestartableInitContainer: an init container with restartPolicy Always (a sidecar). */
export function isRestartableInitContainer(c: Container | undefined): boolean {
  return c?.restartPolicy === 'Always';
}

/** findMatchingContainerRestartRule: the first rule whose exit-code operator matches. */
export function findMatchingContainerRestartRule(
  c: Container,
  exitCode: number,
): { rule: ContainerRestartRule; index: number } | undefined {
  const rules = c.restartPolicyRules ?? [];
  for (let i = 0; i < rules.length; i++) {
    const r = rules[i];
    if (!r.exitCodes) continue;
    const listed = (r.exitCodes.values ?? []).includes(exitCode);
    if (r.exitCodes.operator === 'In' && listed) return { rule: r, index: i };
    if (r.exitCodes.operator === 'NotIn' && !listed) return { rule: r, index: i };
  }
  return undefined;
}

/**
 * ContainerShouldRestart: a matching rule with action Restart restarts; otherwise the container's
 * own restartPolicy; without one, the pod's (unset = Always). The second value says which decided.
 * Rules are read only when the container has its own restartPolicy, as kubelet does.
 */
export function containerShouldRestart(
  c: Container,
  spec: PodSpec | undefined,
  exitCode: number,
): { restart: boolean; decidedBy: RestartDecisionSource } {
  if (c.restartPolicy !== undefined) {
    const m = findMatchingContainerRestartRule(c, exitCode);
    if (m && m.rule.action === 'Restart') {
      return {
        restart: true,
        decidedBy: {
          level: 'rule',
          policy: 'Restart',
          rule: { index: m.index, operator: m.rule.exitCodes!.operator, values: m.rule.exitCodes!.values ?? [] },
        },
      };
    }
    switch (c.restartPolicy) {
      case 'Always':
        return { restart: true, decidedBy: { level: 'container', policy: 'Always' } };
      case 'OnFailure':
        return { restart: exitCode !== 0, decidedBy: { level: 'container', policy: 'OnFailure' } };
      case 'Never':
        return { restart: false, decidedBy: { level: 'container', policy: 'Never' } };
    }
  }
  const policy = spec?.restartPolicy ?? 'Always';
  switch (policy) {
    case 'OnFailure':
      return { restart: exitCode !== 0, decidedBy: { level: 'pod', policy } };
    case 'Never':
      return { restart: false, decidedBy: { level: 'pod', policy } };
    default:
      return { restart: true, decidedBy: { level: 'pod', policy: 'Always' } };
  }
}

/**
 * A rule of `c` with action RestartAllContainers matches this exit code (RestartAllContainersOnContainerExits).
 * Kubelet looks the rule up directly, without first asking for a container-level restartPolicy.
 */
export function matchesRestartAllContainers(c: Container, exitCode: number): boolean {
  return findMatchingContainerRestartRule(c, exitCode)?.rule.action === 'RestartAllContainers';
}
