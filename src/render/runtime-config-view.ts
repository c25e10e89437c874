// `runtime-config` as crictl 1.37 prints it: one "cgroup driver:" row of a tabwriter table (minimum
// cell width 10, padding 3), only when the runtime answered with its Linux settings.
import type { RuntimeConfigResponse } from '../cri/types';

export function formatRuntimeConfig(res: RuntimeConfigResponse): string {
  if (!res.linux) return '';
  const label = 'cgroup driver:';
  return `${label.padEnd(Math.max(10, label.length + 3))}${res.linux.cgroupDriver}\n`;
}
