// Pod manifests and flags shared by the step and sync e2e tests.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Lab } from '../harness/lab';

export const LOOP = 'trap "exit 0" TERM; while true; do sleep 1; done';

export interface PodSpecInput {
  name: string;
  uid?: string;
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  inits?: Array<{ name: string; image: string; script: string; pull?: string }>;
  containers: Array<{ name: string; image: string; script?: string; pull?: string; env?: Record<string, string> }>;
}

export function podManifest(p: PodSpecInput): string {
  const c = (x: { name: string; image: string; script?: string; pull?: string; env?: Record<string, string> }) => ({
    name: x.name,
    image: x.image,
    imagePullPolicy: x.pull ?? 'IfNotPresent',
    command: ['sh', '-c', x.script ?? LOOP],
    ...(x.env ? { env: Object.entries(x.env).map(([name, value]) => ({ name, value })) } : {}),
  });
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: p.name, namespace: 'e2e', ...(p.uid ? { uid: p.uid } : {}), labels: { app: p.name } },
    spec: {
      restartPolicy: p.restartPolicy ?? 'Always',
      terminationGracePeriodSeconds: 2,
      ...(p.inits ? { initContainers: p.inits.map((i) => c(i)) } : {}),
      containers: p.containers.map(c),
    },
  });
}

export function writeManifest(dir: string, p: PodSpecInput): string {
  const file = path.join(dir, `${p.name}.json`);
  fs.writeFileSync(file, podManifest(p));
  return file;
}

export function nodeFlags(lab: Lab): string[] {
  return ['--pod-logs-root', lab.podLogsRoot, '--pod-dir-root', lab.podDirRoot, '--node-name', 'e2e-node'];
}
