// kubelet's removeContainer (kuberuntime_container.go, kubelet 1.37): the container's log files and
// its legacy /var/log/containers symlink first, then RemoveContainer (NotFound means done).
import type { Pod } from '../../kubelet/api-types';
import { errorLine } from '../../errors';
import { StepError } from '../types';
import { legacyLogSymlinkName } from '../kubelet-rules';
import { isNotFound, type StepContext } from './step-context';

export interface RemoveContainerInput {
  pod: Pod;
  containerId: string;
  name: string;
  /** The observed status's log path ('' when unknown: no log files removed). */
  logPath: string;
  /** Directory of kubelet's legacy log symlinks (/var/log/containers). */
  legacyLogDir: string;
}

/** Throws RemoveContainerError. */
export async function removeContainer(c: StepContext, r: RemoveContainerInput): Promise<void> {
  const id = r.containerId;
  if (r.logPath) {
    const dir = r.logPath.slice(0, r.logPath.lastIndexOf('/'));
    const base = r.logPath.slice(r.logPath.lastIndexOf('/') + 1);
    for (const f of (c.fs.readdir(dir) ?? []).filter((e) => e === base || e.startsWith(`${base}.`)).sort())
      c.fs.remove(`${dir}/${f}`);
    c.notes.push(`removed ${r.logPath}`);
  }
  c.fs.remove(
    `${r.legacyLogDir}/${legacyLogSymlinkName(r.pod.metadata!.name!, r.pod.metadata!.namespace!, r.name, id)}`,
  );
  try {
    await c.rt.call('RemoveContainer', { containerId: id }, { timeoutMs: c.requestTimeoutMs });
  } catch (err) {
    if (!isNotFound(err))
      throw new StepError('RemoveContainerError', `failed to remove container ${id.slice(0, 13)}: ${errorLine(err)}`);
  }
  c.notes.push(`removed container ${id.slice(0, 13)}`);
  // Its subPath bind mounts go with it (the next instance makes and checks its own).
  for (const target of c.fs.cleanSubPaths(r.pod.metadata?.uid ?? '', r.name)) c.notes.push(`unmounted ${target}`);
}
