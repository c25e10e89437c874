// Pods and containers made straight through the CRI (not by syncpod), labelled as kubelet labels
// them, for the e2e files that read them back with syncpod (and crictl): read-commands,
// crictl-parity, crictl-rest, crictl-templates.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BUSYBOX_IMAGE, type Lab } from '../harness/lab';
import type { CriService, RuntimeMethods } from '../../src/cri/grpc-runtime-service';

export interface PodName {
  name: string;
  namespace: string;
  uid: string;
}

/**
 * A PodSandboxConfig as kubelet writes it for `pod` (its log directory under the lab's pod logs
 * root, the pod name/namespace/uid labels), with the test's own labels and annotations.
 */
export function kubeletSandboxConfig(
  lab: Lab,
  pod: PodName,
  extra: { labels?: Record<string, string>; annotations?: Record<string, string> } = {},
) {
  return {
    metadata: { name: pod.name, namespace: pod.namespace, uid: pod.uid, attempt: 0 },
    logDirectory: path.join(lab.podLogsRoot, `${pod.namespace}_${pod.name}_${pod.uid}`),
    labels: {
      'io.kubernetes.pod.name': pod.name,
      'io.kubernetes.pod.namespace': pod.namespace,
      'io.kubernetes.pod.uid': pod.uid,
      ...extra.labels,
    },
    annotations: { ...extra.annotations },
    linux: {},
  };
}

export type KubeletSandboxConfig = ReturnType<typeof kubeletSandboxConfig>;

/**
 * Creates and starts a busybox container running `command` in the sandbox `podSandboxId` (made
 * from `sb`), labelled as kubelet labels it, its log at `<name>/<attempt>.log` in the pod's log
 * directory. Returns its ID.
 */
export async function runKubeletContainer(
  rt: CriService<RuntimeMethods>,
  podSandboxId: string,
  sb: KubeletSandboxConfig,
  name: string,
  command: string[],
  opts: { attempt?: number; annotations?: Record<string, string> } = {},
): Promise<string> {
  const attempt = opts.attempt ?? 0;
  fs.mkdirSync(path.join(sb.logDirectory, name), { recursive: true });
  const { containerId } = await rt.call(
    'CreateContainer',
    {
      podSandboxId,
      config: {
        metadata: { name, attempt },
        image: { image: BUSYBOX_IMAGE, userSpecifiedImage: BUSYBOX_IMAGE },
        command,
        logPath: `${name}/${attempt}.log`,
        labels: {
          'io.kubernetes.container.name': name,
          'io.kubernetes.pod.uid': sb.metadata.uid,
          'io.kubernetes.pod.namespace': sb.metadata.namespace,
          'io.kubernetes.pod.name': sb.metadata.name,
        },
        ...(opts.annotations ? { annotations: opts.annotations } : {}),
      },
      sandboxConfig: sb,
    },
    { timeoutMs: 30000 },
  );
  await rt.call('StartContainer', { containerId }, { timeoutMs: 30000 });
  return containerId;
}

/**
 * Polls `check` every 100 ms until it holds; fails naming `what` after `ms`. The default, 60 s, is a
 * bound on a state that comes well within a second on an idle machine: it is reached only when the
 * state never comes, so a loaded machine cannot make it fail (it was 100 polls, about 10 s).
 */
export async function waitFor(check: () => Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (${ms / 1000} s)`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
