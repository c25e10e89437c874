// doctor checks of the resources group: the cgroup controllers kubelet needs, swap against the
// kubelet's swap settings, and the image and container-log filesystems (bytes and inodes) against
// kubelet's eviction thresholds and image GC threshold.
import { statfs } from 'node:fs/promises';
import type { CheckOutcome, DoctorCheck, DoctorEnv, Evidence } from '../types';
import { mergedKubeletConfig } from '../kubelet-config-doc';
import { evictionSettings, formatBytes, formatPercent, judgeFilesystem, type FsUsage } from '../thresholds';

const ev = (name: string, value: string, from: string): Evidence => ({ name, value, from });

/**
 * The controllers kubelet needs: on cgroup v1 its container manager requires cpu, cpuacct, cpuset
 * and memory mounted, and its cgroup manager uses pids; on v2 cpu, cpuset, memory and pids must be
 * available at the root. hugetlb is optional (without it huge pages report no capacity).
 */
export const REQUIRED_CONTROLLERS = {
  1: ['cpu', 'cpuacct', 'cpuset', 'memory', 'pids'],
  2: ['cpu', 'cpuset', 'memory', 'pids'],
} as const;
export const OPTIONAL_CONTROLLERS = ['hugetlb'] as const;

/** Which of `want` are missing from `have`. Pure. */
export function missingControllers(have: ReadonlySet<string>, want: readonly string[]): string[] {
  return want.filter((c) => !have.has(c));
}

/** The active swap devices of /proc/swaps (header line dropped). */
export function parseSwaps(text: string): Array<{ name: string; sizeKiB: number }> {
  return text
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length >= 3 && f[0])
    .map((f) => ({ name: f[0]!, sizeKiB: Number(f[2]) || 0 }));
}

async function configFrom(env: DoctorEnv): Promise<{ doc?: Record<string, unknown>; from: string }> {
  const c = await mergedKubeletConfig(env);
  return { doc: c.doc, from: c.files.length ? c.files.join(' + ') : "kubelet's defaults" };
}

async function usageOf(env: DoctorEnv, path: string): Promise<FsUsage> {
  const s = await statfs(env.nodePath(path));
  return {
    capacityBytes: s.blocks * s.bsize,
    availableBytes: s.bavail * s.bsize,
    inodes: s.files,
    inodesFree: s.ffree,
  };
}

function fsOutcome(
  kind: 'nodefs' | 'imagefs',
  what: string,
  path: string,
  u: FsUsage,
  settings: ReturnType<typeof evictionSettings>,
  extra: Evidence[],
): CheckOutcome {
  const v = judgeFilesystem(kind, u, settings);
  const evidence = [
    ...extra,
    ev(
      'size',
      `${formatBytes(u.capacityBytes)}, ${formatBytes(u.availableBytes)} available (${formatPercent(v.usedPercent)} used)`,
      `statfs ${path}`,
    ),
    ev(
      'inodes',
      u.inodes > 0
        ? `${u.inodes - u.inodesFree} of ${u.inodes} used (${formatPercent(v.inodesUsedPercent)})`
        : 'not counted by this filesystem',
      `statfs ${path}`,
    ),
    ev(
      'eviction hard',
      Object.entries(settings.hard)
        .filter(([k]) => k.startsWith(kind))
        .map(([k, t]) => `${k}<${t}`)
        .join(', ') || 'none',
      settings.from,
    ),
  ];
  const soft = Object.entries(settings.soft).filter(([k]) => k.startsWith(kind));
  if (soft.length) evidence.push(ev('eviction soft', soft.map(([k, t]) => `${k}<${t}`).join(', '), settings.from));
  if (kind === 'imagefs')
    evidence.push(ev('imageGCHighThresholdPercent', String(settings.imageGCHighThresholdPercent), settings.from));
  if (v.status === 'ok')
    return {
      status: 'ok',
      summary: `The ${what} at ${path} is ${formatPercent(v.usedPercent)} full, inside kubelet's thresholds.`,
      evidence,
    };
  return {
    status: v.status,
    summary: `The ${what} at ${path}: ${v.findings.join('; ')}.`,
    evidence,
    remedy:
      kind === 'imagefs'
        ? 'Free space: `syncpod rmi --prune` removes images no container uses; check what else fills the filesystem (du -x), or grow it.'
        : 'Free space: remove old pod logs and exited containers (`syncpod rm` of exited ones), look for large files with du -x, or grow the filesystem.',
  };
}

