// kubelet's createPodSandbox and the PodSandboxStatus after it (kuberuntime_sandbox.go and SyncPod
// step 4, kubelet 1.37): config generated (pure) and its filesystem work done, RunPodSandbox, then the
// pod IPs read from the new sandbox's status (host-network pods keep the node's).
import type { Pod } from '../../kubelet/api-types';
import type * as T from '../../cri/types';
import { errorLine } from '../../errors';
import { formatPod } from '../../kubelet/labels';
import { generatePodSandboxConfig, type SandboxOptions } from '../../kubelet/sandbox-config';
import { applyEffect } from '../fs-effects';
import { StepError } from '../types';
import type { StepContext } from './step-context';

export interface CreateSandboxInput {
  pod: Pod;
  attempt: number;
  sandboxOptions: SandboxOptions;
}

/** Config, its filesystem work, RunPodSandbox; returns the new sandbox's id. Throws CreatePodSandboxError. */
export async function runPodSandbox(c: StepContext, s: CreateSandboxInput): Promise<string> {
  const podRef = formatPod(s.pod);
  let gen: ReturnType<typeof generatePodSandboxConfig>;
  try {
    gen = generatePodSandboxConfig(s.pod, s.attempt, s.sandboxOptions);
  } catch (err) {
    throw new StepError(
      'CreatePodSandboxError',
      `Failed to generate sandbox config for pod "${podRef}": ${errorLine(err)}`,
    );
  }
  try {
    for (const e of gen.effects) applyEffect(c.fs, e);
  } catch (err) {
    throw new StepError(
      'CreatePodSandboxError',
      `Failed to create log directory for pod "${podRef}": ${errorLine(err)}`,
    );
  }
  let sandboxId: string;
  try {
    const res = await c.rt.call(
      'RunPodSandbox',
      { config: gen.config, runtimeHandler: gen.runtimeHandler },
      { timeoutMs: c.requestTimeoutMs },
    );
    sandboxId = res.podSandboxId;
  } catch (err) {
    throw new StepError('CreatePodSandboxError', `Failed to create sandbox for pod "${podRef}": ${errorLine(err)}`);
  }
  c.notes.push(`sandbox ${sandboxId.slice(0, 13)} (attempt ${gen.config.metadata?.attempt})`);
  return sandboxId;
}

/**
 * The pod IPs from the new sandbox's status (a host-network pod keeps `podIPs`). Throws
 * FailedPodSandBoxStatus; the sandbox stays, as kubelet leaves it.
 */
export async function sandboxPodIPs(c: StepContext, sandboxId: string, pod: Pod, podIPs: string[]): Promise<string[]> {
  let st: T.PodSandboxStatusResponse;
  try {
    st = await c.rt.call(
      'PodSandboxStatus',
      { podSandboxId: sandboxId, verbose: false },
      { timeoutMs: c.requestTimeoutMs },
    );
  } catch (err) {
    throw new StepError('FailedPodSandBoxStatus', `Unable to get pod sandbox status: ${errorLine(err)}`);
  }
  if (!st.status) throw new StepError('FailedPodSandBoxStatus', 'pod sandbox status is nil');
  let ips = podIPs;
  if (pod.spec?.hostNetwork !== true) {
    const net = st.status.network;
    ips = net ? [net.ip, ...(net.additionalIps ?? []).map((a) => a.ip)].filter((ip) => ip !== '') : [];
  }
  if (ips.length) c.notes.push(`IP ${ips.join(', ')}`);
  return ips;
}
