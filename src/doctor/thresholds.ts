// The filesystem arithmetic of resources.imagefs and resources.logfs: kubelet's eviction signals
// (nodefs.available, nodefs.inodesFree, imagefs.available, imagefs.inodesFree) and image GC's high
// threshold, measured against what statfs reports. Pure.
//
// Kubelet's defaults (pkg/kubelet/apis/config/v1beta1 defaults, eviction_defaults_linux):
// evictionHard memory.available 100Mi, nodefs.available 10%, nodefs.inodesFree 5%,
// imagefs.available 15%, imagefs.inodesFree 5%; no soft thresholds; imageGCHighThresholdPercent 85,
// imageGCLowThresholdPercent 80. A KubeletConfiguration that sets evictionHard replaces the whole
// map (signals it does not name are not enforced) unless mergeDefaultEvictionSettings is true.
import { parseQuantity, toBytes } from '../kubelet/quantity';

export const DEFAULT_EVICTION_HARD: Readonly<Record<string, string>> = {
  'memory.available': '100Mi',
  'nodefs.available': '10%',
  'nodefs.inodesFree': '5%',
  'imagefs.available': '15%',
  'imagefs.inodesFree': '5%',
};
export const DEFAULT_IMAGE_GC_HIGH_PERCENT = 85;

/** A threshold as kubelet reads it: a percentage of capacity or an absolute quantity. */
export type Threshold = { percent: number; text: string } | { quantity: number; text: string };

/** "10%" or "1Gi"; undefined for what kubelet would refuse (kubelet would not start, a config check says so). */
export function parseThreshold(text: string): Threshold | undefined {
  const t = text.trim();
  if (t.endsWith('%')) {
    const n = Number(t.slice(0, -1));
    return Number.isFinite(n) && n >= 0 && n <= 100 ? { percent: n, text: t } : undefined;
  }
  try {
    const q = toBytes(parseQuantity(t));
    return q >= 0 ? { quantity: q, text: t } : undefined;
  } catch {
    return undefined;
  }
}

/** The minimum a threshold requires of a resource with `capacity` units. */
export function thresholdAmount(t: Threshold, capacity: number): number {
  return 'percent' in t ? (capacity * t.percent) / 100 : t.quantity;
}

export interface EvictionSettings {
  hard: Record<string, string>;
  soft: Record<string, string>;
  imageGCHighThresholdPercent: number;
  /** Where each came from, for evidence ("kubelet defaults", a config path). */
  from: string;
}

/**
 * The eviction thresholds and image GC threshold the kubelet runs with, from its merged
 * configuration (undefined: no kubelet config read, kubelet's defaults).
 */
export function evictionSettings(config: Record<string, unknown> | undefined, from: string): EvictionSettings {
  const strMap = (v: unknown): Record<string, string> | undefined =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).filter(([, x]) => typeof x === 'string') as [string, string][],
        )
      : undefined;
  const setHard = strMap(config?.evictionHard);
  const merge = config?.mergeDefaultEvictionSettings === true;
  const hard =
    setHard === undefined ? { ...DEFAULT_EVICTION_HARD } : merge ? { ...DEFAULT_EVICTION_HARD, ...setHard } : setHard;
  const gc = config?.imageGCHighThresholdPercent;
  return {
    hard,
    soft: strMap(config?.evictionSoft) ?? {},
    imageGCHighThresholdPercent: typeof gc === 'number' ? gc : DEFAULT_IMAGE_GC_HIGH_PERCENT,
    from: config ? from : "kubelet's defaults",
  };
}

/** What statfs says of one filesystem. */
export interface FsUsage {
  capacityBytes: number;
  availableBytes: number;
  inodes: number;
  inodesFree: number;
}

export interface FsVerdict {
  status: 'ok' | 'warn' | 'fail';
  /** One clause per threshold crossed, most serious first; empty when none is. */
  findings: string[];
  usedPercent: number;
  inodesUsedPercent: number;
}

const pct = (n: number): string => `${Math.round(n * 10) / 10}%`;
const human = (b: number): string => {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = b;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(1)}${units[i]}`;
};

/**
 * A filesystem against the signals of `kind` (nodefs for the log/root filesystem, imagefs for the
 * image filesystem): below a hard threshold kubelet evicts pods (fail); below a soft one it will
 * after the grace period (warn); an image filesystem at or above imageGCHighThresholdPercent
 * starts image garbage collection (warn).
 */
export function judgeFilesystem(kind: 'nodefs' | 'imagefs', u: FsUsage, s: EvictionSettings): FsVerdict {
  const usedPercent = u.capacityBytes > 0 ? ((u.capacityBytes - u.availableBytes) / u.capacityBytes) * 100 : 0;
  const inodesUsedPercent = u.inodes > 0 ? ((u.inodes - u.inodesFree) / u.inodes) * 100 : 0;
  const fails: string[] = [];
  const warns: string[] = [];
  const signals: Array<[string, number, number, (n: number) => string]> = [
    [`${kind}.available`, u.availableBytes, u.capacityBytes, human],
    [`${kind}.inodesFree`, u.inodesFree, u.inodes, (n) => `${Math.floor(n)} inodes`],
  ];
  for (const [signal, free, capacity, fmt] of signals) {
    if (capacity <= 0) continue; // a filesystem without inode accounting (some tmpfs, btrfs) reports 0
    for (const [map, out, word] of [
      [s.hard, fails, 'hard'],
      [s.soft, warns, 'soft'],
    ] as const) {
      const text = map[signal];
      const t = text === undefined ? undefined : parseThreshold(text);
      if (!t) continue;
      const min = thresholdAmount(t, capacity);
      if (free < min)
        out.push(`${signal} ${fmt(free)} is below the ${word} eviction threshold ${t.text} (${fmt(min)})`);
    }
  }
  if (kind === 'imagefs' && s.imageGCHighThresholdPercent < 100 && usedPercent >= s.imageGCHighThresholdPercent) {
    warns.push(
      `usage ${pct(usedPercent)} is at or above imageGCHighThresholdPercent ${s.imageGCHighThresholdPercent}% (kubelet deletes unused images)`,
    );
  }
  return {
    status: fails.length ? 'fail' : warns.length ? 'warn' : 'ok',
    findings: [...fails, ...warns],
    usedPercent,
    inodesUsedPercent,
  };
}

export const formatBytes = human;
export const formatPercent = pct;
