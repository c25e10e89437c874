// What a runtime says about its own configuration in Status's verbose info (containerd's CRI
// plugin puts its config as JSON under "config": sandboxImage in 1.x, pinnedImages.sandbox in 2.x;
// the runc runtime's options.SystemdCgroup). CRI-O answers RuntimeConfig instead. Pure.
import type * as T from '../cri/types';
import { isObj, type Obj } from '../json-object';
import type { ContainerdConfigRead } from '../node/containerd-config';
import { crioOrigin, type CrioConfigRead } from '../node/crio-config';

/** The runtime's own configuration as the node profile read it (containerd's file or CRI-O's). */
export interface RuntimeConfigFiles {
  containerdConfig?: ContainerdConfigRead;
  crioConfig?: CrioConfigRead;
}

/** The parsed "config" of Status's info; undefined when absent or not JSON. */
export function runtimeInfoConfig(status: T.StatusResponse): Obj | undefined {
  const text = status.info?.config;
  if (!text) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return isObj(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The sandbox (pause) image the runtime uses for new sandboxes, and where in its info it said so. */
export function runtimeSandboxImage(status: T.StatusResponse): { image: string; from: string } | undefined {
  const c = runtimeInfoConfig(status);
  if (!c) return undefined;
  const pinned = isObj(c.pinnedImages) ? c.pinnedImages.sandbox : undefined;
  if (typeof pinned === 'string' && pinned)
    return { image: pinned, from: 'CRI Status info.config.pinnedImages.sandbox' };
  if (typeof c.sandboxImage === 'string' && c.sandboxImage)
    return { image: c.sandboxImage, from: 'CRI Status info.config.sandboxImage' };
  return undefined;
}

/**
 * containerd 2.x keeps its image settings out of Status info, but pins its sandbox image
 * (pinned_images.sandbox): the one pinned image, when exactly one is pinned.
 */
export function pinnedSandboxImage(images: readonly T.Image[]): { image: string; from: string } | undefined {
  const pinned = images.filter((i) => i.pinned && i.repoTags.length > 0);
  if (pinned.length !== 1) return undefined;
  return { image: pinned[0].repoTags[0], from: 'CRI ListImages (the one pinned image)' };
}

/** The cgroup driver of the runtime's default runc runtime (options.SystemdCgroup), where its info says. */
export function runtimeInfoCgroupDriver(
  status: T.StatusResponse,
): { driver: 'systemd' | 'cgroupfs'; from: string } | undefined {
  const c = runtimeInfoConfig(status);
  const ctd = c && isObj(c.containerd) ? c.containerd : undefined;
  if (!ctd || !isObj(ctd.runtimes)) return undefined;
  const name = typeof ctd.defaultRuntimeName === 'string' && ctd.defaultRuntimeName ? ctd.defaultRuntimeName : 'runc';
  const rt = ctd.runtimes[name];
  if (!isObj(rt)) return undefined;
  const options = isObj(rt.options) ? rt.options : {};
  const systemd = options.SystemdCgroup === true || rt.systemdCgroup === true;
  return {
    driver: systemd ? 'systemd' : 'cgroupfs',
    from: `CRI Status info.config.containerd.runtimes.${name}.options.SystemdCgroup`,
  };
}

/** Whether `image` names the same image as one of `names` (a repo tag or digest), docker.io/library spelled out. */
export function imageMatches(image: string, names: readonly string[]): boolean {
  const norm = (ref: string): string => {
    let r = ref;
    const slash = r.indexOf('/');
    const host = slash > 0 ? r.slice(0, slash) : '';
    if (slash < 0 || (!host.includes('.') && !host.includes(':') && host !== 'localhost'))
      r = `docker.io/${slash < 0 ? 'library/' : ''}${r}`;
    if (!r.includes('@') && !/:[^/]+$/.test(r)) r += ':latest';
    return r;
  };
  const want = norm(image);
  return names.some((n) => norm(n) === want);
}

/** Where a setting of containerd's config file came from, for evidence. */
function configOrigin(read: ContainerdConfigRead & { found: true }, v: { key: string; file?: string }): string {
  return v.file ? `${v.file} ${v.key}` : `containerd's default (${v.key} not set in ${read.config.files[0]})`;
}

/** The cgroup driver the runtime's configuration gives (containerd: its default runtime's SystemdCgroup; CRI-O: cgroup_manager). */
export function configCgroupDriver(
  files: RuntimeConfigFiles,
): { driver: 'systemd' | 'cgroupfs'; from: string } | undefined {
  const crio = files.crioConfig;
  if (crio?.found) return { driver: crio.config.cgroupManager.value, from: crioOrigin(crio.config.cgroupManager) };
  const read = files.containerdConfig;
  if (!read?.found) return undefined;
  return { driver: read.config.cgroupDriver.value, from: configOrigin(read, read.config.cgroupDriver) };
}

/** The sandbox image the runtime's configuration sets (containerd: pinned_images.sandbox in version 3, sandbox_image in 2; CRI-O: pause_image). */
export function configSandboxImage(files: RuntimeConfigFiles): { image: string; from: string } | undefined {
  const crio = files.crioConfig;
  if (crio?.found)
    return crio.config.pauseImage
      ? { image: crio.config.pauseImage.value, from: crioOrigin(crio.config.pauseImage) }
      : undefined;
  const read = files.containerdConfig;
  if (!read?.found || !read.config.sandboxImage) return undefined;
  return { image: read.config.sandboxImage.value, from: configOrigin(read, read.config.sandboxImage) };
}

/** The CNI directories the runtime's configuration gives (or its defaults, named as such). */
export function configCniDirs(
  files: RuntimeConfigFiles,
): { confDir: string; binDirs: string[]; from: string } | undefined {
  const crio = files.crioConfig;
  if (crio?.found) {
    const c = crio.config;
    return {
      confDir: c.networkDir.value,
      binDirs: c.pluginDirs.value,
      from: `${crioOrigin(c.networkDir)}; ${crioOrigin(c.pluginDirs)}`,
    };
  }
  const read = files.containerdConfig;
  if (!read?.found) return undefined;
  const c = read.config;
  return {
    confDir: c.cniConfDir.value,
    binDirs: c.cniBinDirs.value,
    from: `${configOrigin(read, c.cniConfDir)}; ${configOrigin(read, c.cniBinDirs)}`,
  };
}