export const resourcesChecks: DoctorCheck[] = [
  {
    id: 'resources.cgroup-controllers',
    group: 'resources',
    title: 'the cgroup controllers kubelet needs are there',
    async run(env) {
      const v2 = await env.readNodeFile('/sys/fs/cgroup/cgroup.controllers').then(
        (t) => t,
        () => undefined,
      );
      let have: Set<string>;
      let from: string;
      let version: 1 | 2;
      if (v2 !== undefined) {
        version = 2;
        have = new Set(v2.trim().split(/\s+/).filter(Boolean));
        from = '/sys/fs/cgroup/cgroup.controllers';
      } else {
        version = 1;
        from = '/proc/self/mounts (cgroup mounts)';
        let mounts: string;
        try {
          mounts = await env.readNodeFile('/proc/self/mounts');
        } catch {
          return {
            status: 'skip',
            summary: 'Neither /sys/fs/cgroup/cgroup.controllers nor /proc/self/mounts could be read.',
            evidence: [],
          };
        }
        have = new Set();
        for (const line of mounts.split('\n')) {
          const f = line.split(' ');
          if (f[2] !== 'cgroup') continue;
          for (const o of (f[3] ?? '').split(',')) have.add(o);
        }
        if (have.size === 0)
          return {
            status: 'skip',
            summary: 'No cgroup v1 hierarchy is mounted and /sys/fs/cgroup is not cgroup v2.',
            evidence: [ev('cgroup mounts', 'none', from)],
          };
      }
      const required = REQUIRED_CONTROLLERS[version];
      const missing = missingControllers(have, required);
      const optionalMissing = missingControllers(have, OPTIONAL_CONTROLLERS);
      const evidence = [
        ev('cgroup version', version === 2 ? 'v2 (unified)' : 'v1', from),
        ev(
          'controllers',
          [...have]
            .filter((c) => [...required, ...OPTIONAL_CONTROLLERS].includes(c as never))
            .sort()
            .join(', ') || 'none',
          from,
        ),
      ];
      if (missing.length) {
        return {
          status: 'fail',
          summary: `cgroup ${version === 2 ? 'v2' : 'v1'} lacks ${missing.join(', ')}: kubelet's container manager refuses to start (or cannot enforce pod limits) without them.`,
          evidence,
          remedy:
            version === 2
              ? 'Enable the controllers at the root (cgroup_enable=… on the kernel command line, or systemd delegation) and reboot.'
              : 'Mount the missing v1 hierarchies (or boot with systemd.unified_cgroup_hierarchy=1 for cgroup v2).',
        };
      }
      const note = optionalMissing.length
        ? ` (${optionalMissing.join(', ')} absent: huge pages report no capacity)`
        : '';
      return {
        status: 'ok',
        summary: `cgroup ${version === 2 ? 'v2' : 'v1'} has every controller kubelet needs${note}.`,
        evidence,
      };
    },
  },
  {
    id: 'resources.swap',
    group: 'resources',
    title: "swap against the kubelet's swap settings",
    async run(env) {
      let swaps: ReturnType<typeof parseSwaps>;
      try {
        swaps = parseSwaps(await env.readNodeFile('/proc/swaps'));
      } catch {
        return { status: 'skip', summary: '/proc/swaps could not be read.', evidence: [] };
      }
      const cfg = await configFrom(env);
      const failSwapOn = cfg.doc?.failSwapOn !== false;
      const ms = cfg.doc?.memorySwap;
      const behavior =
        ms && typeof ms === 'object' && typeof (ms as Record<string, unknown>).swapBehavior === 'string'
          ? ((ms as Record<string, unknown>).swapBehavior as string)
          : 'NoSwap';
      const evidence = [
        ev(
          'swap',
          swaps.length ? swaps.map((s) => `${s.name} ${formatBytes(s.sizeKiB * 1024)}`).join(', ') : 'off',
          '/proc/swaps',
        ),
        ev('failSwapOn', String(failSwapOn), cfg.from),
        ev('memorySwap.swapBehavior', behavior, cfg.from),
      ];
      if (swaps.length === 0) return { status: 'ok', summary: 'Swap is off.', evidence };
      if (failSwapOn) {
        return {
          status: env.profile.detected ? 'fail' : 'warn',
          summary: `Swap is on (${swaps.length} device(s)) and failSwapOn is true: kubelet refuses to start on this node.`,
          evidence,
          remedy:
            'swapoff -a and remove swap from /etc/fstab, or set failSwapOn: false (and memorySwap.swapBehavior) in the KubeletConfiguration.',
        };
      }
      return {
        status: 'ok',
        summary: `Swap is on and kubelet allows it (failSwapOn false, swapBehavior ${behavior}).`,
        evidence,
      };
    },
  },
  {
    id: 'resources.imagefs',
    group: 'resources',
    title: "the image filesystem against kubelet's image GC and eviction thresholds",
    async run(env) {
      const info = await env.cri.imageFsInfo();
      const fs = info.imageFilesystems?.[0];
      const mount = fs?.fsId?.mountpoint;
      if (!mount)
        return {
          status: 'skip',
          summary: 'The runtime reports no image filesystem (ImageFsInfo is empty).',
          evidence: [],
        };
      const settings = evictionSettings((await configFrom(env)).doc, (await configFrom(env)).from);
      const u = await usageOf(env, mount);
      const extra = [
        ev(
          'image filesystem',
          `${mount}, ${formatBytes(Number(fs.usedBytes?.value ?? 0))} used by images`,
          'CRI ImageFsInfo',
        ),
      ];
      return fsOutcome('imagefs', 'image filesystem', mount, u, settings, extra);
    },
  },
  {
    id: 'resources.logfs',
    group: 'resources',
    title: "the container log filesystem against kubelet's eviction thresholds",
    async run(env) {
      const dir = env.profile.podLogsDir.value;
      const cfg = await configFrom(env);
      const settings = evictionSettings(cfg.doc, cfg.from);
      let u: FsUsage;
      try {
        u = await usageOf(env, dir);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT')
          return { status: 'skip', summary: `The pod logs directory ${dir} does not exist.`, evidence: [] };
        throw err;
      }
      const s = env.profile.podLogsDir;
      const extra = [ev('podLogsDir', dir, s.from ? `${s.source} ${s.from}` : s.source)];
      return fsOutcome('nodefs', 'container log filesystem', dir, u, settings, extra);
    },
  },
];
