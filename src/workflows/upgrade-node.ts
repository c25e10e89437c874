// Will this node's kubelet start after the upgrade? Reads the facts kubelet's start-up checks
// depend on — the running kubelet's command line and its config files (as the node profile found
// them), the host's cgroup version, /proc/swaps, the runtime's Version and RuntimeConfig answers —
// and judges them against the target's preconditions (src/kubelet/startup-checks.ts). Shared by
// `plan --upgrade-to` and `doctor --upgrade-to`.
import { errorLine } from '../errors';
import { parseConfigDocument, mergePatch, type ConfigDocument } from '../node/kubelet-config';
import type { NodeProfile, RuntimeCgroupDriver } from '../node/types';
import { startupVerdict, type StartupFacts, type StartupVerdict, type ConfigFileText } from '../kubelet/startup-checks';
import { resolveKubeletRules } from '../kubelet/kubelet-version';
import { parseSwaps } from '../doctor/checks/resources';

export interface RuntimeVersionFacts {
  name: string;
  version: string;
  apiVersion: string;
  /** The CRI API the runtime serves: v1 or v1alpha2. */
  criApi: string;
  endpoint: string;
}

export interface UpgradeNodeDeps {
  profile: NodeProfile;
  /** A node file's text (under --host-root). */
  readNodeFile(path: string): Promise<string>;
  /** The host's cgroup version and where it was read. */
  cgroup(): { version: 1 | 2; from: string };
  /** The runtime's Version answer; rejects when the runtime does not answer. */
  runtimeVersion(): Promise<RuntimeVersionFacts>;
  runtimeConfig(): Promise<RuntimeCgroupDriver>;
}

/** The facts, each read once; a part that cannot be read is left out (and its checks say nothing). */
export async function readStartupFacts(deps: UpgradeNodeDeps): Promise<StartupFacts> {
  const k = deps.profile.kubelet;
  let kubelet: StartupFacts['kubelet'];
  if (deps.profile.detected && k) {
    const paths = [...(k.configFile ? [k.configFile] : []), ...k.dropIns];
    const configFiles: ConfigFileText[] = [];
    let merged: ConfigDocument | undefined;
    if (paths.length > 0) {
      const { parse } = await import('yaml');
      for (const path of paths) {
        const text = await deps.readNodeFile(path);
        configFiles.push({ path, text });
        const doc = parseConfigDocument({ path, text }, (t) => parse(t));
        merged = merged === undefined ? doc : (mergePatch(merged, doc) as ConfigDocument);
      }
    }
    kubelet = { pid: k.pid, args: k.args, configFiles, config: merged ?? {} };
  }
  let swaps: StartupFacts['swaps'];
  try {
    swaps = parseSwaps(await deps.readNodeFile('/proc/swaps'));
  } catch {
    swaps = undefined;
  }
  const runtime = await deps.runtimeVersion().catch(() => undefined);
  const rc = await deps.runtimeConfig().catch((err): RuntimeCgroupDriver => ({ answered: false, why: errorLine(err) }));
  return {
    kubelet,
    cgroup: deps.cgroup(),
    swaps,
    runtime,
    runtimeConfig: rc.answered ? { answered: true, cgroupDriver: rc.cgroupDriver } : { answered: false, why: rc.why },
  };
}

/** The verdict for `targetVersion` (refused first when syncpod does not know that kubelet). */
export async function upgradeNodeVerdict(deps: UpgradeNodeDeps, targetVersion: string): Promise<StartupVerdict> {
  resolveKubeletRules(targetVersion, {});
  return startupVerdict(await readStartupFacts(deps), targetVersion);
}
