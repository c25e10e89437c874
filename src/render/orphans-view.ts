// The table of pods kubelet would clean up (node plan orphans, a single plan's duplicates): one row
// per uid with its newest sandbox, containers, age and what kubelet would do.
import type { Orphan } from '../kubelet/orphans';
import { wrappedTableRows } from './wrapped-table';

function age(seconds: number): string {
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7200) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 172800) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86400)}d`;
}

/** The header line and each orphan's line (KUBELET WOULD wrapped to the width). */
export function orphanTable(orphans: Orphan[], width?: number): string[] {
  const rows = orphans.map((o) => {
    const s = o.sandboxes[0];
    const running = o.containers.filter((x) => x.state === 'running').length;
    return [
      o.namespace,
      o.name,
      o.uid,
      s ? s.id.slice(0, 13) : '-',
      s ? s.state : 'no sandbox',
      `${o.containers.length} (${running} running)`,
      age(s ? s.ageSeconds : (o.containers[0]?.ageSeconds ?? 0)),
      (o.kubelet === 'kill' ? `kill (grace ${o.gracePeriodSeconds}s), then remove` : 'remove') +
        (o.podCgroup ? ` with its pod cgroup ${o.podCgroup.name}` : ''),
    ];
  });
  return wrappedTableRows(
    ['NAMESPACE', 'NAME', 'UID', 'SANDBOX', 'STATE', 'CONTAINERS', 'AGE', 'KUBELET WOULD'],
    rows,
    { width, wrap: [7] },
  ).flat();
}
